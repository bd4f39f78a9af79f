"""Widgets bound to the URL (``bind="query-params"``): their values as the URL writes them.

Streamlit 1.67 binds a widget to the query parameter named by its key, drops an invalid
URL value silently and leaves a default value out. To tell the user what a link held that
was not taken, :mod:`svmlab.ui.linkstate` needs each bound widget's serializer: this module
reads it from Streamlit's session state (``SessionState.get_widget_id_from_key`` and
``get_widget_metadata``, read only; any failure reads as "not bound").
"""

from __future__ import annotations

import math

import streamlit as st

__all__ = ["BIND", "bound_widget", "same_value", "url_texts", "value_from_text", "widget_text"]

BIND = "query-params"


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
    values (it would not be written back as ``text``).
    """
    meta = bound_widget(key)
    if meta is None:
        return False, None
    from streamlit.runtime.state.query_params import parse_url_param

    try:
        value = meta.deserializer(parse_url_param(text, meta.value_type))
        return same_value(meta, text.split(","), url_texts(meta, value)), value
    except (ValueError, TypeError, IndexError):
        return False, None
