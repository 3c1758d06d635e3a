"""The gf26 (Gangfight Core 2.6) party builder: every action through the client (owner,
stranger, anonymous; invalid input beside its field), the open model's panel, the roster
rows, both content kinds, the roster round trip and the page's fixed query count."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from builder.editors import get_editor
from builder.models import ContentPack, Gang, Item, Member
from builder.roster import evaluate_gang, export_roster
from builder.services import create_gang, import_gang
from rules.roster import check_roster, read_roster, write_roster

HX = {"HTTP_HX_REQUEST": "true"}
EDITOR = get_editor("gf26")


# --------------------------------------------------------------------------- helpers


@pytest.fixture
def party(owner, content) -> Gang:
    return create_gang(owner, system="gf26", name="Iron Company", limit=500)


def profile(name: str) -> Item:
    return Item.objects.get(system="gf26", category="profile", name=name, owner=None)


def gang_url(gang: Gang, action: str) -> str:
    return reverse("gang_action", args=[gang.pk, action])


def member_url(gang: Gang, member: Member, action: str) -> str:
    return reverse("member_action", args=[gang.pk, member.pk, action])


def page_url(gang: Gang, member: Member | None = None) -> str:
    url = reverse("gang_detail", args=[gang.pk])
    return f"{url}?open={member.pk}" if member else url


def panel_of(html: str) -> str:
    """The open model's panel in a page or fragment ("" when none is open)."""
    start = html.find('id="member-panel"')
    if start < 0:
        return ""
    ends = [
        i for i in (html.find('<li class="roster-row', start), html.find("</ol>", start)) if i > 0
    ]
    return html[start : min(ends)]


def form_of(html: str, form_id: str) -> str:
    """One form of the page, by its id."""
    start = html.index(f'id="{form_id}"')
    return html[start : html.index("</form>", start)]


def add(client, gang: Gang, name: str, profile_name: str, **extra) -> Member:
    data = {"add_member-profile": profile(profile_name).pk, "add_member-name": name}
    response = client.post(gang_url(gang, "add_member"), data, **extra)
    assert response.status_code in (200, 302), response.content.decode()[:500]
    return gang.members.get(name=name)


def perks(client, gang: Gang, member: Member, *ids: str, **extra):
    return client.post(
        member_url(gang, member, "perks"), {f"m{member.pk}-perks-perks": ids}, **extra
    )


def codes(gang: Gang) -> set[str]:
    return {f.code for f in evaluate_gang(gang).report.findings}


def assert_roster_ok(gang: Gang) -> dict:
    roster = export_roster(gang)
    assert check_roster(roster) == []
    return roster


def legal_party(client, gang: Gang) -> dict[str, Member]:
    captain = add(client, gang, "Aldric", "Human Captain")
    bowman = add(client, gang, "Wat", "Human Bowman")
    veteran = add(client, gang, "Bors", "Human Veteran")
    perks(client, gang, captain, "fast", "stubborn", "healer")
    perks(client, gang, bowman, "marksman")
    perks(client, gang, veteran, "true_grit", "solid")
    client.post(member_url(gang, captain, "leader"))
    return {"captain": captain, "bowman": bowman, "veteran": veteran}


def profile_post(prefix: str = "", **change) -> dict[str, str]:
    values = {
        "troop_type": "veteran",
        "size": "large",
        "points": "80",
        "mov": "5",
        "att": "4",
        "mrk": "1",
        "def_": "3",
        "iv": "2",
        "wp": "3",
        "arm": "4",
        "en": "5",
        "dam": "5",
        "equipment": "Great axe | 10 | two hands\nHelmet | 2",
        "setting": "chronicle",
        **change,
    }
    return {f"{prefix}{k}": v for k, v in values.items()}


# --------------------------------------------------------------------------- built-in content


def test_builtin_profiles_and_equipment_are_loaded_as_samples(content):
    profiles = Item.objects.filter(system="gf26", category="profile", owner=None)
    assert profiles.count() == 6
    captain = profiles.get(name="Human Captain")
    assert captain.is_sample
    assert captain.stats["troop_type"] == "hero" and captain.stats["points"] == 110
    assert "name" not in captain.stats and "id" not in captain.stats
    equipment = Item.objects.filter(system="gf26", category="equipment", owner=None)
    assert {"Sword", "Shield", "Bow", "Pulse rifle"} <= set(
        equipment.values_list("name", flat=True)
    )
    assert all(e.is_sample for e in equipment)
    assert equipment.get(name="Sword").stats == {"points": 5, "notes": "hand weapon"}


def test_the_builder_page_shows_the_catalogue_priced_with_its_kit(owner_client, party):
    html = owner_client.get(page_url(party)).content.decode()
    # A profile shows what the model will cost: 110 for the Captain, 10 for its kit.
    add_form = form_of(html, "form-add_member")
    assert "Human Captain (Hero) · 120 pts · sample" in add_form
    assert "Human Bowman (Regular) · 45 pts · sample" in add_form
    assert "Troll (Veteran) · 150 pts · sample" in add_form
    library = form_of(html, "form-add_member-library")
    assert library.count('data-testid="add-profile"') == 6
    assert "+ 120 pts" in library and "Medium · MOV 4 ATT 4 MRK 3" in library
    assert "Sword (5), Shield (5)" in library
    assert 'data-testid="set_limit-500"' in html and 'data-testid="set_limit-1000"' in html
    assert "No models yet" in html
    assert 'id="member-panel"' not in html


# --------------------------------------------------------------------------- gang actions


def test_picking_a_profile_adds_the_model_and_opens_it(owner_client, party):
    item = profile("Human Captain")
    response = owner_client.post(
        gang_url(party, "add_member"), {"add_member-profile": item.pk}, **HX
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="builder"' in html and "<html" not in html
    member = party.members.get()
    assert member.name == "Human Captain"  # named after the profile
    assert member.data["profile"]["name"] == "Human Captain"
    assert member.data["profile"]["points"] == 110
    assert member.data["perks"] == []
    assert f'id="member-{member.pk}"' in html
    assert response["HX-Replace-Url"].endswith(f"?open={member.pk}")
    panel = panel_of(html)
    assert f'id="form-m{member.pk}-rename"' in panel  # its panel is open, to rename it
    assert re.search(r'data-testid="perk-count">\s*0 of 3', panel)
    assert 'data-code="gf26.too_few_perks"' in panel
    # The select applies as it changes; its button is for pages without JavaScript.
    add_form = form_of(html, "form-add_member")
    assert 'hx-trigger="change, submit"' in add_form and "js-hide" in add_form
    assert "add_member-name" not in add_form  # renaming happens in the panel


def test_a_second_model_of_a_profile_gets_a_number(owner_client, party):
    item = profile("Human Bowman")
    for _ in range(3):
        owner_client.post(gang_url(party, "add_member"), {"add_member-profile": item.pk}, **HX)
    names = list(party.members.order_by("position").values_list("name", flat=True))
    assert names == ["Human Bowman", "Human Bowman 2", "Human Bowman 3"]


def test_a_profile_in_the_library_list_is_added_in_one_tap(owner_client, party):
    item = profile("Troll")
    response = owner_client.post(gang_url(party, "add_member"), {"add_member-profile": item.pk})
    troll = party.members.get()
    assert troll.name == "Troll"
    assert response.status_code == 302
    assert response["Location"].endswith(f"?open={troll.pk}#member-{troll.pk}")

    response = owner_client.post(
        gang_url(party, "add_member"),
        {"add_member-profile": profile("Human Bowman").pk, "add_member-name": "Wat"},
    )
    assert response.status_code == 302
    wat = party.members.get(name="Wat")
    assert response["Location"].endswith(f"#member-{wat.pk}")
    assert_roster_ok(party)


def test_add_member_with_no_or_a_wrong_profile_is_refused(owner_client, party):
    response = owner_client.post(gang_url(party, "add_member"), {"add_member-profile": ""}, **HX)
    assert response.status_code == 200
    assert "This field is required." in response.content.decode()
    other = Item.objects.get(system="gf26", category="equipment", name="Sword", owner=None)
    response = owner_client.post(
        gang_url(party, "add_member"), {"add_member-profile": other.pk}, **HX
    )
    assert response.status_code == 200
    assert "Select a valid choice" in response.content.decode()
    assert not party.members.exists()


def test_set_limit_presets(owner_client, party):
    response = owner_client.post(gang_url(party, "set_limit"), {"set_limit-limit": "1000"}, **HX)
    assert response.status_code == 200
    party.refresh_from_db()
    assert party.limit == 1000
    html = response.content.decode()
    assert "/ 1000" in html  # the fresh bar shows the new limit
    assert re.search(r'data-testid="set_limit-1000" aria-pressed="true"', html)
    response = owner_client.post(gang_url(party, "set_limit"), {"set_limit-limit": "500"})
    assert response.status_code == 302
    party.refresh_from_db()
    assert party.limit == 500


def test_set_limit_refuses_other_values(owner_client, party):
    response = owner_client.post(gang_url(party, "set_limit"), {"set_limit-limit": "750"}, **HX)
    assert response.status_code == 200
    assert "Select a valid choice" in response.content.decode()
    party.refresh_from_db()
    assert party.limit == 500


def test_set_setting(owner_client, party):
    response = owner_client.post(
        gang_url(party, "set_setting"), {"set_setting-setting": "aeon"}, **HX
    )
    assert response.status_code == 200
    party.refresh_from_db()
    assert party.data == {"setting": "aeon"}
    html = response.content.decode()
    assert "Setting: Aeon (Futuristic Combat)" in html  # in the party's facts
    assert re.search(r'<option value="aeon" selected>', form_of(html, "form-set_setting"))
    assert 'hx-trigger="change, submit"' in form_of(html, "form-set_setting")
    response = owner_client.post(gang_url(party, "set_setting"), {"set_setting-setting": "mars"})
    assert response.status_code == 200
    assert "Select a valid choice" in form_of(response.content.decode(), "form-set_setting")
    party.refresh_from_db()
    assert party.data == {"setting": "aeon"}
    owner_client.post(gang_url(party, "set_setting"), {"set_setting-setting": ""})
    party.refresh_from_db()
    assert party.data == {}
    assert_roster_ok(party)


# --------------------------------------------------------------------------- a legal party


def test_a_legal_party_built_through_the_actions_round_trips(owner_client, owner, party):
    legal_party(owner_client, party)
    report = evaluate_gang(party).report
    assert report.total == 120 + 45 + 65
    assert report.is_legal, [f.code for f in report.findings]
    aldric = party.members.get(name="Aldric")
    html = owner_client.get(page_url(party, aldric)).content.decode()
    assert "Legal" in html and 'data-testid="party-leader"' in panel_of(html)
    assert "Nothing to fix: the gang is legal. 270 of the 500 points are left to spend." in html
    roster = assert_roster_ok(party)
    again = read_roster(write_roster(roster))
    copy = import_gang(owner, again)
    assert copy.name == "Iron Company (2)"  # the name is taken by the party it came from
    assert export_roster(copy) == {**roster, "name": copy.name}
    assert evaluate_gang(copy).report.is_legal


# --------------------------------------------------------------------------- member actions


def test_perks_count_too_few_and_too_many_come_from_the_engine(owner_client, party):
    wat = add(owner_client, party, "Wat", "Human Bowman")
    response = perks(owner_client, party, wat, "marksman", **HX)
    assert response.status_code == 200
    wat.refresh_from_db()
    assert wat.data["perks"] == ["marksman"]
    panel = panel_of(response.content.decode())
    assert re.search(r'data-testid="perk-count">\s*1 of 1', panel)
    assert 'data-testid="perk-names">Marksman<' in panel
    assert "gf26.too_few_perks" not in codes(party)
    response = perks(owner_client, party, wat, "marksman", "fast", **HX)
    html = response.content.decode()
    assert 'data-code="gf26.too_many_perks"' in panel_of(html)
    # Words users know: the perks by their names, never their ids.
    assert "(Fast, Marksman)" in html and "(fast, marksman)" not in html
    wat.refresh_from_db()
    assert wat.data["perks"] == ["fast", "marksman"]  # in the book's order
    response = perks(owner_client, party, wat)
    assert response.status_code == 302
    assert "gf26.too_few_perks" in codes(party)
    assert_roster_ok(party)


def test_an_unknown_perk_is_refused(owner_client, party):
    wat = add(owner_client, party, "Wat", "Human Bowman")
    perks(owner_client, party, wat, "marksman")
    response = perks(owner_client, party, wat, "flying", **HX)
    assert response.status_code == 200
    form = form_of(response.content.decode(), f"form-m{wat.pk}-perks")
    assert "Select a valid choice. flying is not one of the available choices." in form
    wat.refresh_from_db()
    assert wat.data["perks"] == ["marksman"]


def test_party_leader_is_one_click_and_moves(owner_client, party):
    a = add(owner_client, party, "Aldric", "Human Captain")
    b = add(owner_client, party, "Bors", "Human Veteran")
    assert {"gf26.no_leader"} <= codes(party)
    response = owner_client.post(member_url(party, a, "leader"), **HX)
    assert response.status_code == 200
    a.refresh_from_db()
    assert a.data["leader"] is True
    assert "gf26.no_leader" not in codes(party)
    panel = panel_of(response.content.decode())
    assert 'data-testid="party-leader"' in panel and "Not the Party Leader" in panel
    # The row says so too, beside the troop type and profile.
    assert EDITOR.row(a, evaluate_gang(party).report.members[str(a.pk)])["kind"] == (
        "Hero · Party Leader · Human Captain"
    )
    # the Veteran takes the lead: the engine says a Veteran may not lead the party
    response = owner_client.post(member_url(party, b, "leader"))
    assert response.status_code == 302 and response["Location"].endswith(f"#member-{b.pk}")
    a.refresh_from_db()
    b.refresh_from_db()
    assert (a.data["leader"], b.data["leader"]) == (False, True)
    assert "gf26.leader_not_hero" in codes(party)
    owner_client.post(member_url(party, b, "leader"))  # again: clears it
    b.refresh_from_db()
    assert b.data["leader"] is False
    assert_roster_ok(party)


def test_units_and_their_leader(owner_client, party):
    a = add(owner_client, party, "Aldric", "Human Captain")
    b = add(owner_client, party, "Bors", "Human Veteran")
    c = add(owner_client, party, "Wat", "Human Bowman")
    url = member_url(party, c, "unit")
    response = owner_client.post(
        url, {f"m{c.pk}-unit-unit": "  Shield   Wall ", f"m{c.pk}-unit-unit_leader": "on"}, **HX
    )
    assert response.status_code == 200
    c.refresh_from_db()
    assert c.data["unit"] == "Shield Wall" and c.data["unit_leader"] is True
    panel = panel_of(response.content.decode())
    assert 'data-code="gf26.unit_of_one"' in panel
    assert 'value="Shield Wall"' in panel and "(leads it)" in panel
    assert 'hx-trigger="change, submit"' in form_of(panel, f"form-m{c.pk}-unit")
    owner_client.post(member_url(party, b, "unit"), {f"m{b.pk}-unit-unit": "shield wall"})
    # a Regular may lead a Veteran: the book sets no rank rule for units
    assert evaluate_gang(party).report.gang["units"][0]["leader"] == str(c.pk)
    assert "gf26.unit_of_one" not in codes(party)
    # the Veteran takes the lead: the Regular's flag is cleared
    owner_client.post(
        member_url(party, b, "unit"),
        {f"m{b.pk}-unit-unit": "Shield Wall", f"m{b.pk}-unit-unit_leader": "on"},
    )
    c.refresh_from_db()
    assert c.data["unit_leader"] is False
    assert evaluate_gang(party).report.gang["units"][0]["leader"] == str(b.pk)
    assert "gf26.too_many_unit_leaders" not in codes(party)
    facts = dict(evaluate_gang(party).report.gang["facts"])
    assert "Unit Shield Wall" in facts
    response = owner_client.post(
        member_url(party, a, "unit"), {f"m{a.pk}-unit-unit": "x" * 41}, **HX
    )
    assert response.status_code == 200
    form = form_of(response.content.decode(), f"form-m{a.pk}-unit")
    assert "Ensure this value has at most 40 characters" in form
    assert 'value="' + "x" * 41 + '"' in form  # what was typed stays
    a.refresh_from_db()
    assert a.data["unit"] == ""
    assert_roster_ok(party)


def test_buy_and_drop_equipment(owner_client, party):
    wat = add(owner_client, party, "Wat", "Human Bowman")
    sword = Item.objects.get(system="gf26", category="equipment", name="Sword", owner=None)
    response = owner_client.post(
        member_url(party, wat, "add_equipment"), {f"m{wat.pk}-add_equipment-item": sword.pk}, **HX
    )
    assert response.status_code == 200
    wat.refresh_from_db()
    assert wat.data["equipment"] == [{"name": "Sword", "points": 5, "notes": "hand weapon"}]
    assert evaluate_gang(party).report.total == 45 + 5
    html = response.content.decode()
    assert 'data-testid="member-cost">50<' in html  # on the row
    panel = panel_of(html)
    bought = panel[panel.index(f'id="gf26-bought-{wat.pk}-0"') :]
    assert bought[: bought.index("</li>")].startswith(f'id="gf26-bought-{wat.pk}-0">')
    assert "Sword" in bought[: bought.index("</li>")]
    assert "Comes with:</span> Bow (10)" in panel
    # The select is back at its prompt, ready for the next piece.
    buy = form_of(panel, f"form-m{wat.pk}-add_equipment")
    assert 'hx-trigger="change, submit"' in buy and "selected" not in buy.split("</option>")[1]
    bad = owner_client.post(
        member_url(party, wat, "add_equipment"), {f"m{wat.pk}-add_equipment-item": "999999"}, **HX
    )
    assert bad.status_code == 200
    assert "Select a valid choice" in form_of(bad.content.decode(), f"form-m{wat.pk}-add_equipment")
    assert_roster_ok(party)
    bad = owner_client.post(
        member_url(party, wat, "remove_equipment"), {f"m{wat.pk}-remove_equipment-index": "3"}, **HX
    )
    assert bad.status_code == 200
    assert "That equipment is gone already" in panel_of(bad.content.decode())
    response = owner_client.post(
        member_url(party, wat, "remove_equipment"), {f"m{wat.pk}-remove_equipment-index": "0"}
    )
    assert response.status_code == 302
    wat.refresh_from_db()
    assert wat.data["equipment"] == []
    assert_roster_ok(party)


def test_rename(owner_client, party):
    wat = add(owner_client, party, "Wat", "Human Bowman")
    response = owner_client.post(
        member_url(party, wat, "rename"), {f"m{wat.pk}-rename-name": "Watkin"}, **HX
    )
    assert response.status_code == 200
    wat.refresh_from_db()
    assert wat.name == "Watkin"
    html = response.content.decode()
    assert 'data-member-name="Watkin"' in html
    assert 'value="Watkin"' in form_of(html, f"form-m{wat.pk}-rename")
    response = owner_client.post(
        member_url(party, wat, "rename"), {f"m{wat.pk}-rename-name": ""}, **HX
    )
    assert response.status_code == 200
    assert "This field is required." in form_of(response.content.decode(), f"form-m{wat.pk}-rename")
    wat.refresh_from_db()
    assert wat.name == "Watkin"


def test_remove(owner_client, party):
    wat = add(owner_client, party, "Wat", "Human Bowman")
    response = owner_client.post(member_url(party, wat, "remove"), **HX)
    assert response.status_code == 200
    assert not party.members.exists()
    assert panel_of(response.content.decode()) == ""  # a removed model's panel closes
    wat = add(owner_client, party, "Wat", "Human Bowman")
    response = owner_client.post(member_url(party, wat, "remove"))
    assert response.status_code == 302
    assert not party.members.exists()


def test_edit_the_members_own_profile(owner_client, party):
    wat = add(owner_client, party, "Wat", "Human Bowman")
    prefix = f"m{wat.pk}-edit_profile-"
    data = profile_post(prefix, profile_name="Ogre Bowman", troop_type="regular")
    response = owner_client.post(member_url(party, wat, "edit_profile"), data, **HX)
    assert response.status_code == 200, response.content.decode()[:300]
    wat.refresh_from_db()
    assert wat.data["profile"] == {
        "name": "Ogre Bowman",
        "troop_type": "regular",
        "size": "large",
        "mov": 5,
        "att": 4,
        "mrk": 1,
        "def": 3,
        "iv": 2,
        "wp": 3,
        "arm": 4,
        "en": 5,
        "dam": 5,
        "points": 80,
        "equipment": [
            {"name": "Great axe", "points": 10, "notes": "two hands"},
            {"name": "Helmet", "points": 2},
        ],
        "setting": "chronicle",
    }
    assert evaluate_gang(party).report.total == 92
    assert_roster_ok(party)
    # EN 0 is the engine's to say; a bad equipment line and a negative number are refused
    response = owner_client.post(
        member_url(party, wat, "edit_profile"),
        profile_post(prefix, profile_name="Ogre", equipment="Club | cheap", mov="-1"),
        **HX,
    )
    html = form_of(response.content.decode(), f"form-m{wat.pk}-edit_profile")
    assert response.status_code == 200
    assert "Line 1: the points (“cheap”) must be a whole number." in html
    assert "Ensure this value is greater than or equal to 0." in html
    assert "Club | cheap" in html  # the player's input is kept
    assert 'hx-trigger="change, submit"' in html
    assert f'id="profile-{wat.pk}" class="panel-section gf26-profile" open' in (
        response.content.decode()
    )
    wat.refresh_from_db()
    assert wat.data["profile"]["name"] == "Ogre Bowman"
    owner_client.post(
        member_url(party, wat, "edit_profile"), profile_post(prefix, profile_name="Ogre", en="0")
    )
    assert "gf26.attribute_out_of_range" in codes(party)
    assert_roster_ok(party)


# --------------------------------------------------------------------------- the panel


def test_only_the_open_models_panel_is_drawn(owner_client, party):
    a = add(owner_client, party, "Aldric", "Human Captain")
    b = add(owner_client, party, "Wat", "Human Bowman")
    closed = owner_client.get(page_url(party)).content.decode()
    assert panel_of(closed) == ""
    assert f"form-m{a.pk}-" not in closed and f"form-m{b.pk}-" not in closed
    html = owner_client.get(page_url(party, b)).content.decode()
    panel = panel_of(html)
    assert 'data-member-name="Wat"' in html and 'data-member-name="Aldric"' in html
    assert f"form-m{b.pk}-perks" in panel and f"form-m{a.pk}-" not in html
    # The figures come first: the nine attributes, after perks.
    assert panel.index('class="gf26-stats"') < panel.index(f"form-m{b.pk}-rename")
    assert re.findall(r"<dt>(\w+)</dt>", panel)[:9] == [
        "MOV", "ATT", "MRK", "DEF", "IV", "WP", "ARM", "EN", "DAM",
    ]  # fmt: skip


def test_the_perks_are_drawn_once_with_their_rule_and_applied_as_ticked(owner_client, party):
    wat = add(owner_client, party, "Wat", "Human Bowman")
    add(owner_client, party, "Bors", "Human Veteran")
    html = owner_client.get(page_url(party, wat)).content.decode()
    form = form_of(html, f"form-m{wat.pk}-perks")
    assert form.count('type="checkbox"') == 23
    # Each perk with its rule, without the flavour text, once on the page.
    assert html.count("This model&#x27;s Movement (MOV) is increased by 1.") == 1
    assert "You were built for speed" not in html
    assert "This model is immune to the effects of Fear." in form
    assert 'hx-trigger="change, submit"' in form
    assert re.search(r'class="small js-hide" data-testid="perks"', form)  # no Save with JS
    assert re.search(r'data-testid="perk-count">\s*0 of 1', html)
    perks(owner_client, party, wat, "marksman", "fearless")
    html = owner_client.get(page_url(party, wat)).content.decode()
    assert 'data-testid="perk-names">Marksman, Fearless<' in html
    assert re.search(r'value="marksman"[^>]*checked', html)
    # The stat perk shows on the stat line, marked as raised.
    assert re.search(r'class="raised"[^>]*><dt>MRK</dt><dd>4</dd>', panel_of(html))


def test_every_control_in_the_panel_is_live_and_has_a_stable_id(owner_client, party):
    wat = add(owner_client, party, "Wat", "Human Bowman")
    sword = Item.objects.get(system="gf26", category="equipment", name="Sword", owner=None)
    owner_client.post(
        member_url(party, wat, "add_equipment"), {f"m{wat.pk}-add_equipment-item": sword.pk}
    )
    html = owner_client.get(page_url(party, wat)).content.decode()
    panel = panel_of(html)
    for action in ("rename", "unit", "perks", "add_equipment", "edit_profile"):
        form = form_of(panel, f"form-m{wat.pk}-{action}")
        assert 'hx-trigger="change, submit"' in form, action
        assert re.search(r'<button type="submit"[^>]*js-hide', form), action
    for action in ("leader", "remove"):
        button = form_of(panel, f"form-m{wat.pk}-{action}")
        assert "js-hide" not in button, action
    party_area = html[html.index('id="gf26-party"') : html.index('id="gf26-units"')]
    controls = re.findall(r"<(?:input|select|textarea|button)\b[^>]*>", panel + party_area)
    assert len(controls) > 40
    for control in controls:
        assert 'type="hidden"' in control or " id=" in control, control


def test_the_row_shows_the_type_profile_and_key_stats(owner_client, party):
    wat = add(owner_client, party, "Wat", "Human Bowman")
    owner_client.post(
        member_url(party, wat, "unit"),
        {f"m{wat.pk}-unit-unit": "Archers", f"m{wat.pk}-unit-unit_leader": "on"},
    )
    figures = evaluate_gang(party).report.members[str(wat.pk)]
    row = EDITOR.row(wat, figures)
    assert row["kind"] == "Regular · Unit Archers · Human Bowman"
    assert [label for label, _ in row["stats"]] == ["MOV", "ATT", "MRK", "DEF", "EN"]
    html = owner_client.get(page_url(party)).content.decode()
    assert "Regular · Unit Archers · Human Bowman" in html


def test_nothing_to_fix_says_what_is_true_about_points(owner_client, owner, party):
    legal_party(owner_client, party)
    evaluated = evaluate_gang(party)
    assert EDITOR.all_good(evaluated) == (
        "Nothing to fix: the gang is legal. 270 of the 500 points are left to spend."
    )
    party.limit = 230
    party.save(update_fields=["limit"])
    assert EDITOR.all_good(evaluate_gang(party)) == (
        "Nothing to fix: the gang is legal. Every one of the 230 points is spent."
    )
    party.limit = 231
    party.save(update_fields=["limit"])
    assert EDITOR.all_good(evaluate_gang(party)).endswith("1 of the 231 points is left to spend.")
    party.limit = None
    party.save(update_fields=["limit"])
    assert EDITOR.all_good(evaluate_gang(party)) == "Nothing to fix: the gang is legal."


# --------------------------------------------------------------------------- access


@pytest.mark.parametrize(
    "action,data",
    [("add_member", {}), ("set_limit", {"set_limit-limit": "1000"}), ("set_setting", {})],
)
def test_gang_actions_are_404_for_a_stranger_and_login_for_anonymous(
    stranger_client, client, party, action, data
):
    url = gang_url(party, action)
    assert stranger_client.post(url, data).status_code == 404
    response = client.post(url, data)
    assert response.status_code == 302 and "/login/" in response["Location"]
    party.refresh_from_db()
    assert party.limit == 500


@pytest.mark.parametrize("action", list(get_editor("gf26").member_actions))
def test_member_actions_are_404_for_a_stranger_and_login_for_anonymous(
    owner_client, stranger_client, client, party, action
):
    wat = add(owner_client, party, "Wat", "Human Bowman")
    url = member_url(party, wat, action)
    assert stranger_client.post(url, {}).status_code == 404
    response = client.post(url, {})
    assert response.status_code == 302 and "/login/" in response["Location"]
    assert party.members.get().name == "Wat"


# --------------------------------------------------------------------------- content kinds


def gf26_pack(client) -> ContentPack:
    data = {"system": "gf26", "name": "Dwarf holds", "use_in_my_gangs": "on"}
    response = client.post(reverse("pack_list"), data)
    assert response.status_code == 302, response.content.decode()[:500]
    return ContentPack.objects.get(name="Dwarf holds")


def test_a_profile_in_a_pack_and_a_member_from_it(owner_client, owner, content):
    pack = gf26_pack(owner_client)
    url = reverse("entry_add", args=[pack.pk, "profile"])
    response = owner_client.post(url, {"name": "Dwarf Thane", **profile_post(troop_type="hero")})
    assert response.status_code == 302, response.content.decode()[:800]
    item = pack.items.get(name="Dwarf Thane")
    assert item.category == "profile"
    assert item.stats["troop_type"] == "hero" and item.stats["def"] == 3
    gang = create_gang(owner, system="gf26", name="Hold", limit=1000)
    html = owner_client.get(reverse("gang_detail", args=[gang.pk])).content.decode()
    assert "Dwarf Thane (Hero) · 92 pts · Dwarf holds" in html  # 80 + its kit, 12
    response = owner_client.post(
        gang_url(gang, "add_member"), {"add_member-profile": item.pk, "add_member-name": "Thrain"}
    )
    assert response.status_code == 302
    thane = gang.members.get()
    assert thane.data["profile"]["name"] == "Dwarf Thane"
    assert evaluate_gang(gang).report.total == 92
    assert_roster_ok(gang)


def test_a_bad_profile_entry_is_refused_with_the_line_named(owner_client, content):
    pack = gf26_pack(owner_client)
    url = reverse("entry_add", args=[pack.pk, "profile"])
    response = owner_client.post(
        url,
        {"name": "Broken", **profile_post(troop_type="god", equipment="Axe | 5\n| 3")},
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert "Select a valid choice. god is not one of the available choices." in html
    assert "Line 2: write “name | points | notes”." in html
    assert not pack.items.exists()


def test_equipment_entries_in_a_pack(owner_client, owner, content):
    pack = gf26_pack(owner_client)
    url = reverse("entry_add", args=[pack.pk, "equipment"])
    response = owner_client.post(url, {"name": "Rune axe", "points": "12", "notes": "+1 DAM"})
    assert response.status_code == 302, response.content.decode()[:800]
    item = pack.items.get(name="Rune axe")
    assert item.stats == {"points": 12, "notes": "+1 DAM"}
    response = owner_client.post(url, {"name": "Free lunch", "points": "-3"})
    assert response.status_code == 200
    assert "Ensure this value is greater than or equal to 0." in response.content.decode()
    assert not pack.items.filter(name="Free lunch").exists()
    gang = create_gang(owner, system="gf26", name="Hold", limit=1000)
    html = owner_client.get(reverse("gang_detail", args=[gang.pk])).content.decode()
    assert "Human Captain" in html
    owner_client.post(
        gang_url(gang, "add_member"), {"add_member-profile": profile("Human Captain").pk}
    )
    member = gang.members.get()
    html = owner_client.get(page_url(gang, member)).content.decode()
    assert "Rune axe (12 pts) · Dwarf holds" in panel_of(html)
    owner_client.post(
        member_url(gang, member, "add_equipment"), {f"m{member.pk}-add_equipment-item": item.pk}
    )
    member.refresh_from_db()
    assert member.data["equipment"] == [{"name": "Rune axe", "points": 12, "notes": "+1 DAM"}]
    assert_roster_ok(gang)


# --------------------------------------------------------------------------- escaping, queries


def test_user_text_is_escaped(owner_client, party):
    add(owner_client, party, "<script>alert(1)</script>", "Human Bowman")
    html = owner_client.get(reverse("gang_detail", args=[party.pk])).content.decode()
    assert "<script>alert(1)</script>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html


def _page_queries(client, gang: Gang) -> int:
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(reverse("gang_detail", args=[gang.pk]))
    assert response.status_code == 200
    return len(ctx.captured_queries)


def test_the_page_costs_the_same_queries_for_1_and_50_members(owner_client, owner, content):
    counts = []
    for size in (1, 50):
        gang = create_gang(owner, system="gf26", name=f"Party {size}", limit=1000)
        item = profile("Human Veteran")
        for i in range(size):
            owner_client.post(
                gang_url(gang, "add_member"),
                {"add_member-profile": item.pk, "add_member-name": f"Vet {i}"},
            )
        assert gang.members.count() == size
        counts.append(_page_queries(owner_client, gang))
    assert counts[0] == counts[1]


def test_the_share_page_shows_the_party(owner_client, client, party):
    legal_party(owner_client, party)
    html = client.get(reverse("gang_shared", args=[party.share_token])).content.decode()
    assert "Aldric" in html and "Legal" in html


def test_pack_entries_show_in_the_pack_the_library_and_edit_back(owner_client, content):
    pack = gf26_pack(owner_client)
    url = reverse("entry_add", args=[pack.pk, "profile"])
    owner_client.post(url, {"name": "Dwarf Thane", **profile_post(troop_type="hero")})
    item = pack.items.get(name="Dwarf Thane")
    detail = owner_client.get(reverse("pack_detail", args=[pack.pk])).content.decode()
    assert "Dwarf Thane" in detail and "Hero, Large, 92 pts with its kit (profile 80)" in detail
    library = owner_client.get(reverse("library", args=["gf26"])).content.decode()
    assert "Human Captain" in library
    edit = owner_client.get(reverse("entry_update", args=[item.pk])).content.decode()
    assert "Great axe | 10 | two hands" in edit and 'value="80"' in edit
    response = owner_client.post(
        reverse("entry_update", args=[item.pk]),
        {"name": "Dwarf Thane", **profile_post(troop_type="hero", points="95")},
    )
    assert response.status_code == 302
    item.refresh_from_db()
    assert item.stats["points"] == 95
