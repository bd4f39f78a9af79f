// SVM Lab data canvas: a Streamlit components-v2 front end around plotly.js.
//
// Streamlit calls the default export once on mount and again whenever the data sent
// from Python change (same parentElement each time). Instance state lives on the
// parentElement, so a call only re-renders the figure (Plotly.react, cheap) and updates
// the mode / class. plotly.js is the bundle of the installed plotly package, served by
// Streamlit's static file serving (/app/static/plotly.min.js): nothing from the internet.
//
// Clicks:
//   add   – a click anywhere in the plot area (pointerdown + pointerup within 5 px) is
//           turned into data coordinates through plotly's own axes (p2d). The point is
//           drawn at once in an SVG overlay (no Plotly redraw) and sent with
//           setTriggerValue("event", …). layout.clickanywhere = true is set too (plotly
//           then emits plotly_click on empty space), but plotly_click is not used: it goes
//           through plotly's double-click detection, which swallows the second of two
//           quick clicks, and its xvals come from a throttled hover pass that can lag a
//           quick pointer move (both seen in the browser tests).
//   erase – the click is hit-tested against the drawn points (14 px) and sent.
//   move  – pointerdown on a point, drag (a ghost follows), pointerup sends the move.
// Every event carries a nonce (monotonic per browser tab). Until Python acknowledges it
// (data.ack >= nonce) the event stays "pending": it is drawn in the overlay and re-sent
// with later events, so that two quick clicks cannot lose one.

const PLOTLY_KEY = "__svmlabPlotlyPromise";
const HIT_PX = 14; // hit radius for erase / move, in pixels
const MARK_R = 6.5; // overlay marker radius, in pixels
const RESEND_MS = 2000;
const MAX_BATCH = 50;
const SVGNS = "http://www.w3.org/2000/svg";

function loadPlotly(src) {
  if (window.Plotly) return Promise.resolve(window.Plotly);
  if (!window[PLOTLY_KEY]) {
    window[PLOTLY_KEY] = new Promise((resolve, reject) => {
      let tag = document.querySelector("script[data-svmlab-plotly]");
      if (!tag) {
        tag = document.createElement("script");
        tag.src = src;
        tag.async = true;
        tag.dataset.svmlabPlotly = "1";
        document.head.appendChild(tag);
      }
      tag.addEventListener("load", () =>
        window.Plotly
          ? resolve(window.Plotly)
          : reject(new Error("plotly.js loaded but defines no window.Plotly")),
      );
      tag.addEventListener("error", () => {
        window[PLOTLY_KEY] = null;
        tag.remove();
        reject(new Error(`could not load ${src}`));
      });
    });
  }
  return window[PLOTLY_KEY];
}

function nextNonce() {
  const last = window.__svmlabNonce || 0;
  const n = Math.max(Date.now(), last + 1);
  window.__svmlabNonce = n;
  return n;
}

// SVG path of a Plotly-like marker symbol of radius r centred on (0, 0).
function symbolPath(symbol, r) {
  const f = (v) => v.toFixed(2);
  switch (symbol) {
    case "square": {
      const s = r * 0.9;
      return `M${f(s)},${f(s)}H${f(-s)}V${f(-s)}H${f(s)}Z`;
    }
    case "diamond": {
      const s = r * 1.3;
      return `M${f(s)},0L0,${f(s)}L${f(-s)},0L0,${f(-s)}Z`;
    }
    case "triangle-up": {
      const s = r * 1.3;
      return `M${f(-s)},${f(s / 2)}H${f(s)}L0,${f(-s)}Z`;
    }
    case "cross":
    case "x": {
      const t = r * 0.4;
      const s = r * 1.1;
      const p = `M${f(t)},${f(s)}H${f(-t)}V${f(t)}H${f(-s)}V${f(-t)}H${f(-t)}V${f(-s)}H${f(t)}V${f(-t)}H${f(s)}V${f(t)}H${f(t)}Z`;
      return p;
    }
    case "star": {
      const pts = [];
      for (let k = 0; k < 10; k++) {
        const rad = k % 2 === 0 ? r * 1.4 : r * 0.6;
        const a = (Math.PI / 5) * k - Math.PI / 2;
        pts.push(`${f(rad * Math.cos(a))},${f(rad * Math.sin(a))}`);
      }
      return `M${pts.join("L")}Z`;
    }
    default:
      return `M${f(r)},0A${f(r)},${f(r)} 0 1,1 0,${f(-r)}A${f(r)},${f(r)} 0 0,1 ${f(r)},0Z`;
  }
}

class Canvas {
  constructor(parent) {
    this.parent = parent;
    this.root = document.createElement("div");
    this.root.className = "svmlab-canvas";
    this.root.setAttribute(
      "aria-label",
      "Data canvas: click to add a point, or erase / move points. " +
        "Keyboard users: use “Edit points as a table” in the data panel.",
    );
    this.plot = document.createElement("div");
    this.plot.className = "svmlab-canvas-plot";
    this.overlay = document.createElementNS(SVGNS, "svg");
    this.overlay.setAttribute("class", "svmlab-canvas-overlay");
    this.overlay.setAttribute("aria-hidden", "true");
    this.status = document.createElement("div");
    this.status.className = "svmlab-canvas-status";
    this.status.setAttribute("role", "status");
    this.root.append(this.plot, this.overlay, this.status);
    parent.appendChild(this.root);
    this.pending = [];
    this.seq = 0;
    this.renders = 0;
    this.figureText = null;
    this.bound = false;
    this.drag = null;
    this.resendTimer = null;
    this.lastSend = 0;
    this.resize = new ResizeObserver(() => {
      if (this.raf) return;
      this.raf = requestAnimationFrame(() => {
        this.raf = null;
        // Not while hidden or detached (e.g. during a page switch): plotly refuses.
        if (!window.Plotly || !this.plot._fullLayout) return;
        if (!this.root.isConnected || this.root.offsetWidth === 0) return;
        Promise.resolve(window.Plotly.Plots.resize(this.plot))
          .then(() => this.drawOverlay())
          .catch(() => {});
      });
    });
    this.resize.observe(this.root);
  }

  destroy() {
    this.resize.disconnect();
    if (this.handlers) {
      window.removeEventListener("pointermove", this.handlers.move, true);
      window.removeEventListener("pointerup", this.handlers.up, true);
    }
    clearTimeout(this.resendTimer);
    if (window.Plotly) window.Plotly.purge(this.plot);
    this.root.remove();
  }

  update(args) {
    // Serialise updates: a newer call waits for the older one, then skips stale work.
    this.chain = (this.chain || Promise.resolve()).then(() => this.render(args)).catch((err) => {
      this.status.textContent = `Canvas error: ${err.message}`;
    });
    return this.chain;
  }

  async render(args) {
    const data = args.data || {};
    this.setTrigger = args.setTriggerValue;
    this.data = data;
    this.mode = data.mode || "add";
    this.root.dataset.mode = this.mode;
    this.root.style.height = `${data.height || 520}px`;
    const my = ++this.seq;
    let Plotly;
    try {
      Plotly = await loadPlotly(data.plotly_src || "/app/static/plotly.min.js");
    } catch (err) {
      this.status.textContent =
        `The canvas could not load plotly.js (${err.message}). ` +
        "Use the table under “Edit points as a table” instead.";
      this.root.classList.add("svmlab-canvas-failed");
      return;
    }
    if (my !== this.seq) return; // a newer call superseded this one
    this.root.classList.remove("svmlab-canvas-failed");
    this.status.textContent = "";
    if (data.figure !== this.figureText) {
      const fig = typeof data.figure === "string" ? JSON.parse(data.figure) : data.figure || {};
      const layout = Object.assign({}, fig.layout || {});
      layout.clickanywhere = true;
      layout.dragmode = false;
      if (!layout.hovermode) layout.hovermode = "closest";
      layout.autosize = true;
      delete layout.width;
      layout.height = data.height || 520;
      for (const ax of ["xaxis", "yaxis"]) {
        layout[ax] = Object.assign({}, layout[ax] || {}, { fixedrange: true });
      }
      const config = Object.assign(
        {
          displaylogo: false,
          responsive: false,
          scrollZoom: false,
          doubleClick: false,
          showTips: false,
          displayModeBar: false,
        },
        fig.config || {},
      );
      await Plotly.react(this.plot, fig.data || [], layout, config);
      this.figureText = data.figure;
      this.renders += 1;
    }
    if (!this.bound) this.bind();
    const ack = Number(data.ack || 0);
    this.pending = this.pending.filter((e) => e.nonce > ack);
    const pts = data.points;
    this.plot.dataset.nPoints = pts ? String(pts.x.length) : "";
    this.plot.dataset.ack = String(ack);
    this.plot.dataset.renders = String(this.renders);
    this.plot.dataset.mode = this.mode;
    this.plot.dataset.cls = String(data.cls_index);
    this.drawOverlay();
    this.scheduleResend();
  }

  axes() {
    const fl = this.plot._fullLayout;
    if (!fl || !fl.xaxis || !fl.yaxis) return null;
    return { xa: fl.xaxis, ya: fl.yaxis };
  }

  // Pixel position (relative to the plot div) of data point (x, y).
  toPixel(x, y) {
    const a = this.axes();
    if (!a) return null;
    return [a.xa._offset + a.xa.d2p(x), a.ya._offset + a.ya.d2p(y)];
  }

  toData(px, py) {
    const a = this.axes();
    if (!a) return null;
    return [a.xa.p2d(px - a.xa._offset), a.ya.p2d(py - a.ya._offset)];
  }

  inPlotArea(px, py) {
    const a = this.axes();
    if (!a) return false;
    const u = px - a.xa._offset;
    const v = py - a.ya._offset;
    return u >= 0 && u <= a.xa._length && v >= 0 && v <= a.ya._length;
  }

  // Data units per HIT_PX pixels along each axis (for the Python side's radius).
  radius() {
    const a = this.axes();
    if (!a) return [0, 0];
    return [HIT_PX / Math.abs(a.xa._m || 1), HIT_PX / Math.abs(a.ya._m || 1)];
  }

  // Index of the drawn point nearest to pixel (px, py) within HIT_PX, or -1.
  hit(px, py) {
    const pts = this.data && this.data.points;
    if (!pts) return -1;
    let best = -1;
    let bestD = HIT_PX;
    for (let i = 0; i < pts.x.length; i++) {
      const p = this.toPixel(pts.x[i], pts.y[i]);
      if (!p) continue;
      const d = Math.hypot(p[0] - px, p[1] - py);
      if (d <= bestD) {
        bestD = d;
        best = i;
      }
    }
    return best;
  }

  bind() {
    this.bound = true;
    // Clicks are detected from pointer events, not plotly_click: plotly's click passes
    // through its double-click detection (two quick clicks count as one double click) and
    // its xvals come from a throttled hover pass (stale after a quick move).
    this.handlers = {
      down: (e) => this.onPointerDown(e),
      move: (e) => this.onPointerMove(e),
      up: (e) => this.onPointerUp(e),
    };
    this.plot.addEventListener("pointerdown", this.handlers.down, true);
    window.addEventListener("pointermove", this.handlers.move, true);
    window.addEventListener("pointerup", this.handlers.up, true);
  }

  localXY(e) {
    const r = this.plot.getBoundingClientRect();
    return [e.clientX - r.left, e.clientY - r.top];
  }

  onPointerDown(e) {
    if (e.button !== 0) return;
    const [px, py] = this.localXY(e);
    if (!this.inPlotArea(px, py)) return;
    if (e.target && e.target.closest && e.target.closest(".legend, .modebar")) return;
    if (this.mode === "move") {
      const i = this.hit(px, py);
      if (i < 0) return;
      e.preventDefault();
      e.stopPropagation();
      const pts = this.data.points;
      const index = pts.i ? pts.i[i] : i;
      this.drag = { index, fromX: pts.x[i], fromY: pts.y[i], cls: pts.c[i], px, py };
      this.root.classList.add("svmlab-dragging");
      this.drawOverlay();
      return;
    }
    this.press = { px, py, id: e.pointerId };
  }

  onPointerMove(e) {
    if (!this.drag) return;
    const [px, py] = this.localXY(e);
    this.drag.px = px;
    this.drag.py = py;
    this.drawOverlay();
  }

  onPointerUp(e) {
    const [px, py] = this.localXY(e);
    if (this.press) {
      const press = this.press;
      this.press = null;
      if (press.id === e.pointerId && Math.hypot(press.px - px, press.py - py) <= 5) {
        this.onTap(press.px, press.py);
      }
      return;
    }
    if (!this.drag) return;
    const drag = this.drag;
    this.drag = null;
    this.root.classList.remove("svmlab-dragging");
    const q = this.toData(px, py);
    if (!q || !Number.isFinite(q[0]) || !Number.isFinite(q[1])) {
      this.drawOverlay();
      return;
    }
    const start = this.toPixel(drag.fromX, drag.fromY);
    if (start && Math.hypot(start[0] - px, start[1] - py) < 2) {
      this.drawOverlay(); // a click, not a drag
      return;
    }
    const [rx, ry] = this.radius();
    this.send({
      type: "move",
      index: drag.index,
      x: q[0],
      y: q[1],
      from_x: drag.fromX,
      from_y: drag.fromY,
      cls_index: drag.cls,
      rx,
      ry,
    });
  }

  // A click (press and release within 5 px) at plot pixel (px, py).
  onTap(px, py) {
    const q = this.toData(px, py);
    if (!q || !Number.isFinite(q[0]) || !Number.isFinite(q[1])) return;
    this.lastClick = { px, py, x: q[0], y: q[1] };
    if (this.mode === "add") {
      const d = this.data;
      this.send({ type: "add", x: q[0], y: q[1], cls: d.cls, cls_index: d.cls_index });
    } else if (this.mode === "erase") {
      const i = this.hit(px, py);
      if (i < 0) {
        this.flash("No point here to erase.");
        return;
      }
      const pts = this.data.points;
      const [rx, ry] = this.radius();
      const index = pts.i ? pts.i[i] : i;
      this.send({ type: "erase", index, x: pts.x[i], y: pts.y[i], rx, ry });
    }
  }

  send(ev) {
    ev.nonce = nextNonce();
    ev.t = performance.now();
    this.pending.push(ev);
    this.drawOverlay();
    this.flush(ev);
  }

  flush(latest) {
    if (!this.setTrigger || !this.pending.length) return;
    const batch = this.pending.slice(-MAX_BATCH).map((e) => {
      const { t, ...rest } = e;
      return rest;
    });
    const last = latest || batch[batch.length - 1];
    const { t, ...head } = last;
    this.lastSend = performance.now();
    this.setTrigger("event", Object.assign({}, head, { events: batch }));
    this.scheduleResend();
  }

  // If Python has not acknowledged pending events after a while (a rerun that carried
  // them was superseded), send them again; Python ignores nonces it has seen.
  scheduleResend() {
    clearTimeout(this.resendTimer);
    if (!this.pending.length) return;
    this.resendTimer = setTimeout(() => {
      if (this.pending.length && performance.now() - this.lastSend >= RESEND_MS) this.flush();
      else this.scheduleResend();
    }, RESEND_MS);
  }

  flash(text) {
    this.status.textContent = text;
    clearTimeout(this.flashTimer);
    this.flashTimer = setTimeout(() => {
      this.status.textContent = "";
    }, 1500);
  }

  marker(px, py, clsIndex, extraClass) {
    const styles = (this.data && this.data.styles) || [];
    const st = styles[clsIndex] || { color: "#444", symbol: "circle" };
    const path = document.createElementNS(SVGNS, "path");
    path.setAttribute("d", symbolPath(st.symbol, MARK_R));
    path.setAttribute("transform", `translate(${px.toFixed(1)},${py.toFixed(1)})`);
    path.setAttribute("fill", st.color);
    path.setAttribute("stroke", "white");
    path.setAttribute("stroke-width", "1");
    path.setAttribute("class", extraClass);
    return path;
  }

  cross(px, py, extraClass) {
    const g = document.createElementNS(SVGNS, "path");
    const s = MARK_R + 2;
    g.setAttribute(
      "d",
      `M${px - s},${py - s}L${px + s},${py + s}M${px - s},${py + s}L${px + s},${py - s}`,
    );
    g.setAttribute("class", extraClass);
    return g;
  }

  drawOverlay() {
    const svg = this.overlay;
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    const a = this.axes();
    if (!a) return;
    for (const ev of this.pending) {
      if (ev.type === "add") {
        const p = this.toPixel(ev.x, ev.y);
        if (p) svg.appendChild(this.marker(p[0], p[1], ev.cls_index, "svmlab-pending svmlab-pending-add"));
      } else if (ev.type === "erase") {
        const p = this.toPixel(ev.x, ev.y);
        if (p) svg.appendChild(this.cross(p[0], p[1], "svmlab-pending svmlab-pending-erase"));
      } else if (ev.type === "move") {
        const p0 = this.toPixel(ev.from_x, ev.from_y);
        const p1 = this.toPixel(ev.x, ev.y);
        if (p0) svg.appendChild(this.cross(p0[0], p0[1], "svmlab-pending svmlab-pending-erase"));
        if (p1) svg.appendChild(this.marker(p1[0], p1[1], ev.cls_index, "svmlab-pending svmlab-pending-move"));
      }
    }
    if (this.drag) {
      const p0 = this.toPixel(this.drag.fromX, this.drag.fromY);
      if (p0) svg.appendChild(this.cross(p0[0], p0[1], "svmlab-drag-origin"));
      svg.appendChild(this.marker(this.drag.px, this.drag.py, this.drag.cls, "svmlab-drag-ghost"));
    }
    this.plot.dataset.pending = String(this.pending.length);
  }
}

export default function (component) {
  const { parentElement } = component;
  let canvas = parentElement.__svmlabCanvas;
  if (!canvas || !canvas.root.isConnected) {
    canvas = new Canvas(parentElement);
    parentElement.__svmlabCanvas = canvas;
  }
  canvas.update(component);
  // Streamlit calls this on unmount (and, for a superseded call, right away): only tear
  // down once the element has really left the page.
  return () => {
    setTimeout(() => {
      if (!parentElement.isConnected && parentElement.__svmlabCanvas === canvas) {
        canvas.destroy();
        delete parentElement.__svmlabCanvas;
      }
    }, 0);
  };
}
