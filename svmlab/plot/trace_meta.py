"""The ``meta`` tags of the figures' traces: how the browser and the looks find them.

Plotly keeps a trace's ``meta`` as given; SVM Lab tags the traces that code elsewhere must
find whatever their order: the data canvas (``assets/canvas.js``) links the α bars and the
points by their tags and its playback (``assets/playback.js``) swaps, per frame, the data
of the traces a snapshot changes; the looks (:mod:`svmlab.plot.look.roles`) find the level
lines. Pure constants.
"""

from __future__ import annotations

__all__ = [
    "ALPHA_BARS_META",
    "BOUNDARY_META",
    "MARGIN_META",
    "PLAYBACK_METAS",
    "POINTS_META",
    "REGIONS_META",
    "SAMPLED_HALO_META",
    "SAMPLED_META",
    "SHADE_META",
    "SV_BOUNDED_META",
    "SV_FREE_META",
    "SV_META",
]

#: The plane's level lines: the boundary f = 0 and the margins f = ±1 (the export's and
#: the dark theme's roles, :mod:`svmlab.plot.look.roles`, find them by it).
BOUNDARY_META = "svmlab-boundary"
MARGIN_META = "svmlab-margin"
#: ``layout.meta`` of the α bar chart and ``meta`` of the plane's point traces: the data
#: canvas finds both by these tags and links their hover (bar j <-> the point whose
#: ``customdata[0]`` is j).
ALPHA_BARS_META = "svmlab-alpha-bars"
POINTS_META = "svmlab-points"
#: The traces a snapshot changes besides the lines and the points' sizes: the shading (or
#: the multiclass regions), the support vectors' rings (one kind, or free and bounded for
#: the dual) and the sampled point.
SHADE_META = "svmlab-shade"
REGIONS_META = "svmlab-regions"
SV_META = "svmlab-sv"
SV_FREE_META = "svmlab-sv-free"
SV_BOUNDED_META = "svmlab-sv-bounded"
SAMPLED_META = "svmlab-sampled"
SAMPLED_HALO_META = "svmlab-sampled-halo"  # the dark outline under the sampled point's ring
#: Every tag the playback swaps data of (with :data:`POINTS_META`'s marker sizes).
PLAYBACK_METAS = (
    SHADE_META,
    REGIONS_META,
    BOUNDARY_META,
    MARGIN_META,
    SV_META,
    SV_FREE_META,
    SV_BOUNDED_META,
    SAMPLED_META,
    SAMPLED_HALO_META,
)
