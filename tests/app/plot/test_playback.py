"""Playback: frames are one matrix product, the animation plays in the browser, payload small."""

import numpy as np
import pytest

from svmcore import datasets, kernel_pegasos, polynomial, rbf
from svmlab.plot import figures as fg
from svmlab.plot import playback as pb

# Tolerance table ------------------------------------------------------------------------
TOL_FRAME = 1e-4  # frames vs f computed directly, absolute: float32 storage of f on the grid

PAYLOAD_LIMIT = 2_000_000  # bytes for a 50-frame animation (the app's speed targets)


def _coefs(S=30, n=40, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 2))
    y = np.where(X[:, 0] + X[:, 1] > 0, 1.0, -1.0)
    A = rng.normal(size=(S, n)) * 0.3
    return X, y, A


def test_select_frames_spreads_at_most_n_frames_keeping_first_and_last():
    idx = pb.select_frames(100, 50)
    assert len(idx) <= 50 and idx[0] == 0 and idx[-1] == 99
    assert np.all(np.diff(idx) > 0)
    assert pb.select_frames(7, 50).tolist() == list(range(7))
    assert pb.select_frames(0, 50).size == 0


def test_kernel_frames_equal_direct_evaluation():
    X, _, A = _coefs()
    k = rbf(0.7)
    xr, yr = fg.plane_range(X)
    fr = pb.decision_frames(xr, yr, resolution=25, coef=A, X=X, kernel=k)
    _, _, G = fg.grid(xr, yr, 25)
    for s in (0, 13, 29):
        direct = (k(G, X) @ A[s]).reshape(25, 25)
        assert np.allclose(fr.F[s], direct, atol=TOL_FRAME)
    assert fr.F.dtype == np.float32 and fr.F.shape == (30, 25, 25)


@pytest.mark.parametrize("n_snapshots", [1, 3, 30])  # by the kernel's factors, or its rows
@pytest.mark.parametrize("kernel", [rbf(0.7), polynomial(3, 0.5, 1.0)])
@pytest.mark.parametrize("zero", [False, True])  # True: no support vector at all (n′ = 0)
def test_frames_equal_direct_evaluation_for_few_or_many_snapshots(n_snapshots, kernel, zero):
    """The Gaussian kernel's grid values come from its factors exp(−γ(g₁ − x₁)²) and
    exp(−γ(g₂ − x₂)²) (per snapshot for a few, the grid's kernel rows once for many); any
    other kernel from its Gram matrix on the grid. All equal f = Σ_j c_j K(x_j, g)."""
    X, _, A = _coefs()
    A = np.zeros_like(A[:n_snapshots]) if zero else A[:n_snapshots]
    b = np.linspace(-0.5, 0.5, n_snapshots)
    xr, yr = fg.plane_range(X)
    fr = pb.decision_frames(xr, yr, resolution=40, coef=A, X=X, kernel=kernel, b=b)
    _, _, G = fg.grid(xr, yr, 40)
    assert fr.F.shape == (n_snapshots, 40, 40)
    for s in range(n_snapshots):
        direct = (kernel(G, X) @ A[s] + b[s]).reshape(40, 40)
        assert np.allclose(fr.F[s], direct, atol=TOL_FRAME, rtol=TOL_FRAME)


def test_linear_frames_with_bias_equal_wx_plus_b():
    W = np.array([[1.0, -1.0], [0.5, 2.0]])
    b = np.array([-1.0, 0.25])
    fr = pb.decision_frames((-1, 1), (-2, 2), resolution=9, coef=W, b=b)
    _, _, G = fg.grid((-1, 1), (-2, 2), 9)
    for s in range(2):
        assert np.allclose(fr.F[s].ravel(), G @ W[s] + b[s], atol=TOL_FRAME)


def _animation(n=200, T=10_000):
    X, y = datasets.moons(n=n, noise=0.15, random_state=0)
    res = kernel_pegasos(X, y, kernel=rbf(1.0), lam=0.01, T=T, random_state=0)
    A = np.asarray(res.trace.snapshots["alpha"])
    idx = pb.select_frames(A.shape[0], 50)
    xr, yr = fg.plane_range(X)
    fr = pb.decision_frames(
        xr,
        yr,
        resolution=pb.COARSE_RESOLUTION,
        coef=A[idx],
        X=X,
        kernel=res.kernel,
        t=res.trace.t[idx],
        index=idx,
    )
    steps_t = res.trace.steps["t"]
    sampled = np.array(
        [res.trace.steps["i"][t - 1] if t <= len(steps_t) else -1 for t in res.trace.t[idx]]
    )
    fig = pb.animation_figure(
        X, y, fr, alpha=np.abs(A[idx]), support=A[idx] != 0, sampled=sampled, xrange=xr, yrange=yr
    )
    return X, y, fr, sampled, fig


@pytest.fixture(scope="module")
def animation():
    return _animation()


def test_animation_has_one_frame_per_snapshot_and_a_slider(animation):
    _X, _y, fr, _, fig = animation
    assert len(fig.frames) == len(fr) == 50
    steps = fig.layout.sliders[0].steps
    assert len(steps) == 50
    assert [s.label for s in steps] == [str(int(t)) for t in fr.t]
    assert list(steps[7].args[0]) == [fig.frames[7].name]


def test_animation_has_play_speeds_and_pause_buttons(animation):
    *_, fig = animation
    labels = [b.label for b in fig.layout.updatemenus[0].buttons]
    assert "❙❙ pause" in labels and len(labels) == 4
    durations = [b.args[1]["frame"]["duration"] for b in fig.layout.updatemenus[0].buttons[:3]]
    assert durations[0] > durations[1] > durations[2]


def test_animation_frames_carry_the_decision_values_and_sampled_point(animation):
    X, _y, fr, sampled, fig = animation
    m = 3
    frame = fig.frames[m]
    z = np.asarray(frame.data[0].z)
    assert np.allclose(z, np.clip(fr.F[m], -3 * fg.F_CLIP, 3 * fg.F_CLIP), atol=1e-3)
    hl = frame.data[-1]
    if sampled[m] >= 0:
        assert np.allclose([hl.x[0], hl.y[0]], X[sampled[m]], atol=1e-5)
    assert fig.layout.xaxis.autorange is False


def test_fifty_frame_animation_payload_is_under_two_megabytes(animation):
    *_, fig = animation
    assert pb.payload_bytes(fig) <= PAYLOAD_LIMIT


def test_kernel_multiclass_frames_are_each_snapshots_argmax():
    # one product for all snapshots: each frame is argmax_y of (K̃ α_s)(x, y), K̃ = K + 1
    rng = np.random.default_rng(2)
    X = rng.normal(size=(7, 2))
    alpha = rng.normal(size=(5, 7, 3))  # S=5 snapshots, n=7 points, k=3 classes

    def rbf(A, B):
        return np.exp(-((A[:, None, :] - B[None, :, :]) ** 2).sum(-1))

    fr = pb.multiclass_frames(
        (-1, 1), (-1, 1), resolution=9, alpha=alpha, X=X, kernel=rbf, bias=True
    )
    _, _, G = fg.grid((-1, 1), (-1, 1), 9)
    K = rbf(G, X) + 1.0
    for s in range(5):
        assert np.array_equal(fr.F[s].ravel(), (K @ alpha[s]).argmax(axis=1))


def test_multiclass_frames_are_the_argmax_of_the_scores():
    rng = np.random.default_rng(1)
    W = rng.normal(size=(4, 3, 3))  # S=4 snapshots, k=3 classes, d′=3 (with bias)
    fr = pb.multiclass_frames((-1, 1), (-1, 1), resolution=11, W=W, bias=True)
    _, _, G = fg.grid((-1, 1), (-1, 1), 11)
    Ga = np.column_stack([G, np.ones(len(G))])
    for s in range(4):
        assert np.array_equal(fr.F[s].ravel(), (Ga @ W[s].T).argmax(axis=1))
    X = rng.normal(size=(6, 2))
    fig = pb.multiclass_animation_figure(
        X, np.arange(6) % 3, fr, k=3, xrange=(-1, 1), yrange=(-1, 1)
    )
    assert len(fig.frames) == 4
