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
//
// Hover link with the α bar chart (svmlab.figures: layout.meta "svmlab-alpha-bars", bar j =
// point j; the plane's point traces have meta "svmlab-points" and customdata[0] = index):
// the component is mounted in the light DOM (isolate_styles=False), so the bar chart that
// st.plotly_chart renders is a `.js-plotly-plot` div in the same document. A
// MutationObserver (debounced) finds it again after every rerun, since Streamlit replaces
// or re-renders it. Hovering bar j rings point j in the overlay and shows its hover label
// (Plotly.Fx.hover called by hand: plotly emits no event for that, so no loop). Hovering
// point j sends a synthetic mousemove to the bar chart's drag layer: the bar chart's own
// plotly.js (Streamlit's bundle, maybe another version than ours) shows its label; the
// event is tagged, and the bar chart's plotly_hover / plotly_unhover for tagged events
// are ignored (loop guard).

const PLOTLY_KEY = "__svmlabPlotlyPromise";
const HIT_PX = 14; // hit radius for erase / move, in pixels
const MARK_R = 6.5; // overlay marker radius, in pixels
const LINK_R = 17; // ring round the point of a hovered α bar, in pixels
const RESEND_MS = 2000;
const MAX_BATCH = 50;
const SVGNS = "http://www.w3.org/2000/svg";

// ---- hover link between the canvas (the plane) and the α bar chart ----------------------

const BARS_META = "svmlab-alpha-bars"; // svmlab.figures.ALPHA_BARS_META
const POINTS_META = "svmlab-points"; // svmlab.figures.POINTS_META
const LINK_FLAG = "__svmlabLinked"; // set on the synthetic events this file dispatches
const SCAN_MS = 80;

// One registry per window (every canvas shares it): live canvases, linked bar charts.
const LINK =
  window.__svmlabAlphaLink ||
  (window.__svmlabAlphaLink = { canvases: new Set(), bars: [], observer: null, timer: 0 });

function metaOf(obj) {
  return obj ? obj.meta : undefined;
}

function isBarChart(gd) {
  return metaOf(gd.layout) === BARS_META || metaOf(gd._fullLayout) === BARS_META;
}

// The first number of a customdata entry (a number, an array or a typed-array row).
function firstNumber(v) {
  if (v === null || v === undefined) return NaN;
  if (typeof v === "object" && v.length !== undefined) return Number(v[0]);
  return Number(v);
}

function isLinkedEvent(ev) {
  return !!(ev && ev.event && ev.event[LINK_FLAG]);
}

// Is fn listening to gd's plotly event `name`? (false if unknown: then re-attach.)
function hasListener(gd, name, fn) {
  const ev = gd._ev;
  if (!ev || typeof ev.listeners !== "function") return false;
  return ev.listeners(name).includes(fn);
}

// gd.on(name, fn) once: remove a copy first (plotly keeps listeners across Plotly.react).
function listenOnce(gd, name, fn) {
  if (hasListener(gd, name, fn)) return;
  if (typeof gd.removeListener === "function") gd.removeListener(name, fn);
  gd.on(name, fn);
}

function onBarHover(ev) {
  if (isLinkedEvent(ev)) return; // our own echo (a point hovered on the plane)
  const pt = ev && ev.points && ev.points[0];
  if (!pt) return;
  let j = firstNumber(pt.customdata);
  if (!Number.isInteger(j)) j = Number(pt.pointNumber);
  if (!Number.isInteger(j)) return;
  for (const c of LINK.canvases) c.showLinked(j);
}

function onBarUnhover(ev) {
  if (isLinkedEvent(ev)) return;
  for (const c of LINK.canvases) c.clearLinked();
}

// Attach the bar listeners (again, if plotly purged them on a newPlot) and collect the
// bar charts in the document.
function scanBars() {
  LINK.timer = 0;
  const found = [];
  for (const gd of document.querySelectorAll(".js-plotly-plot")) {
    if (!gd.isConnected || typeof gd.on !== "function" || !isBarChart(gd)) continue;
    listenOnce(gd, "plotly_hover", onBarHover);
    listenOnce(gd, "plotly_unhover", onBarUnhover);
    gd.dataset.svmlabLinked = "1";
    found.push(gd);
  }
  LINK.bars = found;
}

function scheduleScan() {
  if (LINK.timer) return;
  LINK.timer = setTimeout(scanBars, SCAN_MS);
}

function linkCanvas(canvas) {
  LINK.canvases.add(canvas);
  if (!LINK.observer) {
    LINK.observer = new MutationObserver(scheduleScan);
    LINK.observer.observe(document.body, { childList: true, subtree: true });
  }
  scheduleScan();
}

function unlinkCanvas(canvas) {
  LINK.canvases.delete(canvas);
  if (LINK.canvases.size === 0 && LINK.observer) {
    LINK.observer.disconnect();
    LINK.observer = null;
    clearTimeout(LINK.timer);
    LINK.timer = 0;
    LINK.bars = [];
  }
}

// A synthetic mouse event on a bar chart's drag layer, tagged as ours.
function dispatchLinked(target, type, clientX, clientY) {
  const init = { clientX, clientY, bubbles: false, cancelable: true, view: window };
  const e = new MouseEvent(type, init);
  e[LINK_FLAG] = true;
  target.dispatchEvent(e);
}

// Show bar j's hover label on every linked bar chart (j = null: remove the labels we showed).
function hoverBars(j) {
  for (const gd of LINK.bars) {
    if (!gd.isConnected) continue;
    const fl = gd._fullLayout;
    const drag = gd.querySelector(".nsewdrag");
    if (!fl || !fl.xaxis || !fl.yaxis || !drag) continue;
    if (j === null) {
      if (gd.__svmlabHovered !== undefined) {
        delete gd.__svmlabHovered;
        gd.dataset.svmlabHover = "";
        dispatchLinked(drag, "mouseout", 0, 0);
      }
      continue;
    }
    const trace = (gd._fullData || [])[0];
    const n = trace && trace.x ? trace.x.length : 0;
    if (!(j >= 0 && j < n)) continue;
    const xa = fl.xaxis;
    const ya = fl.yaxis;
    const r = drag.getBoundingClientRect();
    const px = xa.d2p(j);
    // Half-way up the bar (hovermode "x" takes the whole column; "closest" needs the bar).
    const a = Number(trace.y[j]);
    let py = Number.isFinite(a) ? ya.d2p(a / 2) : ya._length / 2;
    py = Math.min(Math.max(py, 1), Math.max(r.height - 1, 1));
    if (!Number.isFinite(px)) continue;
    gd.__svmlabHovered = j;
    gd.dataset.svmlabHover = String(j);
    dispatchLinked(drag, "mousemove", r.left + px, r.top + py);
  }
}

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
    this.linked = null; // {index, x, y}: the point of the hovered α bar
    this.planeHover = (ev) => this.onPlaneHover(ev);
    this.planeUnhover = (ev) => this.onPlaneUnhover(ev);
    linkCanvas(this);
  }

  destroy() {
    this.resize.disconnect();
    unlinkCanvas(this);
    if (this.hoveringBars) hoverBars(null);
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
      this.Plotly = Plotly;
      this.relink();
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

  // (Re)attach the plane's hover listeners (a newPlot inside Plotly.react drops them).
  relink() {
    const gd = this.plot;
    if (typeof gd.on !== "function") return;
    listenOnce(gd, "plotly_hover", this.planeHover);
    listenOnce(gd, "plotly_unhover", this.planeUnhover);
    if (this.linked) {
      // The figure changed under a hovered bar: follow the point (it may have moved).
      const j = this.linked.index;
      this.linked = null;
      this.showLinked(j, false);
    }
  }

  // Index (customdata[0]) of the first hovered point of a "svmlab-points" trace, or null.
  static pointIndex(ev) {
    for (const pt of (ev && ev.points) || []) {
      const tr = pt.data || pt.fullData;
      if (metaOf(tr) !== POINTS_META && metaOf(pt.fullData) !== POINTS_META) continue;
      const j = firstNumber(pt.customdata);
      if (Number.isInteger(j)) return j;
    }
    return null;
  }

  onPlaneHover(ev) {
    if (isLinkedEvent(ev) || !ev || !ev.event || !ev.event.target) return;
    const j = Canvas.pointIndex(ev);
    this.plot.dataset.hoverIndex = j === null ? "" : String(j);
    if (j === null && !this.hoveringBars) return;
    this.hoveringBars = j !== null;
    hoverBars(j);
  }

  onPlaneUnhover(ev) {
    if (isLinkedEvent(ev)) return;
    this.plot.dataset.hoverIndex = "";
    if (!this.hoveringBars) return;
    this.hoveringBars = false;
    hoverBars(null);
  }

  // Curve / point number and position of the point with customdata[0] === j.
  findPoint(j) {
    const full = this.plot._fullData || [];
    for (let c = 0; c < full.length; c++) {
      const tr = full[c];
      if (metaOf(tr) !== POINTS_META || !tr.customdata || !tr.x) continue;
      const cd = tr.customdata;
      for (let p = 0; p < cd.length; p++) {
        if (firstNumber(cd[p]) === j) {
          return { curveNumber: c, pointNumber: p, x: Number(tr.x[p]), y: Number(tr.y[p]) };
        }
      }
    }
    return null;
  }

  // Hovered bar j: ring point j in the overlay and show its hover label.
  showLinked(j, label = true) {
    if (!this.root.isConnected) return; // a canvas of a page that has gone
    const hit = this.findPoint(j);
    if (!hit) {
      this.clearLinked();
      return;
    }
    this.linked = { index: j, x: hit.x, y: hit.y };
    this.plot.dataset.linked = String(j);
    this.drawOverlay();
    const Plotly = this.Plotly || window.Plotly;
    if (!label || !Plotly || !Plotly.Fx || !this.plot._fullLayout) return;
    try {
      // By hand (no mouse event): plotly shows the label and emits no plotly_hover.
      Plotly.Fx.hover(this.plot, [{ curveNumber: hit.curveNumber, pointNumber: hit.pointNumber }]);
    } catch (err) {
      // The ring is drawn already; a label is a bonus.
    }
  }

  clearLinked() {
    if (!this.linked) return;
    this.linked = null;
    this.plot.dataset.linked = "";
    this.drawOverlay();
    const Plotly = this.Plotly || window.Plotly;
    if (!Plotly || !Plotly.Fx || !this.plot._fullLayout) return;
    try {
      Plotly.Fx.unhover(this.plot);
    } catch (err) {
      // nothing shown, nothing to remove
    }
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
    if (this.linked) {
      const p = this.toPixel(this.linked.x, this.linked.y);
      if (p && Number.isFinite(p[0]) && Number.isFinite(p[1])) {
        // A white halo under a thick black ring: apart from the thinner support-vector rings.
        for (const [stroke, width, cls] of [
          ["#ffffff", "7", "svmlab-linked-halo"],
          ["#111111", "3.5", "svmlab-linked"],
        ]) {
          const ring = document.createElementNS(SVGNS, "circle");
          ring.setAttribute("cx", p[0].toFixed(1));
          ring.setAttribute("cy", p[1].toFixed(1));
          ring.setAttribute("r", String(LINK_R));
          ring.setAttribute("fill", "none");
          ring.setAttribute("stroke", stroke);
          ring.setAttribute("stroke-width", width);
          ring.setAttribute("class", cls);
          ring.setAttribute("data-index", String(this.linked.index));
          svg.appendChild(ring);
        }
      }
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
