"""Blackwater Gulch v1.1.2 (``bwg1``): the gang-building rules, as RULES.md digests them.

The numbers below come from RULES.md (section ``bwg1``) and the French rulebook (seed 002),
not from the engine's own constants, so that a wrong constant in the engine fails a test.

Helpers build rosters that read like the rules::

    gang(leader("L", "gunslinger"), professional("P1", "doctor"), henchman("H1"), ...)

A member's ``points`` are the attribute points spent on top of the 1 every attribute starts
at. Unless ``fill=False``, the points not given explicitly are spread over the other
attributes (at most 4 each) so that the member spends exactly its allowance.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from rules import Report, Severity, get_system
from rules.systems import bwg1
from tests.rules.findings import assert_clear, assert_flags

ERROR = Severity.ERROR
WARNING = Severity.WARNING
ROOT = Path(__file__).resolve().parents[2]

ATTRIBUTES = ("str", "qui", "sta", "int", "rc", "mc")
ALLOWANCE = {"leader": 20, "professional": 15, "henchman": 10}
BASE_XP = {"leader": 100, "professional": 75, "henchman": 50}
BASE_HP = {"leader": 3, "professional": 2, "henchman": 1}
BASE_DP = {"leader": 3, "professional": 2, "henchman": 1}
PROFESSION_ATTRIBUTE = {
    "bounty_hunter": "str",
    "gambler": "qui",
    "prospector": "sta",
    "doctor": "int",
    "wrassler": "mc",
    "gunslinger": "rc",
}
# attribute -> (skill at 4, skill at 6)
SKILLS = {
    "str": ("Brute Strength", "Strong Arms"),
    "int": ("Bravery", "Duck & Cover"),
    "qui": ("Run & Gun", "Knowhow"),
    "rc": ("Quickdraw", "Deadeye"),
    "mc": ("Duelist", "Point Blank"),
    "sta": ("Hearty", "Really Tough"),
}
HORSES = {
    "Mule": {"str": 3, "qui": 3, "sta": 2, "int": 2, "speed": 7, "xp": 10},
    "Small horse": {"str": 4, "qui": 4, "sta": 3, "int": 2, "speed": 8, "xp": 20},
    "Large horse": {"str": 5, "qui": 5, "sta": 4, "int": 3, "speed": 9, "xp": 40},
    "War horse": {"str": 6, "qui": 6, "sta": 5, "int": 3, "speed": 10, "xp": 80},
}
FILL_CAP = 4  # filled attributes stay at or below 5 (6 with a profession bonus)


# --------------------------------------------------------------------------- builders


def points_for(member_type: str, *, fill: bool = True, **given: int) -> dict[str, int]:
    """Attribute points: ``given`` exactly, the rest of the allowance spread if ``fill``."""
    points = dict.fromkeys(ATTRIBUTES, 0)
    points.update(given)
    if fill:
        left = ALLOWANCE.get(member_type, 0) - sum(given.values())
        free = [a for a in ATTRIBUTES if a not in given]
        while left > 0 and any(points[a] < FILL_CAP for a in free):
            for a in free:
                if left > 0 and points[a] < FILL_CAP:
                    points[a] += 1
                    left -= 1
    return points


def weapon(
    name: str, kind: str, level: int, *, hands: int = 1, traits: tuple[str, ...] = ()
) -> dict[str, Any]:
    return {
        "name": name,
        "kind": kind,
        "level": level,
        "hands": hands,
        "strength": "M" if kind == "melee" else "3",
        "traits": list(traits),
    }


def gun(level: int) -> dict[str, Any]:
    return weapon(f"Level {level} rifle", "ranged", level, hands=2, traits=("longarm",))


def blade(level: int) -> dict[str, Any]:
    return weapon(f"Level {level} blade", "melee", level)


def throwing(name: str) -> dict[str, Any]:
    return weapon(name, "ranged", 2, traits=("thrown",))


def horse(name: str) -> dict[str, Any]:
    return {"name": name, **HORSES[name]}


# The three weapons of the book's example leader (seed 002, p. 12).
BOWIE_KNIFE = weapon("Bowie knife", "melee", 3)
REMINGTON_ARMY = weapon("Remington Army revolver", "ranged", 4, traits=("pistol",))
WINCHESTER_REPEATER = weapon("Winchester Repeater", "ranged", 5, hands=2, traits=("repeater",))
BOOK_WEAPONS = [BOWIE_KNIFE, REMINGTON_ARMY, WINCHESTER_REPEATER]


def member(
    key: str,
    member_type: str = "henchman",
    profession: str = "",
    *,
    name: str | None = None,
    weapons: list[dict[str, Any]] | tuple = (),
    horse: dict[str, Any] | None = None,
    fill: bool = True,
    advances: dict[str, int] | None = None,
    **points: int,
) -> dict[str, Any]:
    data = {
        "key": key,
        "name": f"Member {key}" if name is None else name,
        "type": member_type,
        "profession": profession,
        "points": points_for(member_type, fill=fill, **points),
        "weapons": list(weapons),
        "horse": horse,
    }
    if advances is not None:
        data["advances"] = advances
    return data


def leader(key: str = "L", profession: str = "gunslinger", **kwargs: Any) -> dict[str, Any]:
    return member(key, "leader", profession, **kwargs)


def professional(key: str, profession: str, **kwargs: Any) -> dict[str, Any]:
    return member(key, "professional", profession, **kwargs)


def henchman(key: str, **kwargs: Any) -> dict[str, Any]:
    return member(key, "henchman", "", **kwargs)


def gang(*members: dict[str, Any], limit: int | None = None) -> dict[str, Any]:
    roster: dict[str, Any] = {"system": "bwg1", "name": "The Dalton Boys", "members": list(members)}
    if limit is not None:
        roster["limit"] = limit
    return roster


def legal_gang(limit: int | None = None) -> dict[str, Any]:
    """A Leader (the book's 112-XP example), two Professionals and two Henchmen: 362 Fame.

    Leader: Str 4, Qui 5, Sta 5, Int 5, RC 5 (4 + the first Gunslinger's +1), MC 3.
    """
    return gang(
        leader("L", "gunslinger", str=3, rc=3, mc=2, weapons=BOOK_WEAPONS),
        professional("P1", "doctor"),
        professional("P2", "bounty_hunter"),
        henchman("H1"),
        henchman("H2"),
        limit=limit,
    )


LEGAL_GANG_FAME = 112 + 75 + 75 + 50 + 50


def replace(roster: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    """The roster with the member of the same key swapped for ``new``."""
    members = [new if m["key"] == new["key"] else m for m in roster["members"]]
    assert any(m is new for m in members), f"no member {new['key']!r} to replace"
    return {**roster, "members": members}


def with_extra(roster: dict[str, Any], *extra: dict[str, Any]) -> dict[str, Any]:
    return {**roster, "members": [*roster["members"], *extra]}


def evaluate(roster: Any) -> Report:
    return get_system("bwg1").evaluate(roster)


def member_report(roster: dict[str, Any], key: str):
    return evaluate(roster).members[key]


# --------------------------------------------------------------------------- assertions


# --------------------------------------------------------------------------- the rule list


SOURCE = Path(__file__).read_text(encoding="utf-8")


def test_rule_codes_are_unique_and_namespaced():
    codes = [r.code for r in bwg1.RULES]
    assert len(codes) == len(set(codes))
    assert all(code.startswith("bwg1.") for code in codes)
    assert all(r.severity in (ERROR, WARNING) for r in bwg1.RULES)


@pytest.mark.parametrize("rule", bwg1.RULES, ids=lambda r: r.code)
def test_every_rule_has_a_legal_and_an_illegal_case_here(rule):
    quoted = f'"{rule.code}"'
    assert SOURCE.count(quoted) >= 2, f"{rule.code} needs tests in {Path(__file__).name}"
    flagged = re.search(r"assert_flags\(\s*\w+,\s*" + re.escape(quoted), SOURCE)
    cleared = re.search(r"assert_clear\(\s*\w+,\s*" + re.escape(quoted), SOURCE)
    assert flagged, f"no illegal case (assert_flags) for {rule.code}"
    assert cleared, f"no legal case (assert_clear) for {rule.code}"


# --------------------------------------------------------------------------- a legal gang


def test_legal_gang_has_no_findings_at_all():
    report = evaluate(legal_gang())
    assert report.findings == []
    assert report.is_legal
    assert report.total == LEGAL_GANG_FAME == 362
    assert report.gang["counts"] == {"leader": 1, "professional": 2, "henchman": 2}


def test_legal_gang_attributes_are_as_documented():
    attributes = evaluate(legal_gang()).members["L"].attributes
    assert attributes == {"str": 4, "qui": 5, "sta": 5, "int": 5, "rc": 5, "mc": 3}


# --------------------------------------------------------------------------- book example


@pytest.mark.parametrize("str_points, strength", [(1, 2), (2, 3)])
def test_book_leader_has_112_xp(str_points, strength):
    book_leader = leader("L", "doctor", str=str_points, rc=4, mc=4, weapons=BOOK_WEAPONS)
    report = evaluate(replace(legal_gang(), book_leader))
    assert report.members["L"].attributes["str"] == strength
    assert report.members["L"].xp == 100 + 3 + 4 + 5 == 112


def test_book_leader_with_str_2_cannot_carry_three_weapons():
    book_leader = leader("L", "doctor", str=1, rc=4, mc=4, weapons=BOOK_WEAPONS)
    report = evaluate(replace(legal_gang(), book_leader))
    finding = assert_flags(report, "bwg1.weapons_over_strength", ERROR, "L")
    assert "Str 2" in finding.message


def test_book_leader_with_str_3_carries_three_weapons():
    book_leader = leader("L", "doctor", str=2, rc=4, mc=4, weapons=BOOK_WEAPONS)
    report = evaluate(replace(legal_gang(), book_leader))
    assert_clear(report, "bwg1.weapons_over_strength")
    assert report.is_legal


# --------------------------------------------------------------------------- gang size


def test_five_members_is_a_gang():
    report = evaluate(legal_gang())
    assert len(report.members) == 5
    assert_clear(report, "bwg1.too_few_members")


def test_four_members_is_too_few():
    report = evaluate(gang(leader(), professional("P1", "doctor"), henchman("H1"), henchman("H2")))
    assert_flags(report, "bwg1.too_few_members", ERROR, None)


def test_an_empty_gang_is_too_small_and_has_no_leader():
    report = evaluate(gang())
    assert_flags(report, "bwg1.too_few_members", ERROR, None)
    assert_flags(report, "bwg1.no_leader", ERROR, None)
    assert report.total == 0


# --------------------------------------------------------------------------- the Leader


def test_one_leader_is_right():
    report = evaluate(legal_gang())
    assert_clear(report, "bwg1.no_leader")
    assert_clear(report, "bwg1.too_many_leaders")


def test_a_gang_without_a_leader_is_illegal():
    report = evaluate(replace(legal_gang(), professional("L", "gunslinger")))
    assert_flags(report, "bwg1.no_leader", ERROR, None)
    assert_clear(report, "bwg1.too_many_leaders")


def test_a_second_leader_is_flagged_not_the_first():
    report = evaluate(with_extra(legal_gang(), leader("L2", "wrassler"), henchman("H3")))
    assert_flags(report, "bwg1.too_many_leaders", ERROR, "L2")
    assert_clear(report, "bwg1.no_leader")
    assert report.findings_for("L") == []


def test_each_extra_leader_is_flagged():
    roster = with_extra(
        legal_gang(), leader("L2", "wrassler"), leader("L3", "prospector"), henchman("H3")
    )
    report = evaluate(roster)
    extra = [f for f in report.findings if f.code == "bwg1.too_many_leaders"]
    assert [f.member for f in extra] == ["L2", "L3"]
    assert all(f.severity is ERROR for f in extra)


# --------------------------------------------------------------------------- henchmen


def gang_of(professionals: int, henchmen: int) -> dict[str, Any]:
    professions = list(PROFESSION_ATTRIBUTE)
    return gang(
        leader("L", "gunslinger"),
        *(professional(f"P{i}", professions[i % len(professions)]) for i in range(professionals)),
        *(henchman(f"H{i}") for i in range(henchmen)),
    )


@pytest.mark.parametrize(
    "professionals, henchmen",
    [
        (2, 2),  # the book: 4 others need at least 2 Henchmen
        (1, 3),
        (0, 4),
        (2, 3),  # 5 others need 3
        (1, 2),  # 3 others need 2
        (3, 3),  # 6 others need 3
        (0, 1),
    ],
)
def test_enough_henchmen(professionals, henchmen):
    assert_clear(evaluate(gang_of(professionals, henchmen)), "bwg1.too_few_henchmen")


@pytest.mark.parametrize(
    "professionals, henchmen",
    [
        (3, 1),  # 4 others, 1 Henchman
        (3, 2),  # 5 others need 3
        (2, 1),  # 3 others need 2
        (4, 2),  # 6 others need 3
        (1, 0),
    ],
)
def test_too_few_henchmen(professionals, henchmen):
    report = evaluate(gang_of(professionals, henchmen))
    assert_flags(report, "bwg1.too_few_henchmen", ERROR, None)


def test_the_leader_is_not_counted_among_the_others():
    """Leader + 2 Professionals + 2 Henchmen: 4 others, 2 Henchmen is half: legal."""
    report = evaluate(legal_gang())
    assert report.gang["counts"]["henchman"] == 2
    assert_clear(report, "bwg1.too_few_henchmen")


# --------------------------------------------------------------------------- Fame


@pytest.mark.parametrize("member_type", ["leader", "professional", "henchman"])
def test_base_statistics_by_type(member_type):
    profession = "" if member_type == "henchman" else "doctor"
    # Sta 4 and Int 4 (5 with the Doctor's bonus): no Really Tough, no Duck & Cover.
    m = member("M", member_type, profession, sta=3, int=3)
    report = member_report(gang(m), "M")
    assert report.xp == BASE_XP[member_type]
    assert report.hp == BASE_HP[member_type]
    assert report.dp == BASE_DP[member_type]
    assert report.points_left == 0


def test_weapon_levels_add_to_xp():
    m = henchman("H", str=3, weapons=[gun(2), blade(3)])
    assert member_report(gang(m), "H").xp == 50 + 2 + 3


def test_fame_is_the_sum_of_every_members_xp():
    report = evaluate(legal_gang())
    assert report.total == sum(m.xp for m in report.members.values()) == 362


@pytest.mark.parametrize(
    "horse_name, horse_xp",
    [("Mule", 10), ("Small horse", 20), ("Large horse", 40), ("War horse", 80)],
)
def test_horses_xp_counts_towards_fame(horse_name, horse_xp):
    rider = henchman("H1", horse=horse(horse_name))
    report = evaluate(replace(legal_gang(), rider))
    assert report.total == LEGAL_GANG_FAME + horse_xp
    assert report.members["H1"].xp == 50
    assert report.members["H1"].fame == 50 + horse_xp
    assert report.members["H1"].horse.xp == horse_xp


def test_two_horses_both_count():
    roster = replace(legal_gang(), henchman("H1", horse=horse("Mule")))
    roster = replace(roster, leader("L", "gunslinger", horse=horse("War horse")))
    report = evaluate(roster)
    assert report.total == 100 + 10 + 80 + 75 + 75 + 50 + 50


# --------------------------------------------------------------------------- the book's items

# Seed 002, p. 12 (Le chef): "un chef de Gang équipé d'un couteau Bowie (niveau 3), un
# Remington Army Revolver (niveau 4) et Repeater Winchester (niveau 5) aboutit à un total de
# 112 XP". Seed 002, p. 32 (Attributs des chevaux): Mule Str 3 Qui 3 Sta 2 Int 2 Speed 7"
# XP 10; Petit cheval 4 4 3 2 8" 20; Grand cheval 5 5 4 3 9" 40; Cheval de guerre 6 6 5 3
# 10" 80 (issue 15, item 2: a "War horse" at 10 XP took 70 off the gang's Fame).


def test_a_war_horse_at_10_xp_counts_80_and_is_flagged():
    cheap = {**horse("War horse"), "xp": 10}
    report = evaluate(replace(legal_gang(), henchman("H1", horse=cheap)))
    finding = assert_flags(report, "bwg1.horse_figures_differ", WARNING, "H1")
    assert "XP 10 (book: 80)" in finding.message
    assert report.total == LEGAL_GANG_FAME + 80
    assert report.members["H1"].horse.xp == 80 and report.members["H1"].fame == 50 + 80


def test_the_book_horse_figures_count_on_the_card_too():
    wrong = {"name": "war horse", "str": 1, "qui": 1, "sta": 1, "int": 1, "speed": 4, "xp": 0}
    report = evaluate(replace(legal_gang(), henchman("H1", horse=wrong)))
    finding = assert_flags(report, "bwg1.horse_figures_differ", WARNING, "H1")
    assert "Str 1 (book: 6)" in finding.message and "Speed 4 (book: 10)" in finding.message
    h = report.members["H1"].horse
    assert (h.str, h.qui, h.sta, h.int, h.speed, h.xp) == (6, 6, 5, 3, 10, 80)


def test_a_war_horse_at_10_xp_can_be_over_the_limit():
    cheap = {**horse("War horse"), "xp": 10}
    roster = replace(legal_gang(limit=LEGAL_GANG_FAME + 10), henchman("H1", horse=cheap))
    assert_flags(evaluate(roster), "bwg1.fame_over_limit", ERROR, None)


@pytest.mark.parametrize("name", list(HORSES))
def test_the_book_horses_as_printed_are_fine(name):
    report = evaluate(replace(legal_gang(), henchman("H1", horse=horse(name))))
    assert_clear(report, "bwg1.horse_figures_differ")
    assert report.findings == []


@pytest.mark.parametrize(
    "name, xp", [("Cheval de guerre", 80), ("PETIT  cheval", 20), ("grand cheval", 40)]
)
def test_the_french_book_names_are_the_book_horses(name, xp):
    report = evaluate(replace(legal_gang(), henchman("H1", horse={**horse("Mule"), "name": name})))
    assert report.members["H1"].horse.xp == xp
    assert_flags(report, "bwg1.horse_figures_differ", WARNING, "H1")


def test_a_horse_of_another_name_keeps_its_figures():
    pony = {"name": "Pony", "str": 2, "qui": 5, "sta": 2, "int": 2, "speed": 9, "xp": 15}
    report = evaluate(replace(legal_gang(), henchman("H1", horse=pony)))
    assert_clear(report, "bwg1.horse_figures_differ")
    assert report.members["H1"].horse.speed == 9 and report.total == LEGAL_GANG_FAME + 15


def test_a_book_weapon_at_another_level_counts_the_books_level():
    cheap_knife = {**BOWIE_KNIFE, "level": 1}
    roster = replace(legal_gang(), henchman("H1", str=2, mc=2, weapons=[cheap_knife]))
    report = evaluate(roster)
    finding = assert_flags(report, "bwg1.weapon_level_differs", WARNING, "H1")
    assert "level 3 in the book, not 1" in finding.message
    assert report.members["H1"].xp == 50 + 3
    assert report.members["H1"].weapons[0].weapon.level == 3
    assert report.total == LEGAL_GANG_FAME + 3


@pytest.mark.parametrize(
    "name, level",
    [("Couteau Bowie", 3), ("remington army REVOLVER", 4), ("Repeater Winchester", 5)],
)
def test_book_weapon_names_are_matched_loosely(name, level):
    w = weapon(name, "ranged", 1)
    report = evaluate(replace(legal_gang(), henchman("H1", str=2, weapons=[w])))
    assert report.members["H1"].weapons[0].weapon.level == level
    assert_flags(report, "bwg1.weapon_level_differs", WARNING, "H1")


def test_the_book_weapons_at_their_levels_are_fine():
    report = evaluate(legal_gang())  # the Leader carries the three
    assert_clear(report, "bwg1.weapon_level_differs")
    assert report.members["L"].xp == 112


def test_a_weapon_of_another_name_keeps_its_level():
    report = evaluate(replace(legal_gang(), henchman("H1", str=2, weapons=[blade(1)])))
    assert_clear(report, "bwg1.weapon_level_differs")
    assert report.members["H1"].xp == 51


def test_a_book_figure_left_out_is_the_books_without_a_finding():
    knife = {k: v for k, v in BOWIE_KNIFE.items() if k != "level"}
    report = evaluate(replace(legal_gang(), henchman("H1", str=2, mc=2, weapons=[knife])))
    assert report.members["H1"].xp == 53
    assert_clear(report, "bwg1.weapon_level_differs")


def test_the_shipped_catalogue_has_the_books_figures():
    """fixtures/bwg1_content.json (loaded into the app) agrees with the book's content
    (rules/systems/bwg1/data/content.json)."""
    fixture = json.loads((ROOT / "fixtures" / "bwg1_content.json").read_text("utf-8"))
    book = {e["fields"]["name"]: e["fields"] for e in fixture if not e["fields"]["is_sample"]}
    assert {n: f["stats"]["level"] for n, f in book.items() if f["category"] == "weapon"} == {
        "Bowie knife": 3,
        "Remington Army revolver": 4,
        "Winchester Repeater": 5,
    }
    assert {n: f["stats"] for n, f in book.items() if f["category"] == "horse"} == HORSES
    for name, fields in book.items():
        roster = {"members": [{"key": "1", "type": "henchman", "points": {}}]}
        slot = "horse" if fields["category"] == "horse" else "weapons"
        entry = {"name": name, **fields["stats"]}
        roster["members"][0][slot] = entry if slot == "horse" else [entry]
        assert "bwg1.horse_figures_differ" not in evaluate(roster).codes()
        assert "bwg1.weapon_level_differs" not in evaluate(roster).codes()
    samples = [e["fields"]["name"] for e in fixture if e["fields"]["is_sample"]]
    assert not any(bwg1.item_key(n) in bwg1.BOOK_WEAPONS for n in samples)


def test_fame_over_the_limit_is_an_error():
    report = evaluate(legal_gang(limit=LEGAL_GANG_FAME - 1))
    finding = assert_flags(report, "bwg1.fame_over_limit", ERROR, None)
    assert str(LEGAL_GANG_FAME) in finding.message
    assert report.limit == LEGAL_GANG_FAME - 1


def test_fame_equal_to_the_limit_is_fine():
    report = evaluate(legal_gang(limit=LEGAL_GANG_FAME))
    assert_clear(report, "bwg1.fame_over_limit")
    assert report.is_legal


def test_a_horse_can_push_fame_over_the_limit():
    roster = replace(legal_gang(limit=LEGAL_GANG_FAME), henchman("H1", horse=horse("Mule")))
    assert_flags(evaluate(roster), "bwg1.fame_over_limit", ERROR, None)


def test_no_limit_means_no_fame_check():
    rich = [henchman(f"R{i}", horse=horse("War horse")) for i in range(10)]
    report = evaluate(with_extra(legal_gang(), *rich))
    assert report.total > 1000
    assert report.limit is None
    assert_clear(report, "bwg1.fame_over_limit")


# --------------------------------------------------------------------------- types & professions


@pytest.mark.parametrize("member_type", ["sheriff", "", "LEADERS"])
def test_unknown_member_type(member_type):
    report = evaluate(with_extra(legal_gang(), member("X", member_type)))
    assert_flags(report, "bwg1.unknown_type", ERROR, "X")


@pytest.mark.parametrize("member_type", ["leader", "professional", "henchman"])
def test_known_member_types(member_type):
    profession = "" if member_type == "henchman" else "doctor"
    report = evaluate(gang(member("X", member_type, profession)))
    assert_clear(report, "bwg1.unknown_type")


@pytest.mark.parametrize("member_type", ["leader", "professional"])
def test_leader_and_professionals_need_a_profession(member_type):
    report = evaluate(gang(member("X", member_type, "")))
    assert_flags(report, "bwg1.profession_missing", ERROR, "X")


def test_a_henchman_needs_no_profession():
    report = evaluate(legal_gang())
    assert_clear(report, "bwg1.profession_missing")
    assert_clear(report, "bwg1.henchman_profession")


@pytest.mark.parametrize("profession", list(PROFESSION_ATTRIBUTE))
def test_the_six_professions_are_known(profession):
    report = evaluate(gang(professional("P", profession), leader("L", profession)))
    assert_clear(report, "bwg1.unknown_profession")
    assert_clear(report, "bwg1.profession_missing")


@pytest.mark.parametrize("member_type", ["leader", "professional"])
def test_an_unknown_profession(member_type):
    report = evaluate(gang(member("X", member_type, "preacher")))
    assert_flags(report, "bwg1.unknown_profession", ERROR, "X")
    assert report.members["X"].bonus_attribute is None


def test_a_henchman_has_no_profession():
    report = evaluate(replace(legal_gang(), member("H1", "henchman", "doctor")))
    assert_flags(report, "bwg1.henchman_profession", ERROR, "H1")


# --------------------------------------------------------------------------- points


@pytest.mark.parametrize(
    "member_type, allowance", [("leader", 20), ("professional", 15), ("henchman", 10)]
)
def test_spending_the_whole_allowance(member_type, allowance):
    profession = "" if member_type == "henchman" else "doctor"
    m = member("X", member_type, profession)
    report = evaluate(gang(m))
    assert sum(m["points"].values()) == allowance
    assert report.members["X"].points_left == 0
    assert sum(report.members["X"].spent.values()) == allowance
    assert_clear(report, "bwg1.points_overspent")
    assert_clear(report, "bwg1.points_unspent")


@pytest.mark.parametrize(
    "member_type, allowance", [("leader", 20), ("professional", 15), ("henchman", 10)]
)
def test_overspending_is_an_error(member_type, allowance):
    profession = "" if member_type == "henchman" else "doctor"
    points = points_for(member_type)
    points["mc"] += 1  # every filled attribute is at most 4 points: still within 6
    m = member("X", member_type, profession, fill=False, **points)
    report = evaluate(gang(m))
    assert sum(points.values()) == allowance + 1
    assert report.members["X"].points_left == -1
    assert_flags(report, "bwg1.points_overspent", ERROR, "X")
    assert_clear(report, "bwg1.points_unspent")


@pytest.mark.parametrize(
    "member_type, allowance", [("leader", 20), ("professional", 15), ("henchman", 10)]
)
def test_unspent_points_are_a_warning(member_type, allowance):
    profession = "" if member_type == "henchman" else "doctor"
    points = points_for(member_type)
    points["str"] -= 1
    m = member("X", member_type, profession, fill=False, **points)
    report = evaluate(gang(m))
    assert sum(points.values()) == allowance - 1
    assert report.members["X"].points_left == 1
    assert_flags(report, "bwg1.points_unspent", WARNING, "X")
    assert_clear(report, "bwg1.points_overspent")


def test_unspent_points_alone_keep_the_gang_legal():
    roster = replace(legal_gang(), henchman("H1", fill=False, str=1, qui=1))
    report = evaluate(roster)
    assert_flags(report, "bwg1.points_unspent", WARNING, "H1")
    assert report.is_legal


def test_the_profession_bonus_is_on_top_of_the_allowance():
    """The first Doctor spends 15 points and still gets +1 Int for free."""
    report = evaluate(gang(professional("P", "doctor", int=4)))
    doctor = report.members["P"]
    assert doctor.points_left == 0
    assert doctor.attributes["int"] == 1 + 4 + 1
    assert sum(doctor.attributes.values()) == 6 + 15 + 1
    assert_clear(report, "bwg1.points_unspent")


# --------------------------------------------------------------------------- attribute range


@pytest.mark.parametrize("attribute", ATTRIBUTES)
def test_attributes_from_1_to_6_are_fine(attribute):
    low = henchman("LOW", fill=False, **{attribute: 0})
    high = henchman("HIGH", fill=False, **{attribute: 5})
    report = evaluate(gang(low, high))
    assert report.members["LOW"].attributes[attribute] == 1
    assert report.members["HIGH"].attributes[attribute] == 6
    assert_clear(report, "bwg1.attribute_above_max")
    assert_clear(report, "bwg1.attribute_below_min")


@pytest.mark.parametrize("attribute", ATTRIBUTES)
def test_an_attribute_above_6_is_an_error(attribute):
    report = evaluate(gang(leader("X", "doctor", **{attribute: 6})))
    assert report.members["X"].attributes[attribute] == 7 + (attribute == "int")
    assert_flags(report, "bwg1.attribute_above_max", ERROR, "X")


@pytest.mark.parametrize("attribute", ATTRIBUTES)
def test_an_attribute_below_1_is_an_error(attribute):
    report = evaluate(gang(henchman("X", fill=False, **{attribute: -1})))
    assert report.members["X"].attributes[attribute] == 0
    assert_flags(report, "bwg1.attribute_below_min", ERROR, "X")


def test_a_profession_bonus_past_6_is_an_error_not_capped():
    report = evaluate(gang(professional("P", "doctor", int=5)))
    assert report.members["P"].attributes["int"] == 7  # not silently capped at 6
    assert_flags(report, "bwg1.profession_bonus_above_max", ERROR, "P")
    assert_clear(report, "bwg1.attribute_above_max")


def test_a_profession_bonus_reaching_exactly_6_is_fine():
    report = evaluate(gang(professional("P", "doctor", int=4)))
    assert report.members["P"].attributes["int"] == 6
    assert_clear(report, "bwg1.profession_bonus_above_max")


def test_only_the_first_of_a_profession_can_overflow():
    """The second Doctor gets no +1, so 5 points in Int is Int 6: legal."""
    first = professional("P1", "doctor", int=4)
    second = professional("P2", "doctor", int=5)
    report = evaluate(gang(first, second))
    assert report.members["P2"].attributes["int"] == 6
    assert report.findings_for("P2") == []
    assert_clear(report, "bwg1.profession_bonus_above_max")


@pytest.mark.parametrize("profession, attribute", list(PROFESSION_ATTRIBUTE.items()))
def test_every_profession_bonus_can_overflow(profession, attribute):
    report = evaluate(gang(professional("P", profession, **{attribute: 5})))
    assert report.members["P"].attributes[attribute] == 7
    assert_flags(report, "bwg1.profession_bonus_above_max", ERROR, "P")


# --------------------------------------------------------------------------- first of profession


@pytest.mark.parametrize("profession, attribute", list(PROFESSION_ATTRIBUTE.items()))
def test_the_first_of_each_profession_gets_its_bonus(profession, attribute):
    report = evaluate(gang(professional("P", profession, fill=False)))
    p = report.members["P"]
    assert p.bonus_attribute == attribute
    assert p.attributes == {a: 2 if a == attribute else 1 for a in ATTRIBUTES}


def test_the_second_of_a_profession_gets_no_bonus():
    report = evaluate(gang(professional("P1", "wrassler"), professional("P2", "wrassler")))
    assert report.members["P1"].bonus_attribute == "mc"
    assert report.members["P2"].bonus_attribute is None
    assert report.members["P1"].attributes["mc"] == report.members["P2"].attributes["mc"] + 1


def test_reordering_moves_the_bonus():
    first = professional("P1", "prospector")
    second = professional("P2", "prospector")
    report = evaluate(gang(second, first))
    assert report.members["P2"].bonus_attribute == "sta"
    assert report.members["P1"].bonus_attribute is None


def test_the_leader_takes_the_bonus_when_listed_first():
    report = evaluate(gang(leader("L", "gunslinger"), professional("P", "gunslinger")))
    assert report.members["L"].bonus_attribute == "rc"
    assert report.members["P"].bonus_attribute is None


# Seed 002, p. 12 (Recruter, "Le chef"): "Le premier membre de votre gang à recruter sera
# votre chef de Gang." The Leader is the first recruit, so the first of his profession,
# wherever the roster lists him (issue 15, item 1).


def test_the_leader_takes_the_bonus_even_when_listed_after_a_professional():
    roster = gang(professional("P", "gunslinger", rc=3), leader("L", "gunslinger", rc=3))
    report = evaluate(roster)
    assert report.members["L"].bonus_attribute == "rc"
    assert report.members["P"].bonus_attribute is None
    assert (report.members["L"].attributes["rc"], report.members["P"].attributes["rc"]) == (5, 4)
    bonuses = [(b["profession"].id, b["member"].key) for b in report.gang["profession_bonuses"]]
    assert bonuses == [("gunslinger", "L")]


def test_a_professional_before_the_leader_keeps_a_bonus_of_another_profession():
    report = evaluate(
        gang(
            professional("P1", "gunslinger"),
            professional("P2", "doctor"),
            leader("L", "doctor"),
            professional("P3", "gunslinger"),
        )
    )
    assert report.members["L"].bonus_attribute == "int"
    assert report.members["P2"].bonus_attribute is None
    assert report.members["P1"].bonus_attribute == "rc"  # the first Gunslinger recruited
    assert report.members["P3"].bonus_attribute is None


def test_the_order_of_the_leader_changes_nothing():
    first = evaluate(legal_gang())
    members = legal_gang()["members"]
    last = evaluate({**legal_gang(), "members": [*members[1:], members[0]]})
    for key, m in first.members.items():
        assert last.members[key].attributes == m.attributes
        assert last.members[key].bonus_attribute == m.bonus_attribute
    assert first.findings == last.findings == []


def test_a_professionals_bonus_overflow_moves_to_the_leader_listed_after_him():
    """The Leader's +1 RC taking him to 7 is the error, not the Professional's RC 6."""
    roster = gang(professional("P", "gunslinger", rc=5), leader("L", "gunslinger", rc=5))
    report = evaluate(roster)
    assert_flags(report, "bwg1.profession_bonus_above_max", ERROR, "L")
    assert report.members["P"].attributes["rc"] == 6


def test_only_the_first_leader_takes_the_bonus_before_the_list_order():
    report = evaluate(
        gang(
            professional("P", "wrassler"),
            leader("L1", "gambler"),
            leader("L2", "wrassler"),
        )
    )
    assert report.members["L1"].bonus_attribute == "qui"
    assert report.members["P"].bonus_attribute == "mc"  # L2 is an extra Leader, in order
    assert report.members["L2"].bonus_attribute is None


def test_a_henchman_never_takes_the_bonus():
    """Even an (illegal) Henchman 'Doctor' listed first leaves the bonus to the real one."""
    report = evaluate(
        gang(henchman("H0"), member("H1", "henchman", "doctor"), professional("P", "doctor"))
    )
    assert report.members["H0"].bonus_attribute is None
    assert report.members["H1"].bonus_attribute is None
    assert report.members["H1"].attributes == {a: 1 + n for a, n in points_for("henchman").items()}
    assert report.members["P"].bonus_attribute == "int"


def test_different_professions_each_give_one_bonus():
    report = evaluate(legal_gang())
    bonuses = {b["profession"].id: b["member"].key for b in report.gang["profession_bonuses"]}
    assert bonuses == {"gunslinger": "L", "doctor": "P1", "bounty_hunter": "P2"}
    assert report.members["H1"].bonus_attribute is None


# --------------------------------------------------------------------------- skills


SKILL_CASES = [
    (attribute, value, expected)
    for attribute, (at_4, at_6) in SKILLS.items()
    for value, expected in [
        (3, set()),
        (4, {at_4}),
        (5, {at_4}),
        (6, {at_4, at_6}),
    ]
]


@pytest.mark.parametrize("attribute, value, expected", SKILL_CASES)
def test_skills_come_at_4_and_6(attribute, value, expected):
    m = henchman("H", fill=False, **{attribute: value - 1})
    report = member_report(gang(m), "H")
    assert report.attributes[attribute] == value
    assert {s.name for s in report.skills} == expected


def test_all_twelve_skill_names():
    maxed = henchman("H", fill=False, **dict.fromkeys(ATTRIBUTES, 5))
    names = [s.name for s in member_report(gang(maxed), "H").skills]
    assert sorted(names) == sorted(name for pair in SKILLS.values() for name in pair)
    assert len(names) == 12


@pytest.mark.parametrize("member_type", ["leader", "professional", "henchman"])
def test_stamina_6_is_really_tough_plus_1_hp(member_type):
    profession = "" if member_type == "henchman" else "doctor"
    tough = member_report(gang(member("X", member_type, profession, sta=5)), "X")
    not_yet = member_report(gang(member("X", member_type, profession, sta=4)), "X")
    assert tough.hp == BASE_HP[member_type] + 1
    assert not_yet.hp == BASE_HP[member_type]


@pytest.mark.parametrize("member_type", ["leader", "professional", "henchman"])
def test_intellect_6_is_duck_and_cover_plus_1_dp(member_type):
    profession = "" if member_type == "henchman" else "wrassler"
    covered = member_report(gang(member("X", member_type, profession, int=5)), "X")
    not_yet = member_report(gang(member("X", member_type, profession, int=4)), "X")
    assert covered.dp == BASE_DP[member_type] + 1
    assert not_yet.dp == BASE_DP[member_type]


def test_a_profession_bonus_can_reach_a_skill():
    """The first Prospector with 4 points in Sta has Sta 6: Really Tough, 3 HP."""
    report = evaluate(
        gang(professional("P1", "prospector", sta=4), professional("P2", "prospector", sta=4))
    )
    first, second = report.members["P1"], report.members["P2"]
    assert first.attributes["sta"] == 6
    assert "Really Tough" in {s.name for s in first.skills}
    assert first.hp == 3
    assert second.attributes["sta"] == 5
    assert second.hp == 2


# --------------------------------------------------------------------------- campaign advances


def legal_leader(**kwargs: Any) -> dict[str, Any]:
    """The legal gang's Leader (all 20 points spent), with ``kwargs`` on top."""
    return leader("L", "gunslinger", str=3, rc=3, mc=2, weapons=BOOK_WEAPONS, **kwargs)


def test_an_advance_adds_to_the_attribute_without_using_the_allowance():
    """The legal gang's Leader spends all 20 points (RC 5 with the Gunslinger's +1); a
    campaign advance of +1 RC takes it to 6, on top of the allowance."""
    roster = replace(legal_gang(), legal_leader(advances={"rc": 1}))
    report = evaluate(roster)
    assert report.findings == []
    chief = report.members["L"]
    assert chief.points_spent == ALLOWANCE["leader"] == 20
    assert chief.attributes["rc"] == 1 + 3 + 1 + 1 == 6
    assert {"Quickdraw", "Deadeye"} <= {s.name for s in chief.skills}
    assert ("RC", "6") in chief.stats
    assert chief.xp == 112  # advances are not XP: Fame is unchanged
    assert report.total == LEGAL_GANG_FAME
    assert_clear(report, "bwg1.points_overspent")
    assert_clear(report, "bwg1.points_unspent")
    assert_clear(report, "bwg1.attribute_above_max")


def test_an_attribute_reaching_4_through_an_advance_gives_the_skill():
    before = member_report(gang(henchman("H", fill=False, str=2)), "H")
    after = member_report(gang(henchman("H", fill=False, str=2, advances={"str": 1})), "H")
    assert before.attributes["str"] == 3 and "Brute Strength" not in {s.name for s in before.skills}
    assert after.attributes["str"] == 4 and "Brute Strength" in {s.name for s in after.skills}


def test_an_injury_can_take_a_skill_away():
    tough = henchman("H", fill=False, sta=5, advances={"sta": -1})
    report = member_report(gang(tough), "H")
    assert report.attributes["sta"] == 5
    assert "Really Tough" not in {s.name for s in report.skills}
    assert report.hp == BASE_HP["henchman"]


def test_an_advance_pushing_an_attribute_to_7_is_an_error():
    roster = replace(legal_gang(), legal_leader(advances={"rc": 2}))
    report = evaluate(roster)
    assert report.members["L"].attributes["rc"] == 7
    finding = assert_flags(report, "bwg1.attribute_above_max", ERROR, "L")
    assert "advance" in finding.message and "+0" not in finding.message
    assert "RC" in finding.message and "+1" in finding.message  # lower the advance to +1
    assert_clear(report, "bwg1.profession_bonus_above_max")
    assert_clear(report, "bwg1.points_overspent")


def test_an_injury_pushing_an_attribute_to_0_is_an_error():
    report = evaluate(gang(henchman("H", fill=False, str=0, advances={"str": -1})))
    assert report.members["H"].attributes["str"] == 0
    finding = assert_flags(report, "bwg1.attribute_below_min", ERROR, "H")
    assert "injury" in finding.message and "Str" in finding.message
    assert "+0" in finding.message  # set the advance back to +0


def test_an_injury_down_to_1_is_fine():
    report = evaluate(gang(henchman("H", fill=False, str=1, advances={"str": -1})))
    assert report.members["H"].attributes["str"] == 1
    assert_clear(report, "bwg1.attribute_below_min")


def test_an_injury_can_bring_an_overspent_attribute_back_to_6():
    """The checks are on the final value: 6 points + the first Doctor's +1 - 1 is Int 7 - 1."""
    report = evaluate(gang(professional("P", "doctor", fill=False, int=5, advances={"int": -1})))
    assert report.members["P"].attributes["int"] == 6
    assert_clear(report, "bwg1.profession_bonus_above_max")
    assert_clear(report, "bwg1.attribute_above_max")


def test_the_notes_list_the_campaign_advances_gains_first():
    chief = member_report(
        gang(leader("L", "gunslinger", str=3, rc=3, mc=2, advances={"str": -1, "rc": 1})), "L"
    )
    assert "Campaign advances: +1 RC, \u22121 Str" in chief.notes
    assert chief.attributes["str"] == 3 and chief.attributes["rc"] == 6
    rows = {r["id"]: r for r in chief.rows()}
    assert (rows["rc"]["advance"], rows["str"]["advance"], rows["qui"]["advance"]) == (1, -1, 0)


def test_no_advances_no_note():
    chief = member_report(legal_gang(), "L")
    assert chief.advances == {}
    assert not any("advance" in note.lower() for note in chief.notes)


def test_zero_and_garbage_advances_change_nothing():
    base = member_report(legal_gang(), "L").attributes
    for advances in ({"rc": 0}, {"rc": "x", "luck": 3}, "rc+1", [1]):
        roster = replace(legal_gang(), {**legal_gang()["members"][0], "advances": advances})
        assert member_report(roster, "L").attributes == base, advances


def test_the_schema_takes_advances_and_rejects_wrong_types():
    from jsonschema import Draft202012Validator

    validator = Draft202012Validator(get_system("bwg1").member_schema)
    data = {k: v for k, v in leader().items() if k not in ("key", "name")}
    assert not list(validator.iter_errors({**data, "advances": {"rc": 1, "str": -2}}))
    assert not list(validator.iter_errors({**data, "advances": {}}))
    for bad in ({"rc": "1"}, {"rc": 1.5}, {"luck": 1}, [1], "rc"):
        assert list(validator.iter_errors({**data, "advances": bad})), bad


# --------------------------------------------------------------------------- carrying weapons


def test_str_weapons_is_the_most_a_member_carries():
    report = evaluate(gang(henchman("H", fill=False, str=1, weapons=[gun(1), blade(1)])))
    assert report.members["H"].attributes["str"] == 2
    assert_clear(report, "bwg1.weapons_over_strength")


def test_one_weapon_more_than_str_is_an_error():
    report = evaluate(gang(henchman("H", fill=False, str=1, weapons=[gun(1), blade(1), blade(1)])))
    assert_flags(report, "bwg1.weapons_over_strength", ERROR, "H")


def test_the_bounty_hunter_str_bonus_lets_the_first_carry_more():
    weapons = [gun(1), blade(1), blade(1)]
    first = professional("P1", "bounty_hunter", str=1, weapons=weapons)
    second = professional("P2", "bounty_hunter", str=1, weapons=weapons)
    report = evaluate(gang(first, second))
    assert report.members["P1"].attributes["str"] == 3
    assert report.findings_for("P1") == []
    assert_flags(report, "bwg1.weapons_over_strength", ERROR, "P2")


# --------------------------------------------------------------------------- weapon level


def shooter(key: str, rc: int, level: int, profession: str = "doctor", **points: int):
    """A Professional with RC ``rc`` (a Doctor's bonus goes to Int, not RC) and one gun."""
    spent = {"str": 2, "qui": 2, "rc": rc - 1, **points}
    return professional(key, profession, weapons=[gun(level)], **spent)


def the_weapon(report: Report, key: str):
    (weapon_report,) = report.members[key].weapons
    return weapon_report


@pytest.mark.parametrize(
    "rc, level, penalty, target",
    [
        (3, 1, 0, 4),
        (3, 3, 0, 4),
        (3, 4, 1, 5),
        (3, 5, 2, 6),
        (2, 5, 3, 6),  # the book (p. 35): RC 2 with a level-5 gun is +3; target max 6
        (1, 6, 5, 6),
    ],
)
def test_weapon_above_rc_penalty(rc, level, penalty, target):
    report = evaluate(gang(shooter("P", rc, level)))
    assert report.members["P"].attributes["rc"] == rc
    assert the_weapon(report, "P").penalty == penalty
    assert the_weapon(report, "P").target == target
    if penalty:
        assert_flags(report, "bwg1.weapon_above_skill", WARNING, "P")
    else:
        assert_clear(report, "bwg1.weapon_above_skill")


@pytest.mark.parametrize("level, penalty, target", [(3, 0, 4), (4, 0, 4), (5, 1, 5), (6, 2, 6)])
def test_book_bounty_hunter_has_one_level_of_grace(level, penalty, target):
    """Seed 002 p. 13: RC 3 uses a level-4 gun without penalty, level 5 is +1, level 6 +2."""
    report = evaluate(gang(shooter("BH", 3, level, "bounty_hunter")))
    assert report.members["BH"].attributes["rc"] == 3
    assert the_weapon(report, "BH").penalty == penalty
    assert the_weapon(report, "BH").target == target
    if penalty:
        finding = assert_flags(report, "bwg1.weapon_above_skill", WARNING, "BH")
        assert f"+{penalty}" in finding.message
    else:
        assert_clear(report, "bwg1.weapon_above_skill")


def test_every_bounty_hunter_has_the_grace_not_only_the_first():
    report = evaluate(
        gang(shooter("BH1", 3, 4, "bounty_hunter"), shooter("BH2", 3, 4, "bounty_hunter"))
    )
    assert report.members["BH2"].bonus_attribute is None
    assert the_weapon(report, "BH2").penalty == 0
    assert_clear(report, "bwg1.weapon_above_skill")


def test_a_bounty_hunter_leader_has_the_grace_too():
    report = evaluate(gang(leader("L", "bounty_hunter", rc=2, weapons=[gun(4)])))
    assert the_weapon(report, "L").penalty == 0
    assert_clear(report, "bwg1.weapon_above_skill")


def test_henchmen_have_no_grace():
    report = evaluate(gang(henchman("H", rc=2, weapons=[gun(4)])))
    assert the_weapon(report, "H").penalty == 1
    assert_flags(report, "bwg1.weapon_above_skill", WARNING, "H")


def test_melee_weapons_use_mc():
    m = professional("P", "doctor", str=2, rc=5, mc=2, weapons=[blade(4)])
    report = evaluate(gang(m))
    assert report.members["P"].attributes["mc"] == 3
    assert the_weapon(report, "P").penalty == 1
    assert_flags(report, "bwg1.weapon_above_skill", WARNING, "P")


def test_ranged_weapons_use_rc():
    m = professional("P", "doctor", str=2, rc=2, mc=5, weapons=[gun(4)])
    report = evaluate(gang(m))
    assert the_weapon(report, "P").penalty == 1
    assert_flags(report, "bwg1.weapon_above_skill", WARNING, "P")


def test_a_melee_weapon_at_mc_has_no_penalty():
    m = professional("P", "doctor", str=2, rc=0, mc=3, weapons=[blade(4)])
    report = evaluate(gang(m))
    assert the_weapon(report, "P").penalty == 0
    assert_clear(report, "bwg1.weapon_above_skill")


def test_knowhow_removes_the_penalty():
    report = evaluate(gang(shooter("P", 1, 6, qui=5)))  # Qui 6: Knowhow
    assert report.members["P"].attributes["qui"] == 6
    assert the_weapon(report, "P").penalty == 0
    assert the_weapon(report, "P").target == 4
    assert_clear(report, "bwg1.weapon_above_skill")


def test_qui_5_is_no_knowhow():
    report = evaluate(gang(shooter("P", 1, 6, qui=4)))
    assert report.members["P"].attributes["qui"] == 5
    assert the_weapon(report, "P").penalty == 5
    assert_flags(report, "bwg1.weapon_above_skill", WARNING, "P")


def test_the_first_gamblers_qui_bonus_gives_knowhow():
    first = professional("G1", "gambler", str=2, qui=4, rc=0, weapons=[gun(6)])
    second = professional("G2", "gambler", str=2, qui=4, rc=0, weapons=[gun(6)])
    report = evaluate(gang(first, second))
    assert report.members["G1"].attributes["qui"] == 6
    assert the_weapon(report, "G1").penalty == 0
    assert the_weapon(report, "G2").penalty == 5
    assert_flags(report, "bwg1.weapon_above_skill", WARNING, "G2")


def test_the_warning_states_the_penalty():
    report = evaluate(gang(shooter("P", 3, 5)))
    finding = assert_flags(report, "bwg1.weapon_above_skill", WARNING, "P")
    assert "Level 5 rifle" in finding.message
    assert "+2" in finding.message
    assert "6+" in finding.message


def test_a_weapon_above_skill_is_only_a_warning():
    roster = replace(legal_gang(), henchman("H1", str=2, rc=1, weapons=[gun(5)]))
    report = evaluate(roster)
    assert_flags(report, "bwg1.weapon_above_skill", WARNING, "H1")
    assert report.is_legal


def test_each_weapon_above_skill_is_its_own_warning():
    m = professional("P", "doctor", str=3, rc=2, mc=2, weapons=[gun(5), blade(5), gun(3)])
    report = evaluate(gang(m))
    penalties = [w.penalty for w in report.members["P"].weapons]
    assert penalties == [2, 2, 0]
    assert report.codes().count("bwg1.weapon_above_skill") == 2


# --------------------------------------------------------------------------- thrown weapons


def test_two_thrown_weapons_is_a_warning():
    m = henchman("H", str=3, rc=2, weapons=[throwing("Tomahawk"), throwing("Dynamite")])
    report = evaluate(gang(m))
    assert_flags(report, "bwg1.thrown_in_each_hand", WARNING, "H")


def test_one_thrown_weapon_and_a_pistol_is_fine():
    pistol = weapon("Colt", "ranged", 2, traits=("pistol",))
    m = henchman("H", str=3, rc=2, weapons=[throwing("Tomahawk"), pistol])
    report = evaluate(gang(m))
    assert_clear(report, "bwg1.thrown_in_each_hand")
    assert report.findings_for("H") == []


# --------------------------------------------------------------------------- names


@pytest.mark.parametrize("name", ["", "   "])
def test_an_unnamed_member_is_a_warning(name):
    report = evaluate(replace(legal_gang(), henchman("H2", name=name)))
    assert_flags(report, "bwg1.member_unnamed", WARNING, "H2")
    assert report.is_legal


def test_named_members_are_fine():
    report = evaluate(legal_gang())
    assert_clear(report, "bwg1.member_unnamed")
    assert report.members["H2"].name == "Member H2"


# Seed 002, p. 12 (Nom, renommée & taille de gang): "n'oubliez pas de donner à chacun un
# nom. Non seulement vos membres doivent être quelqu'un, mais votre gang doit également avoir
# un nom !" (issue 15, item 5). A warning, like an unnamed member.


@pytest.mark.parametrize("name", ["", "   ", None, 7])
def test_an_unnamed_gang_is_a_warning(name):
    report = evaluate({**legal_gang(), "name": name})
    finding = assert_flags(report, "bwg1.gang_unnamed", WARNING, None)
    assert "name" in finding.message
    assert report.is_legal
    assert finding in report.gang_findings


def test_a_gang_without_a_name_field_is_unnamed():
    roster = {k: v for k, v in legal_gang().items() if k != "name"}
    assert_flags(evaluate(roster), "bwg1.gang_unnamed", WARNING, None)


def test_a_named_gang_is_fine():
    report = evaluate(legal_gang())
    assert_clear(report, "bwg1.gang_unnamed")


# --------------------------------------------------------------------------- Leader's Luck


@pytest.mark.parametrize("profession", [p for p in PROFESSION_ATTRIBUTE if p != "gambler"])
def test_leaders_luck_is_3_dice(profession):
    report = evaluate(gang(leader("L", profession)))
    assert report.gang["leaders_luck_dice"] == 3


def test_a_gambler_leader_has_4_dice_of_luck():
    report = evaluate(gang(leader("L", "gambler")))
    assert report.gang["leaders_luck_dice"] == 4


def test_a_gambler_professional_does_not_change_leaders_luck():
    report = evaluate(gang(leader("L", "doctor"), professional("G", "gambler")))
    assert report.gang["leaders_luck_dice"] == 3


def test_a_gambler_leader_listed_after_a_gambler_still_has_4_dice():
    report = evaluate(gang(professional("G", "gambler"), leader("L", "gambler")))
    assert report.members["L"].bonus_attribute == "qui"  # the Leader is the first recruit
    assert report.members["G"].bonus_attribute is None
    assert report.gang["leaders_luck_dice"] == 4


# --------------------------------------------------------------------------- robustness


GARBAGE_ROSTERS = {
    "none": None,
    "a list": [],
    "a string": "gang",
    "empty dict": {},
    "members is a string": {"members": "Bill, Joe"},
    "members is a dict": {"members": {"1": {"type": "leader"}}},
    "members is None": {"members": None},
    "members are not dicts": {"members": ["Bill", 5, None, [], 3.5]},
    "empty member": {"members": [{}]},
    "points not integers": {
        "members": [
            {
                "key": "1",
                "type": "leader",
                "points": {"str": "abc", "qui": 1.5, "sta": None, "int": [], "rc": {}, "mc": True},
            }
        ]
    },
    "points is a list": {"members": [{"key": "1", "type": "leader", "points": [1, 2, 3]}]},
    "points is a string": {"members": [{"key": "1", "type": "leader", "points": "str=6"}]},
    "huge points": {"members": [{"key": "1", "type": "henchman", "points": {"str": 10**30}}]},
    "type and profession not strings": {
        "members": [{"key": 7, "type": ["leader"], "profession": 3, "name": {"a": 1}}]
    },
    "weapons is a string": {"members": [{"type": "leader", "weapons": "Bowie knife"}]},
    "weapons are not dicts": {"members": [{"type": "leader", "weapons": ["knife", None, 3]}]},
    "weapon fields garbage": {
        "members": [
            {
                "type": "leader",
                "weapons": [{"name": 5, "kind": 3, "level": "high", "hands": "two"}],
            }
        ]
    },
    "horse is a string": {"members": [{"type": "leader", "horse": "Mule"}]},
    "horse fields garbage": {"members": [{"type": "leader", "horse": {"xp": "lots", "str": []}}]},
    "limit not a number": {"limit": "four hundred", "members": []},
    "limit is a list": {"limit": [400], "members": []},
}


def assert_sane(report: Report) -> None:
    assert isinstance(report, Report)
    assert isinstance(report.total, int)
    assert all(f.code in bwg1.RULE_CODES for f in report.findings)
    for m in report.members.values():
        assert set(m.attributes) == set(ATTRIBUTES)
        assert all(isinstance(v, int) for v in m.attributes.values())


@pytest.mark.parametrize("roster", GARBAGE_ROSTERS.values(), ids=GARBAGE_ROSTERS.keys())
def test_garbage_never_raises(roster):
    assert_sane(evaluate(roster))


@pytest.mark.parametrize("roster", [None, {}, {"members": "Bill"}, {"members": None}])
def test_garbage_without_members_is_an_empty_gang(roster):
    report = evaluate(roster)
    assert report.members == {}
    assert report.total == 0
    assert_flags(report, "bwg1.too_few_members", ERROR, None)
    assert_flags(report, "bwg1.no_leader", ERROR, None)


def test_a_member_that_is_a_string_is_an_unknown_member():
    report = evaluate({"members": ["Bill"]})
    assert list(report.members) == ["#1"]
    assert_flags(report, "bwg1.unknown_type", ERROR, "#1")
    assert report.total == 0


def test_non_integer_points_count_as_nothing_spent():
    roster = GARBAGE_ROSTERS["points not integers"]
    report = evaluate(roster)
    assert report.members["1"].attributes == dict.fromkeys(ATTRIBUTES, 1)
    assert_flags(report, "bwg1.points_unspent", WARNING, "1")


@pytest.mark.parametrize(
    "traits",
    [5, None, "pistol", [1, None], [["pistol"]], {"pistol": True}],
    ids=["int", "none", "string", "non-strings", "nested list", "dict"],
)
def test_garbage_weapon_traits_never_raise(traits):
    for kind in ("ranged", "melee", "sword"):
        roster = {
            "members": [
                {"type": "leader", "weapons": [{"kind": kind, "level": 3, "traits": traits}]}
            ]
        }
        report = evaluate(roster)
        assert_sane(report)
        assert report.total == 103


def test_a_fallback_key_never_collides_with_a_real_key():
    """The second "a" falls back to its position, "#2", which the third member has taken."""
    roster = gang(
        leader("a"), henchman("a"), henchman("#2"), henchman("H3"), professional("P", "doctor")
    )
    report = get_system("bwg1").evaluate(roster)
    assert len(report.members) == 5
    assert list(report.members) == ["a", "#2-2", "#2", "H3", "P"]
    assert report.total == sum(m.cost for m in report.members.values())
