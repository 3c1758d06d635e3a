"""What the PDF cache keeps, bounded: it may be the Redis that also holds the Celery queue
and the log-in counts, and a builder change costs about 70 KB of PDFs made ahead.

- **Finished PDFs** are kept per *owner* (a gang: ``gang:12``; a campaign gang, a
  chronicle): only the latest version's (a newer version's first PDF drops the older
  version's), at most ``PDF_CACHE_PER_GANG`` of them (papers, kinds, single cards), each
  for ``PDF_CACHE_SECONDS`` (a day: the footer's date is in every key, so a PDF is of no
  use the next day anyway). The owner's index (its version and keys) expires with them.
  An owner without versions (a campaign's prints) keeps its latest ``PDF_CACHE_PER_GANG``.
- **Cards' fits** (``fit:``, ``guess:`` keys: how a card's text was cut, reused by the
  next layout of the same card) expire after ``PDF_FIT_SECONDS``; in Redis at most
  ``PDF_FIT_ENTRIES`` are kept, the oldest dropped first (a sorted set of their keys by
  time written). The file cache (without Redis) keeps its own bound, ``MAX_ENTRIES``.

Nothing here is needed for a PDF to be right: an entry dropped early only costs a render
or a layout. Two workers storing one gang's PDFs at the same moment may leave a key out of
its index; it then goes with its expiry.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.core.cache import caches
from django.core.cache.backends.redis import RedisCache

FIT_INDEX = "fit-index"


def _cache():
    return caches["pdf"]


def _seconds(name: str, default: int) -> int:
    return max(1, int(getattr(settings, name, default)))


def store_pdf(key: str, content: bytes, owner: str | None = None, version: Any = None) -> None:
    """Keep a finished PDF: with an ``owner``, only its latest ``version``'s are kept."""
    cache = _cache()
    ttl = _seconds("PDF_CACHE_SECONDS", 24 * 3600)
    if owner is None:
        with contextlib.suppress(OSError):
            cache.set(key, content, timeout=ttl)
        return
    index_key = f"pdf-index:{owner}"
    most = _seconds("PDF_CACHE_PER_GANG", 24)
    with contextlib.suppress(OSError, ValueError, TypeError):
        index = cache.get(index_key) or {}
        kept_version, keys = index.get("version"), list(index.get("keys") or [])
        if version is not None and kept_version is not None and version < kept_version:
            return  # an older version, finished late: nobody will ask for it again
        if version != kept_version:
            cache.delete_many(keys)  # a newer version: the older one's PDFs go
            keys = []
        keys = [k for k in keys if k != key] + [key]
        if len(keys) > most:
            cache.delete_many(keys[:-most])
            keys = keys[-most:]
        cache.set(key, content, timeout=ttl)
        cache.set(index_key, {"version": version, "keys": keys}, timeout=ttl)


def remember_fits(entries: Mapping[str, Any]) -> None:
    """Keep cards' fits, for ``PDF_FIT_SECONDS``; in Redis, the latest ``PDF_FIT_ENTRIES``."""
    if not entries:
        return
    cache = _cache()
    ttl = _seconds("PDF_FIT_SECONDS", 7 * 24 * 3600)
    with contextlib.suppress(OSError):
        cache.set_many(dict(entries), timeout=ttl)
    if isinstance(cache, RedisCache):
        with contextlib.suppress(Exception):  # a bound not kept this once is no error
            _bound_in_redis(cache, list(entries), ttl)


def _bound_in_redis(cache: RedisCache, keys: list[str], ttl: int) -> None:
    most = _seconds("PDF_FIT_ENTRIES", 5000)
    client = cache._cache.get_client(write=True)
    index = cache.make_and_validate_key(FIT_INDEX)
    now = time.time()
    pipe = client.pipeline()
    pipe.zadd(index, {cache.make_and_validate_key(k): now for k in keys})
    pipe.zcard(index)
    pipe.expire(index, ttl)
    _added, count, _ = pipe.execute()
    if count > most:
        oldest = client.zrange(index, 0, count - most - 1)
        if oldest:
            client.delete(*oldest)
            client.zrem(index, *oldest)
