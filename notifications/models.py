"""What a user chose to hear about by email, and what was mailed to them.

What waits on a user is never stored: :mod:`notifications.waiting` computes it from the
campaigns' logs and the leagues' reports. Only the user's choices and the keys of the
items already mailed (so nothing is mailed twice) are kept.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Preference(models.Model):
    """One user's email choices: the kinds of waiting action they turned off."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notification_preference"
    )
    #: kind ids (notifications.waiting.KINDS) the user gets no email for
    muted = models.JSONField(_("kinds not mailed"), default=list, blank=True)

    def __str__(self) -> str:
        return f"{self.user}: {', '.join(self.muted) or 'everything mailed'}"


class Mailed(models.Model):
    """One waiting action already mailed to a user (by its stable key)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications_mailed"
    )
    key = models.CharField(max_length=200)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "key"], name="a_waiting_action_is_mailed_once")
        ]

    def __str__(self) -> str:
        return f"{self.user}: {self.key}"


class Notice(models.Model):
    """A piece of news for one user that no computed item says (e.g. "You now organise
    Deadrock": a campaign or club passed to them when its organiser deleted their
    account). Listed with what waits on them until they dismiss it."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notices"
    )
    text = models.CharField(max_length=500)  # written in the user's language
    url = models.CharField(max_length=300, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created", "pk"]

    def __str__(self) -> str:
        return f"{self.user}: {self.text}"
