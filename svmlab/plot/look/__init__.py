"""A figure's look: the page's themes (palettes, restyled figures), the export presets and
where their parts go (placement), and the trace roles.

Rule: as ``svmlab.plot`` — pure Plotly, no Streamlit.
"""
