"""ASGI entry point. Debug is off unless asked for."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "gangfight_site.settings")
os.environ.setdefault("DEBUG", "0")

application = get_asgi_application()
