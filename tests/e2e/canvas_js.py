"""JavaScript snippets the canvas browser tests share (evaluated with ``page.evaluate``)."""

#: Data coordinates (x, y) -> ``[page x, page y, pixels per x unit, pixels per y unit]``,
#: with the plane's own axes (the test reads plotly's computed layout).
TO_PAGE_JS = """([x, y]) => {
  const d = document.querySelector('.svmlab-canvas-plot');
  const xa = d._fullLayout.xaxis, ya = d._fullLayout.yaxis, r = d.getBoundingClientRect();
  return [r.left + xa._offset + xa.d2p(x), r.top + ya._offset + ya.d2p(y), xa._m, -ya._m];
}"""
