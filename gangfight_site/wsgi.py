"""WSGI entry point (gunicorn gangfight_site.wsgi). Debug is off unless asked for."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "gangfight_site.settings")
os.environ.setdefault("DEBUG", "0")

application = get_wsgi_application()

from gangfight_site.checks import refuse_misconfiguration  # noqa: E402
from gangfight_site.startup import settle  # noqa: E402  (needs the app loaded)

refuse_misconfiguration()  # SITE_URL, the proxies, Redis's memory policy (checks.py)
settle()
