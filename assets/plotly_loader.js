// plotly.js for SVM Lab's components, loaded once per page: a <script> tag of the copy
// served from static/ (svmlab/ui/static_assets.py). Prepended to each component's module
// (svmlab.ui.static_assets.component_js), so the canvas and the plot boxes share one load.

const PLOTLY_KEY = "__svmlabPlotlyPromise";

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
