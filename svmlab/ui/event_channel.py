"""The acknowledged-event channel from a component to Python: the Python side.

The data canvas's clicks (:mod:`svmlab.ui.canvas`) and the keyboard's presses
(:mod:`svmlab.ui.keyboard`) reach Python the same way; the browser's side is one module,
``assets/event_channel.js``, prepended to both components. The contract:

* every event carries a sequence number ``seq``, increasing in the browser tab;
* the component's *state* value :data:`STATE` lists the events Python has not
  acknowledged (the newest ``batch`` of them); each new event sets it once — one rerun
  request, nothing re-sent on a timer. The value stays in Streamlit's widget state and
  goes with every later rerun request, so an event whose rerun was superseded or dropped
  (a click while the server is down) arrives with the next one;
* Python applies each ``seq`` above its ``ack`` once, in ``seq`` order (:func:`fresh`), in
  the component's callback — before the page script runs — and again from the value the
  component returns, for what the callback did not see (a new session's first run);
* the highest ``seq`` applied goes back as ``ack`` in the component's data
  (:func:`contract`), and the browser drops those events.

Who receives the events keeps its own ``ack`` (the canvas session's, the keyboard's) and
applies them (:func:`deliver`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

import streamlit as st

from svmlab.state.pointset import is_finite_number

__all__ = ["STATE", "contract", "deliver", "event_seq", "events_of", "fresh", "listen"]

#: The name of the component's state value that holds the unacknowledged events.
STATE = "events"


def contract(ack: int, batch: int) -> dict:
    """The channel's constants for the component's data: the highest ``seq`` applied, the
    most events one state value holds, and the state value's name."""
    batch = int(batch)
    if batch < 1:
        raise ValueError(f"batch must be at least 1 event, got {batch}")
    return {"ack": int(ack), "batch": batch, "state": STATE}


def event_seq(event: Mapping) -> int | None:
    """The sequence number of an event (its ``seq``, a finite number up to 2⁵³), or None."""
    v = event.get("seq")
    # a browser counts in doubles: above 2**53 (or a JSON integer of 400 digits, which
    # np.isfinite refuses with a TypeError) it is no sequence number
    if isinstance(v, int | float) and not isinstance(v, bool) and is_finite_number(v):
        if abs(v) <= 2**53:
            return int(v)
    return None


def events_of(value) -> list[dict]:
    """The events of a component's state (``{STATE: [...]}``) or of a list; [] otherwise."""
    if isinstance(value, Mapping):
        value = value.get(STATE)
    if not isinstance(value, list):
        return []
    return [e for e in value if isinstance(e, Mapping)]


def fresh(events: Iterable, ack: int) -> list[dict]:
    """The events to apply now: each ``seq`` above ``ack`` once, in ``seq`` order.

    An event without a ``seq`` is not the browser's (a test's, a script's): it is applied
    as given, before the sequenced ones.
    """
    loose, seen = [], {}
    for ev in events:
        if not isinstance(ev, Mapping):
            continue
        seq = event_seq(ev)
        if seq is None:
            loose.append(ev)
        elif seq > ack and seq not in seen:
            seen[seq] = ev
    return loose + [seen[s] for s in sorted(seen)]


def deliver(owner, events: Iterable, apply: Callable[[list], Any] | None = None):
    """Apply to ``owner`` the events it has not acknowledged; its ``ack`` rises to the last.

    ``owner`` has an ``ack`` attribute (the highest ``seq`` applied) and, unless ``apply``
    is given, an ``apply_events(list)`` method; either gets :func:`fresh`'s list (never
    empty). Returns what it returns (False when there was nothing to apply).
    """
    new = fresh(events, int(owner.ack))
    if not new:
        return False
    out = (apply or owner.apply_events)(new)
    seqs = [s for s in map(event_seq, new) if s is not None]
    if seqs:
        owner.ack = max(int(owner.ack), max(seqs))
    return out


def listen(component, *, key: str, data: dict, ack: int, batch: int, receive, **kwargs) -> list:
    """Mount the components-v2 ``component`` under ``key`` with the channel.

    Its data get the contract (:func:`contract` of ``ack`` and ``batch``, as
    ``data["channel"]``); ``receive(events)`` gets the events of its state value from its
    callback (before the page script runs) — call :func:`deliver` in it. Returns the events
    of the value the component returns, for the events the callback did not see. Only
    events with a ``seq`` count (a crafted one without would be applied on every run).
    """

    def numbered(value) -> list[dict]:
        return [e for e in events_of(value) if event_seq(e) is not None]

    def _changed() -> None:
        receive(numbered(st.session_state.get(key)))

    result = component(
        key=key,
        data={**data, "channel": contract(ack, batch)},
        **{f"on_{STATE}_change": _changed},
        **kwargs,
    )
    return numbered({STATE: getattr(result, STATE, None)})
