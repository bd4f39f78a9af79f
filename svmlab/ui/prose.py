"""The pages' teaching prose: Markdown files in ``assets/prose/``, one per page.

A lecturer can reword what a page says without touching Python: ``prose("kernel_pegasos")``
reads ``assets/prose/kernel_pegasos.md``.
"""

from __future__ import annotations

import functools

from svmlab.ui.static_assets import ASSETS_DIR

__all__ = ["PROSE_DIR", "prose"]

PROSE_DIR = ASSETS_DIR / "prose"


@functools.cache
def prose(name: str) -> str:
    """The Markdown text of ``assets/prose/<name>.md`` (read once per process).

    Raises
    ------
    ValueError
        If ``name`` is not a file in :data:`PROSE_DIR`.
    """
    path = PROSE_DIR / f"{name}.md"
    if path.parent != PROSE_DIR or not path.is_file():
        raise ValueError(f"no prose file {name!r} in {PROSE_DIR}")
    return path.read_text(encoding="utf-8").strip()
