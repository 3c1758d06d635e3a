from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class NotificationsConfig(AppConfig):
    name = "notifications"
    verbose_name = _("What waits on you")

    def ready(self) -> None:
        # The campaigns and leagues say what changed (campaigns/signals.py), accounts what
        # a deleted account handed on (accounts/signals.py); this app decides who waits on
        # it and what they are told. They never import it.
        from accounts.signals import handed_over
        from campaigns import signals
        from notifications import services

        handed_over.connect(
            lambda sender, heir, name, url, **kw: services.handed_over(heir, name, url),
            dispatch_uid="notifications.handed_over",
            weak=False,
        )

        signals.campaign_changed.connect(
            lambda sender, campaign, **kw: services.campaign_changed(campaign),
            dispatch_uid="notifications.campaign_changed",
            weak=False,
        )
        signals.league_changed.connect(
            lambda sender, league_id, **kw: services.league_changed(league_id),
            dispatch_uid="notifications.league_changed",
            weak=False,
        )
        signals.club_changed.connect(
            lambda sender, club_id, **kw: services.club_changed(club_id),
            dispatch_uid="notifications.club_changed",
            weak=False,
        )
        signals.people_changed.connect(
            lambda sender, user_ids, emails=None, **kw: services.changed(user_ids, emails),
            dispatch_uid="notifications.people_changed",
            weak=False,
        )
        signals.organiser_made.connect(
            lambda sender, user, club, by=None, **kw: services.made_organiser(user, club, by),
            dispatch_uid="notifications.organiser_made",
            weak=False,
        )
