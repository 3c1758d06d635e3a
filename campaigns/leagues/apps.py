from django.apps import AppConfig


class LeaguesConfig(AppConfig):
    name = "campaigns.leagues"
    label = "leagues"
    verbose_name = "Clubs and leagues"

    def ready(self) -> None:
        # A registered gang is re-checked against its leagues when it changes (not when a
        # page is read): builder/signals.py.
        from builder import signals
        from campaigns.leagues import services

        signals.gang_changed.connect(
            lambda sender, gang, **kw: services.gang_changed(gang),
            dispatch_uid="leagues.gang_changed",
            weak=False,
        )
