"""What an account keeps besides Django's user row: the language its owner reads the site in."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Profile(models.Model):
    """One per user who made a choice; a user without one reads the language of their
    browser (the cookie, then ``Accept-Language``)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile"
    )
    language = models.CharField(
        _("language"), max_length=10, choices=settings.LANGUAGES, blank=True, default=""
    )

    def __str__(self) -> str:
        return f"{self.user_id}: {self.language or '-'}"
