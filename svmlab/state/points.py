"""The points drawn on the data canvas (NumPy only, no Streamlit): one import for both halves.

:mod:`svmlab.state.pointset` holds the point list (:class:`PointSet`), its undo / redo
(:class:`History`) and the canvas events (:func:`apply_event`); :mod:`svmlab.state.point_files`
reads and writes CSV / LIBSVM files, maps file labels to classes and reads table cells.
Every public name of both is importable from here.
"""

from __future__ import annotations

from svmlab.state import point_files, pointset
from svmlab.state.point_files import *  # noqa: F403 (exactly point_files.__all__)
from svmlab.state.pointset import *  # noqa: F403 (exactly pointset.__all__)

__all__ = sorted([*pointset.__all__, *point_files.__all__])
