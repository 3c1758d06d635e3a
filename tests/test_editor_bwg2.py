"""The bwg2 (Blackwater Gulch 2nd edition) browser builder: every action through the views,
the card library (built-in samples and pack entries), export/import round trips, and the
page: a compact roster, one member open, the card library drawn once."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from builder import services
from builder.editors import get_editor
from builder.editors.bwg2 import format_equipment, format_skills, parse_equipment, parse_skills
from builder.models import ContentPack, DiceRoll, Gang, Item, Member
from builder.roster import evaluate_gang, export_roster
from rules.roster import check_roster, read_roster, write_roster

HX = {"HTTP_HX_REQUEST": "true"}


# --------------------------------------------------------------------------- helpers


@pytest.fixture
def gang(owner, content) -> Gang:
    return services.create_gang(owner, system="bwg2", name="Tranquility Crew", limit=325)


def card(name: str) -> Item:
    return Item.objects.get(system="bwg2", category="card", name=name, owner=None)


def extra(name: str) -> Item:
    return Item.objects.get(system="bwg2", category="extra", name=name, owner=None)


def gang_url(gang: Gang, action: str) -> str:
    return reverse("gang_action", args=[gang.pk, action])


def member_url(member: Member, action: str) -> str:
    return reverse("member_action", args=[member.gang_id, member.pk, action])


def gang_post(client, gang: Gang, action: str, hx: bool = True, **fields):
    data = {f"{action}-{k}": v for k, v in fields.items()}
    return client.post(gang_url(gang, action), data, **(HX if hx else {}))


def member_post(client, member: Member, action: str, hx: bool = True, **fields):
    data = {f"m{member.pk}-{action}-{k}": v for k, v in fields.items()}
    return client.post(member_url(member, action), data, **(HX if hx else {}))


def report(gang: Gang):
    gang.refresh_from_db()
    return evaluate_gang(gang).report


def codes(gang: Gang) -> set[str]:
    return {f.code for f in report(gang).findings}


def add(client, gang: Gang, card_name: str, **fields) -> Member:
    response = gang_post(client, gang, "add_card", card=card(card_name).pk, **fields)
    assert response.status_code == 200, response.content[:500]
    return gang.members.order_by("-position", "-id").first()


def assert_round_trip(gang: Gang, owner) -> None:
    """Export → roster file → read → import gives the same gang to the rules engine."""
    exported = export_roster(gang)
    assert check_roster(exported) == []
    again = read_roster(write_roster(exported))
    copy = services.import_gang(owner, again)
    assert export_roster(copy)["members"] == exported["members"]
    assert report(copy).total == report(gang).total
    assert {f.code for f in report(copy).findings} == codes(gang)


def legal_325(client, gang: Gang) -> list[Member]:
    leader = add(client, gang, "Captain Nathan Reinholdt")  # the first Hero leads
    minions = [add(client, gang, "Tranquility Gunhand") for _ in range(3)]
    return [leader, *minions]


# --------------------------------------------------------------------------- content


def test_builtin_content_is_loaded(content):
    cards = {i.name: i for i in Item.objects.filter(system="bwg2", category="card")}
    assert "Captain Nathan Reinholdt" in cards
    for name in ("Tranquility Gunhand", "Town Deputy", "Rustbucket Gatling", "Marshal Eli Stone"):
        assert cards[name].is_sample
        assert cards[name].stats["sample"] is True
    assert cards["Rustbucket Gatling"].stats["artillery"] is True
    minions = [c for c in cards.values() if c.stats.get("level") == "minion"]
    assert {c.stats["faction"] for c in minions} >= {"lawmen", "outlaws"}
    extras = {i.name: i for i in Item.objects.filter(system="bwg2", category="extra")}
    assert {"Snake Oil", "Throwing Knife", "Silver Bullets"} <= set(extras)
    assert all(e.is_sample and e.stats["cost"] > 0 for e in extras.values())


def test_builtin_cards_are_valid_for_the_engine(content):
    from builder.editors.bwg2 import _card_validator, _extra_validator

    for item in Item.objects.filter(system="bwg2", owner=None):
        validator = _card_validator if item.category == "card" else _extra_validator
        assert list(validator.iter_errors(item.roster_entry())) == [], item.name


def test_the_library_lists_the_cards_marked_sample(owner_client, content):
    response = owner_client.get(reverse("library", args=["bwg2"]))
    assert response.status_code == 200
    assert "Tranquility Gunhand" in response.text
    assert "Snake Oil" in response.text


def test_line_formats_round_trip():
    text = (
        "Hand Cannon | 10 | 4 | | Pistol, 1-Handed |\n"
        "Lucky Dollar |  |  | 3 | Unique | unique, weightless"
    )
    items, errors = parse_equipment(text)
    assert errors == []
    assert items[0] == {
        "name": "Hand Cannon",
        "range": 10,
        "str": 4,
        "level": None,
        "traits": ["Pistol", "1-Handed"],
        "weightless": False,
        "unique": False,
        "consumable": False,
    }
    assert items[1]["unique"] and items[1]["weightless"] and items[1]["level"] == 3
    assert parse_equipment(format_equipment(items)) == (items, [])
    skills, errors = parse_skills("Switch Sides | Rides with Outlaws. | Cursed\nTosser | Knives")
    assert errors == []
    assert skills[0]["opens_factions"] == ["cursed"]
    assert parse_skills(format_skills(skills)) == (skills, [])
    assert parse_equipment("Gun | 1 | 2 | high")[1] == [
        "Line 1: level “high” is not a whole number."
    ]
    assert "Line 2" in parse_skills("A | b\nB | c | martians")[1][0]


@pytest.fixture
def pack(owner) -> ContentPack:
    return ContentPack.objects.create(owner=owner, system="bwg2", name="Club cards")


CARD_POST = {
    "name": "Sheriff Hoyt",
    "faction": "lawmen",
    "level": "hero",
    "size": "large",
    "one_per_gang": "",
    "hp": "4",
    "dp": "3",
    "xp": "120",
    "str": "3",
    "spd": "5",
    "sta": "4",
    "int": "3",
    "rc": "4",
    "mc": "3",
    # The pack's card form: a row per item and per skill (the member's card form keeps
    # the line formats).
    "equipment-0-name": "Scattergun",
    "equipment-0-range": "6",
    "equipment-0-str": "5",
    "equipment-0-level": "3",
    "equipment-0-traits": "Shotgun, 2-Handed",
    "vital_info": "Mortal Hero",
    "faction_rule_name": "Law and Order",
    "faction_rule_text": "Homebrew.",
    "skills-0-name": "Deputise",
    "skills-0-text": "Recruits Outlaws too.",
    "skills-0-opens_factions": ["outlaws"],
    "notes": "",
}


def test_a_card_entry_is_added_to_a_pack(owner_client, pack):
    url = reverse("entry_add", args=[pack.pk, "card"])
    response = owner_client.post(url, CARD_POST)
    assert response.status_code == 302
    item = pack.items.get()
    assert item.category == "card"
    assert item.stats["equipment"][0]["traits"] == ["Shotgun", "2-Handed"]
    assert item.stats["skills"][0]["opens_factions"] == ["outlaws"]
    assert "one_per_gang" not in item.stats
    from builder.editors.bwg2 import _card_validator

    assert list(_card_validator.iter_errors(item.roster_entry())) == []
    # The edit page shows it back, in its rows.
    page = owner_client.get(reverse("entry_update", args=[item.pk]))
    assert 'name="equipment-0-name" value="Scattergun"' in page.text
    assert 'name="equipment-0-traits" value="Shotgun, 2-Handed"' in page.text


def test_a_bad_card_entry_names_the_row(owner_client, pack):
    url = reverse("entry_add", args=[pack.pk, "card"])
    bad = {**CARD_POST, "equipment-1-range": "1", "equipment-1-level": "high", "hp": "-1"}
    response = owner_client.post(url, bad)
    assert response.status_code == 200
    assert "Enter a whole number" in response.text
    bad = {**CARD_POST, "equipment-1-range": "1", "hp": "-1"}
    response = owner_client.post(url, bad)
    assert "Give it a name, or clear the row to leave it out." in response.text
    assert "Ensure this value is greater than or equal to 0" in response.text
    assert not pack.items.exists()
    no_level = {**CARD_POST, "level": ""}
    assert "Choose the card" in owner_client.post(url, no_level).text
    assert not pack.items.exists()


def test_an_artillery_card_needs_no_level(owner_client, pack):
    url = reverse("entry_add", args=[pack.pk, "card"])
    response = owner_client.post(url, {**CARD_POST, "level": "", "artillery": "on"})
    assert response.status_code == 302
    assert pack.items.get().stats["level"] == ""


def test_an_extra_entry_is_added_and_checked(owner_client, pack):
    url = reverse("entry_add", args=[pack.pk, "extra"])
    good = {"name": "Dynamite", "cost": "15", "level": "2", "range": "M", "str": "5"}
    response = owner_client.post(url, {**good, "traits": "Thrown, AOE"})
    assert response.status_code == 302
    item = pack.items.get()
    assert item.stats["cost"] == 15 and item.stats["traits"] == ["Thrown", "AOE"]
    assert item.stats["range"] == "M" and item.stats["str"] == 5
    response = owner_client.post(url, {**good, "name": "Lamp", "traits": "Slow"})
    assert response.status_code == 200
    assert "Only Consumable items and Thrown weapons" in response.text
    response = owner_client.post(url, {**good, "name": "Free", "cost": "", "consumable": "on"})
    assert response.status_code == 200
    assert "This field is required" in response.text
    assert pack.items.count() == 1


def test_pack_cards_are_in_the_gang_catalogue_with_their_mark(owner_client, owner, gang, pack):
    owner_client.post(reverse("entry_add", args=[pack.pk, "card"]), CARD_POST)
    gang.packs.add(pack)
    page = owner_client.get(reverse("gang_detail", args=[gang.pk]))
    assert "Sheriff Hoyt (Lawmen Hero, 120 XP) · Club cards" in page.text
    assert "Tranquility Gunhand (Outlaws Minion, 40 XP) · sample" in page.text


# --------------------------------------------------------------------------- gang actions


def page_of(client, gang: Gang, open_member: Member | None = None) -> str:
    url = reverse("gang_detail", args=[gang.pk])
    response = client.get(url, {"open": open_member.pk} if open_member else {})
    assert response.status_code == 200
    return response.text


def test_the_builder_page_shows_the_editor(owner_client, gang):
    page = page_of(owner_client, gang)
    assert 'data-testid="add_card"' in page
    assert 'data-testid="limit-700"' in page and 'data-testid="limit-325"' in page
    # Picking a card is the whole action: the select's form posts on change.
    assert 'id="form-add_card" class="action bwg2-live action-add_card"' in page
    assert 'hx-trigger="change, submit"' in page
    assert 'id="id_add_card-card"' in page and 'id="id_add_artillery-card"' in page
    assert "pick a Hero from the card library" in page


def test_add_card_makes_a_member_with_the_card(owner_client, owner, gang):
    minion = add(owner_client, gang, "Tranquility Gunhand")
    assert minion.name == "Tranquility Gunhand"
    assert minion.data == get_editor("bwg2").system.new_member(
        card=card("Tranquility Gunhand").roster_entry()
    )
    assert "bwg2.no_leader" in codes(gang)  # a Minion never leads by itself
    leader = add(owner_client, gang, "Captain Nathan Reinholdt")
    assert leader.name == "Captain Nathan Reinholdt"
    # The first Hero of a gang without a Leader becomes its Leader: one pick, no more.
    assert leader.data == {
        **get_editor("bwg2").system.new_member(
            card=card("Captain Nathan Reinholdt").roster_entry()
        ),
        "leader": True,
    }
    assert report(gang).total == 190
    assert "bwg2.no_leader" not in codes(gang)
    hero = add(owner_client, gang, "Marshal Eli Stone")
    assert hero.data["leader"] is False  # the gang has its Leader
    second = add(owner_client, gang, "Tranquility Gunhand")
    assert second.name == "Tranquility Gunhand 2"  # named after the card, numbered
    third = add(owner_client, gang, "Tranquility Gunhand")
    assert third.name == "Tranquility Gunhand 3"
    assert_round_trip(gang, owner)


def test_add_card_opens_the_new_member_in_the_answer(owner_client, gang):
    first = add(owner_client, gang, "Captain Nathan Reinholdt")
    response = gang_post(owner_client, gang, "add_card", card=card("Tranquility Gunhand").pk)
    member = gang.members.exclude(pk=first.pk).get()
    assert response["HX-Replace-Url"].endswith(f"?open={member.pk}")
    assert response.text.count('data-testid="member-panel"') == 1
    assert f'id="id_m{member.pk}-rename-name"' in response.text  # its panel, not the first's
    assert f'id="id_m{first.pk}-rename-name"' not in response.text


def test_add_card_plain_post_redirects_to_the_member(owner_client, gang):
    response = gang_post(owner_client, gang, "add_card", hx=False, card=card("Town Deputy").pk)
    member = gang.members.get()
    assert response.status_code == 302
    assert response.url.endswith(f"#member-{member.pk}")


def test_add_card_invalid_shows_the_error_and_saves_nothing(owner_client, gang):
    response = gang_post(owner_client, gang, "add_card", card="999999")
    assert response.status_code == 200
    assert "Select a valid choice" in response.text
    assert 'class="bwg2-live-row has-error"' in response.text  # beside the select
    response = gang_post(owner_client, gang, "add_card", hx=False, card="")
    assert response.status_code == 200
    assert "Choose a card from the library." in response.text
    artillery = card("Rustbucket Gatling").pk
    response = gang_post(owner_client, gang, "add_card", card=artillery)
    assert "Select a valid choice" in response.text
    assert not gang.members.exists()


def test_add_artillery(owner_client, owner, gang):
    response = gang_post(owner_client, gang, "add_artillery", card=card("Rustbucket Gatling").pk)
    assert response.status_code == 200
    member = gang.members.get()
    assert member.data["card"]["artillery"] is True
    r = report(gang)
    assert r.total == 90 and r.members[str(member.pk)].victory_points == 0
    response = gang_post(owner_client, gang, "add_artillery", card=card("Town Deputy").pk)
    assert "Select a valid choice" in response.text
    assert gang.members.count() == 1
    assert_round_trip(gang, owner)


@pytest.mark.parametrize("kind", ["hero", "henchman", "minion", "artillery"])
def test_add_blank_card(owner_client, owner, gang, kind):
    response = gang_post(owner_client, gang, "add_blank", kind=kind)
    assert response.status_code == 200
    member = gang.members.get()
    c = member.data["card"]
    assert c["artillery"] is (kind == "artillery")
    if kind != "artillery":
        assert c["level"] == kind
        assert member.name == f"New {kind.capitalize()}"
    assert c.get("sample") is not True
    assert_round_trip(gang, owner)


def test_add_blank_invalid(owner_client, gang):
    response = gang_post(owner_client, gang, "add_blank", kind="dragon")
    assert response.status_code == 200
    assert "Select a valid choice" in response.text
    assert '<details class="bwg2-blank" id="bwg2-blank" open>' in response.text
    response = gang_post(owner_client, gang, "add_blank", kind="")
    assert "Choose which kind of blank card to add." in response.text
    assert not gang.members.exists()


def test_set_limit_presets(owner_client, gang):
    response = gang_post(owner_client, gang, "set_limit", value="700")
    assert response.status_code == 200
    gang.refresh_from_db()
    assert gang.limit == 700
    assert " / 700" in response.text  # the summary bar
    assert 'aria-pressed="true" data-testid="limit-700"' in response.text
    assert 'aria-pressed="false" data-testid="limit-325"' in response.text
    response = gang_post(owner_client, gang, "set_limit", hx=False, value="325")
    assert response.status_code == 302
    gang.refresh_from_db()
    assert gang.limit == 325


def test_set_limit_invalid(owner_client, gang):
    response = gang_post(owner_client, gang, "set_limit", value="0")
    assert response.status_code == 200
    assert "greater than or equal to 1" in response.text
    gang.refresh_from_db()
    assert gang.limit == 325


# --------------------------------------------------------------------------- member actions


def test_a_legal_325_gang_from_the_samples(owner_client, owner, gang):
    legal_325(owner_client, gang)
    r = report(gang)
    assert r.is_legal, [f.message for f in r.findings]
    assert r.total == 270
    assert r.gang["objectives"] == 1
    page = page_of(owner_client, gang)
    assert "Objectives brought: 1" in page
    assert "Legal" in page
    assert "Nothing to fix: the gang is legal, 55 Fame under the limit." in page
    assert_round_trip(gang, owner)


def test_a_legal_700_gang_from_the_samples(owner_client, owner, gang):
    gang_post(owner_client, gang, "set_limit", value="700")
    leader = add(owner_client, gang, "Captain Nathan Reinholdt")
    for name in ("Gentleman Jim Doyle", "Big Ma Tully", "Dutch Van Hoek"):
        add(owner_client, gang, name)
    gunhands = [add(owner_client, gang, "Tranquility Gunhand") for _ in range(3)]
    for g in gunhands:
        member_post(owner_client, g, "team", team="Gunhands")
    gang_post(owner_client, gang, "add_artillery", card=card("Rustbucket Gatling").pk)
    member_post(owner_client, leader, "add_extra", extra=extra("Snake Oil").pk)
    r = report(gang)
    assert r.is_legal, [f.message for f in r.findings]
    assert r.total == 150 + 10 + 130 + 80 + 75 + 120 + 90
    assert r.gang["objectives"] == 3
    assert r.gang["heroes_allowed"] == 2
    assert r.members[str(leader.pk)].victory_points == 5
    assert_round_trip(gang, owner)


def test_leader_is_one_click_and_moves(owner_client, owner, gang):
    first = add(owner_client, gang, "Captain Nathan Reinholdt")
    second = add(owner_client, gang, "Marshal Eli Stone")
    first.refresh_from_db()
    assert first.data["leader"] is True  # the first Hero
    # A live check box in the panel: ticked on the one who leads.
    page = page_of(owner_client, gang, first)
    assert f'id="id_m{first.pk}-leader-on" checked' in page
    assert '<span class="row-kind">Hero · Leader</span>' in page
    response = member_post(owner_client, second, "leader", on="on")
    assert response.status_code == 200
    assert response.text.count('<span class="row-kind">Hero · Leader</span>') == 1
    assert f'id="id_m{second.pk}-leader-on" checked' in response.text
    first.refresh_from_db()
    second.refresh_from_db()
    assert first.data["leader"] is False and second.data["leader"] is True
    assert report(gang).gang["leader"] == str(second.pk)
    # Unticked, the box posts nothing: no Leader.
    response = member_post(owner_client, second, "leader", hx=False)
    assert response.status_code == 302
    assert response.url.endswith(f"#member-{second.pk}")
    second.refresh_from_db()
    assert second.data["leader"] is False
    assert "bwg2.no_leader" in codes(gang)
    member_post(owner_client, first, "leader", on="True")
    member_post(owner_client, first, "leader", on="False")
    assert "bwg2.no_leader" in codes(gang)
    assert_round_trip(gang, owner)


def test_two_leaders_from_a_file_are_flagged_and_fixed_by_one_click(owner_client, owner, gang):
    first = add(owner_client, gang, "Captain Nathan Reinholdt")
    second = add(owner_client, gang, "Marshal Eli Stone")
    for m in (first, second):
        m.data = {**m.data, "leader": True}
        m.save()
    assert "bwg2.too_many_leaders" in codes(gang)
    member_post(owner_client, first, "leader", on="True")
    assert "bwg2.too_many_leaders" not in codes(gang)


def test_leader_invalid(owner_client, gang):
    member = add(owner_client, gang, "Captain Nathan Reinholdt")
    response = owner_client.post(
        reverse("member_action", args=[gang.pk, 999999, "leader"]), {}, **HX
    )
    assert response.status_code == 404
    member.refresh_from_db()
    assert member.data["leader"] is True


def test_duplicate_card_is_an_error_until_removed(owner_client, owner, gang):
    legal_325(owner_client, gang)
    copy = add(owner_client, gang, "Captain Nathan Reinholdt")
    assert copy.name == "Captain Nathan Reinholdt 2"
    response = owner_client.get(reverse("gang_detail", args=[gang.pk]))
    assert 'data-code="bwg2.duplicate_character"' in response.text
    response = member_post(owner_client, copy, "remove")
    assert response.status_code == 200
    assert 'data-code="bwg2.duplicate_character"' not in response.text
    assert not Member.objects.filter(pk=copy.pk).exists()
    assert report(gang).is_legal


def test_remove_plain_post_redirects(owner_client, gang):
    member = add(owner_client, gang, "Town Deputy")
    response = member_post(owner_client, member, "remove", hx=False)
    assert response.status_code == 302
    assert not gang.members.exists()


def test_rename(owner_client, owner, gang):
    member = add(owner_client, gang, "Town Deputy")
    page = page_of(owner_client, gang, member)
    assert f'id="form-m{member.pk}-rename" class="action bwg2-live' in page  # live, no Save
    response = member_post(owner_client, member, "rename", name="Deputy <Dawg>")
    assert response.status_code == 200
    assert "Deputy &lt;Dawg&gt;" in response.text
    assert "Card: Town Deputy" in response.text
    member.refresh_from_db()
    assert member.name == "Deputy <Dawg>"
    assert member.data["card"]["name"] == "Town Deputy"
    response = member_post(owner_client, member, "rename", name="  ")
    assert response.status_code == 200
    assert "This field is required" in response.text
    member.refresh_from_db()
    assert member.name == "Deputy <Dawg>"
    assert_round_trip(gang, owner)


def edit_fields(member: Member, **changes) -> dict[str, str]:
    from builder.editors.bwg2 import EditCardForm

    initial = EditCardForm.initial_for(gang=member.gang, member=member, figures=None)
    fields = {
        k: ("on" if v is True else "" if v in (False, None) else str(v)) for k, v in initial.items()
    }
    fields.update(changes)
    return fields


def test_edit_card_in_place(owner_client, owner, gang):
    member = add(owner_client, gang, "Tranquility Gunhand")
    fields = edit_fields(
        member,
        xp="55",
        size="large",
        one_per_gang="yes",
        skills="Sharpshooter | +1 RC. | lawmen",
        equipment=(
            "Pocket Pistol | 6 | 3 | 1 | Pistol, 1-Handed, Slow |\nCharm | | | 1 | | weightless"
        ),
    )
    response = member_post(owner_client, member, "edit_card", **fields)
    assert response.status_code == 200
    member.refresh_from_db()
    c = member.data["card"]
    assert c["xp"] == 55 and c["size"] == "large" and c["one_per_gang"] is True
    assert c["sample"] is True  # still the sample card, tweaked
    assert c["skills"][0]["opens_factions"] == ["lawmen"]
    assert c["equipment"][1]["weightless"] is True
    assert report(gang).total == 65
    assert_round_trip(gang, owner)


def test_edit_card_invalid_keeps_input_and_saves_nothing(owner_client, gang):
    member = add(owner_client, gang, "Tranquility Gunhand")
    before = member.data
    fields = edit_fields(member, xp="lots", skills="Sharpshooter | +1 RC. | martians")
    response = member_post(owner_client, member, "edit_card", **fields)
    assert response.status_code == 200
    assert "Enter a whole number" in response.text
    assert "“martians” is not a faction" in response.text
    assert 'value="lots"' in response.text
    assert f'<details class="panel-section bwg2-edit" id="bwg2-edit-{member.pk}" open>' in (
        response.text
    )
    member.refresh_from_db()
    assert member.data == before


def test_team(owner_client, owner, gang):
    a = add(owner_client, gang, "Tranquility Gunhand")
    response = member_post(owner_client, a, "team", team="Gunhands")
    assert response.status_code == 200
    assert "bwg2.team_of_one" in codes(gang)
    b = add(owner_client, gang, "Tranquility Gunhand")
    member_post(owner_client, b, "team", team="Gunhands")
    assert "bwg2.team_of_one" not in codes(gang)
    assert report(gang).gang["teams"] == {"Gunhands": [str(a.pk), str(b.pk)]}
    member_post(owner_client, b, "team", team="")
    b.refresh_from_db()
    assert b.data["team"] is None
    response = member_post(owner_client, a, "team", team="x" * 61)
    assert response.status_code == 200
    assert "at most 60 characters" in response.text
    a.refresh_from_db()
    assert a.data["team"] == "Gunhands"
    assert_round_trip(gang, owner)


def test_add_and_remove_extras(owner_client, owner, gang):
    leader = add(owner_client, gang, "Captain Nathan Reinholdt")
    response = member_post(owner_client, leader, "add_extra", extra=extra("Snake Oil").pk)
    assert response.status_code == 200
    member_post(owner_client, leader, "add_extra", extra=extra("Throwing Knife").pk)
    leader.refresh_from_db()
    assert [x["name"] for x in leader.data["extras"]] == ["Snake Oil", "Throwing Knife"]
    assert report(gang).total == 150 + 10 + 5
    assert_round_trip(gang, owner)
    response = member_post(owner_client, leader, "remove_extra", index="0")
    assert response.status_code == 200
    leader.refresh_from_db()
    assert [x["name"] for x in leader.data["extras"]] == ["Throwing Knife"]
    assert report(gang).total == 155


def test_add_extra_invalid(owner_client, gang):
    leader = add(owner_client, gang, "Captain Nathan Reinholdt")
    response = member_post(owner_client, leader, "add_extra", extra=card("Town Deputy").pk)
    assert response.status_code == 200
    assert "Select a valid choice" in response.text
    gang_post(owner_client, gang, "add_artillery", card=card("Rustbucket Gatling").pk)
    gun = gang.members.get(name="Rustbucket Gatling")
    response = member_post(owner_client, gun, "add_extra", extra=extra("Snake Oil").pk)
    assert response.status_code == 200
    assert "Artillery is not a character" in response.text
    gun.refresh_from_db()
    leader.refresh_from_db()
    assert gun.data["extras"] == [] and leader.data["extras"] == []


def test_remove_extra_invalid(owner_client, gang):
    leader = add(owner_client, gang, "Captain Nathan Reinholdt")
    response = member_post(owner_client, leader, "remove_extra", index="3")
    assert response.status_code == 200
    assert "That item is no longer there" in response.text


def test_duplicate_member(owner_client, owner, gang):
    a = add(owner_client, gang, "Tranquility Gunhand")
    member_post(owner_client, a, "team", team="Gunhands")
    member_post(owner_client, a, "add_extra", extra=extra("Bottle of Booze").pk)
    response = member_post(owner_client, a, "duplicate")
    assert response.status_code == 200
    b = gang.members.exclude(pk=a.pk).get()
    assert b.name == "Tranquility Gunhand 2"
    assert b.data["team"] == "Gunhands" and b.data["extras"] == []
    assert "bwg2.team_of_one" not in codes(gang)
    assert_round_trip(gang, owner)


# --------------------------------------------------------------------------- access


ALL_ACTIONS = [
    ("gang", "add_card"),
    ("gang", "add_artillery"),
    ("gang", "add_blank"),
    ("gang", "set_limit"),
    ("member", "rename"),
    ("member", "edit_card"),
    ("member", "leader"),
    ("member", "team"),
    ("member", "add_extra"),
    ("member", "remove_extra"),
    ("member", "duplicate"),
    ("member", "remove"),
]


@pytest.mark.parametrize(("level", "action"), ALL_ACTIONS)
def test_strangers_get_404_and_anonymous_go_to_login(
    owner_client, stranger_client, client, gang, level, action
):
    member = add(owner_client, gang, "Captain Nathan Reinholdt")
    url = gang_url(gang, action) if level == "gang" else member_url(member, action)
    version = Gang.objects.get(pk=gang.pk).version
    assert stranger_client.post(url, {}).status_code == 404
    assert stranger_client.post(url, {}, **HX).status_code == 404
    response = client.post(url, {})
    assert response.status_code == 302
    assert response.url.startswith(reverse("login"))
    response = client.post(url, {}, **HX)
    assert response.headers["HX-Redirect"].startswith(reverse("login"))
    assert Gang.objects.get(pk=gang.pk).version == version
    assert Member.objects.filter(gang=gang).count() == 1


def test_actions_roll_no_dice_and_the_history_page_works(owner_client, gang):
    legal_325(owner_client, gang)
    assert not DiceRoll.objects.filter(gang=gang).exists()
    response = owner_client.get(reverse("gang_history", args=[gang.pk]))
    assert response.status_code == 200


def test_share_page_shows_the_gang(owner_client, client, gang):
    legal_325(owner_client, gang)
    gang.refresh_from_db()
    response = client.get(reverse("gang_shared", args=[gang.share_token]))
    assert response.status_code == 200
    assert "Captain Nathan Reinholdt" in response.text


def test_import_an_example_and_edit_it(owner_client, owner, content):
    from tests.test_roster_files import EXAMPLES

    path = next(p for p in EXAMPLES if p.name == "bwg2-legal-tranquility-crew-700.json")
    gang = services.import_gang(owner, read_roster(path.read_bytes()))
    assert report(gang).is_legal
    page = owner_client.get(reverse("gang_detail", args=[gang.pk]))
    assert page.status_code == 200
    assert page.text.count('data-testid="member"') == 8
    assert_round_trip(gang, owner)


def _page_queries(client, gang) -> int:
    url = reverse("gang_detail", args=[gang.pk])
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url)
    assert response.status_code == 200
    return len(ctx.captured_queries)


def test_page_query_count_does_not_grow_with_members(owner_client, owner, gang):
    leader = add(owner_client, gang, "Captain Nathan Reinholdt")
    one = _page_queries(owner_client, gang)
    for _ in range(49):
        member_post(owner_client, leader, "duplicate")
    assert gang.members.count() == 50
    assert _page_queries(owner_client, gang) == one


def test_edit_form_reads_names_as_the_engine_does(owner_client, gang):
    from builder.editors.bwg2 import EditCardForm

    member = add(owner_client, gang, "Town Deputy")
    member.data = {
        **member.data,
        "card": {**member.data["card"], "faction": "Lawman", "level": "MINION", "size": ""},
    }
    member.save()
    initial = EditCardForm.initial_for(gang=gang, member=member, figures=None)
    assert (initial["faction"], initial["level"], initial["size"]) == (
        "lawmen",
        "minion",
        "standard",
    )


# --------------------------------------------------------------------------- the page


def test_only_the_open_member_draws_its_panel(owner_client, gang):
    leader, *minions = legal_325(owner_client, gang)
    closed = page_of(owner_client, gang)
    assert 'data-testid="member-panel"' not in closed
    assert "-rename-name" not in closed and "-edit_card-" not in closed
    assert closed.count('data-testid="member"') == 4
    opened = page_of(owner_client, gang, minions[1])
    assert opened.count('data-testid="member-panel"') == 1
    assert f'id="id_m{minions[1].pk}-rename-name"' in opened
    for other in (leader, minions[0], minions[2]):
        assert f"m{other.pk}-" not in opened  # no form of a closed member
    # The open minion's panel: team (live), extras (live), another copy, the card closed.
    assert f'id="form-m{minions[1].pk}-team" class="action bwg2-live' in opened
    assert f'id="form-m{minions[1].pk}-add_extra" class="action bwg2-live' in opened
    assert 'data-testid="duplicate"' in opened
    assert f'<details class="panel-section bwg2-edit" id="bwg2-edit-{minions[1].pk}">' in opened
    # A Hero's panel has the Leader box and no "Add another" (one per gang).
    hero = page_of(owner_client, gang, leader)
    assert f'id="form-m{leader.pk}-leader"' in hero
    assert 'data-testid="duplicate"' not in hero
    assert f'id="form-m{leader.pk}-team"' not in hero


def test_the_card_library_is_drawn_once_per_page(owner_client, gang):
    leader = add(owner_client, gang, "Captain Nathan Reinholdt")
    for _ in range(6):
        add(owner_client, gang, "Tranquility Gunhand")
    option = "Tranquility Gunhand (Outlaws Minion, 40 XP) · sample"
    extra_option = "Snake Oil (10 Fame) · sample"
    for opened in (None, leader):
        page = page_of(owner_client, gang, opened)
        assert page.count(option) == 1
        assert page.count("Rustbucket Gatling (Outlaws Artillery") == 1
    assert page_of(owner_client, gang).count(extra_option) == 0  # only in an open panel
    assert page_of(owner_client, gang, leader).count(extra_option) == 1


def test_a_row_shows_the_level_and_the_key_numbers(owner_client, gang):
    leader, gunhand, *_ = legal_325(owner_client, gang)
    member_post(owner_client, gunhand, "team", team="Gunhands")
    editor = get_editor("bwg2")
    r = report(gang)
    leader.refresh_from_db()
    gunhand.refresh_from_db()
    row = editor.row(leader, r.members[str(leader.pk)])
    assert row["kind"] == "Hero · Leader"
    assert [label for label, _ in row["stats"]] == ["HP", "DP", "RC", "MC"]
    assert editor.row(gunhand, r.members[str(gunhand.pk)])["kind"] == "Minion · Team Gunhands"
    page = page_of(owner_client, gang)
    assert '<span class="row-kind">Hero · Leader</span>' in page
    assert page.count(">RC</") == 4  # on each row (no panel is open)


def test_all_good_talks_of_fame_only_against_a_limit(owner_client, gang):
    legal_325(owner_client, gang)
    evaluated = evaluate_gang(Gang.objects.get(pk=gang.pk))
    editor = get_editor("bwg2")
    assert editor.all_good(evaluated) == (
        "Nothing to fix: the gang is legal, 55 Fame under the limit."
    )
    gang.limit = 270
    gang.save()
    evaluated = evaluate_gang(Gang.objects.get(pk=gang.pk))
    assert editor.all_good(evaluated) == (
        "Nothing to fix: the gang is legal and uses its whole Fame limit."
    )
    gang.limit = None
    gang.save()
    evaluated = evaluate_gang(Gang.objects.get(pk=gang.pk))
    assert editor.all_good(evaluated) == "Nothing to fix: the gang is legal."
    assert "Nothing to fix: the gang is legal.</p>" in page_of(owner_client, gang)


def test_findings_name_members_in_words_not_keys(owner_client, gang):
    first = add(owner_client, gang, "Captain Nathan Reinholdt")
    second = add(owner_client, gang, "Marshal Eli Stone")
    for m in (first, second):
        member_post(owner_client, m, "rename", name="Slim")
        m.refresh_from_db()
        m.data = {**m.data, "leader": True}
        m.save()
    page = page_of(owner_client, gang)
    assert 'data-code="bwg2.too_many_leaders"' in page
    assert "exactly one, Slim (1st);" in page
    assert "(key " not in page and f"key {first.pk}" not in page
