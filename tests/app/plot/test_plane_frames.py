"""The run's frames for playback on the plane (:mod:`svmlab.plot.plane_frames`) and the
complete plane figure whose traces the frames swap (``complete=True``).

Each frame must show what the figure of its snapshot shows: f on the frame's grid (to the
quantization step), the marker sizes of |α|, the support vectors' rings (free / bounded for
the dual, Lin's KKT split of seed 003), the sampled point of the step and the readout
(accuracy, SVs, objective) of the run's own snapshot fields.
"""

from __future__ import annotations

import numpy as np
import pytest

from svmcore import datasets
from svmlab.algorithms import ALGORITHMS
from svmlab.plot import plane_frames as pf
from svmlab.plot.figures import marker_sizes, plane_figure
from svmlab.plot.trace_meta import PLAYBACK_METAS, SAMPLED_META, SV_META
from svmlab.plot.trace_meta import SAMPLED_HALO_META as HALO
from svmlab.plot.views import sampled_index

# Tolerance table ------------------------------------------------------------------------
TOL_F = pf.Z_LIMIT / 127 / 2 + 1e-6  # f on a frame's grid: half the int8 step on [−3, 3]
# (+ float32 rounding: the grid's f is float32)
TOL_SIZE_PX = pf.SIZE_STEP / 2 + 1e-12  # a marker's size: half the 0.25 px step
TOL_ACC_PCT = 1e-4  # accuracy (%) vs the run's train_error: the readout keeps 6 digits
TOL_OBJ_REL = 1e-5  # the objective vs the run's: 6 significant digits
# everything else (indices, ring codes, labels, sampled points) is compared exactly

PLANE = ((-1.6, 2.6), (-1.1, 1.6))


@pytest.fixture(scope="module")
def moons():
    return datasets.load("moons", n=60, noise=0.15, random_state=0)


def _run(key, X, y, **params):
    spec = ALGORITHMS[key]
    result = spec.fit(X, y, params)
    return spec.view(result, X, y), result


def test_pack_is_frame_differences_deflated_and_unpack_inverts_it():
    rng = np.random.default_rng(0)
    for dtype in (np.int8, np.uint8):
        a = rng.integers(np.iinfo(dtype).min, np.iinfo(dtype).max, (9, 4, 5)).astype(dtype)
        assert np.array_equal(pf.unpack(pf.pack(a), a.shape, dtype), a)
    smooth = np.tile(np.arange(40, dtype=np.int8), (100, 40, 1))
    assert len(pf.pack(smooth)) < smooth.nbytes / 20, "equal frames cost almost nothing"
    with pytest.raises(TypeError, match="a must be int8 or uint8"):
        pf.pack(np.zeros((2, 2)))


def test_kernel_pegasos_frames_show_each_snapshots_model(moons):
    X, y = moons
    kw = dict(kernel="rbf", gamma=1.0, lam=0.01, T=2000, random_state=0)
    view, result = _run("kernel_pegasos", X, y, **kw)
    d = pf.plane_frames(view, X, y, xrange=PLANE[0], yrange=PLANE[1])
    S = view.n_snapshots
    assert d["kind"] == "f" and d["n"] == S == len(d["t"]) and d["index"] == list(range(S))
    assert d["t"] == [int(t) for t in view.t]
    r = d["grid"][4]
    z = pf.unpack(d["z"], (S, r, r), "i1").astype(float) * d["z_step"]
    F = view.frames(PLANE[0], PLANE[1], r, np.arange(S)).F
    assert np.max(np.abs(z - np.clip(F, -pf.Z_LIMIT, pf.Z_LIMIT))) <= TOL_F
    sizes = pf.unpack(d["size"], (S, len(X)), "u1") * d["size_step"]
    for k in (0, S // 2, S - 1):
        want = marker_sizes(view.alpha[k], len(X))
        assert np.max(np.abs(sizes[k] - want)) <= TOL_SIZE_PX
    rings = pf.unpack(d["ring"], (S, len(X)), "u1")
    assert d["ring_meta"] == ["", SV_META]
    assert np.array_equal(rings == 1, view.support) and rings.max() <= 1
    s = result.trace.snapshots
    acc, svs, obj = d["readout"]
    assert (acc["label"], svs["label"], obj["label"]) == ("training accuracy", "SVs", "objective")
    np.testing.assert_allclose(acc["values"], 100 * (1 - s["train_error"]), atol=TOL_ACC_PCT)
    assert svs["values"] == [float(v) for v in s["n_support"]]
    np.testing.assert_allclose(obj["values"], s["objective"], rtol=TOL_OBJ_REL)
    for k in range(S):
        i = sampled_index(result.trace, k)
        assert d["sampled"][k] == ([] if i is None else [int(j) for j in np.atleast_1d(i)])
    assert set(d["metas"]) <= set(PLAYBACK_METAS)


def test_dual_frames_ring_free_and_bounded_svs_and_compute_the_accuracy(moons):
    X, y = moons
    view, result = _run("dual_svm", X, y, kernel="rbf", gamma=1.0, C=1.0)
    d = pf.plane_frames(view, X, y, xrange=PLANE[0], yrange=PLANE[1])
    S = view.n_snapshots
    rings = pf.unpack(d["ring"], (S, len(X)), "u1")
    assert d["ring_meta"][1:] == ["svmlab-sv-free", "svmlab-sv-bounded"]
    for k in (1, S - 1):
        r = view.rings(k)
        assert set(np.flatnonzero(rings[k] == 1)) == set(np.asarray(r["free"]).tolist())
        assert set(np.flatnonzero(rings[k] == 2)) == set(np.asarray(r["bounded"]).tolist())
    labels = [row["label"] for row in d["readout"]]
    assert labels == ["training accuracy", "SVs", "dual objective"]
    last = d["readout"][0]["values"][-1]
    assert last == pytest.approx(100 * np.mean(result.predict(X) == y))
    pair = d["sampled"][1]
    assert 1 <= len(pair) <= 2, "SMO's pair (i, j)"


def test_multiclass_frames_are_the_predicted_classes(moons):
    X, y = datasets.load("k_blobs", k=3)
    view, _ = _run("multiclass_sgd", X, y, T=600, eta=0.1)
    d = pf.plane_frames(view, X, y, xrange=PLANE[0], yrange=PLANE[1], resolution=12)
    S = view.n_snapshots
    z = pf.unpack(d["z"], (S, 12, 12), "u1")
    F = view.frames(PLANE[0], PLANE[1], 12, np.arange(S)).F
    assert d["kind"] == "class" and np.array_equal(z, F.astype(np.uint8))
    assert d["size"] is None and d["ring"] is None and SAMPLED_META in d["metas"]
    # the edges between the classes are traced again per frame (from the class grid)
    assert d["n_classes"] == 3 and "svmlab-boundary" in d["metas"]
    assert d["readout"][0]["label"] == "training accuracy"


def test_nothing_to_play_and_bad_arguments(moons):
    X, y = moons
    view, _ = _run("primal_svm", X, y, C=1.0)
    assert pf.plane_frames(view, X, y, xrange=PLANE[0], yrange=PLANE[1]) is None
    view, _ = _run("pegasos", X, y, lam=0.1, T=200)
    with pytest.raises(ValueError, match="resolution must be at least 2"):
        pf.plane_frames(view, X, y, xrange=PLANE[0], yrange=PLANE[1], resolution=1)
    with pytest.raises(ValueError, match="max_frames must be at least 2"):
        pf.plane_frames(view, X, y, xrange=PLANE[0], yrange=PLANE[1], max_frames=1)
    d = pf.plane_frames(view, X, y, xrange=PLANE[0], yrange=PLANE[1], max_frames=7)
    assert d["n"] == 7 and d["index"][0] == 0 and d["index"][-1] == view.n_snapshots - 1
    assert d["size"] is None, "linear Pegasos draws no |α|"


def test_a_size_map_gives_the_looks_marker_sizes(moons):
    X, y = moons
    view, _ = _run("kernel_pegasos", X, y, kernel="rbf", gamma=1.0, lam=0.01, T=500, random_state=1)
    d = pf.plane_frames(
        view, X, y, xrange=PLANE[0], yrange=PLANE[1], size_map=lambda s: np.maximum(1.8 * s, 16)
    )
    sizes = pf.unpack(d["size"], (view.n_snapshots, len(X)), "u1") * d["size_step"]
    want = np.maximum(1.8 * marker_sizes(view.alpha[-1], len(X)), 16)
    assert np.max(np.abs(sizes[-1] - want)) <= TOL_SIZE_PX


def test_the_complete_plane_has_every_tagged_trace_empty_ones_out_of_the_legend():
    X = np.array([[0.0, 0.0], [1.0, 1.0], [0.0, 1.0]])
    y = np.array([-1.0, 1.0, 1.0])
    xs = ys = np.linspace(-1, 2, 9)
    flat = np.full((9, 9), 0.5)  # f = 0.5 everywhere: no boundary, no margin
    plain = plane_figure(X, y, xs, ys, flat, support=[])
    full = plane_figure(X, y, xs, ys, flat, support=[], complete=True)
    metas = [t.meta for t in full.data]
    for tag in ("svmlab-shade", "svmlab-boundary", "svmlab-margin", SV_META, SAMPLED_META):
        assert tag in metas
    # the empty boundary, rings, and the sampled point's ring with its dark outline
    assert len(plain.data) == len(full.data) - 4
    for t in full.data:
        if t.meta in ("svmlab-boundary", "svmlab-margin", SV_META, SAMPLED_META, HALO):
            assert len(t.x) == 0 and t.showlegend is False
    dual = plane_figure(X, y, xs, ys, flat, free=[0], bounded=[], complete=True)
    tags = {t.meta: t for t in dual.data}
    assert tags["svmlab-sv-free"].showlegend is not False and len(tags["svmlab-sv-free"].x) == 1
    assert tags["svmlab-sv-bounded"].showlegend is False and SV_META not in tags
