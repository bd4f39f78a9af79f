// SVM Lab: the plane by keyboard. Prepended to the canvas's module (assets/canvas.js) by
// svmlab.ui.static_assets; the canvas makes one PlaneKeys and calls its hooks (render,
// draw, destroy).
//
// The plot div (role="img", named by the model's description) is focusable. Reached with
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
// the refit's figure has come, with the counts of that figure's outline
// (svmlab.study.plane_outline): "Added point 101 at (1.25, −0.75), class +1; 57 support
// vectors (50 free, 7 bounded), training accuracy 99 %."

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

// The value of a heatmap trace (z on the grid x × y) at (x, y): bilinear between the four
// grid values around it; null outside the grid or without numbers.
function gridValue(tr, x, y, nearest) {
  const xs = plotlyArray(tr.x);
  const ys = plotlyArray(tr.y);
  const nx = xs.length;
  const ny = ys.length;
  if (nx < 2 || ny < 2) return null;
  let at;
  if (tr.z && typeof tr.z === "object" && typeof tr.z.bdata === "string") {
    const flat = plotlyArray(tr.z);
    at = (i, j) => Number(flat[i * nx + j]);
  } else if (tr.z && tr.z.length === ny && tr.z[0] && tr.z[0].length !== undefined) {
    at = (i, j) => Number(tr.z[i][j]);
  } else if (tr.z && tr.z.length === nx * ny) {
    at = (i, j) => Number(tr.z[i * nx + j]);
  } else {
    return null;
  }
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
    const plot = canvas.plot;
    plot.tabIndex = 0;
    plot.setAttribute(ARROWS_ATTR, "off");
    plot.setAttribute("aria-keyshortcuts", "ArrowLeft ArrowRight ArrowUp ArrowDown Enter Delete N M L O");
    this.help = document.createElement("div");
    this.help.className = "svmlab-sr-only";
    DESC_SEQ += 1;
    this.help.id = `svmlab-plane-help-${DESC_SEQ}`;
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
  }

  destroy() {
    this.c.plot.removeEventListener("keydown", this.onKey);
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
    if (this.c.tree) this.c.tree.render(data);
    this.announceEdit(data);
  }

  announceEdit(data) {
    const ex = this.expect;
    if (!ex || this.c.channel.ack < ex.seq) return;
    const pts = data.points || { x: [], y: [], c: [] };
    const n = pts.x.length;
    let outline = data.outline || null;
    if (outline && outline.n !== n) {
      ex.waits = (ex.waits || 0) + 1;
      if (ex.waits < 3) return; // the refit of these points is on its way
      outline = null; // it does not come: the edit without the counts
    }
    this.expect = null;
    const counts = outline && outline.counts ? `; ${outline.counts}` : "";
    let text;
    if (ex.kind === "add") {
      if (n <= ex.n) {
        text = "No point added.";
      } else {
        const j = this.nearest(ex.x, ex.y, ex.cls);
        const num = j < 0 ? n : this.index(j) + 1;
        text = `Added point ${num} at ${pairText(ex.x, ex.y)}, ${this.className(ex.cls)}${counts}.`;
      }
    } else if (ex.kind === "erase") {
      text = n < ex.n
        ? `Erased point ${ex.num} at ${pairText(ex.x, ex.y)}, ${this.className(ex.cls)}${counts}.`
        : "No point erased.";
    } else {
      text = `Moved point ${ex.num} to ${pairText(ex.x, ex.y)}${counts}.`;
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
      const path = document.createElementNS(SVGNS, "path");
      path.setAttribute("d", d);
      path.setAttribute("stroke", stroke);
      path.setAttribute("stroke-width", k ? "2" : "5");
      path.setAttribute("fill", "none");
      path.setAttribute("class", "svmlab-cursor");
      svg.appendChild(path);
      const ring = document.createElementNS(SVGNS, "circle");
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
  field(x, y) {
    const data = this.c.plot.data || [];
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

  className(clsIndex) {
    const names = (this.c.data && this.c.data.class_names) || ["class −1", "class +1"];
    return names[clsIndex] || `class ${clsIndex}`;
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

  // The sentence of point pos: the outline's (its α, status, margin) when it describes
  // these points, else its place and class.
  pointText(pos) {
    const d = this.c.data;
    const pts = d.points;
    const o = d.outline;
    const j = this.index(pos);
    if (o && o.n === pts.x.length && o.points[j]) return o.points[j][2];
    return `point ${j + 1} at ${pairText(pts.x[pos], pts.y[pos])}, ${this.className(pts.c[pos])}`;
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
    else if ((k === "l" || k === "L") && this.c.sound) this.c.sound.toggle();
    else if ((k === "o" || k === "O") && this.c.sound) this.c.sound.objective();
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
    if (this.c.sound) this.c.sound.moved(k === "ArrowUp" || k === "ArrowDown");
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
