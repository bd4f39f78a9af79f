"""SVM Lab: the app's entry point (placeholder until the app issue lands)."""

import streamlit as st

st.set_page_config(page_title="SVM Lab", layout="wide")
st.title("SVM Lab")
st.write(
    "An interactive lab for support vector machines: draw points, pick an algorithm "
    "(Pegasos, kernel Pegasos, the dual SVM, multiclass SVM) and watch it learn. "
    "The pages are coming; the algorithms live in `svmcore`."
)
