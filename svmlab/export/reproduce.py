"""What a page shows, rebuilt without Streamlit, and as a short Python script.

A page records the run it drew as a :class:`~svmlab.state.run_context.RunContext` (session
key :data:`svmlab.ui.session.SHOWN`, set by :func:`svmlab.ui.plane.scrub`): the
registry key, the points, the page's parameters (the svmcore keyword arguments, with the
kernel as ``kernel``/``gamma``/``degree``/``coef0`` where the spec builds one), the plane's
axis ranges, the run's result and the snapshot k shown. From that record ("shown") this
module rebuilds the plane at snapshot k (:func:`plane_figure_of`), the curves
(:func:`curves_figure_of`) and the animation (:func:`animation_of`) with the same view
functions the page uses, and writes :func:`reproduce_script`: a readable ``.py`` that embeds
the points and the arguments, calls the svmcore function and builds the same figure (for
notebooks and papers). A mapping with the same fields (``k`` for the snapshot) is read too.
No Streamlit here (the registry is imported; its control builders are not run).
"""

from __future__ import annotations

import math

import numpy as np

import svmcore
from svmlab.algorithms import ALGORITHMS
from svmlab.plot.curves import curves_figure
from svmlab.plot.playback import FINE_RESOLUTION
from svmlab.plot.views import sampled_index
from svmlab.state.run_context import RunContext

__all__ = [
    "KERNEL_ARGS",
    "animation_of",
    "check_shown",
    "curves_figure_of",
    "plane_figure_of",
    "plane_of",
    "py_literal",
    "reproduce_script",
    "run_shown",
    "view_of",
]

#: The page parameters a spec with ``kernel_params`` turns into one svmcore Kernel.
KERNEL_ARGS = ("kernel", "gamma", "degree", "coef0")


def check_shown(shown) -> RunContext:
    """``shown`` as a checked :class:`~svmlab.state.run_context.RunContext`: a registry key,
    X (n, 2), y (n,), params a mapping of svmcore keyword arguments.

    Raises
    ------
    ValueError
        Naming the missing field or the rule broken.
    """
    if not isinstance(shown, RunContext | dict):
        raise ValueError(
            f"shown must be a RunContext or a dict with its fields, got {type(shown).__name__}"
        )
    ctx = RunContext.of(shown)
    if ctx.algorithm not in ALGORITHMS:
        raise ValueError(f"shown's algorithm must be a registry key, got {ctx.algorithm!r}")
    return ctx


def plane_of(shown) -> tuple[tuple[float, float], tuple[float, float]]:
    """The axis ranges ``((x0, x1), (y0, y1))`` as floats (around X when none was given)."""
    return check_shown(shown).plane


def run_shown(shown):
    """The svmcore result of ``shown`` (its own, else the spec's ``fit``: the page's call)."""
    ctx = check_shown(shown)
    if ctx.result is not None:
        return ctx.result
    return ALGORITHMS[ctx.algorithm].fit(ctx.X, ctx.y, ctx.params)


def view_of(shown, result=None):
    """The registry's model view of the run (``result``; None: ``shown``'s, else run it)."""
    ctx = check_shown(shown)
    result = run_shown(ctx) if result is None else result
    return ALGORITHMS[ctx.algorithm].view(result, ctx.X, ctx.y)


def _view(shown, result):
    ctx = check_shown(shown)
    return ctx, view_of(ctx, result)


def _snapshot(ctx: RunContext, view) -> int:
    k = view.n_snapshots - 1 if ctx.snapshot is None else int(ctx.snapshot)
    if not 0 <= k < view.n_snapshots:
        raise ValueError(f"k must be a snapshot index in [0, {view.n_snapshots}), got {k}")
    return k


def plane_figure_of(shown, result=None, *, resolution: int = FINE_RESOLUTION):
    """The page's plane at the snapshot of ``shown`` (the sampled point ringed, as on the
    page; the last snapshot when it names none).

    ``result`` is the run (None: ``shown``'s, else run it); the figure equals
    ``runners.plane_at``'s without the page's look.

    Raises
    ------
    ValueError
        If ``shown`` is malformed or k is not a snapshot of the run.
    """
    ctx, view = _view(shown, result)
    k = _snapshot(ctx, view)
    xr, yr = ctx.plane
    hl = None if view.trace is None else sampled_index(view.trace, k)
    values = view.grid_values(xr, yr, resolution, k)
    return view.figure(ctx.X, ctx.y, values, k, highlight=hl, xrange=xr, yrange=yr)


def curves_figure_of(shown, result=None):
    """The curves under the plane (objective, error, #SV against t), or None (no trace)."""
    ctx, view = _view(shown, result)
    if view.trace is None:
        return None
    spec = ALGORITHMS[ctx.algorithm]
    return curves_figure(view.trace, dual=spec.dual_curves, labels=spec.curve_labels(ctx.params))


def animation_of(shown, result=None, *, n_frames: int = 50):
    """The run's animation (≤ ``n_frames`` snapshots, the page's coarse grid), or None."""
    ctx, view = _view(shown, result)
    xr, yr = ctx.plane
    return view.animation(ctx.X, ctx.y, n_frames=int(n_frames), xrange=xr, yrange=yr)


# -- the script -----------------------------------------------------------------------------
def py_literal(value) -> str:
    """Python source for a plain value (NumPy scalars and arrays made plain; inf/nan spelt).

    Raises
    ------
    ValueError
        If ``value`` is not None, bool, int, float, str, or a list/tuple/dict of them.
    """
    if isinstance(value, np.ndarray):
        value = value.tolist()
    if isinstance(value, np.generic):
        value = value.item()
    if value is None or isinstance(value, bool | int | str):
        return repr(value)
    if isinstance(value, float):
        return repr(value) if math.isfinite(value) else f'float("{value}")'
    if isinstance(value, list | tuple):
        inner = ", ".join(py_literal(v) for v in value)
        return (
            f"[{inner}]"
            if isinstance(value, list)
            else f"({inner}{',' if len(value) == 1 else ''})"
        )
    if isinstance(value, dict):
        return "{" + ", ".join(f"{py_literal(k)}: {py_literal(v)}" for k, v in value.items()) + "}"
    raise ValueError(f"value must be a plain Python value to embed in a script, got {type(value)}")


def _rows(A, per_line: int) -> str:
    items = [py_literal(v) for v in np.asarray(A).tolist()]
    lines = [", ".join(items[i : i + per_line]) for i in range(0, len(items), per_line)]
    return "\n".join(f"    {line}," for line in lines)


def _call(spec, params: dict) -> tuple[str, str]:
    """(the lines before the svmcore call, the call) for the page's ``params``."""
    kw = {name: py_literal(v) for name, v in params.items()}
    before = []
    if spec.kernel_params:  # the spec's kwargs(): one Kernel from kernel, gamma, degree, coef0
        args = {name: kw.pop(name) for name in KERNEL_ARGS if name in kw}
        kind = args.pop("kernel", "'rbf'")
        extra = "".join(f", {name}={v}" for name, v in args.items())
        before.append(f"kernel = svmcore.make_kernel({kind}{extra})")
        kw = {"kernel": "kernel", **kw}
    fn = spec.fn
    name = f"svmcore.{fn.__name__}"
    if vars(svmcore).get(fn.__name__) is not fn:
        before.insert(0, f"from {fn.__module__} import {fn.__name__}")
        name = fn.__name__
    body = "".join(f"    {k}={v},\n" for k, v in kw.items())
    head = "".join(f"{line}\n" for line in before)
    return head, f"result = {name}(\n    X,\n    y,\n{body})\n"


_TEMPLATE = '''"""Reproduce an SVM Lab figure: {title} at snapshot k = {k}.

Written by SVM Lab's "Reproduce in Python" button. It imports svmcore and svmlab, so
install SVM Lab first (`pip install /path/to/svm-lab`: its checkout or its wheel), or
run it with a checkout on the path (`PYTHONPATH=/path/to/svm-lab python {filename}`). It
writes the figure to the file named (default figure.html; .png .svg .pdf through SVM Lab's
offline renderer, which needs Chromium; .json: Plotly's JSON):

    python {filename} [figure.html]
"""

import sys

import numpy as np

import svmcore
from svmlab.algorithms import ALGORITHMS
from svmlab.plot.playback import FINE_RESOLUTION
from svmlab.plot.views import sampled_index

# The {n} points (x1, x2) and their labels, as drawn in the app.
X = np.array([
{X}
])
y = np.array([
{y}
])

# The run: the svmcore function with the page's parameters.
{before}{call}
# The figure: the model at snapshot k on the page's plane and grid (the sampled point ringed).
k = {k}
xrange, yrange = {xrange}, {yrange}
view = ALGORITHMS[{key}].view(result, X, y)
highlight = None if view.trace is None else sampled_index(view.trace, k)
values = view.grid_values(xrange, yrange, FINE_RESOLUTION, k)
fig = view.figure(X, y, values, k, highlight=highlight, xrange=xrange, yrange=yrange)

if __name__ == "__main__":
    out = sys.argv[1] if len(sys.argv) > 1 else "figure.html"
    if out.endswith(".json"):
        with open(out, "w") as f:
            f.write(fig.to_json())
    elif out.endswith(".html"):
        fig.write_html(out, include_plotlyjs=True, include_mathjax=False)
    else:
        from svmlab import export

        write = {{"png": export.to_png, "svg": export.to_svg, "pdf": export.to_pdf}}
        with open(out, "wb") as f:
            f.write(write[out.rsplit(".", 1)[-1]](fig))
    print(f"wrote {{out}}")
'''


def reproduce_script(shown, *, filename: str = "reproduce.py") -> str:
    """A short Python script that recreates the page's figure from ``shown``.

    It embeds the points (X, y as lists, floats written exactly) and the svmcore keyword
    arguments, calls the svmcore function, and builds the plane at snapshot k with the
    registry's view (the page's own figure functions). Run, it writes the figure.

    Parameters
    ----------
    shown : RunContext or dict
        The run the page drew (see the module docstring).
    filename : str
        The script's name, for its usage line.

    Returns
    -------
    str
        The script's source (it passes ``compile``).

    Raises
    ------
    ValueError
        If ``shown`` is malformed or a parameter is not a plain value.
    """
    ctx = check_shown(shown)
    spec = ALGORITHMS[ctx.algorithm]
    k = ctx.snapshot if ctx.snapshot is not None else _snapshot(ctx, view_of(ctx))
    before, call = _call(spec, ctx.params)
    xr, yr = ctx.plane
    src = _TEMPLATE.format(
        title=spec.title,
        k=k,
        filename=filename,
        n=ctx.n,
        X=_rows(ctx.X, 2),
        y=_rows(ctx.y, 10),
        before=before,
        call=call,
        xrange=py_literal(xr),
        yrange=py_literal(yr),
        key=py_literal(ctx.algorithm),
    )
    compile(src, filename, "exec")
    return src
