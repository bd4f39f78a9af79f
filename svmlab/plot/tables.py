"""A chart as a table: the numbers a Plotly figure draws, as columns (a "view as table").

:func:`figure_table` reads the data of a figure's traces — line and bar charts (x, y), or
the first heatmap (z by its x and y labels) — so that every chart of the app has its
numbers in text, for a screen reader and for anyone who wants the values. Pure: a figure
(``go.Figure`` or its dict) in, a dict of equal-length columns out.
"""

from __future__ import annotations

import numpy as np

from svmlab.plot.look.roles import as_array

__all__ = ["figure_table"]


def _array(v) -> np.ndarray | None:
    """A trace array (list, array or Plotly's typed-array JSON), None where it is absent."""
    return None if v is None else as_array(v)


def _traces(fig) -> list[dict]:
    if isinstance(fig, dict):
        return [dict(t) for t in fig.get("data") or []]
    return [t.to_plotly_json() for t in fig.data]


def _axis_title(fig, name: str) -> str | None:
    layout = fig.get("layout", {}) if isinstance(fig, dict) else fig.layout.to_plotly_json()
    title = (layout.get(name) or {}).get("title")
    if isinstance(title, dict):
        title = title.get("text")
    return title or None


def _value(v):
    """A cell: a Python float / int / str (NaN kept as None)."""
    if isinstance(v, (np.floating, float)):
        return None if np.isnan(v) else float(v)
    if isinstance(v, np.integer):
        return int(v)
    return v


def figure_table(fig, *, first: str | None = None) -> dict[str, list]:
    """The numbers of ``fig`` as columns.

    A figure with a heatmap: the first heatmap's z, one row per y label (first column,
    named after the y axis) and one column per x label. Otherwise the x / y traces: one
    row per x value and one column per trace when they all share their x values (the
    curves against t), else one row per point with the trace's name in a "series" column.
    Traces without a name or without y (lines drawn for the look) are left out.

    Parameters
    ----------
    fig : plotly.graph_objects.Figure or dict
    first : str, optional
        The first column's name (default: the title of the axis it lists — y for a
        heatmap's rows, x otherwise —, or "y" / "x").

    Returns
    -------
    dict of str to list
        Equal-length columns, for ``st.dataframe``.
    """
    traces = _traces(fig)
    heat = next((t for t in traces if t.get("type") == "heatmap"), None)
    if heat is not None:
        Z = np.asarray(_array(heat.get("z")), dtype=float)
        xs = _array(heat.get("x"))
        ys = _array(heat.get("y"))
        xs = np.arange(1, Z.shape[1] + 1) if xs is None else xs
        ys = np.arange(1, Z.shape[0] + 1) if ys is None else ys
        first = first or _axis_title(fig, "yaxis") or "y"
        table = {first: [_value(v) for v in np.asarray(ys).tolist()]}
        for c, x in enumerate(np.asarray(xs).tolist()):
            table[str(_value(x))] = [_value(v) for v in Z[:, c]]
        return table
    series = []
    for t in traces:
        y = _array(t.get("y"))
        if y is None or not t.get("name") or t.get("showlegend") is False:
            continue
        x = _array(t.get("x"))
        x = np.arange(1, len(y) + 1) if x is None else x
        series.append((str(t["name"]), np.asarray(x).reshape(-1), np.asarray(y).reshape(-1)))
    first = first or _axis_title(fig, "xaxis") or "x"
    if not series:
        return {first: []}
    if all(len(s[1]) == len(series[0][1]) and np.array_equal(s[1], series[0][1]) for s in series):
        table = {first: [_value(v) for v in series[0][1]]}
        for name, _, y in series:
            key = name if name not in table else f"{name} ({len(table)})"
            table[key] = [_value(v) for v in y]
        return table
    table = {"series": [], first: [], "value": []}
    for name, x, y in series:
        table["series"] += [name] * len(y)
        table[first] += [_value(v) for v in x]
        table["value"] += [_value(v) for v in y]
    return table
