"""What the campaigns and leagues tell the apps above them (issue 28: apps talk through
signals, not by calling into each other). ``notifications`` listens (its
``AppConfig.ready``); the senders never import it.

- ``campaign_changed``: an event was recorded in ``campaign``;
- ``league_changed``: a report, round or registration changed in league ``league_id``;
- ``club_changed``: what every member of club ``club_id`` may wait on changed (a league
  opened for registration, or closed it by starting);
- ``people_changed``: something touching ``user_ids`` was recorded (``emails``: their
  addresses, for the mail);
- ``organiser_made``: ``user`` was made an organiser of ``club`` by ``by`` (or None).
"""

from __future__ import annotations

from django.dispatch import Signal

campaign_changed = Signal()  # campaign
league_changed = Signal()  # league_id
club_changed = Signal()  # club_id
people_changed = Signal()  # user_ids, emails
organiser_made = Signal()  # user, club, by
