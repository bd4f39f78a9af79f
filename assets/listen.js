// SVM Lab's listen mode: the plane as sound, for finding the boundary without seeing it
// (PhET's sonification). Off by default; L on the plane or the "Listen" button under it
// turns it on (Web Audio, started from that key or click: a browser lets audio start from
// a user's gesture only; no file, nothing fetched). Part of the plane's keyboard script
// (assets/plane_cursor.js makes one Listen per canvas).
//
// On: f along the keyboard crosshair's row plays as pitch, left to right in ~1.5 s (low
// for f ≤ −2, high for f ≥ +2, the middle at f = 0), with a click where f changes sign (a
// boundary crossing); again after each ↑ / ↓; ← / → play f at the crosshair briefly.
// Multiclass: the predicted class as a step in pitch, a click where it changes. O plays
// the run's objective over the snapshots (the readout's "objective" or "dual objective"),
// high = large. assets/plane_cursor.js calls moved(), toggle() and objective().

const SWEEP_S = 1.5;
const SWEEP_SAMPLES = 60;
const PITCH_LO = 220; // Hz at the bottom of the range
const PITCH_OCTAVES = 2; // up to 880 Hz
const F_SPAN = 2; // f on [−2, 2] (the shading's F_CLIP) spans the pitch range

class Listen {
  constructor(canvas, keys) {
    this.c = canvas;
    this.keys = keys;
    this.on = false;
    this.ctx = null;
    this.plays = 0;
    this.button = document.createElement("button");
    this.button.type = "button";
    this.button.className = "svmlab-listen";
    this.button.textContent = "Listen (L)";
    this.button.setAttribute("aria-pressed", "false");
    this.button.title = "Listen mode: f along the crosshair's row as pitch (L on the plane)";
    this.button.addEventListener("click", () => this.toggle());
    this.tools = document.createElement("div");
    this.tools.className = "svmlab-plane-tools";
    const hint = document.createElement("span");
    hint.className = "svmlab-plane-hint";
    hint.textContent =
      "Keyboard: Tab to the plane · arrows move · Enter adds · Delete erases · N selects · " +
      "M moves · then Tab: the model as a tree";
    this.tools.append(this.button, hint);
    canvas.transport.readout.after(this.tools);
  }

  audio() {
    const AC = window.AudioContext || window.webkitAudioContext;
    if (!AC) return null;
    if (!this.ctx) this.ctx = new AC();
    if (this.ctx.state === "suspended") this.ctx.resume();
    return this.ctx;
  }

  toggle() {
    this.on = !this.on;
    this.button.setAttribute("aria-pressed", this.on ? "true" : "false");
    this.c.plot.dataset.listen = this.on ? "1" : "";
    if (!this.on) {
      this.stop();
      this.say("Listen mode off.");
      return;
    }
    if (!this.audio()) {
      this.say("Listen mode: this browser has no Web Audio.");
      return;
    }
    this.say(
      "Listen mode on: f along the crosshair's row, left to right, low for class −1, high " +
        "for class +1, a click at the boundary. Up and down play another row; O plays the objective.",
    );
    this.row();
  }

  say(text) {
    this.keys.say(text);
  }

  // The crosshair moved: a new row plays the row, a step along it a short tone.
  moved(vertical) {
    if (!this.on) return;
    if (vertical) this.row();
    else this.tone();
  }

  pitch(v, kind, k) {
    if (kind === "class") return PITCH_LO * 2 ** ((PITCH_OCTAVES * v) / Math.max(1, k - 1));
    const u = (Math.max(-F_SPAN, Math.min(F_SPAN, v)) + F_SPAN) / (2 * F_SPAN);
    return PITCH_LO * 2 ** (PITCH_OCTAVES * u);
  }

  // Values along the crosshair's row: [{kind, value}] or null.
  rowValues() {
    const keys = this.keys;
    const a = this.c.axes();
    if (!keys || !a || !keys.cursor) return null;
    const out = [];
    for (let s = 0; s < SWEEP_SAMPLES; s++) {
      const x = a.x0 + ((a.x1 - a.x0) * s) / (SWEEP_SAMPLES - 1);
      const fv = keys.field(x, keys.cursor.y);
      if (!fv) return null;
      out.push(fv);
    }
    return out;
  }

  row() {
    const vals = this.rowValues();
    if (!vals) {
      this.say("Nothing to listen to: the plane has no model yet.");
      return;
    }
    const kind = vals[0].kind;
    const k = kind === "class" ? Math.max(...vals.map((v) => v.value)) + 1 : 2;
    const cuts = [];
    for (let s = 1; s < vals.length; s++) {
      const a = vals[s - 1].value;
      const b = vals[s].value;
      if (kind === "class" ? a !== b : (a > 0) !== (b > 0)) cuts.push(s);
    }
    this.play(vals.map((v) => this.pitch(v.value, kind, k)), cuts, SWEEP_S);
    this.c.plot.dataset.listenCrossings = String(cuts.length);
  }

  tone() {
    const keys = this.keys;
    const fv = keys && keys.cursor ? keys.field(keys.cursor.x, keys.cursor.y) : null;
    if (fv) this.play([this.pitch(fv.value, fv.kind, 3)], [], 0.15);
  }

  // The objective over the snapshots, as pitch (its range mapped onto two octaves).
  objective() {
    const f = this.c.frames;
    const rows = (f && f.pb && f.pb.readout) || [];
    const row = rows.find((r) => /objective/.test(r.label));
    const vals = row ? row.values.filter((v) => Number.isFinite(Number(v))).map(Number) : [];
    if (vals.length < 2) {
      this.say("This run has no objective curve to play.");
      return;
    }
    if (!this.audio()) return;
    const lo = Math.min(...vals);
    const hi = Math.max(...vals);
    const span = hi - lo || 1;
    this.play(vals.map((v) => PITCH_LO * 2 ** ((PITCH_OCTAVES * (v - lo)) / span)), [], SWEEP_S);
    const fmt = (v) => String(Number(v.toPrecision(3))).replace("-", "−");
    this.say(
      `The ${row.label} over the run: from ${fmt(vals[0])} to ${fmt(vals[vals.length - 1])} ` +
        `(lowest ${fmt(lo)}, highest ${fmt(hi)}).`,
    );
  }

  stop() {
    if (this.voice) {
      try {
        this.voice.stop();
      } catch (err) {
        // stopped already
      }
      this.voice = null;
    }
  }

  // Play the pitches (Hz) evenly over `seconds`, a click at each index of `cuts`.
  play(freqs, cuts, seconds) {
    const ctx = this.audio();
    if (!ctx || !freqs.length) return;
    this.stop();
    const t0 = ctx.currentTime + 0.02;
    const dt = seconds / freqs.length;
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.type = "triangle";
    freqs.forEach((hz, s) => osc.frequency.setValueAtTime(hz, t0 + s * dt));
    gain.gain.setValueAtTime(0, t0);
    gain.gain.linearRampToValueAtTime(0.18, t0 + 0.02);
    gain.gain.setValueAtTime(0.18, t0 + seconds - 0.03);
    gain.gain.linearRampToValueAtTime(0, t0 + seconds);
    osc.connect(gain).connect(ctx.destination);
    osc.start(t0);
    osc.stop(t0 + seconds + 0.01);
    this.voice = osc;
    for (const s of cuts) {
      const click = ctx.createOscillator();
      const g = ctx.createGain();
      const at = t0 + s * dt;
      click.type = "square";
      click.frequency.setValueAtTime(1800, at);
      g.gain.setValueAtTime(0.25, at);
      g.gain.exponentialRampToValueAtTime(0.001, at + 0.03);
      click.connect(g).connect(ctx.destination);
      click.start(at);
      click.stop(at + 0.035);
    }
    this.plays += 1;
    this.c.plot.dataset.listenPlays = String(this.plays);
  }
}
