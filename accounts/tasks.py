"""The account's background work (common/background.py): mail is sent after the
request, so a slow or broken mail server never holds a page nor makes it fail, and a
password reset answers as fast for an address that has an account as for one that has not."""

from __future__ import annotations

from django.core import mail


def send_mail(subject: str, body: str, to: list[str]) -> None:
    mail.send_mail(subject, body, None, to)
