from django.apps import AppConfig


class AccountsConfig(AppConfig):
    """A user's account: email address, password reset, their data, deleting it."""

    name = "accounts"
    default_auto_field = "django.db.models.BigAutoField"
