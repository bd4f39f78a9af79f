"""Panels under an algorithm page's report (Streamlit side, one module each), driven by the
registry."""
