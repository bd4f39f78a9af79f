"""Server work per click: bounded caches, cached figures equal fresh ones, nothing built unasked."""

import ast
import json
from pathlib import Path

import numpy as np
import plotly.io as pio
import pytest
from streamlit.testing.v1 import AppTest

from svmlab.algorithms import ALGORITHMS
from svmlab.plot.curves import curves_figure
from svmlab.plot.figures import alpha_bar_figure
from svmlab.plot.look.theme import DARK, PageLook, page_figure
from svmlab.plot.split_figure import TEST_META
from svmlab.state.run_context import RunContext
from svmlab.ui import runners

# Tolerance table: none — a cached figure must be the very figure a fresh build gives
# (compared as Plotly JSON text), and cache bounds are checked in the source.

ROOT = Path(__file__).resolve().parents[3]
CACHES = {"cache_data", "cache_resource"}
LIMITS = {"max_entries", "ttl"}
PARAMS = dict(kernel="rbf", gamma=1.0, lam=0.01, T=1_000, random_state=0)
PLANE = ((-2.0, 3.0), (-1.5, 2.0))


def unbounded_caches(source: str) -> tuple[int, list[int]]:
    """(number of st.cache_data / st.cache_resource uses, lines of those without a bound)."""
    tree = ast.parse(source)
    called = {id(n.func) for n in ast.walk(tree) if isinstance(n, ast.Call)}
    found, bad = 0, []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            target, keywords = node.func, {k.arg for k in node.keywords}
        elif isinstance(node, ast.Attribute) and id(node) not in called:
            target, keywords = node, set()  # a bare @st.cache_data
        else:
            continue
        if isinstance(target, ast.Attribute) and target.attr in CACHES:
            found += 1
            if not keywords & LIMITS:
                bad.append(node.lineno)
    return found, bad


def test_the_cache_scanner_flags_an_unbounded_cache():
    src = (
        "import streamlit as st\n"
        "@st.cache_data\ndef a(): pass\n"
        "@st.cache_data(show_spinner=False)\ndef b(): pass\n"
        "@st.cache_resource(ttl=60)\ndef c(): pass\n"
        "@st.cache_data(max_entries=3)\ndef d(): pass\n"
    )
    assert unbounded_caches(src) == (4, [2, 4])


def test_every_streamlit_cache_has_max_entries_or_ttl():
    files = [ROOT / "app.py", *(ROOT / "svmlab").rglob("*.py"), *(ROOT / "pages").glob("*.py")]
    total, bad = 0, []
    for path in files:
        found, lines = unbounded_caches(path.read_text(encoding="utf-8"))
        total += found
        bad += [f"{path.relative_to(ROOT)}:{line}" for line in lines]
    assert total >= 8, "the runners' caches were found"
    assert not bad, f"caches without max_entries/ttl: {bad}"


@pytest.fixture(scope="module")
def moons():
    X, y = runners.preset_data("moons", n=40, noise=0.15, random_state=0)
    return X, y


def same(a, b) -> bool:
    """The same Plotly JSON (key order aside)."""
    return json.loads(pio.to_json(a, validate=False)) == json.loads(pio.to_json(b, validate=False))


def ctx_of(X, y, **changes) -> RunContext:
    return RunContext("kernel_pegasos", X, y, PARAMS, changes.get("plane", PLANE))


@pytest.mark.parametrize("k", [0, 3])
def test_cached_plane_is_the_fresh_figure(moons, k):
    X, y = moons
    ctx = runners.ran(ctx_of(X, y)).at(k)
    view = ALGORITHMS["kernel_pegasos"].view(ctx.result, X, y)
    values = view.grid_values(*PLANE, runners.playback.FINE_RESOLUTION, k)
    fresh = view.figure(X, y, values, k, highlight=np.int64(5), xrange=PLANE[0], yrange=PLANE[1])
    cached = runners.plane_at(ctx, highlight=5)
    again = runners.plane_at(ctx_of(X, y).at(k), highlight=5)  # a new context of the same run
    assert same(cached, fresh) and same(again, fresh)
    other = runners.plane_at(ctx, highlight=6)
    assert not same(other, fresh), "the highlight is part of the cache key"


def test_cached_curves_and_bars_are_the_fresh_figures(moons):
    X, y = moons
    spec = ALGORITHMS["kernel_pegasos"]
    ctx = runners.ran(ctx_of(X, y))
    view = spec.view(ctx.result, X, y)
    fresh = curves_figure(view.trace, dual=spec.dual_curves, labels=spec.curve_labels(PARAMS))
    assert same(runners.curves_at(ctx), fresh)
    bars = alpha_bar_figure(view.alpha[2], y, C=None, highlight=7)
    assert same(runners.bars_at(ctx.at(2), highlight=np.int64(7)), bars)


def test_the_animation_dict_round_trips_to_the_same_figure(moons):
    X, y = moons
    ctx = runners.ran(ctx_of(X, y))
    fresh = (
        ALGORITHMS["kernel_pegasos"]
        .view(ctx.result, X, y)
        .animation(X, y, n_frames=5, xrange=PLANE[0], yrange=PLANE[1])
    )
    cached = runners.run_frames(ctx, n_frames=5)
    assert len(cached.frames) == 5 and same(cached, fresh)


def test_a_figure_gets_the_pages_look_where_it_is_built(moons):
    # the test points hollow and the dark page, inside the cache: what leaves the runner is
    # what the page shows (svmlab.plot.look.theme.page_figure)
    X, y = moons
    ctx = runners.ran(ctx_of(X, y)).at(2)
    look = PageLook(dark=True, test_X=X[:3] + 0.1, test_y=y[:3])
    plain = runners.plane_at(ctx)
    want = page_figure(runners.plane_at(ctx), look, plane=True)
    got = runners.plane_at(ctx, look)
    assert same(got, want) and not same(got, plain)
    assert got.layout.paper_bgcolor == DARK["background"]
    assert [t.name for t in got.data if t.meta == TEST_META]
    bars = runners.bars_at(ctx, look)
    assert not [t for t in bars.data if t.meta == TEST_META], "test points on planes only"
    assert bars.layout.paper_bgcolor == DARK["background"]


def test_the_runners_caches_hash_a_key_not_the_points():
    # Each cache of the runners hashes the context's key (a short string, hashed once per
    # context): it takes the key and the context unhashed (_ctx), or the context hashed by
    # its key (hash_funcs). No array, no params dict, no result is hashed.
    tree = ast.parse((ROOT / "svmlab" / "ui" / "runners.py").read_text(encoding="utf-8"))
    cached = {
        f.name: f
        for f in tree.body
        if isinstance(f, ast.FunctionDef)
        and any("cache_data" in ast.unparse(d) for d in f.decorator_list)
    }
    assert len(cached) >= 7
    for name, f in cached.items():
        hashed = [a.arg for a in (*f.args.args, *f.args.kwonlyargs) if not a.arg.startswith("_")]
        assert not {"X", "y", "params", "result"} & set(hashed), (name, hashed)
        if "ctx" in hashed:
            assert "hash_funcs={RunContext:" in ast.unparse(f.decorator_list[0]), name
        else:
            assert hashed[0] in ("key", "run_key"), (name, hashed)
    assert "ctx" in [a.arg for a in cached["run"].args.args], "the run cache: runners.run"


def test_a_run_context_hashes_its_inputs_once_and_by_content():
    X, y = runners.preset_data("moons", n=20, noise=0.1, random_state=0)
    a = RunContext("pegasos", X, y, {"lam": 0.1, "w_ref": np.array([1.0, 2.0])}, PLANE)
    assert a.key == RunContext("pegasos", X.copy(), y.copy(), dict(a.params), PLANE).key
    assert a.at(3).key == a.key and a.at(3).run_key == a.run_key
    assert "key" in a.at(3).__dict__, "a snapshot of a context keeps its hashed key"
    changed = [
        RunContext("pegasos", X, y, {**a.params, "lam": 0.2}, PLANE),
        RunContext("pegasos", X, y, {**a.params, "w_ref": np.array([1.0, 2.5])}, PLANE),
        RunContext("pegasos", X, y.astype(int), dict(a.params), PLANE),
        RunContext("perceptron", X, y, dict(a.params), PLANE),
        RunContext("pegasos", X[::-1], y[::-1], dict(a.params), PLANE),
    ]
    assert len({a.run_key, *(c.run_key for c in changed)}) == 1 + len(changed)
    moved = RunContext("pegasos", X, y, dict(a.params), ((-2.0, 3.0), (-1.5, 2.5)))
    assert moved.run_key == a.run_key and moved.key != a.key, "the plane keys figures only"
    with pytest.raises(ValueError, match="read-only"):
        a.X[0, 0] = 5.0


def test_the_home_example_is_computed_once_and_not_mutated():
    preset = ("moons", dict(n=30, noise=0.15, random_state=0))
    fig, metrics = runners.example("kernel_pegasos", preset, "title", **PARAMS)
    fig.update_layout(height=111)
    metrics["x"] = "changed"
    again, metrics2 = runners.example("kernel_pegasos", preset, "title", **PARAMS)
    assert again.layout.height != 111 and "x" not in metrics2
    X, y = runners.preset_data("moons", n=30, noise=0.15, random_state=0)
    ctx = runners.ran(RunContext("kernel_pegasos", X, y, PARAMS))
    ctx = ctx.at(ctx.result.trace.n_snapshots - 1)
    assert same(again, runners.plane_at(ctx, title="title"))
    assert metrics2 == runners.metrics(ctx)


def _charts(at) -> list[dict]:
    return [json.loads(c.proto.spec) for c in at.get("plotly_chart")]


def _kernel_page() -> AppTest:
    """The app opened on the kernel Pegasos page (through the router, as a browser does)."""
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.run()
    at.switch_page("pages/kernel_pegasos.py")
    return at.run()


def test_the_page_builds_no_animation_and_no_inspector_until_asked():
    at = _kernel_page()
    assert not at.exception
    assert not any(c.get("frames") for c in _charts(at)), "no animation sent while off"
    assert not [m for m in at.markdown if "<pre" in m.value], "closed inspector sends nothing"
    n_charts = len(_charts(at))
    at.toggle(key="kernel_pegasos_anim_on").set_value(True).run()
    assert [len(c["frames"]) for c in _charts(at) if c.get("frames")] == [50]
    at.session_state["kernel_pegasos_inspect"] = True
    at.run()
    assert not at.exception
    assert [m for m in at.markdown if "<pre" in m.value], "the open inspector shows the code"
    assert len(_charts(at)) == n_charts + 2, "the animation and the inspector's figure"


@pytest.mark.parametrize("titles", [["a", "b"], ["objective", "training error", "# SV"]])
def test_the_subplot_layout_is_make_subplots_one(titles):
    from plotly.subplots import make_subplots

    from svmlab.plot.curves import subplot_layout

    ref = make_subplots(rows=1, cols=len(titles), subplot_titles=titles, horizontal_spacing=0.08)
    ref = json.loads(ref.to_json())["layout"]
    ref.pop("template")
    assert subplot_layout(titles) == ref


def test_closed_panels_build_and_send_nothing_until_opened():
    at = _kernel_page()
    assert not at.exception
    keys = {w.key for w in at.button} | {w.key for w in at.selectbox}
    closed = {
        "kernel_pegasos_sweep_run": "kernel_pegasos_sweep_box",
        "kernel_pegasos_export_preset": "kernel_pegasos_export_box",
        "data_preset": "data_preset_box",
        "data_table_apply": "data_table_box",
        "data_dl_csv": "data_io_box",
    }
    assert not keys & set(closed), keys & set(closed)
    assert not at.get("file_uploader") and not at.sidebar.dataframe
    for box in closed.values():
        at.session_state[box] = True
    at.run()
    assert not at.exception
    keys = {w.key for w in at.button} | {w.key for w in at.selectbox}
    keys |= {w.key for w in at.get("download_button")}
    assert set(closed) <= keys, set(closed) - keys
    assert at.get("file_uploader") and at.sidebar.dataframe, "the importer and the table"


def test_a_scrub_reruns_the_fragment_unless_the_link_or_an_exercise_shows_the_snapshot(
    monkeypatch,
):
    from svmlab.ui import plane

    local = []
    monkeypatch.setattr(plane, "mark_local", lambda: local.append(1))
    at = _kernel_page()
    snap = at.select_slider(key="kernel_pegasos_snap")
    last = snap.value  # snapshot indices; the last one is shown first
    snap.set_value(last - 1).run()
    assert local == [1], "closed copy-link box: the fragment alone"
    at.session_state["data_io_box"] = True  # the copy-link box shows the snapshot's link
    at.run()
    at.select_slider(key="kernel_pegasos_snap").set_value(last - 2).run()
    assert local == [1], "open copy-link box: the whole page reruns"
    assert not at.exception
