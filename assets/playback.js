// SVM Lab's playback on the plane itself: the run's frames (svmlab/plot/plane_frames.py),
// decoded once when the run arrives, and the transport and readout under the plane.
// Prepended to the canvas's module (assets/canvas.js) by svmlab.ui.static_assets.
//
// Frames: every array of frames comes as base64 text of the deflated (zlib) byte
// differences between consecutive frames; decoded with the browser's DecompressionStream
// and a running sum (mod 256). The grid holds f(x) (int8, f = z · z_step) or the predicted
// class (uint8). A frame swaps the data of the figure's traces tagged by `meta`: the
// shading (or the multiclass regions) gets the grid, the boundary f = 0 and the margins
// f = ±1 are traced on it here (marching squares, as svmlab/plot/isolines.py does on the
// server), the points get their marker sizes (|α|), the rings their support vectors and
// the sampled point its ring. Nothing else changes: the figure keeps its look.

const PLAYBACK_SPEEDS = [
  ["½×", 0.5],
  ["1×", 1],
  ["2×", 2],
  ["4×", 4],
];
const PLAYBACK_FPS = 10; // frames per second at 1×
const SYNC_MS = 350; // after a step or a scrub, the snapshot goes back to Python this late

function base64Bytes(text) {
  const bin = atob(text);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

async function inflateBytes(bytes) {
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

// Frames of `text` (svmlab.plot.plane_frames.pack): n frames of equal length, bytes.
async function unpackFrames(text, n) {
  const u = await inflateBytes(base64Bytes(text));
  const per = u.length / n;
  for (let m = 1; m < n; m++) {
    const o = m * per;
    for (let j = 0; j < per; j++) u[o + j] = (u[o + j] + u[o - per + j]) & 255;
  }
  return { bytes: u, per };
}

// A Plotly typed-array spec ({dtype, bdata, shape}) or a plain array, as numbers.
function plotlyArray(v) {
  if (!v || Array.isArray(v) || ArrayBuffer.isView(v)) return v || [];
  if (typeof v === "object" && typeof v.bdata === "string") {
    const types = {
      f8: Float64Array, f4: Float32Array, i4: Int32Array, u4: Uint32Array,
      i2: Int16Array, u2: Uint16Array, i1: Int8Array, u1: Uint8Array, u1c: Uint8ClampedArray,
    };
    const T = types[v.dtype] || Float64Array;
    const b = base64Bytes(v.bdata);
    return new T(b.buffer, b.byteOffset, b.byteLength / T.BYTES_PER_ELEMENT);
  }
  return [];
}

// The first column of a customdata array (a typed spec of shape "m, c" or rows).
function firstColumn(cd) {
  if (!cd) return [];
  if (Array.isArray(cd)) return cd.map((r) => (Array.isArray(r) ? Number(r[0]) : Number(r)));
  const a = plotlyArray(cd);
  const shape = String(cd.shape || a.length).split(",").map((s) => Number(s));
  const cols = shape.length > 1 ? shape[1] : 1;
  const out = [];
  for (let i = 0; i < a.length; i += cols) out.push(Number(a[i]));
  return out;
}

// -- level lines on a grid (svmlab/plot/isolines.py) -------------------------------------
// Cell case (bit 1 bottom-left, 2 bottom-right, 4 top-right, 8 top-left above the level)
// -> segments between edges (0 bottom, 1 right, 2 top, 3 left); saddles by the centre.
const MS_CASES = {
  1: [[3, 0]], 2: [[0, 1]], 3: [[3, 1]], 4: [[1, 2]], 5: [[3, 0], [1, 2]], 6: [[0, 2]],
  7: [[3, 2]], 8: [[2, 3]], 9: [[0, 2]], 10: [[0, 1], [2, 3]], 11: [[1, 2]], 12: [[3, 1]],
  13: [[0, 1]], 14: [[3, 0]],
};
const MS_SADDLE_ABOVE = { 5: [[0, 1], [2, 3]], 10: [[3, 0], [1, 2]] };

// The polylines where Z (ny × nx, row-major, Z[i * nx + j] at (xs[j], ys[i])) equals
// `level`, appended to out.x / out.y, each followed by NaN.
function levelLines(xs, ys, Z, level, out) {
  const nx = xs.length;
  const ny = ys.length;
  const nH = ny * (nx - 1);
  const a = [];
  const b = [];
  for (let i = 0; i < ny - 1; i++) {
    for (let j = 0; j < nx - 1; j++) {
      const bl = Z[i * nx + j];
      const br = Z[i * nx + j + 1];
      const tr = Z[(i + 1) * nx + j + 1];
      const tl = Z[(i + 1) * nx + j];
      const c = (bl > level) * 1 + (br > level) * 2 + (tr > level) * 4 + (tl > level) * 8;
      if (c === 0 || c === 15) continue;
      const edges = [i * (nx - 1) + j, nH + i * nx + j + 1, (i + 1) * (nx - 1) + j, nH + i * nx + j];
      const up = (bl + br + tr + tl) / 4 > level;
      for (const [e0, e1] of up && MS_SADDLE_ABOVE[c] ? MS_SADDLE_ABOVE[c] : MS_CASES[c]) {
        a.push(edges[e0]);
        b.push(edges[e1]);
      }
    }
  }
  const point = (id) => {
    if (id < nH) {
      const i = Math.floor(id / (nx - 1));
      const j = id % (nx - 1);
      const z0 = Z[i * nx + j];
      const t = (level - z0) / (Z[i * nx + j + 1] - z0);
      return [xs[j] + t * (xs[j + 1] - xs[j]), ys[i]];
    }
    const v = id - nH;
    const i = Math.floor(v / nx);
    const j = v % nx;
    const z0 = Z[i * nx + j];
    const t = (level - z0) / (Z[(i + 1) * nx + j] - z0);
    return [xs[j], ys[i] + t * (ys[i + 1] - ys[i])];
  };
  const ends = new Map();
  for (let s = 0; s < a.length; s++) {
    for (const e of [a[s], b[s]]) {
      if (!ends.has(e)) ends.set(e, []);
      ends.get(e).push(s);
    }
  }
  const used = new Uint8Array(a.length);
  const walk = (start, s) => {
    let node = start;
    const p0 = point(node);
    out.x.push(p0[0]);
    out.y.push(p0[1]);
    for (;;) {
      used[s] = 1;
      node = a[s] === node ? b[s] : a[s];
      const p = point(node);
      out.x.push(p[0]);
      out.y.push(p[1]);
      const next = ends.get(node).find((t) => !used[t]);
      if (next === undefined) break;
      s = next;
    }
    out.x.push(NaN);
    out.y.push(NaN);
  };
  for (const [node, segs] of ends) if (segs.length === 1 && !used[segs[0]]) walk(node, segs[0]);
  for (let s = 0; s < a.length; s++) if (!used[s]) walk(a[s], s);
  return out;
}

// -- the run's frames ----------------------------------------------------------------------
class Frames {
  constructor(pb) {
    this.pb = pb;
    this.n = Number(pb.n);
    const [x0, x1, y0, y1, r] = pb.grid;
    this.xs = Array.from({ length: r }, (_, j) => x0 + ((x1 - x0) * j) / (r - 1));
    this.ys = Array.from({ length: r }, (_, i) => y0 + ((y1 - y0) * i) / (r - 1));
    this.r = r;
    const xy = base64Bytes(pb.X);
    this.X = new Float32Array(xy.buffer, xy.byteOffset, xy.byteLength / 4);
    this.decoding = null;
  }

  // The frames decoded (once): started after the run's figure is drawn, or by a key.
  get ready() {
    if (!this.decoding) this.decoding = this.decode();
    return this.decoding;
  }

  async decode() {
    const pb = this.pb;
    this.z = await unpackFrames(pb.z, this.n);
    this.size = pb.size ? await unpackFrames(pb.size, this.n) : null;
    this.ring = pb.ring ? await unpackFrames(pb.ring, this.n) : null;
    return this;
  }

  // The frame nearest to snapshot k at or before it.
  frameOf(k) {
    const idx = this.pb.index;
    if (k === null || k === undefined) return this.n - 1;
    let m = 0;
    while (m + 1 < idx.length && idx[m + 1] <= k) m++;
    return m;
  }

  grid(m) {
    const per = this.z.per;
    const src = this.z.bytes.subarray(m * per, (m + 1) * per);
    const Z = new Float32Array(per);
    if (this.pb.kind === "class") {
      for (let j = 0; j < per; j++) Z[j] = src[j];
    } else {
      const step = Number(this.pb.z_step);
      for (let j = 0; j < per; j++) Z[j] = ((src[j] << 24) >> 24) * step; // int8
    }
    return Z;
  }

  rows(Z) {
    const out = [];
    for (let i = 0; i < this.r; i++) out.push(Z.subarray(i * this.r, (i + 1) * this.r));
    return out;
  }

  // The edges between the predicted classes of a class grid: for each class but the last,
  // the zero level of its indicator (+1 in its region, −1 outside), as
  // svmlab.plot.regions.class_boundaries does with the scores.
  classEdges(Z) {
    const out = { x: [], y: [] };
    const k = Number(this.pb.n_classes || 0);
    const ind = new Float32Array(Z.length);
    for (let a = 0; a < k - 1; a++) {
      for (let j = 0; j < Z.length; j++) ind[j] = Z[j] === a ? 1 : -1;
      levelLines(this.xs, this.ys, ind, 0, out);
    }
    return out;
  }

  points(ids) {
    const x = [];
    const y = [];
    for (const j of ids) {
      if (j < 0 || 2 * j + 1 >= this.X.length) continue;
      x.push(this.X[2 * j]);
      y.push(this.X[2 * j + 1]);
    }
    return { x, y };
  }

  // The traces of `base` (the figure's data) with frame m's data swapped in.
  traces(m, base) {
    const Z = this.grid(m);
    const meta = (tr) => (tr && tr.meta) || "";
    const pb = this.pb;
    const ringOf = {};
    (pb.ring_meta || []).forEach((name, code) => {
      if (name) ringOf[name] = code;
    });
    let lines0 = null;
    let lines1 = null;
    return base.map((tr) => {
      const tag = meta(tr);
      if (tag === "svmlab-shade" || tag === "svmlab-regions") {
        return Object.assign({}, tr, { x: this.xs, y: this.ys, z: this.rows(Z) });
      }
      if (tag === "svmlab-boundary") {
        lines0 = lines0 || (pb.kind === "class" ? this.classEdges(Z) : levelLines(this.xs, this.ys, Z, 0, { x: [], y: [] }));
        return Object.assign({}, tr, { x: lines0.x, y: lines0.y });
      }
      if (tag === "svmlab-margin") {
        if (!lines1) {
          lines1 = levelLines(this.xs, this.ys, Z, -1, { x: [], y: [] });
          levelLines(this.xs, this.ys, Z, 1, lines1);
        }
        return Object.assign({}, tr, { x: lines1.x, y: lines1.y });
      }
      if (tag === "svmlab-points" && this.size) {
        const ids = tr.__ids || (tr.__ids = firstColumn(tr.customdata));
        const per = this.size.per;
        const step = Number(pb.size_step || 0.25);
        const sizes = ids.map((j) => this.size.bytes[m * per + j] * step);
        return Object.assign({}, tr, { marker: Object.assign({}, tr.marker, { size: sizes }) });
      }
      if (tag in ringOf && this.ring) {
        const per = this.ring.per;
        const ids = [];
        for (let j = 0; j < per; j++) if (this.ring.bytes[m * per + j] === ringOf[tag]) ids.push(j);
        return Object.assign({}, tr, this.points(ids));
      }
      if (tag === "svmlab-sampled" || tag === "svmlab-sampled-halo") {
        return Object.assign({}, tr, this.points(pb.sampled[m] || []));
      }
      return tr;
    });
  }

  // The readout of frame m: [["t", "1,234"], [label, text], ...].
  readout(m) {
    const fmt = (f, v) => {
      if (v === null || v === undefined || !Number.isFinite(Number(v))) return "–";
      if (f === "pct") return `${Number(v).toFixed(1)} %`;
      if (f === "int") return String(Math.round(Number(v)));
      return String(Number(Number(v).toPrecision(4)));
    };
    const out = [["t", Number(this.pb.t[m]).toLocaleString("en-US")]];
    for (const row of this.pb.readout || []) out.push([row.label, fmt(row.format, row.values[m])]);
    return out;
  }
}

// -- the transport under the plane ---------------------------------------------------------
class Transport {
  constructor(onAction) {
    this.root = document.createElement("div");
    this.root.className = "svmlab-transport";
    this.root.setAttribute("role", "group");
    this.root.setAttribute("aria-label", "Playback of the run");
    const button = (act, text, label) => {
      const b = document.createElement("button");
      b.type = "button";
      b.className = `svmlab-transport-${act}`;
      b.dataset.act = act;
      b.textContent = text;
      b.title = label;
      b.setAttribute("aria-label", label);
      b.addEventListener("click", () => onAction(act));
      return b;
    };
    this.first = button("first", "|◀", "first snapshot (Home)");
    this.prev = button("prev", "◀", "previous snapshot (← or PageUp)");
    this.play = button("play", "▶ play", "play / pause (Space)");
    this.next = button("next", "▶", "next snapshot (→ or PageDown)");
    this.last = button("last", "▶|", "last snapshot (End)");
    this.range = document.createElement("input");
    this.range.type = "range";
    this.range.min = "0";
    this.range.step = "1";
    this.range.className = "svmlab-transport-scrub";
    this.range.setAttribute("aria-label", "snapshot of the run");
    this.range.addEventListener("input", () => onAction("scrub", Number(this.range.value)));
    this.range.addEventListener("change", () => onAction("scrubbed", Number(this.range.value)));
    this.speed = document.createElement("select");
    this.speed.className = "svmlab-transport-speed";
    this.speed.setAttribute("aria-label", "playback speed");
    this.speed.title = "playback speed";
    for (const [text, v] of PLAYBACK_SPEEDS) {
      const o = document.createElement("option");
      o.value = String(v);
      o.textContent = text;
      if (v === 1) o.selected = true;
      this.speed.appendChild(o);
    }
    this.root.append(this.first, this.prev, this.play, this.next, this.last, this.range, this.speed);
    this.readout = document.createElement("div");
    this.readout.className = "svmlab-readout";
  }

  show(frames, m, playing) {
    const on = Boolean(frames) && frames.n > 1;
    this.root.hidden = !on;
    this.readout.hidden = !frames;
    if (!frames) return;
    this.range.max = String(frames.n - 1);
    this.range.value = String(m);
    this.play.textContent = playing ? "❙❙ pause" : "▶ play";
    this.play.setAttribute("aria-pressed", playing ? "true" : "false");
    const parts = frames.readout(m).map(([label, value]) => {
      const cls = label === "t" ? "svmlab-readout-t" : "svmlab-readout-item";
      const text = label === "t" ? `t = ${value}` : `${label} ${value}`;
      return `<span class="${cls}">${text.replace(/</g, "&lt;")}</span>`;
    });
    this.readout.innerHTML = parts.join('<span class="svmlab-readout-sep"> · </span>');
  }

  get rate() {
    return Number(this.speed.value) || 1;
  }
}
