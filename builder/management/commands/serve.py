"""Set up and serve the app in one go: migrate, load the content, run the dev server."""

import os

from django.core.management import call_command
from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Migrate the database, load the content fixtures and serve at 127.0.0.1:8000."

    def add_arguments(self, parser) -> None:
        parser.add_argument("addrport", nargs="?", default="127.0.0.1:8000")
        parser.add_argument(
            "--noreload", action="store_false", dest="use_reloader", help="No auto-reloader."
        )

    def handle(self, *args, **options) -> None:
        # The auto-reloader runs this command again in a child process: set up once.
        if os.environ.get("RUN_MAIN") != "true":
            call_command("migrate", interactive=False, verbosity=1)
            call_command("load_content", verbosity=1)
        call_command("runserver", options["addrport"], use_reloader=options["use_reloader"])
