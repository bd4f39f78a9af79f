"""Every parameter widget is bound to the URL (``bind="query-params"``, key = parameter).

Each registry spec's ``controls`` runs alone in an AppTest (every widget it draws is a
parameter of the run); each keyed widget must carry its key as its query parameter. Then
the page-level widgets: the algorithm radio, the multiclass page's k and the scrubber.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from svmlab.algorithms import ALGORITHMS

# Tolerance table: none — keys are compared exactly.

ROOT = Path(__file__).resolve().parents[3]
KINDS = ("select_slider", "selectbox", "radio", "checkbox", "number_input", "slider", "toggle")


def controls_only(alg: str, options: dict):
    import numpy as np
    import streamlit as st

    from svmlab.algorithms import ALGORITHMS

    for key, value in options.items():
        st.session_state.setdefault(key, value)
    rng = np.random.default_rng(0)
    X = rng.normal(size=(30, 2))
    y = np.arange(30) % 3 if ALGORITHMS[alg].n_classes is None else np.where(X[:, 0] > 0, 1, -1)
    ALGORITHMS[alg].controls(alg, X, y.astype(float) if y.min() < 0 else y)


def _keyed(at: AppTest):
    for kind in KINDS:
        for w in getattr(at, kind):
            if w.key:
                yield w


# Options that reveal the conditional widgets (poly kernel, custom class weights, …).
REVEAL = {
    "": {},
    "poly": {"{alg}_kernel": "poly", "{alg}_cw": "custom", "{alg}_kern": True},
    "sigma": {"{alg}_rbf_form": "sigma", "{alg}_solver": "qp", "{alg}_learner": "dual_svm"},
}


@pytest.mark.parametrize("alg", sorted(ALGORITHMS))
@pytest.mark.parametrize("reveal", sorted(REVEAL))
def test_every_control_of_every_algorithm_is_bound(alg, reveal):
    options = {k.format(alg=alg): v for k, v in REVEAL[reveal].items()}
    at = AppTest.from_function(controls_only, args=(alg, options), default_timeout=60).run()
    assert not at.exception, [e.message for e in at.exception]
    widgets = list(_keyed(at))
    assert widgets, "the spec draws its parameters"
    unbound = [w.key for w in widgets if w.proto.query_param_key != w.key]
    assert unbound == [], f"{alg}: not bound to the URL: {unbound}"


def test_the_page_level_widgets_are_bound():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120).run()
    at.switch_page("pages/linear_pegasos.py").run()
    radio = at.radio(key="linear_algo")
    assert radio.proto.query_param_key == "linear_algo"
    snap = at.select_slider(key="pegasos_snap")
    assert snap.proto.query_param_key == "pegasos_snap"
    at.switch_page("pages/multiclass.py").run()
    assert at.select_slider(key="multiclass_k").proto.query_param_key == "multiclass_k"
