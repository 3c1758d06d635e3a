"""Our own checks for ``manage.py check --deploy`` (and for a server's start: wsgi.py runs
them and refuses to start on an error), so a misconfiguration is an error at start, not a
lockout, a bent link or a full Redis later (issue 27):

- ``SITE_URL`` is set, is an http(s) address, and its host is one ``ALLOWED_HOSTS``
  lets in (every link in mail and PDFs is made from it: common/links.py);
- the proxy settings are coherent: ``TRUSTED_PROXIES`` names proxies, not the internet;
  the old yes/no ``TRUST_X_FORWARDED_FOR`` is gone; an HTTPS redirect needs the proxy
  that says a request came over HTTPS to be named;
- Redis (``REDIS_URL``) evicts only keys that expire (``volatile-*``), under a
  ``maxmemory``: an ``allkeys-*`` policy would drop the Celery queue and the log-in
  counts; no bound, or ``noeviction``, lets a full Redis refuse them instead.
"""

from __future__ import annotations

import ipaddress
from urllib.parse import urlsplit

from django.conf import settings
from django.core import checks
from django.core.exceptions import ImproperlyConfigured
from django.http.request import split_domain_port, validate_host

TAG = "gangfight"


@checks.register(TAG, deploy=True)
def site_url(app_configs=None, **kwargs) -> list[checks.CheckMessage]:
    configured = (getattr(settings, "SITE_URL", "") or "").strip()
    if not configured:
        return [
            checks.Error(
                "SITE_URL is not set: links in mail and PDFs would have no trustworthy address.",
                hint="Set SITE_URL to the site's address as users reach it, e.g. "
                "https://gangfight.example.org (README, Production).",
                id="gangfight.E001",
            )
        ]
    parts = urlsplit(configured)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return [
            checks.Error(
                f"SITE_URL {configured!r} is not an address with a scheme and a host.",
                hint="Write it in full: https://gangfight.example.org",
                id="gangfight.E002",
            )
        ]
    found: list[checks.CheckMessage] = []
    host, _port = split_domain_port(parts.netloc.lower())
    if not validate_host(host, settings.ALLOWED_HOSTS):
        found.append(
            checks.Error(
                f"SITE_URL's host {host!r} is not in ALLOWED_HOSTS: its own links would be "
                "refused.",
                hint="Add it to ALLOWED_HOSTS, or correct SITE_URL.",
                id="gangfight.E003",
            )
        )
    if parts.scheme == "http" and not settings.DEBUG:
        found.append(
            checks.Warning(
                "SITE_URL is http://: links in mail (password resets) go over plain HTTP.",
                hint="Serve the site over HTTPS and write SITE_URL with https://.",
                id="gangfight.W004",
            )
        )
    return found


@checks.register(TAG, deploy=True)
def proxies(app_configs=None, **kwargs) -> list[checks.CheckMessage]:
    from common.proxies import too_wide

    found: list[checks.CheckMessage] = []
    if getattr(settings, "TRUST_X_FORWARDED_FOR", False):
        found.append(
            checks.Error(
                "TRUST_X_FORWARDED_FOR is gone: a yes/no flag believes X-Forwarded-For from "
                "anyone who reaches the app.",
                hint="Unset it and set TRUSTED_PROXIES to the proxy's address, e.g. "
                "TRUSTED_PROXIES=127.0.0.1 (README, Production).",
                id="gangfight.E010",
            )
        )
    for named in getattr(settings, "TRUSTED_PROXIES", []) or []:
        try:
            network = ipaddress.ip_network(named.strip(), strict=False)
        except ValueError:
            found.append(
                checks.Error(
                    f"TRUSTED_PROXIES: {named!r} is not an IP address or network.",
                    id="gangfight.E012",
                )
            )
            continue
        if too_wide(network):
            found.append(
                checks.Error(
                    f"TRUSTED_PROXIES names {named}: that trusts nearly every client to say "
                    "who it is, and anyone could escape the log-in limits.",
                    hint="Name only your reverse proxy's address (or its small network).",
                    id="gangfight.E011",
                )
            )
    if getattr(settings, "SECURE_SSL_REDIRECT", False) and not getattr(
        settings, "TRUSTED_PROXIES", []
    ):
        found.append(
            checks.Warning(
                "SECURE_SSL_REDIRECT is on but no TRUSTED_PROXIES is named: behind a TLS "
                "proxy the app never believes X-Forwarded-Proto and redirects for ever.",
                hint="Name the proxy in TRUSTED_PROXIES (unless gunicorn itself serves TLS).",
                id="gangfight.W013",
            )
        )
    return found


@checks.register(TAG, deploy=True)
def redis_memory(app_configs=None, **kwargs) -> list[checks.CheckMessage]:
    url = getattr(settings, "REDIS_URL", "")
    if not url:
        return []
    try:
        import redis

        client = redis.Redis.from_url(url, socket_connect_timeout=2, socket_timeout=2)
        policy = str(client.config_get("maxmemory-policy").get("maxmemory-policy", ""))
        maxmemory = int(client.config_get("maxmemory").get("maxmemory", 0) or 0)
    except Exception as error:  # unreachable, or CONFIG is not allowed (a managed Redis)
        return [
            checks.Warning(
                f"Could not read Redis's memory policy ({error}).",
                hint="Make sure Redis has maxmemory set and maxmemory-policy volatile-lru "
                "(README, Production).",
                id="gangfight.W023",
            )
        ]
    if policy.startswith("allkeys-"):
        return [
            checks.Error(
                f"Redis's maxmemory-policy is {policy}: when full it would evict the Celery "
                "queue and the log-in counts, not only the caches.",
                hint="Set maxmemory-policy volatile-lru (every cache key we write expires).",
                id="gangfight.E020",
            )
        ]
    found: list[checks.CheckMessage] = []
    if not maxmemory:
        found.append(
            checks.Warning(
                "Redis has no maxmemory: nothing bounds it but the machine's memory.",
                hint="Set maxmemory (README, Production, says how much) and "
                "maxmemory-policy volatile-lru.",
                id="gangfight.W021",
            )
        )
    if policy == "noeviction":
        found.append(
            checks.Warning(
                "Redis's maxmemory-policy is noeviction: when full it refuses every write, "
                "the Celery queue's and the log-in counts' too.",
                hint="Set maxmemory-policy volatile-lru: only keys that expire (caches) go.",
                id="gangfight.W022",
            )
        )
    return found


def refuse_misconfiguration() -> None:
    """At a production server's start (wsgi.py, DEBUG off): stop on any of our checks'
    errors. (``manage.py serve`` in development, DEBUG on, is not held to them.)"""
    if settings.DEBUG:
        return
    found = checks.run_checks(tags=[TAG], include_deployment_checks=True)
    errors = [m for m in found if m.level >= checks.ERROR]
    if errors:
        raise ImproperlyConfigured(
            "Gangfight will not start: " + " ".join(f"{m.id}: {m.msg}" for m in errors)
        )
