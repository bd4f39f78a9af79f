"""The convergence panel and the per-point table on every page they apply to (AppTest).

Each panel is a lazy expander: closed, it computes and shows nothing; opened (its key set
in the session state, as a click does), it shows its figure, numbers and table.
"""

import json
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from svmlab.ui.panels.point_reasoning import clicked_points, selected_rows

# Tolerance table: none — these check what is on the page, not numbers.

TIMEOUT_S = 180
ROOT = Path(__file__).resolve().parents[3]


def _open(page: str, algo: str | None = None, **panels) -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=TIMEOUT_S)
    at.run()
    at.switch_page(f"pages/{page}.py")
    at.run()
    if algo is not None:
        group = {"linear_pegasos": "linear"}.get(page, page)  # the registry's page name
        at.radio(key=f"{group}_algo").set_value(algo).run()
    for key, value in panels.items():
        at.session_state[key] = value
    if panels:
        at.run()
    assert not at.exception, [e.message for e in at.exception]
    assert not at.error, [e.value for e in at.error]
    return at


@pytest.fixture
def planes(monkeypatch) -> list:
    """The figures drawn into the canvas (AppTest runs the page in this process)."""
    import svmlab.ui.plane

    drawn = []
    monkeypatch.setattr(
        svmlab.ui.plane, "canvas", lambda fig, **kw: drawn.append(fig.to_plotly_json())
    )
    return drawn


def _dashed(planes) -> list:
    return [tr for tr in planes[-1]["data"] if "(dashed)" in str(tr.get("name"))]


def _metrics(at) -> dict:
    return {m.label: m.value for m in at.metric}


def _charts(at) -> list[dict]:
    return [json.loads(c.proto.spec) for c in at.get("plotly_chart")]


def _point_tables(at) -> list:
    return [d.value for d in at.dataframe if list(d.value.columns[:2]) == ["i", "y"]]


def _log_log(at) -> list[dict]:
    return [
        f
        for f in _charts(at)
        if f["layout"].get("xaxis", {}).get("type") == "log"
        and f["layout"].get("yaxis", {}).get("type") == "log"
    ]


def test_closed_panels_compute_nothing():
    at = _open("linear_pegasos")
    assert "P* (exact minimum)" not in _metrics(at)
    assert not _log_log(at) and not _point_tables(at)


def test_linear_pegasos_convergence_and_two_boundaries(planes):
    at = _open("linear_pegasos", pegasos_conv=True)
    m = _metrics(at)
    assert float(m["P* (exact minimum)"]) > 0 and float(m["P(w̄_T) − P*"]) >= 0
    (fig,) = _log_log(at)
    names = [tr.get("name") for tr in fig["data"]]
    assert "averaged w̄_t" in names and "last iterate" in names
    assert any(str(n).startswith("guide") for n in names)
    assert any("interior point" in c.value and "tol" in c.value for c in at.caption)
    assert not _dashed(planes)
    at.toggle(key="pegasos_conv_two").set_value(True).run()
    assert [tr["name"] for tr in _dashed(planes)] == ["last iterate (dashed)"]


def test_output_last_swaps_the_roles(planes):
    at = _open("linear_pegasos", pegasos_conv=True)
    at.radio(key="pegasos_avg").set_value("last").run()
    at.toggle(key="pegasos_conv_two").set_value(True).run()
    assert not at.exception
    assert [tr["name"] for tr in _dashed(planes)] == ["averaged w̄ (dashed)"]


def test_transfer_reference_has_no_exact_optimum_and_says_so():
    at = _open("linear_pegasos")
    at.button(key="pegasos_set_wref").click().run()
    at.checkbox(key="pegasos_use_wref").check().run()
    at.session_state["pegasos_conv"] = True
    at.run()
    assert any("w_ref" in i.value for i in at.info)


def test_perceptron_says_it_has_no_objective():
    at = _open("linear_pegasos", "perceptron", perceptron_conv=True)
    assert any("minimises no objective" in i.value for i in at.info)


def test_kernel_pegasos_convergence_and_table():
    at = _open("kernel_pegasos", kernel_pegasos_conv=True, kernel_pegasos_points=True)
    assert "P* (exact minimum)" in _metrics(at)
    assert len(_log_log(at)) == 1
    (df,) = _point_tables(at)
    assert list(df.columns) == [
        "i",
        "y",
        "f(x)",
        "y f(x)",
        "distance |f(x)|/‖w‖",
        "ξ",
        "α",
        "position",
        "status",
    ]
    assert set(df["status"]) <= {"non-SV", "SV"}  # SSBD's α_j ≠ 0, as the plane rings them


@pytest.mark.parametrize("algo", ["multiclass_pegasos", "multiclass_sgd", "one_vs_all"])
def test_multiclass_views(algo, planes):
    at = _open("multiclass", algo, **{f"{algo}_conv": True, f"{algo}_points": True})
    frames = [d for d in _point_tables(at) if "margin m" in d.columns]
    assert frames and {"s_0(x)", "s_1(x)", "ξ", "status"} <= set(frames[0].columns)
    if algo == "multiclass_pegasos":
        assert any("Crammer–Singer" in c.value for c in at.caption)
        assert len(_log_log(at)) == 1
        at.toggle(key=f"{algo}_conv_two").set_value(True).run()
        dashed = _dashed(planes)
        assert [(tr["type"], tr["name"]) for tr in dashed] == [("contour", "last iterate (dashed)")]
    elif algo == "multiclass_sgd":
        assert any("Corollary 17.2" in i.value for i in at.info)
    else:  # one-vs-all is no SGD run of its own: no convergence panel
        assert not _log_log(at) and not any("P*" in i.value for i in at.info)


def test_dual_table_has_bounded_and_free_support_vectors():
    at = _open("dual_svm", dual_svm_points=True)
    (df,) = _point_tables(at)
    assert "α" in df.columns and {"free SV", "bounded SV"} & set(df["status"])
    assert not _log_log(at)  # the dual is solved exactly: no convergence panel


def test_point_i_marks_its_row_and_rings_it_on_the_plane():
    at = _open("linear_pegasos", pegasos_points=True)
    at.number_input(key="pegasos_points_i").set_value(3).run()
    assert any(c.value == "Marked: point(s) 3." for c in at.caption)
    assert any(tr.get("name") == "selected point" for f in _charts(at) for tr in f["data"])


def test_selection_states_are_read_as_indices():
    assert selected_rows({"selection": {"rows": [2, 0]}}) == [2, 0]
    assert selected_rows(None) == [] and selected_rows({}) == []
    state = {"selection": {"points": [{"customdata": [4, 0.5]}, {"x": 1.0}, {"customdata": []}]}}
    assert clicked_points(state) == [4]
    assert clicked_points(None) == []
