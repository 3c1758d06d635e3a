"""Check, or rebuild, every registration's stored tallies against a full recompute.

    python manage.py league_tallies            # every league: rebuild what differs
    python manage.py league_tallies 12 15      # these leagues only
    python manage.py league_tallies --check    # only say what differs (exit status 1)

A registration's tallies (won, drawn, lost, byes, Victory Points, its opponents' sums and
its counted matches) are kept up to date as results count (``campaigns/leagues/
tallies.py``). This computes them again from every result of the league, as the
standings do from results, and compares: a difference means something changed results
without going through ``save()`` (an update by hand, a bulk load), and the standings shown
were out of date until rebuilt.
"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from campaigns.leagues import tallies
from campaigns.leagues.models import League


class Command(BaseCommand):
    help = "Check or rebuild the leagues' stored tallies against a full recompute."

    def add_arguments(self, parser) -> None:
        parser.add_argument("leagues", nargs="*", type=int, help="league ids (default: all)")
        parser.add_argument(
            "--check", action="store_true", help="only compare; exit with status 1 on a difference"
        )

    def handle(self, *args, **options) -> None:
        leagues = League.objects.order_by("pk")
        if options["leagues"]:
            leagues = leagues.filter(pk__in=options["leagues"])
            missing = set(options["leagues"]) - set(leagues.values_list("pk", flat=True))
            if missing:
                raise CommandError(f"No league {', '.join(map(str, sorted(missing)))}.")
        wrong_leagues = 0
        for league_id, name in leagues.values_list("pk", "name"):
            if options["check"]:
                wrong = len(tallies.differences(league_id))
            else:
                wrong = tallies.rebuild(league_id)
            if wrong:
                wrong_leagues += 1
                what = "differ" if options["check"] else "rebuilt"
                self.stdout.write(f"League {league_id} ({name}): {wrong} registration(s) {what}.")
        checked = leagues.count()
        self.stdout.write(
            f"{checked} league(s) checked: "
            + (f"{wrong_leagues} with tallies that differed." if wrong_leagues else "all equal.")
        )
        if options["check"] and wrong_leagues:
            raise SystemExit(1)
