// SVM Lab's canvas feed (svmlab.ui.canvas.feed_canvas): a fragment that does not redraw the
// data canvas (a scrub) sends it a new figure through this element. It draws nothing: it
// finds the canvas of its key on the page (.svmlab-canvas[data-key], drawn by the page in an
// earlier run; a few frames' grace for a page still mounting) and hands it the figure
// (Canvas.feed in assets/canvas.js), which draws it unless it shows a later stamp already.
//
// It also brings a new run's frames (playback) to a canvas drawn without them, earlier in the
// same script run (data.frames_id there): the plane's message is small and painted first.
//
// data: {feed_for: the canvas's key, stamp, figure?, bars?, links?, playback?}.

export default function (component) {
  const data = component.data || {};
  if (!data.figure && !data.playback) return () => {};
  let frames = 0;
  const deliver = () => {
    const sel = `.svmlab-canvas[data-key="${CSS.escape(String(data.feed_for))}"]`;
    const root = document.querySelector(sel);
    const canvas = root && root.__svmlabCanvas;
    if (canvas && canvas.latest) canvas.feed(data);
    else if (++frames < 120) requestAnimationFrame(deliver);
  };
  deliver();
  return () => {};
}
