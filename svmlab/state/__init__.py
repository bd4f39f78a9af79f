"""The lab's state as pure data: points, classes, the plane, the canvas session, share links.

Rule: NumPy and the standard library only (svmcore's data sets allowed); never Plotly,
never Streamlit, never another svmlab folder.
"""
