"""Every input answers with a message, never a 500 (issue 19, item 3).

Roster files are read in one place (``rules.roster.read_roster``): the import page (a file
or pasted text), ``validate_roster`` and ``render_pdf``. Deep nesting, huge numbers,
NaN, NUL characters and lone surrogates are refused there with the field's path; the
builder's forms refuse the same characters beside the field; and every length the database
keeps is the forms' and the roster schema's. Run with ``DATABASE_URL`` set to PostgreSQL
too: it is stricter than SQLite (integer range, NUL, varchar lengths).
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.apps import apps
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.db import connection, transaction
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from builder import services
from builder.editors import Catalogue, get_editor
from builder.forms import (
    GangCreateForm,
    GangSettingsForm,
    PackForm,
    PacksForm,
    PrintForm,
    RosterImportForm,
)
from builder.models import ContentPack, Gang, Item, Member
from builder.roster import evaluate_gang, export_roster
from rules import all_systems
from rules import roster as roster_module
from rules.roster import (
    GANG_NAME_MAX,
    MAX_LIMIT,
    RosterFileError,
    read_roster,
    roster_schema,
    unstorable_character,
    write_roster,
)
from tests.helpers.properties import examples

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "docs" / "examples"
LEGAL = {
    "bwg1": EXAMPLES / "bwg1-legal-dalton-boys.json",
    "bwg2": EXAMPLES / "bwg2-legal-tranquility-crew-700.json",
    "gf26": EXAMPLES / "gf26-legal-iron-company.json",
    "gunfight": EXAMPLES / "gunfight-legal-lawman-posse.json",
    "rivals": EXAMPLES / "rivals-legal-red-jacks-gang.json",
}
NUL = "holds a NUL character (\\u0000): remove it"
SURROGATE = "holds a lone surrogate (\\ud800), which is not a character: remove it"
FORM_NUL = "This holds a NUL character (\\u0000): remove it."
FORM_SURROGATE = "This holds a lone surrogate (\\ud800), which is not a character: remove it."

HYPOTHESIS = settings(
    max_examples=examples(80),
    deadline=None,
    suppress_health_check=[
        HealthCheck.function_scoped_fixture,
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
    ],
)


def example(system: str = "bwg1") -> dict[str, Any]:
    return json.loads(LEGAL[system].read_text())


def with_raw(roster: dict[str, Any], path: tuple[str | int, ...], raw: str) -> str:
    """The roster's JSON text with the value at ``path`` written as ``raw`` JSON text
    (what ``json.dumps`` can't write: 5,000 digits, NaN, 10,000 brackets)."""
    roster = json.loads(json.dumps(roster))
    target = roster
    for part in path[:-1]:
        target = target[part]
    target[path[-1]] = "@@RAW@@"
    return json.dumps(roster).replace('"@@RAW@@"', raw)


def with_value(roster: dict[str, Any], path: tuple[str | int, ...], value: Any) -> str:
    """The roster's JSON text with ``value`` at ``path``, lone surrogates as escapes."""
    return with_raw(roster, path, json.dumps(value))


DEEP = "[" * 10_000 + "]" * 10_000
# (id, the file's text, what the problem says)
HOSTILE = [
    ("deep-array", lambda: DEEP, "the file: nested more than 32 levels deep"),
    (
        "deep-in-gang",
        lambda: with_raw(example(), ("gang",), '{"a":' * 10_000 + "1" + "}" * 10_000),
        "nested more than 32 levels deep",
    ),
    (
        "deep-40-in-a-member",
        lambda: with_raw(example(), ("members", 0, "data", "extra"), "[" * 40 + "]" * 40),
        "members[0].data.extra[0][0]",
    ),
    (
        "limit-4301-digits",
        lambda: with_raw(example(), ("limit",), "9" * 4301),
        "limit: a number of 4,301 digits is too large (at most 1,000,000,000)",
    ),
    (
        "points-5000-digits",
        lambda: with_raw(example(), ("members", 1, "data", "points", "rc"), "-" + "7" * 5000),
        "members[1].data.points.rc: a number of 5,000 digits is too large",
    ),
    (
        "limit-2147483648",
        lambda: with_raw(example(), ("limit",), "2147483648"),
        "limit: 2147483648 is too large (at most 1,000,000,000)",
    ),
    (
        "limit-over-the-schema-maximum",
        lambda: with_raw(example(), ("limit",), str(MAX_LIMIT + 1)),
        f"limit: {MAX_LIMIT + 1} is greater than the maximum of {MAX_LIMIT}",
    ),
    (
        "limit-1e30",
        lambda: with_raw(example(), ("limit",), "1e30"),
        "limit: 1e+30 is too large (at most 1,000,000,000)",
    ),
    (
        "limit-1e400",
        lambda: with_raw(example(), ("limit",), "1e400"),
        "limit: 1e400 is too large",
    ),
    (
        "limit-NaN",
        lambda: with_raw(example(), ("limit",), "NaN"),
        "limit: NaN is not a number JSON allows",
    ),
    (
        "level-minus-infinity",
        lambda: with_raw(example(), ("members", 0, "data", "weapons", 0, "level"), "-Infinity"),
        "members[0].data.weapons[0].level: -Infinity is not a number JSON allows",
    ),
    (
        "gang-name-nul",
        lambda: with_value(example(), ("name",), "The\x00Daltons"),
        f"name: {NUL}",
    ),
    (
        "member-name-nul",
        lambda: with_value(example(), ("members", 2, "name"), "Grat\x00"),
        f"members[2].name: {NUL}",
    ),
    (
        "weapon-name-nul",
        lambda: with_value(example(), ("members", 0, "data", "weapons", 1, "name"), "\x00"),
        f"members[0].data.weapons[1].name: {NUL}",
    ),
    (
        "card-notes-nul",
        lambda: with_value(example("bwg2"), ("members", 0, "data", "card", "notes"), "a\x00b"),
        f"members[0].data.card.notes: {NUL}",
    ),
    (
        "field-name-nul",
        lambda: with_value(example(), ("gang",), {"x\x00": 1}),
        f"gang: a field name {NUL}",
    ),
    (
        "gang-name-surrogate",
        lambda: with_value(example(), ("name",), "\ud800"),
        f"name: {SURROGATE}",
    ),
    (
        "member-name-surrogate",
        lambda: with_value(example("gf26"), ("members", 0, "name"), "Ald\ud800ric"),
        f"members[0].name: {SURROGATE}",
    ),
    (
        "weapon-name-surrogate",
        lambda: with_value(example(), ("members", 0, "data", "weapons", 0, "name"), "\ud800"),
        f"members[0].data.weapons[0].name: {SURROGATE}",
    ),
    (
        "card-notes-low-surrogate",
        lambda: with_value(example("bwg2"), ("members", 0, "data", "card", "notes"), "\udfff"),
        "members[0].data.card.notes: holds a lone surrogate (\\udfff)",
    ),
    (
        "gang-name-81",
        lambda: with_value(example(), ("name",), "x" * (GANG_NAME_MAX + 1)),
        "name: 'xxxxxxxxxx",
    ),
    (
        "member-name-101",
        lambda: with_value(example(), ("members", 0, "name"), "y" * 101),
        "members[0].name: 'yyyyyyyyyy",
    ),
]
HOSTILE_IDS = [h[0] for h in HOSTILE]
BY_ID = {h[0]: h[1:] for h in HOSTILE}


def upload(text: str) -> SimpleUploadedFile:
    return SimpleUploadedFile("gang.json", text.encode(), content_type="application/json")


# --------------------------------------------------------------------------- the reader


@pytest.mark.parametrize(("text", "message"), [h[1:] for h in HOSTILE], ids=HOSTILE_IDS)
def test_the_reader_refuses_it_naming_the_field(text, message):
    with pytest.raises(RosterFileError) as refused:
        read_roster(text())
    assert any(message in str(p) for p in refused.value.problems), refused.value.problems
    with pytest.raises(RosterFileError):  # the bytes of a file alike
        read_roster(text().encode())


def test_a_zero_fraction_reads_as_the_integer():
    roster = read_roster(with_raw(example(), ("limit",), "4e2"))
    assert roster["limit"] == 400 and isinstance(roster["limit"], int)
    assert read_roster(with_raw(example(), ("limit",), "400.0"))["limit"] == 400


def test_paired_surrogates_are_one_character_and_welcome():
    text = with_value(example(), ("name",), "Los Caballeros \U0001f40e")
    assert '\\ud83d\\udc0e"' in text
    assert read_roster(text)["name"] == "Los Caballeros \U0001f40e"


def test_pasted_text_is_held_to_the_file_size_too():
    with pytest.raises(RosterFileError, match="over 1,000,000 bytes"):
        read_roster(with_value(example(), ("gang",), {"padding": "é" * 600_000}))


def test_a_message_quoting_a_huge_value_is_cut_keeping_its_end():
    roster = example()
    roster["members"] = "x" * 500_000
    with pytest.raises(RosterFileError) as refused:
        read_roster(json.dumps(roster))
    message = str(refused.value.problems[0])
    assert len(message) < 400
    assert message.endswith("is not of type 'array'")


# --------------------------------------------------------------------------- the web import


@pytest.mark.parametrize("how", ["file", "text"])
@pytest.mark.parametrize(("text", "message"), [h[1:] for h in HOSTILE], ids=HOSTILE_IDS)
def test_the_import_page_says_what_is_wrong_and_saves_nothing(
    owner_client, owner, how, text, message
):
    data = {"file": upload(text())} if how == "file" else {"text": text()}
    response = owner_client.post(reverse("gang_import"), data)
    assert response.status_code == 200
    html = response.content.decode()
    assert message.replace("'", "&#x27;") in html
    assert f'id="id_{how}_error"' in html, "the message is beside the field"
    assert not Gang.objects.exists()
    assert not Member.objects.exists()
    assert not Item.objects.filter(owner=owner).exists()


def test_a_nul_character_pasted_as_is_is_refused_beside_the_field(owner_client):
    response = owner_client.post(reverse("gang_import"), {"text": '{"name": "a\x00"}'})
    assert response.status_code == 200
    html = response.content.decode()
    assert FORM_NUL in html
    assert "Choose a roster file, or paste its text." not in html
    assert not Gang.objects.exists()


def test_a_limit_written_400_0_imports_as_400(owner_client, owner):
    text = with_raw(example(), ("limit",), "400.0")
    assert owner_client.post(reverse("gang_import"), {"text": text}).status_code == 302
    assert Gang.objects.get(owner=owner).limit == 400


# --------------------------------------------------------------------------- the commands


def run_command(name: str, *args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with pytest.raises(SystemExit) as exited:
        call_command(name, *args, stdout=out, stderr=err)
    return exited.value.code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize(("text", "message"), [h[1:] for h in HOSTILE], ids=HOSTILE_IDS)
def test_validate_roster_exits_2_naming_the_field(tmp_path, text, message):
    path = tmp_path / "hostile.json"
    path.write_text(text())
    code, _, err = run_command("validate_roster", str(path))
    assert code == 2
    assert f"{path} is not a roster file:" in err
    assert message in err
    code, out, _ = run_command("validate_roster", str(path), "--json")
    assert code == 2
    assert json.loads(out)["readable"] is False


SOME = ["deep-array", "limit-4301-digits", "limit-1e30", "gang-name-nul", "weapon-name-surrogate"]


@pytest.mark.parametrize(("text", "message"), [BY_ID[i] for i in SOME], ids=SOME)
def test_render_pdf_exits_2_naming_the_field(tmp_path, text, message):
    path = tmp_path / "hostile.json"
    path.write_text(text())
    code, _, err = run_command("render_pdf", str(path), "-o", str(tmp_path / "out.pdf"))
    assert code == 2
    assert message in err
    assert not (tmp_path / "out.pdf").exists()


@pytest.mark.parametrize(
    ("text", "message"), [BY_ID[i] for i in SOME[:2] + SOME[-1:]], ids=SOME[:2] + SOME[-1:]
)
def test_the_real_command_line_exits_2_without_a_traceback(tmp_path, text, message):
    path = tmp_path / "hostile.json"
    path.write_text(text())
    done = subprocess.run(
        [sys.executable, "manage.py", "validate_roster", str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert message in done.stderr


# --------------------------------------------------------------------------- lengths


def test_every_copy_of_the_gang_name_holds_the_longest_the_builder_takes():
    longest = Gang._meta.get_field("name").max_length
    assert longest == GANG_NAME_MAX == 80
    assert GangCreateForm().fields["name"].max_length == longest
    assert GangSettingsForm().fields["name"].max_length == longest
    assert roster_schema()["properties"]["name"]["maxLength"] == longest
    copies = [apps.get_model("campaigns", "CampaignGang")._meta.get_field("name")]
    copies += [
        model._meta.get_field("gang_name")
        for model in apps.get_models()
        if any(f.name == "gang_name" for f in model._meta.get_fields())
    ]
    assert len(copies) >= 2, "the campaign's and the league registration's copies"
    for field in copies:
        assert field.max_length >= longest, field


def test_every_model_limit_is_the_forms_and_the_schemas():
    schema = roster_schema()
    member = schema["properties"]["members"]["items"]["properties"]
    assert member["name"]["maxLength"] == Member._meta.get_field("name").max_length
    limit = schema["properties"]["limit"]
    assert limit["maximum"] == MAX_LIMIT <= 2_147_483_647  # a PositiveIntegerField
    assert GangCreateForm().fields["limit"].max_value == MAX_LIMIT
    assert GangSettingsForm().fields["limit"].max_value == MAX_LIMIT
    item_name = Item._meta.get_field("name").max_length
    for system in all_systems():
        for kind in get_editor(system.id).content_kinds:
            assert kind.base_fields["name"].max_length == item_name, kind
    (bwg1,) = [
        s["then"] for s in schema["allOf"] if s["if"]["properties"]["system"] == {"const": "bwg1"}
    ]
    weapon = bwg1["properties"]["members"]["items"]["properties"]["data"]
    assert weapon["properties"]["weapons"]["items"]["properties"]["name"]["maxLength"] == item_name
    pack_form = PackForm(owner=None)
    assert pack_form.fields["name"].max_length == ContentPack._meta.get_field("name").max_length


@pytest.mark.parametrize("url_name", ["gang_create", "gang_update"])
def test_a_gang_name_over_80_is_refused_beside_the_field(owner_client, gang, url_name):
    prefix = "gang-" if url_name == "gang_update" else ""
    args = [gang.pk] if url_name == "gang_update" else []
    data = {f"{prefix}name": "n" * 81, f"{prefix}limit": "400", "system": "bwg1"}
    response = owner_client.post(reverse(url_name, args=args), data)
    assert response.status_code == 200
    assert "Ensure this value has at most 80 characters (it has 81)." in response.content.decode()
    data[f"{prefix}name"] = "n" * 80
    assert owner_client.post(reverse(url_name, args=args), data).status_code == 302
    assert Gang.objects.filter(name="n" * 80).exists()


def test_importing_an_80_character_name_again_numbers_it_within_80(owner_client, owner):
    text = with_value(example(), ("name",), "L" * 80)
    for _ in range(11):
        assert owner_client.post(reverse("gang_import"), {"text": text}).status_code == 302
    names = list(Gang.objects.filter(owner=owner).values_list("name", flat=True))
    assert len(set(names)) == 11
    assert all(len(n) <= 80 for n in names)
    assert "L" * 80 in names
    assert "L" * 76 + " (2)" in names
    assert "L" * 75 + " (10)" in names


def test_a_copy_of_an_80_character_name_fits(owner):
    gang = services.create_gang(owner, system="bwg1", name="C" * 80, limit=None)
    copy = services.clone_gang(gang)
    assert copy.name == ("Copy of " + "C" * 80)[:80]


def test_another_of_a_member_with_a_100_character_name_fits(owner_client, owner):
    text = with_value(example("bwg2"), ("members", 0, "name"), "D" * 100)
    assert owner_client.post(reverse("gang_import"), {"text": text}).status_code == 302
    gang = Gang.objects.get(owner=owner)
    member = gang.members.first()
    for _ in range(10):
        url = reverse("member_action", args=[gang.pk, member.pk, "duplicate"])
        assert owner_client.post(url).status_code == 302
    names = [m.name for m in gang.members.all() if m.name.startswith("DDD")]
    assert len(names) == len(set(names)) == 11
    assert "D" * 98 + " 2" in names and "D" * 97 + " 11" in names
    assert all(len(n) <= 100 for n in names)


@pytest.mark.django_db(transaction=True)
def test_the_migration_cuts_names_longer_than_80():
    """Back to the schema before the migration (a gang name held 100), a long name, then
    forward: the name is cut to 80, on SQLite and PostgreSQL alike."""
    from django.db.migrations.executor import MigrationExecutor

    before = [("builder", "0003_content_packs_and_dice_log")]
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    old = executor.loader.project_state(before).apps
    user = old.get_model("auth", "User").objects.create(username="mig")
    OldGang = old.get_model("builder", "Gang")
    long = OldGang.objects.create(owner=user, system="bwg1", name="M" * 79 + " " + "tail" * 5)
    short = OldGang.objects.create(owner=user, system="bwg1", name="short")
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
    assert Gang.objects.get(pk=long.pk).name == "M" * 79
    assert Gang.objects.get(pk=short.pk).name == "short"


# --------------------------------------------------------------------------- forms


def test_the_builders_forms_refuse_nul_and_lone_surrogates_beside_the_field(owner, gang):
    for text, message in [("Bad\x00name", FORM_NUL), ("Bad\ud800name", FORM_SURROGATE)]:
        create = GangCreateForm({"name": text, "system": "bwg1"})
        assert create.errors["name"] == [message]
        settings_form = GangSettingsForm({"gang-name": text})
        assert settings_form.errors["name"] == [message]
        pack = PackForm({"system": "bwg1", "name": "P", "description": text}, owner=owner)
        assert pack.errors["description"] == [message]
        editor = get_editor("bwg1")
        member = gang.members.first()
        figures = evaluate_gang(gang).report.members[str(member.pk)]
        details = editor.member_actions["details"]
        form = details(
            {f"m{member.pk}-details-name": text},
            gang=gang,
            member=member,
            figures=figures,
            catalogue=Catalogue.for_gang(gang),
        )
        assert form.errors["name"] == [message]
        weapon = editor.kind("weapon")({"name": text}, pack=ContentPack(owner=owner))
        assert weapon.errors["name"] == [message]


@pytest.mark.parametrize(
    ("url", "data", "message"),
    [
        ("gang_create", {"name": "A\x00", "system": "bwg1"}, FORM_NUL),
        ("gang_update", {"gang-name": "A\x00"}, FORM_NUL),
        ("recruit", {"recruit-name": "Bill\x00", "recruit-member_type": "henchman"}, FORM_NUL),
        ("pack", {"system": "bwg1", "name": "My\x00pack"}, FORM_NUL),
    ],
)
def test_a_nul_character_posted_is_refused_not_a_500(owner_client, gang, url, data, message):
    if url == "gang_update":
        target = reverse(url, args=[gang.pk])
    elif url == "recruit":
        target = reverse("gang_action", args=[gang.pk, "recruit"])
    elif url == "pack":
        target = reverse("pack_list")
    else:
        target = reverse(url)
    gangs, members = Gang.objects.count(), Member.objects.count()
    response = owner_client.post(target, data)
    assert response.status_code == 200
    assert message in response.content.decode()
    assert (Gang.objects.count(), Member.objects.count()) == (gangs, members)
    assert not ContentPack.objects.exists()


# --------------------------------------------------------------------------- hypothesis

SPECIAL_TEXT = [
    "",
    " ",
    "\x00",
    "a\x00b",
    "\ud800",
    "x\udfffy",
    "\ud83d",
    "\U0001f40e",
    "\u202eevil",
    "<script>alert(1)</script>",
    "{{ 7|add:1 }}",
    "%(name)s",
    "Robert'); DROP TABLE builder_gang;--",
    "ﷺ" * 40,
]
#: Any text: NUL, lone surrogates, other scripts, long.
HOSTILE_TEXT = st.one_of(
    st.sampled_from(SPECIAL_TEXT),
    st.text(st.characters(), max_size=40),
    st.text(st.characters(codec="utf-8", exclude_characters="\x00"), min_size=1, max_size=40),
    st.integers(70, 130).map(lambda n: "W" * n),
    st.integers(70, 130).map(lambda n: "é" * n),
)
#: Numbers as JSON text, and what only Python's reader takes.
HOSTILE_NUMBER = st.one_of(
    st.sampled_from(
        [
            "NaN",
            "Infinity",
            "-Infinity",
            "1e30",
            "1e400",
            "-1e400",
            "1e-400",
            "2147483648",
            "-2147483649",
            "9" * 4301,
            "1000000000",
            "1000000001",
            "400.0",
            "0",
            "-1",
            "0.5",
        ]
    ),
    st.integers().map(str),
    st.floats(allow_nan=False, allow_infinity=False).map(repr),
)
HOSTILE_NESTING = st.integers(1, 12_000).flatmap(
    lambda n: st.sampled_from(["[" * n + "]" * n, '{"a":' * n + "1" + "}" * n])
)


def leaves(value: Any, path: tuple[str | int, ...] = ()) -> list[tuple[str | int, ...]]:
    """The path of every value inside ``value`` (itself included)."""
    found = [path]
    if isinstance(value, dict):
        for key, child in value.items():
            found += leaves(child, (*path, key))
    elif isinstance(value, list):
        for i, child in enumerate(value):
            found += leaves(child, (*path, i))
    return found


@st.composite
def hostile_files(draw) -> str:
    """A legal example with one to three of its values made hostile, as JSON text."""
    roster = example(draw(st.sampled_from(sorted(LEGAL))))
    paths = [p for p in leaves(roster) if p]
    raws: list[str] = []
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(paths))
        target = roster
        try:  # the path may be gone, replaced by an earlier change
            for part in path[:-1]:
                target = target[part]
            if not isinstance(target, dict | list) or path[-1] not in (
                target if isinstance(target, dict) else range(len(target))
            ):
                continue
        except (KeyError, IndexError, TypeError):
            continue
        kind = draw(st.sampled_from(["text", "number", "nesting", "key"]))
        if kind == "text":
            raw = json.dumps(draw(HOSTILE_TEXT))
        elif kind == "number":
            raw = draw(HOSTILE_NUMBER)
        elif kind == "nesting":
            raw = draw(HOSTILE_NESTING)
        else:
            raw = json.dumps({draw(HOSTILE_TEXT): 1})
        target[path[-1]] = f"@@RAW{len(raws)}@@"
        raws.append(raw)
    text = json.dumps(roster)
    for i, raw in enumerate(raws):
        text = text.replace(f'"@@RAW{i}@@"', raw)
    return text


@HYPOTHESIS
@given(text=hostile_files(), as_file=st.booleans())
def test_hostile_files_are_imported_whole_or_refused_never_a_500(
    owner, content, tmp_path, text, as_file
):
    with transaction.atomic():  # each example starts with the same catalogue
        _try_an_import(owner, tmp_path, text, as_file)
        transaction.set_rollback(True)


def _try_an_import(owner, tmp_path: Path, text: str, as_file: bool) -> None:
    try:
        roster = read_roster(text)
    except RosterFileError:
        roster = None  # any other exception fails the test
    try:
        decoded, suspect = roster_module._decode(text)
    except (ValueError, RecursionError):
        pass
    else:  # the reader skips the walk only when the walk would find nothing
        assert suspect or not roster_module.value_problems(decoded)
    client = Client(raise_request_exception=False)
    client.force_login(owner)
    before = set(Gang.objects.values_list("pk", flat=True))
    members_before = Member.objects.count()
    data = {"file": upload(text)} if as_file else {"text": text}
    response = client.post(reverse("gang_import"), data)
    assert response.status_code in (200, 302), response.content[:2000]
    new = set(Gang.objects.values_list("pk", flat=True)) - before
    event(f"import {response.status_code}")
    if response.status_code == 200:  # refused: nothing is kept
        assert not new
        assert Member.objects.count() == members_before
        assert 'class="errorlist' in response.content.decode()
    else:
        assert roster is not None
        (gang_pk,) = new
        gang = Gang.objects.get(pk=gang_pk)
        assert len(gang.name) <= GANG_NAME_MAX
        assert client.get(reverse("gang_detail", args=[gang.pk])).status_code == 200
        exported = read_roster(write_roster(export_roster(gang)))  # what is kept reads back
        assert [m["name"] for m in exported["members"]] == [m["name"] for m in roster["members"]]
    path = tmp_path / "hostile.json"
    path.write_text(text)
    code, _, _ = run_command("validate_roster", str(path))
    assert code in (0, 1, 2)
    assert (code == 2) == (roster is None)


def _form_classes() -> list[tuple[str, str, type]]:
    found = []
    for system in all_systems():
        editor = get_editor(system.id)
        found += [(system.id, "gang", c) for c in editor.gang_actions.values()]
        found += [(system.id, "member", c) for c in editor.member_actions.values()]
        found += [(system.id, "entry", c) for c in editor.content_kinds]
    return found


FORM_CLASSES = _form_classes()
PAGE_FORMS = [GangCreateForm, GangSettingsForm, PackForm, PacksForm, RosterImportForm, PrintForm]


def _field_value(draw, field) -> Any:
    """A hostile string, or (for choices) sometimes a real choice, so forms also pass."""
    from django import forms

    if isinstance(field, forms.MultipleChoiceField | forms.ModelMultipleChoiceField):
        return [draw(HOSTILE_TEXT)]
    if isinstance(field, forms.ChoiceField) and draw(st.booleans()):
        values = [str(v) for v, _ in field.choices if v not in ("", None)]
        if values and all(not isinstance(v, list | tuple) for v, _ in field.choices):
            return draw(st.sampled_from(values))
    if isinstance(field, forms.BooleanField):
        return draw(st.sampled_from(["on", "", "\x00"]))
    if isinstance(field, forms.IntegerField) and draw(st.booleans()):
        return draw(HOSTILE_NUMBER)
    return draw(HOSTILE_TEXT)


def _check_refused(form) -> None:
    """Every text field given NUL or a lone surrogate has the message beside it."""
    from django import forms

    for name, field in form.fields.items():
        value = form.data.get(form.add_prefix(name))
        if isinstance(field, forms.CharField) and isinstance(value, str):
            char = unstorable_character(value.strip())
            if char is not None and not field.disabled:
                message = FORM_NUL if char == "\x00" else "This holds a lone surrogate"
                assert any(message in e for e in form.errors.get(name, [])), (name, form.errors)


@pytest.fixture
def gangs(owner, content) -> dict[str, Gang]:
    return {
        system: services.import_gang(owner, read_roster(path.read_bytes()))
        for system, path in LEGAL.items()
    }


@HYPOTHESIS
@given(data=st.data())
def test_hostile_strings_in_every_builder_form_are_refused_or_stored(owner, gangs, data):
    with transaction.atomic():  # each example starts from the same gangs
        _try_a_builder_form(owner, gangs, data)
        transaction.set_rollback(True)


def _try_a_builder_form(owner, gangs: dict[str, Gang], data) -> None:
    system, where, form_class = data.draw(st.sampled_from(FORM_CLASSES))
    gang = Gang.objects.get(pk=gangs[system].pk)
    catalogue = Catalogue.for_gang(gang)
    member = gang.members.first()
    if where == "entry":
        pack = ContentPack.objects.get_or_create(owner=owner, system=system, name="Hostile")[0]
        form = form_class(data=None, pack=pack)
        values = {form.add_prefix(n): _field_value(data.draw, f) for n, f in form.fields.items()}
        form = form_class(values, pack=pack)
    else:
        figures = None
        if where == "member":
            figures = evaluate_gang(gang).report.members[str(member.pk)]
        else:
            member = None
        kwargs = {"gang": gang, "catalogue": catalogue, "member": member, "figures": figures}
        form = form_class(None, **kwargs)
        values = {form.add_prefix(n): _field_value(data.draw, f) for n, f in form.fields.items()}
        form = form_class(values, **kwargs)
    valid = form.is_valid()  # never raises
    _check_refused(form)
    event(f"{form_class.__name__} {'valid' if valid else 'refused'}")
    if not valid:
        return
    if where == "entry":
        item = services.save_entry(form)
        assert len(item.name) <= Item._meta.get_field("name").max_length
    else:
        services.run_action(form, user=owner)
    client = Client(raise_request_exception=False)
    client.force_login(owner)
    page = client.get(reverse("gang_detail", args=[gang.pk]), {"open": member.pk if member else ""})
    assert page.status_code == 200


@HYPOTHESIS
@given(data=st.data())
def test_hostile_strings_in_the_gang_and_pack_forms_are_refused_or_stored(owner, gang, data):
    with transaction.atomic():  # each example starts from the same gang and packs
        _try_a_page_form(owner, gang, data)
        transaction.set_rollback(True)


def _try_a_page_form(owner, gang: Gang, data) -> None:
    form_class = data.draw(st.sampled_from(PAGE_FORMS))
    kwargs: dict[str, Any] = {}
    if form_class is PackForm:
        kwargs = {"owner": owner}
    elif form_class is PacksForm:
        kwargs = {"gang": gang}
    form = form_class(**kwargs)
    values = {form.add_prefix(n): _field_value(data.draw, f) for n, f in form.fields.items()}
    form = form_class(values, **kwargs)
    valid = form.is_valid()
    _check_refused(form)
    event(f"{form_class.__name__} {'valid' if valid else 'refused'}")
    if valid and form_class is GangCreateForm:
        made = services.create_gang(owner, **form.cleaned_data)
        assert Gang.objects.get(pk=made.pk).name == form.cleaned_data["name"]
    elif valid and form_class is GangSettingsForm:
        services.update_gang(gang, name=form.cleaned_data["name"], limit=form.cleaned_data["limit"])
    elif valid and form_class is PackForm:  # valid: its name is new to the owner
        pack = services.save_pack(form.save(commit=False))
        assert ContentPack.objects.get(pk=pack.pk).name == form.cleaned_data["name"]
