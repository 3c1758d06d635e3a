"""Load every content fixture in ``fixtures/`` (idempotent: content has natural keys)."""

from pathlib import Path

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand

FIXTURES_DIR = Path(settings.BASE_DIR) / "fixtures"


def content_fixtures() -> list[Path]:
    return sorted(FIXTURES_DIR.glob("*.json"))


class Command(BaseCommand):
    help = "Load the game content (weapon catalogues, horses...) shipped in fixtures/."

    def handle(self, *args, **options) -> None:
        files = content_fixtures()
        call_command("loaddata", *[str(f) for f in files], verbosity=options["verbosity"])
