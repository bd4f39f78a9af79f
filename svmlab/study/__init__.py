"""The maths of the study views (compare, convergence, split, sweep, exercises, feature space)
and of the seeds' derivations beside a run (seed 002's telescoping sum and the Perceptron's
mistake counts, Lin's Lagrangian and large-margin bound, seed 004's problem in α, Remark 17.3).

Rule: pure — NumPy, svmcore, scikit-learn (reference results) and ``svmlab.state``; never
Plotly figures (those are ``svmlab.plot``), never Streamlit.
"""
