// SVM Lab accessibility helper: a Streamlit components-v2 front end (svmlab/ui/access.py),
// mounted on every page. One instance per browser tab (window.__svmlabAccess); later mounts
// pass it the new data.
//
// 1. Sliders announced with their value: a select_slider's aria-valuenow is the option's
//    index ("8"); every thumb (Streamlit 1.67: a hidden <input type="range">) gets
//    aria-valuetext = the value it shows (its stSliderThumbValue, e.g. "0.01" or
//    "t = 1,000") where Streamlit has not set it, kept current by a MutationObserver.
// 2. The sidebar navigation's list markup made valid (see navList); a formula that scrolls
//    sideways made focusable (see scrollables).
// 3. Focus kept where the user was: a rerun that replaces the focused control (a button
//    whose label changes, presenter mode on / off, Undo, "Open" on an exercise) leaves the
//    focus on <body>. The helper remembers the last focused control (its Streamlit key
//    class "st-key-…" and its label) and, when the focus has fallen to <body> because that
//    control left the page or was disabled, focuses data.focus (a key Python named,
//    svmlab.ui.access.focus_next), else the control with the same key (or, disabled, the
//    next control after it), else a button with the same label.

const STATE = "__svmlabAccess";
const FOCUSABLE =
  "button:not([disabled]), a[href], input:not([disabled]), select, textarea, summary, " +
  "[role='slider'], [tabindex]:not([tabindex='-1'])";
const RETRY_MS = 150;
const RETRIES = 800; // 2 min: a page switch reruns (and may train) a whole page, on a busy server too

function keyClass(el) {
  for (let n = el; n && n !== document.body; n = n.parentElement) {
    for (const c of n.classList || []) if (c.startsWith("st-key-")) return c;
  }
  return null;
}

// A control's identity by what it says: its visible text and its aria-label (a select's
// chevron, aria-label "Open", is not the exercise's "Open" button).
function label(el) {
  const text = (el.innerText || "").trim().slice(0, 80);
  return `${text}|${el.getAttribute("aria-label") || ""}`;
}

// Focus root (or its first focusable element); with loose, a root with none is made
// focusable (tabindex -1: a box such as the exercise's goal, read out when focused).
function focusIn(root, loose = true) {
  if (!root) return false;
  const el = root.matches && root.matches(FOCUSABLE) ? root : root.querySelector(FOCUSABLE);
  if (el) {
    el.focus();
    return document.activeElement === el;
  }
  if (!loose) return false;
  if (!root.hasAttribute("tabindex")) root.setAttribute("tabindex", "-1");
  root.focus();
  return document.activeElement === root;
}

// The element Python named: a widget's container gives the focus to its control; a box
// with more in it (the exercise's goal: statement, hint, check) takes it itself, so that a
// screen reader reads the box from its start.
function focusTarget(root) {
  if (!root) return false;
  const el = root.querySelector(FOCUSABLE);
  if (el && (root.innerText || "").trim() === (el.innerText || "").trim()) return focusIn(el);
  if (!root.hasAttribute("tabindex")) root.setAttribute("tabindex", "-1");
  root.focus();
  return document.activeElement === root;
}

// Focus the first visible focusable element after node in document order (a control that
// was disabled by the rerun, e.g. Undo with nothing left to undo: Redo or Clear next).
function focusAfter(node) {
  for (const el of document.querySelectorAll(FOCUSABLE)) {
    if (!(node.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING)) continue;
    if (node.contains(el) || el.offsetParent === null) continue;
    el.focus();
    if (document.activeElement === el) return true;
  }
  return false;
}

class Access {
  constructor() {
    this.last = null; // {el, key, label}
    this.target = "";
    document.addEventListener("focusin", (e) => this.remember(e.target), true);
    this.observer = new MutationObserver(() => this.schedule());
    this.observer.observe(document.body, { childList: true, subtree: true, characterData: true });
    this.schedule();
  }

  remember(el) {
    if (!el || el === document.body || !el.matches || !el.matches(FOCUSABLE)) return;
    this.last = { el, key: keyClass(el), label: label(el), path: location.pathname };
  }

  schedule() {
    if (this.pending) return;
    this.pending = requestAnimationFrame(() => {
      this.pending = null;
      this.sliders();
      this.navList();
      this.scrollables();
      this.restore();
    });
  }

  // aria-valuetext = the value the thumb shows
  sliders() {
    for (const s of document.querySelectorAll('[data-testid="stSlider"]')) {
      const thumb = s.querySelector('input[type="range"], [role="slider"]');
      const shown = s.querySelector('[data-testid="stSliderThumbValue"]');
      if (!thumb || !shown) continue;
      const text = shown.innerText.trim();
      if (text && thumb.getAttribute("aria-valuetext") !== text) {
        thumb.setAttribute("aria-valuetext", text);
      }
    }
  }

  // Streamlit's sidebar navigation with sections puts each section's header and its <li>s
  // in a <div> inside the <ul> (invalid list markup: axe / Lighthouse "list", "listitem").
  // Its list semantics are dropped (role="none" on the <ul> and the <li>s): the nav
  // landmark, the section headers and the links stay as they are.
  navList() {
    for (const ul of document.querySelectorAll('[data-testid="stSidebarNavItems"]')) {
      if (!Array.from(ul.children).some((c) => c.tagName !== "LI")) continue;
      if (ul.getAttribute("role") !== "none") ul.setAttribute("role", "none");
      for (const li of ul.querySelectorAll("li")) {
        if (li.getAttribute("role") !== "none") li.setAttribute("role", "none");
      }
    }
  }

  // A formula wider than its column scrolls sideways (KaTeX's display box): it takes the
  // focus (tabindex 0) so that the arrow keys can scroll it (WCAG 2.1.1).
  scrollables() {
    for (const el of document.querySelectorAll(".katex-display")) {
      const wide = el.scrollWidth > el.clientWidth + 1;
      if (wide && el.getAttribute("tabindex") !== "0") {
        el.setAttribute("tabindex", "0");
        el.setAttribute("role", "region");
        el.setAttribute("aria-label", "formula (scrolls sideways)");
      }
    }
  }

  lost() {
    const a = document.activeElement;
    if (a && a !== document.body && a !== document.documentElement) return false;
    const last = this.last;
    return Boolean(last && (!last.el.isConnected || last.el.disabled));
  }

  restore() {
    if (!this.lost()) return; // the focus is where the user put it: leave it
    const last = this.last;
    let ok = false;
    if (this.target) {
      // Python named the element: only it (update() retries until it is drawn)
      ok = focusTarget(document.querySelector(`.st-key-${CSS.escape(this.target)}`));
      if (ok) {
        this.target = "";
        this.remember(document.activeElement);
      }
      return;
    }
    if (last.path !== location.pathname) return; // another page: nothing to go back to
    if (last.el.classList && last.el.classList.contains("svmlab-canvas-plot")) {
      // The plane (focused by a click or by Tab) was drawn anew: its new plot takes the
      // focus once it is focusable, without scrolling; never another control of the canvas
      // (the tree under the plane would open and move the page).
      const box = last.key ? document.querySelector(`.${CSS.escape(last.key)}`) : null;
      const plot = box && box.querySelector(".svmlab-canvas-plot");
      if (!plot || plot.tabIndex < 0) return; // retried on the page's next change
      plot.focus({ preventScroll: true });
      if (document.activeElement === plot) this.remember(plot);
      return;
    }
    if (last.key) {
      const same = document.querySelector(`.${CSS.escape(last.key)}`);
      if (same) ok = focusIn(same, false) || focusAfter(same);
    }
    if (!ok && last.el.isConnected) ok = focusAfter(last.el);
    if (!ok && last.label) {
      const same = Array.from(document.querySelectorAll("button:not([disabled])")).find(
        (b) => label(b) === last.label,
      );
      if (same) ok = focusIn(same);
    }
    if (ok) {
      this.target = "";
      this.remember(document.activeElement);
      document.documentElement.dataset.svmlabFocusRestored = String(
        Number(document.documentElement.dataset.svmlabFocusRestored || 0) + 1,
      );
    }
  }

  update(data) {
    const target = (data && data.focus) || "";
    if (!target) return;
    this.target = target;
    // the element may come later in this rerun (or on the next page): retry a while
    let n = 0;
    const tick = () => {
      if (!this.target) return;
      const el = document.querySelector(`.st-key-${CSS.escape(this.target)}`);
      if (el && (this.lost() || document.activeElement === document.body)) {
        if (focusTarget(el)) {
          this.target = "";
          this.remember(document.activeElement);
          return;
        }
      }
      if (++n < RETRIES) setTimeout(tick, RETRY_MS);
      else this.target = "";
    };
    setTimeout(tick, 0);
  }
}

export default function (component) {
  let access = window[STATE];
  if (!access) {
    access = new Access();
    window[STATE] = access;
  }
  access.update(component.data);
  return () => {};
}
