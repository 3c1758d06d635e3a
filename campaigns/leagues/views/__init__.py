"""The club and league pages: ``clubs`` (clubs, a league's set-up, registering, rounds),
``leagues`` (standings, a player's history, the public page, CSV) and ``matches`` (a
match's page and its report). What a league's pages show is read by
``campaigns/leagues/board.py``."""
