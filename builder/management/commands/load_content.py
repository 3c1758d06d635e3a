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
    """Built-in entries that live in ``rules/data`` (one source for engine and app).

    The built-in entries already there are read in one query; only the missing ones are
    created (all at once) and only the changed ones saved, so loading into a fresh or an
    up-to-date database costs a few queries, not one or two per entry."""
    wanted = {
        (editor.system_id, entry["category"], entry["name"]): {
            "stats": entry["stats"],
            "is_sample": entry.get("is_sample", False),
            "source": entry.get("source", "")[:200],
        }
        for editor in all_editors()
        for entry in editor.builtin_content()
    }
    systems = {system for system, _category, _name in wanted}
    there = {
        (item.system, item.category, item.name): item
        for item in Item.objects.filter(owner=None, system__in=systems)
    }
    missing, changed = [], []
    for (system, category, name), values in wanted.items():
        item = there.get((system, category, name))
        if item is None:
            missing.append(Item(system=system, category=category, name=name, **values))
        elif any(getattr(item, field) != value for field, value in values.items()):
            for field, value in values.items():
                setattr(item, field, value)
            changed.append(item)
    Item.objects.bulk_create(missing)
    if changed:
        Item.objects.bulk_update(changed, ["stats", "is_sample", "source"])
    return len(wanted)


class Command(BaseCommand):
    help = "Load the game content (catalogues, cards, profiles...) shipped with Gangfight."

    def handle(self, *args, **options) -> None:
        files = content_fixtures()
        call_command("loaddata", *[str(f) for f in files], verbosity=options["verbosity"])
        count = load_engine_content()
        if options["verbosity"]:
            self.stdout.write(f"Loaded {count} entries from the rules engine's data.")
