"""The Export section of the algorithm pages (svmlab.ui.export_panel), headless (AppTest).

The renderer is replaced by stubs here (no Chromium): what is checked is that nothing is
rendered on a rerun, that "Prepare" makes the bytes once with a progress bar and offers
them, and that a failing export is a message, never a traceback. The real files are
checked in ``tests/e2e/test_export_downloads_browser.py`` and
``tests/app/export/test_export_files.py``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from svmlab import export
from svmlab.algorithms import ALGORITHMS
from svmlab.export.reproduce import view_of
from svmlab.ui.export_panel import ERROR_KEY, deferred

# Tolerance table: none — the checks are on widgets, messages and bytes, all exact.

ROOT = Path(__file__).resolve().parents[3]
TIMEOUT_S = 120
PAGE_FILES = {"linear": "linear_pegasos", "kernel": "kernel_pegasos", "dual": "dual_svm"}


def open_page(key: str) -> AppTest:
    spec = ALGORITHMS[key]
    at = AppTest.from_file(
        str(ROOT / "pages" / f"{PAGE_FILES.get(spec.page, spec.page)}.py"),
        default_timeout=TIMEOUT_S,
    )
    at.run()
    if f"{spec.page}_algo" in at.session_state:
        at.radio(key=f"{spec.page}_algo").set_value(key).run()
    at.session_state[f"{key}_export_box"] = True  # closed, the panel draws nothing
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    return at


def labels(at: AppTest) -> list[str]:
    return [b.label for b in at.get("download_button")]


@pytest.fixture
def no_rendering(monkeypatch):
    """Every exporter replaced by a counter: a rerun must call none of them."""
    calls: list[str] = []

    def fake(fmt):
        def make(fig, *args, progress=None, **kwargs):
            calls.append(fmt)
            for i in range(1, 4):
                if progress is not None:
                    progress(i, 3)
            return f"{fmt} bytes".encode()

        return make

    monkeypatch.setattr(export.files, "render", lambda fig, f, scale=1.0: fake(f)(fig))
    monkeypatch.setattr(export.files, "animation_gif", fake("gif"))
    monkeypatch.setattr(export.files, "animation_mp4", fake("mp4"))
    monkeypatch.setattr(export.files, "animation_html", fake("html"))
    return calls


@pytest.mark.parametrize("key", list(ALGORITHMS))
def test_every_algorithm_offers_the_exports_without_rendering_any(key, no_rendering):
    at = open_page(key)
    found = labels(at)
    for name in ("PNG", "SVG", "PDF", "Reproduce in Python (.py)"):
        assert name in found, (key, found)
    prepare = [b.label for b in at.button if b.label.startswith("Prepare")]
    if view_of(at.session_state["svmlab_shown"]).trace is None:  # one snapshot, no run
        assert prepare == [] and "HTML" not in found and found.count("PNG") == 1
    else:
        assert prepare == ["Prepare GIF", "Prepare MP4"] and "HTML" in found
        assert found.count("PNG") == 2, "the plane and the curves"
    at.selectbox(key=f"{key}_export_preset").set_value("print").run()
    at.checkbox(key=f"{key}_export_nolegend").check().run()
    assert not at.exception
    assert no_rendering == [], "a rerun renders nothing; downloads are deferred"


def test_prepare_gif_renders_once_with_progress_then_offers_the_file(no_rendering):
    at = open_page("kernel_pegasos")
    at.button(key="kernel_pegasos_export_anim_gif").click().run()
    assert not at.exception and not at.error
    assert no_rendering == ["gif"]
    made = at.session_state["kernel_pegasos_export_anim_made"]
    assert made[1] == "gif" and made[2] == b"gif bytes"
    assert "Download GIF" in labels(at)
    at.run()  # a rerun keeps the file, renders nothing
    assert no_rendering == ["gif"] and "Download GIF" in labels(at)
    at.selectbox(key="kernel_pegasos_export_preset").set_value("slides").run()
    assert "Download GIF" not in labels(at), "another preset: the file made is stale"
    assert "kernel_pegasos_export_anim_made" not in at.session_state


def test_a_failing_export_is_a_message_not_a_traceback(monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("figure export needs Chromium: install Debian's chromium\nmore")

    monkeypatch.setattr(export.files, "animation_mp4", broken)
    at = open_page("pegasos")
    at.button(key="pegasos_export_anim_mp4").click().run()
    assert not at.exception
    assert [e.value for e in at.error] == [
        "The animation as MP4 could not be exported: figure export needs Chromium: install "
        "Debian's chromium"
    ]
    assert "Download MP4" not in labels(at)


def test_without_chromium_the_page_says_so_instead_of_static_buttons(monkeypatch):
    monkeypatch.setattr(export, "browser_path", lambda: None)
    at = open_page("dual_svm")
    assert "PNG" not in labels(at)
    assert any("need Chromium" in i.value for i in at.info)


def test_a_deferred_download_keeps_its_error_for_the_next_run():
    errors: dict = {}

    def fail():
        raise OSError("the renderer hung up")

    build = deferred(errors, "The plane as PDF", fail)
    with pytest.raises(RuntimeError, match="The plane as PDF could not be exported"):
        build()
    assert errors == {"text": "The plane as PDF could not be exported: the renderer hung up"}
    assert deferred({}, "x", lambda: b"ok")() == b"ok"


def test_the_kept_error_is_shown_once():
    at = open_page("perceptron")
    at.session_state[ERROR_KEY]["text"] = "The plane as PNG could not be exported: boom"
    at.run()
    assert [e.value for e in at.error] == ["The plane as PNG could not be exported: boom"]
    at.run()
    assert not at.error
