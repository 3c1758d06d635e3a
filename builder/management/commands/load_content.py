"""Load the built-in content: every fixture in ``fixtures/`` and each editor's entries from
the rules engine's data (cards, profiles...). Idempotent: content has natural keys."""

from pathlib import Path

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand
from django.db import transaction

from builder.editors import all_editors
from builder.models import Item

FIXTURES_DIR = Path(settings.BASE_DIR) / "fixtures"


def content_fixtures() -> list[Path]:
    return sorted(FIXTURES_DIR.glob("*.json"))


@transaction.atomic
def load_engine_content() -> int:
    """Built-in entries that live in ``rules/data`` (one source for engine and app)."""
    count = 0
    for editor in all_editors():
        for entry in editor.builtin_content():
            Item.objects.update_or_create(
                owner=None,
                system=editor.system_id,
                category=entry["category"],
                name=entry["name"],
                defaults={
                    "stats": entry["stats"],
                    "is_sample": entry.get("is_sample", False),
                    "source": entry.get("source", "")[:200],
                },
            )
            count += 1
    return count


class Command(BaseCommand):
    help = "Load the game content (catalogues, cards, profiles...) shipped with Gangfight."

    def handle(self, *args, **options) -> None:
        files = content_fixtures()
        call_command("loaddata", *[str(f) for f in files], verbosity=options["verbosity"])
        count = load_engine_content()
        if options["verbosity"]:
            self.stdout.write(f"Loaded {count} entries from the rules engine's data.")
