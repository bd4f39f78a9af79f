"""The Compare and Exercises pages, and the exercise goal box, through Streamlit's AppTest."""

import json

import pytest
from streamlit.testing.v1 import AppTest

from svmlab.study.compare import MODELS
from svmlab.study.exercises import EXERCISES
from tests.conftest import assert_clean, open_page

# Tolerance table: none — the values read back are the pages' own strings and session state
# (the numbers themselves are checked in tests/app/study/test_compare.py and
# test_exercise_checks.py).


def _contours(at: AppTest) -> list[str]:
    fig = json.loads(at.get("plotly_chart")[0].proto.spec)
    return [t["name"] for t in fig["data"] if t["type"] == "contour"]


# -- Compare -------------------------------------------------------------------------------
def test_compare_page_shows_the_mapping_the_overlay_and_the_table():
    at = open_page("compare")
    assert_clean(at)
    assert any(r"\frac{1}{0.01 \cdot 100} = 1" in lt.value for lt in at.latex), "C = 1/(λn)"
    table = at.dataframe[0].value
    assert list(table["model"]) == [m.label for m in MODELS.values()]
    assert "objective P" in table.columns and "agrees with the dual" in table.columns
    default = at.multiselect(key="compare_show").value
    assert _contours(at) == [MODELS[k].label for k in default]


def test_compare_controls_change_the_numbers_and_the_boundaries():
    at = open_page("compare")
    before = list(at.dataframe[0].value["objective P"])
    at.select_slider(key="compare_lam").set_value(0.1).run()
    assert_clean(at)
    assert any(r"\frac{1}{0.1 \cdot 100} = 0.1" in lt.value for lt in at.latex)
    assert list(at.dataframe[0].value["objective P"]) != before
    at.multiselect(key="compare_show").set_value(["sgd_linear", "sk_sgd"]).run()
    assert_clean(at)
    assert _contours(at) == [MODELS["sgd_linear"].label, MODELS["sk_sgd"].label]
    at.selectbox(key="compare_kernel").set_value("linear").run()
    assert_clean(at)
    assert not any("gamma" in lt.value for lt in at.latex)


def test_compare_page_with_one_class_says_so():
    at = open_page("compare")
    at.button(key="data_clear").click().run()
    assert_clean(at)
    assert at.warning and "Add at least 2 points" in at.warning[0].value


# -- Exercises -----------------------------------------------------------------------------
def test_exercises_page_lists_every_exercise_with_an_open_button():
    at = open_page("exercises")
    assert_clean(at)
    for ex in EXERCISES.values():
        assert at.button(key=f"exercise_open_{ex.id}")
        assert any(ex.title in m.value for m in at.markdown)
    assert "0 of" in at.get("progress")[0].proto.text


def _open_exercise(ex_id: str) -> AppTest:
    at = open_page("exercises")
    at.button(key=f"exercise_open_{ex_id}").click().run()
    # st.switch_page moves a browser; AppTest keeps its own page: follow it by hand
    at.switch_page(EXERCISES[ex_id].script)
    at.run()
    return at


def test_opening_an_exercise_loads_its_points_and_settings_and_checks_the_run():
    at = _open_exercise("one_bounded")
    assert_clean(at)
    assert at.session_state["svmlab_exercise"] == "one_bounded"
    assert at.select_slider(key="dual_svm_C").value == 100.0
    assert at.selectbox(key="dual_svm_kernel").value == "linear"
    assert at.session_state["svmlab_shown"].X.tolist()[-1] == [1.0, 0.5], "its 5 points"
    assert any(m.value == "**Exercise: Exactly one bounded SV**" for m in at.markdown)
    assert any(i.value.startswith("Not yet: C = 100: 0 bounded") for i in at.info)
    at.select_slider(key="dual_svm_C").set_value(3.16).run()
    assert_clean(at)
    assert any(s.value.startswith("Done ✓ C = 3.16: 1 bounded") for s in at.success)
    assert at.session_state["svmlab_exercises_done"] == {"one_bounded"}
    at.switch_page("pages/exercises.py")
    at.run()
    assert "1 of" in at.get("progress")[0].proto.text
    assert any("Exactly one bounded SV** — done ✓" in m.value for m in at.markdown)


def test_the_goal_box_points_to_its_page_and_leaving_ends_the_exercise():
    at = _open_exercise("pegasos_T")
    assert any("Not yet: T = 10" in i.value for i in at.info)
    at.switch_page("pages/kernel_pegasos.py")
    at.run()
    assert_clean(at)
    assert any("runs on the page “Linear Pegasos”" in i.value for i in at.info)
    at.button(key="exercise_leave").click().run()
    assert_clean(at)
    assert at.session_state["svmlab_exercise"] is None
    assert not any(m.value.startswith("**Exercise:") for m in at.markdown)


@pytest.mark.parametrize("ex_id", ["two_svs", "ova_ambiguous"])
def test_every_kind_of_page_runs_an_exercise_clean(ex_id):
    at = _open_exercise(ex_id)
    assert_clean(at)
    assert any(i.value.startswith("Not yet:") for i in at.info), [i.value for i in at.info]
