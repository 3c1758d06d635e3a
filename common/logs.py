"""Log filters for the site's console handler (gangfight_site/settings.py, LOGGING)."""

from __future__ import annotations

import logging


class RefusalsOnOneLine(logging.Filter):
    """A refusal (a request answered 403: a former organiser opening a league's settings)
    is an expected answer, not an error: Django logs it with the PermissionDenied's
    traceback; the handler writes it as one line."""

    def filter(self, record: logging.LogRecord) -> bool:
        if getattr(record, "status_code", None) == 403:
            record.exc_info = None
            record.exc_text = None
        return True
