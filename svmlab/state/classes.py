"""Colours and marker shapes of the classes, shared by the canvas, the data panel and the figures.

Every class has a colour from Okabe & Ito's colour-blind-safe palette ("Color universal
design", 2008; its orange and sky blue darkened for contrast on white) **and** its own
marker shape, so that the classes stay apart in grey scale
and for every common colour blindness.

Class indices: the app keeps one point list with integer class indices 0..5. Binary pages
read class 0 as the label −1 and class 1 as +1; the multiclass page reads class j as label j.
:func:`class_index` and :func:`class_label` convert between the two.
"""

from __future__ import annotations

import numpy as np

__all__ = [
    "CLASS_COLORS",
    "CLASS_GLYPHS",
    "CLASS_NAMES",
    "CLASS_SHAPE_NAMES",
    "CLASS_SYMBOLS",
    "MAX_CLASSES",
    "class_index",
    "class_label",
    "class_names",
    "class_style",
    "marker_arrays",
]

#: Most classes the canvas offers (the multiclass page's k ≤ 6).
MAX_CLASSES = 6

#: Okabe–Ito: blue, vermillion, bluish green, reddish purple, orange, sky blue — the last
#: two darkened by 20 % (orange #E69F00 → #B87F00, sky blue #56B4E9 → #4590BA) so that every
#: class is ≥ 3 : 1 on white (WCAG 1.4.11; they were 2.3 : 1) and still ≥ 3 : 1 on the
#: dark page (``tests/app/plot/test_contrast.py``).
CLASS_COLORS: tuple[str, ...] = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#B87F00", "#4590BA")
#: Plotly marker symbols, one per class (the binary pages' classic o / x).
CLASS_SYMBOLS: tuple[str, ...] = ("circle", "x", "square", "diamond", "triangle-up", "star")
#: Text glyphs of the same shapes, for widget labels (no icon fonts).
CLASS_GLYPHS: tuple[str, ...] = ("●", "✖", "■", "◆", "▲", "★")
#: Colour names, for widget labels and screen readers.
CLASS_NAMES: tuple[str, ...] = ("blue", "vermillion", "green", "purple", "orange", "sky blue")
#: The shapes in words (plural), for text descriptions of the plane.
CLASS_SHAPE_NAMES: tuple[str, ...] = (
    "circles",
    "crosses",
    "squares",
    "diamonds",
    "triangles",
    "stars",
)


def class_index(label) -> int:
    """Class index (0..5) of a label: −1 → 0, +1 → 1 (binary) and j → j (multiclass).

    Raises
    ------
    ValueError
        If ``label`` is not −1 or an integer in 0..5.
    """
    try:
        value = float(label)
    except (TypeError, ValueError):
        raise ValueError(f"label must be -1 or an integer 0..5, got {label!r}") from None
    if value == -1.0:
        return 0
    if value != int(value) or not 0 <= value < MAX_CLASSES:
        raise ValueError(f"label must be -1 or an integer 0..5, got {label!r}")
    return int(value)


def class_label(index: int, n_classes: int = 2) -> int:
    """Label of class ``index`` on a page with ``n_classes`` classes (binary: 0 → −1, 1 → +1)."""
    index = int(index)
    if not 0 <= index < MAX_CLASSES:
        raise ValueError(f"index must be in 0..5, got {index}")
    if n_classes == 2:
        return -1 if index == 0 else 1
    return index


def class_names(n_classes: int = 2) -> list[str]:
    """Display names: ``y = −1`` / ``y = +1`` for binary pages, ``class j`` otherwise."""
    if n_classes == 2:
        return ["y = −1", "y = +1"]
    return [f"class {j}" for j in range(n_classes)]


def class_style(label_index: int) -> dict[str, str]:
    """Colour, Plotly symbol, glyph and colour name of class ``label_index`` (0..5)."""
    j = int(label_index) % MAX_CLASSES
    return {
        "color": CLASS_COLORS[j],
        "symbol": CLASS_SYMBOLS[j],
        "glyph": CLASS_GLYPHS[j],
        "name": CLASS_NAMES[j],
    }


def marker_arrays(c) -> tuple[list[str], list[str]]:
    """Per-point colours and symbols for class indices ``c`` (n,), for a single-trace scatter."""
    c = np.asarray(c, dtype=np.int64).reshape(-1) % MAX_CLASSES
    return [CLASS_COLORS[j] for j in c], [CLASS_SYMBOLS[j] for j in c]
