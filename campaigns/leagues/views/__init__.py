"""The club and league pages: ``clubs`` (clubs, a league's set-up, registering, rounds) and
``leagues`` (standings, matches, a player's history, the public page, CSV)."""
