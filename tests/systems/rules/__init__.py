"""A package of game systems outside ``rules/systems`` (``rules.registry.add_package``)."""
