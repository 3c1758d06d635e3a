"""Pack files (a content pack as JSON) and the content a roster file carries; copying an
entry; the pack card form's rows and preview.

Issue 18, item 4: "Pack export → import round trip for every system's content kinds; a
broken pack file is refused with the field at fault and nothing imported."
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from builder import services
from builder.editors import all_editors, get_editor
from builder.models import ContentPack, Gang, Item
from builder.packs import PackFileError, make_pack, pack_schema, read_pack, write_pack
from builder.roster import export_roster
from rules import get_system
from rules.roster import RosterFileError, content_schemas, read_roster
from tests.factories import build_gang, give

ROOT = Path(__file__).resolve().parent.parent

#: One entry of every kind of content every system's packs hold, as its form makes it.
SAMPLES = {
    ("bwg1", "weapon"): {
        "name": "Colt Dragoon",
        "stats": {"kind": "ranged", "hands": 1, "level": 4, "strength": "4", "traits": ["pistol"]},
    },
    ("bwg2", "card"): {
        "name": "Sheriff Hoyt",
        "stats": {
            "faction": "lawmen",
            "level": "hero",
            "size": "large",
            "artillery": False,
            **{"hp": 4, "dp": 3, "xp": 120, "str": 3, "spd": 5, "sta": 4, "int": 3},
            **{"rc": 4, "mc": 3},
            "equipment": [
                {
                    "name": "Scattergun",
                    "range": 6,
                    "str": 5,
                    "level": 3,
                    "traits": ["Shotgun", "2-Handed"],
                    "weightless": False,
                    "unique": False,
                    "consumable": False,
                }
            ],
            "vital_info": "Mortal Hero",
            "faction_rule": {"name": "Law and Order", "text": "Homebrew."},
            "skills": [
                {"name": "Deputise", "text": "Recruits Outlaws too.", "opens_factions": ["outlaws"]}
            ],
        },
    },
    ("bwg2", "extra"): {
        "name": "Dynamite",
        "stats": {
            "cost": 15,
            "level": 2,
            "range": "M",
            "str": 5,
            "traits": ["Thrown", "AOE"],
            "weightless": False,
            "unique": False,
            "consumable": True,
        },
    },
    ("gf26", "profile"): {
        "name": "Club Veteran",
        "stats": {
            "troop_type": "veteran",
            "size": "medium",
            **{"mov": 4, "att": 3, "mrk": 3, "def": 4, "iv": 3, "wp": 3, "arm": 4, "en": 4},
            "dam": 4,
            "points": 60,
            "equipment": [{"name": "Sword", "points": 5, "notes": "hand weapon"}],
        },
    },
    ("gf26", "equipment"): {"name": "Great axe", "stats": {"points": 5, "notes": "+2 DAM"}},
    ("gunfight", "weapon"): {
        "name": "Coach gun",
        "stats": {"point_blank": 3, "normal": 10, "long": 20, "shots": 2, "notes": "two barrels"},
    },
}
SYSTEMS = sorted({system for system, _ in SAMPLES})


def entries_of(system: str) -> list[dict]:
    return [
        {"category": category, **copy.deepcopy(entry)}
        for (s, category), entry in SAMPLES.items()
        if s == system
    ]


def pack_file(kinds_of: str = "bwg2", **changes) -> dict:
    """A pack file of one system's samples (``changes``: other top-level values)."""
    data = make_pack(kinds_of, "Club library", "What our club plays with.", entries_of(kinds_of))
    data.update(changes)
    return data


def upload(data: dict | str, name: str = "pack.json") -> SimpleUploadedFile:
    text = data if isinstance(data, str) else json.dumps(data)
    return SimpleUploadedFile(name, text.encode(), content_type="application/json")


def import_file(client: Client, data: dict | str, url: str | None = None, **fields):
    return client.post(
        url or reverse("pack_import"), {"import-file": upload(data), **fields}, follow=False
    )


def problems_of(response) -> str:
    return response.content.decode()


# --------------------------------------------------------------------------- round trip


def test_the_samples_cover_every_kind_of_content_of_every_system():
    kinds = {(e.system_id, k.category) for e in all_editors() for k in e.content_kinds}
    assert set(SAMPLES) == kinds
    schemas = {(s, c) for s, by_kind in content_schemas().items() for c in by_kind}
    assert schemas == kinds, "rules.roster.content_schemas and the editors' content_kinds agree"


@pytest.mark.parametrize("system", SYSTEMS)
def test_a_pack_exports_and_imports_back_unchanged(owner_client, owner, stranger_client, system):
    """Every kind of every system: file → pack → file is the same file, and a second
    player importing it gets the same entries."""
    first = pack_file(system)
    response = import_file(owner_client, first)
    assert response.status_code == 302, problems_of(response)[:2000]
    pack = ContentPack.objects.get(owner=owner)
    assert response["Location"] == reverse("pack_detail", args=[pack.pk])
    assert (pack.system, pack.name, pack.description) == (
        system,
        "Club library",
        "What our club plays with.",
    )
    for entry in entries_of(system):
        item = pack.items.get(category=entry["category"], name=entry["name"])
        assert item.stats == entry["stats"]
        assert item.owner == owner and item.system == system
    exported = owner_client.get(reverse("pack_export", args=[pack.pk]))
    assert exported.status_code == 200
    assert exported["Content-Type"] == "application/json; charset=utf-8"
    assert exported["Content-Disposition"].startswith('attachment; filename="club-library-')
    assert json.loads(exported.content) == {**first, "entries": sorted_entries(first)}
    assert exported.content.decode() == write_pack(json.loads(exported.content))
    # Public, it is anyone's to export and import: the same entries again.
    pack.is_public = True
    pack.save()
    again = stranger_client.get(reverse("pack_export", args=[pack.pk])).content
    assert again == exported.content
    assert import_file(stranger_client, again.decode()).status_code == 302
    theirs = ContentPack.objects.exclude(owner=owner).get()
    assert services.export_pack(theirs) == services.export_pack(pack)


def sorted_entries(data: dict) -> list[dict]:
    return sorted(data["entries"], key=lambda e: (e["category"], e["name"]))


def test_a_pack_made_in_the_forms_exports_as_the_forms_made_it(owner_client, owner):
    pack = ContentPack.objects.create(owner=owner, system="bwg2", name="Club cards")
    post = {
        "name": "Sheriff Hoyt",
        "faction": "lawmen",
        "level": "hero",
        "size": "large",
        **{"hp": "4", "dp": "3", "xp": "120", "str": "3", "spd": "5", "sta": "4"},
        **{"int": "3", "rc": "4", "mc": "3"},
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
    }
    response = owner_client.post(reverse("entry_add", args=[pack.pk, "card"]), post)
    assert response.status_code == 302
    data = json.loads(owner_client.get(reverse("pack_export", args=[pack.pk])).content)
    assert data["entries"] == [{"category": "card", **SAMPLES[("bwg2", "card")]}]


def test_names_taken_are_numbered(owner_client, owner):
    data = pack_file("bwg2")
    data["entries"].append(copy.deepcopy(data["entries"][0]))  # the same card twice
    assert import_file(owner_client, data).status_code == 302
    assert import_file(owner_client, data).status_code == 302
    assert sorted(owner.packs.values_list("name", flat=True)) == [
        "Club library",
        "Club library (2)",
    ]
    first = owner.packs.get(name="Club library")
    assert sorted(first.items.filter(category="card").values_list("name", flat=True)) == [
        "Sheriff Hoyt",
        "Sheriff Hoyt (2)",
    ]
    # Added to an existing pack: the names it has already are numbered on.
    url = reverse("pack_import_into", args=[first.pk])
    response = import_file(owner_client, pack_file("bwg2"), url)
    assert response.status_code == 302
    assert response["Location"] == reverse("pack_detail", args=[first.pk])
    assert first.items.filter(name="Sheriff Hoyt (3)").exists()
    assert first.items.filter(name="Dynamite (2)").exists()
    assert owner.packs.count() == 2


def test_an_imported_pack_is_used_in_my_gangs_when_asked(owner_client, owner, content):
    gang = services.create_gang(owner, system="bwg2", name="Crew", limit=325)
    import_file(owner_client, pack_file("bwg2"), **{"import-use_in_my_gangs": "on"})
    assert list(gang.packs.values_list("name", flat=True)) == ["Club library"]
    import_file(owner_client, pack_file("bwg2", name="Not used"))
    assert list(gang.packs.values_list("name", flat=True)) == ["Club library"]
    page = owner_client.get(reverse("gang_detail", args=[gang.pk])).content.decode()
    assert "Sheriff Hoyt (Lawmen Hero, 120 XP) · Club library" in page


# --------------------------------------------------------------------------- refused


def refused(client, data, url=None) -> str:
    before = (ContentPack.objects.count(), Item.objects.count())
    response = import_file(client, data, url)
    assert response.status_code == 200
    assert (ContentPack.objects.count(), Item.objects.count()) == before, "nothing is imported"
    return response.content.decode()


def test_a_broken_entry_is_refused_with_the_field_at_fault_and_nothing_imported(owner_client):
    data = pack_file("bwg2")
    data["entries"][1]["stats"]["cost"] = 0  # the extra: a form refuses it
    data["entries"][0]["stats"]["equipment"].append({"name": "", "range": 4})
    page = refused(owner_client, data)
    assert "entries[1].stats.cost: Ensure this value is greater than or equal to 1." in page
    assert (
        "entries[0].stats.equipment[1].name: Give it a name, or clear the row to leave it out."
        in page
    )


def test_a_file_of_the_wrong_shape_is_refused_naming_the_field(owner_client):
    data = pack_file("bwg2")
    data["entries"][0]["stats"]["hp"] = "four"
    page = refused(owner_client, data)
    assert "entries[0].stats.hp: &#x27;four&#x27; is not of type &#x27;integer&#x27;" in page
    data = pack_file("gf26")
    data["entries"][0]["category"] = "card"
    assert "entries[0].category: &#x27;card&#x27; is not one of" in refused(owner_client, data)
    assert "line 1, column 2: not valid JSON" in refused(owner_client, "{nope")
    rivals = pack_file("bwg2", system="rivals")
    assert "system: no content packs for &#x27;rivals&#x27;" in refused(owner_client, rivals)
    nul = pack_file("bwg2")
    nul["entries"][0]["name"] = "Bad\u0000name"
    assert "entries[0].name: holds a NUL character" in refused(owner_client, json.dumps(nul))


@pytest.mark.parametrize(
    ("system", "index", "change", "expected"),
    [
        ("bwg1", 0, {"level": 40}, "entries[0].stats.level: Ensure this value is less than"),
        ("bwg1", 0, {"kind": "melee"}, "entries[0].stats.traits: Pistol is a ranged trait"),
        ("bwg2", 0, {"faction": "martians"}, "entries[0].stats.faction: Select a valid choice."),
        ("gf26", 0, {"def": 99}, "entries[0].stats.def: Ensure this value is less than"),
        (
            "gf26",
            0,
            {"equipment": [{"name": "Sword", "points": -5}]},
            "entries[0].stats.equipment[0]: the points must be from 0",
        ),
        ("gunfight", 0, {"shots": 0}, "entries[0].stats.shots: Ensure this value is greater"),
    ],
)
def test_every_kind_names_its_field_at_fault(owner_client, system, index, change, expected):
    data = pack_file(system)
    data["entries"][index]["stats"].update(change)
    assert expected in refused(owner_client, data)


def test_a_book_weapons_name_is_refused_for_a_gunfight_weapon(owner_client):
    data = pack_file("gunfight")
    data["entries"][0]["name"] = "Pistol"
    assert "entries[0].name: The book already has the Pistol" in refused(owner_client, data)


def test_a_file_of_another_system_is_not_added_to_a_pack(owner_client, owner):
    pack = ContentPack.objects.create(owner=owner, system="gf26", name="Profiles")
    page = refused(owner_client, pack_file("bwg2"), reverse("pack_import_into", args=[pack.pk]))
    assert "system: the file is a Blackwater Gulch" in page


def test_read_pack_gives_every_problem_and_no_other_error():
    with pytest.raises(PackFileError) as caught:
        read_pack(b"\xff\xfe")
    assert "not UTF-8" in str(caught.value)
    with pytest.raises(PackFileError) as caught:
        read_pack(json.dumps({"format": "gangfight-roster"}))
    assert {p.where for p in caught.value.problems} == {"the file", "format"}
    assert read_pack(write_pack(pack_file("gf26")))["name"] == "Club library"


def test_the_schema_file_is_generated_from_the_code():
    written = json.loads((ROOT / "docs" / "pack.schema.json").read_text())
    assert written == pack_schema(), "run: python -m builder.packs > docs/pack.schema.json"


def test_the_format_page_and_schema_are_served(client, db):
    page = client.get(reverse("pack_format"))
    assert page.status_code == 200
    assert "gangfight-pack" in page.content.decode()
    schema = client.get(reverse("pack_schema"))
    assert schema["Content-Type"].startswith("application/schema+json")
    assert json.loads(schema.content) == pack_schema()


# --------------------------------------------------------------------------- who may


def test_pack_files_need_a_login(client, owner):
    pack = ContentPack.objects.create(owner=owner, system="bwg2", name="Club", is_public=True)
    urls = [
        reverse("pack_export", args=[pack.pk]),
        reverse("pack_import"),
        reverse("pack_import_into", args=[pack.pk]),
        reverse(
            "entry_copy",
            args=[
                Item.objects.create(
                    owner=owner,
                    pack=pack,
                    system="bwg2",
                    category="card",
                    name="Hoyt",
                    stats=SAMPLES[("bwg2", "card")]["stats"],
                ).pk
            ],
        ),
    ]
    for url in urls:
        response = client.get(url)
        assert response.status_code == 302 and response["Location"].startswith("/accounts/login")
    client.post(reverse("pack_import"), {"import-file": upload(pack_file())})
    assert ContentPack.objects.count() == 1
    assert client.post(reverse("card_preview", args=["bwg2", "card"]), {}).status_code == 302


def test_a_private_pack_is_its_owners_alone(owner_client, stranger_client, owner):
    pack = ContentPack.objects.create(owner=owner, system="bwg2", name="Secret cards")
    assert owner_client.get(reverse("pack_export", args=[pack.pk])).status_code == 200
    assert stranger_client.get(reverse("pack_export", args=[pack.pk])).status_code == 404
    url = reverse("pack_import_into", args=[pack.pk])
    assert stranger_client.get(url).status_code == 404
    assert stranger_client.post(url, {"import-file": upload(pack_file())}).status_code == 404
    assert not pack.items.exists()
    pack.is_public = True
    pack.save()
    assert stranger_client.get(reverse("pack_export", args=[pack.pk])).status_code == 200
    assert stranger_client.post(url, {"import-file": upload(pack_file())}).status_code == 404
    # The page shows export to both, import only to the owner.
    mine = owner_client.get(reverse("pack_detail", args=[pack.pk])).content.decode()
    theirs = stranger_client.get(reverse("pack_detail", args=[pack.pk])).content.decode()
    assert 'data-testid="export-pack"' in mine and 'data-testid="export-pack"' in theirs
    assert 'data-testid="import-into"' in mine and 'data-testid="import-into"' not in theirs


# --------------------------------------------------------------------------- copying


def test_copy_a_book_card_into_my_pack(owner_client, owner, content):
    pack = ContentPack.objects.create(owner=owner, system="bwg2", name="Club cards")
    book = Item.objects.get(
        owner=None, system="bwg2", category="card", name="Captain Nathan Reinholdt"
    )
    url = reverse("entry_copy", args=[book.pk])
    page = owner_client.get(url).content.decode()
    assert 'value="Captain Nathan Reinholdt"' in page  # the name is free in my pack
    assert f'name="hp" value="{book.stats["hp"]}"' in page
    assert 'name="equipment-0-name" value="Hand Cannon"' in page
    assert 'data-testid="card-preview"' in page
    form = {
        **services.entry_form_data(
            get_editor("bwg2").kind("card"), "Reinholdt the Younger", book.stats
        )
    }
    form["hp"] = 2
    form["into"] = pack.pk
    response = owner_client.post(url, {k: v for k, v in form.items() if v not in (None, False)})
    assert response.status_code == 302
    copy_ = pack.items.get()
    assert response["Location"] == reverse("pack_detail", args=[pack.pk]) + f"#entry-{copy_.pk}"
    assert copy_.name == "Reinholdt the Younger" and copy_.stats["hp"] == 2
    assert copy_.stats["equipment"] == book.stats["equipment"]
    assert Item.objects.get(pk=book.pk).stats == book.stats, "the original is not touched"


def test_copy_my_own_entry_is_numbered_in_its_pack(owner_client, owner):
    import_file(owner_client, pack_file("gf26"))
    pack = owner.packs.get()
    original = pack.items.get(name="Great axe")
    page = owner_client.get(reverse("entry_copy", args=[original.pk])).content.decode()
    assert 'value="Great axe (2)"' in page
    response = owner_client.post(
        reverse("entry_copy", args=[original.pk]),
        {"into": pack.pk, "name": "Great axe (2)", "points": "7", "notes": "+3 DAM"},
    )
    assert response.status_code == 302
    assert pack.items.get(name="Great axe (2)").stats == {"points": 7, "notes": "+3 DAM"}
    assert pack.items.get(name="Great axe").stats["points"] == 5


def test_copy_needs_a_pack_of_the_system_and_a_visible_entry(owner_client, stranger_client, owner):
    import_file(owner_client, pack_file("gf26"))
    item = owner.packs.get().items.get(name="Great axe")
    assert stranger_client.get(reverse("entry_copy", args=[item.pk])).status_code == 404
    pack = item.pack
    pack.is_public = True
    pack.save()
    page = stranger_client.get(reverse("entry_copy", args=[item.pk])).content.decode()
    assert "you have no Gangfight Core Rules 2.6 pack yet" in page
    page = owner_client.get(reverse("library", args=["gf26"])).content.decode()
    assert reverse("entry_copy", args=[item.pk]) in page


# --------------------------------------------------------------------------- the card form


def test_plus_without_javascript_adds_a_row_and_saves_nothing(owner_client, owner):
    pack = ContentPack.objects.create(owner=owner, system="bwg2", name="Club cards")
    url = reverse("entry_add", args=[pack.pk, "card"])
    response = owner_client.post(
        url, {"name": "Half typed", "equipment-0-name": "Knife", "add_row": "equipment"}
    )
    assert response.status_code == 200
    page = response.content.decode()
    assert 'name="equipment-0-name" value="Knife"' in page
    assert 'name="equipment-1-name"' in page
    assert "This field is required" not in page, "nothing is checked yet"
    assert not pack.items.exists()


def test_the_card_form_is_in_groups_with_a_preview(owner_client, owner):
    pack = ContentPack.objects.create(owner=owner, system="bwg2", name="Club cards")
    page = owner_client.get(reverse("entry_add", args=[pack.pk, "card"])).content.decode()
    for group in ("identity", "attributes", "equipment", "skills", "more"):
        assert f'data-testid="group-{group}"' in page
    assert 'data-row-template="equipment"' in page and "<script" in page
    assert "inline" not in page.split("<script", 1)[1].split(">", 1)[0]
    assert f'hx-post="{reverse("card_preview", args=["bwg2", "card"])}"' in page
    no_preview = owner_client.post(reverse("card_preview", args=["bwg2", "extra"]), {})
    assert no_preview.status_code == 404
    preview = owner_client.post(
        reverse("card_preview", args=["bwg2", "card"]),
        {"name": "Sheriff Hoyt", "faction": "lawmen", "level": "hero", "hp": "4", "rc": "x"},
    )
    assert preview.status_code == 200
    text = preview.content.decode()
    assert "Sheriff Hoyt" in text and "Lawmen" in text and 'data-testid="preview-front"' in text


# --------------------------------------------------------------------------- roster files


def add_card(client, gang: Gang, item: Item):
    response = client.post(
        reverse("gang_action", args=[gang.pk, "add_card"]), {"add_card-card": item.pk}
    )
    assert response.status_code == 302


def roster_of(client, gang: Gang) -> dict:
    response = client.get(reverse("gang_export", args=[gang.pk]))
    assert response.status_code == 200
    return read_roster(response.content)


def import_roster(client, roster: dict):
    text = json.dumps(roster).encode()
    return client.post(
        reverse("gang_import"),
        {"file": SimpleUploadedFile("gang.json", text, content_type="application/json")},
    )


def test_a_bwg2_gang_carries_its_pack_cards_to_a_player_without_the_pack(
    owner_client, owner, stranger_client, stranger, content
):
    import_file(owner_client, pack_file("bwg2"))
    pack = owner.packs.get()
    gang = services.create_gang(owner, system="bwg2", name="Hoyt's Posse", limit=325)
    assert list(gang.packs.all()) == [pack]
    add_card(owner_client, gang, pack.items.get(name="Sheriff Hoyt"))
    roster = roster_of(owner_client, gang)
    assert roster["content"] == [{"category": "card", **SAMPLES[("bwg2", "card")]}]
    assert "content" not in export_roster(gang), "campaigns and leagues copy rosters without it"
    response = import_roster(stranger_client, roster)
    assert response.status_code == 302
    theirs = Gang.objects.get(owner=stranger)
    carried = ContentPack.objects.get(owner=stranger)
    assert carried.name == "Hoyt's Posse content" and not carried.is_public
    assert list(theirs.packs.all()) == [carried]
    assert list(carried.items.values_list("name", flat=True)) == ["Sheriff Hoyt"]
    system = get_system("bwg2")
    printed = [c.text() for c in system.print_cards(export_roster(gang))]
    assert [c.text() for c in system.print_cards(export_roster(theirs))] == printed
    # ... and its builder offers the card, to add another.
    page = stranger_client.get(reverse("gang_detail", args=[theirs.pk])).content.decode()
    assert "Sheriff Hoyt (Lawmen Hero, 120 XP) · Hoyt&#x27;s Posse content" in page


def test_a_bwg1_gang_carries_its_pack_weapons(
    owner_client, owner, stranger_client, stranger, content
):
    import_file(owner_client, pack_file("bwg1"))
    colt = owner.packs.get().items.get()
    gang = build_gang(owner)
    give(gang.members.first(), colt)
    roster = roster_of(owner_client, gang)
    assert roster["content"] == [{"category": "weapon", **SAMPLES[("bwg1", "weapon")]}]
    assert import_roster(stranger_client, roster).status_code == 302
    theirs = Gang.objects.get(owner=stranger)
    leader = theirs.members.first()
    carried = [mi.item for mi in leader.member_items.all() if mi.item.name == "Colt Dragoon"]
    assert carried and carried[0].pack.name == "The Dalton Boys content"
    assert not stranger.packs.filter(name=services.MY_WEAPONS).exists()
    assert export_roster(theirs)["members"] == export_roster(gang)["members"]
    # Imported back by its owner: the same file (with the gang's new name).
    assert import_roster(owner_client, roster).status_code == 302
    again = Gang.objects.filter(owner=owner).exclude(pk=gang.pk).get()
    assert roster_of(owner_client, again)["content"] == roster["content"]


def test_a_gf26_gang_carries_its_profiles_and_equipment(
    owner_client, owner, stranger_client, stranger, content
):
    import_file(owner_client, pack_file("gf26"))
    pack = owner.packs.get()
    gang = services.create_gang(owner, system="gf26", name="Veterans", limit=500)
    profile = pack.items.get(name="Club Veteran")
    response = owner_client.post(
        reverse("gang_action", args=[gang.pk, "add_member"]), {"add_member-profile": profile.pk}
    )
    assert response.status_code == 302
    roster = roster_of(owner_client, gang)
    assert [e["name"] for e in roster["content"]] == ["Club Veteran"]
    assert import_roster(stranger_client, roster).status_code == 302
    theirs = Gang.objects.get(owner=stranger)
    assert export_roster(theirs)["members"] == export_roster(gang)["members"]


def test_a_broken_content_entry_refuses_the_whole_roster(
    owner_client, owner, stranger_client, stranger, content
):
    import_file(owner_client, pack_file("bwg2"))
    gang = services.create_gang(owner, system="bwg2", name="Posse", limit=325)
    add_card(owner_client, gang, owner.packs.get().items.get(name="Sheriff Hoyt"))
    roster = roster_of(owner_client, gang)
    roster["content"][0]["stats"]["xp"] = -3
    response = import_roster(stranger_client, roster)
    assert response.status_code == 200
    assert "content[0].stats.xp: Ensure this value is greater than or equal to 0." in (
        response.content.decode()
    )
    assert not Gang.objects.filter(owner=stranger).exists()
    assert not ContentPack.objects.filter(owner=stranger).exists()


def test_content_is_checked_by_the_roster_schema():
    roster = json.loads((ROOT / "docs" / "examples" / "rivals-legal-six-outlaws.json").read_text())
    roster["content"] = [{"category": "weapon", "name": "Knife", "stats": {}}]
    with pytest.raises(RosterFileError) as caught:
        read_roster(json.dumps(roster))
    assert [p.where for p in caught.value.problems] == ["content"]
    bwg1 = json.loads((ROOT / "docs" / "examples" / "bwg1-legal-dalton-boys.json").read_text())
    bwg1["content"] = [{"category": "weapon", "name": "Knife", "stats": {"kind": "melee"}}]
    with pytest.raises(RosterFileError) as caught:
        read_roster(json.dumps(bwg1))
    assert str(caught.value) == "content[0].stats: 'level' is a required property"


def test_a_card_with_more_rows_than_a_card_holds_is_refused(owner_client):
    data = pack_file("bwg2")
    item = data["entries"][0]["stats"]["equipment"][0]
    data["entries"][0]["stats"]["equipment"] = [{**item, "name": f"Gun {n}"} for n in range(41)]
    page = refused(owner_client, data)
    assert "entries[0].stats: A card holds at most 40 rows of equipment." in page
    assert owner_client.get(reverse("pack_import")).status_code == 200
