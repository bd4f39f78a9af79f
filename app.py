"""SVM Lab: the router (st.navigation over the pages in pages/)."""

import streamlit as st

st.set_page_config(page_title="SVM Lab", layout="wide")

pages = {
    "SVM Lab": [st.Page("pages/home.py", title="Home", default=True)],
    "Binary": [
        st.Page("pages/linear_pegasos.py", title="Linear Pegasos"),
        st.Page("pages/kernel_pegasos.py", title="Kernel Pegasos"),
    ],
    "Dual": [st.Page("pages/dual_svm.py", title="Dual SVM (QP / SMO)")],
    "Multiclass": [st.Page("pages/multiclass.py", title="Multiclass")],
}
st.navigation(pages).run()
