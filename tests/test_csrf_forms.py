"""Every form that posts carries its CSRF token, on every page a visitor, a player and an
organiser reach (the crawl of tests/test_i18n_pages.py, by a client that enforces CSRF
checks as a browser meets them): a form without one fails for everyone who uses it without
JavaScript, and for everyone after a template change drops it (the account deletion
form's token was removed once and no test noticed)."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest
from django.test import Client
from django.urls import reverse

from tests.test_i18n_pages import crawl, pair_round, seeded, start_encounter  # noqa: F401


class Forms(HTMLParser):
    """The page's forms that post: (action, whether a csrfmiddlewaretoken field is in it)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.forms: list[list] = []
        self.open: list | None = None

    def handle_starttag(self, tag, attrs):
        values = dict(attrs)
        if tag == "form" and (values.get("method") or "get").lower() == "post":
            self.open = [values.get("action") or "(this page)", False]
            self.forms.append(self.open)
        elif tag == "input" and self.open and values.get("name") == "csrfmiddlewaretoken":
            self.open[1] = bool(values.get("value"))

    def handle_endtag(self, tag):
        if tag == "form":
            self.open = None


def posting_forms(html: str) -> list[list]:
    parser = Forms()
    parser.feed(html)
    return parser.forms


def test_the_check_finds_a_form_without_its_token():
    assert posting_forms('<form method="post" action="/x/"><button>Go</button></form>') == [
        ["/x/", False]
    ]
    assert posting_forms(
        '<form method="POST"><input type="hidden" name="csrfmiddlewaretoken" value="t"></form>'
    ) == [["(this page)", True]]


@pytest.mark.parametrize("role", ["visitor", "player", "organiser"])
def test_every_form_that_posts_carries_its_csrf_token(seeded, role):  # noqa: F811
    start_encounter(seeded)
    pair_round(seeded)
    client = Client(enforce_csrf_checks=True)
    starts = ["/", reverse("rules"), reverse("league_public", args=[seeded.league.public_token])]
    if role == "visitor":
        starts += [reverse("login"), reverse("signup"), reverse("password_reset")]
    else:
        client.force_login(seeded.users["olive" if role == "organiser" else "bram"])
        starts += [
            reverse("gang_list"),
            reverse("campaign_list"),
            reverse("club_list"),
            reverse("account"),
            reverse("account_delete"),
            reverse("pack_list"),
            reverse("campaign_detail", args=[seeded.campaign.pk]),
            reverse("league_detail", args=[seeded.league.pk]),
            reverse("league_rounds", args=[seeded.league.pk]),
        ]
    pages = crawl(client, starts)
    forms = {url: posting_forms(html) for url, html in pages.items()}
    assert sum(len(f) for f in forms.values()) >= (3 if role == "visitor" else 40)
    missing = {
        url: [action for action, token in found if not token]
        for url, found in forms.items()
        if any(not token for _action, token in found)
    }
    assert missing == {}, "forms that post without a CSRF token"
