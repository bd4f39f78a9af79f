"""A share link holding a non-finite number (``inf``, ``1e309``, ``-1e309``, ``nan``).

Python's ``float`` reads each without an error, and Streamlit's ``number_input`` bound to
the URL then raises ``OverflowError`` (cannot convert infinity to an int) on every reload
of the link. Every bound numeric value of every lab page (its seed, the kernel's Q and ζ,
ε, the feature page's sliders, the split's fraction and seed) is checked before a widget
sees it: the page opens, with ONE link message naming each value and the default used,
and the value leaves the URL. ``python -m svmlab render`` on such a link exits 2 with one
line on stderr.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from svmlab.__main__ import main
from svmlab.algorithms.bound_widgets import nonfinite_text
from svmlab.ui.safe_text import shown_text

# Tolerance table: none — messages and exit codes are exact.

ROOT = Path(__file__).resolve().parents[3]
TIMEOUT_S = 240
PAYLOADS = ("inf", "1e309", "-1e309", "nan")
#: Per lab page: the settings that show its conditional widgets, and its numeric keys.
SPLIT = ({"split": "holdout"}, ["test_frac", "test_seed"])
NUMERIC = {
    "linear_pegasos": ({}, ["pegasos_seed"]),
    "kernel_pegasos": (
        {"kernel_pegasos_kernel": "polynomial"},
        ["kernel_pegasos_seed", "kernel_pegasos_degree", "kernel_pegasos_coef0"],
    ),
    "dual_svm": ({"dual_svm_kernel": "polynomial"}, ["dual_svm_degree", "dual_svm_coef0"]),
    "multiclass": ({}, ["multiclass_sgd_seed", "multiclass_sgd_eps"]),
    "feature_space": (
        {},
        ["feature_run_seed", "feature_coef0", "feature_degree", "feature_terms"],
    ),
    "compare": ({}, ["compare_seed"]),
}


def open_link(page: str, query: dict) -> AppTest:
    """A fresh browser session opening ``/<page>?<query>`` (the router runs the page)."""
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=TIMEOUT_S)
    for key, value in query.items():
        at.query_params[key] = value
    at.switch_page(f"pages/{page}.py")  # the file's stem is the page's URL path
    return at.run()


def link_messages(at: AppTest) -> list[str]:
    """The link message's lines, as the reader sees them."""
    boxes = [shown_text(w.value) for w in at.warning if "could not be read" in w.value]
    assert len(boxes) <= 1, boxes  # one message
    return [line[2:] for line in boxes[0].split("\n")[1:]] if boxes else []


@pytest.mark.parametrize(
    "text",
    ["inf", "-inf", "Infinity", "nan", "NaN", "1e309", "-1e309", " inf", "1" + "0" * 400],
)
def test_non_finite_number_texts_are_recognised(text):
    assert nonfinite_text(text)


@pytest.mark.parametrize("text", ["0", "1e308", "-1.5", "abc", "", "0x10", "poly", "1,2"])
def test_other_texts_are_left_to_the_widgets(text):
    assert not nonfinite_text(text)


@pytest.mark.slow
@pytest.mark.parametrize("payload", PAYLOADS)
@pytest.mark.parametrize("page", list(NUMERIC))
def test_a_non_finite_value_opens_the_page_with_one_message_naming_it(page, payload):
    show, keys = NUMERIC[page]
    keys = keys + SPLIT[1]
    at = open_link(page, {**show, **SPLIT[0], **dict.fromkeys(keys, payload)})
    assert not at.exception, [e.message for e in at.exception]
    lines = link_messages(at)
    for key in keys:
        named = [m for m in lines if m.startswith(f"{key}={payload!r} is not a finite number")]
        assert len(named) == 1 and "; the default " in named[0], (key, lines)
        assert key not in at.query_params  # a reload does not meet it again
    assert len(lines) == len(keys), lines  # nothing else was refused
    assert at.query_params.get("split") == "holdout"  # the rest of the link is kept


@pytest.mark.parametrize("page", list(NUMERIC))
def test_render_refuses_a_non_finite_value_with_one_line(page, capsys):
    key = NUMERIC[page][1][0]
    status = main(["render", f"/{page}?{key}=1e309", "-o", "/tmp/svmlab_never_written.png"])
    out, err = capsys.readouterr()
    assert status == 2 and out == ""
    assert err == f"svmlab render: error: {key}='1e309' is not a finite number\n"


def test_render_prints_one_line_on_stderr_not_a_traceback():
    """The CLI as run: Streamlit's logging must not add a traceback to the one line, also
    for a page that fails while it runs (here: made to fail)."""
    code = (
        "import sys, svmlab.__main__ as m\n"
        "quiet = m._quiet_streamlit\n"
        "def q():\n"
        "    quiet()\n"
        "    import svmlab.ui.page as c\n"
        "    def boom(*a, **k):\n"
        "        raise RuntimeError('boom')\n"
        "    c.binary_page = boom\n"
        "m._quiet_streamlit = q\n"
        "sys.exit(m.main(sys.argv[1:]))\n"
    )
    for url, line in (
        ("/linear_pegasos?pegasos_seed=inf", "pegasos_seed='inf' is not a finite number"),
        ("/linear_pegasos", "the page 'linear_pegasos' failed: boom"),
    ):
        proc = subprocess.run(
            [sys.executable, "-c", code, "render", url, "-o", "/tmp/svmlab_never_written.png"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert proc.returncode == 2
        assert proc.stderr == f"svmlab render: error: {line}\n", proc.stderr
