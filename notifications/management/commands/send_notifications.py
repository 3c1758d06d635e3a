"""Mail every user with an address what waits on them and was not mailed yet (one message
each). The background job does this minutes after each change; run this from cron too
(say every 15 minutes) so nothing waits unmailed if a job was lost."""

from __future__ import annotations

from django.core.management.base import BaseCommand

from notifications.services import sweep


class Command(BaseCommand):
    help = "Mail each user what waits on them and was not mailed yet (one message each)."

    def handle(self, *args, **options) -> None:
        users, items = sweep()
        self.stdout.write(f"Mailed {users} user(s) {items} waiting action(s).")
