"""What deleting an account tells the apps that listen (issue 28: apps talk through
signals). Sent by the apps' ``privacy.forget_user`` (campaigns/privacy.py,
campaigns/leagues/privacy.py), which may import accounts: it is below them.

- ``handed_over``: something the leaving user organised (a campaign, a club) now belongs
  to ``heir`` (a user); ``name`` is its name, ``url`` its page. accounts mails the heir
  (accounts/apps.py); notifications puts "You now organise …" on their list
  (notifications/apps.py).
"""

from __future__ import annotations

from django.dispatch import Signal

handed_over = Signal()  # heir, name, url
