"""Blackwater Gulch 2nd edition (``bwg2``): gangs from Character Cards, as RULES.md digests them.

Expected numbers come from RULES.md (section ``bwg2``) and the rulebook (seed 000), written
out here rather than read from the engine, so that a wrong constant in the engine fails.

Helpers build rosters in the roster file's shape::

    gang(member("1", hero(), leader=True), member("2", henchman()), limit=700)
"""

from __future__ import annotations

import copy
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

from rules import Report, Severity, get_system
from rules.dice import Dice
from rules.roster import check_roster
from rules.systems import bwg2
from tests.rules.findings import assert_clear, assert_flags

ERROR = Severity.ERROR
WARNING = Severity.WARNING
SYSTEM = get_system("bwg2")
EXAMPLES = Path(__file__).resolve().parent.parent.parent / "docs" / "examples"

# RULES.md, "Model sizes": size -> (HP, Str, XP, Victory Points)
SIZE_BONUS = {
    "standard": (0, 0, 0, 0),
    "large": (1, 0, 10, 1),
    "massive": (2, 1, 25, 2),
    "giant": (3, 2, 40, 3),
}
BASES = {"standard": "30 mm", "large": "40 mm", "massive": "50 mm"}
LEVEL_VP = {"minion": 1, "henchman": 2, "hero": 3}
LEADER_VP = 5
MAX_ITEM_LEVEL = {"minion": 2, "henchman": 4}
FACTIONS = ("Lawmen", "Outlaws", "Beasts", "Cursed")
ATTRIBUTES = ("hp", "dp", "xp", "str", "spd", "sta", "int", "rc", "mc")
TRAITS = (
    "1-Handed",
    "2-Handed",
    "AOE",
    "Armor",
    "Artillery",
    "Automatic",
    "Binding",
    "Bow",
    "Concealed",
    "Consumable",
    "DOT",
    "Long Reach",
    "Pistol",
    "Rifle",
    "Shotgun",
    "Slow",
    "Sniper",
    "Holy",
    "Silver",
    "Vorpal",
    "Thrown",
    "Unique",
    "Weightless",
)


# --------------------------------------------------------------------------- builders


def item(
    name: str,
    *,
    level: int | None = None,
    traits: tuple[str, ...] = (),
    rng: Any = 6,
    strength: Any = 3,
    **flags: bool,
) -> dict[str, Any]:
    return {
        "name": name,
        "range": rng,
        "str": strength,
        "level": level,
        "traits": list(traits),
        "weightless": flags.get("weightless", False),
        "unique": flags.get("unique", False),
        "consumable": flags.get("consumable", False),
    }


def extra(
    name: str = "Snake Oil",
    cost: int = 10,
    *,
    level: int | None = 1,
    traits: tuple[str, ...] = ("Consumable",),
    **flags: bool,
) -> dict[str, Any]:
    return {**item(name, level=level, traits=traits, **flags), "cost": cost}


def card(
    name: str = "Sample Henchman",
    *,
    faction: str = "outlaws",
    level: str = "henchman",
    size: str = "standard",
    equipment: list[dict[str, Any]] | tuple = (),
    skills: list[dict[str, Any]] | tuple = (),
    **attributes: Any,
) -> dict[str, Any]:
    values = {"hp": 2, "dp": 2, "xp": 50, "str": 3, "spd": 5, "sta": 3, "int": 2, "rc": 3, "mc": 3}
    values.update(attributes)
    return {
        "name": name,
        "faction": faction,
        "level": level,
        "size": size,
        "artillery": False,
        **values,
        "equipment": list(equipment),
        "vital_info": "",
        "faction_rule": {"name": "", "text": ""},
        "skills": list(skills),
    }


def hero(name: str = "Sample Hero", **kwargs: Any) -> dict[str, Any]:
    kwargs.setdefault("xp", 120)
    return card(name, level="hero", **kwargs)


def henchman(name: str = "Sample Henchman", **kwargs: Any) -> dict[str, Any]:
    return card(name, level="henchman", **kwargs)


def minion(name: str = "Sample Minion", **kwargs: Any) -> dict[str, Any]:
    kwargs.setdefault("xp", 30)
    kwargs.setdefault("hp", 1)
    return card(name, level="minion", **kwargs)


def artillery(name: str = "Gatling Gun", **kwargs: Any) -> dict[str, Any]:
    kwargs.setdefault("xp", 90)
    kwargs.setdefault("size", "massive")  # artillery comes on 50 mm bases
    c = card(name, level="", **kwargs)
    c["artillery"] = True
    return c


def skill(name: str, opens: tuple[str, ...] = (), text: str = "") -> dict[str, Any]:
    return {"name": name, "text": text or f"{name} text.", "opens_factions": list(opens)}


def member(
    key: str,
    c: dict[str, Any],
    *,
    leader: bool = False,
    team: str | None = None,
    extras: list[dict[str, Any]] | tuple = (),
    name: str | None = None,
) -> dict[str, Any]:
    return {
        "key": key,
        "name": f"Member {key}" if name is None else name,
        "data": {"card": c, "leader": leader, "team": team, "extras": list(extras)},
    }


def gang(*members: dict[str, Any], limit: int | None = 700) -> dict[str, Any]:
    return {
        "format": "gangfight-roster",
        "version": 1,
        "system": "bwg2",
        "name": "The Tranquility Crew",
        "limit": limit,
        "gang": {},
        "members": list(members),
    }


# Captain Nathan Reinholdt as the book prints him (RULES.md); his numbers are samples.
REINHOLDT_EQUIPMENT = [
    item("Hand Cannon", rng=10, strength=4, traits=("Pistol", "1-Handed")),
    item("Throwing Knife", rng="M", strength=4, traits=("Thrown", "Concealed")),
]
REINHOLDT_SKILLS = ["Duck & Cover", "Gunslinger", "Let's Misbehave", "Tosser"]


def reinholdt(**kwargs: Any) -> dict[str, Any]:
    c = hero(
        "Captain Nathan Reinholdt",
        equipment=copy.deepcopy(REINHOLDT_EQUIPMENT),
        skills=[skill(s) for s in REINHOLDT_SKILLS],
        xp=150,
        str=3,
        **kwargs,
    )
    c["vital_info"] = "Mortal Hero, Leader of the Tranquility Crew"
    c["faction_rule"] = {"name": "Dirty Fighters", "text": "+1D6 to hit from behind."}
    return c


def legal_gang(limit: int | None = 700) -> dict[str, Any]:
    """Reinholdt leads; a second Hero (700 allows 2), two Henchmen, a team of three minions.

    Fame = 150 + 120 + (60 + 10 Large) + 50 + 3 x 30 + 10 (Snake Oil) = 490.
    """
    return gang(
        member("1", reinholdt(), leader=True, extras=[extra("Snake Oil", 10)]),
        member("2", hero("Gentleman Jim")),
        member("3", henchman("Big Ma Tully", size="large", xp=60)),
        member("4", henchman("Dutch Van Hoek")),
        member("5", minion("Gunhand"), team="A"),
        member("6", minion("Gunhand"), team="A"),
        member("7", minion("Gunhand"), team="A"),
        limit=limit,
    )


LEGAL_GANG_FAME = 150 + 120 + 60 + 10 + 50 + 3 * 30 + 10


def with_member(roster: dict[str, Any], *extra_members: dict[str, Any]) -> dict[str, Any]:
    return {**roster, "members": [*roster["members"], *extra_members]}


def replace(roster: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    members = [new if m["key"] == new["key"] else m for m in roster["members"]]
    assert any(m is new for m in members), f"no member {new['key']!r}"
    return {**roster, "members": members}


def evaluate(roster: Any) -> Report:
    return SYSTEM.evaluate(roster)


# --------------------------------------------------------------------------- assertions


# --------------------------------------------------------------------------- the rule list

SOURCE = Path(__file__).read_text(encoding="utf-8")


def test_rule_codes_are_unique_and_namespaced():
    codes = [r.code for r in SYSTEM.rules]
    assert len(codes) == len(set(codes))
    assert all(re.fullmatch(r"bwg2\.[a-z_]+", c) for c in codes)
    assert all(r.severity in (ERROR, WARNING) and r.summary and r.source for r in SYSTEM.rules)
    assert all(r.source.startswith("seed 000") for r in SYSTEM.rules)


def test_the_documented_codes_are_exactly_the_codes_tested_here():
    flagged = set(re.findall(r'assert_flags\(\s*[\w.()]+,\s*"(bwg2\.\w+)"', SOURCE))
    cleared = set(re.findall(r'assert_clear\(\s*[\w.()]+,\s*"(bwg2\.\w+)"', SOURCE))
    documented = {r.code for r in SYSTEM.rules}
    assert flagged == documented
    assert cleared == documented


@pytest.mark.parametrize("rule", bwg2.RULES, ids=lambda r: r.code)
def test_every_rule_has_a_legal_and_an_illegal_case_here(rule):
    quoted = f'"{rule.code}"'
    assert re.search(r"assert_flags\(\s*[\w.()]+,\s*" + re.escape(quoted), SOURCE)
    assert re.search(r"assert_clear\(\s*[\w.()]+,\s*" + re.escape(quoted), SOURCE)


def test_the_rulebook_decisions_are_documented():
    decided = {r.code: r.decision for r in SYSTEM.rules if r.decision}
    assert "400" in decided["bwg2.too_many_heroes"]
    assert "one per gang" in decided["bwg2.duplicate_character"]
    assert any("200" in d and "6" in d for d in SYSTEM.decisions)  # objectives
    assert any("Artillery" in d and "Victory Points" in d for d in SYSTEM.decisions)
    assert any("no Fame limit" in d for d in SYSTEM.decisions)


def test_the_system_interface():
    assert SYSTEM.id == "bwg2"
    assert SYSTEM.total_label == "Fame"
    assert SYSTEM.seed == "000_863c21c7d229bf40.txt"
    assert SYSTEM.limit_presets == (325, 700)
    assert SYSTEM.default_limit == 700
    assert SYSTEM.member_schema["type"] == "object"
    assert SYSTEM.gang_schema["type"] == "object"


# --------------------------------------------------------------------------- a legal gang


def test_legal_gang_has_no_findings_at_all():
    report = evaluate(legal_gang())
    assert report.findings == []
    assert report.total == LEGAL_GANG_FAME
    assert report.gang["leader"] == "1"
    assert report.gang["faction"] == "outlaws"


@pytest.mark.parametrize("code", [r.code for r in bwg2.RULES])
def test_the_legal_gang_is_clear_of(code):
    assert_clear(evaluate(legal_gang()), code)


def test_the_gang_facts_are_label_value_strings():
    report = evaluate(legal_gang())
    facts = dict(report.gang["facts"])
    assert all(isinstance(k, str) and isinstance(v, str) for k, v in report.gang["facts"])
    assert facts["Objectives brought"] == str(LEGAL_GANG_FAME // 200)
    assert facts["Heroes allowed"] == "2"
    assert facts["Leader"] == "Member 1"
    assert facts["Faction"] == "Outlaws"


def test_total_is_the_sum_of_member_costs():
    report = evaluate(legal_gang())
    assert report.total == sum(m.cost for m in report.members.values())


def test_every_member_report_has_the_common_fields():
    report = evaluate(legal_gang())
    for position, (key, m) in enumerate(report.members.items(), start=1):
        assert m.key == key and m.position == position
        assert isinstance(m.cost, int) and isinstance(m.summary, str)
        assert [label for label, _ in m.stats] == [
            "HP",
            "DP",
            "XP",
            "Str",
            "Spd",
            "Sta",
            "Int",
            "RC",
            "MC",
        ]
        assert all(isinstance(n, str) for n in m.notes)
        assert m.has_errors is False


def test_reinholdts_card_prints_his_equipment_and_skills():
    m = evaluate(legal_gang()).members["1"]
    text = "\n".join(m.notes)
    assert "Hand Cannon (range 10, Str 4; Pistol, 1-Handed)" in text
    assert "Throwing Knife (range M, Str 4; Thrown, Concealed)" in text
    assert "Dirty Fighters" in text
    for s in REINHOLDT_SKILLS:
        assert s in text
    assert "Victory Points: 5" in text
    assert m.summary == "Gang Leader · Hero · Outlaws · Standard"


# --------------------------------------------------------------------------- Heroes and Leader


def test_a_gang_without_a_hero_is_illegal():
    report = evaluate(gang(member("1", henchman(), leader=True), member("2", minion())))
    assert_flags(report, "bwg2.no_hero", ERROR, None)


def test_one_hero_is_enough():
    report = evaluate(gang(member("1", hero(), leader=True)))
    assert_clear(report, "bwg2.no_hero")


def test_artillery_is_not_a_hero():
    c = artillery()
    c["level"] = "hero"
    report = evaluate(gang(member("1", henchman(), leader=True), member("2", c)))
    assert_flags(report, "bwg2.no_hero", ERROR, None)


def test_a_gang_without_a_leader_is_illegal():
    report = evaluate(gang(member("1", hero("Nathan")), member("2", henchman())))
    finding = assert_flags(report, "bwg2.no_leader", ERROR, None)
    assert "Nathan" in finding.message or "Member 1" in finding.message
    assert report.gang["leader"] is None


def test_the_leader_flag_names_the_leader():
    report = evaluate(gang(member("1", henchman()), member("2", hero(), leader=True)))
    assert_clear(report, "bwg2.no_leader")
    assert report.gang["leader"] == "2"


def test_a_second_leader_is_flagged_not_the_first():
    report = evaluate(
        gang(member("1", hero("A"), leader=True), member("2", hero("B"), leader=True))
    )
    finding = assert_flags(report, "bwg2.too_many_leaders", ERROR, "2")
    assert "Leader flag" in finding.message


def test_one_leader_is_right():
    assert_clear(evaluate(legal_gang()), "bwg2.too_many_leaders")


def test_each_extra_leader_is_flagged():
    report = evaluate(
        gang(*(member(str(i), hero(f"H{i}"), leader=True) for i in range(1, 4)), limit=None)
    )
    extra = [f for f in report.findings if f.code == "bwg2.too_many_leaders"]
    assert [f.member for f in extra] == ["2", "3"]


@pytest.mark.parametrize("level", ["henchman", "minion"])
def test_the_leader_must_be_a_hero(level):
    report = evaluate(gang(member("1", hero()), member("2", card(level=level), leader=True)))
    finding = assert_flags(report, "bwg2.leader_not_hero", ERROR, "2")
    assert "must be a Hero" in finding.message
    assert "Member 1" in finding.message  # names the Hero who could lead


def test_artillery_can_not_lead():
    report = evaluate(gang(member("1", hero()), member("2", artillery(), leader=True)))
    assert_flags(report, "bwg2.leader_not_hero", ERROR, "2")


def test_a_hero_leader_is_fine():
    assert_clear(evaluate(legal_gang()), "bwg2.leader_not_hero")


def heroes_gang(count: int, limit: int | None) -> dict[str, Any]:
    members = [member("1", hero("H1", xp=100), leader=True)]
    members += [member(str(i), hero(f"H{i}", xp=100)) for i in range(2, count + 1)]
    return gang(*members, limit=limit)


@pytest.mark.parametrize(
    ("limit", "allowed"),
    [(325, 1), (399, 1), (400, 2), (700, 2), (799, 2), (800, 3), (1200, 4)],
)
def test_heroes_allowed_is_one_plus_one_per_400_fame(limit, allowed):
    report = evaluate(heroes_gang(allowed, limit=max(limit, 100 * allowed)))
    assert report.gang["heroes_allowed"] == allowed
    assert_clear(report, "bwg2.too_many_heroes")
    report = evaluate(heroes_gang(allowed + 1, limit=limit))
    assert_flags(report, "bwg2.too_many_heroes", ERROR, None)


def test_three_heroes_at_700_fame_is_the_books_error():
    finding = assert_flags(evaluate(heroes_gang(3, 700)), "bwg2.too_many_heroes", ERROR, None)
    assert "3 Heroes" in finding.message
    assert "700" in finding.message and "allows 2" in finding.message
    assert "800" in finding.message


def test_three_heroes_at_800_fame_are_fine():
    assert_clear(evaluate(heroes_gang(3, 800)), "bwg2.too_many_heroes")


def test_with_no_limit_the_gangs_own_fame_sets_the_heroes_allowed():
    # 3 Heroes of 100 XP: Fame 300 allows 1.
    report = evaluate(heroes_gang(3, None))
    assert report.gang["heroes_allowed"] == 1
    finding = assert_flags(report, "bwg2.too_many_heroes", ERROR, None)
    assert "no Fame limit" in finding.message
    # Two Heroes and 500 Fame of henchmen: Fame 700 allows 2.
    roster = with_member(
        heroes_gang(2, None), *(member(f"x{i}", henchman(f"M{i}", xp=100)) for i in range(5))
    )
    report = evaluate(roster)
    assert report.total == 700
    assert report.gang["heroes_allowed"] == 2
    assert_clear(report, "bwg2.too_many_heroes")


# --------------------------------------------------------------------------- Fame


def test_fame_equal_to_the_limit_is_fine():
    assert_clear(evaluate(legal_gang(limit=LEGAL_GANG_FAME)), "bwg2.fame_over_limit")


def test_fame_over_the_limit_is_an_error():
    report = evaluate(legal_gang(limit=LEGAL_GANG_FAME - 1))
    finding = assert_flags(report, "bwg2.fame_over_limit", ERROR, None)
    assert str(LEGAL_GANG_FAME) in finding.message and "by 1" in finding.message


def test_no_limit_means_no_fame_check():
    report = evaluate(legal_gang(limit=None))
    assert report.limit is None
    assert_clear(report, "bwg2.fame_over_limit")


@pytest.mark.parametrize("limit", ["seven hundred", [700], 0, -5, True])
def test_a_limit_that_is_not_a_positive_number_is_no_limit(limit):
    assert evaluate(legal_gang(limit=limit)).limit is None


def test_the_starter_preset_is_325():
    report = evaluate(legal_gang(limit=325))
    assert_flags(report, "bwg2.fame_over_limit", ERROR, None)


def test_extras_and_artillery_count_toward_fame():
    roster = gang(
        member("1", hero(xp=100), leader=True, extras=[extra("Booze", 5), extra("Salts", 10)]),
        member("2", artillery(xp=90)),
        limit=204,
    )
    report = evaluate(roster)
    assert report.total == 100 + 5 + 10 + 90
    assert report.members["1"].cost == 115
    assert report.members["2"].cost == 90
    assert_flags(report, "bwg2.fame_over_limit", ERROR, None)


# --------------------------------------------------------------------------- sizes


@pytest.mark.parametrize("size", list(SIZE_BONUS))
def test_size_bonuses_are_added_on_top_of_the_card(size):
    hp, strength, xp, vp = SIZE_BONUS[size]
    c = henchman(size=size.capitalize(), hp=2, str=3, xp=60)
    report = evaluate(gang(member("1", hero(), leader=True), member("2", c)))
    m = report.members["2"]
    stats = dict(m.stats)
    assert stats["HP"] == str(2 + hp)
    assert stats["Str"] == str(3 + strength)
    assert stats["XP"] == str(60 + xp)
    assert m.cost == 60 + xp
    assert m.victory_points == LEVEL_VP["henchman"] + vp
    assert_clear(report, "bwg2.unknown_size")


def test_an_empty_size_is_standard():
    c = henchman(size="")
    report = evaluate(gang(member("1", hero(), leader=True), member("2", c)))
    assert_clear(report, "bwg2.unknown_size")
    assert report.members["2"].cost == 50


@pytest.mark.parametrize("size", ["huge", "XL", "50mm"])
def test_an_unknown_size_is_a_finding_not_an_exception(size):
    report = evaluate(gang(member("1", hero(), leader=True), member("2", henchman(size=size))))
    finding = assert_flags(report, "bwg2.unknown_size", ERROR, "2")
    assert "Standard, Large, Massive, Giant" in finding.message
    assert report.members["2"].cost == 50  # read as Standard


def test_artillery_gets_no_size_bonus_or_surcharge_but_counts_in_fame():
    report = evaluate(gang(member("1", hero(), leader=True), member("2", artillery(xp=90, hp=3))))
    m = report.members["2"]
    assert m.cost == 90
    assert dict(m.stats)["HP"] == "3"
    assert m.victory_points == 0
    assert report.total == 120 + 90
    assert m.summary.startswith("Artillery")


def test_the_content_has_the_books_sizes():
    sizes = {s["id"]: s for s in SYSTEM.content["sizes"]}
    for size, (hp, strength, xp, vp) in SIZE_BONUS.items():
        assert (sizes[size]["hp"], sizes[size]["str"], sizes[size]["xp"]) == (hp, strength, xp)
        assert sizes[size]["victory_points"] == vp
    for size, base in BASES.items():
        assert sizes[size]["base"] == base


# --------------------------------------------------------------------------- factions


def test_recruits_share_the_leaders_faction():
    assert_clear(evaluate(legal_gang()), "bwg2.wrong_faction")


def test_a_recruit_from_another_faction_is_an_error():
    roster = with_member(legal_gang(), member("8", henchman("Deputy", faction="lawmen")))
    finding = assert_flags(evaluate(roster), "bwg2.wrong_faction", ERROR, "8")
    assert "Lawmen" in finding.message and "Outlaws" in finding.message


def test_a_leaders_skill_can_open_another_faction():
    leader = reinholdt()
    leader["skills"].append(skill("Friends in Low Places", ("cursed",)))
    roster = gang(member("1", leader, leader=True), member("2", henchman(faction="cursed")))
    report = evaluate(roster)
    assert_clear(report, "bwg2.wrong_faction")
    assert report.gang["opened_factions"] == ["cursed"]


def test_a_followers_skill_can_open_another_faction():
    turncoat = henchman("Turncoat", skills=[skill("Switch Sides", ("Lawmen",))])
    roster = gang(
        member("1", reinholdt(), leader=True),
        member("2", turncoat),
        member("3", henchman("Deputy", faction="lawmen")),
    )
    assert_clear(evaluate(roster), "bwg2.wrong_faction")


def test_an_opened_faction_opens_only_that_faction():
    turncoat = henchman("Turncoat", skills=[skill("Switch Sides", ("lawmen",))])
    roster = gang(
        member("1", reinholdt(), leader=True),
        member("2", turncoat),
        member("3", henchman("Ghoul", faction="cursed")),
    )
    assert_flags(evaluate(roster), "bwg2.wrong_faction", ERROR, "3")


def test_a_recruits_own_skill_can_let_it_switch_sides():
    turncoat = henchman("Turncoat", faction="lawmen", skills=[skill("Turncoat", ("lawmen",))])
    roster = gang(member("1", reinholdt(), leader=True), member("2", turncoat))
    assert_clear(evaluate(roster), "bwg2.wrong_faction")


@pytest.mark.parametrize("name", FACTIONS)
def test_faction_names_are_read_in_any_case(name):
    roster = gang(member("1", hero(faction=name.upper()), leader=True))
    report = evaluate(roster)
    assert_clear(report, "bwg2.unknown_faction")
    assert report.gang["faction"] == name.lower()


@pytest.mark.parametrize("faction", ["pirates", "", "Outlaw Gang"])
def test_an_unknown_faction_is_a_finding(faction):
    roster = gang(member("1", hero(), leader=True), member("2", henchman(faction=faction)))
    report = evaluate(roster)
    finding = assert_flags(report, "bwg2.unknown_faction", ERROR, "2")
    assert "Lawmen, Outlaws, Beasts, Cursed" in finding.message
    assert_clear(report, "bwg2.wrong_faction")  # one finding is enough


def test_a_skill_opening_an_unknown_faction_is_a_finding():
    c = henchman(skills=[skill("Switch Sides", ("aliens",))])
    report = evaluate(gang(member("1", hero(), leader=True), member("2", c)))
    finding = assert_flags(report, "bwg2.unknown_faction", ERROR, "2")
    assert "aliens" in finding.message


# --------------------------------------------------------------------------- levels


@pytest.mark.parametrize("level", ["hero", "Henchman", "MINION", "Heroes", "henchmen"])
def test_level_names_are_read_in_any_case(level):
    report = evaluate(gang(member("1", hero(), leader=True), member("2", card(level=level))))
    assert_clear(report, "bwg2.unknown_level")


@pytest.mark.parametrize("level", ["boss", "", "sidekick"])
def test_an_unknown_level_is_a_finding(level):
    report = evaluate(gang(member("1", hero(), leader=True), member("2", card(level=level))))
    finding = assert_flags(report, "bwg2.unknown_level", ERROR, "2")
    assert "Hero, Henchman, Minion" in finding.message
    assert report.members["2"].victory_points == 0


def test_artillery_needs_no_level():
    report = evaluate(gang(member("1", hero(), leader=True), member("2", artillery())))
    assert_clear(report, "bwg2.unknown_level")


# --------------------------------------------------------------------------- attributes


def test_a_card_prints_nine_whole_numbers():
    assert_clear(evaluate(legal_gang()), "bwg2.bad_attribute")


@pytest.mark.parametrize("value", [-1, "three", None, 2.5, True])
def test_a_bad_attribute_is_a_finding(value):
    c = henchman()
    c["dp"] = value
    report = evaluate(gang(member("1", hero(), leader=True), member("2", c)))
    finding = assert_flags(report, "bwg2.bad_attribute", ERROR, "2")
    assert "DP" in finding.message
    assert dict(report.members["2"].stats)["DP"] == "0"


def test_missing_attributes_are_listed_in_one_finding():
    c = henchman()
    del c["hp"], c["mc"]
    report = evaluate(gang(member("1", hero(), leader=True), member("2", c)))
    finding = assert_flags(report, "bwg2.bad_attribute", ERROR, "2")
    assert "HP" in finding.message and "MC" in finding.message


# --------------------------------------------------------------------------- equipment


def test_str_items_is_the_most_a_character_equips():
    c = henchman(str=2, equipment=[item("Knife"), item("Pistol")])
    report = evaluate(gang(member("1", hero(), leader=True), member("2", c)))
    assert_clear(report, "bwg2.too_many_items")


def test_one_item_more_than_str_is_an_error():
    c = henchman(str=2, equipment=[item("Knife"), item("Pistol")])
    roster = gang(member("1", hero(), leader=True), member("2", c, extras=[extra("Snake Oil")]))
    finding = assert_flags(evaluate(roster), "bwg2.too_many_items", ERROR, "2")
    assert "3 items" in finding.message and "Str 2" in finding.message


def test_weightless_items_are_free():
    c = henchman(str=2, equipment=[item("Knife"), item("Pistol")])
    extras = [
        extra("Silver Bullets", traits=("Consumable", "Silver", "Weightless")),
        extra("Lucky Charm", weightless=True),
    ]
    roster = gang(member("1", hero(), leader=True), member("2", c, extras=extras))
    assert_clear(evaluate(roster), "bwg2.too_many_items")


def test_printed_items_always_count():
    c = henchman(str=1, equipment=[item("Knife"), item("Pistol")])
    report = evaluate(gang(member("1", hero(), leader=True), member("2", c)))
    finding = assert_flags(report, "bwg2.too_many_items", ERROR, "2")
    assert "card" in finding.message


@pytest.mark.parametrize(("size", "carried"), [("massive", 4), ("giant", 5)])
def test_the_size_strength_bonus_lets_a_model_equip_more(size, carried):
    equipment = [item(f"Item {i}") for i in range(carried)]
    c = henchman(size=size, str=3, equipment=equipment)
    report = evaluate(gang(member("1", hero(), leader=True), member("2", c)))
    assert_clear(report, "bwg2.too_many_items")
    c = henchman(size=size, str=3, equipment=[*equipment, item("One more")])
    report = evaluate(gang(member("1", hero(), leader=True), member("2", c)))
    assert_flags(report, "bwg2.too_many_items", ERROR, "2")


def test_artillery_has_no_strength_limit():
    c = artillery(str=0, equipment=[item("Gatling", traits=("Artillery",))])
    report = evaluate(gang(member("1", hero(), leader=True), member("2", c)))
    assert_clear(report, "bwg2.too_many_items")


@pytest.mark.parametrize(("level", "highest"), sorted(MAX_ITEM_LEVEL.items()))
def test_item_levels_up_to_the_characters_limit_are_fine(level, highest):
    c = card(level=level, equipment=[item("Gun", level=highest)])
    report = evaluate(gang(member("1", hero(), leader=True), member("2", c)))
    assert_clear(report, "bwg2.item_level_too_high")


@pytest.mark.parametrize(("level", "highest"), sorted(MAX_ITEM_LEVEL.items()))
def test_an_item_above_the_characters_level_limit_is_an_error(level, highest):
    roster = gang(
        member("1", hero(), leader=True),
        member("2", card(level=level), extras=[extra("Elixir", level=highest + 1)]),
    )
    finding = assert_flags(evaluate(roster), "bwg2.item_level_too_high", ERROR, "2")
    assert f"level {highest + 1}" in finding.message and f"level {highest}" in finding.message


def test_heroes_equip_any_level():
    c = hero(equipment=[item("Relic", level=10)])
    report = evaluate(gang(member("1", c, leader=True)))
    assert_clear(report, "bwg2.item_level_too_high")


def test_an_item_without_a_level_is_not_checked():
    c = minion(equipment=[item("Claws", level=None)])
    report = evaluate(gang(member("1", hero(), leader=True), member("2", c)))
    assert_clear(report, "bwg2.item_level_too_high")


def test_one_unique_item_is_fine():
    c = hero(equipment=[item("Lucky Dollar", unique=True, weightless=True)])
    report = evaluate(gang(member("1", c, leader=True)))
    assert_clear(report, "bwg2.duplicate_unique")


def test_two_of_the_same_unique_item_is_an_error():
    roster = gang(
        member("1", hero(equipment=[item("Lucky Dollar", traits=("Unique",))]), leader=True),
        member("2", henchman(equipment=[item("lucky  dollar", unique=True)])),
    )
    finding = assert_flags(evaluate(roster), "bwg2.duplicate_unique", ERROR, "2")
    assert "Member 1" in finding.message


def test_a_member_can_not_carry_two_of_a_unique_item():
    roster = gang(
        member(
            "1",
            hero(equipment=[item("Lucky Dollar", unique=True)]),
            leader=True,
            extras=[extra("Lucky Dollar", unique=True)],
        )
    )
    assert_flags(evaluate(roster), "bwg2.duplicate_unique", ERROR, "1")


def test_two_of_an_ordinary_item_are_fine():
    roster = gang(
        member("1", hero(equipment=[item("Colt")]), leader=True),
        member("2", henchman(equipment=[item("Colt")])),
    )
    assert_clear(evaluate(roster), "bwg2.duplicate_unique")


# --------------------------------------------------------------------------- extras


def test_consumables_and_thrown_weapons_are_added_before_the_game():
    extras = [
        extra("Snake Oil", 10),
        extra("Throwing Knife", 5, traits=("Thrown", "Concealed")),
        extra("Tonic", 5, traits=(), consumable=True),
    ]
    roster = gang(member("1", hero(str=4), leader=True, extras=extras))
    report = evaluate(roster)
    assert_clear(report, "bwg2.extra_not_consumable")
    assert report.members["1"].cost == 120 + 20


def test_an_extra_that_is_not_a_consumable_is_an_error():
    roster = gang(member("1", hero(), leader=True, extras=[extra("Colt", 20, traits=("Pistol",))]))
    finding = assert_flags(evaluate(roster), "bwg2.extra_not_consumable", ERROR, "1")
    assert "Colt" in finding.message
    assert evaluate(roster).members["1"].cost == 140  # its cost still counts


def test_an_extra_with_a_cost_is_fine():
    assert_clear(evaluate(legal_gang()), "bwg2.extra_cost_missing")


@pytest.mark.parametrize("cost", [0, -5, "cheap", None])
def test_an_extra_without_a_cost_is_a_warning(cost):
    roster = gang(member("1", hero(), leader=True, extras=[extra("Booze", cost)]))
    report = evaluate(roster)
    assert_flags(report, "bwg2.extra_cost_missing", WARNING, "1")
    assert report.is_legal
    assert report.total == 120


def test_artillery_is_given_no_extras():
    report = evaluate(gang(member("1", hero(), leader=True), member("2", artillery())))
    assert_clear(report, "bwg2.artillery_extras")


def test_extras_on_artillery_are_an_error():
    roster = gang(
        member("1", hero(), leader=True),
        member("2", artillery(xp=90), extras=[extra("Snake Oil", 10)]),
    )
    report = evaluate(roster)
    finding = assert_flags(report, "bwg2.artillery_extras", ERROR, "2")
    assert "Snake Oil" in finding.message
    assert report.members["2"].cost == 100


# --------------------------------------------------------------------------- minion teams


def test_a_team_of_identical_minions_is_fine():
    report = evaluate(legal_gang())
    assert_clear(report, "bwg2.team_mismatch")
    assert_clear(report, "bwg2.team_not_minion")
    assert_clear(report, "bwg2.team_of_one")
    assert report.gang["teams"] == {"A": ["5", "6", "7"]}


def test_minions_may_fight_alone():
    report = evaluate(gang(member("1", hero(), leader=True), member("2", minion())))
    assert report.is_legal and report.findings == []


def test_team_members_may_carry_different_extras():
    roster = gang(
        member("1", hero(), leader=True),
        member("2", minion(), team="A", extras=[extra("Booze", 5)]),
        member("3", minion(), team="A"),
    )
    assert_clear(evaluate(roster), "bwg2.team_mismatch")


@pytest.mark.parametrize(
    "change",
    [{"mc": 4}, {"hp": 2}, {"size": "large"}, {"skills": [skill("Pack Hunter")]}],
    ids=["attribute", "hp", "size", "skills"],
)
def test_a_different_minion_in_a_team_is_an_error(change):
    roster = gang(
        member("1", hero(), leader=True),
        member("2", minion(), team="A"),
        member("3", minion(), team="A"),
        member("4", {**minion(), **change}, team="A"),
    )
    finding = assert_flags(evaluate(roster), "bwg2.team_mismatch", ERROR, "4")
    assert "Team 'A'" in finding.message


@pytest.mark.parametrize("level", ["hero", "henchman"])
def test_only_minions_form_teams(level):
    roster = gang(
        member("1", hero(), leader=True),
        member("2", card(f"{level} card", level=level), team="A"),
        member("3", minion(), team="A"),
        member("4", minion(), team="A"),
    )
    report = evaluate(roster)
    finding = assert_flags(report, "bwg2.team_not_minion", ERROR, "2")
    assert "Only Minions" in finding.message
    assert_clear(report, "bwg2.team_mismatch")


def test_a_team_of_one_is_a_warning():
    roster = gang(member("1", hero(), leader=True), member("2", minion(), team="Lonely"))
    report = evaluate(roster)
    assert_flags(report, "bwg2.team_of_one", WARNING, "2")
    assert report.is_legal


# --------------------------------------------------------------------------- duplicates


def test_a_second_copy_of_a_hero_card_is_an_error():
    roster = with_member(legal_gang(), member("8", reinholdt()))
    finding = assert_flags(evaluate(roster), "bwg2.duplicate_character", ERROR, "8")
    assert "Captain Nathan Reinholdt" in finding.message and "Member 1" in finding.message


def test_henchmen_are_one_per_gang_by_default():
    roster = with_member(legal_gang(), member("8", henchman("DUTCH VAN HOEK")))
    assert_flags(evaluate(roster), "bwg2.duplicate_character", ERROR, "8")


def test_minions_are_any_number_by_default():
    assert_clear(evaluate(legal_gang()), "bwg2.duplicate_character")


def test_a_card_may_say_it_is_not_one_per_gang():
    c = henchman("Hired Gun")
    c["one_per_gang"] = False
    roster = gang(member("1", hero(), leader=True), member("2", c), member("3", dict(c)))
    assert_clear(evaluate(roster), "bwg2.duplicate_character")


def test_a_minion_card_may_be_one_per_gang():
    c = minion("Chupacabra Alpha")
    c["one_per_gang"] = True
    roster = gang(member("1", hero(), leader=True), member("2", c), member("3", dict(c)))
    assert_flags(evaluate(roster), "bwg2.duplicate_character", ERROR, "3")


# --------------------------------------------------------------------------- traits, names


@pytest.mark.parametrize("trait", [*TRAITS, "long reach", "DOT (Fire)", "1-handed"])
def test_the_books_traits_are_known(trait):
    c = hero(str=6, equipment=[item("Thing", traits=(trait,))])
    report = evaluate(gang(member("1", c, leader=True)))
    assert_clear(report, "bwg2.unknown_trait")


def test_an_unknown_trait_is_a_warning():
    c = hero(equipment=[item("Blunderbuss", traits=("Shotgun", "Boomy"))])
    report = evaluate(gang(member("1", c, leader=True)))
    finding = assert_flags(report, "bwg2.unknown_trait", WARNING, "1")
    assert "Boomy" in finding.message
    assert report.is_legal


def test_a_named_card_is_fine():
    assert_clear(evaluate(legal_gang()), "bwg2.card_unnamed")


def test_an_unnamed_card_is_a_warning():
    report = evaluate(gang(member("1", hero(), leader=True), member("2", henchman(""))))
    assert_flags(report, "bwg2.card_unnamed", WARNING, "2")


# --------------------------------------------------------------------------- derived numbers


@pytest.mark.parametrize(
    ("fames", "expected"),
    [((700, 700), 6), ((700,), 3), ((199,), 0), ((200, 399), 2), ((), 0), ((325, 700), 4)],
)
def test_objectives_are_one_per_200_fame_per_gang(fames, expected):
    assert bwg2.objectives(*fames) == expected


def test_the_gang_reports_its_own_objectives():
    report = evaluate(legal_gang())
    assert report.gang["objectives"] == LEGAL_GANG_FAME // 200
    assert report.gang["fame"] == LEGAL_GANG_FAME


def test_victory_points_by_level_leader_and_size():
    report = evaluate(legal_gang())
    vp = report.gang["victory_points"]
    assert vp["1"] == LEADER_VP
    assert vp["2"] == LEVEL_VP["hero"]
    assert vp["3"] == LEVEL_VP["henchman"] + SIZE_BONUS["large"][3]
    assert vp["4"] == LEVEL_VP["henchman"]
    assert vp["5"] == vp["6"] == vp["7"] == LEVEL_VP["minion"]
    assert report.gang["victory_points_total"] == 5 + 3 + 3 + 2 + 3


@pytest.mark.parametrize("size", list(SIZE_BONUS))
def test_a_big_leader_is_worth_more(size):
    report = evaluate(gang(member("1", hero(size=size), leader=True)))
    assert report.members["1"].victory_points == LEADER_VP + SIZE_BONUS[size][3]


@pytest.mark.parametrize(("models", "board"), [(4, "2'"), (5, "3'"), (10, "3'"), (11, "4'")])
def test_board_size_follows_the_model_count(models, board):
    assert bwg2.board_size(models).startswith(board)


# --------------------------------------------------------------------------- content


def test_content_has_the_four_factions_with_icons():
    factions = SYSTEM.content["factions"]
    assert [f["name"] for f in factions] == list(FACTIONS)
    assert all(f["icon"] for f in factions)


def test_content_has_the_three_levels():
    levels = {lv["id"]: lv for lv in SYSTEM.content["levels"]}
    assert set(levels) == {"hero", "henchman", "minion"}
    assert {k: v["victory_points"] for k, v in levels.items()} == LEVEL_VP
    assert levels["minion"]["max_item_level"] == 2
    assert levels["henchman"]["max_item_level"] == 4
    assert levels["hero"]["max_item_level"] is None


def test_content_has_every_weapon_trait_with_its_text():
    traits = {t["name"]: t["text"] for t in SYSTEM.content["traits"]}
    assert set(traits) == set(TRAITS)
    assert all(len(text) > 20 for text in traits.values())
    assert "+1D6" in traits["Automatic"]
    assert "+1 Strength" in traits["Shotgun"]
    assert "reroll 1" in traits["Sniper"].replace("re-roll", "reroll")


def test_consumables_without_a_book_cost_are_samples():
    names = {c["name"] for c in SYSTEM.content["consumables"]}
    assert {"Bottle of Booze", "Snake Oil", "Silver Bullets"} <= names
    assert all(c["sample"] is True for c in SYSTEM.content["consumables"])


def test_reinholdts_card_is_the_books():
    (c,) = [c for c in SYSTEM.content["cards"] if c["name"] == "Captain Nathan Reinholdt"]
    assert c["faction"] == "outlaws" and c["level"] == "hero"
    assert c["sample"] is True  # the book gives no attribute numbers
    assert set(ATTRIBUTES) <= set(c)
    hand_cannon, knife = c["equipment"]
    assert (hand_cannon["name"], hand_cannon["range"], hand_cannon["str"]) == ("Hand Cannon", 10, 4)
    assert hand_cannon["traits"] == ["Pistol", "1-Handed"]
    assert (knife["name"], knife["str"], knife["traits"]) == (
        "Throwing Knife",
        4,
        ["Thrown", "Concealed"],
    )
    assert c["faction_rule"]["name"] == "Dirty Fighters"
    assert "+1D6 to hit" in c["faction_rule"]["text"]
    assert [s["name"] for s in c["skills"]] == REINHOLDT_SKILLS
    assert c["vital_info"] == "Mortal Hero, Leader of the Tranquility Crew"
    assert "unlimited Throwing Knives" in c["skills"][3]["text"]


def test_the_shipped_card_leads_a_legal_gang():
    data = SYSTEM.new_member("hero")
    data["leader"] = True
    report = evaluate(gang({"key": "1", "name": "Nathan", "data": data}))
    assert report.findings == []


@pytest.mark.parametrize("level", ["hero", "henchman", "minion"])
def test_new_members_fit_the_schema_and_are_legal_alone(level):
    data = SYSTEM.new_member(level)
    roster = gang({"key": "1", "name": "New", "data": data})
    assert check_roster(roster) == []
    report = evaluate(roster)
    assert [f for f in report.findings if f.member is not None] == []


def test_new_member_takes_a_card():
    c = minion("Chupacabra")
    assert SYSTEM.new_member("minion", card=c)["card"] == c


# --------------------------------------------------------------------------- schema


def test_the_test_rosters_fit_the_schema():
    assert check_roster(legal_gang()) == []


@pytest.mark.parametrize(
    ("path", "value"),
    [(("card", "hp"), "3"), (("card", "faction"), 3), (("leader",), "yes"), (("extras",), {})],
)
def test_a_wrong_type_is_a_schema_error_with_its_path(path, value):
    roster = legal_gang()
    target = roster["members"][0]["data"]
    for part in path[:-1]:
        target = target[part]
    target[path[-1]] = value
    problems = check_roster(roster)
    assert problems
    assert path[-1] in problems[0].where


def test_a_wrong_choice_is_not_a_schema_error():
    roster = legal_gang()
    roster["members"][1]["data"]["card"]["faction"] = "pirates"
    roster["members"][1]["data"]["card"]["hp"] = 11
    assert check_roster(roster) == []
    assert_flags(evaluate(roster), "bwg2.unknown_faction", ERROR, "2")


def test_name_and_key_are_not_part_of_data():
    props = SYSTEM.member_schema["properties"]
    assert "key" not in props and "name" not in props
    assert SYSTEM.member_schema["additionalProperties"] is False


# --------------------------------------------------------------------------- examples

EXPECTED_EXAMPLES = {
    "bwg2-legal-tranquility-crew-700.json": (True, []),
    "bwg2-legal-switch-sides-325.json": (True, []),
    "bwg2-illegal-three-heroes-at-700.json": (
        False,
        [
            "bwg2.too_many_heroes",
            "bwg2.fame_over_limit",
            "bwg2.duplicate_unique",
            "bwg2.wrong_faction",
            "bwg2.too_many_items",
            "bwg2.team_mismatch",
            "bwg2.item_level_too_high",
        ],
    ),
    "bwg2-illegal-leader-and-cards.json": (
        False,
        [
            "bwg2.unknown_trait",
            "bwg2.extra_cost_missing",
            "bwg2.leader_not_hero",
            "bwg2.too_many_leaders",
            "bwg2.duplicate_character",
            "bwg2.unknown_faction",
            "bwg2.unknown_size",
            "bwg2.extra_not_consumable",
            "bwg2.team_not_minion",
            "bwg2.team_of_one",
            "bwg2.artillery_extras",
        ],
    ),
}


def test_every_bwg2_example_is_listed_here():
    assert {p.name for p in EXAMPLES.glob("bwg2-*.json")} == set(EXPECTED_EXAMPLES)


@pytest.mark.parametrize("name", sorted(EXPECTED_EXAMPLES))
def test_example_files(name):
    legal, codes = EXPECTED_EXAMPLES[name]
    text = (EXAMPLES / name).read_text("utf-8")
    roster = json.loads(text)
    assert text == json.dumps(roster, indent=2, ensure_ascii=False) + "\n"
    assert check_roster(roster) == []
    assert [m["key"] for m in roster["members"]] == [
        str(i) for i in range(1, len(roster["members"]) + 1)
    ]
    assert name.startswith("bwg2-legal-" if legal else "bwg2-illegal-")
    report = evaluate(roster)
    assert report.is_legal is legal
    assert report.codes() == codes


def test_the_700_example_is_led_by_reinholdt():
    roster = json.loads((EXAMPLES / "bwg2-legal-tranquility-crew-700.json").read_text())
    report = evaluate(roster)
    leader = report.members[report.gang["leader"]]
    assert leader.card_name == "Captain Nathan Reinholdt"
    assert report.limit == 700 and report.total <= 700
    assert report.gang["objectives"] == report.total // 200
    assert any(m.artillery for m in report.members.values())


def test_the_switch_sides_example_recruits_another_faction():
    roster = json.loads((EXAMPLES / "bwg2-legal-switch-sides-325.json").read_text())
    report = evaluate(roster)
    factions = {m.faction_id for m in report.members.values()}
    assert factions == {"outlaws", "cursed"}
    assert report.limit == 325


# --------------------------------------------------------------------------- dice


def test_roll_off_is_repeatable_and_logged():
    first = Dice(random.Random(7))
    second = Dice(random.Random(7))
    a = bwg2.roll_off(first, "attacker")
    assert a == bwg2.roll_off(second, "attacker")
    assert a[0] != a[1]
    assert len(first.log) >= 2 and len(first.log) % 2 == 0
    assert all(r.sides == 6 and r.purpose.startswith("attacker") for r in first.log)
    assert (first.log[-2].total, first.log[-1].total) == a


def test_roll_off_rerolls_ties():
    class Fixed(random.Random):
        def __init__(self, values):
            super().__init__(0)
            self.values = list(values)

        def randint(self, a, b):
            return self.values.pop(0)

    dice = Dice(Fixed([3, 3, 5, 2]))
    assert bwg2.roll_off(dice) == (5, 2)
    assert [r.total for r in dice.log] == [3, 3, 5, 2]


@pytest.mark.parametrize(("d6", "d3"), [(1, 1), (2, 1), (3, 2), (4, 2), (5, 3), (6, 3)])
def test_d3_from_a_d6(d6, d3):
    class Fixed(random.Random):
        def randint(self, a, b):
            return d6

    dice = Dice(Fixed(0))
    assert bwg2.roll_d3(dice, "falling") == d3
    assert dice.log[0].dice == (d6,)


# --------------------------------------------------------------------------- robustness

GARBAGE_ROSTERS = {
    "none": None,
    "a list": [],
    "a string": "gang",
    "empty dict": {},
    "members is a string": {"members": "x"},
    "members is a dict": {"members": {"1": {}}},
    "members are not dicts": {"members": ["Bill", 5, None, [], 3.5]},
    "empty member": {"members": [{}]},
    "data is a list": {"members": [{"key": "1", "data": []}]},
    "card is a string": {"members": [{"key": "1", "data": {"card": "Reinholdt"}}]},
    "card fields garbage": {
        "members": [
            {
                "key": "1",
                "data": {
                    "card": {
                        "name": 5,
                        "faction": ["outlaws"],
                        "level": {"hero": 1},
                        "size": 3,
                        "hp": "x",
                        "xp": 10**40,
                        "str": float("inf"),
                        "dp": float("nan"),
                        "equipment": "Colt",
                        "skills": [None, 3, {"opens_factions": "cursed"}],
                        "faction_rule": "Dirty",
                        "one_per_gang": "yes",
                    },
                    "leader": "yes",
                    "team": ["A"],
                    "extras": [None, {"cost": "lots", "traits": "Thrown"}, 5],
                },
            }
        ]
    },
    "items garbage": {
        "members": [
            {
                "data": {
                    "card": {
                        "level": "hero",
                        "equipment": [{"level": "high", "traits": [1, None]}, None],
                    }
                }
            }
        ]
    },
    "limit not a number": {"limit": "700", "members": []},
    "limit is a list": {"limit": [700], "members": []},
    "duplicate and missing keys": {"members": [{"key": "1"}, {"key": "1"}, {"name": "x"}]},
}


def assert_sane(report: Report) -> None:
    assert isinstance(report, Report)
    assert isinstance(report.total, int) and report.total >= 0
    assert report.total == sum(m.cost for m in report.members.values())
    assert all(f.code in bwg2.RULE_CODES for f in report.findings)
    keys = set(report.members)
    assert all(f.member is None or f.member in keys for f in report.findings)
    for m in report.members.values():
        assert len(m.stats) == 9 and isinstance(m.summary, str) and isinstance(m.notes, list)


@pytest.mark.parametrize("roster", GARBAGE_ROSTERS.values(), ids=GARBAGE_ROSTERS.keys())
def test_garbage_never_raises(roster):
    assert_sane(evaluate(roster))


@pytest.mark.parametrize("roster", [None, {}, {"members": "x"}, {"members": None}])
def test_garbage_without_members_is_an_empty_gang(roster):
    report = evaluate(roster)
    assert report.members == {} and report.total == 0
    assert_flags(report, "bwg2.no_hero", ERROR, None)
    assert_flags(report, "bwg2.no_leader", ERROR, None)


def test_missing_or_duplicate_keys_become_positions():
    report = evaluate(GARBAGE_ROSTERS["duplicate and missing keys"])
    assert list(report.members) == ["1", "#2", "#3"]


def test_a_member_that_is_a_string_has_an_unknown_card():
    report = evaluate({"members": ["Bill"]})
    assert list(report.members) == ["#1"]
    assert_flags(report, "bwg2.unknown_level", ERROR, "#1")
    assert report.total == 0


def test_a_fallback_key_never_takes_a_key_written_in_the_file():
    """A member whose key is missing gets a fallback that no other member has written."""
    roster = legal_gang()
    roster["members"][0]["key"] = "#2"
    roster["members"][1]["key"] = None
    report = evaluate(roster)
    assert len(report.members) == len(roster["members"])
    assert "#2" in report.members and report.members["#2"].name == "Member 1"
    assert report.total == sum(m.cost for m in report.members.values()) == LEGAL_GANG_FAME


def test_team_names_match_ignoring_case_and_spacing():
    roster = gang(
        member("1", hero(), leader=True),
        member("2", minion(), team="Team A"),
        member("3", minion(), team=" team  a"),
    )
    report = evaluate(roster)
    assert_clear(report, "bwg2.team_of_one")
    assert report.gang["teams"] == {"Team A": ["2", "3"]}


def test_a_copy_of_a_unique_item_is_a_duplicate_even_when_not_marked():
    roster = gang(
        member("1", hero(equipment=[item("Lucky Dollar")]), leader=True),
        member("2", henchman(equipment=[item("Lucky Dollar", unique=True)])),
    )
    finding = assert_flags(evaluate(roster), "bwg2.duplicate_unique", ERROR, "2")
    assert "Member 1" in finding.message


@pytest.mark.parametrize("written", ["Outlaw", "outlaw", " OUTLAWS ", "Lawman"])
def test_a_faction_may_be_written_in_the_singular(written):
    leader_faction = "lawmen" if written == "Lawman" else "outlaws"
    roster = gang(
        member("1", hero(faction=leader_faction), leader=True),
        member("2", henchman(faction=written)),
    )
    report = evaluate(roster)
    assert_clear(report, "bwg2.unknown_faction")
    assert_clear(report, "bwg2.wrong_faction")


# --------------------------------------------------------------------------- words players know


def test_findings_name_members_never_by_their_key():
    """A finding names another member by its name; never by the roster file's key."""
    roster = gang(
        member("8", hero("Slim"), name="Slim", leader=True),
        member("9", henchman("Slim"), name="Slim", leader=True),
        member("10", henchman("Doc", equipment=[item("Lucky Dollar", unique=True)]), name=""),
        member("11", henchman("Kid", equipment=[item("Lucky Dollar", unique=True)])),
    )
    report = evaluate(roster)
    second = assert_flags(report, "bwg2.too_many_leaders", ERROR, "9")
    # Two members go by "Slim": the first is named with its place in the roster.
    assert "exactly one, Slim (1st);" in second.message
    unique = assert_flags(report, "bwg2.duplicate_unique", ERROR, "11")
    assert "carried by Doc:" in unique.message  # no member name: the card's
    assert dict(report.gang["facts"])["Leader"] == "Slim (1st)"
    for finding in report.findings:
        assert "key" not in finding.message, finding.message


def test_a_gang_with_one_member_of_a_name_gets_just_the_name():
    roster = gang(member("1", hero("A")), member("2", hero("B")))
    finding = assert_flags(evaluate(roster), "bwg2.no_leader", ERROR, None)
    assert "e.g. Member 1 (your opponent" in finding.message
    assert "(1st)" not in finding.message
