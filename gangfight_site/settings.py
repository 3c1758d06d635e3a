"""Settings for Gangfight, read from the environment.

- ``DATABASE_URL``: any URL dj-database-url understands; default an SQLite file in the
  project (``db.sqlite3``, ignored by git).
- ``DEBUG``: on by default for ``manage.py`` and tests; ``wsgi.py`` turns it off by
  default, so a production server is never in debug mode by accident.
- ``SECRET_KEY``: required when ``DEBUG`` is off; a development key is used otherwise.
- ``ALLOWED_HOSTS``: comma-separated; default localhost only.
- ``REDIS_URL``: a Redis server for the default cache (log-in throttling counts there, so
  every worker process sees the same counts); default a cache in each process's memory.
  With it, the PDF cache is in Redis too and background work goes to Celery
  (``BACKGROUND_TASKS``, ``PDF_PRERENDER_DELAY``, ``SITE_URL``: see the README).
- ``LOGIN_FAILURES_PER_ACCOUNT``, ``LOGIN_FAILURES_PER_ADDRESS``, ``LOGIN_FAILURE_WINDOW``
  (seconds): log-in throttling (common/throttle.py).
- ``TRUSTED_PROXIES``: the reverse proxies in front (addresses or networks, comma-separated):
  only a request from one of them may say who the client is (``X-Forwarded-For``) or that
  it came over HTTPS (``X-Forwarded-Proto``).
- ``SITE_URL``: the site's address as its users reach it; every link in mail and PDFs is
  made from it. Required when ``DEBUG`` is off.
- ``CONTENT_SECURITY_POLICY``, ``CSP_REPORT_ONLY``, ``PERMISSIONS_POLICY``: the security
  headers every response carries (gangfight_site/middleware.py).
- ``EMAIL_URL`` (``smtp://user:password@host:587``, ``smtps://...`` for SSL) or Django's
  usual ``EMAIL_HOST``, ``EMAIL_PORT``, ``EMAIL_HOST_USER``, ``EMAIL_HOST_PASSWORD``,
  ``EMAIL_USE_TLS``/``EMAIL_USE_SSL``; ``DEFAULT_FROM_EMAIL``, ``EMAIL_TIMEOUT``: how mail
  (password resets, address confirmations, notices) is sent (accounts/mail_settings.py);
  with none of them, mail is printed to the console.
"""

import importlib.util
import ipaddress
import os
import warnings
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from accounts.mail_settings import EmailSettingsError, email_settings

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_int(name: str, default: int) -> int:
    value = os.environ.get(name, "").strip()
    if not value:
        return default
    try:
        return int(value)
    except ValueError as error:
        raise ImproperlyConfigured(f"{name} must be a whole number, not {value!r}.") from error


def env_list(name: str, default: list[str]) -> list[str]:
    value = os.environ.get(name, "")
    items = [v.strip() for v in value.split(",") if v.strip()]
    return items or default


DEBUG = env_bool("DEBUG", True)

SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("Set SECRET_KEY in the environment when DEBUG is off.")
    SECRET_KEY = "django-insecure-development-only-key-do-not-use-in-production"

# The site's address as its users reach it (https://gangfight.example.org): every link in
# mail and in PDFs is made from it, never from a request's Host (which an attacker picks,
# port included: ALLOWED_HOSTS ignores the port). Required in production, like SECRET_KEY.
SITE_URL = os.environ.get("SITE_URL", "").strip().rstrip("/")
if not SITE_URL and not DEBUG:
    raise ImproperlyConfigured(
        "Set SITE_URL in the environment when DEBUG is off (the site's address as its users "
        "reach it, e.g. https://gangfight.example.org): links in mail and PDFs are made from it."
    )

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "template_partials",
    "common",  # below every app: site-wide template tags, names (common/apps.py)
    "builder",
    "campaigns",
    "campaigns.leagues",
    "accounts",
    "notifications",
    "play",
    "gangfight_site.apps.SiteConfig",  # our own check --deploy checks (checks.py)
]

MIDDLEWARE = [
    # X-Forwarded-* believed only from TRUSTED_PROXIES (dropped from anyone else's request)
    "common.proxies.ProxyHeadersMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "gangfight_site.middleware.SecurityHeadersMiddleware",
    "gangfight_site.middleware.DatabaseOutageMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # The language: the cookie set by the header's switcher, else Accept-Language, else
    # English; no prefix in URLs (accounts/language.py).
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # What the service worker may keep offline, per user; logging out clears it (issue 29)
    "common.offline.OfflineMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
]

ROOT_URLCONF = "gangfight_site.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "OPTIONS": {
            # Each game's editor keeps its templates in its own package (builder/editors/).
            # (template_partials' loader outside, as it sets itself up when none is given)
            "loaders": [
                (
                    "template_partials.loader.Loader",
                    [
                        (
                            "django.template.loaders.cached.Loader",
                            [
                                "django.template.loaders.filesystem.Loader",
                                "django.template.loaders.app_directories.Loader",
                                "builder.editors.TemplateLoader",
                            ],
                        )
                    ],
                )
            ],
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "notifications.context.waiting",
            ],
        },
    },
]

WSGI_APPLICATION = "gangfight_site.wsgi.application"

DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL") or f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=600,
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # One file, no server: persistent connections buy nothing. IMMEDIATE transactions
    # take the write lock at the start, so concurrent changes queue instead of failing.
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    DATABASES["default"].setdefault("OPTIONS", {})
    DATABASES["default"]["OPTIONS"].update({"transaction_mode": "IMMEDIATE", "timeout": 20})

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"  # what waits on the user
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = "en-gb"
# English is the default; French is the second language (locale/fr, committed compiled).
# "en-gb", not "en": English pages keep British dates (24 Nov 2026) under LocaleMiddleware.
LANGUAGES = [("en-gb", "English"), ("fr", "Français")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATICFILES_FINDERS = [
    "django.contrib.staticfiles.finders.FileSystemFinder",
    "django.contrib.staticfiles.finders.AppDirectoriesFinder",
    # each game's editor keeps its stylesheet in its own package (builder/editors/)
    "builder.editors.StaticFinder",
]
STATIC_ROOT = BASE_DIR / "staticfiles"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}
WHITENOISE_USE_FINDERS = DEBUG
# In development static files come from the finders; staticfiles/ exists only once
# collectstatic has run, and WhiteNoise need not say so on every start.
warnings.filterwarnings("ignore", message="No directory at")

# Where the PDF renderer may read fonts, images and print CSS from; nothing else.
PDF_STATIC_DIR = BASE_DIR / "static"
# A render that takes longer than this is stopped, and the user told so.
PDF_TIMEOUT_SECONDS = float(os.environ.get("PDF_TIMEOUT_SECONDS", "20"))
# Finished PDFs, keyed by what they were made from (the gang's version and roster), so a
# second download is immediate. On disk so every worker process shares it.
PDF_CACHE_DIR = Path(os.environ.get("PDF_CACHE_DIR", BASE_DIR / "var" / "pdf-cache"))
# The render gate (builder/pdf_gate.py): renders at once on this machine (default one
# fewer than the CPUs, at least one), how long a request waits for a place, and where the
# places' lock files are.
PDF_RENDERS = env_int("PDF_RENDERS", max(1, (os.cpu_count() or 2) - 1))
PDF_WAIT_SECONDS = float(os.environ.get("PDF_WAIT_SECONDS", "0.5"))
if os.environ.get("PDF_LOCK_DIR"):
    PDF_LOCK_DIR = Path(os.environ["PDF_LOCK_DIR"])
REDIS_URL = os.environ.get("REDIS_URL", "").strip()
if REDIS_URL and importlib.util.find_spec("redis") is None:
    raise ImproperlyConfigured("REDIS_URL is set but the redis package is not installed.")
# Background work (common/background.py): "celery" (a worker, Redis as the broker)
# when REDIS_URL is set, else "thread" (a thread in each app process); "record" in tests.
BACKGROUND_TASKS = os.environ.get("BACKGROUND_TASKS", "").strip() or (
    "celery" if REDIS_URL else "thread"
)
# A gang's PDFs are made ahead this long (seconds) after its last change settles.
PDF_PRERENDER_DELAY = float(os.environ.get("PDF_PRERENDER_DELAY", "2"))
# Card PDFs laid out in two processes at once (on by default with two CPUs or more), and
# WeasyPrint loaded when a server process starts (builder/printing/).
PDF_PARALLEL = env_bool("PDF_PARALLEL", (os.cpu_count() or 1) >= 2)
PDF_WARM_UP = env_bool("PDF_WARM_UP", True)
# How long a finished PDF is kept (its key has the day's date: it is of no use the next
# day), how many of one gang's PDFs (all of its latest version: papers, kinds, single
# cards) and how many cards' fits (a Redis PDF cache only: the file cache has MAX_ENTRIES).
PDF_CACHE_SECONDS = env_int("PDF_CACHE_SECONDS", 24 * 3600)
PDF_CACHE_PER_GANG = env_int("PDF_CACHE_PER_GANG", 24)
PDF_FIT_ENTRIES = env_int("PDF_FIT_ENTRIES", 5000)
PDF_FIT_SECONDS = env_int("PDF_FIT_SECONDS", 7 * 24 * 3600)
CACHES = {
    "default": (
        {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL}
        if REDIS_URL
        else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    ),
    # Finished PDFs and cards' fits: in Redis when there is one (every app server and the
    # Celery worker share it), else in files (every worker process of this machine does).
    "pdf": (
        {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": "pdf",
            "TIMEOUT": PDF_CACHE_SECONDS,
        }
        if REDIS_URL
        else {
            "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
            "LOCATION": str(PDF_CACHE_DIR),
            "TIMEOUT": PDF_CACHE_SECONDS,
            "OPTIONS": {"MAX_ENTRIES": 2000},
        }
    ),
}

SESSION_COOKIE_HTTPONLY = True
CSRF_COOKIE_HTTPONLY = False  # htmx reads the token from the page, not the cookie
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
if not DEBUG:
    # (believed only from TRUSTED_PROXIES: ProxyHeadersMiddleware drops it from others)
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SESSION_COOKIE_SECURE = env_bool("SECURE_COOKIES", True)
    CSRF_COOKIE_SECURE = env_bool("SECURE_COOKIES", True)
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", False)
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "0"))

# Log-in throttling (common/throttle.py). Attempts are counted in the default cache
# per account (the username as typed, case-folded) and per client address (an IPv6 address
# by its /64); past a limit the form says how long to wait and no password is checked
# until the window, which starts at the first counted attempt, is over. A successful
# log-in clears the account's count. 0 turns a limit off.
LOGIN_FAILURES_PER_ACCOUNT = env_int("LOGIN_FAILURES_PER_ACCOUNT", 5)
LOGIN_FAILURES_PER_ADDRESS = env_int("LOGIN_FAILURES_PER_ADDRESS", 20)
LOGIN_FAILURE_WINDOW = env_int("LOGIN_FAILURE_WINDOW", 15 * 60)  # seconds
# The client's address is REMOTE_ADDR, unless the request comes from one of the reverse
# proxies named here (addresses or networks): then it is the last address in
# X-Forwarded-For that is not one of them. Only the hops the operator names are believed.
TRUSTED_PROXIES = env_list("TRUSTED_PROXIES", [])
for _proxy in TRUSTED_PROXIES:
    try:
        ipaddress.ip_network(_proxy, strict=False)
    except ValueError:
        raise ImproperlyConfigured(
            f"TRUSTED_PROXIES: {_proxy!r} is not an IP address or network (e.g. 127.0.0.1 or "
            "10.0.0.0/8); name the proxy by its address."
        ) from None
# The yes/no flag it replaces: `check --deploy` refuses it (gangfight_site/checks.py).
TRUST_X_FORWARDED_FOR = env_bool("TRUST_X_FORWARDED_FOR", False)
# A browser that logged in to an account carries a signed cookie saying so, for this many
# days: its right password is never refused by the account's limit (throttle.py).
LOGIN_DEVICE_DAYS = env_int("LOGIN_DEVICE_DAYS", 365)
# How long a log-in link mailed to an account past its limit works (seconds).
LOGIN_LINK_SECONDS = env_int("LOGIN_LINK_SECONDS", 15 * 60)

# Email (accounts/mail_settings.py): SMTP from EMAIL_URL or EMAIL_HOST..., else the console.
try:
    _email = email_settings(os.environ)
except EmailSettingsError as error:
    raise ImproperlyConfigured(str(error)) from error
EMAIL_BACKEND = _email["EMAIL_BACKEND"]
EMAIL_HOST = _email.get("EMAIL_HOST", "localhost")
EMAIL_PORT = _email.get("EMAIL_PORT", 25)
EMAIL_HOST_USER = _email.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = _email.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = _email.get("EMAIL_USE_TLS", False)
EMAIL_USE_SSL = _email.get("EMAIL_USE_SSL", False)
EMAIL_TIMEOUT = _email["EMAIL_TIMEOUT"]
DEFAULT_FROM_EMAIL = _email["DEFAULT_FROM_EMAIL"]
SERVER_EMAIL = _email["SERVER_EMAIL"]
# How long an email address confirmation link (accounts/) stays good, in seconds.
EMAIL_CONFIRMATION_SECONDS = env_int("EMAIL_CONFIRMATION_SECONDS", 3 * 24 * 3600)
# What waits on a user (notifications/): changes within this many seconds go out as one
# mail; the header's count is recomputed at least this often (seconds).
NOTIFICATIONS_BATCH_SECONDS = env_int("NOTIFICATIONS_BATCH_SECONDS", 300)
# ... but a mail leaves at most this many seconds after the first change not mailed yet,
# however busy a league keeps everyone's window (never less than the batch window).
NOTIFICATIONS_MAX_WAIT_SECONDS = env_int("NOTIFICATIONS_MAX_WAIT_SECONDS", 600)
NOTIFICATIONS_COUNT_SECONDS = env_int("NOTIFICATIONS_COUNT_SECONDS", 300)
# Play mode: the most taps one game keeps (each tap replays the whole log).
PLAY_MAX_TAPS = env_int("PLAY_MAX_TAPS", 1000)

# Security headers (gangfight_site/middleware.py). No inline scripts anywhere; style
# attributes are still used by a few templates, hence 'unsafe-inline' for styles only.
CONTENT_SECURITY_POLICY = os.environ.get("CONTENT_SECURITY_POLICY", "").strip() or "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data:",
        "font-src 'self'",
        "connect-src 'self'",
        # the service worker (/sw.js) and the web app manifest (common/offline.py)
        "worker-src 'self'",
        "manifest-src 'self'",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)
# Send the policy as Content-Security-Policy-Report-Only: the browser reports, blocks nothing.
CSP_REPORT_ONLY = env_bool("CSP_REPORT_ONLY", False)
PERMISSIONS_POLICY = os.environ.get("PERMISSIONS_POLICY", "").strip() or ", ".join(
    f"{feature}=()"
    for feature in [
        "accelerometer",
        "autoplay",
        "camera",
        "display-capture",
        "geolocation",
        "gyroscope",
        "hid",
        "idle-detection",
        "magnetometer",
        "microphone",
        "midi",
        "payment",
        "publickey-credentials-get",
        "screen-wake-lock",
        "serial",
        "usb",
        "xr-spatial-tracking",
    ]
)

# One console handler. Django's own "django" logger is given it too and does not pass
# its records on to the root's (with DEBUG on, Django's default console handler and the
# root's wrote every record twice); a refusal (403) is an expected answer: one line, no
# traceback (common/logs.py).
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"refusals": {"()": "common.logs.RefusalsOnOneLine"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "filters": ["refusals"]}},
    "root": {"handlers": ["console"], "level": "WARNING"},
    "loggers": {
        "django": {"handlers": ["console"], "level": "WARNING", "propagate": False},
        "weasyprint": {"level": "ERROR"},
        "fontTools": {"level": "ERROR"},
    },
}
