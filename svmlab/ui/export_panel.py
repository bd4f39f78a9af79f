"""The "Export" section of every algorithm page: figures, animations and a Python script.

:func:`export_panel` is called once at the end of :func:`svmlab.ui.page.run_report`. It
offers, in one expander:

* a style preset (:data:`svmlab.export.PRESETS`: screen, slides, paper, print) and the
  options hide shading / legend / ticks, paper width 3.5 in or 7 in;
* PNG (scale 3), SVG and PDF downloads of the plane at the snapshot shown and of the
  curves — one click each: the bytes are made by a *deferred* download (Streamlit calls
  the function when the button is clicked), never on a rerun, since the server is shared
  by a class;
* the run's animation: HTML (deferred, plotly.js inlined) and GIF / MP4 behind a
  "Prepare" button with a progress bar, then a download button for the bytes made; the
  GIF / MP4 wait their turn in the server's export queue (one per session, one at a
  time by default: :mod:`svmlab.export.queue`), the position shown in the bar;
* "Reproduce in Python" (:func:`svmlab.export.reproduce.reproduce_script`).

An export that fails (no Chromium, a renderer error) is reported on the page in one
sentence, never as a traceback: a deferred download's error is kept and shown on the
next run of the page (Streamlit itself only says "Failed to generate file").
"""

from __future__ import annotations

import streamlit as st

from svmlab import export
from svmlab.export.queue import EXPORTS, ExportBusy
from svmlab.export.reproduce import (
    animation_of,
    curves_figure_of,
    plane_figure_of,
    reproduce_script,
)
from svmlab.state.run_context import RunContext
from svmlab.ui import runners, session
from svmlab.ui.fragment_state import mark_local

__all__ = ["ERROR_KEY", "N_FRAMES", "PRESET_LABELS", "deferred", "export_panel"]

#: Frames of an exported animation (the page's own animation has as many).
N_FRAMES = 50
#: Session key of the last deferred export's error (shown once on the next run).
ERROR_KEY = session.EXPORT_ERROR
#: What each style preset is for, in the Style menu.
PRESET_LABELS = {
    "screen": "screen (as in the app)",
    "slides": "slides (1280 × 720, text ≥ 24 pt)",
    "paper": "paper (8 pt sans-serif, vector)",
    "print": "print (grayscale: shapes and dashes)",
}


def _failure(what: str, exc: Exception) -> str:
    reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    return f"{what} could not be exported: {reason}"


def deferred(errors: dict, what: str, make):
    """A no-argument function for ``st.download_button(data=…)`` that keeps its error."""

    def build():
        try:
            return make()
        except Exception as exc:
            errors["text"] = _failure(what, exc)  # shown on the next run (no st.* in here)
            raise RuntimeError(errors["text"]) from exc

    return build


def _options(algorithm: str) -> tuple[str, dict]:
    """The preset and the style options (widgets keyed ``f"{algorithm}_export_…"``)."""
    key = f"{algorithm}_export"
    c1, c2 = st.columns([1.2, 1])
    preset = c1.selectbox(
        "Style", list(export.PRESETS), format_func=PRESET_LABELS.get, key=f"{key}_preset"
    )
    paper = export.PRESETS[preset].vector
    width = c2.radio(
        "Paper width",
        ["single", "double"],
        format_func={"single": "3.5 in (one column)", "double": "7 in (two columns)"}.get,
        key=f"{key}_width",
        horizontal=True,
        disabled=not paper,
        help="Paper and print presets only.",
    )
    c = st.columns(3)
    style = dict(
        shading=not c[0].checkbox("Hide the shading", key=f"{key}_noshade"),
        legend=not c[1].checkbox("Hide the legend", key=f"{key}_nolegend"),
        ticks=not c[2].checkbox("Hide the axes' ticks", key=f"{key}_noticks"),
        width=width if paper else None,
    )
    return preset, style


def _figure_row(label, algorithm, name, build, errors, preset, style, stem) -> None:
    """Three deferred downloads (PNG, SVG, PDF) of the figure ``build()``."""
    cols = st.columns([1.3, 1, 1, 1], vertical_alignment="center")
    cols[0].markdown(label)
    for col, fmt in zip(cols[1:], export.files.STILL, strict=True):
        make = deferred(
            errors,
            f"The {name} as {fmt.upper()}",
            lambda f=fmt: export.figure_bytes(build(), f, preset=preset, **style),
        )
        col.download_button(
            fmt.upper(),
            data=make,
            file_name=f"{stem}_{name}.{fmt}",
            mime=export.MIME[fmt],
            key=f"{algorithm}_export_{name}_{fmt}",
            on_click="ignore",
            width="stretch",
        )


def _animation_row(algorithm, shown, result, preset, style, errors, stem) -> None:
    """HTML (deferred), and GIF / MP4 made on request with a progress bar."""
    if runners.view(shown).trace is None:
        st.caption("This algorithm has no run to animate (one snapshot).")
        return
    cols = st.columns([1.3, 1, 1, 1], vertical_alignment="center")
    cols[0].markdown(f"**Animation** ({N_FRAMES} frames)")

    def html():
        fig = animation_of(shown, result, n_frames=N_FRAMES)
        return export.figure_bytes(fig, "html", preset=preset, **style)

    cols[1].download_button(
        "HTML",
        data=deferred(errors, "The animation as HTML", html),
        file_name=f"{stem}_animation.html",
        mime="text/html",
        key=f"{algorithm}_export_anim_html",
        on_click="ignore",
        width="stretch",
        help="One self-contained file: plays, pauses and scrubs offline.",
    )
    made_key = f"{algorithm}_export_anim_made"
    signature = (shown.key, preset, repr(style))
    made = st.session_state.get(made_key)
    if made is not None and made[0] != signature:
        st.session_state.pop(made_key, None)  # settings changed: the file made is stale
        made = None
    for col, fmt in zip(cols[2:], ("gif", "mp4"), strict=True):
        if made is not None and made[1] == fmt:
            col.download_button(
                f"Download {fmt.upper()}",
                data=made[2],
                file_name=f"{stem}_animation.{fmt}",
                mime=export.MIME[fmt],
                key=f"{algorithm}_export_anim_{fmt}_dl",
                on_click="ignore",
                width="stretch",
                type="primary",
            )
        elif col.button(
            f"Prepare {fmt.upper()}", key=f"{algorithm}_export_anim_{fmt}", width="stretch"
        ):
            data = _prepare(algorithm, shown, preset, style, fmt)
            if data is not None:
                st.session_state[made_key] = (signature, fmt, data)
                st.rerun()


def _session_key() -> str:
    """This browser session's id: the export queue's owner (one export per session)."""
    from streamlit.runtime.scriptrunner_utils.script_run_context import get_script_run_ctx

    ctx = get_script_run_ctx(suppress_warning=True)
    return ctx.session_id if ctx is not None else "no-session"


def _prepare(algorithm, shown, preset, style, fmt) -> bytes | None:
    """Render the animation as ``fmt`` with a progress bar; None (and a message) on failure.

    The export waits its turn in the server's queue (:data:`svmlab.export.queue.EXPORTS`:
    one per session, :data:`~svmlab.export.queue.SLOTS` at a time), its position shown.
    """
    bar = st.progress(0.0, text=f"Rendering the {fmt.upper()}…")

    def waiting(position: int) -> None:
        ahead = "next in line" if position == 1 else f"{position - 1} exports ahead"
        bar.progress(
            0.0,
            text=f"Waiting for the export queue: position {position} ({ahead}; the server "
            f"prepares {EXPORTS.slots} animation{'s' if EXPORTS.slots > 1 else ''} at a time)",
        )

    def progress(i: int, n: int) -> None:
        bar.progress(i / n, text=f"Rendering the {fmt.upper()}: frame {i} of {n}")

    try:
        with EXPORTS.turn(_session_key(), on_wait=waiting):
            bar.progress(0.0, text=f"Rendering the {fmt.upper()}…")
            fig = runners.run_frames(shown, n_frames=N_FRAMES)  # the export styles it
            return export.figure_bytes(fig, fmt, preset=preset, progress=progress, **style)
    except ExportBusy as exc:
        st.warning(f"The animation as {fmt.upper()} was not started: {exc}.")
        return None
    except Exception as exc:
        st.error(_failure(f"The animation as {fmt.upper()}", exc))
        return None
    finally:
        bar.empty()


def export_panel(shown: RunContext) -> None:
    """The export section under a page's report for the run drawn, ``shown`` (see the
    module docstring)."""
    algorithm, result, k = shown.algorithm, shown.result, shown.snapshot
    # Tracked (a callback): closed, it sends nothing — its widgets and columns were about
    # a fifth of the messages of every click's rerun.
    box = st.expander(
        "Export: figures for slides and papers, animation, Python",
        key=f"{algorithm}_export_box",
        on_change=mark_local,
    )
    if not box.open:
        return
    with box:
        errors = st.session_state.setdefault(ERROR_KEY, {})
        if errors.get("text"):
            st.error(errors.pop("text"))
        preset, style = _options(algorithm)
        stem = f"{algorithm}_k{k}_{preset}"
        if export.browser_path() is None:
            st.info(
                "PNG, SVG and PDF export need Chromium on the server (Debian's chromium; "
                "`bash scripts/app.sh` installs it, or set SVMLAB_CHROMIUM); GIF and MP4 "
                "are drawn without it."
            )
        else:
            _figure_row(
                "**Plane** at this snapshot",
                algorithm,
                "plane",
                lambda: plane_figure_of(shown, result),
                errors,
                preset,
                style,
                stem,
            )
            if runners.view(shown).trace is not None:
                _figure_row(
                    "**Curves** against t",
                    algorithm,
                    "curves",
                    lambda: curves_figure_of(shown, result),
                    errors,
                    preset,
                    style,
                    stem,
                )
        _animation_row(algorithm, shown, result, preset, style, errors, stem)
        script = f"reproduce_{algorithm}.py"
        st.download_button(
            "Reproduce in Python (.py)",
            data=deferred(errors, "The script", lambda: reproduce_script(shown, filename=script)),
            file_name=script,
            mime="text/x-python",
            key=f"{algorithm}_export_script",
            on_click="ignore",
            help="A short script with the points and parameters embedded: it runs svmcore "
            "and builds this figure with SVM Lab's figure functions.",
        )
