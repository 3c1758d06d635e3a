"""Gunfight v2's browser builder: every action through the client (htmx and plain, valid
and invalid, owner, stranger, anonymous), the rolls in the dice log, weapon packs, the
built-in weapons and the export/import round trip. Rolls use a seeded random source."""

from __future__ import annotations

import random

import pytest
from django.urls import reverse

from builder import services
from builder.editors import gunfight as editor
from builder.models import ContentPack, DiceRoll, Gang, Item, Member
from builder.roster import evaluate_gang, export_roster
from rules.dice import Dice
from rules.roster import check_roster, read_roster, write_roster
from rules.systems import gunfight as gf

HX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture(autouse=True)
def seeded_dice(monkeypatch):
    """Every roll in these tests comes from a seeded source: no test depends on luck."""
    monkeypatch.setattr(editor, "random_source", lambda: random.Random(4))


@pytest.fixture
def gfgang(owner, content) -> Gang:
    return services.create_gang(owner, system="gunfight", name="Earps", limit=None)


def gang_url(gang: Gang, action: str) -> str:
    return reverse("gang_action", args=[gang.pk, action])


def member_url(member: Member, action: str) -> str:
    return reverse("member_action", args=[member.gang_id, member.pk, action])


def roster_ok(gang: Gang) -> dict:
    roster = export_roster(gang)
    assert check_roster(roster) == []
    return roster


def roll(client, gang, name="Doc", ctype="gunfighter", exp="old_hand", **extra):
    data = {"roll-name": name, "roll-character_type": ctype, "roll-experience": exp}
    return client.post(gang_url(gang, "roll"), data, **extra)


def enter(client, gang, name="Wyatt", chars=(7, 8, 6, 9, 7), abilities=("leader",), **extra):
    data = {
        "enter-name": name,
        "enter-character_type": "lawman",
        "enter-experience": "greenhorn",
        **{f"enter-{c}": v for c, v in zip(gf.CHARACTERISTICS, chars, strict=True)},
    }
    for i, a in enumerate(abilities, start=1):
        data[f"enter-ability_{i}"] = a
    return client.post(gang_url(gang, "enter"), data, **extra)


def add_figures(client, gang, figure="trooper", count=4, weapon="", **extra):
    data = {
        "add_figures-figure": figure,
        "add_figures-count": count,
        "add_figures-name": "",
        "add_figures-character_type": "soldier",
        "add_figures-weapon": weapon,
    }
    return client.post(gang_url(gang, "add_figures"), data, **extra)


def builtin(name: str) -> Item:
    return Item.objects.get(system="gunfight", owner=None, category="weapon", name=name)


def edit_data(member: Member, **changes) -> dict:
    data = member.data
    values = {
        "character_type": data["character_type"],
        "experience": data["experience"],
        **data["characteristics"],
    }
    for i, a in enumerate(data["abilities"], start=1):
        values[f"ability_{i}"] = a
    values.update(changes)
    return {f"m{member.pk}-edit-{k}": v for k, v in values.items()}


# --------------------------------------------------------------------------- content


def test_builtin_weapons_are_loaded_and_offered(owner_client, gfgang):
    names = set(
        Item.objects.filter(system="gunfight", owner=None, category="weapon").values_list(
            "name", flat=True
        )
    )
    assert names == {w["name"] for w in gf.WEAPONS.values()}
    pistol = builtin("Pistol")
    assert pistol.stats["shots"] == 6 and pistol.stats["id"] == "pistol"
    assert not pistol.is_sample
    page = owner_client.get(reverse("gang_detail", args=[gfgang.pk])).content.decode()
    assert "Winchester rifle (\u2013/12&quot;/48&quot;, 15 shots)" in page
    library = owner_client.get(reverse("library", args=["gunfight"])).content.decode()
    assert "Sharps rifle" in library


def test_builtin_content_marks_samples_when_the_data_says_so(monkeypatch):
    weapons = {**gf.WEAPONS, "x": {**gf.WEAPONS["bow"], "name": "Sample bow", "is_sample": True}}
    monkeypatch.setattr(gf, "WEAPONS", weapons)
    entries = {e["name"]: e for e in editor.EDITOR.builtin_content()}
    assert entries["Sample bow"]["is_sample"] is True
    assert "is_sample" not in entries["Sample bow"]["stats"]
    assert entries["Bow"]["is_sample"] is False


def test_a_pack_weapon_valid_and_invalid(owner_client, owner, gfgang):
    pack = ContentPack.objects.create(owner=owner, system="gunfight", name="House rules")
    url = reverse("entry_add", args=[pack.pk, "weapon"])
    assert owner_client.get(url).status_code == 200
    response = owner_client.post(
        url, {"name": "Derringer", "point_blank": 1, "normal": 3, "long": 6, "shots": 2}
    )
    assert response.status_code == 302
    item = pack.items.get(name="Derringer")
    assert item.category == "weapon"
    assert item.stats == {"point_blank": 1, "normal": 3, "long": 6, "shots": 2}

    for bad, field_error in [
        ({"name": "Revolver", "normal": 6}, "The book already has the Pistol"),
        ({"name": "Cannon", "normal": -1}, "greater than or equal to 0"),
        ({"name": "Derringer"}, "already has a weapon called"),
    ]:
        response = owner_client.post(url, bad)
        assert response.status_code == 200
        assert field_error in response.content.decode()
    assert pack.items.count() == 1

    # The gang uses the pack: its weapon is offered (marked with the pack) and carried.
    services.set_gang_packs(gfgang, [pack])
    add_figures(owner_client, gfgang, figure="rabble", count=2)
    member = gfgang.members.get()
    page = owner_client.get(reverse("gang_detail", args=[gfgang.pk])).content.decode()
    assert "Derringer (1&quot;/3&quot;/6&quot;, 2 shots) · House rules" in page
    owner_client.post(
        member_url(member, "add_weapon"), {f"m{member.pk}-add_weapon-weapon": item.pk}, **HX
    )
    member.refresh_from_db()
    assert member.data["weapons"] == [
        {"name": "Derringer", "point_blank": 1, "normal": 3, "long": 6, "shots": 2}
    ]
    roster_ok(gfgang)


# --------------------------------------------------------------------------- rolling


def test_roll_a_character_shows_and_logs_every_die(owner_client, gfgang):
    response = roll(owner_client, gfgang, **HX)
    assert response.status_code == 200
    member = gfgang.members.get()
    data = member.data
    assert member.name == "Doc"
    assert data["source"] == "rolled" and data["character_type"] == "gunfighter"
    assert len(data["abilities"]) == 2
    # The member's dice are exactly the ones the seeded source gives.
    expected = gf.SYSTEM.generate_character(
        Dice(random.Random(4)), "gunfighter", "old_hand", name="Doc"
    )
    assert data == expected

    html = response.content.decode()
    assert html.count('data-testid="member-roll"') == len(data["rolls"])
    for r in data["rolls"]:
        assert r["purpose"] in html
    assert html.count('data-testid="die"') == len(data["rolls"])
    for a in data["abilities"]:
        assert gf.ABILITIES[a]["name"].replace("'", "&#x27;") in html
    assert "Legal" in html

    rolls = list(gfgang.dice_rolls.order_by("id"))
    assert [(r.purpose, f"D{r.sides}", r.dice) for r in rolls] == [
        (r["purpose"], r["dice"], r["rolled"]) for r in data["rolls"]
    ]
    first = rolls[0]
    assert first.action == "Roll a character"
    assert first.outcome == editor.describe_character(data, "Doc")
    assert first.outcome.startswith("Doc — Gunfighter (Old Hand): BD ")

    history = owner_client.get(reverse("gang_history", args=[gfgang.pk])).content.decode()
    assert history.count('data-testid="roll"') == len(rolls)
    assert first.outcome.replace("'", "&#x27;") in history
    for r in rolls:
        assert r.purpose in history
        assert f'<span class="die" data-testid="die">{r.dice[0]}</span>' in history
    roster_ok(gfgang)


def test_rolling_again_is_a_new_character_and_a_reload_never_rolls(owner_client, gfgang):
    response = roll(owner_client, gfgang, name="", ctype="lawman", exp="veteran")
    member = gfgang.members.get()
    assert response.status_code == 302
    assert response["Location"].endswith(f"#member-{member.pk}")
    assert member.name == "Lawman"  # named after its type when left empty
    count = DiceRoll.objects.filter(gang=gfgang).count()
    assert count == len(member.data["rolls"]) >= 8
    # A reload (GET) of the action or the page rolls nothing.
    assert owner_client.get(gang_url(gfgang, "roll")).status_code == 302
    owner_client.get(reverse("gang_detail", args=[gfgang.pk]))
    assert DiceRoll.objects.filter(gang=gfgang).count() == count
    roll(owner_client, gfgang, name="Second", **HX)
    assert gfgang.members.count() == 2
    assert DiceRoll.objects.filter(gang=gfgang).count() > count


def test_roll_invalid_keeps_input_and_rolls_nothing(owner_client, gfgang):
    response = roll(owner_client, gfgang, name="Kid", ctype="wizard", **HX)
    assert response.status_code == 200
    html = response.content.decode()
    assert "Select a valid choice. wizard is not one of the available choices." in html
    assert 'value="Kid"' in html
    assert not gfgang.members.exists()
    assert not DiceRoll.objects.filter(gang=gfgang).exists()


def test_reroll_rolls_a_fresh_character_in_place(owner_client, gfgang, monkeypatch):
    roll(owner_client, gfgang, **HX)
    member = gfgang.members.get()
    owner_client.post(
        member_url(member, "add_weapon"),
        {f"m{member.pk}-add_weapon-weapon": builtin("Pistol").pk},
        **HX,
    )
    before = DiceRoll.objects.filter(gang=gfgang).count()
    monkeypatch.setattr(editor, "random_source", lambda: random.Random(99))
    response = owner_client.post(member_url(member, "reroll"), {}, **HX)
    assert response.status_code == 200
    member.refresh_from_db()
    expected = gf.SYSTEM.generate_character(
        Dice(random.Random(99)), "gunfighter", "old_hand", name="Doc"
    )
    assert member.data["rolls"] == expected["rolls"]
    assert member.data["characteristics"] == expected["characteristics"]
    assert member.data["weapons"][0]["name"] == "Pistol"  # kept
    new = DiceRoll.objects.filter(gang=gfgang).order_by("id")[before:]
    assert len(new) == len(expected["rolls"])
    assert all(r.member_name == "Doc" and r.action == "Re-roll" for r in new)
    assert gfgang.members.count() == 1
    roster_ok(gfgang)


def test_reroll_invalid_for_a_trooper(owner_client, gfgang):
    add_figures(owner_client, gfgang)
    trooper = gfgang.members.get()
    response = owner_client.post(member_url(trooper, "reroll"), {}, **HX)
    assert response.status_code == 200
    assert "Only a Character can do this." in response.content.decode()
    assert not DiceRoll.objects.filter(gang=gfgang).exists()
    trooper.refresh_from_db()
    assert trooper.data["figure"] == "trooper"


# --------------------------------------------------------------------------- adding


def test_add_troopers_and_rabble(owner_client, gfgang):
    response = add_figures(owner_client, gfgang, count=4, weapon=builtin("Carbine").pk, **HX)
    assert response.status_code == 200
    trooper = gfgang.members.get()
    assert trooper.name == "Trooper"
    assert trooper.data["count"] == 4
    assert trooper.data["character_type"] == "soldier"
    assert trooper.data["weapons"] == [
        {
            "id": "carbine",
            "name": "Carbine",
            "point_blank": None,
            "normal": 10,
            "long": 36,
            "shots": 1,
        }
    ]
    html = response.content.decode()
    assert "Trooper \u00d74 · Soldier" in html
    assert '<span class="total-value" data-testid="fame">4</span>' in html
    assert "Legal" in html
    response = add_figures(owner_client, gfgang, figure="rabble", count=3)
    assert response.status_code == 302
    assert evaluate_gang(gfgang).report.total == 7
    roster_ok(gfgang)


def test_add_figures_invalid(owner_client, gfgang):
    response = add_figures(owner_client, gfgang, count=0, **HX)
    assert response.status_code == 200
    assert "Ensure this value is greater than or equal to 1." in response.content.decode()
    assert not gfgang.members.exists()


def test_enter_a_character_by_hand(owner_client, gfgang):
    response = enter(owner_client, gfgang, **HX)
    assert response.status_code == 200
    member = gfgang.members.get()
    assert member.data == {
        "figure": "character",
        "character_type": "lawman",
        "experience": "greenhorn",
        "characteristics": {"bd": 7, "sk": 8, "sp": 6, "ag": 9, "wp": 7},
        "abilities": ["leader"],
        "source": "entered",
        "rolls": [],
        "weapons": [],
    }
    html = response.content.decode()
    assert "Legal" in html and "Leader</strong> — " in html
    assert not DiceRoll.objects.filter(gang=gfgang).exists()
    roster_ok(gfgang)


def test_enter_out_of_range_is_the_engines_finding(owner_client, gfgang):
    response = enter(owner_client, gfgang, chars=(11, 8, 6, 9, 7), **HX)
    html = response.content.decode()
    assert 'data-code="gunfight.characteristic_out_of_range"' in html
    assert gfgang.members.get().data["characteristics"]["bd"] == 11
    roster_ok(gfgang)


def test_enter_invalid(owner_client, gfgang):
    response = enter(owner_client, gfgang, name="Ike", chars=("abc", 8, 6, 9, 7), **HX)
    assert response.status_code == 200
    html = response.content.decode()
    assert "Enter a whole number." in html
    assert 'value="Ike"' in html
    assert not gfgang.members.exists()


# --------------------------------------------------------------------------- member actions


def test_rename(owner_client, gfgang):
    enter(owner_client, gfgang)
    member = gfgang.members.get()
    response = owner_client.post(
        member_url(member, "rename"), {f"m{member.pk}-rename-name": "Morgan"}, **HX
    )
    assert response.status_code == 200
    member.refresh_from_db()
    assert member.name == "Morgan"
    response = owner_client.post(
        member_url(member, "rename"), {f"m{member.pk}-rename-name": "x" * 101}, **HX
    )
    assert response.status_code == 200
    assert "Ensure this value has at most 100 characters (it has 101)." in (
        response.content.decode()
    )
    member.refresh_from_db()
    assert member.name == "Morgan"


def test_edit_a_rolled_character_makes_it_entered(owner_client, gfgang):
    roll(owner_client, gfgang)
    member = gfgang.members.get()
    # Saving the same values keeps it rolled.
    owner_client.post(member_url(member, "edit"), edit_data(member), **HX)
    member.refresh_from_db()
    assert member.data["source"] == "rolled" and member.data["rolls"]
    response = owner_client.post(member_url(member, "edit"), edit_data(member, wp=3), **HX)
    assert response.status_code == 200
    member.refresh_from_db()
    assert member.data["characteristics"]["wp"] == 3
    assert member.data["source"] == "entered" and member.data["rolls"] == []
    assert 'data-code="gunfight.characteristic_outside_roll"' in response.content.decode()
    roster_ok(gfgang)


def test_edit_breaks_a_rule_and_fixes_it(owner_client, gfgang):
    enter(owner_client, gfgang)
    member = gfgang.members.get()
    html = owner_client.post(
        member_url(member, "edit"), edit_data(member, ability_2="cool"), **HX
    ).content.decode()
    assert 'data-code="gunfight.ability_count"' in html
    member.refresh_from_db()
    html = owner_client.post(
        member_url(member, "edit"), edit_data(member, experience="old_hand"), **HX
    ).content.decode()
    assert 'data-code="gunfight.ability_count"' not in html
    assert "Legal" in html


def test_edit_invalid(owner_client, gfgang):
    enter(owner_client, gfgang)
    member = gfgang.members.get()
    response = owner_client.post(
        member_url(member, "edit"), edit_data(member, experience="legend", bd=""), **HX
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert "Select a valid choice. legend is not one of the available choices." in html
    assert "This field is required." in html
    member.refresh_from_db()
    assert member.data["experience"] == "greenhorn"


def test_edit_is_for_characters_only(owner_client, gfgang):
    add_figures(owner_client, gfgang)
    trooper = gfgang.members.get()
    data = {
        f"m{trooper.pk}-edit-{k}": v
        for k, v in {
            "character_type": "lawman",
            "experience": "greenhorn",
            "bd": 5,
            "sk": 5,
            "sp": 5,
            "ag": 5,
            "wp": 5,
        }.items()
    }
    response = owner_client.post(member_url(trooper, "edit"), data, **HX)
    assert "Only a Character can do this." in response.content.decode()
    trooper.refresh_from_db()
    assert trooper.data["characteristics"] == gf.TROOPER_PROFILE


def test_figures_sets_how_many(owner_client, gfgang):
    add_figures(owner_client, gfgang, count=2)
    trooper = gfgang.members.get()
    url = member_url(trooper, "figures")
    prefix = f"m{trooper.pk}-figures-"
    response = owner_client.post(url, {prefix + "count": 6, prefix + "character_type": ""}, **HX)
    assert response.status_code == 200
    trooper.refresh_from_db()
    assert trooper.data["count"] == 6 and "character_type" not in trooper.data
    assert evaluate_gang(gfgang).report.total == 6
    response = owner_client.post(url, {prefix + "count": 0}, **HX)
    assert response.status_code == 200
    assert "Ensure this value is greater than or equal to 1." in response.content.decode()
    trooper.refresh_from_db()
    assert trooper.data["count"] == 6
    response = owner_client.post(url, {prefix + "count": 3})
    assert response.status_code == 302
    roster_ok(gfgang)


def test_add_and_remove_weapons(owner_client, gfgang):
    enter(owner_client, gfgang)
    member = gfgang.members.get()
    add = member_url(member, "add_weapon")
    for name in ("Pistol", "Knife"):
        response = owner_client.post(
            add, {f"m{member.pk}-add_weapon-weapon": builtin(name).pk}, **HX
        )
        assert response.status_code == 200
    member.refresh_from_db()
    assert [w["name"] for w in member.data["weapons"]] == ["Pistol", "Knife"]
    assert "Pistol, 2&quot; / 6&quot; / 14&quot;, reload after 6 shots" in response.content.decode()
    response = owner_client.post(add, {f"m{member.pk}-add_weapon-weapon": ""}, **HX)
    assert "This field is required." in response.content.decode()
    response = owner_client.post(add, {f"m{member.pk}-add_weapon-weapon": "99999"}, **HX)
    assert "Select a valid choice." in response.content.decode()

    remove = member_url(member, "remove_weapon")
    response = owner_client.post(remove, {f"m{member.pk}-remove_weapon-index": 5}, **HX)
    assert response.status_code == 200
    assert "That weapon is not carried any more." in response.content.decode()
    response = owner_client.post(remove, {f"m{member.pk}-remove_weapon-index": 0}, **HX)
    member.refresh_from_db()
    assert [w["name"] for w in member.data["weapons"]] == ["Knife"]
    roster_ok(gfgang)


def test_remove_a_member(owner_client, gfgang):
    enter(owner_client, gfgang)
    add_figures(owner_client, gfgang)
    member = gfgang.members.get(name="Wyatt")
    response = owner_client.post(member_url(member, "remove"), {}, **HX)
    assert response.status_code == 200
    assert list(gfgang.members.values_list("name", flat=True)) == ["Trooper"]
    trooper = gfgang.members.get()
    response = owner_client.post(member_url(trooper, "remove"), {})
    assert response.status_code == 302
    assert not gfgang.members.exists()
    html = owner_client.get(reverse("gang_detail", args=[gfgang.pk])).content.decode()
    assert 'data-code="gunfight.no_figures"' in html


def test_an_unknown_figure_can_be_renamed_and_removed(owner_client, gfgang):
    member = services.append_member(gfgang, name="Zed", data={"figure": "zombie"})
    html = owner_client.get(reverse("gang_detail", args=[gfgang.pk])).content.decode()
    assert 'data-code="gunfight.unknown_figure"' in html
    owner_client.post(member_url(member, "rename"), {f"m{member.pk}-rename-name": "Z"}, **HX)
    member.refresh_from_db()
    assert member.name == "Z"
    owner_client.post(member_url(member, "remove"), {}, **HX)
    assert not gfgang.members.exists()


# --------------------------------------------------------------------------- access


GANG_ACTIONS = ["roll", "add_figures", "enter"]
MEMBER_ACTIONS = [
    "rename",
    "edit",
    "reroll",
    "figures",
    "add_weapon",
    "remove_weapon",
    "remove",
]


def test_strangers_get_404_and_visitors_go_to_login(owner_client, stranger_client, client, gfgang):
    enter(owner_client, gfgang)
    member = gfgang.members.get()
    before = write_roster(export_roster(gfgang))
    for action in GANG_ACTIONS:
        assert stranger_client.post(gang_url(gfgang, action), {}).status_code == 404
        response = client.post(gang_url(gfgang, action), {})
        assert response.status_code == 302 and "/login" in response["Location"]
    for action in MEMBER_ACTIONS:
        assert stranger_client.post(member_url(member, action), {}).status_code == 404
        response = client.post(member_url(member, action), {})
        assert response.status_code == 302 and "/login" in response["Location"]
    assert owner_client.post(gang_url(gfgang, "nope"), {}).status_code == 404
    assert write_roster(export_roster(gfgang)) == before
    assert not DiceRoll.objects.exists()


# --------------------------------------------------------------------------- files


def test_export_read_import_round_trip(owner_client, owner, gfgang):
    roll(owner_client, gfgang, name="Doc", exp="veteran")
    enter(owner_client, gfgang)
    add_figures(owner_client, gfgang, count=3, weapon=builtin("Shotgun").pk)
    add_figures(owner_client, gfgang, figure="rabble", count=5)
    text = owner_client.get(reverse("gang_export", args=[gfgang.pk])).content
    roster = read_roster(text)
    assert [m["name"] for m in roster["members"]] == ["Doc", "Wyatt", "Trooper", "Rabble"]
    copy = services.import_gang(owner, roster)
    assert copy.system == "gunfight"
    assert [m.data for m in copy.members.all()] == [m.data for m in gfgang.members.all()]
    original = evaluate_gang(gfgang).report
    again = evaluate_gang(copy).report
    assert again.total == original.total >= 10
    assert [f.code for f in again.findings] == [f.code for f in original.findings]
    page = owner_client.get(reverse("gang_detail", args=[copy.pk]))
    assert page.status_code == 200 and b"Doc" in page.content
