"""Figures as pure functions to Plotly figures: the plane, its regions and level lines, curves,
playback frames, the model views and the pseudo-code.

Rule: NumPy, Plotly, svmcore, ``svmlab.state`` and ``svmlab.study``; never Streamlit, so
the same functions serve the app, notebooks and export. ``plot/look/`` gives a figure its
look (palette, theme, export presets, trace roles).
"""
