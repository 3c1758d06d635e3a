"""A third phone follows a game read-only through a secret link (issue 29, item 5)."""

# ruff: noqa: F811 (the fixtures are imported from test_play_views)

from __future__ import annotations

import re

from django.urls import reverse

from play.models import Game
from tests.test_play_views import (  # noqa: F401 (fixtures)
    HX,
    encounter,
    own_game,
    people,
    table_url,
    tap,
)


def link_url(game) -> str:
    return reverse("play_watch_link", args=[game.pk])


def watch_url(game) -> str:
    game.refresh_from_db()
    return reverse("play_watch", args=[game.watch_token])


def test_only_a_player_makes_renews_or_stops_the_link(people, own_game):
    assert people.clients["sam"].post(link_url(own_game), {"watch": "on"}).status_code == 404
    response = people.clients["anon"].post(link_url(own_game), {"watch": "on"})
    assert response.status_code == 302 and reverse("login") in response["Location"]
    assert people.clients["alice"].get(link_url(own_game)).status_code == 405  # POST only
    assert Game.objects.get().watch_token == ""
    response = people.clients["alice"].post(link_url(own_game), {"watch": "on"})
    assert response["Location"] == table_url(own_game) + "?watch=1#watch"
    first = Game.objects.get().watch_token
    assert len(first) >= 40
    page = people.clients["alice"].get(table_url(own_game) + "?watch=1").content.decode()
    assert f"/play/watch/{first}/" in page and 'id="watch" open' in page
    people.clients["alice"].post(link_url(own_game), {"watch": "new"})
    assert people.clients["anon"].get(f"/play/watch/{first}/").status_code == 404  # stopped
    second = watch_url(own_game)
    assert people.clients["anon"].get(second).status_code == 200
    people.clients["alice"].post(link_url(own_game), {"watch": "off"})
    assert people.clients["anon"].get(second).status_code == 404
    assert people.clients["anon"].get("/play/watch/x/").status_code == 404


def test_anyone_with_the_link_follows_the_table_read_only(people, encounter):
    alice = people.clients["alice"]
    alice.post(reverse("play_start_encounter", args=[encounter.campaign.pk, encounter.id]))
    game = Game.objects.get()
    alice.post(link_url(game), {"watch": "on"})
    tap(alice, game, "wound/2", member="b/2", by="a/2")
    url = watch_url(game)
    for viewer in ("anon", "sam", "bob"):
        response = people.clients[viewer].get(url)
        page = response.content.decode()
        assert response.status_code == 200 and response["X-Robots-Tag"] == "noindex"
        assert "Sarah wounded James: 2 actions lost." in page
        table = page.split('id="watch-root"')[1].split("</main>")[0]
        assert "<form" not in table and "<button" not in table  # no control at all
        assert 'name="do"' not in page and response["Referrer-Policy"] == "no-referrer"
        assert re.search(r'data-testid="value-actions">2<', page)  # James: 2 of 4 left
    # the poll: nothing new, 204; a tap, the partial
    anon = people.clients["anon"]
    assert anon.get(url, {"v": 1}, **HX).status_code == 204
    tap(alice, game, "status/dead", member="b/2", by="a/2")
    response = anon.get(url, {"v": 1}, **HX)
    assert response.status_code == 200 and "<html" not in response.content.decode()
    assert "killed, by Sarah" in response.content.decode()


def test_the_link_is_escaped_and_names_nothing_private(people, own_game):
    from builder.models import Gang

    Gang.objects.filter(pk=own_game.gang_id).update(name="<script>x</script>")
    people.clients["alice"].post(link_url(own_game), {"watch": "on"})
    page = people.clients["anon"].get(watch_url(own_game)).content.decode()
    assert "<script>x</script>" not in page
