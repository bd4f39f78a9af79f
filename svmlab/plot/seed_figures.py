"""What the seed panels show, as pure data: blocks of text, tables and figures.

A seed panel (:class:`svmlab.algorithms.seed_panels.SeedPanel`) builds a list of
:data:`Block` from a run (its derivation with the run's numbers); ``svmlab.ui`` renders
each block with one Streamlit call. The figures: the Perceptron's mistake counts β_n as
bars (:func:`mistake_bars`), a Gram matrix's eigenvalues (:func:`spectrum_figure`); and
the Perceptron beside seed 002's Algorithm 1 (:func:`code_pairs_html`). No Streamlit.
"""

from __future__ import annotations

import html
from dataclasses import dataclass

import numpy as np
import plotly.graph_objects as go

from svmlab.plot.plane_layout import template_dict
from svmlab.state.classes import CLASS_COLORS, class_index

__all__ = [
    "Block",
    "Caption",
    "Figure",
    "Html",
    "Latex",
    "Markdown",
    "Table",
    "code_pairs_html",
    "mistake_bars",
    "spectrum_figure",
]


@dataclass(frozen=True)
class Latex:
    text: str


@dataclass(frozen=True)
class Markdown:
    text: str


@dataclass(frozen=True)
class Caption:
    text: str


@dataclass(frozen=True)
class Html:
    text: str


@dataclass(frozen=True)
class Table:
    """Columns {name: list}, shown without an index."""

    columns: dict


@dataclass(frozen=True, eq=False)
class Figure:
    figure: go.Figure


Block = Latex | Markdown | Caption | Html | Table | Figure

_CHANGED = "background:#F0E442;color:#000"


def code_pairs_html(pairs, *, left: str = "Perceptron", right: str = "Pegasos") -> str:
    """Two columns of code, line by line; the lines that differ highlighted (seed 002's
    "just by changing a few lines of code")."""

    def cell(text: str, changed: bool) -> str:
        body = text.lstrip(" ")
        pad = "&nbsp;" * (len(text) - len(body))
        style = _CHANGED if changed else ""
        return (
            f'<td style="font-family:monospace;padding:1px 8px;white-space:pre;{style}">'
            f"{pad}{html.escape(body)}</td>"
        )

    rows = [
        f'<tr><td style="color:#888;padding:1px 4px">{n}</td>'
        f"{cell(p.perceptron, p.changed)}{cell(p.pegasos, p.changed)}</tr>"
        for n, p in enumerate(pairs, start=1)
    ]
    head = (
        f'<tr><th></th><th style="text-align:left;padding:1px 8px">{html.escape(left)}</th>'
        f'<th style="text-align:left;padding:1px 8px">{html.escape(right)}</th></tr>'
    )
    return (
        '<table style="font-size:0.85rem;border-collapse:collapse;background:#f6f6f6;'
        'color:#222;border-radius:6px">' + head + "".join(rows) + "</table>"
    )


def mistake_bars(counts, y, *, height: int = 260) -> go.Figure:
    """The Perceptron's β_n (mistake corrections at point n) as bars at n = 1, …, N, in the
    class colours (seed 003: w_PLA = Σ_n β_n y_n z_n)."""
    b = np.asarray(counts, dtype=float)
    colors = [CLASS_COLORS[class_index(v) % len(CLASS_COLORS)] for v in np.asarray(y)]
    fig = go.Figure(
        go.Bar(
            x=np.arange(1, b.size + 1),
            y=b,
            marker_color=colors,
            hovertemplate="point %{x}<br>β=%{y:.0f}<extra></extra>",
            name="β_n",
        )
    )
    fig.update_layout(
        template=template_dict(),
        height=height,
        margin=dict(l=40, r=10, t=30, b=30),
        title=dict(text="β_n: mistake corrections at point n = 1, …, N", font=dict(size=13)),
        showlegend=False,
        bargap=0.1,
    )
    return fig


def spectrum_figure(eigenvalues, *, other=None, other_name: str = "", height: int = 260):
    """The eigenvalues of a Gram matrix in ascending order (and, dotted, those of
    ``other``), with the line λ = 0: Mercer's condition asks for none below it."""
    ev = np.asarray(eigenvalues, dtype=float)
    fig = go.Figure(
        go.Scatter(
            x=np.arange(1, ev.size + 1),
            y=ev,
            mode="markers+lines",
            name="eigenvalues of K",
            hovertemplate="λ_%{x} = %{y:.4g}<extra></extra>",
        )
    )
    if other is not None:
        o = np.asarray(other, dtype=float)
        fig.add_trace(
            go.Scatter(
                x=np.arange(1, o.size + 1),
                y=o,
                mode="markers+lines",
                line=dict(dash="dot"),
                name=other_name or "other",
                hovertemplate="λ_%{x} = %{y:.4g}<extra></extra>",
            )
        )
    fig.add_hline(y=0.0, line=dict(color="#888", width=1))
    fig.update_layout(
        template=template_dict(),
        height=height,
        margin=dict(l=50, r=10, t=30, b=30),
        title=dict(text="Eigenvalues λ_1 ≤ … ≤ λ_n of the Gram matrix", font=dict(size=13)),
        xaxis_title=None,
        yaxis_title=None,
    )
    return fig
