// SVM Lab's plot box: a Plotly figure that stays mounted across reruns.
//
// st.plotly_chart gives a chart a new identity whenever its figure changes, so every
// click re-created the curves chart (Plotly.newPlot on a fresh <div>, ~60 ms of the
// browser's main thread right when the plane above was to be painted). This keeps one
// <div> per key and calls Plotly.react on it, after the next paint: the plane draws first.
//
// data: {figure: Plotly JSON text, plotly_src: URL of plotly.min.js, config: {...}}.
// The <div> carries data-renders (figures drawn) for tests.

// After the next frame is painted: the plane above (assets/canvas.js, updated in the same
// rerun and drawn as soon as its data arrive) paints first.
function afterPaint(fn) {
  requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(fn, 0)));
}

// What the plane has to draw now (assets/canvas.js serialises its drawing on `chain`: a
// click's new figure may wait there behind a resize under load): the curves wait for it, so
// that the plane is drawn first whatever the timing.
function planeDrawn() {
  const root = document.querySelector(".svmlab-canvas");
  const canvas = root && root.__svmlabCanvas;
  return canvas && canvas.chain ? Promise.resolve(canvas.chain).catch(() => {}) : Promise.resolve();
}

class PlotBox {
  constructor(parent) {
    this.div = document.createElement("div");
    this.div.className = "svmlab-plot";
    this.div.dataset.renders = "0";
    parent.appendChild(this.div);
    this.text = null;
    this.seq = 0;
    this.resize = new ResizeObserver(() => {
      if (window.Plotly && this.text && this.div.offsetWidth > 0) {
        Promise.resolve(window.Plotly.Plots.resize(this.div)).catch(() => {});
      }
    });
    this.resize.observe(this.div);
  }

  update(data) {
    const text = data.figure || "";
    if (text === this.text) return;
    const my = ++this.seq;
    afterPaint(async () => {
      if (my !== this.seq) return; // a newer figure superseded this one
      await planeDrawn();
      if (my !== this.seq) return;
      try {
        const Plotly = await loadPlotly(data.plotly_src || "/app/static/plotly.min.js");
        if (my !== this.seq) return;
        const fig = JSON.parse(text || "{}");
        const layout = Object.assign({}, fig.layout || {}, { autosize: true });
        delete layout.width;
        const config = Object.assign({ displaylogo: false, responsive: true }, data.config || {});
        this.div.style.height = `${layout.height || 330}px`;
        await Plotly.react(this.div, fig.data || [], layout, config);
        this.text = text;
        this.div.dataset.renders = String(Number(this.div.dataset.renders) + 1);
      } catch (err) {
        this.div.textContent = `The chart could not be drawn (${err.message}).`;
      }
    });
  }

  destroy() {
    this.resize.disconnect();
    if (window.Plotly) window.Plotly.purge(this.div);
    this.div.remove();
  }
}

export default function (component) {
  const { parentElement, data } = component;
  let box = parentElement.__svmlabPlot;
  if (!box || !box.div.isConnected) {
    box = new PlotBox(parentElement);
    parentElement.__svmlabPlot = box;
  }
  box.update(data || {});
  // Streamlit calls this on unmount (and, for a superseded call, right away): tear down
  // only once the element has really left the page.
  return () => {
    setTimeout(() => {
      if (!parentElement.isConnected && parentElement.__svmlabPlot === box) {
        box.destroy();
        delete parentElement.__svmlabPlot;
      }
    }, 0);
  };
}
