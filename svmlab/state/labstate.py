"""The state of a lab page: what a share link or a lesson file holds.

A :class:`LabState` is everything a page needs to redraw the same figure: the page, the
algorithm (an svmcore function name), a flat dict of its parameters, the points with their
class indices, the number of classes, the plane range, the snapshot shown, the presenter
flag, the page's theme and the exercises done. :mod:`svmlab.state.urlstate` writes it to
query parameters, :mod:`svmlab.state.lesson` to a JSON file; both read it back through
:mod:`svmlab.state.statecheck` into a :class:`DecodeResult`. Pure Python and NumPy: no
Streamlit.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field

from svmlab.state.classes import MAX_CLASSES
from svmlab.state.points import PointSet
from svmlab.state.statecheck import (
    COORD_BOUND,
    MAX_SNAPSHOT,
    RESERVED,
    Scalar,
    exercise_ids,
    is_name,
    is_page,
    plane_problem,
    show_value,
)

__all__ = ["FIELDS", "THEMES", "DecodeResult", "LabState", "read_theme"]

#: The page's themes (:mod:`svmlab.plot.look.palettes`): light, dark, and a high-contrast
#: projector theme; the first is the default (a link without ``theme`` opens in it).
THEMES = ("light", "dark", "contrast")

#: The state's field names, as query parameters and lesson-file keys.
FIELDS = (
    "page",
    "alg",
    "params",
    "points",
    "classes",
    "plane",
    "snap",
    "present",
    "theme",
    "done",
)


def _scalar(name: str, value) -> Scalar:
    """A parameter value as a plain Python scalar (NumPy scalars converted)."""
    if value is None or isinstance(value, (str, bool)):
        return value
    if hasattr(value, "item") and getattr(value, "shape", None) == ():
        value = value.item()
    if isinstance(value, bool) or isinstance(value, int):
        return value
    if isinstance(value, float) and math.isfinite(value):
        return value
    raise ValueError(
        f"params[{name!r}] must be a str, int, finite float, bool or None, got {value!r}"
    )


def read_theme(raw) -> tuple[str | None, str | None]:
    """The ``theme`` of a link or a lesson file (None: absent): ``(name, None)``, or
    ``(None, message)`` naming the field and the rule, as the other fields' checks do."""
    if raw is None or (isinstance(raw, str) and raw in THEMES):
        return raw, None
    return None, f"theme: {show_value(raw)} is not one of {', '.join(THEMES)}; ignored"


@dataclass(frozen=True, eq=True)
class LabState:
    """Everything a page needs to redraw the same figure.

    Parameters
    ----------
    page : str
        The page's URL path (``svmlab.ui.router.PAGES``), e.g. ``"kernel_pegasos"``.
    alg : str, optional
        The svmcore function the page runs, e.g. ``"kernel_pegasos"``.
    params : dict of str to Scalar
        The algorithm's parameters (kernel, gamma, lam, C, T, schedule, …), flat.
    points : PointSet
        The drawn points, class indices 0..5.
    classes : int
        The number of classes the page shows (2..6).
    plane : tuple (x0, x1, y0, y1), optional
        The plane's axis ranges.
    snap : int, optional
        The snapshot shown (None: the last).
    present : bool
        Presenter mode.
    theme : {"light", "dark", "contrast"}
        The page's theme (:data:`THEMES`; light by default).
    done : frozenset of str
        Ids of the exercises done.
    """

    page: str = "home"
    alg: str | None = None
    params: Mapping[str, Scalar] = field(default_factory=dict)
    points: PointSet = field(default_factory=PointSet)
    classes: int = 2
    plane: tuple[float, float, float, float] | None = None
    snap: int | None = None
    present: bool = False
    theme: str = THEMES[0]
    done: frozenset[str] = frozenset()

    def __post_init__(self):
        if not is_page(self.page):
            raise ValueError(f"page must be a URL path of [a-z0-9_], got {self.page!r}")
        if self.alg is not None and not is_name(self.alg):
            raise ValueError(f"alg must be a function name, got {self.alg!r}")
        params = {}
        for name, value in dict(self.params).items():
            if not is_name(name) or name in RESERVED:
                raise ValueError(
                    f"params: {name!r} is not a usable parameter name "
                    "(an identifier of ≤ 32 characters, not a state field)"
                )
            params[name] = _scalar(name, value)
        object.__setattr__(self, "params", params)
        if not isinstance(self.points, PointSet):
            raise ValueError(f"points must be a PointSet, got {type(self.points).__name__}")
        if self.points.n and float(abs(self.points.X).max()) > COORD_BOUND:
            raise ValueError(f"points must lie within ±{COORD_BOUND:g}")
        if not 2 <= int(self.classes) <= MAX_CLASSES:
            raise ValueError(f"classes must be in 2..{MAX_CLASSES}, got {self.classes}")
        object.__setattr__(self, "classes", int(self.classes))
        if self.plane is not None:
            plane = tuple(float(v) + 0.0 for v in self.plane)  # -0.0 → 0.0
            if len(plane) != 4 or not all(map(math.isfinite, plane)) or plane_problem(plane):
                raise ValueError(
                    f"plane must be finite (x0, x1, y0, y1) with x0 < x1 and "
                    f"y0 < y1, got {self.plane!r}"
                )
            object.__setattr__(self, "plane", plane)
        if self.snap is not None and not 0 <= int(self.snap) <= MAX_SNAPSHOT:
            raise ValueError(f"snap must be in 0..{MAX_SNAPSHOT}, got {self.snap}")
        object.__setattr__(self, "present", bool(self.present))
        if self.theme not in THEMES:
            raise ValueError(f"theme must be one of {THEMES}, got {self.theme!r}")
        object.__setattr__(self, "done", exercise_ids(sorted(self.done)))

    __hash__ = None  # type: ignore[assignment]


@dataclass(frozen=True)
class DecodeResult:
    """What a link or a lesson file held, after the checks.

    Attributes
    ----------
    state : LabState
        What could be read; anything missing or refused has its default.
    messages : tuple of str
        One line per problem, naming the field and the rule (empty: all was read).
    read : frozenset of str
        The :data:`FIELDS` taken from the input (e.g. ``"points" in read`` tells the page
        to show the link's points rather than its default data).
    """

    state: LabState
    messages: tuple[str, ...] = ()
    read: frozenset[str] = frozenset()

    @classmethod
    def refused(cls, page: str, message: str) -> DecodeResult:
        """Nothing trusted: the defaults on ``page``, with the reason."""
        return cls(LabState(page=page), (message,), frozenset(("page",)))

    @property
    def ok(self) -> bool:
        """True when nothing was refused."""
        return not self.messages
