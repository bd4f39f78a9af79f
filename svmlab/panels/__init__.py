"""Streamlit panels that the algorithm pages show below their report (one module each)."""
