"""The builder's page behaviour, server side (issue 25): Gunfight's "Roll a character" keeps
the type and experience picked; the builder bar names the system as everywhere else; a
removed member comes back with Undo, exactly, for its owner only, with or without
JavaScript; and an answer to a page that shows an older version draws every row again."""

from __future__ import annotations

import random
import re

import pytest
from django.test import Client
from django.urls import reverse

from builder import services
from builder.editors import gunfight as gunfight_editor
from builder.models import Gang, Member
from rules import all_systems

HX = {"HTTP_HX_REQUEST": "true"}


def page_of(client: Client, gang: Gang, **query) -> str:
    response = client.get(reverse("gang_detail", args=[gang.pk]), query)
    assert response.status_code == 200
    return response.content.decode()


def selected(html: str, name: str) -> str:
    """The value a select of the page shows (its selected option, else its first)."""
    select = re.search(rf'<select name="{re.escape(name)}"[^>]*>(.*?)</select>', html, re.S)
    assert select, f"no select {name}"
    chosen = re.search(r'<option value="([^"]*)"[^>]*\bselected\b', select.group(1))
    first = re.search(r'<option value="([^"]*)"', select.group(1))
    return (chosen or first).group(1)


def shown(gang: Gang, member: Member | None = None) -> dict[str, str]:
    """The headers of a page that shows the gang as it is now (with ``member`` open)."""
    gang.refresh_from_db()
    return {
        "HTTP_X_BUILDER_VERSION": str(gang.version),
        "HTTP_X_BUILDER_OPEN": str(member.pk) if member else "",
    }


def kept(html: str) -> set[str]:
    return set(re.findall(r'id="([^"]+)" data-keep', html))


# --------------------------------------------------------------------------- Gunfight's roll


@pytest.fixture
def seeded_dice(monkeypatch):
    monkeypatch.setattr(gunfight_editor, "random_source", lambda: random.Random(25))


@pytest.fixture
def side(owner, content) -> Gang:
    return services.create_gang(owner, system="gunfight", name="Reno Gang", limit=None)


def roll_as_shown(client: Client, gang: Gang, html: str, **extra):
    """Press Roll with the type and experience the page shows."""
    data = {
        "roll-character_type": selected(html, "roll-character_type"),
        "roll-experience": selected(html, "roll-experience"),
    }
    return client.post(reverse("gang_action", args=[gang.pk, "roll"]), data, **extra)


def test_rolling_keeps_the_type_and_experience_picked(owner_client, side, seeded_dice):
    html = page_of(owner_client, side)
    assert (selected(html, "roll-character_type"), selected(html, "roll-experience")) == (
        "lawman",
        "old_hand",
    )
    # The player picks Outlaw and Veteran, and rolls: the answer shows them still picked.
    data = {"roll-character_type": "outlaw", "roll-experience": "veteran"}
    html = owner_client.post(reverse("gang_action", args=[side.pk, "roll"]), data, **HX)
    html = html.content.decode()
    assert selected(html, "roll-character_type") == "outlaw"
    assert selected(html, "roll-experience") == "veteran"
    # Three more rolls as the page stands: four outlaws, not one outlaw and three lawmen.
    for _ in range(3):
        html = roll_as_shown(owner_client, side, html, **HX).content.decode()
    kinds = [(m.data["character_type"], m.data["experience"]) for m in side.members.all()]
    assert kinds == [("outlaw", "veteran")] * 4
    # A reload, or another change, still shows them; so do the other ways to add.
    html = page_of(owner_client, side)
    assert selected(html, "roll-character_type") == "outlaw"
    assert selected(html, "enter-character_type") == "outlaw"
    assert selected(html, "enter-experience") == "veteran"


def test_rolling_without_javascript_keeps_them_too(owner_client, side, seeded_dice):
    data = {"roll-character_type": "gambler", "roll-experience": "greenhorn"}
    response = owner_client.post(reverse("gang_action", args=[side.pk, "roll"]), data)
    assert response.status_code == 302
    html = owner_client.get(response["Location"]).content.decode()
    assert selected(html, "roll-character_type") == "gambler"
    assert selected(html, "roll-experience") == "greenhorn"
    response = roll_as_shown(owner_client, side, html)
    assert response.status_code == 302
    assert [m.data["character_type"] for m in side.members.all()] == ["gambler", "gambler"]
    # Troopers added in between are no character: the roll still shows the last one's.
    owner_client.post(
        reverse("gang_action", args=[side.pk, "add_figures"]), {"add_figures-figure": "trooper"}
    )
    assert side.members.count() == 3
    html = page_of(owner_client, side)
    assert selected(html, "roll-character_type") == "gambler"


# --------------------------------------------------------------------------- the bar's name


@pytest.mark.parametrize("system", [s.id for s in all_systems()])
def test_the_builder_bar_names_the_system_as_everywhere_else(owner, owner_client, content, system):
    name = next(s.name for s in all_systems() if s.id == system)
    gang = services.create_gang(owner, system=system, name="Named", limit=None)
    html = page_of(owner_client, gang)
    bar = re.search(r'<span class="bar-system[^"]*">([^<]*)</span>', html)
    assert bar and bar.group(1) == name
    gangs = owner_client.get(reverse("gang_list")).content.decode()
    assert name in gangs


def test_bwg1_is_blackwater_gulch_v1_1_2_in_the_bar(owner_client, gang):
    html = page_of(owner_client, gang)
    assert '<span class="bar-system muted">Blackwater Gulch v1.1.2</span>' in html
    assert "Blackwater Gulch 1<" not in html
    # The library of its content says the same.
    library = owner_client.get(reverse("library", args=["bwg1"])).content.decode()
    assert "<title>Blackwater Gulch v1.1.2 library" in library
    assert "Blackwater Gulch 1" not in library


# --------------------------------------------------------------------------- stale pages


def rename(client: Client, gang: Gang, member: Member, name: str) -> None:
    """Another tab renames ``member`` (the gang moves on a version)."""
    data = member.data
    details = {
        f"m{member.pk}-details-name": name,
        f"m{member.pk}-details-member_type": data["type"],
        f"m{member.pk}-details-profession": data["profession"],
    }
    url = reverse("member_action", args=[gang.pk, member.pk, "details"])
    assert client.post(url, details).status_code == 302


def test_a_page_showing_an_older_version_gets_the_rows_changed_since(owner_client, gang):
    leader, henchman, *others = gang.members.order_by("position")
    page_of(owner_client, gang, open=henchman.pk)  # the page as this tab shows it
    headers = shown(gang, henchman)
    rename(owner_client, gang, leader, "Grat Dalton")  # in another tab, since
    url = reverse("member_action", args=[gang.pk, henchman.pk, "points"])
    data = {f"m{henchman.pk}-points-change": "str:-", "open": henchman.pk}
    html = owner_client.post(url, data, **HX, **headers).content.decode()
    # The page still shows "Bill Dalton": his row comes again, with the name he has now.
    assert f'id="member-{leader.pk}" data-keep' not in html
    row = re.search(rf'<li class="roster-row[^"]*" id="member-{leader.pk}".*?</li>', html, re.S)
    assert row and 'data-member-name="Grat Dalton"' in row.group(0)
    # Every row is drawn: the page's version is not the one the change started from.
    assert not {f"member-{m.pk}" for m in (leader, henchman, *others)} & kept(html)


def test_a_gang_action_on_an_older_page_draws_every_row(owner_client, gang):
    leader, *others = gang.members.order_by("position")
    page_of(owner_client, gang)
    headers = shown(gang)
    rename(owner_client, gang, leader, "Grat Dalton")
    data = {"recruit-name": "Emmett", "recruit-member_type": "henchman"}
    url = reverse("gang_action", args=[gang.pk, "recruit"])
    html = owner_client.post(url, data, **HX, **headers).content.decode()
    assert 'data-member-name="Grat Dalton"' in html
    assert not {f"member-{m.pk}" for m in (leader, *others)} & kept(html)


# --------------------------------------------------------------------------- undo a removal


def remove(client: Client, gang: Gang, member: Member, **extra):
    url = reverse("member_action", args=[gang.pk, member.pk, "remove"])
    return client.post(url, {"open": member.pk}, **extra)


def undo(client: Client, gang: Gang, pk: int, **extra):
    """Press Undo (or post what it posts, for another member)."""
    url = reverse("gang_action", args=[gang.pk, "restore"])
    return client.post(url, {"member": pk}, **extra)


def state(gang: Gang) -> list[tuple]:
    """Every member as stored, in order: id, name, position, data and carried items."""
    return [
        (
            m.pk,
            m.name,
            m.position,
            m.data,
            [(mi.item_id, mi.position) for mi in m.member_items.order_by("position", "id")],
        )
        for m in gang.members.order_by("position", "id")
    ]


def notice(html: str) -> str:
    found = re.search(r'<li class="roster-undo" id="undo-notice".*?</li>', html, re.S)
    return found.group(0) if found else ""


def roster_ids(html: str) -> list[str]:
    """The ids of the roster's items, in order (rows, the undo notice...)."""
    roster = re.search(r'<ol class="roster".*?</ol>', html, re.S).group(0)
    return re.findall(r'<li [^>]*?id="([^"]+)"', roster)


def test_removing_asks_nothing_and_undo_brings_the_member_back_exactly(owner_client, gang):
    members = list(gang.members.order_by("position", "id"))
    before = state(gang)
    gun = members[3]  # a Professional with a revolver, fourth in recruitment order
    page = page_of(owner_client, gang, open=gun.pk)
    assert "hx-confirm" not in page  # no dialog: the removal can be undone instead
    html = remove(owner_client, gang, gun, **HX, **shown(gang, gun)).content.decode()
    assert not Member.objects.filter(pk=gun.pk).exists()
    # In the roster, where the member was: "“Gun 4” was removed." and Undo.
    text = notice(html)
    assert "“Gun 3” was removed." in text and 'data-testid="undo"' in text
    assert f'name="member" value="{gun.pk}"' in text
    ids = [m.pk for m in members]
    assert roster_ids(html)[:5] == [f"member-{pk}" for pk in ids[:3]] + [
        "undo-notice",
        f"member-{ids[4]}",
    ]
    # The notice stays while nothing else changes (opening a member, a reload)...
    assert notice(page_of(owner_client, gang, open=members[0].pk))
    response = undo(owner_client, gang, gun.pk, **HX)
    html = response.content.decode()
    assert response.status_code == 200
    # ... and Undo brings the same member back: same id, data, items, place; it is open.
    assert state(gang) == before
    assert f'id="member-{gun.pk}"' in html and 'data-testid="member-panel"' in html
    assert response["HX-Replace-Url"] == reverse("gang_detail", args=[gang.pk]) + f"?open={gun.pk}"
    assert not notice(html) and not notice(page_of(owner_client, gang))
    # A second press (a double tap) changes nothing.
    response = undo(owner_client, gang, gun.pk, **HX)
    assert response.status_code == 200 and state(gang) == before


def test_the_notice_goes_with_the_next_change(owner_client, gang):
    _, second, *_ = gang.members.order_by("position", "id")
    remove(owner_client, gang, second, **HX)
    assert notice(page_of(owner_client, gang))
    data = {"recruit-name": "Emmett", "recruit-member_type": "henchman"}
    html = owner_client.post(reverse("gang_action", args=[gang.pk, "recruit"]), data, **HX)
    assert not notice(html.content.decode()) and not notice(page_of(owner_client, gang))


def test_undo_works_as_plain_posts_without_javascript(owner_client, gang):
    leader = gang.members.order_by("position", "id").first()
    before = state(gang)
    response = remove(owner_client, gang, leader)
    assert response.status_code == 302
    assert response["Location"] == reverse("gang_detail", args=[gang.pk]) + "#undo-notice"
    page = owner_client.get(response["Location"]).content.decode()
    text = notice(page)
    assert "“Bill Dalton” was removed." in text
    assert 'name="csrfmiddlewaretoken"' in text  # a plain form, with its button
    response = undo(owner_client, gang, leader.pk)
    assert response.status_code == 302
    assert response["Location"].endswith(f"?open={leader.pk}#member-{leader.pk}")
    assert state(gang) == before


def test_only_the_owner_undoes_a_removal(owner_client, stranger, stranger_client, client, gang):
    leader = gang.members.order_by("position", "id").first()
    remove(owner_client, gang, leader, **HX)
    # A stranger (even with the URL) gets a 404, a visitor the log-in page; nothing comes back.
    assert undo(stranger_client, gang, leader.pk, **HX).status_code == 404
    assert undo(stranger_client, gang, leader.pk).status_code == 404
    response = undo(client, gang, leader.pk)
    assert response.status_code == 302 and "/login/" in response["Location"]
    assert not Member.objects.filter(pk=leader.pk).exists()
    # The stranger's own gang has no such removal either.
    theirs = services.create_gang(stranger, system="bwg1", name="Theirs", limit=None)
    assert undo(stranger_client, theirs, leader.pk).status_code == 404
    # The owner can: a member that was never removed here cannot be "brought back".
    assert undo(owner_client, gang, leader.pk + 1000, **HX).status_code == 404
    assert undo(owner_client, gang, leader.pk, **HX).status_code == 200
    assert Member.objects.filter(pk=leader.pk, gang=gang).exists()


@pytest.mark.parametrize("system", ["bwg2", "gf26", "gunfight", "rivals"])
def test_every_system_undoes_a_removal_exactly(owner, owner_client, content, system):
    from builder.services import import_gang
    from rules.roster import read_roster
    from tests.test_roster_files import EXAMPLES

    path = next(p for p in EXAMPLES if p.name.startswith(f"{system}-legal-"))
    gang = import_gang(owner, read_roster(path.read_bytes()))
    before = state(gang)
    middle = gang.members.order_by("position", "id")[1]
    html = page_of(owner_client, gang, open=middle.pk)
    remove_form = re.search(r'<form[^>]*action="[^"]*/remove/[^"]*"[^>]*>', html).group(0)
    assert "hx-confirm" not in remove_form
    html = remove(owner_client, gang, middle, **HX).content.decode()
    assert notice(html)
    assert len(state(gang)) == len(before) - 1
    undo(owner_client, gang, middle.pk, **HX)
    assert state(gang) == before


def test_undo_after_the_order_changed_puts_it_back_in_its_place(owner_client, gang):
    from tests.factories import give, weapon

    members = list(gang.members.order_by("position", "id"))
    second = members[1]
    give(second, weapon("Bowie knife"))  # two of the same knife: both come back
    carried = [(mi.item_id, mi.position) for mi in second.member_items.order_by("position", "id")]
    assert len(carried) == 2 and carried[0][0] == carried[1][0]
    remove(owner_client, gang, second, **HX)
    # Meanwhile the last member is recruited earlier: positions are numbered again.
    last = members[-1]
    url = reverse("member_action", args=[gang.pk, last.pk, "move"])
    owner_client.post(url, {f"m{last.pk}-move-direction": "up"}, **HX)
    order = [m.pk for m in gang.members.order_by("position", "id")]
    assert order == [members[0].pk, members[2].pk, members[4].pk, members[3].pk]
    undo(owner_client, gang, second.pk, **HX)
    back = gang.members.get(pk=second.pk)
    assert [m.pk for m in gang.members.order_by("position", "id")] == [
        members[0].pk,
        second.pk,
        members[2].pk,
        members[4].pk,
        members[3].pk,
    ]
    assert back.data == second.data and back.name == second.name
    assert [(mi.item_id, mi.position) for mi in back.member_items.order_by("position")] == carried


def test_the_last_member_removed_leaves_its_notice_at_the_roster_end(owner_client, gang):
    *others, last = gang.members.order_by("position", "id")
    html = remove(owner_client, gang, last, **HX).content.decode()
    ids = roster_ids(html)
    assert ids[: len(others) + 1] == [f"member-{m.pk}" for m in others] + ["undo-notice"]
    assert ids.index("undo-notice") < ids.index("roster-add")
    undo(owner_client, gang, last.pk, **HX)
    assert [m.pk for m in gang.members.order_by("position", "id")][-1] == last.pk
