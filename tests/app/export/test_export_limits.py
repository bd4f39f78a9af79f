"""Animation export, bounded: the server's export queue (one export per session, a few at a
time, the position shown), frames drawn without a browser within the CPU target, and the
browser released after an export that needed it.
The CPU and memory targets of an export are measured in ``benchmarks/bench_export.py``, not
timed here (the machines are shared).
"""

from __future__ import annotations

import io
import threading
import time

import numpy as np
import pytest
from PIL import Image

from svmlab import export
from svmlab.export import animation, raster, render
from svmlab.export.demo import demo_figures
from svmlab.export.queue import ExportBusy, ExportQueue
from svmlab.plot.look.styles import style_figure

# Tolerance table ------------------------------------------------------------------------
TOL_LIKENESS = 10.0  # mean |Δ| of 64 × 36 thumbnails, of 255, Pillow's frames vs Chromium's
# (measured 1–8 on the demo animation: the two place legends and tick labels a few pixels
# apart); everything else is exact

needs_chromium = pytest.mark.skipif(export.browser_path() is None, reason="needs Chromium")


def _wait_until(cond, timeout=10.0):
    end = time.monotonic() + timeout
    while not cond():
        assert time.monotonic() < end, "timed out"
        time.sleep(0.01)


# -- the queue -------------------------------------------------------------------------------


def test_a_few_exports_at_a_time_server_wide_and_one_per_session():
    q = ExportQueue(slots=2, max_waiting=10)
    lock, active, peak, done = threading.Lock(), [0], [0], []

    def job(owner):
        with q.turn(owner):
            with lock:
                active[0] += 1
                peak[0] = max(peak[0], active[0])
            time.sleep(0.05)
            with lock:
                active[0] -= 1
            done.append(owner)

    threads = [threading.Thread(target=job, args=(f"s{i}",)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(10)
    assert sorted(done) == sorted(f"s{i}" for i in range(8))
    assert peak[0] == 2 and q.running == 0 and q.waiting == 0

    hold, started = threading.Event(), threading.Event()

    def hold_turn():
        with q.turn("me"):
            started.set()
            hold.wait(10)

    holder = threading.Thread(target=hold_turn)
    holder.start()
    started.wait(5)
    with pytest.raises(ExportBusy, match="already being prepared"):
        with q.turn("me"):
            pass
    hold.set()
    holder.join(5)
    with q.turn("me"):  # free again once done
        assert q.position("me") == 0


def test_waiting_exports_see_their_position_and_go_in_arrival_order():
    q = ExportQueue(slots=1)
    release, order, seen = threading.Event(), [], {"B": [], "C": []}

    def first():
        with q.turn("A"):
            order.append("A")
            release.wait(10)

    def later(owner):
        with q.turn(owner, on_wait=seen[owner].append):
            order.append(owner)
            if owner == "B":  # C, waiting, moves up to position 1 meanwhile
                _wait_until(lambda: seen["C"][-1:] == [1])

    threads = [threading.Thread(target=first)]
    threads[0].start()
    _wait_until(lambda: q.running == 1)
    for owner, n_waiting in (("B", 1), ("C", 2)):
        threads.append(threading.Thread(target=later, args=(owner,)))
        threads[-1].start()
        _wait_until(lambda n=n_waiting: q.waiting == n)
    assert (q.position("A"), q.position("B"), q.position("C")) == (0, 1, 2)
    _wait_until(lambda: seen["C"][:1] == [2])
    release.set()
    for t in threads:
        t.join(10)
    assert order == ["A", "B", "C"]
    assert seen["B"][0] == 1 and seen["C"][0] == 2 and seen["C"][-1] == 1


def test_a_stopped_wait_a_failing_export_and_a_full_queue_leave_the_queue_clean():
    q = ExportQueue(slots=1, max_waiting=1)
    release = threading.Event()

    def hold():
        with q.turn("A"):
            release.wait(10)

    holder = threading.Thread(target=hold)
    holder.start()
    _wait_until(lambda: q.running == 1)

    class Stopped(Exception):  # what a Streamlit rerun raises inside on_wait
        pass

    def stop(position):
        raise Stopped

    with pytest.raises(Stopped):
        with q.turn("B", on_wait=stop):
            pass
    assert q.position("B") is None and q.waiting == 0
    ran = []

    def wait_then_run():
        with q.turn("C"):
            ran.append("C")

    waiter = threading.Thread(target=wait_then_run)
    waiter.start()
    _wait_until(lambda: q.waiting == 1)
    with pytest.raises(ExportBusy, match="queue is full"):
        with q.turn("D"):
            pass
    release.set()
    holder.join(5)
    waiter.join(5)
    assert ran == ["C"] and q.running == 0 and q.waiting == 0
    q2 = ExportQueue(slots=1)
    with pytest.raises(RuntimeError, match="renderer broke"):
        with q2.turn("E"):
            raise RuntimeError("renderer broke")
    assert q2.running == 0
    with q2.turn("E"):
        pass


# -- the frames ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def big_animation():
    return demo_figures(n=500, n_frames=50)["animation"]


@pytest.mark.slow
def test_a_50_frame_slide_gif_needs_no_browser(big_animation):
    export.close_renderer()
    data = export.figure_bytes(big_animation, "gif", preset="slides")
    assert not render.renderer_running(), "GIF frames are drawn with Pillow, no Chromium"
    gif = Image.open(io.BytesIO(data))
    assert gif.n_frames == 50 and gif.size == (1280, 720)
    assert len(data) <= 5_000_000


def test_every_app_animation_is_drawn_without_a_browser(big_animation):
    from svmlab.plot import playback

    Xk = np.array([[0.0, 0.0], [1.0, 0.2], [0.2, 1.0], [1.2, 1.1], [2.0, 0.1], [2.1, 1.0]])
    frames = playback.Frames(
        xs=np.linspace(-1, 3, 20),
        ys=np.linspace(-1, 2, 15),
        F=np.random.default_rng(0).integers(0, 3, size=(4, 15, 20)).astype(np.float32),
        index=np.arange(4),
        t=np.arange(1, 5),
    )
    multi = playback.multiclass_animation_figure(
        Xk, np.arange(6) % 3, frames, k=3, xrange=(-1, 3), yrange=(-1, 2)
    )
    for fig in (big_animation, multi):
        for preset in export.PRESETS:
            stills = animation._frames_of(render.plain_figure(style_figure(fig, preset)))
            assert raster.supported(stills[0]) and raster.supported(stills[-1]), preset


@needs_chromium
@pytest.mark.parametrize("preset", ["screen", "slides"])
def test_rasterized_frames_look_like_chromiums(preset):
    fig = demo_figures(n=60, n_frames=6)["animation"]
    stills = animation._frames_of(render.plain_figure(style_figure(fig, preset)))
    draw = raster.FrameRasterizer(stills[0], stills).draw
    try:
        pngs = list(render.png_frames([stills[0], stills[-1]]))
    finally:
        export.close_renderer()
    for still, png in zip([stills[0], stills[-1]], pngs, strict=True):
        a = draw(still)
        b = Image.open(io.BytesIO(png)).convert("RGB")
        assert a.size == b.size
        ta = np.asarray(a.resize((64, 36), Image.Resampling.BOX), dtype=float)
        tb = np.asarray(b.resize((64, 36), Image.Resampling.BOX), dtype=float)
        assert np.abs(ta - tb).mean() <= TOL_LIKENESS


@needs_chromium
def test_an_animation_that_needs_chromium_releases_it():
    fig = demo_figures(n=30, n_frames=3)["animation"]
    fig.add_annotation(x=0, y=0, text="a note the rasterizer does not draw")
    _, draw = animation._stills(style_figure(fig, "screen"))
    assert draw is None  # the fallback
    data = export.figure_bytes(fig, "gif", preset="screen")
    assert Image.open(io.BytesIO(data)).n_frames == 3
    assert not render.renderer_running(), "the browser's memory is not kept for frames"


@needs_chromium
def test_an_idle_browser_stops_by_itself(monkeypatch):
    export.close_renderer()
    monkeypatch.setattr(render, "IDLE_CLOSE_S", 0.3)
    fig = demo_figures(n=20, n_frames=2)["plane"]
    assert export.figure_bytes(fig, "svg")[:5] in (b"<?xml", b"<svg ")
    assert render.renderer_running()
    _wait_until(lambda: not render.renderer_running(), timeout=20)


# -- the panel -------------------------------------------------------------------------------


@pytest.fixture
def fake_gif(monkeypatch):
    calls = []

    def make(fig, *args, progress=None, **kwargs):
        calls.append("gif")
        if progress is not None:
            progress(1, 1)
        return b"gif bytes"

    monkeypatch.setattr(export.files, "animation_gif", make)
    return calls


def test_the_panel_shows_the_queue_position_then_makes_the_file(monkeypatch, fake_gif):
    import streamlit as st

    from svmlab.ui import export_panel
    from tests.app.ui.test_export_panel import labels, open_page

    q = ExportQueue(slots=1)
    monkeypatch.setattr(export_panel, "EXPORTS", q)
    texts = []
    real_progress = st.progress

    class Bar:
        def __init__(self, value, text=None):
            texts.append(text)
            self.bar = real_progress(value, text=text)

        def progress(self, value, text=None):
            texts.append(text)
            self.bar.progress(value, text=text)

        def empty(self):
            self.bar.empty()

    monkeypatch.setattr(st, "progress", Bar)
    at = open_page("kernel_pegasos")
    release = threading.Event()

    def other_session():
        with q.turn("another session"):
            release.wait(10)

    holder = threading.Thread(target=other_session)
    holder.start()
    _wait_until(lambda: q.running == 1)
    threading.Timer(1.5, release.set).start()
    at.button(key="kernel_pegasos_export_anim_gif").click().run()
    holder.join(10)
    assert not at.exception and not at.error
    assert any(t and t.startswith("Waiting for the export queue: position 1") for t in texts)
    assert fake_gif == ["gif"] and "Download GIF" in labels(at)


def test_a_second_export_of_the_same_session_is_refused_with_a_message(monkeypatch, fake_gif):
    from svmlab.ui import export_panel
    from tests.app.ui.test_export_panel import labels, open_page

    q = ExportQueue(slots=1)
    monkeypatch.setattr(export_panel, "EXPORTS", q)
    monkeypatch.setattr(export_panel, "_session_key", lambda: "this session")
    at = open_page("kernel_pegasos")
    release, started = threading.Event(), threading.Event()

    def first_export():
        with q.turn("this session"):
            started.set()
            release.wait(10)

    holder = threading.Thread(target=first_export)
    holder.start()
    started.wait(5)
    try:
        at.button(key="kernel_pegasos_export_anim_gif").click().run()
    finally:
        release.set()
        holder.join(5)
    assert not at.exception and not at.error
    assert [w.value for w in at.warning] == [
        "The animation as GIF was not started: an export of this session is already being "
        "prepared: wait for it to finish."
    ]
    assert fake_gif == [] and "Download GIF" not in labels(at)
