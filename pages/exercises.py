"""Exercises (placeholder)."""

import streamlit as st

from svmlab.router import enter

enter(__file__)  # first: a cold deep link runs this file alone (svmlab/router.py)

st.title("Exercises")
