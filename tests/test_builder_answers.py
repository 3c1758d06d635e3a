"""An htmx answer carries what changed and leaves out what the page already shows as it is.

The page tells the server which version it shows and who is open there
(``X-Builder-Version``, ``X-Builder-Open``). Rows are compared with the rows of that
version; the other parts (``{% keep %}``) with what was drawn for that version. A part left
out is an empty element with ``data-keep``, which the page keeps as it is."""

from __future__ import annotations

import re

from django.urls import reverse

from builder.models import Gang, Member

HX = {"HTTP_HX_REQUEST": "true"}


def shown(gang: Gang, member: Member | None) -> dict[str, str]:
    gang.refresh_from_db()
    return {
        "HTTP_X_BUILDER_VERSION": str(gang.version),
        "HTTP_X_BUILDER_OPEN": str(member.pk) if member else "",
    }


def kept(html: str) -> set[str]:
    return set(re.findall(r'id="([^"]+)" data-keep', html))


def point(client, gang: Gang, member: Member, change: str, **headers):
    url = reverse("member_action", args=[gang.pk, member.pk, "points"])
    data = {f"m{member.pk}-points-change": change, "open": member.pk}
    return client.post(url, data, **HX, **headers)


def members(gang: Gang) -> list[Member]:
    return list(gang.members.order_by("position"))


def test_a_change_leaves_out_what_did_not_change(owner_client, gang):
    leader, *others = members(gang)
    page = reverse("gang_detail", args=[gang.pk])
    owner_client.get(page, {"open": leader.pk})  # the page as the player sees it
    before = re.search(
        r'id="id_m\d+-points-mc" value="(\d)"',
        owner_client.get(page, {"open": leader.pk}).content.decode(),
    ).group(1)
    response = point(owner_client, gang, leader, "mc:-", **shown(gang, leader))
    html = response.content.decode()
    left_out = kept(html)
    # Other members' rows, and parts a point never changes, stay as the page has them.
    assert {f"member-{m.pk}" for m in others} <= left_out
    assert {"settings", "packs", "bar-print", "roster-add"} <= left_out
    # What changed is drawn: the member's row (its MC) and its panel (its points).
    assert f"member-{leader.pk}" not in left_out and "member-panel" not in left_out
    assert re.search(rf'<li class="roster-row is-open[^"]*" id="member-{leader.pk}"', html)
    assert f'id="id_m{leader.pk}-points-mc" value="{int(before) - 1}"' in html


def test_findings_are_drawn_again_only_when_they_change(owner_client, gang):
    leader = members(gang)[0]
    page = reverse("gang_detail", args=[gang.pk])
    owner_client.get(page, {"open": leader.pk})
    # Taking a point off: a point is left to spend, a new warning: findings drawn.
    html = point(owner_client, gang, leader, "mc:-", **shown(gang, leader)).content.decode()
    assert "findings" not in kept(html)
    assert 'data-code="bwg1.points_unspent"' in html
    # Opening another member changes no finding: they stay as the page has them.
    other = members(gang)[1]
    html = owner_client.get(page, {"open": other.pk}, **HX, **shown(gang, leader)).content.decode()
    assert "findings" in kept(html) and 'data-code="bwg1.points_unspent"' not in html
    assert f"member-{leader.pk}" not in kept(html)  # it closed: its row is drawn again


def test_a_page_that_says_nothing_or_shows_another_version_gets_everything(owner_client, gang):
    henchman = members(gang)[1]
    page = reverse("gang_detail", args=[gang.pk])
    owner_client.get(page, {"open": henchman.pk})
    headers = shown(gang, henchman)
    assert kept(point(owner_client, gang, henchman, "str:+").content.decode()) == set()
    stale = {**headers, "HTTP_X_BUILDER_VERSION": "1"}
    assert kept(point(owner_client, gang, henchman, "str:-", **stale).content.decode()) == set()
    garbage = {**headers, "HTTP_X_BUILDER_VERSION": "not a number"}
    response = point(owner_client, gang, henchman, "str:+", **garbage)
    assert response.status_code == 200 and kept(response.content.decode()) == set()


def test_a_refused_change_is_drawn_with_its_error(owner_client, gang):
    leader = members(gang)[0]
    page = reverse("gang_detail", args=[gang.pk])
    owner_client.get(page, {"open": leader.pk})
    response = point(owner_client, gang, leader, "str:+", **shown(gang, leader))  # none left
    html = response.content.decode()
    assert response.status_code == 200
    assert "No attribute points left" in html and "member-panel" not in kept(html)
    assert f"member-{leader.pk}" in kept(html)  # nothing changed in the roster


def test_a_plain_page_is_whole(owner_client, gang):
    leader = members(gang)[0]
    html = owner_client.get(reverse("gang_detail", args=[gang.pk]), {"open": leader.pk})
    assert "data-keep" not in html.content.decode()
