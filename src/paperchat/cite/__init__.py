"""Citations: ``[n]`` markers and their renumbering (once, in :mod:`~paperchat.cite.markers`),
and the support checker that tests each cited sentence against its sources."""
