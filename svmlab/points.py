"""The points drawn on the data canvas (NumPy only, no Streamlit): one import for both halves.

:mod:`svmlab.pointset` holds the point list (:class:`PointSet`), its undo / redo
(:class:`History`) and the canvas events (:func:`apply_event`); :mod:`svmlab.point_files`
reads and writes CSV / LIBSVM files, maps file labels to classes and reads table cells.
"""

from __future__ import annotations

from svmlab.point_files import (
    CLASS_INDEX_MARK,
    export_csv,
    export_labels,
    export_libsvm,
    label_map_text,
    labels_to_classes,
    parse_cell,
    parse_csv,
    parse_libsvm,
    parse_points,
    points_from_rows,
    read_points,
)
from svmlab.pointset import (
    COORD_LIMIT,
    MAX_POINTS,
    MAX_UNDO,
    History,
    PointSet,
    PointsFormatError,
    apply_event,
    is_finite_number,
)

__all__ = [
    "CLASS_INDEX_MARK",
    "COORD_LIMIT",
    "MAX_POINTS",
    "MAX_UNDO",
    "History",
    "PointSet",
    "PointsFormatError",
    "apply_event",
    "export_csv",
    "export_labels",
    "export_libsvm",
    "is_finite_number",
    "label_map_text",
    "labels_to_classes",
    "parse_cell",
    "parse_csv",
    "parse_libsvm",
    "parse_points",
    "points_from_rows",
    "read_points",
]
