"""A page as the tests read it: one meaning each.

``html_of(response)`` is the page's HTML as sent (entities as they are: ``&#x27;``);
``text_of(response)`` the same HTML with its entities decoded, for the words a reader sees
(``O'Neil``), tags still in.
"""

from __future__ import annotations

import html


def html_of(response) -> str:
    return response.content.decode()


def text_of(response) -> str:
    return html.unescape(response.content.decode())
