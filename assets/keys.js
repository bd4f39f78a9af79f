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
// Ignored: presses with Ctrl / Alt / Meta, and any key while the focus is in an input,
// a text area, a select, an editable element or the data editor's grid. Space on a
// focused button and the arrow keys on a focused slider are left to the element (they
// click it / move it).
//
// Browser-side actions:
//   "?"     – the overlay listing the shortcuts, a modal dialog: it takes the focus (its
//             Close button), keeps Tab inside, and gives the focus back on close (Escape,
//             "?", Close); the "⌨ shortcuts" hint in the page's corner opens it too.
//   Space   – if the page shows a Plotly animation (the report's playback), its ▶ play /
//             ❙❙ pause buttons; otherwise the event goes to Python (presenter mode plays the
//             scrubber). While Python says "playing", one "tick" event is sent per step,
//             the next one only after Python acknowledged the last (the rerun that drew
//             it came back), two frames were painted and `interval` ms have passed.

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
  background: #ffffff; color: #1f2328; border-radius: 10px; padding: 18px 26px;
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

function typing(el) {
  if (!el || el === document.body) return false;
  const tag = (el.tagName || "").toLowerCase();
  if (tag === "input" || tag === "textarea" || tag === "select") return true;
  if (el.closest && el.closest(OWN_KEYS)) return true;
  return Boolean(el.isContentEditable);
}

class Keys {
  constructor() {
    this.data = {};
    this.channel = new EventChannel();
    this.tickTimer = null;
    this.tickFrame = null;
    this.animPlaying = new WeakMap();
    this.onKey = (e) => this.handle(e);
    document.addEventListener("keydown", this.onKey, true);
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

  // The first Plotly animation on the page (a graph with animate buttons), or null.
  static animation() {
    for (const gd of document.querySelectorAll(".js-plotly-plot")) {
      if (gd.closest(".svmlab-canvas")) continue; // the data canvas is not an animation
      if (gd.querySelector(".updatemenu-button")) return gd;
    }
    return null;
  }

  // Click the animation's "▶ play" or "❙❙ pause" button (plotly's own handlers).
  playAnimation(gd) {
    const playing = Boolean(this.animPlaying.get(gd));
    for (const b of gd.querySelectorAll(".updatemenu-button")) {
      const text = (b.textContent || "").trim();
      if (playing ? !text.endsWith("pause") : text !== "▶ play") continue;
      b.dispatchEvent(new MouseEvent("click", { bubbles: true }));
      this.animPlaying.set(gd, !playing);
      if (!gd.__svmlabKeysBound && typeof gd.on === "function") {
        gd.__svmlabKeysBound = true;
        gd.on("plotly_animated", () => this.animPlaying.set(gd, false));
      }
      document.documentElement.dataset.svmlabAnimPlaying = playing ? "" : "1";
      return true;
    }
    return false;
  }

  handle(e) {
    if (e.ctrlKey || e.altKey || e.metaKey || e.isComposing) return;
    const el = e.target;
    if (typing(el) || typing(document.activeElement)) return;
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
    const role = el && el.getAttribute ? el.getAttribute("role") : null;
    const tag = el && el.tagName ? el.tagName.toLowerCase() : "";
    if (e.key === " " && (tag === "button" || role === "button")) return;
    if (role === "slider" && /^(Arrow|Page|Home|End)/.test(e.key)) return;
    e.preventDefault();
    e.stopPropagation();
    if (action === "help") {
      this.toggleOverlay();
      return;
    }
    if (action === "play" && !this.data.presenting) {
      const gd = Keys.animation();
      if (gd && this.playAnimation(gd)) return;
    }
    this.send(action, e.key);
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
