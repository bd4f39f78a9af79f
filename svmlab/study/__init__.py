"""The maths of the study views (compare, convergence, split, sweep, exercises, feature space).

Rule: pure — NumPy, svmcore, scikit-learn (reference results) and ``svmlab.state``; never
Plotly figures (those are ``svmlab.plot``), never Streamlit.
"""
