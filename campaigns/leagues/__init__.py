"""Clubs and their leagues, in one Django app (label ``leagues``).

- ``models.py``: clubs, members, leagues, registrations, rounds, pairings, match reports;
- ``standings.py`` and ``pairing.py``: the arithmetic, plain Python (no Django);
- ``services.py``: every change, one transaction each;
- ``forms.py``, ``views/`` (``clubs.py``: clubs and a league's set-up, registering and
  rounds; ``leagues.py``: standings, matches, players, the public page, CSV), ``urls.py``.

How leagues score, break ties and pair: docs/leagues.md.
"""
