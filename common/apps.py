from django.apps import AppConfig


class CommonConfig(AppConfig):
    """What every app may use and that uses no app: the site-wide template tags
    (``{% load gangfight_i18n %}``), how a player's name is shown, and how an app finds
    the modules other apps offer it (discovery.py). It sits below every app: it imports
    no app (tests/test_layers.py)."""

    name = "common"
    label = "common"
