"""What the builder tells the apps above it (issue 28: apps talk through signals).

- ``gang_changed``: ``gang`` was changed (its ``version`` is the new one), sent inside the
  change's transaction. The leagues re-check the gang's registrations then
  (campaigns/leagues/apps.py), so no page has to write while it is read.
"""

from __future__ import annotations

from django.dispatch import Signal

gang_changed = Signal()  # gang
