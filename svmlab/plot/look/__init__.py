"""A figure's look: the dark and presenter themes, the export presets and the trace roles.

Rule: as ``svmlab.plot`` — pure Plotly, no Streamlit.
"""
