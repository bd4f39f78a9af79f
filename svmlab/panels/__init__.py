"""Panels under an algorithm page's report (Streamlit side), each driven by the registry."""
