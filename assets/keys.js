// SVM Lab keyboard shortcuts: a Streamlit components-v2 front end (svmlab/ui/keyboard.py).
//
// One listener per browser tab, on the page's document (capture phase), installed by the
// first mount and kept on window.__svmlabKeys (this component's own, shared with no other);
// later mounts only pass it the new data (the key table, the channel's contract, playing,
// presenting) and the new setStateValue.
//
// A key press becomes one event {action, key} sent through the acknowledged-event channel
// (assets/event_channel.js, prepended to this module, as to the canvas's): numbered, kept
// until Python acknowledges it, one rerun request per press, nothing re-sent on a timer.
//
// Ignored: presses with Ctrl / Alt / Meta, and any key while the focus is in a text field
// (an input that takes text or numbers, a text area, a select, an editable element or the
// data editor's grid): those keep their keys.
//
// The lab's keys always drive the lab, also when a slider, a toggle, a checkbox, a radio or
// a button has the focus because the mouse used it (a slider keeps the focus after a drag):
// the press is taken in the capture phase — preventDefault and stopPropagation, on keydown
// and on its keyup (where a button or a checkbox would act on Space) — so that no key ever
// changes a parameter or flips a toggle by accident. A slider or radio group reached with
// the keyboard (Tab) keeps ← / → (a keyboard user moves the control they went to); every
// other shortcut still drives the lab there.
//
// The plane reached with the keyboard and the tree under it keep ← / → (see OWN_ARROWS).
//
// Playback keys (Space, ← / →, PageUp / PageDown, Home / End) act on the page's canvas
// (assets/canvas.js: its transport plays, steps and scrubs the run on the plane at once,
// and sends the snapshot it stops at to Python). Without a run to play on the page, the
// event goes to Python (which steps the scrubber; in presenter mode Space plays it there,
// one "tick" event at a time: the next only after Python acknowledged the last, two frames
// were painted and `interval` ms have passed).
//
// "?" opens the overlay listing the shortcuts, a modal dialog in the page's colours: it
// takes the focus (its Close button), keeps Tab inside, and gives the focus back on close
// (Escape, "?", Close); the "⌨ shortcuts" hint in the page's corner opens it too.

const STATE = "__svmlabKeys";
const STYLE_ID = "svmlab-keys-style";

const CSS = `
.svmlab-keys-hint {
  position: fixed; right: 14px; bottom: 10px; z-index: 999990;
  font: 13px/1.4 sans-serif; padding: 3px 9px; border-radius: 6px; cursor: pointer;
  color: #1f2328; background: rgba(242,244,247,0.92); border: 1px solid #c9ced6;
}
.svmlab-keys-overlay {
  position: fixed; inset: 0; z-index: 999999; display: flex;
  align-items: center; justify-content: center; background: rgba(0,0,0,0.45);
}
.svmlab-keys-overlay[hidden] { display: none; }
.svmlab-keys-panel {
  background: #ffffff; color: #1f2328;
  border: 1px solid rgba(128,128,128,0.45); border-radius: 10px; padding: 18px 26px;
  font: 16px/1.5 sans-serif; box-shadow: 0 8px 30px rgba(0,0,0,0.35); max-width: 90vw;
}
.svmlab-keys-panel h2 { font-size: 20px; margin: 0 0 10px; }
.svmlab-keys-panel td { padding: 2px 14px 2px 0; vertical-align: top; }
.svmlab-keys-panel kbd {
  font: 15px monospace; padding: 1px 6px; border: 1px solid #9aa1ab; border-radius: 4px;
  background: #f2f4f7; white-space: nowrap;
}
.svmlab-keys-panel p { margin: 10px 0 0; font-size: 14px; color: #555; }
.svmlab-keys-close {
  float: right; min-width: 24px; min-height: 24px; font: 14px sans-serif; cursor: pointer;
  padding: 3px 10px; border: 1px solid #9aa1ab; border-radius: 6px; background: #f2f4f7;
  color: #1f2328;
}
.svmlab-keys-close:focus-visible, .svmlab-keys-hint:focus-visible {
  outline: 3px solid #0072B2; outline-offset: 2px;
}
`;

// Elements that use the keys themselves: fields, and the data editor's grid (its arrows
// move between cells and a typed character starts editing one).
const OWN_KEYS = '[role="grid"], [data-testid="stDataFrame"], [data-testid="stDataEditor"]';
// Inputs that take no text: their keys are the lab's.
const NOT_TEXT = new Set(["checkbox", "radio", "range", "button", "submit", "reset", "color", "file", "image"]);
// Controls the mouse uses: the lab takes their keys (see above).
const CONTROL = [
  "button", "summary", "a[href]", "input", '[role="button"]', '[role="slider"]', '[role="switch"]',
  '[role="checkbox"]', '[role="radio"]', '[role="radiogroup"]', '[role="tab"]', '[role="option"]',
].join(", ");
// Elements that take the arrow keys themselves while they say so: the plane driven by the
// keyboard (its crosshair, assets/plane_cursor.js) and the tree over the model
// (assets/plane_tree.js). Space, PageUp / PageDown, Home / End still play and step there.
const OWN_ARROWS = '[data-svmlab-arrows="on"]';
// Controls whose ← / → a keyboard user moves (when they reached them with Tab).
const ARROW_CONTROL = '[role="slider"], [role="radio"], [role="radiogroup"], input[type="range"], input[type="radio"]';
// Playback keys the page's canvas plays itself.
const CANVAS_ACTIONS = new Set(["play", "next", "prev", "first", "last"]);

function typing(el) {
  if (!el || el === document.body) return false;
  const tag = (el.tagName || "").toLowerCase();
  if (tag === "input") return !NOT_TEXT.has(String(el.type || "text").toLowerCase());
  if (tag === "textarea" || tag === "select") return true;
  if (el.closest && el.closest(OWN_KEYS)) return true;
  return Boolean(el.isContentEditable);
}

class Keys {
  constructor() {
    this.data = {};
    this.channel = new EventChannel();
    this.tickTimer = null;
    this.tickFrame = null;
    this.pointerAt = -1e9;
    this.pointerWidget = null;
    this.pointerFocus = false; // the focused element got the focus from the pointer
    this.swallow = null; // the key whose keyup is taken too
    this.onKey = (e) => this.handle(e);
    document.addEventListener("keydown", this.onKey, true);
    document.addEventListener("keyup", (e) => this.handleUp(e), true);
    // The focus came from the pointer when the element focused belongs to the widget the
    // pointer pressed a moment before (a slider's thumb, a toggle's label, a button).
    document.addEventListener("pointerdown", (e) => {
      this.pointerAt = performance.now();
      this.pointerWidget = Keys.widget(e.target);
    }, true);
    document.addEventListener("focusin", (e) => {
      const recent = performance.now() - this.pointerAt < 1000;
      this.pointerFocus = recent && Keys.widget(e.target) === this.pointerWidget;
    }, true);
    this.buildOverlay();
  }

  buildOverlay() {
    if (!document.getElementById(STYLE_ID)) {
      const style = document.createElement("style");
      style.id = STYLE_ID;
      style.textContent = CSS;
      document.head.appendChild(style);
    }
    this.hint = document.createElement("button");
    this.hint.type = "button";
    this.hint.className = "svmlab-keys-hint";
    this.hint.textContent = "⌨ shortcuts: ?";
    this.hint.title = "Keyboard shortcuts";
    this.hint.addEventListener("click", () => this.toggleOverlay(true));
    this.overlay = document.createElement("div");
    this.overlay.className = "svmlab-keys-overlay";
    this.overlay.hidden = true;
    this.overlay.setAttribute("role", "dialog");
    this.overlay.setAttribute("aria-modal", "true"); // a modal: it takes and returns focus
    this.overlay.setAttribute("aria-label", "Keyboard shortcuts");
    this.overlay.addEventListener("click", (e) => {
      if (e.target === this.overlay) this.toggleOverlay(false);
    });
    document.body.append(this.hint, this.overlay);
  }

  fillOverlay() {
    const rows = (this.data.shortcuts || [])
      .map(([keys, text]) => {
        const kbd = String(keys)
          .split(/\s{2,}/)
          .map((k) => `<kbd>${k.replace(/</g, "&lt;")}</kbd>`)
          .join(" ");
        return `<tr><td>${kbd}</td><td>${String(text).replace(/</g, "&lt;")}</td></tr>`;
      })
      .join("");
    this.overlay.innerHTML =
      '<div class="svmlab-keys-panel"><button type="button" class="svmlab-keys-close">' +
      `Close</button><h2>Keyboard shortcuts</h2><table>${rows}</table>` +
      "<p>Not while typing in a field. Clicker remotes: PageDown / PageUp step. " +
      "Esc closes.</p></div>";
  }

  toggleOverlay(show) {
    const on = show === undefined ? this.overlay.hidden : show;
    if (on === !this.overlay.hidden) return;
    if (on) {
      this.opener = document.activeElement; // focus goes back there on close
      this.fillOverlay();
      // the page's own colours (Streamlit's theme: light, dark, or another)
      const app = document.querySelector('[data-testid="stApp"]') || document.body;
      const css = getComputedStyle(app);
      const panel = this.overlay.firstElementChild;
      if (panel && css.backgroundColor && !/rgba\(0, 0, 0, 0\)|transparent/.test(css.backgroundColor)) {
        panel.style.background = css.backgroundColor;
        panel.style.color = css.color;
        for (const el of panel.querySelectorAll("kbd, p, button")) el.style.color = css.color;
        for (const el of panel.querySelectorAll("kbd, button")) el.style.background = "transparent";
      }
    }
    this.overlay.hidden = !on;
    document.documentElement.dataset.svmlabKeysOverlay = on ? "1" : "";
    if (on) {
      const close = this.overlay.querySelector(".svmlab-keys-close");
      close.addEventListener("click", () => this.toggleOverlay(false));
      close.focus();
    } else {
      const back = this.opener && this.opener.isConnected ? this.opener : this.hint;
      if (back && back !== document.body && back.focus) back.focus();
      this.opener = null;
    }
  }

  update(data, setState) {
    this.data = data || {};
    this.channel.update(this.data.channel, setState);
    const pending = this.channel.settle();
    if (!this.hint.isConnected || !this.overlay.isConnected) document.body.append(this.hint, this.overlay);
    document.documentElement.dataset.svmlabPresenting = this.data.presenting ? "1" : "";
    document.documentElement.dataset.svmlabKeysAck = String(this.channel.ack);
    if (!this.data.playing) {
      this.stopTicks();
    } else if (!pending.some((e) => e.action === "tick") && !this.tickFrame && !this.tickTimer) {
      // The last tick is applied and its rerun has come back: step again once the page
      // has painted it (two frames: the canvas draws the rerun's figure as it arrives).
      this.tickFrame = requestAnimationFrame(() => {
        this.tickFrame = requestAnimationFrame(() => {
          this.tickFrame = null;
          this.tickTimer = setTimeout(() => {
            this.tickTimer = null;
            if (this.data.playing) this.send("tick", "tick");
          }, Number(this.data.interval || 350));
        });
      });
    }
  }

  stopTicks() {
    cancelAnimationFrame(this.tickFrame);
    clearTimeout(this.tickTimer);
    this.tickFrame = null;
    this.tickTimer = null;
  }

  send(action, key) {
    this.channel.send({ action, key });
    document.documentElement.dataset.svmlabKeysSent = String(this.channel.sends);
  }

  // The widget an element belongs to (Streamlit's element container), or the element.
  static widget(el) {
    if (!el || !el.closest) return el || null;
    return el.closest('[data-testid="stElementContainer"], .svmlab-canvas') || el;
  }

  // The page's data canvas (assets/canvas.js), if it is on the page.
  static canvas() {
    const root = document.querySelector(".svmlab-canvas");
    return root && root.__svmlabCanvas ? root.__svmlabCanvas : null;
  }

  handle(e) {
    if (e.ctrlKey || e.altKey || e.metaKey || e.isComposing) return;
    const el = document.activeElement && document.activeElement !== document.body
      ? document.activeElement
      : e.target;
    if (typing(el) || typing(e.target)) return;
    if (e.key === "Tab") this.pointerFocus = false;
    if (e.key === "Escape" && !this.overlay.hidden) {
      this.toggleOverlay(false);
      return;
    }
    const action = (this.data.keys || {})[e.key];
    if (!this.overlay.hidden && action !== "help") {
      // a modal: Tab stays on its Close button, the page's shortcuts wait
      if (e.key === "Tab") {
        e.preventDefault();
        this.overlay.querySelector(".svmlab-keys-close").focus();
      }
      return;
    }
    if (!action) return;
    if (/^Arrow/.test(e.key) && el && el.closest && el.closest(OWN_ARROWS)) return;
    const control = el && el.closest ? el.closest(CONTROL) : null;
    if (control && /^Arrow/.test(e.key) && !this.pointerFocus && control.closest(ARROW_CONTROL)) {
      return; // a keyboard user's slider or radio group
    }
    e.preventDefault();
    e.stopPropagation();
    this.swallow = e.key;
    if (action === "help") {
      this.toggleOverlay();
      return;
    }
    const canvas = CANVAS_ACTIONS.has(action) ? Keys.canvas() : null;
    if (canvas && canvas.act(action)) {
      document.documentElement.dataset.svmlabKeysLast = `${action}:canvas`;
      return;
    }
    document.documentElement.dataset.svmlabKeysLast = `${action}:python`;
    this.send(action, e.key);
  }

  // The keyup of a key taken on keydown: a focused button or checkbox acts on it.
  handleUp(e) {
    if (this.swallow === null || e.key !== this.swallow) return;
    this.swallow = null;
    e.preventDefault();
    e.stopPropagation();
  }
}

export default function (component) {
  let keys = window[STATE];
  if (!keys) {
    keys = new Keys();
    window[STATE] = keys;
  }
  keys.update(component.data, component.setStateValue);
  return () => {};
}
