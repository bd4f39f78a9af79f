"""Share links: a :class:`~svmlab.state.labstate.LabState` as URL query parameters, and back.

Query parameters (version 1), all text::

    v=1  page=kernel_pegasos  alg=kernel_pegasos  classes=2  plane=x0,x1,y0,y1
    pts=<points token>  snap=499  present=1  theme=dark  done=ex1,ex2
    kernel=rbf  gamma=1.0  lam=0.01  T=500  …   (the algorithm's parameters, flat)

Numbers are written with ``repr`` (the shortest text that reads back to the same float),
booleans as ``1``/``0``, ``None`` as ``none``. Absent fields keep their defaults (a link
``?present=1`` only turns presenter mode on; a link without ``theme`` opens in the light
theme); a link without ``v`` is read as version 1.

The points token packs each coordinate into 16 bits relative to the plane range,
``q = round((x − x0) / (x1 − x0) · 65535)``, read back as ``x0·(1 − q/65535) +
x1·q/65535`` (so the plane's edges are exact and re-encoding gives the same ``q``). The step
is 1/65535 of the plane's width: 0.03 pixel on a 2000-pixel plane, so the points come
back where they were drawn. Points outside the plane widen the written plane to hold them
(the app never draws any: its plane always contains every point). The bytes are laid out
by plane (x high bytes, x low bytes, y high, y low, classes: one byte each, which zlib's
Huffman stage packs into 1–3 bits), zlib-compressed, prefixed with the CRC-32 of the plane
text and the raw bytes (so an altered point *or* plane is detected) and base64url-encoded.
500 points take about 2.8 KB of URL (budget: :data:`URL_BUDGET`, 8 KB); above the budget
the page offers a lesson file (:mod:`svmlab.state.lesson`).

:func:`decode_state` never raises and never trusts the link: a truncated, altered, oversized
or unknown-version link yields what could be read and one message per problem.
"""

from __future__ import annotations

import base64
import binascii
import re
import struct
import zlib
from collections.abc import Collection, Mapping
from urllib.parse import parse_qs, urlencode, urlsplit

import numpy as np

from svmlab.state.classes import MAX_CLASSES
from svmlab.state.labstate import THEMES, DecodeResult, LabState, read_theme
from svmlab.state.points import MAX_POINTS, PointSet
from svmlab.state.statecheck import (
    DEFAULT_SCHEMA,
    RESERVED,
    check_field,
    plane_problem,
    read_fields,
    version_problem,
)

__all__ = [
    "IGNORED_KEYS",
    "MAX_QUERY",
    "QUANT_LEVELS",
    "RESERVED",
    "URL_BUDGET",
    "VERSION",
    "decode_points",
    "decode_state",
    "encode_points",
    "encode_state",
    "link_fits",
    "parse_link",
    "state_to_query_string",
]

VERSION = 1
#: The share link's budget: a longer link is offered as a lesson file instead.
URL_BUDGET = 8192
#: Longest query string read at all (characters); longer ones open with the defaults.
MAX_QUERY = 16384
#: Quantization levels per coordinate (16 bits).
QUANT_LEVELS = 65535
#: Streamlit's own query parameters, passed over without a message.
IGNORED_KEYS = ("embed", "embed_options")

_HEADER = struct.Struct("<BH")  # quantization bits, number of points
_B64 = re.compile(r"[A-Za-z0-9_-]*")
_MAX_KEYS = 200


def _fmt(value) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "1" if value else "0"
    return repr(value) if isinstance(value, float) else str(value)


def _plane_text(plane) -> str:
    return ",".join(repr(float(v) + 0.0) for v in plane)  # -0.0 is written 0.0


def _covering_plane(points: PointSet, plane):
    """The plane widened to hold every point (the points' box when there is no plane)."""
    if plane is None:
        x0, y0 = points.X.min(axis=0)
        x1, y1 = points.X.max(axis=0)
    else:
        x0, x1, y0, y1 = plane
        if points.n:
            x0, y0 = np.minimum((x0, y0), points.X.min(axis=0))
            x1, y1 = np.maximum((x1, y1), points.X.max(axis=0))
    box = [float(x0), float(x1), float(y0), float(y1)]
    for i in (0, 2):
        if plane_problem((box[i], box[i + 1], 0.0, 1.0)):
            box[i], box[i + 1] = box[i] - 1.0, box[i + 1] + 1.0
    return tuple(box)


def _quantize(x: np.ndarray, lo: float, hi: float) -> np.ndarray:
    return np.clip(np.rint((x - lo) / (hi - lo) * QUANT_LEVELS), 0, QUANT_LEVELS).astype("<u2")


def _dequantize(q: np.ndarray, lo: float, hi: float) -> np.ndarray:
    t = q.astype(np.float64) / QUANT_LEVELS
    return lo * (1.0 - t) + hi * t


def encode_points(points: PointSet, plane) -> str:
    """The points token of ``points`` on ``plane = (x0, x1, y0, y1)`` (inside it).

    Raises
    ------
    ValueError
        If there are more than ``MAX_POINTS`` points.
    """
    if points.n > MAX_POINTS:
        raise ValueError(f"points: at most {MAX_POINTS} points, got {points.n}")
    x0, x1, y0, y1 = plane
    qx, qy = _quantize(points.X[:, 0], x0, x1), _quantize(points.X[:, 1], y0, y1)
    planes = [qx >> 8, qx & 0xFF, qy >> 8, qy & 0xFF, points.c]
    raw = _HEADER.pack(16, points.n) + b"".join(p.astype(np.uint8).tobytes() for p in planes)
    crc = zlib.crc32(_plane_text(plane).encode() + raw).to_bytes(4, "big")
    return base64.urlsafe_b64encode(crc + zlib.compress(raw, 9)).rstrip(b"=").decode()


def _unpack(token: str) -> tuple[bytes, bytes]:
    if not _B64.fullmatch(token) or len(token) % 4 == 1:
        raise ValueError("the data are truncated or altered (bad base64)")
    try:
        blob = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
    except binascii.Error:
        raise ValueError("the data are truncated or altered (bad base64)") from None
    if len(blob) < 6:
        raise ValueError("the data are truncated (too short)")
    d = zlib.decompressobj()
    limit = _HEADER.size + 5 * MAX_POINTS
    try:
        raw = d.decompress(blob[4:], limit + 1)
    except zlib.error:
        raise ValueError("the data are truncated or altered (not zlib data)") from None
    if len(raw) > limit:
        raise ValueError(f"the data hold more than {MAX_POINTS} points (the cap); not loaded")
    if not d.eof or d.unused_data:
        raise ValueError("the data are truncated or altered (incomplete zlib stream)")
    return blob[:4], raw


def decode_points(token: str, plane) -> PointSet:
    """The points of a token written by :func:`encode_points` on the same ``plane``.

    Raises
    ------
    ValueError
        Naming what is wrong (bad base64, truncated, checksum, too many points, …).
    """
    crc, raw = _unpack(token)
    if len(raw) < _HEADER.size:
        raise ValueError("the data are truncated (no header)")
    bits, n = _HEADER.unpack_from(raw)
    if bits != 16:
        raise ValueError(f"{bits}-bit coordinates are not supported")
    if n > MAX_POINTS:
        raise ValueError(f"{n} points, above the cap of {MAX_POINTS}; not loaded")
    if len(raw) != _HEADER.size + 5 * n:
        raise ValueError(f"the data are truncated ({len(raw)} bytes for {n} points)")
    if zlib.crc32(_plane_text(plane).encode() + raw).to_bytes(4, "big") != crc:
        raise ValueError("the checksum does not match (the points or the plane were altered)")
    b = np.frombuffer(raw, np.uint8, offset=_HEADER.size).reshape(5, n).astype(np.uint16)
    c = b[4].astype(np.int64)
    if n and c.max() >= MAX_CLASSES:
        raise ValueError(f"class index {c.max()} is outside 0..{MAX_CLASSES - 1}")
    x0, x1, y0, y1 = plane
    x = _dequantize(b[0] << 8 | b[1], x0, x1)
    X = np.column_stack([x, _dequantize(b[2] << 8 | b[3], y0, y1)])
    return PointSet(X, c)


def encode_state(state: LabState) -> dict[str, str]:
    """The query parameters of ``state`` (fields at their defaults are left out).

    Returns
    -------
    dict of str to str
        For ``st.query_params.from_dict`` or :func:`state_to_query_string`.
    """
    q = {"v": str(VERSION), "page": state.page}
    if state.alg is not None:
        q["alg"] = state.alg
    if state.classes != 2:
        q["classes"] = str(state.classes)
    plane = state.plane
    if state.points.n:
        plane = _covering_plane(state.points, plane)
    if plane is not None:
        q["plane"] = _plane_text(plane)
    if state.points.n:
        q["pts"] = encode_points(state.points, plane)
    if state.snap is not None:
        q["snap"] = str(state.snap)
    if state.present:
        q["present"] = "1"
    if state.theme != THEMES[0]:
        q["theme"] = state.theme
    if state.done:
        q["done"] = ",".join(sorted(state.done))
    q.update((name, _fmt(value)) for name, value in state.params.items())
    return q


def state_to_query_string(state: LabState) -> str:
    """The link's query string (without ``?``), percent-encoded."""
    return urlencode(encode_state(state), safe=",")


def link_fits(state: LabState) -> bool:
    """Whether the state's link is within :data:`URL_BUDGET` (else offer a lesson file)."""
    return len(state_to_query_string(state)) + len(state.page) + 2 <= URL_BUDGET


def _single(params: Mapping, messages: list[str]) -> dict[str, str]:
    """One text value per key (the last, as ``st.query_params[key]`` gives)."""
    out = {}
    for key, value in params.items():
        if isinstance(value, (list, tuple)):
            if len(value) > 1:
                messages.append(
                    f"{str(key)[:40]}: given {len(value)} times; the last value is used"
                )
            value = value[-1] if value else ""
        if not isinstance(key, str) or not isinstance(value, str):
            messages.append(f"{str(key)[:40]!r}: not text; ignored")
            continue
        out[key] = value
    return out


def decode_state(
    params: Mapping,
    schema=DEFAULT_SCHEMA,
    *,
    page: str | None = None,
    pages: Collection[str] | None = None,
    ignore: Collection[str] = IGNORED_KEYS,
) -> DecodeResult:
    """Read a state from query parameters, trusting nothing. Never raises.

    Parameters
    ----------
    params : mapping of str to str or list of str
        ``st.query_params.to_dict()`` or ``urllib.parse.parse_qs(...)`` (duplicates: the
        last value is used, with a message).
    schema : mapping of str to ParamSpec, or callable
        The parameters' schema, or a function of the algorithm name returning it (None
        for an unknown algorithm); see :func:`svmlab.state.statecheck.resolve_schema`.
    page : str, optional
        The page the URL path names (it wins over a ``page`` parameter).
    pages : collection of str, optional
        The app's page paths (default: any ``[a-z0-9_]`` name).
    ignore : collection of str
        Other keys passed over without a message (Streamlit's, widget-bound ones).

    Returns
    -------
    DecodeResult
    """
    messages: list[str] = []
    if page is not None:
        page, msg = check_field("page", page, pages=pages)
        messages += [f"the URL path: {msg}"] if msg else []
    home = page if page is not None else "home"
    size = sum(len(str(k)) + len(str(v)) + 2 for k, v in params.items())
    if size > MAX_QUERY or len(params) > _MAX_KEYS:
        return DecodeResult.refused(
            home,
            f"the link is {size} characters in {len(params)} parameters, "
            f"above the limit of {MAX_QUERY} characters or {_MAX_KEYS} parameters; "
            "opened with the defaults",
        )
    q = _single(params, messages)
    problem = version_problem(q.get("v", VERSION), VERSION)
    if problem:
        return DecodeResult.refused(home, problem)
    if page is not None:
        if q.get("page", page) != page:
            messages.append(f"page: the link names {q['page'][:40]!r}; opened on {page!r}")
        q["page"] = page
    extra = {k: v for k, v in q.items() if k not in RESERVED and k not in ignore}
    fields, msgs = read_fields(q, extra, schema, pages=pages)
    messages += msgs
    theme, msg = read_theme(q.get("theme"))
    fields.update({"theme": theme} if theme else {})
    messages += [msg] if msg else []
    if "pts" in q:
        try:
            if "plane" not in fields:
                raise ValueError("no valid plane to place them on")
            fields["points"] = decode_points(q["pts"], fields["plane"])
        except ValueError as exc:
            messages.append(f"points: {exc}; not loaded")
    return DecodeResult(LabState(**fields), tuple(messages), frozenset(fields))


def parse_link(url_or_query: str, schema=DEFAULT_SCHEMA, **kwargs) -> DecodeResult:
    """Read a whole share link or its query string (``?`` optional). Never raises.

    The URL path's last segment, if any, names the page (``/`` is the home page).
    Other keyword arguments go to :func:`decode_state`.
    """
    text = url_or_query.strip() if isinstance(url_or_query, str) else ""
    if len(text) > MAX_QUERY + 2048:
        return DecodeResult.refused(
            "home",
            f"the link is {len(text)} characters, above the limit of "
            f"{MAX_QUERY}; opened with the defaults",
        )
    if "?" in text or "://" in text or text.startswith("/"):
        parts = urlsplit(text)
        path, query = parts.path, parts.query
    else:
        path, query = "", text
    segment = path.rstrip("/").rsplit("/", 1)[-1]
    if path and kwargs.get("page") is None:
        kwargs["page"] = segment or "home"
    try:
        params = parse_qs(query, keep_blank_values=True, max_num_fields=_MAX_KEYS)
    except ValueError:
        return DecodeResult.refused(
            "home", f"the link has more than {_MAX_KEYS} parameters; opened with the defaults"
        )
    return decode_state(params, schema, **kwargs)
