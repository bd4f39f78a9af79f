"""Widgets bound to the URL (``bind="query-params"``): their values as the URL writes them.

Streamlit 1.67 binds a widget to the query parameter named by its key, drops an invalid
URL value silently and leaves a default value out. To tell the user what a link held that
was not taken, :mod:`svmlab.ui.linkstate` needs each bound widget's serializer: this module
reads it from Streamlit's session state (``SessionState.get_widget_id_from_key`` and
``get_widget_metadata``, read only; any failure reads as "not bound").
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import streamlit as st

__all__ = [
    "BIND",
    "apply_texts",
    "bound_widget",
    "nonfinite_keys",
    "nonfinite_text",
    "refusal",
    "same_value",
    "url_texts",
    "value_from_text",
    "widget_text",
]

BIND = "query-params"


def nonfinite_text(text) -> bool:
    """Whether ``text`` reads as a number that is not finite.

    ``inf``, ``-Infinity``, ``nan``, ``1e309``, ``-1e309`` or an integer of 400 digits:
    Python's ``float`` reads each (to ±inf or nan) without an error, and a widget that
    takes it fails (Streamlit's ``number_input`` raises ``OverflowError`` converting
    infinity to an int). Text that is no number at all is not counted here.
    """
    if not isinstance(text, str):
        return False
    try:
        return not math.isfinite(float(text))
    except ValueError:
        return False


def nonfinite_keys(params: Mapping) -> dict[str, str]:
    """The keys of ``params`` (text or lists of text) holding a non-finite number, with it.

    Every bound widget's value is checked with it before any widget reads the link
    (:func:`svmlab.ui.linkstate.page_link`, :func:`svmlab.ui.render_link.shown_from_link`).
    """
    out = {}
    for key, value in params.items():
        values = value if isinstance(value, (list, tuple)) else [value]
        bad = next((v for v in values if nonfinite_text(v)), None)
        if bad is not None:
            out[key] = bad
    return out


def bound_widget(key: str):
    """The metadata of the widget bound to query parameter ``key``, or None.

    Streamlit has no public API for it: ``SessionState.get_widget_id_from_key`` and
    ``get_widget_metadata`` (1.67) are read, never written; any failure reads as None.
    """
    try:
        from streamlit.runtime.state import get_session_state

        state = get_session_state()._state
        wid = state.get_widget_id_from_key(key)
        meta = state.get_widget_metadata(wid) if wid else None
    except Exception:  # an internal API that moved: treat the key as unbound
        return None
    return meta if meta is not None and getattr(meta, "bind", None) == BIND else None


def url_texts(meta, value) -> list[str]:
    """A widget value as the URL writes it (Streamlit's serializer; numbers as ``5``)."""
    out = meta.serializer(value)
    items = list(out) if isinstance(out, (list, tuple)) else [out]
    texts = []
    for v in items:
        if isinstance(v, bool):
            texts.append(str(v).lower())
        elif isinstance(v, float) and math.isfinite(v) and v == int(v):
            texts.append(str(int(v)))
        else:
            texts.append(str(v))
    return texts


def same_value(meta, raw: list[str], texts: list[str]) -> bool:
    """Whether the raw URL values denote the same value as ``texts``."""
    if meta.value_type == "bool_value":
        return [r.lower() for r in raw] == texts
    if meta.value_type in ("double_value", "int_value") and len(raw) == len(texts) == 1:
        try:
            return float(raw[0]) == float(texts[0])
        except ValueError:
            return False
    return raw == texts


def widget_text(key: str) -> str | None:
    """The URL text of the current value of the widget bound to ``key``, or None."""
    meta = bound_widget(key)
    if meta is None or key not in st.session_state:
        return None
    return ",".join(url_texts(meta, st.session_state[key]))


def value_from_text(key: str, text: str):
    """``(ok, value)``: the value the widget bound to ``key`` takes from URL text ``text``.

    ``ok`` is False when no widget is bound to ``key`` or the text is not one of its
    values (it would not be written back as ``text``). The text is one value (an option's
    label may hold a comma, ``1,000``) or several joined by commas; a number naming a
    numeric option by its value (``1000`` for the label ``1,000``) is that option.
    """
    meta = bound_widget(key)
    if meta is None:
        return False, None
    from streamlit.runtime.state.query_params import parse_url_param

    splits = [[text]] + ([text.split(",")] if "," in text else [])
    for parts in splits:
        try:
            value = meta.deserializer(
                parse_url_param(parts[0] if len(parts) == 1 else parts, meta.value_type)
            )
            if same_value(meta, parts, url_texts(meta, value)):
                return True, value
        except (ValueError, TypeError, IndexError, OverflowError):
            continue
    option = _numeric_option(meta, text)
    return (True, option) if option is not None else (False, None)


def _serde(meta):
    """The widget's (de)serializer object (Streamlit keeps min / max / options there)."""
    return getattr(meta.deserializer, "__self__", None)


def _number(text) -> float | None:
    try:
        value = float(text)
    except (TypeError, ValueError):
        return None
    return value if math.isfinite(value) else None


def _numeric_options(meta) -> list | None:
    options = list(getattr(_serde(meta), "options", None) or [])
    numeric = all(isinstance(o, int | float) and not isinstance(o, bool) for o in options)
    return options if options and numeric else None


def _numeric_option(meta, text):
    number, options = _number(text), _numeric_options(meta)
    if number is None or options is None:
        return None
    return next((o for o in options if float(o) == number), None)


def _labels(meta) -> list[str]:
    """The option labels a URL names (a select slider's, a selectbox's, a radio's)."""
    serde = _serde(meta)
    labels = getattr(meta, "formatted_options", None) or getattr(serde, "formatted_options", None)
    if not labels:
        labels = list(getattr(serde, "formatted_option_to_index", None) or ())
    return [str(v) for v in labels]


def _plain(v) -> str:
    return str(int(v)) if float(v).is_integer() and abs(v) < 1e15 else f"{v:g}"


def refusal(key: str, text: str) -> str:
    """Why the widget bound to ``key`` does not take ``text``, naming what it takes.

    ``"is out of range 0 … 1000000"`` (a number input or slider, or a select slider of
    numbers: its first and last label), ``"is not one of 10, 30, 100, …"`` (a value
    between a select slider's options, a choice), else ``"is not a valid value"``.
    """
    meta = bound_widget(key)
    if meta is None:
        return "is not a setting of this page"
    serde, number = _serde(meta), _number(text)
    lo, hi = getattr(serde, "min_value", None), getattr(serde, "max_value", None)
    if isinstance(lo, int | float) and isinstance(hi, int | float):
        if number is not None and lo <= number <= hi:
            return f"is not one of its values in {_plain(lo)} … {_plain(hi)}"
        return f"is out of range {_plain(lo)} … {_plain(hi)}"
    labels = _labels(meta)
    options = _numeric_options(meta)
    if options is not None and number is not None and len(labels) == len(options):
        first = min(range(len(options)), key=options.__getitem__)
        last = max(range(len(options)), key=options.__getitem__)
        if not options[first] <= number <= options[last]:
            return f"is out of range {labels[first]} … {labels[last]}"
    if labels:
        shown = ", ".join(labels[:12]) + (", …" if len(labels) > 12 else "")
        return f"is not one of {shown}"
    return "is not a valid value"


def apply_texts(params: Mapping, prefix: str = "") -> list[str]:
    """Give each widget bound to a key of ``params`` its value (a widget callback: before
    the widgets run); the messages for the values not taken, each starting with ``prefix``.

    ``params`` maps keys to single values (text, numbers, true/false: a lesson file's
    settings), read as :func:`svmlab.state.statecheck.url_text` writes them. A value the widget
    does not take is named with what it takes (:func:`refusal`); the widget keeps its value.
    """
    from svmlab.state.statecheck import show_value, url_text

    messages = []
    for key, raw in params.items():
        text = url_text(raw)
        ok, value = value_from_text(key, text)
        if ok:
            st.session_state[key] = value
        elif bound_widget(key) is None:
            messages.append(
                f"{prefix}{key}={show_value(raw)} is not a setting of this page; ignored"
            )
        else:
            kept = widget_text(key)
            tail = f"the page keeps {kept}" if kept is not None else "ignored"
            messages.append(f"{prefix}{key}: {show_value(raw)} {refusal(key, text)}; {tail}")
    return messages
