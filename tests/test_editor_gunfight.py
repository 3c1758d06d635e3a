"""Gunfight v2's browser builder: every action through the client (htmx and plain, valid
and invalid, owner, stranger, anonymous), the open member's panel (drawn only when open),
the roster row, the rolls in the dice log, weapon packs, the built-in weapons and the
export/import round trip. Rolls use a seeded random source."""

from __future__ import annotations

import random
import re
from types import SimpleNamespace

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
    """Enter a Lawman Greenhorn by hand as the page does: name, type and experience, then
    its numbers and abilities in its panel. The answer to the last post."""
    data = {"enter-name": name, "enter-character_type": "lawman", "enter-experience": "greenhorn"}
    client.post(gang_url(gang, "enter"), data, **extra)
    member = gang.members.order_by("-position", "-id").first()
    values = {
        "character_type": "lawman",
        "experience": "greenhorn",
        **dict(zip(gf.CHARACTERISTICS, chars, strict=True)),
    }
    edit = {f"m{member.pk}-edit-{k}": v for k, v in values.items()}
    response = client.post(member_url(member, "edit"), edit, **extra)
    for a in abilities:
        response = add_ability(client, member, a, **extra)
    return response


def add_ability(client, member: Member, ability: str, **extra):
    data = {f"m{member.pk}-add_ability-ability": ability}
    return client.post(member_url(member, "add_ability"), data, **extra)


def remove_ability(client, member: Member, index: int, **extra):
    data = {f"m{member.pk}-remove_ability-index": index}
    return client.post(member_url(member, "remove_ability"), data, **extra)


def add_figures(client, gang, figure="trooper", count=4, weapon="", **extra):
    data = {
        "add_figures-figure": figure,
        "add_figures-count": count,
        "add_figures-name": "",
        "add_figures-character_type": "soldier",
        "add_figures-weapon": weapon,
    }
    return client.post(gang_url(gang, "add_figures"), data, **extra)


def page(client, gang: Gang, member: Member | None = None) -> str:
    """The builder page, with ``member`` open."""
    url = reverse("gang_detail", args=[gang.pk])
    if member is not None:
        url += f"?open={member.pk}"
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


def panel_of(html: str) -> str:
    """The open member's panel in a page or an htmx answer ("" when none is open)."""
    start = html.find('data-testid="member-panel"')
    if start < 0:
        return ""
    return html[start : html.index("</li>", html.index('data-testid="remove"', start))]


def builtin(name: str) -> Item:
    return Item.objects.get(system="gunfight", owner=None, category="weapon", name=name)


def edit_data(member: Member, **changes) -> dict:
    data = member.data
    values = {
        "character_type": data["character_type"],
        "experience": data["experience"],
        **data["characteristics"],
    }
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
    # The weapon list is in the open member's panel only.
    add_figures(owner_client, gfgang)
    trooper = gfgang.members.get()
    weapon = "Winchester rifle (\u2013/12&quot;/48&quot;, 15 shots)"
    assert weapon not in page(owner_client, gfgang)
    assert page(owner_client, gfgang, trooper).count(weapon) == 1
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
    html = page(owner_client, gfgang, member)
    assert "Derringer (1&quot;/3&quot;/6&quot;, 2 shots) · House rules" in html
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

    # The new character opens in the panel with every die it rolled.
    html = panel_of(response.content.decode())
    assert 'data-member-name="Doc"' in response.content.decode()
    assert html.count('data-testid="member-roll"') == len(data["rolls"])
    for r in data["rolls"]:
        assert f'title="{r["purpose"]}"' in html  # the dice log's line, in full
    assert html.count('data-testid="die"') == len(data["rolls"])
    for r in data["rolls"]:
        assert f'<span class="die" data-testid="die">{r["rolled"][0]}</span>' in html
    bd = data["characteristics"]["bd"]
    assert '<span class="gf-purpose">BD</span> <span class="gf-notation muted">D6</span>' in html
    assert f'<span class="gf-gives">+4 = {bd}</span>' in html  # what the die gave: 1D6 + 4
    assert "abilities on the Outsider, Gambler, Gunfighter table" in html
    for a in data["abilities"]:
        assert gf.ABILITIES[a]["name"].replace("'", "&#x27;") in html
    assert "Legal" in response.content.decode()
    assert response["HX-Replace-Url"].endswith(f"?open={member.pk}")

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
    response = roll(owner_client, gfgang, name="", ctype="wizard", exp="veteran", **HX)
    assert response.status_code == 200
    html = response.content.decode()
    assert "Select a valid choice. wizard is not one of the available choices." in html
    assert '<option value="veteran" selected>' in html  # what was picked stays picked
    assert not gfgang.members.exists()
    assert not DiceRoll.objects.filter(gang=gfgang).exists()
    response = roll(owner_client, gfgang, name="x" * 101)
    assert response.status_code == 200
    assert "Ensure this value has at most 100 characters" in response.content.decode()
    assert not gfgang.members.exists()


def test_rolled_characters_are_named_after_their_type_and_numbered(owner_client, gfgang):
    for _ in range(3):
        roll(owner_client, gfgang, name="", ctype="gunfighter", **HX)
    names = list(gfgang.members.values_list("name", flat=True))
    assert names == ["Gunfighter", "Gunfighter 2", "Gunfighter 3"]
    member = gfgang.members.get(name="Gunfighter 2")
    # The dice log names the character as it was named.
    assert DiceRoll.objects.filter(gang=gfgang, outcome__startswith="Gunfighter 2 — ").exists()
    assert member.data["rolls"][0]["purpose"] == "Gunfighter 2: BD"


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
    assert '<span class="row-kind">Troopers \u00d74 · Soldier</span>' in html
    assert '<span class="total-value" data-testid="fame">4</span>' in html
    assert f'id="form-m{trooper.pk}-figures"' in panel_of(html)  # it opened
    assert "Legal" in html
    response = add_figures(owner_client, gfgang, figure="rabble", count=3)
    assert response.status_code == 302
    assert evaluate_gang(gfgang).report.total == 7
    roster_ok(gfgang)


def test_one_button_adds_troopers_or_rabble_and_the_panel_sets_the_rest(owner_client, gfgang):
    html = page(owner_client, gfgang)
    assert 'name="add_figures-figure" value="trooper"' in html
    assert 'name="add_figures-figure" value="rabble"' in html
    # The button is the whole post: one figure, named after its kind, open in its panel.
    response = owner_client.post(gang_url(gfgang, "add_figures"), {"add_figures-figure": "rabble"})
    rabble = gfgang.members.get()
    assert response.status_code == 302
    assert response["Location"].endswith(f"?open={rabble.pk}#member-{rabble.pk}")
    assert rabble.name == "Rabble" and rabble.data["count"] == 1
    response = owner_client.post(
        gang_url(gfgang, "add_figures"), {"add_figures-figure": "rabble"}, **HX
    )
    second = gfgang.members.get(name="Rabble 2")
    assert f'id="form-m{second.pk}-figures"' in panel_of(response.content.decode())
    # How many and what they are: live controls in the panel (no Save button with JS).
    panel = panel_of(page(owner_client, gfgang, rabble))
    form = panel[panel.index(f'id="form-m{rabble.pk}-figures"') :]
    assert re.search(r'hx-trigger="change[^"]*, submit"', form[: form.index(">")])
    prefix = f"m{rabble.pk}-figures-"
    response = owner_client.post(
        member_url(rabble, "figures"),
        {prefix + "count": 5, prefix + "character_type": "indian"},
        **HX,
    )
    assert '<span class="row-kind">Rabble \u00d75 · Indian</span>' in response.content.decode()
    assert evaluate_gang(gfgang).report.total == 6


def test_add_figures_invalid(owner_client, gfgang):
    response = add_figures(owner_client, gfgang, count=0, **HX)
    assert response.status_code == 200
    assert "Ensure this value is greater than or equal to 1." in response.content.decode()
    assert not gfgang.members.exists()
    response = owner_client.post(
        gang_url(gfgang, "add_figures"), {"add_figures-figure": "zombie"}, **HX
    )
    assert response.status_code == 200
    assert "Select a valid choice. zombie is not one of the available choices." in (
        response.content.decode()
    )
    assert not gfgang.members.exists()


def test_enter_a_character_by_hand(owner_client, gfgang):
    # Name, type and experience: it opens with 7s, no abilities yet, its numbers open.
    data = {
        "enter-name": "Wyatt",
        "enter-character_type": "lawman",
        "enter-experience": "greenhorn",
    }
    response = owner_client.post(gang_url(gfgang, "enter"), data, **HX)
    assert response.status_code == 200
    member = gfgang.members.get()
    assert member.name == "Wyatt"
    assert member.data == gf.SYSTEM.new_member("character", "lawman", "greenhorn")
    html = panel_of(response.content.decode())
    assert f'id="gf-edit-{member.pk}" open' in html
    assert 'data-code="gunfight.ability_count"' in html  # the rules ask for its ability
    assert f'id="id_m{member.pk}-add_ability-ability"' in html  # and the list is there
    # Then its numbers and ability, in the panel.
    values = {"character_type": "lawman", "experience": "greenhorn"}
    values.update(bd=7, sk=8, sp=6, ag=9, wp=7)
    edit = {f"m{member.pk}-edit-{k}": v for k, v in values.items()}
    owner_client.post(member_url(member, "edit"), edit, **HX)
    response = add_ability(owner_client, member, "leader", **HX)
    member.refresh_from_db()
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
    # A Greenhorn has its one ability: the list goes.
    assert f'id="id_m{member.pk}-add_ability-ability"' not in html
    assert not DiceRoll.objects.filter(gang=gfgang).exists()
    roster_ok(gfgang)


def test_enter_out_of_range_is_the_engines_finding(owner_client, gfgang):
    response = enter(owner_client, gfgang, chars=(11, 8, 6, 9, 7), **HX)
    html = response.content.decode()
    assert 'data-code="gunfight.characteristic_out_of_range"' in html
    assert gfgang.members.get().data["characteristics"]["bd"] == 11
    roster_ok(gfgang)


def test_enter_invalid(owner_client, gfgang):
    data = {"enter-name": "Ike", "enter-character_type": "lawman", "enter-experience": "legend"}
    response = owner_client.post(gang_url(gfgang, "enter"), data, **HX)
    assert response.status_code == 200
    html = response.content.decode()
    assert "Select a valid choice. legend is not one of the available choices." in html
    assert 'value="Ike"' in html
    assert 'id="gf-enter" open' in html  # the form with its error stays in view
    assert not gfgang.members.exists()
    # A number that is no number, typed in the panel: the error beside it, nothing saved.
    response = enter(
        owner_client, gfgang, name="Ike", chars=("abc", 8, 6, 9, 7), abilities=(), **HX
    )
    assert response.status_code == 200
    html = panel_of(response.content.decode())
    assert "BD: Enter a whole number." in html
    assert 'value="abc"' in html
    assert gfgang.members.get().data["characteristics"]["bd"] == 7


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
    add = f'id="id_m{member.pk}-add_ability-ability"'
    assert add not in page(owner_client, gfgang, member)  # a Greenhorn has its one
    # An Old Hand has two: the rules say so, and the list to add one comes.
    html = owner_client.post(
        member_url(member, "edit"), edit_data(member, experience="old_hand"), **HX
    ).content.decode()
    assert 'data-code="gunfight.ability_count"' in html
    panel = panel_of(html)
    assert add in panel
    # Its own table first, then the others saying where they come from; not what it has.
    options = re.findall(r'<option value="([^"]*)"', panel[panel.index(add) :])
    lawman = gf.table_abilities(gf.TABLES["lawman"])
    assert options[: len(lawman)] == ["", *[a for a in lawman if a != "leader"]]
    assert "leader" not in options
    other = next(a for a in gf.ABILITIES if a not in lawman and editor._TABLE_OF[a])
    name = gf.ABILITIES[other]["name"].replace("'", "&#x27;")
    assert f"{name} · {editor._TABLE_OF[other]} table</option>" in panel
    html = add_ability(owner_client, member, other, **HX).content.decode()
    assert 'data-code="gunfight.ability_count"' not in html
    assert 'data-code="gunfight.ability_not_on_table"' in html  # allowed, with a warning
    assert "Legal" in html
    member.refresh_from_db()
    assert member.data["abilities"] == ["leader", other]
    # Back to Greenhorn: both stay until one is taken off.
    html = owner_client.post(
        member_url(member, "edit"), edit_data(member, experience="greenhorn"), **HX
    ).content.decode()
    assert 'data-code="gunfight.ability_count"' in html
    html = remove_ability(owner_client, member, 1, **HX).content.decode()
    assert 'data-code="gunfight.ability_count"' not in html
    member.refresh_from_db()
    assert member.data["abilities"] == ["leader"]


def test_add_and_remove_abilities_invalid(owner_client, gfgang):
    enter(owner_client, gfgang, abilities=())
    member = gfgang.members.get()
    for bad, error in [("", "This field is required."), ("flying", "Select a valid choice.")]:
        response = add_ability(owner_client, member, bad, **HX)
        assert response.status_code == 200
        assert error in panel_of(response.content.decode())
    add_ability(owner_client, member, "leader", **HX)
    # What it has is not offered again (a repeat is an error in the rules).
    response = add_ability(owner_client, member, "leader", **HX)
    assert "Select a valid choice." in response.content.decode()
    response = remove_ability(owner_client, member, 3, **HX)
    assert response.status_code == 200
    assert "That ability is not there any more." in panel_of(response.content.decode())
    member.refresh_from_db()
    assert member.data["abilities"] == ["leader"]
    # Troopers have none: adding is for characters; a stray one can be taken off.
    add_figures(owner_client, gfgang)
    trooper = gfgang.members.get(name="Trooper")
    response = add_ability(owner_client, trooper, "cool", **HX)
    assert "Only a Character can do this." in response.content.decode()
    trooper.data["abilities"] = ["cool"]
    trooper.save()
    html = page(owner_client, gfgang, trooper)
    assert 'data-code="gunfight.abilities_not_allowed"' in html
    assert f'id="form-m{trooper.pk}-remove_ability-0"' in panel_of(html)
    html = remove_ability(owner_client, trooper, 0, **HX).content.decode()
    assert 'data-code="gunfight.abilities_not_allowed"' not in html
    trooper.refresh_from_db()
    assert trooper.data["abilities"] == []


def test_changing_a_rolled_characters_abilities_makes_it_entered(owner_client, gfgang):
    roll(owner_client, gfgang)
    member = gfgang.members.get()
    first, second = member.data["abilities"]
    remove_ability(owner_client, member, 0, **HX)
    member.refresh_from_db()
    assert member.data["abilities"] == [second]
    assert member.data["source"] == "entered" and member.data["rolls"] == []
    assert DiceRoll.objects.filter(gang=gfgang).exists()  # the dice stay in the log
    add_ability(owner_client, member, first, **HX)
    member.refresh_from_db()
    assert member.data["abilities"] == [second, first]
    roster_ok(gfgang)


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
    "add_ability",
    "remove_ability",
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


# --------------------------------------------------------------------------- the page


def test_only_the_open_members_panel_is_drawn(owner_client, gfgang):
    enter(owner_client, gfgang)
    add_figures(owner_client, gfgang)
    wyatt = gfgang.members.get(name="Wyatt")
    trooper = gfgang.members.get(name="Trooper")
    html = page(owner_client, gfgang)
    assert 'data-testid="member-panel"' not in html
    assert f"form-m{wyatt.pk}-" not in html and f"form-m{trooper.pk}-" not in html
    html = page(owner_client, gfgang, wyatt)
    assert html.count('data-testid="member-panel"') == 1
    assert f'id="form-m{wyatt.pk}-rename"' in panel_of(html)
    assert f'id="form-m{wyatt.pk}-edit"' in panel_of(html)
    assert f"form-m{trooper.pk}-" not in html
    # A character has no "how many"; troopers have no characteristics to change or re-roll.
    assert f'id="form-m{wyatt.pk}-figures"' not in html
    html = panel_of(page(owner_client, gfgang, trooper))
    assert f'id="form-m{trooper.pk}-figures"' in html
    assert 'data-testid="change"' not in html and 'data-testid="reroll"' not in html


def test_the_row_says_type_and_experience_and_key_stats(owner_client, gfgang):
    enter(owner_client, gfgang, abilities=("loyal_sidekick",))
    add_figures(owner_client, gfgang, count=4)
    add_figures(owner_client, gfgang, figure="rabble", count=1)
    html = page(owner_client, gfgang)
    assert '<span class="row-kind">Lawman · Greenhorn + sidekick</span>' in html
    assert '<span class="row-kind">Troopers \u00d74 · Soldier</span>' in html
    assert '<span class="row-kind">Rabble · Soldier</span>' in html
    wyatt = html[html.index('data-member-name="Wyatt"') :]
    wyatt = wyatt[: wyatt.index("</li>")]
    assert 'data-testid="member-cost">2</span>' in wyatt  # the sidekick is a figure
    # The row's stats: Skill, Speed and Willpower, as the engine gives them.
    evaluated = evaluate_gang(gfgang)
    rows = {m.name: editor.EDITOR.row(m, figures) for m, figures in evaluated.rows()}
    assert rows["Wyatt"] == {
        "kind": "Lawman · Greenhorn + sidekick",
        "stats": [("SK", "8"), ("SP", "6"), ("WP", "7")],
    }
    assert rows["Trooper"]["stats"] == [("SK", "4"), ("SP", "4"), ("WP", "4")]
    assert rows["Rabble"] == {"kind": "Rabble · Soldier", "stats": [("SK", "\u2013")]}
    for label, value in rows["Wyatt"]["stats"]:
        assert label in wyatt and f" {value}</span>" in wyatt


def test_every_panel_control_is_live_with_a_button_only_without_javascript(owner_client, gfgang):
    enter(owner_client, gfgang)
    member = gfgang.members.get()
    owner_client.post(
        member_url(member, "add_weapon"), {f"m{member.pk}-add_weapon-weapon": builtin("Bow").pk}
    )
    html = panel_of(page(owner_client, gfgang, member))
    for action in ("rename", "add_weapon", "edit"):
        start = html.index(f'id="form-m{member.pk}-{action}"')
        tag = html[start : html.index(">", start)]
        assert re.search(r'hx-trigger="change[^"]*, submit"', tag), action
        form = html[start : html.index("</form>", start)]
        assert 'class="js-hide' in form or 'js-hide"' in form, action
    # Every control has an id that stays the same from answer to answer (the page morphs).
    for control in ("rename-name", "add_weapon-weapon", "edit-bd", "edit-experience"):
        assert f'id="id_m{member.pk}-{control}"' in html
    for button in ("reroll-submit", "remove-submit", "remove_weapon-0", "remove_ability-0"):
        assert f'id="form-m{member.pk}-{button}"' in html
    # The buttons that stay are the ones that do something once: re-roll (asked first) and
    # remove (undone from the roster instead).
    assert html.count('hx-confirm="') == 1


def test_a_plain_post_of_a_member_action_goes_back_with_the_member_open(owner_client, gfgang):
    enter(owner_client, gfgang)
    member = gfgang.members.get()
    response = owner_client.post(
        member_url(member, "rename"), {f"m{member.pk}-rename-name": "Virgil"}
    )
    assert response.status_code == 302
    assert response["Location"].endswith(f"?open={member.pk}#member-{member.pk}")
    member.refresh_from_db()
    assert member.name == "Virgil"
    # An invalid plain post is the whole page, the member open, the error beside the field.
    response = owner_client.post(member_url(member, "edit"), edit_data(member, sk="x"))
    assert response.status_code == 200
    html = panel_of(response.content.decode())
    assert "SK: Enter a whole number." in html
    assert f'id="gf-edit-{member.pk}" open' in html


def test_nothing_to_fix_says_nothing_about_points(owner_client, gfgang):
    roll(owner_client, gfgang)
    add_figures(owner_client, gfgang, count=4, weapon=builtin("Carbine").pk)
    evaluated = evaluate_gang(gfgang)
    assert editor.EDITOR.all_good(evaluated) == "Nothing to fix: the gang is legal."
    doc = gfgang.members.get(name="Doc")
    for html in (page(owner_client, gfgang), page(owner_client, gfgang, doc)):
        assert '<p class="all-good">Nothing to fix: the gang is legal.</p>' in html
        text = re.sub(r"<[^>]+>", " ", html)  # what the page says, not its markup
        assert not re.search(r"\bpoints?\b", text, re.IGNORECASE), "Gunfight has no points"


def test_the_dice_in_the_panel_say_what_each_gave():
    table = gf.table_for("gunfighter")
    die = 1
    ability = gf.table_result(table, die)
    other = next(d for d in range(1, 21) if gf.table_result(table, d) != ability)
    rolls = [
        {"purpose": f"Doc: {gf.LABELS[c]}", "dice": "D6", "rolled": [3]} for c in gf.CHARACTERISTICS
    ]
    rolls += [
        {"purpose": "Doc: ability 1 (Gunfighter table)", "dice": "D20", "rolled": [die]},
        {"purpose": "Doc: ability 2 (Gunfighter table)", "dice": "D20", "rolled": [die]},
        {"purpose": "Doc: Holliday: re-roll: repeat of X", "dice": "D20", "rolled": [other]},
        {"purpose": "re-roll: repeat of X", "dice": "D20", "rolled": [other]},
        {"purpose": "Kid: bad", "dice": "D20", "rolled": "x"},
    ]
    figures = SimpleNamespace(character_type="gunfighter", rolls=rolls)
    rows = editor.roll_rows(figures)
    # In short, without the name the character had when it rolled (it may have another now).
    assert [r["label"] for r in rows] == [
        *("BD", "SK", "SP", "AG", "WP"),
        *("Ability 1", "Ability 2", "Re-roll", "Re-roll", "Kid: bad"),
    ]
    assert [r["purpose"] for r in rows] == [r["purpose"] for r in rolls]
    assert [r["gives"] for r in rows[:5]] == ["+4 = 7"] * 5
    name = gf.ABILITIES[ability]["name"]
    assert rows[5]["gives"] == name
    assert rows[6]["gives"] == f"{name}: a repeat, rolled again"
    assert rows[7]["gives"] == gf.ABILITIES[gf.table_result(table, other)]["name"]
    assert rows[9]["rolled"] == [] and rows[9]["gives"] == ""


def test_the_side_facts_never_show_a_members_key(owner_client, gfgang):
    enter(owner_client, gfgang)
    member = gfgang.members.get()
    owner_client.post(member_url(member, "rename"), {f"m{member.pk}-rename-name": ""})
    html = page(owner_client, gfgang)
    assert "Leaders (can rally): (no name)" in html
    assert f"Leaders (can rally): {member.pk}" not in html
