"""Django's email settings from the environment (read by gangfight_site/settings.py).

Plain Python: no Django import, so the settings module can use it.

- ``EMAIL_URL``: ``smtp://user:password@host:port`` (STARTTLS when the port is 587 or the
  URL ends ``?tls=1``; default port 25), ``smtps://user:password@host:port`` (TLS from the
  first byte; default port 465), or ``console:`` (mail printed to the log). A user name or
  password with ``@``, ``:`` or ``/`` in it is percent-encoded (``%40``...).
- otherwise ``EMAIL_HOST`` (with ``EMAIL_PORT``, ``EMAIL_HOST_USER``,
  ``EMAIL_HOST_PASSWORD``, ``EMAIL_USE_TLS``, ``EMAIL_USE_SSL``): Django's usual settings,
  sent by SMTP;
- neither: the console backend, which writes every mail to the log (development).

``DEFAULT_FROM_EMAIL`` is the sender of every mail; ``EMAIL_TIMEOUT`` (seconds, default 10)
how long an SMTP server may take before a send fails.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

SMTP = "django.core.mail.backends.smtp.EmailBackend"
CONSOLE = "django.core.mail.backends.console.EmailBackend"
DEFAULT_FROM = "Gangfight <noreply@localhost>"
_TRUE = {"1", "true", "yes", "on"}


class EmailSettingsError(ValueError):
    """The environment's email settings cannot be used (the message says why)."""


def _flag(value: str | None) -> bool:
    return (value or "").strip().lower() in _TRUE


def _port(value: str, name: str) -> int:
    try:
        port = int(value)
    except ValueError:
        raise EmailSettingsError(f"{name} must be a port number, not {value!r}.") from None
    if not 0 < port < 65536:
        raise EmailSettingsError(f"{name} must be a port number, not {value!r}.")
    return port


def parse_email_url(url: str) -> dict[str, Any]:
    """The SMTP settings an ``EMAIL_URL`` stands for."""
    parts = urlsplit(url.strip())
    scheme = parts.scheme.lower()
    if scheme == "console":
        return {"EMAIL_BACKEND": CONSOLE}
    if scheme not in {"smtp", "smtps"}:
        raise EmailSettingsError(
            f"EMAIL_URL must start smtp://, smtps:// or console:, not {scheme or url!r}."
        )
    if not parts.hostname:
        raise EmailSettingsError("EMAIL_URL names no host (smtp://user:password@host:587).")
    try:
        port = parts.port
    except ValueError:
        raise EmailSettingsError("EMAIL_URL's port must be a number.") from None
    ssl = scheme == "smtps"
    port = port or (465 if ssl else 25)
    query = {k.lower(): v[-1] for k, v in parse_qs(parts.query).items()}
    tls = not ssl and (_flag(query.get("tls")) if "tls" in query else port == 587)
    return {
        "EMAIL_BACKEND": SMTP,
        "EMAIL_HOST": parts.hostname,
        "EMAIL_PORT": port,
        "EMAIL_HOST_USER": unquote(parts.username or ""),
        "EMAIL_HOST_PASSWORD": unquote(parts.password or ""),
        "EMAIL_USE_TLS": tls,
        "EMAIL_USE_SSL": ssl,
    }


def email_settings(environ: Mapping[str, str]) -> dict[str, Any]:
    """Every email setting, from ``environ`` (``os.environ``)."""
    url = environ.get("EMAIL_URL", "").strip()
    host = environ.get("EMAIL_HOST", "").strip()
    if url:
        found = parse_email_url(url)
    elif host:
        use_ssl = _flag(environ.get("EMAIL_USE_SSL"))
        use_tls = _flag(environ.get("EMAIL_USE_TLS"))
        if use_ssl and use_tls:
            raise EmailSettingsError("Set EMAIL_USE_TLS or EMAIL_USE_SSL, not both.")
        port = environ.get("EMAIL_PORT", "").strip()
        found = {
            "EMAIL_BACKEND": SMTP,
            "EMAIL_HOST": host,
            "EMAIL_PORT": _port(port, "EMAIL_PORT") if port else (465 if use_ssl else 25),
            "EMAIL_HOST_USER": environ.get("EMAIL_HOST_USER", ""),
            "EMAIL_HOST_PASSWORD": environ.get("EMAIL_HOST_PASSWORD", ""),
            "EMAIL_USE_TLS": use_tls,
            "EMAIL_USE_SSL": use_ssl,
        }
    else:
        found = {"EMAIL_BACKEND": CONSOLE}
    sender = environ.get("DEFAULT_FROM_EMAIL", "").strip() or DEFAULT_FROM
    timeout = environ.get("EMAIL_TIMEOUT", "").strip()
    found["DEFAULT_FROM_EMAIL"] = sender
    found["SERVER_EMAIL"] = sender
    if timeout and not (timeout.isdigit() and int(timeout) > 0):
        raise EmailSettingsError(f"EMAIL_TIMEOUT must be a number of seconds, not {timeout!r}.")
    found["EMAIL_TIMEOUT"] = int(timeout) if timeout else 10
    return found
