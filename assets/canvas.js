// SVM Lab data canvas: a Streamlit components-v2 front end around plotly.js.
//
// Streamlit calls the default export once on mount and again whenever the data sent
// from Python change (same parentElement each time). Instance state lives on the
// parentElement, so a call only re-renders the figures (Plotly.react, cheap) and updates
// the mode / class. plotly.js is the bundle of the installed plotly package, served by
// Streamlit's static file serving (/app/static/plotly.min.js): nothing from the internet.
// Only plotly's public API is used (Plotly.react / relayout / Fx.hover, gd.on events,
// gd.layout); pixel <-> data conversion uses the axes' ranges from gd.layout and the plot
// area's box on screen (plotly's drag layer, .nsewdrag).
//
// Clicks:
//   add   – a click anywhere in the plot area (pointerdown + pointerup within 5 px) is
//           turned into data coordinates. The point is drawn at once in an SVG overlay
//           (no Plotly redraw) and sent. plotly_click is not used: it goes through plotly's
//           double-click detection, which swallows the second of two quick clicks.
//   erase – the click is hit-tested against the drawn points (14 px) and sent.
//   move  – pointerdown on a point, drag (a ghost follows), pointerup sends the move.
//
// Delivery: the acknowledged-event channel (assets/event_channel.js, prepended to this
// module; its contract arrives as data.channel): each event gets a sequence number, stays
// pending (drawn in the overlay) until Python acknowledges it, and each new event sends
// the pending list once. The plot <div> carries data-sends (the channel's setStateValue
// calls), data-pending and data-ack for tests.
//
// Feed: the page draws the canvas outside the fragment of its scrubber (a click reruns the
// whole page once); a scrub reruns the fragment alone, which mounts a *feed*
// (assets/canvas_feed.js) with the new figure; the feed finds this canvas by its key
// (.svmlab-canvas[data-key]) and calls feed(). Every figure carries data.stamp, [session
// epoch, number]: within a session the canvas never goes back to a figure of a lower number
// (its own data, re-delivered after a feed, included); a new session's figure (a restarted
// server) is taken as it comes.
//
// Hover link with the α bars (drawn by this component below the plane when Python passes
// `bars`, bar j = point j, drawn at x = j + 1 and labelled "point j + 1" as the texts count;
// j is 0-based here, as in customdata[0]): hovering bar j rings point j in the overlay and shows its label
// (Plotly.Fx.hover); hovering point j (a trace with meta "svmlab-points", customdata[0] = j)
// outlines bar j (a layout shape, Plotly.relayout) and shows its label. Fx.hover called by
// hand emits no plotly_hover, so there is no loop.

const HIT_PX = 14; // hit radius for erase / move, in pixels
let DESC_SEQ = 0; // the planes' description ids, unique on the page
const MARK_R = 6.5; // overlay marker radius, in pixels
const LINK_R = 17; // ring round the point of a hovered α bar, in pixels
const SVGNS = "http://www.w3.org/2000/svg";
const POINTS_META = "svmlab-points"; // svmlab.plot.figures.POINTS_META
const BAR_RING = "#111111";

// The first number of a customdata entry (a number or an array row).
function firstNumber(v) {
  if (v === null || v === undefined) return NaN;
  if (typeof v === "object" && v.length !== undefined) return Number(v[0]);
  return Number(v);
}

// After the next frame is painted (or 100 ms, in a hidden tab): what was drawn before shows
// first.
function afterPaint() {
  return new Promise((resolve) => {
    const done = setTimeout(resolve, 100);
    requestAnimationFrame(() => setTimeout(() => {
      clearTimeout(done);
      resolve();
    }, 0));
  });
}

function parseFigure(text) {
  return typeof text === "string" ? JSON.parse(text) : text || {};
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
      return `M${f(t)},${f(s)}H${f(-t)}V${f(t)}H${f(-s)}V${f(-t)}H${f(-t)}V${f(-s)}H${f(t)}V${f(-t)}H${f(s)}V${f(t)}H${f(t)}Z`;
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

const PLOT_CONFIG = {
  displaylogo: false,
  responsive: false,
  scrollZoom: false,
  doubleClick: false,
  showTips: false,
  displayModeBar: false,
};

class Canvas {
  constructor(parent) {
    this.parent = parent;
    this.root = document.createElement("div");
    this.root.className = "svmlab-canvas";
    this.root.setAttribute("role", "group"); // a div's aria-label needs a role
    this.root.setAttribute(
      "aria-label",
      "Data canvas: click to add a point, or erase / move points. " +
        "Keyboard: Tab to the plane, then the arrow keys and Enter (its description lists the keys).",
    );
    this.stage = document.createElement("div");
    this.stage.className = "svmlab-canvas-stage";
    this.plot = document.createElement("div");
    this.plot.className = "svmlab-canvas-plot";
    this.overlay = document.createElementNS(SVGNS, "svg");
    this.overlay.setAttribute("class", "svmlab-canvas-overlay");
    this.overlay.setAttribute("aria-hidden", "true");
    this.status = document.createElement("div");
    this.status.className = "svmlab-canvas-status";
    this.status.setAttribute("role", "status");
    this.stage.append(this.plot, this.overlay, this.status);
    this.transport = new Transport((act, v) => this.act(act, v));
    this.bars = document.createElement("div");
    this.bars.className = "svmlab-canvas-bars";
    this.caption = document.createElement("div");
    this.caption.className = "svmlab-canvas-caption";
    this.root.append(this.stage, this.transport.root, this.transport.readout, this.bars, this.caption);
    parent.appendChild(this.root);
    this.root.__svmlabCanvas = this; // found by a feed (see above), by its data-key
    this.keys = null; // the plane by keyboard (keysUp)
    this.channel = new EventChannel();
    this.generation = 0;
    this.renders = 0;
    this.figureText = null;
    this.barsText = null;
    this.barShapes = [];
    this.bound = false;
    this.drag = null;
    this.linked = null; // {index, x, y}: the point of the hovered α bar
    this.barLit = null; // index of the bar outlined for a hovered point
    this.frames = null; // the run's frames (assets/playback.js)
    this.framesId = null;
    this.m = 0; // the frame the transport is at
    this.playing = false;
    this.showingFrame = false; // the plane shows a frame, not the snapshot's own figure
    this.frameDraws = 0;
    this.resize = new ResizeObserver(() => this.onResize());
    this.resize.observe(this.root);
    // The page around the canvas settles after it is drawn (the elements of the previous
    // run leave, the formula renders): the plane's height follows (assets: fitHeight).
    this.pageResize = new ResizeObserver(() => {
      if (this.fitFrame) return;
      this.fitFrame = requestAnimationFrame(() => {
        this.fitFrame = null;
        this.fitHeight();
      });
    });
    this.pageResize.observe(document.body);
  }

  destroy() {
    this.stop();
    if (this.keys) this.keys.destroy();
    clearTimeout(this.syncTimer);
    this.resize.disconnect();
    this.pageResize.disconnect();
    if (this.onWindowResize) window.removeEventListener("resize", this.onWindowResize);
    if (this.handlers) {
      window.removeEventListener("pointermove", this.handlers.move, true);
      window.removeEventListener("pointerup", this.handlers.up, true);
    }
    if (window.Plotly) {
      window.Plotly.purge(this.plot);
      window.Plotly.purge(this.bars);
    }
    this.root.remove();
  }

  onResize() {
    if (this.raf) return;
    this.raf = requestAnimationFrame(() => {
      this.raf = null;
      // Not while hidden or detached (e.g. during a page switch): plotly refuses.
      if (!window.Plotly || !this.figureText) return;
      if (!this.root.isConnected || this.root.offsetWidth === 0) return;
      const divs = this.barsText ? [this.plot, this.bars] : [this.plot];
      Promise.all(divs.map((d) => window.Plotly.Plots.resize(d)))
        .then(() => this.drawOverlay())
        .catch(() => {});
    });
  }

  update(args) {
    // A figure of an older stamp than the one shown (this canvas's own data re-delivered
    // after a feed drew a newer one) keeps the newer figure; the rest of the data applies.
    const data = Object.assign({}, args.data || {});
    const stamp = Array.isArray(data.stamp) ? data.stamp : null;
    if (data.kept && this.latest) {
      // The figure (its bars, its run's frames) of this stamp, drawn by the plane's fragment
      // just before the page's run, is not sent again: the one shown is kept.
      if (!(stamp && this.stamp && stamp[0] === this.stamp[0] && stamp[1] === this.stamp[1])) {
        this.plot.dataset.keptMiss = String(stamp);
      }
      for (const name of ["figure", "bars", "links", "playback"]) data[name] = this.latest[name];
    }
    if (stamp !== null && this.older(stamp) && this.latest) {
      for (const name of ["figure", "bars", "links", "label", "description", "snapshot"]) {
        data[name] = this.latest[name]; // the model in words goes with its figure
      }
      data.stamp = this.stamp;
    } else if (stamp !== null) {
      this.stamp = stamp;
    }
    this.latest = data; // the newest data given (a feed builds on it)
    args = Object.assign({}, args, { data });
    // Serialise updates: a newer call waits for the older one, then skips stale work.
    this.chain = (this.chain || Promise.resolve()).then(() => this.render(args)).catch((err) => {
      this.status.textContent = `Canvas error: ${err.message}`;
    });
    return this.chain;
  }

  // Whether a figure of `stamp` ([epoch, number]) is older than the one shown: same
  // session (epoch), lower number.
  older(stamp, orEqual = false) {
    const [epoch, n] = this.stamp || [];
    if (epoch === undefined || stamp[0] !== epoch) return false;
    return orEqual ? stamp[1] <= n : stamp[1] < n;
  }

  // A figure from a feed (the fragment of the scrubber): drawn unless a newer one is shown.
  // A feed may bring the run's frames too (f.playback), for a canvas drawn without them.
  feed(f) {
    if (f.playback) this.takeFrames(f.playback);
    if (!f.figure) return true;
    const base = this.latest;
    if (!base || !Array.isArray(f.stamp) || this.older(f.stamp, true)) return false;
    const data = Object.assign({}, base, {
      figure: f.figure,
      bars: f.bars || null,
      links: f.links || [],
      stamp: f.stamp,
      label: f.label || base.label, // the model in words of the new snapshot
      description: f.description || base.description,
      snapshot: f.snapshot === undefined ? base.snapshot : f.snapshot,
    });
    this.update({ data });
    return true;
  }

  async render(args) {
    const data = args.data || {};
    this.channel.update(data.channel, args.setStateValue);
    this.data = data;
    if (data.key !== undefined) this.root.dataset.key = String(data.key);
    if (Array.isArray(data.stamp)) this.plot.dataset.stamp = data.stamp.join(":");
    this.mode = data.mode || "add";
    this.root.dataset.mode = this.mode;
    this.root.classList.toggle("svmlab-presenting", Boolean(data.presenting));
    const pb = data.playback || null;
    // the run's frames: in the data, or named (data.frames_id) and brought by a feed after
    // the figure (the plane is painted first)
    const runId = pb ? pb.id : data.frames_id || null;
    const newRun = runId !== this.framesId;
    if (newRun) {
      // A new run (a click, a parameter): its frames replace the old ones, decoded once
      // the plane is drawn, before play is pressed; the transport goes to the snapshot
      // Python shows.
      this.stop();
      clearTimeout(this.syncTimer);
      this.syncTimer = null;
      this.framesId = runId;
      const early = this.stash && this.stash.id === runId ? this.stash : null;
      this.frames = pb || early ? new Frames(pb || early) : null;
      this.stash = null;
    }
    // While the transport plays or its snapshot is on its way to Python, a figure of the
    // same run (of the snapshot Python still shows) waits: the plane keeps the frame.
    const holding = !newRun && (this.playing || Boolean(this.syncTimer) || this.snapPending());
    if (!this.framesDue()) {
      // (frames on their way: the transport keeps its place, so the plane its height)
      this.transport.root.hidden = !(this.frames && this.frames.n > 1);
      this.transport.readout.hidden = !this.frames;
    }
    const height = this.stageHeight(data);
    const barsHeight = data.bars ? data.bars_height || 260 : 0;
    this.stage.style.height = `${height}px`;
    this.bars.style.height = `${barsHeight}px`;
    this.bars.style.display = data.bars ? "block" : "none";
    this.caption.textContent = data.bars ? data.bars_caption || "" : "";
    const my = ++this.generation;
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
    if (my !== this.generation) return; // a newer call superseded this one
    this.Plotly = Plotly;
    this.root.classList.remove("svmlab-canvas-failed");
    this.status.textContent = "";
    const drew =
      data.figure != null && (data.figure !== this.figureText || this.showingFrame) && !holding;
    if (drew) {
      const fig = parseFigure(data.figure);
      const layout = Object.assign({}, fig.layout || {}, {
        clickanywhere: true,
        dragmode: false,
        autosize: true,
        height,
      });
      if (!layout.hovermode) layout.hovermode = "closest";
      delete layout.width;
      for (const ax of ["xaxis", "yaxis"]) {
        layout[ax] = Object.assign({}, layout[ax] || {}, { fixedrange: true });
      }
      if (data.presenting && !(layout.title && layout.title.text)) {
        // no title on the projector: the plot takes the top margin (a legend above it
        // widens the margin itself)
        layout.margin = Object.assign({}, layout.margin || {}, { t: 24 });
      }
      this.placeLegend(layout, fig.data || [], height, Boolean(data.presenting));
      const config = Object.assign({}, PLOT_CONFIG, fig.config || {});
      this.base = { data: fig.data || [], layout, config, legend: (fig.layout || {}).legend };
      await Plotly.react(this.plot, this.base.data, layout, config);
      this.figureText = data.figure;
      this.showingFrame = false;
      this.renders += 1;
      this.plot.dataset.renders = String(this.renders); // the plane is drawn (bars follow)
      this.listen(this.plot, "plane", (ev) => this.onPlaneHover(ev), () => this.onPlaneUnhover());
      if (this.linked) this.showLinked(this.linked.index, false); // the point may have moved
    }
    if (!holding && this.frames) this.m = this.frames.frameOf(data.snapshot);
    this.showTransport();
    this.describe(data);
    if (!this.bound) this.bind();
    this.channel.settle(); // the figure drawn shows what Python made of them
    const pts = data.points;
    this.plot.dataset.nPoints = pts ? String(pts.x.length) : "";
    this.plot.dataset.ack = String(this.channel.ack);
    this.plot.dataset.renders = String(this.renders);
    this.plot.dataset.mode = this.mode;
    this.plot.dataset.cls = String(data.cls_index);
    this.plot.dataset.height = String(height);
    this.drawOverlay();
    this.runQueued();
    this.keysUp(data.plane_src);
    // After the new plane's paint (the boundary first): the keyboard's tree of the model
    // (~250 nodes rebuilt) with an edit's announcement, then the α bars, then the run's
    // frames decoded (before play is pressed).
    const barsDue = (data.bars || null) !== this.barsText;
    if (drew && (this.keys || barsDue)) await afterPaint();
    if (this.keys) this.keys.render(data); // the tree; an edit's announcement after its refit
    if (barsDue) await this.renderBars(Plotly, data.bars || null, barsHeight);
    this.decodeLater();
    if (data.fill) {
      // the page above may still be laying out (the formula, presenter mode's CSS, ...)
      for (const ms of [100, 400, 1200, 2500]) setTimeout(() => this.fitHeight(), ms);
      if (!this.onWindowResize) {
        this.onWindowResize = () => this.fitHeight();
        window.addEventListener("resize", this.onWindowResize);
      }
    }
  }

  // The legend above the plane or beside it, whichever leaves the larger plot (the axes are
  // equally scaled: a plot limited by its height has room at its side); in presenter mode
  // on a phone, below it. Entries' sizes are estimated from their names and font.
  placeLegend(layout, traces, height, presenting) {
    const width = this.stage.clientWidth || this.root.clientWidth || 0;
    const phone = window.innerWidth <= 640;
    const font = Number((layout.legend && layout.legend.font && layout.legend.font.size) ||
      (layout.font && layout.font.size) || 12);
    const names = traces
      .filter((t) => t && t.showlegend !== false && t.name)
      .map((t) => String(t.name).length * font * 0.58 + 3.2 * font);
    let place = null;
    if (presenting && phone) {
      // a phone's plane is full width and short: no legend, the projector's text smaller
      layout.showlegend = false;
      layout.margin = Object.assign({}, layout.margin || {}, { l: 56, r: 8, t: 12, b: 56 });
      for (const ax of ["xaxis", "yaxis"]) {
        const a = Object.assign({}, layout[ax] || {});
        a.tickfont = Object.assign({}, a.tickfont || {}, { size: 18 });
        a.title = Object.assign({}, a.title || {}, { font: Object.assign({}, (a.title || {}).font || {}, { size: 18 }) });
        layout[ax] = a;
      }
      return;
    } else if (names.length && width > 0) {
      const m = layout.margin || {};
      const padX = Number(m.l === undefined ? 40 : m.l) + Number(m.r === undefined ? 10 : m.r);
      const padY = Number(m.t === undefined ? 30 : m.t) + Number(m.b === undefined ? 40 : m.b);
      const xr = (layout.xaxis && layout.xaxis.range) || [0, 1];
      const yr = (layout.yaxis && layout.yaxis.range) || [0, 1];
      const dx = Math.abs(xr[1] - xr[0]) || 1;
      const dy = Math.abs(yr[1] - yr[0]) || 1;
      const rows = Math.ceil(names.reduce((a, w) => a + w, 0) / Math.max(width - padX, 1));
      const topH = rows * font * 1.6 + 8;
      const sideW = Math.max(...names) + 16;
      const scaleTop = Math.min((width - padX) / dx, (height - padY - topH) / dy);
      const scaleSide = Math.min((width - padX - sideW) / dx, (height - padY) / dy);
      if (scaleSide > scaleTop) place = { orientation: "v", x: 1.02, xanchor: "left", y: 1, yanchor: "top" };
    }
    if (!place) return;
    layout.legend = Object.assign({}, layout.legend || {}, place);
  }

  // -- playback: the transport under the plane (assets/playback.js) ---------------------

  // Whether the run's frames are named (data.frames_id) but not here yet.
  framesDue() {
    return Boolean(this.framesId) && !this.frames;
  }

  // The run's frames from a feed: taken if this canvas awaits them, else kept for the
  // canvas's data that names them (a feed may run before the canvas's own update).
  takeFrames(pb) {
    if (!pb || !pb.id || (this.frames && this.frames.pb.id === pb.id)) return;
    if (pb.id !== this.framesId) {
      this.stash = pb;
      return;
    }
    this.frames = new Frames(pb);
    if (!this.playing) this.m = this.frames.frameOf(this.data ? this.data.snapshot : null);
    this.transport.root.hidden = !(this.frames.n > 1);
    this.transport.readout.hidden = false;
    this.showTransport();
    this.plot.dataset.framesIn = String(performance.now());
    this.decodeLater();
    this.runQueued(); // pressed while the frames were on their way
  }

  // Whether an edit of the points (a click) waits for Python's new run.
  editPending() {
    return this.channel.unacknowledged().some((e) => e.type !== "snap");
  }

  // A transport action pressed while a new run was on its way (a click sent, or its frames
  // not here yet): done on that run once its frames are here; dropped if it has none.
  runQueued() {
    if (!this.queued || this.framesDue() || this.editPending()) return;
    const [action, value] = this.queued;
    this.queued = null;
    if (this.frames) this.act(action, value);
  }

  // The frames decoded after what is being drawn (they are ready before play is pressed).
  decodeLater() {
    const f = this.frames;
    if (!f || f.decoding) return;
    this.chain = (this.chain || Promise.resolve()).then(() => {
      setTimeout(() => f.ready, 0);
    });
  }

  // A transport action ("play", "next", "prev", "first", "last"; "scrub" / "scrubbed"
  // with a frame): true if this canvas has a run to play (the keys then act here).
  act(action, value) {
    if (this.base && (this.framesDue() || this.editPending())) {
      this.queued = [action, value]; // on the run on its way (runQueued)
      return true;
    }
    const f = this.frames;
    if (!f || f.n < 2 || !this.base) return false;
    const last = f.n - 1;
    if (action === "play") {
      if (this.playing) this.pause();
      else this.play();
    } else if (action === "scrub") {
      this.stop();
      this.goto(value, false);
    } else {
      const to = { next: this.m + 1, prev: this.m - 1, first: 0, last, scrubbed: value }[action];
      if (to === undefined) return false;
      this.stop();
      this.goto(to, true);
    }
    return true;
  }

  play() {
    const f = this.frames;
    if (this.m >= f.n - 1) this.m = -1; // from the last snapshot, play starts over
    this.playing = true;
    clearTimeout(this.syncTimer);
    this.syncTimer = null;
    this.plot.dataset.playing = "1";
    this.plot.dataset.playStart = String(performance.now());
    this.tick();
  }

  tick() {
    if (!this.playing) return;
    const f = this.frames;
    const m = Math.min(this.m + 1, f.n - 1);
    const t0 = performance.now();
    this.queueFrame(m).then(() => {
      if (!this.playing) return;
      if (this.m >= f.n - 1) {
        this.pause();
        return;
      }
      const period = 1000 / (PLAYBACK_FPS * this.transport.rate);
      this.playTimer = setTimeout(() => this.tick(), Math.max(0, period - (performance.now() - t0)));
    });
  }

  // Stop playing without telling Python (a step or a scrub follows).
  stop() {
    this.playing = false;
    clearTimeout(this.playTimer);
    this.playTimer = null;
    if (this.plot) this.plot.dataset.playing = "";
    if (this.transport) this.showTransport();
  }

  // Stop playing: the snapshot it stopped at goes back to Python once.
  pause() {
    this.stop();
    this.sync();
  }

  goto(m, later) {
    const f = this.frames;
    m = Math.max(0, Math.min(f.n - 1, Math.round(Number(m))));
    if (later) {
      clearTimeout(this.syncTimer);
      this.syncTimer = setTimeout(() => {
        this.syncTimer = null;
        this.sync();
      }, SYNC_MS);
    }
    this.m = m;
    this.showTransport();
    return this.queueFrame(m);
  }

  // Draw frame m on the plane (after what is being drawn).
  queueFrame(m) {
    this.m = m;
    this.chain = (this.chain || Promise.resolve()).then(() => this.drawFrame(m)).catch((err) => {
      this.status.textContent = `Playback error: ${err.message}`;
    });
    return this.chain;
  }

  async drawFrame(m) {
    const f = this.frames;
    if (!f || !this.base) return;
    await f.ready;
    if (f !== this.frames) return;
    const data = f.traces(m, this.base.data);
    await this.Plotly.react(this.plot, data, this.base.layout, this.base.config);
    this.showingFrame = true;
    this.frameDraws += 1;
    this.plot.dataset.frame = String(m);
    this.plot.dataset.frameDraws = String(this.frameDraws);
    this.plot.dataset.frameDrawnAt = String(performance.now());
    this.showTransport();
    this.drawOverlay();
  }

  // The snapshot the transport is at, to Python (the report, the inspector and the share
  // link follow it): once, unless Python shows it already (then its figure comes back).
  sync() {
    clearTimeout(this.syncTimer);
    this.syncTimer = null;
    const f = this.frames;
    if (!f || !this.data) return;
    const k = f.pb.index[this.m];
    if (k === this.data.snapshot) {
      if (this.showingFrame && this.latest) this.update({ data: this.latest });
      return;
    }
    const scrub = f.pb.scrub || {};
    this.channel.send({ type: "snap", key: scrub.key, sig: scrub.sig, k });
    this.plot.dataset.sends = String(this.channel.sends);
    this.plot.dataset.snapSent = String(k);
  }

  snapPending() {
    return this.channel.unacknowledged().some((e) => e.type === "snap");
  }

  showTransport() {
    const f = this.frames;
    if (this.framesDue()) return; // the transport keeps its place until they arrive
    // (the transport and readout need the run's times and readout only, not the frames)
    this.transport.show(f || null, f ? this.m : 0, Boolean(f) && this.playing);
    if (f && f.pb) this.plot.dataset.t = String(f.pb.t[this.m]);
  }

  // The plane's accessible name and description (svmlab.study.describe) on the plot div,
  // named by data.label, described by data.description (a hidden node). Its role is
  // "application" (announced as "plane"): a screen reader's browse mode hands the arrow
  // keys of a focused application to it (assets/plane_cursor.js), not to reading.
  describe(data) {
    if (!data.description) return;
    if (!this.desc) {
      this.desc = document.createElement("div");
      this.desc.className = "svmlab-sr-only";
      DESC_SEQ += 1; // ids unique within this module (no window globals between components)
      this.desc.id = `svmlab-plane-desc-${DESC_SEQ}`;
      this.root.append(this.desc);
      this.plot.setAttribute("role", "application");
      this.plot.setAttribute("aria-roledescription", "plane");
      this.plot.setAttribute("aria-describedby", this.desc.id);
    }
    this.plot.setAttribute("aria-label", data.label || "");
    if (this.desc.textContent !== data.description) this.desc.textContent = data.description;
  }

  // With data.fill: keep the plane as tall as the window allows.
  fitHeight() {
    if (!this.data || !this.data.fill || !this.Plotly || !this.root.isConnected) return;
    const h = this.stageHeight(this.data);
    if (String(h) === this.plot.dataset.height) return;
    this.stage.style.height = `${h}px`;
    this.plot.dataset.height = String(h);
    if (!this.base) return;
    // the legend's place depends on the plane's shape: placed again for the new height
    const layout = Object.assign({}, this.base.layout, { height: h, legend: this.base.legend });
    this.placeLegend(layout, this.base.data, h, Boolean(this.data.presenting));
    this.base.layout = layout;
    this.chain = (this.chain || Promise.resolve())
      .then(() => this.Plotly.react(this.plot, this.plot.data, layout, this.base.config))
      .then(() => this.drawOverlay())
      .catch(() => {});
  }

  // The plane's height: data.height, or with data.fill the window's height below the
  // canvas's top, less the transport and the readout under the plane (one screen: the
  // plane, its transport and its readout). On a phone the plane is as tall as wide.
  stageHeight(data) {
    const fixed = data.height || 520;
    if (!data.fill) return fixed;
    const width = this.root.clientWidth || window.innerWidth;
    if (window.innerWidth <= 640) return Math.max(240, Math.round(width * 0.95));
    const top = this.root.getBoundingClientRect().top + window.scrollY;
    const t = this.transport;
    const pres = Boolean(data.presenting);
    const rowH = (el, guess) => (el.hidden ? 0 : el.offsetHeight || guess);
    const below = rowH(t.root, pres ? 64 : 44) + rowH(t.readout, pres ? 40 : 26) + 16;
    const fit = window.innerHeight - top - below;
    const most = pres ? fit : Math.max(fixed, width * 1.1);
    return Math.max(pres ? 240 : 320, Math.round(Math.min(fit, most)));
  }

  async renderBars(Plotly, text, height) {
    if (text === this.barsText) return;
    this.barsText = text;
    this.barLit = null;
    if (!text) {
      Plotly.purge(this.bars);
      this.bars.dataset.nBars = "";
      return;
    }
    const fig = parseFigure(text);
    const layout = Object.assign({}, fig.layout || {}, { autosize: true, height });
    delete layout.width;
    this.barShapes = Array.isArray(layout.shapes) ? layout.shapes : [];
    const config = Object.assign({}, PLOT_CONFIG, fig.config || {});
    await Plotly.react(this.bars, fig.data || [], layout, config);
    const n = (this.data.links || []).length;
    this.bars.dataset.nBars = String(n);
    this.bars.dataset.lit = "";
    this.listen(this.bars, "bars", (ev) => this.onBarHover(ev), () => this.onBarUnhover());
  }

  // (Re)attach the hover listeners after a Plotly.react: one copy each (a newPlot inside
  // react drops them, a plain react keeps them).
  listen(gd, name, onHover, onUnhover) {
    const fns = (this.listeners = this.listeners || {});
    if (!fns[name]) fns[name] = { hover: onHover, unhover: onUnhover };
    const f = fns[name];
    gd.removeListener("plotly_hover", f.hover);
    gd.removeListener("plotly_unhover", f.unhover);
    gd.on("plotly_hover", f.hover);
    gd.on("plotly_unhover", f.unhover);
  }

  // -- the hover link between the plane and the α bars ---------------------------------

  // Index (customdata[0]) of the first hovered point of a "svmlab-points" trace, or null.
  static pointIndex(ev) {
    for (const pt of (ev && ev.points) || []) {
      if (!pt.data || pt.data.meta !== POINTS_META) continue;
      const j = firstNumber(pt.customdata);
      if (Number.isInteger(j)) return j;
    }
    return null;
  }

  onPlaneHover(ev) {
    const j = Canvas.pointIndex(ev);
    this.plot.dataset.hoverIndex = j === null ? "" : String(j);
    this.lightBar(j);
  }

  onPlaneUnhover() {
    this.plot.dataset.hoverIndex = "";
    this.lightBar(null);
  }

  onBarHover(ev) {
    const pt = ev && ev.points && ev.points[0];
    if (!pt) return;
    let j = firstNumber(pt.customdata);
    if (!Number.isInteger(j)) j = Number(pt.pointNumber);
    if (Number.isInteger(j)) this.showLinked(j);
  }

  onBarUnhover() {
    this.clearLinked();
  }

  // Outline bar j (null: remove the outline) and show its label.
  lightBar(j) {
    if (!this.barsText || j === this.barLit) return;
    const n = (this.data.links || []).length;
    const ok = j !== null && j >= 0 && j < n;
    this.barLit = ok ? j : null;
    this.bars.dataset.lit = ok ? String(j) : "";
    const Plotly = this.Plotly;
    const shapes = this.barShapes.slice();
    if (ok) {
      shapes.push({
        type: "rect",
        xref: "x",
        yref: "paper",
        x0: j + 0.5, // bar j stands at x = j + 1 (points counted from 1)
        x1: j + 1.5,
        y0: 0,
        y1: 1,
        line: { color: BAR_RING, width: 2 },
        fillcolor: "rgba(17,17,17,0.08)",
        name: "svmlab-lit",
      });
    }
    Promise.resolve(Plotly.relayout(this.bars, { shapes })).catch(() => {});
    try {
      if (ok) Plotly.Fx.hover(this.bars, [{ curveNumber: 0, pointNumber: j }]);
      else Plotly.Fx.unhover(this.bars);
    } catch (err) {
      // the outline is drawn; a label is a bonus
    }
  }

  // Hovered bar j: ring point j in the overlay and show its hover label.
  showLinked(j, label = true) {
    const link = (this.data.links || [])[j];
    if (!link || !this.root.isConnected) {
      this.clearLinked();
      return;
    }
    const [curveNumber, pointNumber, x, y] = link;
    this.linked = { index: j, x, y };
    this.plot.dataset.linked = String(j);
    this.drawOverlay();
    if (!label || curveNumber < 0) return;
    try {
      this.Plotly.Fx.hover(this.plot, [{ curveNumber, pointNumber }]);
    } catch (err) {
      // The ring is drawn already; a label is a bonus.
    }
  }

  clearLinked() {
    if (!this.linked) return;
    this.linked = null;
    this.plot.dataset.linked = "";
    this.drawOverlay();
    try {
      this.Plotly.Fx.unhover(this.plot);
    } catch (err) {
      // nothing shown, nothing to remove
    }
  }

  // -- pixels <-> data (public: gd.layout's ranges and the plot area's box) -------------

  // The plot area (relative to the plot div) and the axes' ranges, or null.
  axes() {
    const lay = this.plot.layout;
    const drag = this.plot.querySelector(".nsewdrag");
    if (!lay || !lay.xaxis || !lay.yaxis || !drag) return null;
    const xr = lay.xaxis.range;
    const yr = lay.yaxis.range;
    if (!xr || !yr) return null;
    const box = drag.getBoundingClientRect();
    const outer = this.plot.getBoundingClientRect();
    if (!(box.width > 0 && box.height > 0)) return null;
    return {
      left: box.left - outer.left,
      top: box.top - outer.top,
      width: box.width,
      height: box.height,
      x0: Number(xr[0]),
      x1: Number(xr[1]),
      y0: Number(yr[0]),
      y1: Number(yr[1]),
    };
  }

  // Pixel position (relative to the plot div) of data point (x, y).
  toPixel(x, y, a = this.axes()) {
    if (!a) return null;
    return [
      a.left + ((x - a.x0) / (a.x1 - a.x0)) * a.width,
      a.top + ((a.y1 - y) / (a.y1 - a.y0)) * a.height,
    ];
  }

  toData(px, py, a = this.axes()) {
    if (!a) return null;
    return [
      a.x0 + ((px - a.left) / a.width) * (a.x1 - a.x0),
      a.y1 - ((py - a.top) / a.height) * (a.y1 - a.y0),
    ];
  }

  inPlotArea(px, py, a = this.axes()) {
    if (!a) return false;
    const u = px - a.left;
    const v = py - a.top;
    return u >= 0 && u <= a.width && v >= 0 && v <= a.height;
  }

  // Data units per HIT_PX pixels along each axis (for the Python side's radius).
  radius(a = this.axes()) {
    if (!a) return [0, 0];
    return [
      (HIT_PX * Math.abs(a.x1 - a.x0)) / a.width,
      (HIT_PX * Math.abs(a.y1 - a.y0)) / a.height,
    ];
  }

  // Index of the drawn point nearest to pixel (px, py) within HIT_PX, or -1.
  hit(px, py) {
    const pts = this.data && this.data.points;
    const a = this.axes();
    if (!pts || !a) return -1;
    let best = -1;
    let bestD = HIT_PX;
    for (let i = 0; i < pts.x.length; i++) {
      const p = this.toPixel(pts.x[i], pts.y[i], a);
      const d = Math.hypot(p[0] - px, p[1] - py);
      if (d <= bestD) {
        bestD = d;
        best = i;
      }
    }
    return best;
  }

  // -- pointer input -------------------------------------------------------------------

  bind() {
    this.bound = true;
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
    const a = this.axes();
    const q = this.toData(px, py, a);
    const start = this.toPixel(drag.fromX, drag.fromY, a);
    if (!q || !Number.isFinite(q[0]) || !Number.isFinite(q[1])) {
      this.drawOverlay();
      return;
    }
    if (start && Math.hypot(start[0] - px, start[1] - py) < 2) {
      this.drawOverlay(); // a click, not a drag
      return;
    }
    const [rx, ry] = this.radius(a);
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

  // One event, one state update (one rerun request) through the channel: the list of
  // every event Python has not acknowledged yet. Never re-sent on a timer.
  send(ev) {
    this.channel.send(ev);
    this.plot.dataset.sends = String(this.channel.sends);
    this.drawOverlay();
  }

  flash(text) {
    this.status.textContent = text;
    clearTimeout(this.flashTimer);
    this.flashTimer = setTimeout(() => {
      this.status.textContent = "";
    }, 1500);
  }

  // -- the overlay: pending events, the dragged point, the linked ring -------------------

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

  ring(p, index) {
    // A white halo under a thick black ring: apart from the thinner support-vector rings.
    for (const [stroke, width, cls] of [
      ["#ffffff", "7", "svmlab-linked-halo"],
      [BAR_RING, "3.5", "svmlab-linked"],
    ]) {
      const ring = document.createElementNS(SVGNS, "circle");
      ring.setAttribute("cx", p[0].toFixed(1));
      ring.setAttribute("cy", p[1].toFixed(1));
      ring.setAttribute("r", String(LINK_R));
      ring.setAttribute("fill", "none");
      ring.setAttribute("stroke", stroke);
      ring.setAttribute("stroke-width", width);
      ring.setAttribute("class", cls);
      ring.setAttribute("data-index", String(index));
      this.overlay.appendChild(ring);
    }
  }

  drawOverlay() {
    const svg = this.overlay;
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    this.plot.dataset.pending = String(this.channel.pending.length);
    const a = this.axes();
    if (!a) return;
    const at = (x, y) => this.toPixel(x, y, a);
    for (const ev of this.channel.pending) {
      if (ev.type === "add") {
        const p = at(ev.x, ev.y);
        svg.appendChild(this.marker(p[0], p[1], ev.cls_index, "svmlab-pending svmlab-pending-add"));
      } else if (ev.type === "erase") {
        const p = at(ev.x, ev.y);
        svg.appendChild(this.cross(p[0], p[1], "svmlab-pending svmlab-pending-erase"));
      } else if (ev.type === "move") {
        const p0 = at(ev.from_x, ev.from_y);
        const p1 = at(ev.x, ev.y);
        svg.appendChild(this.cross(p0[0], p0[1], "svmlab-pending svmlab-pending-erase"));
        svg.appendChild(this.marker(p1[0], p1[1], ev.cls_index, "svmlab-pending svmlab-pending-move"));
      }
    }
    if (this.drag) {
      const p0 = at(this.drag.fromX, this.drag.fromY);
      svg.appendChild(this.cross(p0[0], p0[1], "svmlab-drag-origin"));
      svg.appendChild(this.marker(this.drag.px, this.drag.py, this.drag.cls, "svmlab-drag-ghost"));
    }
    if (this.linked) {
      const p = at(this.linked.x, this.linked.y);
      if (Number.isFinite(p[0]) && Number.isFinite(p[1])) this.ring(p, this.linked.index);
    }
    if (this.keys) this.keys.draw(svg, a); // the keyboard's crosshair
  }

  // The plane by keyboard (crosshair, live region, tree, listen mode): a static script
  // (svmlab.ui.static_assets.ensure_plane_js), loaded once per page, that defines
  // window.SvmlabPlane(canvas).
  keysUp(src) {
    if (this.keys || !src) return;
    if (window.SvmlabPlane) {
      this.keys = window.SvmlabPlane(this);
      this.keys.render(this.data);
      return;
    }
    let tag = document.querySelector("script[data-svmlab-plane]");
    if (!tag) {
      tag = document.createElement("script");
      tag.src = src;
      tag.dataset.svmlabPlane = "1";
      document.head.appendChild(tag);
    }
    tag.addEventListener("load", () => this.keysUp(src), { once: true });
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
