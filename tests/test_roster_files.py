"""Roster files: reading and checking them, exporting and importing gangs, the CLI."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.urls import reverse

from builder.models import Gang, Item, Member
from builder.roster import export_roster
from builder.services import my_weapons_pack
from rules import get_system
from rules.roster import RosterFileError, make_roster, read_roster, roster_schema, write_roster
from tests.factories import build_gang

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "docs" / "examples").glob("*.json"))
BWG1_LEGAL = ROOT / "docs" / "examples" / "bwg1-legal-dalton-boys.json"


def problems(text: str | bytes) -> list[str]:
    with pytest.raises(RosterFileError) as caught:
        read_roster(text)
    return [str(p) for p in caught.value.problems]


def bwg1_file(**changes) -> dict:
    roster = json.loads(BWG1_LEGAL.read_text())
    roster.update(changes)
    return roster


def upload(roster: dict | str, name: str = "gang.json") -> SimpleUploadedFile:
    text = roster if isinstance(roster, str) else json.dumps(roster)
    return SimpleUploadedFile(name, text.encode(), content_type="application/json")


# --------------------------------------------------------------------------- reading


def test_every_example_is_a_roster_file():
    assert {p.name.split("-")[0] for p in EXAMPLES} >= {
        "bwg1",
        "bwg2",
        "gf26",
        "rivals",
        "gunfight",
    }
    for path in EXAMPLES:
        roster = read_roster(path.read_bytes())
        assert path.name.startswith(roster["system"] + "-")
        assert path.read_text() == write_roster(roster), f"{path.name} is not in canonical form"


def test_bad_json_names_the_line_and_column():
    """Python's JSON reader says where it stopped (3.13 names the trailing comma itself)."""
    assert problems('{\n  "format": "gangfight-roster",\n  "version": 1,\n}') in (
        ["line 4, column 1: not valid JSON: Expecting property name enclosed in double quotes"],
        ["line 3, column 15: not valid JSON: Illegal trailing comma before end of object"],
    )


def test_a_wrong_type_names_the_field():
    roster = bwg1_file()
    roster["members"][1]["data"]["points"]["rc"] = "three"
    roster["members"][2]["name"] = 7
    assert problems(json.dumps(roster)) == [
        "members[1].data.points.rc: 'three' is not of type 'integer'",
        "members[2].name: 7 is not of type 'string'",
    ]


def test_an_unknown_system_is_named_with_the_known_ones():
    [problem] = problems(json.dumps(bwg1_file(system="warhammer")))
    assert problem.startswith("system: unknown game system 'warhammer'; one of: ")
    for system_id in ("bwg1", "bwg2", "gf26", "rivals", "gunfight"):
        assert system_id in problem


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("[]", "the file: [] is not of type 'object'"),
        ('"roster"', "the file: 'roster' is not of type 'object'"),
        (json.dumps(bwg1_file(format="other")), "format: 'gangfight-roster' was expected"),
        (json.dumps(bwg1_file(version=2)), "version: 1 was expected"),
        (json.dumps(bwg1_file(limit=0)), "limit: 0 is less than the minimum of 1"),
        (json.dumps(bwg1_file(colour="red")), "the file: Additional properties are not allowed"),
    ],
)
def test_shape_problems_say_where(text, expected):
    assert any(p.startswith(expected) for p in problems(text)), problems(text)


def test_a_missing_field_is_named():
    roster = bwg1_file()
    del roster["members"]
    assert problems(json.dumps(roster)) == ["the file: 'members' is a required property"]


def test_text_that_is_not_utf8_is_refused():
    assert problems(b'{"name": "\xff"}') == ["byte 11: the file is not UTF-8 text"]


def test_a_byte_order_mark_is_accepted():
    assert read_roster(b"\xef\xbb\xbf" + BWG1_LEGAL.read_bytes())["name"] == "The Dalton Boys"


def test_too_many_members_is_refused():
    roster = make_roster("gunfight", "Horde", None, [("x", {})] * 201)
    assert any("is too long" in p for p in problems(json.dumps(roster)))


def test_schema_file_is_generated_from_the_engine():
    written = json.loads((ROOT / "docs" / "roster.schema.json").read_text())
    assert written == roster_schema(), "run: python -m rules.roster > docs/roster.schema.json"


# --------------------------------------------------------------------------- the command


def run_validate(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with pytest.raises(SystemExit) as exited:
        call_command("validate_roster", *args, stdout=out, stderr=err)
    return exited.value.code, out.getvalue(), err.getvalue()


def test_validate_a_legal_file_exits_0_and_prints_the_totals(db):
    code, out, _ = run_validate(str(BWG1_LEGAL))
    assert code == 0
    assert "Fame: 361 / 400" in out
    assert "legal: 0 error(s), 0 warning(s)" in out


def test_validate_an_illegal_file_exits_1_and_prints_every_finding(db):
    path = ROOT / "docs" / "examples" / "bwg1-illegal-too-many-chiefs.json"
    code, out, _ = run_validate(str(path))
    assert code == 1
    assert "ILLEGAL: 8 error(s), 3 warning(s)" in out
    assert re.search(r"error +bwg1\.too_many_leaders +2 \(Slick Sam\): .*second Leader", out)


def test_validate_as_json(db):
    path = ROOT / "docs" / "examples" / "bwg1-illegal-too-many-chiefs.json"
    code, out, _ = run_validate(str(path), "--json")
    result = json.loads(out)
    assert code == 1
    assert result["legal"] is False
    assert result["total"] == 498
    first = result["findings"][0]
    assert first == {
        "code": "bwg1.too_many_leaders",
        "severity": "error",
        "member": "2",
        "member_name": "Slick Sam",
        "message": first["message"],
    }


def test_validate_a_broken_file_exits_2_naming_the_problem(db, tmp_path):
    broken = tmp_path / "broken.json"
    broken.write_text('{"format": "gangfight-roster",\n "version": 1,\n "system": }')
    code, out, err = run_validate(str(broken))
    assert code == 2
    assert "line 3, column 12: not valid JSON" in err
    code, out, _ = run_validate(str(broken), "--json")
    assert code == 2
    assert json.loads(out)["problems"][0]["where"] == "line 3, column 12"


def test_validate_a_missing_file_exits_2(db, tmp_path):
    code, _, err = run_validate(str(tmp_path / "nope.json"))
    assert code == 2
    assert "No such file or directory" in err


def test_validate_a_wrong_type_exits_2(db, tmp_path):
    roster = bwg1_file()
    roster["members"] = {"1": "Bob"}
    path = tmp_path / "wrong.json"
    path.write_text(json.dumps(roster))
    code, _, err = run_validate(str(path))
    assert code == 2
    assert "members: {'1': 'Bob'} is not of type 'array'" in err


def _examples_table() -> list[tuple[str, int, list[str]]]:
    """docs/examples/README.md: | file | exit code | finding codes |."""
    rows = []
    text = (ROOT / "docs" / "examples" / "README.md").read_text()
    for line in text.splitlines():
        match = re.match(r"\| `([\w.-]+\.json)` \| (\d) \| (.*) \|$", line)
        if match:
            codes = re.findall(r"`([\w.]+)`", match.group(3))
            rows.append((match.group(1), int(match.group(2)), codes))
    return rows


def test_the_examples_readme_lists_every_example():
    assert sorted(r[0] for r in _examples_table()) == [p.name for p in EXAMPLES]


@pytest.mark.parametrize(("name", "exit_code", "codes"), _examples_table())
def test_each_example_gives_the_exit_code_and_findings_its_name_promises(
    db, name, exit_code, codes
):
    assert ("-legal-" in name) == (exit_code == 0)
    assert ("-illegal-" in name) == (exit_code == 1)
    code, out, _ = run_validate(str(ROOT / "docs" / "examples" / name), "--json")
    assert code == exit_code
    assert sorted({f["code"] for f in json.loads(out)["findings"]}) == sorted(codes)


# --------------------------------------------------------------------------- export


def test_owner_exports_a_gang_as_a_roster_file(owner_client, gang):
    response = owner_client.get(reverse("gang_export", args=[gang.pk]))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json; charset=utf-8"
    assert response["Content-Disposition"] == 'attachment; filename="the-dalton-boys-roster.json"'
    roster = read_roster(response.content)
    assert roster["system"] == "bwg1"
    assert [m["key"] for m in roster["members"]] == ["1", "2", "3", "4", "5"]
    assert roster["members"][0]["data"]["weapons"], "items are written in by value"


def test_the_share_link_exports_the_roster_for_anyone(client, gang):
    response = client.get(reverse("gang_shared_export", args=[gang.share_token]))
    assert response.status_code == 200
    assert read_roster(response.content)["name"] == gang.name
    assert client.get(reverse("gang_shared_export", args=["nope"])).status_code == 404


def test_export_import_export_gives_the_same_file(owner_client, owner, gang):
    first = owner_client.get(reverse("gang_export", args=[gang.pk])).content
    response = owner_client.post(reverse("gang_import"), {"file": upload(first.decode())})
    imported = Gang.objects.exclude(pk=gang.pk).get(owner=owner)
    assert response.status_code == 302
    assert response["Location"] == reverse("gang_detail", args=[imported.pk])
    # The name is taken (the gang it came from is still there): the import is "(2)".
    assert imported.name == f"{gang.name} (2)"
    second = owner_client.get(reverse("gang_export", args=[imported.pk])).content
    assert second == first.replace(gang.name.encode(), imported.name.encode(), 1)
    # Imported again: "(3)"; once the others are gone, the name is free again.
    owner_client.post(reverse("gang_import"), {"file": upload(first.decode())})
    assert owner.gangs.filter(name=f"{gang.name} (3)").exists()
    owner.gangs.all().delete()
    owner_client.post(reverse("gang_import"), {"file": upload(first.decode())})
    assert owner.gangs.get().name == gang.name


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_every_example_imports_and_exports_unchanged(owner_client, owner, content, path):
    response = owner_client.post(reverse("gang_import"), {"file": upload(path.read_text())})
    assert response.status_code == 302, response.content.decode()
    gang = Gang.objects.get(owner=owner)
    assert export_roster(gang) == json.loads(path.read_text())
    page = owner_client.get(reverse("gang_detail", args=[gang.pk]))
    assert page.status_code == 200
    report = get_system(gang.system).evaluate(export_roster(gang))
    for finding in report.findings:
        assert f'data-code="{finding.code}"' in page.content.decode()


# --------------------------------------------------------------------------- import


def test_import_page_needs_a_login(client, db):
    response = client.get(reverse("gang_import"))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))
    client.post(reverse("gang_import"), {"file": upload(BWG1_LEGAL.read_text())})
    assert not Gang.objects.exists()


def test_import_matches_catalogue_items_and_keeps_member_order(owner_client, owner, content):
    items_before = Item.objects.count()
    owner_client.post(reverse("gang_import"), {"file": upload(BWG1_LEGAL.read_text())})
    gang = Gang.objects.get(owner=owner)
    assert gang.name == "The Dalton Boys"
    assert gang.limit == 400
    assert [m.name for m in gang.members.all()] == [
        "Bob Dalton",
        "Doc Ruth",
        "Grat Dalton",
        "Emmett Dalton",
        "Bill Power",
    ]
    assert Item.objects.count() == items_before, "the book's weapons come from the catalogue"
    leader = gang.members.first()
    assert [mi.item.name for mi in leader.member_items.all()] == [
        "Bowie knife",
        "Remington Army revolver",
        "Winchester Repeater",
    ]


def test_an_unknown_weapon_becomes_the_importers_own(owner_client, owner, stranger, content):
    roster = bwg1_file()
    roster["members"][0]["data"]["weapons"].append(
        {
            "name": "Elephant gun",
            "kind": "ranged",
            "level": 6,
            "hands": 2,
            "strength": "5",
            "traits": ["longarm"],
        }
    )
    owner_client.post(reverse("gang_import"), {"file": upload(roster)})
    gun = Item.objects.get(name="Elephant gun")
    assert gun.owner == owner
    assert gun.stats["level"] == 6
    assert not Item.objects.available_to(stranger).filter(name="Elephant gun").exists()


def test_pasted_text_imports_too(owner_client, owner, content):
    response = owner_client.post(reverse("gang_import"), {"text": BWG1_LEGAL.read_text()})
    assert response.status_code == 302
    assert Gang.objects.get(owner=owner).members.count() == 5


@pytest.mark.parametrize(
    ("data", "field", "message"),
    [
        ({}, None, "Choose a roster file, or paste its text."),
        ({"text": "{oops"}, "text", "line 1, column 2: not valid JSON"),
        ({"file": "not json"}, "file", "line 1, column 1: not valid JSON"),
        ({"text": json.dumps(bwg1_file(system="chess"))}, "text", "unknown game system"),
    ],
)
def test_a_bad_import_saves_nothing_and_says_why(
    owner_client, owner, content, data, field, message
):
    if "file" in data:
        data = {"file": upload(data["file"])}
    response = owner_client.post(reverse("gang_import"), data)
    assert response.status_code == 200
    html = response.content.decode()
    assert message in html
    assert not Gang.objects.exists()
    assert not Member.objects.exists()


def test_an_import_that_fails_late_leaves_nothing_behind(owner_client, owner, content):
    """The second weapon clashes with one of the owner's own: the first one isn't kept."""
    Item.objects.create(
        system="bwg1",
        category="weapon",
        name="Clash",
        stats={"kind": "melee", "level": 1},
        owner=owner,
        pack=my_weapons_pack(owner),
    )
    roster = bwg1_file()
    roster["members"][0]["data"]["weapons"] = [
        {"name": "Brand new", "kind": "melee", "level": 2},
        {"name": "Clash", "kind": "melee", "level": 5},
    ]
    items_before = Item.objects.count()
    response = owner_client.post(reverse("gang_import"), {"file": upload(roster)})
    assert response.status_code == 200
    assert "members[0].data.weapons[1]: you already have your own weapon called “Clash”" in (
        response.content.decode()
    )
    assert not Gang.objects.exists()
    assert Item.objects.count() == items_before


def test_an_imported_gang_has_an_owner_and_a_new_share_link(owner_client, owner, gang):
    exported = owner_client.get(reverse("gang_export", args=[gang.pk])).content.decode()
    owner_client.post(reverse("gang_import"), {"file": upload(exported)})
    imported = Gang.objects.exclude(pk=gang.pk).get()
    assert imported.owner == owner
    assert imported.share_token != gang.share_token


# --------------------------------------------------------------------------- other systems


@pytest.fixture
def gf26_gang(owner_client, owner) -> Gang:
    path = next(p for p in EXAMPLES if p.name.startswith("gf26-illegal-"))
    owner_client.post(reverse("gang_import"), {"file": upload(path.read_text())})
    return Gang.objects.get(owner=owner, system="gf26")


def test_an_imported_gf26_gang_opens_in_its_builder_with_its_findings(owner_client, gf26_gang):
    html = owner_client.get(reverse("gang_detail", args=[gf26_gang.pk])).content.decode()
    assert "Gangfight" in html
    assert 'data-testid="member"' in html
    assert "Illegal" in html
    assert reverse("gang_export", args=[gf26_gang.pk]) in html
    assert reverse("gang_print", args=[gf26_gang.pk]) in html  # the Print menu


def test_bwg1_actions_are_404_for_it_and_the_sheet_is_its_own(owner_client, gf26_gang):
    member = gf26_gang.members.first()
    url = reverse("gang_action", args=[gf26_gang.pk, "recruit"])
    assert owner_client.post(url, {"recruit-name": "Bill"}).status_code == 404
    url = reverse("member_action", args=[gf26_gang.pk, member.pk, "points"])
    assert owner_client.post(url, {f"m{member.pk}-points-change": "str:+"}).status_code == 404
    response = owner_client.get(reverse("gang_sheet_pdf", args=[gf26_gang.pk]))
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"


def test_it_can_be_renamed_shared_and_deleted(owner_client, client, gf26_gang):
    url = reverse("gang_update", args=[gf26_gang.pk])
    owner_client.post(url, {"gang-name": "Renamed party", "gang-limit": "1000"})
    gf26_gang.refresh_from_db()
    assert (gf26_gang.name, gf26_gang.limit) == ("Renamed party", 1000)
    shared = client.get(reverse("gang_shared", args=[gf26_gang.share_token]))
    assert shared.status_code == 200
    assert "Renamed party" in shared.content.decode()
    owner_client.post(reverse("gang_delete", args=[gf26_gang.pk]))
    assert not Gang.objects.filter(pk=gf26_gang.pk).exists()


def test_a_stranger_cannot_see_or_export_it(stranger_client, gf26_gang):
    assert stranger_client.get(reverse("gang_detail", args=[gf26_gang.pk])).status_code == 404
    assert stranger_client.get(reverse("gang_export", args=[gf26_gang.pk])).status_code == 404


def test_new_gang_offers_every_system_and_its_usual_limit(owner_client, owner):
    html = owner_client.get(reverse("gang_create")).content.decode()
    for system in ("bwg1", "bwg2", "gf26", "rivals", "gunfight"):
        assert f'value="{system}"' in html
    response = owner_client.post(
        reverse("gang_create"), {"name": "Iron", "system": "gf26", "limit": ""}
    )
    assert response.status_code == 302
    assert owner.gangs.get(name="Iron").limit == 1000  # gf26's usual (pickup) limit
    owner_client.post(reverse("gang_create"), {"name": "Free", "system": "bwg1", "limit": ""})
    assert owner.gangs.get(name="Free").limit is None  # bwg1's limit is the player's choice
    response = owner_client.post(
        reverse("gang_create"), {"name": "Nope", "system": "chess", "limit": ""}
    )
    assert response.status_code == 200
    assert "Select a valid choice" in response.content.decode()
    assert owner.gangs.count() == 2


def test_user_text_is_escaped_on_an_imported_gangs_page(owner_client, owner):
    roster = json.loads(next(p for p in EXAMPLES if p.name.startswith("gf26-")).read_text())
    roster["members"][0]["name"] = "<script>alert(1)</script>"
    owner_client.post(reverse("gang_import"), {"file": upload(roster)})
    gang = Gang.objects.get(owner=owner)
    html = owner_client.get(reverse("gang_detail", args=[gang.pk])).content.decode()
    assert "<script>alert(1)</script>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html


def test_the_roster_format_page_and_schema(client, db):
    page = client.get(reverse("roster_format"))
    assert page.status_code == 200
    assert "gangfight-roster" in page.content.decode()
    schema = client.get(reverse("roster_schema"))
    assert json.loads(schema.content) == roster_schema()


def test_my_gangs_lists_an_imported_gang_of_another_system(owner_client, gf26_gang):
    html = owner_client.get(reverse("gang_list")).content.decode()
    assert gf26_gang.name in html
    assert "Points" in html


def test_build_gang_export_is_read_by_the_command(owner, content, tmp_path, db):
    gang = build_gang(owner)
    path = tmp_path / "gang.json"
    path.write_text(write_roster(export_roster(gang)))
    code, out, _ = run_validate(str(path))
    assert code == 0
    assert "legal: 0 error(s), 0 warning(s)" in out
