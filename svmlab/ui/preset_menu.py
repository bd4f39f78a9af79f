"""The data panel's preset menu: load a :data:`svmcore.datasets.REGISTRY` preset.

The menu's values (preset, n, noise, seed) are remembered in the session
(:attr:`svmlab.state.canvas_session.CanvasSession.preset`), so that every page shows them.
"""

from __future__ import annotations

import streamlit as st

from svmcore.datasets import REGISTRY
from svmlab.state.pointset import MAX_POINTS, PointSet
from svmlab.ui.session import get_session

__all__ = ["MAX_PRESET_N", "load_preset", "preset_widgets", "seed_widget"]

#: Largest n offered for a preset (the canvas caps points at MAX_POINTS).
MAX_PRESET_N = 500


def seed_widget(wkey: str, value) -> None:
    """Give a widget its remembered value (widget state is dropped on other pages)."""
    if wkey not in st.session_state:
        st.session_state[wkey] = value


def load_preset(name: str, *, n=None, noise=None, seed: int = 0, k: int | None = None) -> bool:
    """Replace the points by a :data:`svmcore.datasets.REGISTRY` preset (undoable)."""
    d = REGISTRY[name]
    kwargs = {"k": k} if (name == "k_blobs" and k is not None) else {}
    X, y = d.generator(
        n=d.n if n is None else int(n),
        noise=d.noise if noise is None else float(noise),
        random_state=int(seed),
        **kwargs,
    )
    return get_session().replace(PointSet.from_labels(X, y))


def preset_widgets(n_classes: int, key: str) -> None:
    """The "Preset data" expander: a preset, n, noise, seed and "Load preset"."""
    s = get_session()
    names = [
        name
        for name, d in REGISTRY.items()
        if d.n_classes == 2 or (n_classes > 2 and name == "k_blobs")
    ]
    wkeys = {f: f"{key}_{'preset' if f == 'name' else f}" for f in ("name", "n", "noise", "seed")}
    for field, wkey in wkeys.items():
        seed_widget(wkey, s.preset[field])
    pkey, nkey, zkey, skey = wkeys.values()
    if st.session_state[pkey] not in names:
        st.session_state[pkey] = names[0]

    def _on_preset() -> None:
        d = REGISTRY[st.session_state[pkey]]
        st.session_state[nkey] = int(d.n)
        st.session_state[zkey] = float(d.noise)

    def _load() -> None:
        s.preset = {field: st.session_state[wkey] for field, wkey in wkeys.items()}
        name = s.preset["name"]
        try:
            opts = {f: s.preset[f] for f in ("n", "noise", "seed")}
            load_preset(name, **opts, k=n_classes)
        except ValueError as exc:
            s.say("error", f"Preset {name}: {exc}")
            return
        s.say("success", f"Loaded {REGISTRY[name].title}.")

    box = st.expander("Preset data", key=f"{key}_preset_box", on_change="rerun")
    if not box.open:  # closed: nothing built or sent
        return
    with box:
        st.selectbox(
            "Preset",
            names,
            format_func=lambda name: REGISTRY[name].title,
            key=pkey,
            on_change=_on_preset,
        )
        d = REGISTRY[st.session_state[pkey]]
        if d.description:
            st.caption(d.description)
        st.slider(
            "n (points)",
            4,
            MAX_PRESET_N,
            key=nkey,
            step=1,
            disabled=d.fixed,
            help=f"At most {MAX_PRESET_N} points per preset ({MAX_POINTS} on the canvas).",
        )
        st.slider("noise", 0.0, 2.0, key=zkey, step=0.01, disabled=d.fixed)
        st.number_input("seed", min_value=0, max_value=2**31 - 1, step=1, key=skey)
        st.button("Load preset", key=f"{key}_load", on_click=_load, width="stretch")
