"""SVM Lab's app layer, in folders that name its layers (dependencies point down this list).

- ``state/``: pure data of the lab — points and their files, the classes, the plane's range
  and grid, the canvas session, the share-link codec and lesson files. NumPy only.
- ``study/``: pure maths of the study views — compare, convergence, split, sweep, the
  per-point table, exercises, the feature space, Lemma 16.3, the scikit-learn checks.
- ``plot/``: pure Plotly figures (plane, regions, isolines, curves, playback, model views,
  pseudo-code) and ``plot/look/`` (theme, export styles, trace roles). No Streamlit: they
  serve notebooks and export.
- ``export/``: files, animations and the "Reproduce in Python" script, from figures.
- ``algorithms/``: the registry — one ``AlgorithmSpec`` per svmcore algorithm; its control
  builders are the only Streamlit code outside ``ui/``.
- ``ui/``: Streamlit only — router, page, session keys, runners, fit pool, data panel,
  presenter, keys, link state, panels, components.

``tests/test_layering.py`` checks these rules.
"""
