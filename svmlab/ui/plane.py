"""The plane of an algorithm page: the run checked, the canvas at the snapshot shown, the
scrubber, and the figure a scrub sends to the canvas.

A click on the canvas costs one script run: the canvas is drawn by the page itself, outside
the fragment of the run's report (:func:`svmlab.ui.page.plane_and_report`), so its event
reruns the whole page once — the sidebar counts the new point, the parameters see the new
n, and the canvas shows the new run. The scrubber is inside the fragment, so a scrub reruns
the fragment alone; the canvas, outside it, then gets its new figure from the fragment by a
*feed* (:func:`svmlab.ui.canvas.feed_canvas`): a small hidden component that hands the
figure to the canvas in the browser. Each figure sent carries a stamp (:class:`PlaneShown`,
session key :data:`svmlab.ui.session.PLANE`), so the canvas never goes back to an older one,
and a fragment run that does not change the plane (an inspector step) sends none.

The figure is finished where it is built (:func:`plane_figures`: the page's look, test points
and theme, given inside the runners' caches).
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field

import numpy as np
import streamlit as st

from svmcore.exceptions import NotSeparableError
from svmlab.algorithms import ALGORITHMS, widgets
from svmlab.plot.figures import plane_figure
from svmlab.plot.look.theme import PageLook, page_figure
from svmlab.plot.plane_frames import has_frames
from svmlab.state.run_context import RunContext
from svmlab.ui import access, keyboard, runners, session, themes
from svmlab.ui.canvas import feed_canvas
from svmlab.ui.data_panel import data_canvas, link_box_open, plane_ranges, shown_points
from svmlab.ui.fragment_state import mark_local
from svmlab.ui.panels import convergence
from svmlab.ui.panels import exercise as exercise_panel
from svmlab.ui.panels.split import active_test_set

__all__ = [
    "PlaneShown",
    "canvas",
    "data_problem",
    "draw_canvas",
    "feed",
    "feed_frames",
    "frames_id",
    "new_run_snapshot",
    "page_look",
    "plane_figures",
    "playback_of",
    "points_canvas",
    "run_checked",
    "run_problem",
    "safe_run",
    "scrub",
    "scrub_key",
    "scrubber",
]


@dataclass
class PlaneShown:
    """What the canvas shows: the stamp of the newest figure sent and what it drew.

    A stamp is ``[epoch, n]``: ``n`` counts the figures of this session, ``epoch`` names the
    session (a new one, e.g. after a server restart, starts counting again, and the
    canvas takes its first figure whatever it showed before).
    """

    epoch: str = field(default_factory=lambda: uuid.uuid4().hex[:12])
    n: int = 0
    key: tuple | None = None
    #: The frames the canvas drawn in this script run waits for from the feed (their id,
    #: :func:`frames_id`) and the snapshot it shows; None: the canvas has its frames.
    frames_due: str | None = None
    due_snapshot: int | None = None

    @property
    def stamp(self) -> list:
        return [self.epoch, self.n]

    def next(self, key: tuple) -> list:
        """The stamp of a new figure ``key`` (sent now)."""
        self.n += 1
        self.key = key
        return self.stamp


def shown_plane() -> PlaneShown:
    """This session's :class:`PlaneShown`."""
    return session.session_object(session.PLANE, PlaneShown)


def data_problem(X, y, n_classes: int | None) -> str | None:
    """A message if the data cannot be trained on (binary: both classes; else two), or None."""
    n = 0 if X is None else len(X)
    labels = set(np.unique(np.asarray(y)).tolist()) if n else set()
    if n_classes is None:
        if n < 2 or len(labels) < 2:
            return "Add points of at least two classes to train a multiclass classifier."
        return None
    if n < 2:
        return f"Add at least 2 points (one of each class) — you have {n}."
    if len(labels) < 2:
        return (
            "All points are in one class: add at least one point of the other class "
            "(pick it in the data panel) to train a classifier."
        )
    return None


def safe_run(ctx: RunContext) -> RunContext | None:
    """``ctx`` with its run (cached); any svmcore ValueError is shown on the page and None
    returned."""
    try:
        return runners.ran(ctx)
    except NotSeparableError as exc:
        st.warning(f"**Not separable:** {exc}")
        offer = ALGORITHMS[ctx.algorithm].not_separable
        if offer is not None:
            offer()
        return None
    except runners.CapError as exc:
        st.warning(f"**Above the app's cap:** {exc}")
        return None
    except (ValueError, FloatingPointError, OverflowError) as exc:
        st.error(f"**Cannot train with these settings:** {exc}")
        return None


def page_look() -> PageLook:
    """How this page shows its figures: dark page, presenter mode, the split's test points."""
    test = active_test_set()
    return PageLook(
        dark=keyboard.dark_page(),
        theme=themes.current_name(),  # the app's theme switch (svmlab.ui.themes)
        projector=keyboard.is_presenting(),
        test_X=None if test is None else test.X,
        test_y=None if test is None else test.y,
        n_classes=2 if test is None else test.n_classes,
    )


def scrubber(t, *, key: str, signature: str) -> int:
    """Select a snapshot: a slider over the iterations ``t`` plus step buttons.

    Resets to the last snapshot whenever ``signature`` (data + parameters) changes.
    Returns the snapshot index k.
    """
    t = np.asarray(t)
    S = t.shape[0]
    if S <= 1:
        return 0
    sig_key = f"{key}__sig"
    seen = st.session_state.get(sig_key)
    if seen != signature or st.session_state.get(key, S - 1) >= S:
        st.session_state[sig_key] = signature
        # The last snapshot is the widget's default, left out of the URL: a first run keeps
        # a link's snapshot and a page visit writes nothing (no browser history entry).
        if seen is not None and st.session_state.get(key, S - 1) != S - 1:
            st.session_state[key] = S - 1

    keyboard.register_scrubber(key, S)  # the arrow keys step it (svmlab.ui.keyboard)

    def _scrubbed():
        # The plane's fragment alone reruns, unless the page shows the snapshot outside
        # it: the data panel's copy-link box (the link holds the snapshot) or an exercise's
        # goal box (it checks the run as drawn). Then the whole page reruns.
        if not link_box_open() and exercise_panel.active_exercise() is None:
            mark_local()

    def _move(delta):
        keyboard.move_snapshot(key, delta, S)
        _scrubbed()

    # The server's copy of the canvas's transport (assets/canvas.js plays, steps and scrubs
    # in the browser and sends back the snapshot it stops at): kept for its value, its
    # share-link binding and the step keys' fallback; hidden (assets/canvas.css).
    box = st.container(key=f"svmlab_scrub_{key}")
    c1, c2, c3 = box.columns([1, 1, 6], vertical_alignment="bottom")
    c1.button("◀ step", key=f"{key}_back", on_click=_move, args=(-1,), help="previous snapshot")
    c2.button("step ▶", key=f"{key}_fwd", on_click=_move, args=(1,), help="next snapshot")
    k = c3.select_slider(
        "Scrub through the run (snapshot at iteration t; fine grid when paused here)",
        options=list(range(S)),
        value=S - 1,
        key=key,
        format_func=lambda j: f"t = {int(t[j]):,}",
        bind=widgets.BIND,
        on_change=_scrubbed,
    )
    return int(k)


def run_problem(ctx: RunContext) -> str | None:
    """Why ``ctx`` cannot be trained (its data, or its spec's own check), or None."""
    spec = ALGORITHMS[ctx.algorithm]
    return data_problem(ctx.X, ctx.y, spec.n_classes) or (
        spec.problem(ctx.X, ctx.params) if spec.problem else None
    )


def run_checked(ctx: RunContext, *, page: str) -> RunContext | None:
    """Check the data (:func:`run_problem`) and run ``ctx`` (cached): the run, or None when
    there is nothing to show (the reason is on the page, and the canvas shows the points,
    still drawable)."""
    problem = run_problem(ctx)
    ran = None
    if problem:
        st.warning(problem)
    else:
        ran = safe_run(ctx)
    if ran is None:
        points_canvas(ctx.X, ctx.y, key=f"{page}_canvas", look=page_look())
    return ran


def scrub(ran: RunContext) -> RunContext:
    """The scrubber under the plane; the run at the snapshot chosen, kept as the run the
    page shows (:data:`svmlab.ui.session.SHOWN`)."""
    view = runners.view(ran)
    k = scrubber(view.t, key=scrub_key(ran.algorithm), signature=ran.run_key)
    shown = ran.at(k)
    st.session_state[session.SHOWN] = shown
    return shown


def frames_id(shown: RunContext, look: PageLook) -> str | None:
    """The name of the run's frames (the run, the plane, the look: the canvas decodes a
    run's frames once), or None when the run has nothing to play
    (:func:`svmlab.plot.plane_frames.has_frames`) — known without computing them."""
    if not has_frames(runners.view(shown)):
        return None
    return f"{shown.key}|{look.key}"


def playback_of(shown: RunContext, look: PageLook) -> dict | None:
    """The run's frames for the canvas's playback (:func:`svmlab.ui.runners.playback_frames`),
    named by the run, the plane and the look (the canvas decodes a run's frames once), with
    the scrubber they follow (its key and the run's signature: the snapshot the playback
    stops at comes back to it, :func:`svmlab.ui.keyboard.apply_snapshot`). None: nothing
    to play."""
    frames = runners.playback_frames(shown, look)
    if frames is None:
        return None
    return {
        **frames,
        "id": frames_id(shown, look),
        "scrub": {"key": scrub_key(shown.algorithm), "sig": shown.run_key},
    }


def scrub_key(algorithm: str) -> str:
    """The widget key of the scrubber of ``algorithm``'s runs."""
    return f"{algorithm}_snap"


def plane_figures(shown: RunContext, look: PageLook, *, toggle, playback: bool = True) -> tuple:
    """The finished plane at the snapshot of ``shown`` (every trace a snapshot can have,
    for the playback), its α bars (or None) and the run's frames (or None), with what they
    show (a key: the same key, the same figures). ``toggle``: a container to draw the "other
    output" toggle in (:func:`svmlab.ui.panels.convergence.other_boundary`), or None to read
    it. ``playback=False``: no frames (a fragment's feed: the canvas has the run's)."""
    spec = ALGORITHMS[shown.algorithm]
    view = runners.view(shown)
    hl = None if view.trace is None else runners.sampled_index(view.trace, shown.snapshot)
    if toggle is None:
        other = convergence.other_boundary(shown, toggle=False)
    else:
        with toggle:
            other = convergence.other_boundary(shown, toggle=True)
    fig = runners.plane_at(shown, look, highlight=hl, other=other, complete=True)
    # α per point, drawn and hover-linked inside the canvas component
    bars = runners.bars_at(shown, look, highlight=hl) if spec.bars else None
    frames = playback_of(shown, look) if playback else None
    key = (shown.key, shown.snapshot, repr(hl), None if other is None else other[0].key, look.key)
    return fig, bars, frames, key


def new_run_snapshot(ran: RunContext) -> int | None:
    """The snapshot the scrubber will show for ``ran`` when it is a new run (the scrubber
    saw another run before: a click, a parameter), known before the scrubber is drawn: the
    last one (:func:`scrubber` resets to it). None otherwise (the first run of a session,
    which may keep a share link's snapshot, or the same run: the scrubber's value)."""
    seen = st.session_state.get(f"{scrub_key(ran.algorithm)}__sig")
    if seen is None or seen == ran.run_key:
        return None
    return max(int(np.asarray(runners.view(ran).t).shape[0]) - 1, 0)


def draw_canvas(
    shown: RunContext, *, page: str, toggle=None, frames_later: bool = False, kept: bool = False
) -> None:
    """The canvas of the run at its snapshot (drawn inside the plane's fragment,
    :mod:`svmlab.ui.plane_cell`: a click reruns that first) with its playback, the "other
    output" toggle in ``toggle`` (a container; None: its value only, as presenter mode
    keeps it) and the spec's caption below.

    ``frames_later``: the run's frames are not in the canvas's message but follow it in
    the feed's (:func:`feed`, in the same script run): the browser paints the new plane
    first, then decodes the frames (the canvas knows their name, :func:`frames_id`).
    ``kept``: the canvas drew this figure just before this script run (the plane's
    fragment, :mod:`svmlab.ui.plane_cell`): if it is the newest figure sent, its stamp and
    figure are not sent again."""
    look = page_look()
    fig, bars, frames, key = plane_figures(shown, look, toggle=toggle, playback=not frames_later)
    plane = shown_plane()
    kept = kept and plane.key == key
    stamp = plane.stamp if kept else plane.next(key)
    due = frames_id(shown, look) if frames_later else None
    plane.frames_due, plane.due_snapshot = due, (shown.snapshot if due else None)
    text = access.model_text(shown)  # the plane's accessible name and description
    canvas(fig, key=f"{page}_canvas", bars=bars, stamp=stamp, description=text,
           playback=frames, frames_id=due, snapshot=shown.snapshot, kept=kept)  # fmt: skip
    caption = ALGORITHMS[shown.algorithm].plane_caption
    if caption:
        st.caption(caption)


def feed(shown: RunContext, *, page: str, whole_page: bool) -> None:
    """Inside the fragment: on a fragment run, the canvas's new figure if the plane changed
    (a scrub); on a whole page's run the canvas has its figure already (an empty feed). The
    run's frames come later (:func:`feed_frames`)."""
    plane = shown_plane()
    look = page_look()
    fig = bars = None
    due = plane.frames_due
    if not whole_page or (due is not None and shown.snapshot != plane.due_snapshot):
        fig, bars, _, key = plane_figures(shown, look, toggle=None, playback=False)
        if key == plane.key:
            fig = bars = None  # the canvas shows it already (e.g. an inspector step)
        else:
            plane.next(key)
    n = len(shown_points()[0])
    text = "" if fig is None else access.model_text(shown)
    feed_canvas(
        f"{page}_canvas", fig, bars=bars, n_points=n, stamp=plane.stamp, description=text,
        snapshot=shown.snapshot,
    )  # fmt: skip


def feed_frames(shown: RunContext, *, page: str, whole_page: bool) -> None:
    """At the end of the fragment: the run's frames for a canvas drawn without them in this
    script run (:func:`draw_canvas`'s ``frames_later``), in a feed of their own
    (:func:`svmlab.ui.canvas.feed_canvas`, ``part="frames"``) — after the report, so that
    the browser has drawn the new plane before their message arrives; else an empty feed
    (the element keeps its place)."""
    plane = shown_plane()
    due, plane.frames_due = plane.frames_due, None
    frames = playback_of(shown, page_look()) if whole_page and due is not None else None
    feed_canvas(f"{page}_canvas", None, stamp=plane.stamp, playback=frames, part="frames")


def canvas(
    fig,
    *,
    key: str,
    bars=None,
    stamp: list | None = None,
    description: str = "",
    playback: dict | None = None,
    frames_id: str | None = None,
    snapshot: int | None = None,
    kept: bool = False,
) -> None:
    """The clickable canvas of the finished plane ``fig`` (the data panel applies a click
    before the page reruns), with the α bars (a figure, bar j = point j) below the plane in
    the same component; ``description``: the model in words (its accessible name).

    Events the callback did not see (a new session's first run: the clicks made while the
    server was down) are applied by the call itself, after the page was drawn: the page
    then reruns to show them (the one case a click costs a second run). ``playback``: the
    run's frames (:func:`playback_of`), or ``frames_id`` the name of the frames a feed
    brings after it; ``snapshot`` the one ``fig`` shows; ``kept``: the canvas shows ``fig``
    already (not sent again, :func:`svmlab.ui.canvas.plot_canvas`).
    """
    run = dict(playback=playback, frames_id=frames_id, snapshot=snapshot, description=description)
    if data_canvas(fig, key=key, bars=bars, stamp=stamp, fill=True, kept=kept, **run):
        st.rerun()


def points_canvas(X, y, *, key: str, look: PageLook | None = None) -> None:
    """The canvas with the points only (no model yet), so that points can still be added."""
    xr, yr = plane_ranges()
    fig = page_figure(plane_figure(X, y, xrange=xr, yrange=yr), look, plane=True, inplace=True)
    canvas(fig, key=key, stamp=shown_plane().next(("points",)))
