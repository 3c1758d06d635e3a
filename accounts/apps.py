from django.apps import AppConfig


class AccountsConfig(AppConfig):
    """A user's account: email address, password reset, their data, deleting it."""

    name = "accounts"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # A campaign or club handed on when its organiser deleted their account
        # (campaigns/privacy.py, campaigns/leagues/privacy.py): the heir is mailed.
        from accounts import services, signals

        signals.handed_over.connect(
            lambda sender, heir, name, **kw: services.mail_heir(heir, name),
            dispatch_uid="accounts.handed_over",
            weak=False,
        )
