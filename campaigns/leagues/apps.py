from django.apps import AppConfig


class LeaguesConfig(AppConfig):
    name = "campaigns.leagues"
    label = "leagues"
    verbose_name = "Clubs and leagues"

    def ready(self) -> None:
        # A registered gang is re-checked against its leagues when it changes (not when a
        # page is read): builder/signals.py.
        from builder import signals
        from campaigns import signals as campaign_signals
        from campaigns.leagues import services, tasks

        signals.gang_changed.connect(
            lambda sender, gang, **kw: services.gang_changed(gang),
            dispatch_uid="leagues.gang_changed",
            weak=False,
        )
        # The public page's result rows are rendered after a change, not by its next
        # visitor (campaigns/leagues/tasks.py).
        campaign_signals.league_changed.connect(
            lambda sender, league_id, **kw: tasks.schedule_results(league_id),
            dispatch_uid="leagues.render_results",
            weak=False,
        )
