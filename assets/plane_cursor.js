// SVM Lab: the plane by keyboard. One static script with assets/plane_tree.js and
// assets/listen.js (svmlab.ui.static_assets.ensure_plane_js: loaded once, not sent with
// every rerun); it defines window.SvmlabPlane(canvas), which assets/canvas.js calls once
// per canvas; the canvas then calls the hooks render(data), draw(svg, axes) and destroy().
//
// The plot div (role="application", named by the model's description) is focusable. Reached with
// the keyboard (Tab), it shows a crosshair with a readout of its coordinates and of f
// there (the figure's shading grid: "f ≈ 0.42, class +1 side"), and takes these keys:
//   ← ↑ → ↓        move the crosshair by 1/20 of the axis range (Shift: 1/100)
//   Enter          add a point of the selected class at the crosshair (the mouse's "add")
//   Delete, ⌫      erase the selected point, else the point nearest the crosshair
//   N / Shift+N    select the next / previous point (also "." / ","); the α bar of the
//                  point is lit and the point ringed, as by a hover on its bar
//   M              pick the selected point up; arrows carry it; Enter or M drops it there
//                  (the mouse's "move"); Escape puts it back
//   L, O           listen mode (assets/listen.js): f along the crosshair's row; the objective
// Space, PageUp / PageDown, Home / End stay the lab's (assets/keys.js: playback, so that a
// clicker works with the focus here); keys.js leaves the arrows to an element whose
// data-svmlab-arrows is "on" (the plane while the keyboard drives it, the tree).
// Focused by the pointer (a click that adds a point), the plane leaves every key to the lab.
//
// Every edit goes out as the mouse's event (Python, undo and the share link see no
// difference) and is announced in a polite live region once Python has acknowledged it and
// the refit's figure has come, with the counts of that figure's description
// (svmlab.study.describe: its summary line): "Added point 101 at (1.25, −0.75), class +1;
// 57 support vectors, training accuracy 99 %."
//
// The model as data (model()): what the canvas has already: the description's lines, the
// points (data.points), α of each point (the point traces' customdata [index, α, n]), its
// support-vector ring (the traces tagged svmlab-sv, -sv-free, -sv-bounded) and f at it
// (the shading's grid, bilinear: y f(x) ≈).

const PLANE_SVGNS = "http://www.w3.org/2000/svg";
// The plane keyboard's own styles (one <style> per page): the crosshair's readout, the
// tree (for screen readers until it holds the focus, then drawn under the plane), the
// listen button.
const PLANE_CSS = `.svmlab-canvas-plot:focus { outline: none; } .svmlab-canvas-plot:focus-visible { outline: 3px solid #0072B2; outline-offset: 2px; } .svmlab-plane-cursor { position: absolute; z-index: 6; pointer-events: none; font-size: 0.85rem; line-height: 1.35; padding: 0.1rem 0.45rem; border: 1px solid currentColor; border-radius: 0.35rem; font-variant-numeric: tabular-nums; max-width: 90%; } .svmlab-plane-cursor[hidden] { display: none; } /* The tree: for screen readers only until it holds the focus, then under the plane. */ .svmlab-plane-tree:not(:focus-within) { position: absolute !important; width: 1px; height: 1px; padding: 0; margin: -1px; overflow: hidden; clip: rect(0, 0, 0, 0); white-space: nowrap; border: 0; } .svmlab-plane-tree:focus-within { max-height: 18rem; overflow: auto; margin: 0.4rem 0; padding: 0.3rem 0.5rem; border: 1px solid rgba(128, 128, 128, 0.6); border-radius: 0.45rem; font-size: 0.9rem; } .svmlab-plane-tree ul { list-style: none; margin: 0; padding-left: 1.1rem; } .svmlab-plane-tree > ul { padding-left: 0; } .svmlab-plane-tree [role="treeitem"] > .svmlab-tree-label { display: inline-block; padding: 0.1rem 0.25rem; } .svmlab-plane-tree [aria-expanded="false"] > .svmlab-tree-label::before { content: "▸ "; } .svmlab-plane-tree [aria-expanded="true"] > .svmlab-tree-label::before { content: "▾ "; } .svmlab-plane-tree [role="treeitem"]:focus > .svmlab-tree-label { font-weight: 600; } .svmlab-plane-tools { display: flex; flex-wrap: wrap; align-items: center; gap: 0.6rem; font-size: 0.85rem; padding: 0.1rem 0 0.3rem; } .svmlab-plane-tools .svmlab-listen { font: inherit; min-height: 24px; padding: 0.1rem 0.6rem; border-radius: 0.45rem; border: 1px solid rgba(128, 128, 128, 0.6); background: transparent; color: inherit; cursor: pointer; } .svmlab-plane-tools .svmlab-listen[aria-pressed="true"] { font-weight: 700; border-color: currentColor; } .svmlab-canvas.svmlab-presenting .svmlab-plane-tools { display: none; }`;
let PLANE_SEQ = 0; // ids of the help texts, unique on the page
const BOUNDARY_HEADS = ["Boundary", "Regions", "Margin", "Along the edges", "Ambiguous"];
const RING_STATUS = { "svmlab-sv": "SV", "svmlab-sv-free": "free SV", "svmlab-sv-bounded": "bounded SV" };
const CURSOR_STEPS = [20, 100]; // the crosshair's step: 1/20 of the range, Shift 1/100
const ARROWS_ATTR = "data-svmlab-arrows";
const CROSS_COLORS = ["#ffffff", "#111111"]; // a halo under a dark line: seen on any shade

// A number with two decimals and a true minus sign (−0 shows as 0), as the texts print.
function numText(v, digits = 2) {
  let t = (Number(v) + 0).toFixed(digits);
  if (Number(t) === 0) t = (0).toFixed(digits);
  return t.replace("-", "−");
}

function pairText(x, y) {
  return `(${numText(x)}, ${numText(y)})`;
}

// A number with three significant digits and a true minus sign (svmlab.study.plane_words).
function sigText(v) {
  return String(Number(Number(v).toPrecision(3))).replace("-", "−");
}

// A Plotly typed-array spec ({dtype, bdata}) or a plain array, as numbers.
function planeArray(v) {
  if (!v || Array.isArray(v) || ArrayBuffer.isView(v)) return v || [];
  if (typeof v === "object" && typeof v.bdata === "string") {
    const types = {
      f8: Float64Array, f4: Float32Array, i4: Int32Array, u4: Uint32Array,
      i2: Int16Array, u2: Uint16Array, i1: Int8Array, u1: Uint8Array,
    };
    const T = types[v.dtype] || Float64Array;
    const bin = atob(v.bdata);
    const b = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) b[i] = bin.charCodeAt(i);
    return new T(b.buffer, 0, b.byteLength / T.BYTES_PER_ELEMENT);
  }
  return [];
}

// The rows of a customdata array (a typed spec of shape "m, c", or rows).
function planeRows(cd) {
  if (!cd) return [];
  if (Array.isArray(cd)) return cd.map((r) => (Array.isArray(r) ? r.map(Number) : [Number(r)]));
  const a = planeArray(cd);
  const cols = Number(String(cd.shape || "").split(",")[1]) || 1;
  const out = [];
  for (let i = 0; i < a.length; i += cols) out.push(Array.from(a.subarray(i, i + cols)));
  return out;
}

// The value of a heatmap trace (z on the grid x × y) at (x, y): bilinear between the four
// grid values around it; null outside the grid or without numbers.
const GRIDS = new WeakMap(); // a trace's grid, decoded once

function gridOf(tr) {
  if (GRIDS.has(tr)) return GRIDS.get(tr);
  const xs = planeArray(tr.x);
  const ys = planeArray(tr.y);
  const nx = xs.length;
  const ny = ys.length;
  let at = null;
  if (nx < 2 || ny < 2) at = null;
  else if (tr.z && typeof tr.z === "object" && typeof tr.z.bdata === "string") {
    const flat = planeArray(tr.z);
    at = (i, j) => Number(flat[i * nx + j]);
  } else if (tr.z && tr.z.length === ny && tr.z[0] && tr.z[0].length !== undefined) {
    at = (i, j) => Number(tr.z[i][j]);
  } else if (tr.z && tr.z.length === nx * ny) {
    at = (i, j) => Number(tr.z[i * nx + j]);
  }
  const grid = at ? { xs, ys, nx, ny, at } : null;
  GRIDS.set(tr, grid);
  return grid;
}

function gridValue(tr, x, y, nearest) {
  const grid = gridOf(tr);
  if (!grid) return null;
  const { xs, ys, nx, ny, at } = grid;
  const u = ((x - xs[0]) / (xs[nx - 1] - xs[0])) * (nx - 1);
  const v = ((y - ys[0]) / (ys[ny - 1] - ys[0])) * (ny - 1);
  if (!(u >= 0 && u <= nx - 1 && v >= 0 && v <= ny - 1)) return null;
  if (nearest) return at(Math.round(v), Math.round(u));
  const j = Math.min(nx - 2, Math.floor(u));
  const i = Math.min(ny - 2, Math.floor(v));
  const s = u - j;
  const t = v - i;
  const val =
    (1 - s) * (1 - t) * at(i, j) + s * (1 - t) * at(i, j + 1) +
    (1 - s) * t * at(i + 1, j) + s * t * at(i + 1, j + 1);
  return Number.isFinite(val) ? val : null;
}

class PlaneKeys {
  constructor(canvas) {
    this.c = canvas;
    if (!document.getElementById("svmlab-plane-style")) {
      const style = document.createElement("style");
      style.id = "svmlab-plane-style";
      style.textContent = PLANE_CSS;
      document.head.appendChild(style);
    }
    const plot = canvas.plot;
    plot.tabIndex = 0;
    plot.setAttribute(ARROWS_ATTR, "off");
    plot.setAttribute("aria-keyshortcuts", "ArrowLeft ArrowRight ArrowUp ArrowDown Enter Delete N M L O");
    this.help = document.createElement("div");
    this.help.className = "svmlab-sr-only";
    PLANE_SEQ += 1;
    this.help.id = `svmlab-plane-help-${PLANE_SEQ}`;
    this.help.textContent =
      "Keys: the arrow keys move a crosshair (with Shift in fine steps); Enter adds a point " +
      "of the selected class there; Delete erases the selected or the nearest point; N and " +
      "Shift+N select the next and the previous point; M picks the selected point up, the " +
      "arrows carry it and Enter drops it; L turns listen mode on or off, O plays the " +
      "objective. Space, PageUp, PageDown, Home and End play and step the run. Tab goes on " +
      "to the model as a tree.";
    this.live = document.createElement("div");
    this.live.className = "svmlab-sr-only svmlab-plane-live";
    this.live.setAttribute("role", "status");
    this.live.setAttribute("aria-live", "polite");
    this.live.setAttribute("aria-atomic", "true");
    this.readout = document.createElement("div");
    this.readout.className = "svmlab-plane-cursor";
    this.readout.setAttribute("aria-hidden", "true");
    this.readout.hidden = true;
    canvas.stage.append(this.readout);
    canvas.root.append(this.help, this.live);
    this.cursor = null; // {x, y} in data units
    this.sel = -1; // the selected point: its position in data.points
    this.held = null; // the point picked up: {pos, index, x, y, cls}
    this.expect = null; // an edit sent, announced when its refit arrives
    this.active = false; // focused from the keyboard
    this.pointerAt = -1e9;
    this.said = 0;
    this.onKey = (e) => this.key(e);
    plot.addEventListener("keydown", this.onKey);
    plot.addEventListener("pointerdown", () => {
      this.pointerAt = performance.now();
      this.setActive(false);
    }, true);
    plot.addEventListener("focus", () => {
      this.setActive(performance.now() - this.pointerAt > 800);
    });
    plot.addEventListener("blur", () => this.setActive(false));
    this.tree = new PlaneTree(canvas, this);
    this.sound = new Listen(canvas, this);
  }

  destroy() {
    this.c.plot.removeEventListener("keydown", this.onKey);
    this.sound.stop();
  }

  setActive(on) {
    if (this.active === on) return;
    this.active = on;
    this.c.plot.setAttribute(ARROWS_ATTR, on ? "on" : "off");
    if (on && !this.cursor) {
      const a = this.c.axes();
      if (a) this.cursor = { x: (a.x0 + a.x1) / 2, y: (a.y0 + a.y1) / 2 };
    }
    if (!on && this.held) this.held = null;
    this.c.drawOverlay();
  }

  say(text) {
    this.said += 1;
    this.live.textContent = text;
    this.c.plot.dataset.said = String(this.said);
  }

  // -- hooks of the canvas ----------------------------------------------------------------

  // After a render: the description's id and the help's on the plot, the tree, and the
  // announcement of an edit Python has acknowledged (with the refit's counts).
  render(data) {
    const plot = this.c.plot;
    const ids = [this.c.desc ? this.c.desc.id : null, this.help.id].filter(Boolean);
    plot.setAttribute("aria-describedby", ids.join(" "));
    const pts = data.points;
    if (this.sel >= 0 && (!pts || this.sel >= pts.x.length)) this.sel = -1;
    this.tree.render(data);
    this.announceEdit(data);
  }

  // The counts of the description's summary line (svmlab.study.describe): "57 support
  // vectors (50 free, 7 bounded), training accuracy 99 %", and the points it counts.
  counts(data) {
    const m = /(?:; ([^;]+))?; (\d+) training errors? on (\d+) points\.?$/.exec(data.label || "");
    if (!m) return null;
    const n = Number(m[3]);
    const acc = n ? 100 * (1 - Number(m[2]) / n) : 100;
    const pct = `training accuracy ${Number(acc.toFixed(1))} %`;
    const sv = m[1] && !/class regions/.test(m[1]) ? `${m[1]}, ` : "";
    return { n, text: sv + pct };
  }

  announceEdit(data) {
    const ex = this.expect;
    if (!ex || this.c.channel.ack < ex.seq) return;
    const pts = data.points || { x: [], y: [], c: [] };
    const n = pts.x.length;
    let counts = this.counts(data);
    if (counts && counts.n !== n) {
      ex.waits = (ex.waits || 0) + 1;
      if (ex.waits < 3) return; // the refit of these points is on its way
      counts = null; // it does not come: the edit without the counts
    }
    this.expect = null;
    const tail = counts ? `; ${counts.text}` : "";
    let text;
    if (ex.kind === "add") {
      if (n <= ex.n) {
        text = "No point added.";
      } else {
        const j = this.nearest(ex.x, ex.y, ex.cls);
        const num = j < 0 ? n : this.index(j) + 1;
        text = `Added point ${num} at ${pairText(ex.x, ex.y)}, ${this.className(ex.cls)}${tail}.`;
      }
    } else if (ex.kind === "erase") {
      text = n < ex.n
        ? `Erased point ${ex.num} at ${pairText(ex.x, ex.y)}, ${this.className(ex.cls)}${tail}.`
        : "No point erased.";
    } else {
      text = `Moved point ${ex.num} to ${pairText(ex.x, ex.y)}${tail}.`;
    }
    this.say(text);
  }

  // Draw the crosshair (and a point carried) into the overlay (canvas.drawOverlay).
  draw(svg, a) {
    const plot = this.c.plot;
    if (!this.active || !this.cursor || !a) {
      this.readout.hidden = true;
      plot.dataset.cursor = "";
      return;
    }
    const { x, y } = this.cursor;
    const p = this.c.toPixel(x, y, a);
    if (this.held) {
      const p0 = this.c.toPixel(this.held.x, this.held.y, a);
      svg.appendChild(this.c.cross(p0[0], p0[1], "svmlab-drag-origin"));
      svg.appendChild(this.c.marker(p[0], p[1], this.held.cls, "svmlab-drag-ghost"));
    }
    const s = 13;
    const d = `M${p[0] - s},${p[1]}H${p[0] + s}M${p[0]},${p[1] - s}V${p[1] + s}`;
    CROSS_COLORS.forEach((stroke, k) => {
      const path = document.createElementNS(PLANE_SVGNS, "path");
      path.setAttribute("d", d);
      path.setAttribute("stroke", stroke);
      path.setAttribute("stroke-width", k ? "2" : "5");
      path.setAttribute("fill", "none");
      path.setAttribute("class", "svmlab-cursor");
      svg.appendChild(path);
      const ring = document.createElementNS(PLANE_SVGNS, "circle");
      ring.setAttribute("cx", p[0].toFixed(1));
      ring.setAttribute("cy", p[1].toFixed(1));
      ring.setAttribute("r", "6");
      ring.setAttribute("fill", "none");
      ring.setAttribute("stroke", stroke);
      ring.setAttribute("stroke-width", k ? "2" : "5");
      ring.setAttribute("class", "svmlab-cursor");
      svg.appendChild(ring);
    });
    plot.dataset.cursor = `${x},${y}`;
    const lay = (this.c.base && this.c.base.layout) || {};
    this.readout.style.background = lay.paper_bgcolor || "#ffffff";
    this.readout.style.color = (lay.font && lay.font.color) || "#1f2328";
    this.readout.style.left = `${Math.round(a.left + 6)}px`;
    this.readout.style.top = `${Math.round(a.top + 6)}px`;
    this.readout.textContent = this.cursorText();
    this.readout.hidden = false;
  }

  // -- what the figure says at a place ----------------------------------------------------

  // f at (x, y) from the plane's shading (or the predicted class from its regions), as
  // {kind: "f" | "class", value}, or null.
  field(x, y, traces) {
    const data = traces || this.c.plot.data || [];
    for (const tr of data) {
      if (!tr) continue;
      if (tr.meta === "svmlab-shade") {
        const v = gridValue(tr, x, y, false);
        if (v !== null) return { kind: "f", value: v };
      }
      if (tr.meta === "svmlab-regions") {
        const v = gridValue(tr, x, y, true);
        if (v !== null) return { kind: "class", value: v };
      }
    }
    return null;
  }

  // Class index j as the texts name it: "class +1" (binary: the legend's "y = +1"), else
  // "class j".
  className(clsIndex) {
    const base = (this.c.base && this.c.base.data) || [];
    const names = base.filter((t) => t && t.meta === "svmlab-points").map((t) => String(t.name));
    if (names.length && names.every((t) => /^y = /.test(t))) {
      return clsIndex === 0 ? "class −1" : "class +1";
    }
    return `class ${clsIndex}`;
  }

  // The model as the tree reads it (see the header): {summary, boundary, other, points:
  // [{j, pos, x, y, c, alpha, status, yf, pred}], sv: [positions], svLabel}.
  model(data) {
    const pts = data.points || { x: [], y: [], c: [] };
    const base = (this.c.base && this.c.base.data) || [];
    const alpha = new Map();
    const ring = new Map();
    let binary = false;
    for (const tr of base) {
      if (!tr) continue;
      if (tr.meta === "svmlab-points") {
        binary = binary || /^y = /.test(String(tr.name));
        for (const row of planeRows(tr.customdata)) if (row.length > 1) alpha.set(row[0], row[1]);
      } else if (tr.meta in RING_STATUS) {
        const xs = planeArray(tr.x);
        const ys = planeArray(tr.y);
        for (let i = 0; i < xs.length; i++) ring.set(`${xs[i]},${ys[i]}`, RING_STATUS[tr.meta]);
      }
    }
    const lines = String(data.description || "").split("\n").slice(1).filter((l) => l.trim());
    const heads = (l) => BOUNDARY_HEADS.some((h) => l.startsWith(h));
    const points = [];
    for (let pos = 0; pos < pts.x.length; pos++) {
      const j = pts.i ? pts.i[pos] : pos;
      const x = pts.x[pos];
      const y = pts.y[pos];
      const fv = this.field(x, y, base);
      const p = { j, pos, x, y, c: pts.c[pos], alpha: alpha.has(j) ? alpha.get(j) : null };
      p.status = ring.get(`${x},${y}`) || null;
      if (fv && fv.kind === "f") p.yf = (p.c === 1 ? 1 : -1) * fv.value;
      if (fv && fv.kind === "class") p.pred = Math.round(fv.value);
      points.push(p);
    }
    const anyAlpha = points.some((p) => p.alpha !== null && p.alpha !== 0);
    const sv = points.filter((p) => p.status);
    if (anyAlpha) sv.sort((a, b) => Math.abs(b.alpha) - Math.abs(a.alpha));
    else sv.sort((a, b) => (a.yf === undefined ? 0 : a.yf) - (b.yf === undefined ? 0 : b.yf));
    const signed = points.some((p) => p.alpha < 0);
    let svLabel = "";
    if (binary && ring.size) {
      svLabel = anyAlpha
        ? `Support vectors by ${signed ? "|α|" : "α"}, largest first (${sv.length})`
        : `Ringed points by y f(x), smallest first (${sv.length})`;
    }
    return {
      anyAlpha,
      summary: data.label || "",
      boundary: lines.filter(heads),
      other: lines.filter((l) => !heads(l)),
      points,
      sv: sv.map((p) => p.pos),
      svLabel,
      binary,
    };
  }

  // A point of model() in words: "point 12 at (0.31, −1.20), class +1: α = 0.5, free SV,
  // y f(x) ≈ 1.00".
  describePoint(p, m) {
    const parts = [];
    if (m.anyAlpha && p.alpha !== null) parts.push(`α = ${sigText(p.alpha)}`);
    if (p.yf !== undefined) {
      parts.push(p.status || "not a support vector");
      const where = p.yf <= 0 ? "misclassified" : p.yf < 1 ? "inside the margin" : "on or beyond the margin";
      parts.push(`y f(x) ≈ ${numText(p.yf)} (${where})`);
    } else if (p.pred !== undefined) {
      parts.push(p.pred === p.c ? `predicted class ${p.pred}` : `predicted class ${p.pred}: misclassified`);
    }
    const head = `point ${p.j + 1} at ${pairText(p.x, p.y)}, ${this.className(p.c)}`;
    return parts.length ? `${head}: ${parts.join(", ")}` : head;
  }


  fieldText(x, y) {
    const fv = this.field(x, y);
    if (!fv) return "";
    if (fv.kind === "class") return `predicted class ${Math.round(fv.value)}`;
    const f = fv.value;
    if (Math.abs(f) < 0.05) return `f ≈ ${numText(f)}, on the boundary`;
    const side = `${this.className(f > 0 ? 1 : 0)} side`;
    const band = Math.abs(f) < 1 ? ", inside the margin" : "";
    return `f ≈ ${numText(f)}, ${side}${band}`;
  }

  cursorText() {
    const { x, y } = this.cursor;
    const f = this.fieldText(x, y);
    const held = this.held ? `carrying point ${this.held.index + 1}: ` : "";
    return `${held}(x₁, x₂) = ${pairText(x, y)}${f ? `; ${f}` : ""}`;
  }

  // -- the points -------------------------------------------------------------------------

  index(pos) {
    const pts = this.c.data.points;
    return pts && pts.i ? pts.i[pos] : pos;
  }

  // The position (in data.points) of the point nearest (x, y) on screen, of class cls if
  // given; -1 without points.
  nearest(x, y, cls) {
    const pts = this.c.data && this.c.data.points;
    const a = this.c.axes();
    if (!pts || !a) return -1;
    const p = this.c.toPixel(x, y, a);
    let best = -1;
    let bestD = Infinity;
    for (let i = 0; i < pts.x.length; i++) {
      if (cls !== undefined && pts.c[i] !== cls) continue;
      const q = this.c.toPixel(pts.x[i], pts.y[i], a);
      const d = Math.hypot(q[0] - p[0], q[1] - p[1]);
      if (d < bestD) {
        bestD = d;
        best = i;
      }
    }
    return best;
  }

  // The sentence of point pos (model(): its α, ring and margin).
  pointText(pos) {
    const m = this.model(this.c.data);
    return m.points[pos] ? this.describePoint(m.points[pos], m) : `point ${pos + 1}`;
  }

  // Select point pos (ring it, light its α bar, the crosshair on it).
  select(pos, announce = true) {
    const pts = this.c.data && this.c.data.points;
    if (!pts || pos < 0 || pos >= pts.x.length) return;
    this.sel = pos;
    this.cursor = { x: pts.x[pos], y: pts.y[pos] };
    const j = this.index(pos);
    this.c.linked = { index: j, x: pts.x[pos], y: pts.y[pos] };
    this.c.plot.dataset.linked = String(j);
    this.c.plot.dataset.selected = String(j);
    this.c.lightBar(j);
    this.c.drawOverlay();
    if (announce) this.say(`Selected ${this.pointText(pos)}.`);
  }

  unselect() {
    this.sel = -1;
    this.c.plot.dataset.selected = "";
    this.c.clearLinked();
    this.c.lightBar(null);
  }

  cycle(step) {
    const pts = this.c.data && this.c.data.points;
    const n = pts ? pts.x.length : 0;
    if (!n) {
      this.say("No points on the plane.");
      return;
    }
    const from = this.sel >= 0 ? this.sel : step > 0 ? -1 : n;
    this.select((from + step + n) % n);
  }

  // -- the keys ---------------------------------------------------------------------------

  key(e) {
    if (e.ctrlKey || e.altKey || e.metaKey || !this.active) return;
    const k = e.key;
    let done = true;
    if (k.startsWith("Arrow")) this.step(k, e.shiftKey);
    else if (k === "Enter") this.enter();
    else if (k === "Delete" || k === "Backspace") this.erase();
    else if (k === "n" || k === ".") this.cycle(1);
    else if (k === "N" || k === ",") this.cycle(-1);
    else if (k === "m" || k === "M") this.pick();
    else if (k === "Escape" && (this.held || this.sel >= 0)) this.cancel();
    else if (k === "l" || k === "L") this.sound.toggle();
    else if (k === "o" || k === "O") this.sound.objective();
    else done = false;
    if (done) {
      e.preventDefault();
      e.stopPropagation();
    }
  }

  step(k, fine) {
    const a = this.c.axes();
    if (!a) return;
    if (!this.cursor) this.cursor = { x: (a.x0 + a.x1) / 2, y: (a.y0 + a.y1) / 2 };
    const div = CURSOR_STEPS[fine ? 1 : 0];
    const dx = (a.x1 - a.x0) / div;
    const dy = (a.y1 - a.y0) / div;
    const lo = (u, v) => Math.min(u, v);
    const hi = (u, v) => Math.max(u, v);
    let { x, y } = this.cursor;
    if (k === "ArrowLeft") x -= dx;
    else if (k === "ArrowRight") x += dx;
    else if (k === "ArrowUp") y += dy;
    else if (k === "ArrowDown") y -= dy;
    x = Math.max(lo(a.x0, a.x1), Math.min(hi(a.x0, a.x1), x));
    y = Math.max(lo(a.y0, a.y1), Math.min(hi(a.y0, a.y1), y));
    this.cursor = { x, y };
    this.c.drawOverlay();
    this.say(this.cursorText());
    this.sound.moved(k === "ArrowUp" || k === "ArrowDown");
  }

  send(ev) {
    this.c.send(ev);
    return ev.seq;
  }

  enter() {
    if (this.held) {
      this.drop();
      return;
    }
    if (!this.cursor) return;
    const d = this.c.data;
    const n = d.points ? d.points.x.length : 0;
    const { x, y } = this.cursor;
    const seq = this.send({ type: "add", x, y, cls: d.cls, cls_index: d.cls_index });
    this.expect = { kind: "add", seq, x, y, cls: d.cls_index, n };
  }

  erase() {
    const d = this.c.data;
    const pts = d.points;
    if (this.held) this.held = null;
    const pos = this.sel >= 0 ? this.sel : this.cursor ? this.nearest(this.cursor.x, this.cursor.y) : -1;
    if (!pts || pos < 0) {
      this.say("No point to erase.");
      return;
    }
    const [rx, ry] = this.c.radius();
    const index = this.index(pos);
    const x = pts.x[pos];
    const y = pts.y[pos];
    const cls = pts.c[pos];
    this.unselect();
    const seq = this.send({ type: "erase", index, x, y, rx, ry });
    this.expect = { kind: "erase", seq, x, y, cls, num: index + 1, n: pts.x.length };
  }

  pick() {
    if (this.held) {
      this.drop();
      return;
    }
    const pts = this.c.data && this.c.data.points;
    if (this.sel < 0 && this.cursor) this.select(this.nearest(this.cursor.x, this.cursor.y), false);
    if (!pts || this.sel < 0) {
      this.say("No point to pick up.");
      return;
    }
    const pos = this.sel;
    this.held = { pos, index: this.index(pos), x: pts.x[pos], y: pts.y[pos], cls: pts.c[pos] };
    this.cursor = { x: pts.x[pos], y: pts.y[pos] };
    this.c.drawOverlay();
    this.say(
      `Picked up point ${this.held.index + 1}: the arrow keys carry it, Enter or M drops it, ` +
        "Escape puts it back.",
    );
  }

  drop() {
    const h = this.held;
    this.held = null;
    const { x, y } = this.cursor;
    if (x === h.x && y === h.y) {
      this.c.drawOverlay();
      this.say(`Point ${h.index + 1} put back.`);
      return;
    }
    const [rx, ry] = this.c.radius();
    const seq = this.send({
      type: "move", index: h.index, x, y, from_x: h.x, from_y: h.y, cls_index: h.cls, rx, ry,
    });
    this.sel = h.pos; // still selected, at its new place
    this.c.linked = { index: h.index, x, y };
    this.c.drawOverlay();
    this.expect = { kind: "move", seq, x, y, num: h.index + 1, n: this.c.data.points.x.length };
  }

  cancel() {
    if (this.held) {
      const h = this.held;
      this.held = null;
      this.cursor = { x: h.x, y: h.y };
      this.c.drawOverlay();
      this.say(`Point ${h.index + 1} put back.`);
      return;
    }
    this.unselect();
    this.say("Selection cleared.");
  }
}
