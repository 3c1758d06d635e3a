"""Campaigns and club leagues live here (see the campaigns and league issues).

No models yet: a campaign will take *copies* of gangs from ``builder``, so nothing in
this app may change a gang a player is still building.
"""
