"""Encounter pages and a campaign gang's page (campaigns/encounter_views/): a whole
Rivals encounter through the views, refusals beside their field, who may do what, undo,
htmx fragments and pinned query counts."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from types import SimpleNamespace

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from builder.services import import_gang
from campaigns import services
from campaigns.encounter_views import base as ev
from campaigns.models import CampaignEvent
from rules.roster import read_roster

HX = {"HTTP_HX_REQUEST": "true"}
EXAMPLES = Path(__file__).resolve().parent.parent / "docs" / "examples"
RED_JACK = "rivals-legal-red-jacks-gang.json"
SIX = "rivals-legal-six-outlaws.json"


class Scripted(random.Random):
    """Dice that roll what the test says, in order (then seeded ones)."""

    def __init__(self, *rolls: int):
        super().__init__(0)
        self.rolls = list(rolls)

    def randint(self, a: int, b: int) -> int:
        if not self.rolls:
            return super().randint(a, b)
        value = self.rolls.pop(0)
        assert a <= value <= b, (value, a, b)
        return value


@pytest.fixture
def dice(monkeypatch):
    """``dice(2, 5)``: the views' next rolls."""

    def set_rolls(*rolls: int) -> Scripted:
        rng = Scripted(*rolls)
        monkeypatch.setattr(ev, "RNG", rng)
        return rng

    return set_rolls


def roster(name: str, size: int | None = None) -> dict:
    data = read_roster((EXAMPLES / name).read_bytes())
    if size is not None:
        data["members"] = data["members"][:size]
    return data


def login(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def world(db):
    """A running Rivals campaign: Alice's Red Jack's Gang (5 outlaws), Bob's O'Neil Gang
    (6), Carol's third gang; Olive organises; Sam is a stranger."""
    names = ("olive", "alice", "bob", "carol", "sam")
    users = {n: User.objects.create_user(n, password="x-long-enough-1") for n in names}
    campaign = services.create_campaign(
        users["olive"], system="rivals", name="Deadrock", encounters=5, house_rules={}
    )
    a = services.join_campaign(
        campaign, users["alice"], import_gang(users["alice"], roster(RED_JACK))
    )
    b = services.join_campaign(campaign, users["bob"], import_gang(users["bob"], roster(SIX)))
    c = services.join_campaign(
        campaign, users["carol"], import_gang(users["carol"], roster(RED_JACK))
    )
    services.record(campaign, users["olive"], "campaign_started", {})
    clients = {n: login(u) for n, u in users.items()}
    clients["anon"] = Client()
    return SimpleNamespace(
        campaign=campaign, users=users, clients=clients, a=str(a.pk), b=str(b.pk), c=str(c.pk)
    )


def state(world):
    return services.state_of(world.campaign)


def events(world) -> int:
    return CampaignEvent.objects.filter(campaign=world.campaign).count()


def url(name: str, world, *args) -> str:
    return reverse(name, args=[world.campaign.pk, *args])


def begin(world, dice, who: str = "alice", roll: int = 2) -> int:
    dice(roll)
    response = world.clients[who].post(
        url("encounter_begin", world), {"gang": world.a, "against": world.b}
    )
    assert response.status_code == 302, response.content[:500]
    return state(world).last_encounter.id


def lines_data(lines: list[dict], total: int = 6, **extra) -> dict:
    data = {
        "lines-TOTAL_FORMS": str(total),
        "lines-INITIAL_FORMS": "0",
        "lines-MIN_NUM_FORMS": "0",
        "lines-MAX_NUM_FORMS": "200",
    }
    for i, line in enumerate(lines):
        for key, value in line.items():
            data[f"lines-{i}-{key}"] = value
    data.update(extra)
    return data


def fight(world) -> list[dict]:
    """Red Jack wounds Jack O'Neil (2 actions), Sarah kills Mark (4 wounds) and takes $3
    and his carbine."""
    a, b = world.a, world.b
    return [
        {"kind": "wound", "by": f"{a}/1", "to": f"{b}/1", "amount": "2"},
        {"kind": "kill", "by": f"{a}/2", "to": f"{b}/2", "amount": "4"},
        {
            "kind": "loot",
            "by": f"{a}/2",
            "to": f"{b}/2",
            "cash": "3",
            "items": "Winchester Carbine",
        },
    ]


def record(world, enc_id: int, who: str = "alice", lines=None, winner=None):
    data = lines_data(fight(world) if lines is None else lines, winner=winner or world.a)
    return world.clients[who].post(url("encounter_record", world, enc_id), data)


def step(world, enc_id: int, who: str, name: str, data: dict, **extra):
    return world.clients[who].post(url("encounter_step", world, enc_id, name), data, **extra)


def settled_encounter(world, dice, death_roll: int = 1) -> int:
    """Begin, record (Alice), confirm (Bob), roll Mark's death: the encounter is awarded."""
    enc = begin(world, dice)
    assert record(world, enc).status_code == 302
    assert step(world, enc, "bob", "confirm", {"gang": world.b}).status_code == 302
    dice(death_roll)
    assert step(world, enc, "bob", "death", {"member": f"{world.b}/2"}).status_code == 302
    assert state(world).encounter(enc).awarded
    return enc


def text(response) -> str:
    return re.sub(r"\s+", " ", response.content.decode())


# --------------------------------------------------------------------------- the whole thing


def test_a_whole_rivals_encounter_through_the_views(world, dice):
    alice, bob = world.clients["alice"], world.clients["bob"]
    a, b = world.a, world.b

    # Begin: the location is rolled and shown big and clear.
    page = alice.get(url("encounter_begin", world))
    assert page.status_code == 200
    assert "Roll the location and begin" in text(page)
    enc = begin(world, dice, roll=5)
    detail = alice.get(url("encounter_detail", world, enc))
    assert detail.status_code == 200
    assert 'data-testid="location-roll">5<' in detail.content.decode()
    assert "Deadrock - edge of town" in text(detail)
    assert "Uses four of the six centre-of-town boards" in text(detail)

    # Record: six empty lines to start with.
    form = alice.get(url("encounter_record", world, enc))
    assert form.status_code == 200
    assert text(form).count('data-testid="line"') == 6
    assert record(world, enc).status_code == 302
    s = state(world)
    e = s.encounter(enc)
    assert e.status == "provisional" and e.confirmed == {a}
    detail = text(alice.get(url("encounter_detail", world, enc)))
    assert "Red Jack wounded Jack O&#x27;Neil (2 actions lost)." in detail
    assert "Sarah killed Mark (toughness: 4 actions)." in detail
    assert "Sarah took $3, Winchester Carbine from Mark." in detail
    assert "provisional until confirmed" in detail
    assert 'data-testid="confirm"' not in detail  # Alice's gang has confirmed already

    # Bob confirms; Mark needs a death roll, which Bob makes (1: dead).
    assert 'data-testid="confirm"' in text(bob.get(url("encounter_detail", world, enc)))
    assert step(world, enc, "bob", "confirm", {"gang": b}).status_code == 302
    detail = text(bob.get(url("encounter_detail", world, enc)))
    assert "Roll for Mark" in detail
    dice(1)
    assert step(world, enc, "bob", "death", {"member": f"{b}/2"}).status_code == 302
    s = state(world)
    e = s.encounter(enc)
    assert e.awarded and e.deaths[f"{b}/2"]["result"] == "dead"
    sarah = s.member(f"{a}/2")
    # Sarah: the kill (4 wounds + Loafer's 1) and the win (+2): 7, so 1 CCP; $12 + $3.
    assert (sarah.score, sarah.earned, sarah.cash) == (7, 1, 15)
    assert "Winchester Carbine" in sarah.equipment
    detail = text(bob.get(url("encounter_detail", world, enc)))
    assert "Mark: Dead" in detail and "(rolled 1)" in detail
    assert 'data-testid="reputation"' in detail
    assert "Drifter (+2)" in detail  # Sarah's notoriety now

    # The showdown: Bob's gang has less reputation; Jack O'Neil challenges Red Jack
    # (both Loafers); Alice declines and Red Jack loses 5.
    assert 'data-testid="challenge-form"' in detail
    assert 'data-testid="challenge-form"' not in text(
        alice.get(url("encounter_detail", world, enc))
    )
    response = step(world, enc, "bob", "challenge", {"pair": f"{b}/1|{a}/1"})
    assert response.status_code == 302
    assert step(world, enc, "bob", "answer", {"answer": "decline"}).status_code == 403
    detail = text(alice.get(url("encounter_detail", world, enc)))
    assert "Decline (-5 reputation for Red Jack)" in detail
    assert step(world, enc, "alice", "answer", {"answer": "decline"}).status_code == 302
    assert state(world).member(f"{a}/1").score == 4 - 5

    # Between encounters: Alice spends Sarah's CCP on a Regular rifle.
    gang_page = text(alice.get(url("campaign_gang", world, a)))
    assert 'data-testid="advance-form"' in gang_page
    assert "Rifle: Regular +2 (1 CCP)" in gang_page
    response = alice.post(
        url("campaign_gang_step", world, a, "advance"), {"member": f"{a}/2", "choice": "rifle:1"}
    )
    assert response.status_code == 302
    sarah = state(world).member(f"{a}/2")
    assert (sarah.saved, sarah.data["tiers"]["rifle"]) == (0, 1)

    # Buy: too dear is refused beside the form; two knives are fine.
    before = events(world)
    response = alice.post(
        url("campaign_gang_step", world, a, "buy"),
        {"member": f"{a}/2", "item": "Colt '45", "quantity": "1"},
    )
    assert response.status_code == 200 and events(world) == before
    assert "Sarah has $15; Colt &#x27;45 costs $25." in text(response)
    response = alice.post(
        url("campaign_gang_step", world, a, "buy"),
        {"member": f"{a}/2", "item": "Knife", "quantity": "2"},
    )
    assert response.status_code == 302
    sarah = state(world).member(f"{a}/2")
    assert sarah.cash == 9 and sarah.equipment.count("Knife") == 3
    assert "3\u00d7 Knife" in text(alice.get(url("campaign_gang", world, a)))

    # Recruit: Bob replaces Mark (made with 5 CCP) with an outlaw of his own builder gang.
    page = text(bob.get(url("campaign_gang", world, b)))
    assert "Mark</strong>: killed in encounter 1" in page
    recruit_page = bob.get(url("campaign_gang_recruit", world, b))
    assert recruit_page.status_code == 200
    assert "Made with 5 CCP: the recruit may cost at most 5." in text(recruit_page)
    own = world.users["bob"].gangs.get().members.order_by("position")[5]  # Tom, 5 CCP
    response = bob.post(
        url("campaign_gang_recruit", world, b), {"replaces": f"{b}/2", "recruit": str(own.pk)}
    )
    assert response.status_code == 302
    s = state(world)
    assert s.gangs[b].members["2"].replaced_by == "7"
    assert s.gangs[b].members["7"].name == "Tom"
    assert "replaced by Tom" in text(bob.get(url("campaign_gang", world, b)))

    # Riding to Mexico: a confirm page, then the gang retires.
    confirm = bob.get(url("campaign_gang_step", world, b, "mexico"))
    assert confirm.status_code == 200
    assert "forfeits the campaign to the opposing gang" in text(confirm)
    assert bob.post(url("campaign_gang_step", world, b, "mexico")).status_code == 302
    assert state(world).gangs[b].retired_after == 1
    assert "retired for good" in text(bob.get(url("campaign_gang", world, b)))


def test_a_showdown_fought_to_the_death(world, dice):
    a, b = world.a, world.b
    enc = settled_encounter(world, dice, death_roll=6)  # Mark was playing dead
    assert step(world, enc, "bob", "challenge", {"pair": f"{b}/1|{a}/3"}).status_code == 302
    assert step(world, enc, "alice", "answer", {"answer": "accept"}).status_code == 302
    data = {
        "winner": f"{a}/3",
        "fate": "dead",
        "hits-TOTAL_FORMS": "3",
        "hits-INITIAL_FORMS": "0",
        "hits-0-kind": "wound",
        "hits-0-by": f"{b}/1",
        "hits-0-amount": "1",
        "hits-1-kind": "kill",
        "hits-1-by": f"{a}/3",
        "hits-1-amount": "",
    }
    assert step(world, enc, "carol", "showdown", data).status_code == 403
    assert step(world, enc, "alice", "showdown", data).status_code == 302
    s = state(world)
    # Jesse: 2 for the win, then the kill, filled in: Jack's toughness (Regular, 4
    # actions) + his notoriety (Loafer, 1).
    assert s.member(f"{a}/3").score == 2 + 4 + 1
    page = text(world.clients["bob"].get(url("encounter_detail", world, enc)))
    assert "Roll for Jack O&#x27;Neil" in page
    dice(2)
    assert step(world, enc, "bob", "death", {"member": f"{b}/1"}).status_code == 302
    assert state(world).member(f"{b}/1").status == "dead"


# --------------------------------------------------------------------------- the record form


def test_a_record_error_is_shown_beside_its_line_and_nothing_is_written(world, dice):
    enc = begin(world, dice)
    a, b = world.a, world.b
    before = events(world)
    lines = [
        {"kind": "kill", "by": f"{a}/2", "to": f"{b}/2", "amount": "4"},
        {},  # an empty line is ignored ...
        {"kind": "wound", "by": f"{a}/1", "to": f"{b}/2", "amount": "1"},
    ]
    response = record(world, enc, lines=lines)
    assert response.status_code == 200
    assert events(world) == before
    html = response.content.decode()
    # ... so the engine's "line 2" is the page's line 3, and the message stands there.
    third = html.split('id="line-3"')[1].split('id="line-4"')[0]
    assert "Line 3: Mark was already down." in third
    assert "already down" not in html.split('id="line-3"')[0]
    # What was typed is still there.
    assert f'<option value="{a}/2" selected>' in html


def test_a_winner_error_and_a_missing_winner_stay_on_the_page(world, dice):
    enc = begin(world, dice)
    response = world.clients["alice"].post(
        url("encounter_record", world, enc), lines_data(fight(world))
    )
    assert response.status_code == 200
    assert "This field is required." in text(response)
    assert state(world).encounter(enc).status == "in_play"


def test_more_lines_keeps_what_was_typed(world, dice):
    enc = begin(world, dice)
    a, b = world.a, world.b
    data = lines_data(
        [{"kind": "wound", "by": f"{a}/1", "to": f"{b}/3", "amount": "3"}],
        winner=b,
        notes="Rain all night",
        more="1",
    )
    before = events(world)
    response = world.clients["alice"].post(url("encounter_record", world, enc), data)
    assert response.status_code == 200
    assert events(world) == before
    html = response.content.decode()
    assert html.count('data-testid="line"') == 10
    assert 'name="lines-TOTAL_FORMS" value="10"' in html
    assert '<option value="wound" selected>' in html
    assert f'<option value="{b}/3" selected>' in html
    assert 'name="lines-0-amount" value="3"' in html
    assert f'<option value="{b}" selected>' in html
    assert "Rain all night" in html
    assert "This field is required" not in html


def test_re_recording_starts_from_the_existing_lines(world, dice):
    enc = begin(world, dice)
    record(world, enc)
    html = world.clients["bob"].get(url("encounter_record", world, enc)).content.decode()
    assert html.count('data-testid="line"') == 3 + 3
    assert 'name="lines-2-items" value="Winchester Carbine"' in html


# --------------------------------------------------------------------------- who may do what


def test_confirm_dispute_settle_and_undo_permissions(world, dice):
    enc = begin(world, dice)
    record(world, enc)
    b = world.b
    assert step(world, enc, "sam", "confirm", {"gang": b}).status_code == 404
    assert step(world, enc, "carol", "confirm", {"gang": b}).status_code == 403
    assert step(world, enc, "olive", "confirm", {"gang": b}).status_code == 403
    assert step(world, enc, "alice", "confirm", {"gang": b}).status_code == 403
    anon = step(world, enc, "anon", "confirm", {"gang": b})
    assert anon.status_code == 302 and anon["Location"].startswith(reverse("login"))
    assert "next=" in anon["Location"] and str(enc) in anon["Location"]

    reason = {"gang": b, "reason": "Mark was in cover"}
    assert step(world, enc, "sam", "dispute", reason).status_code == 404
    assert step(world, enc, "carol", "dispute", reason).status_code == 403
    assert step(world, enc, "bob", "dispute", {"gang": b, "reason": ""}).status_code == 200
    assert step(world, enc, "bob", "dispute", reason).status_code == 302
    assert state(world).encounter(enc).status == "disputed"
    page = text(world.clients["olive"].get(url("encounter_detail", world, enc)))
    assert "Mark was in cover" in page and "Uphold the record" in page and "Strike it" in page
    assert "Uphold the record" not in text(
        world.clients["bob"].get(url("encounter_detail", world, enc))
    )

    assert step(world, enc, "alice", "settle", {}).status_code == 403
    assert step(world, enc, "carol", "settle", {}).status_code == 403
    assert step(world, enc, "sam", "settle", {}).status_code == 404
    assert step(world, enc, "olive", "settle", {"note": "Seen it"}).status_code == 302
    assert state(world).encounter(enc).status == "confirmed"

    assert world.clients["alice"].get(url("encounter_undo", world)).status_code == 403
    assert (
        world.clients["alice"].post(url("encounter_undo", world), {"encounter": enc}).status_code
        == 403
    )
    assert world.clients["sam"].get(url("encounter_undo", world)).status_code == 404
    assert world.clients["olive"].get(url("encounter_undo", world)).status_code == 200
    response = world.clients["olive"].post(url("encounter_undo", world), {"encounter": enc})
    assert response.status_code == 302
    assert state(world).encounters == []
    assert world.clients["alice"].get(url("encounter_detail", world, enc)).status_code == 404


def test_record_begin_and_gang_actions_permissions(world, dice):
    enc = begin(world, dice)
    assert world.clients["carol"].get(url("encounter_record", world, enc)).status_code == 403
    assert world.clients["sam"].get(url("encounter_record", world, enc)).status_code == 404
    assert world.clients["olive"].get(url("encounter_record", world, enc)).status_code == 200
    assert world.clients["alice"].get(url("encounter_detail", world, 9999)).status_code == 404
    assert world.clients["alice"].get(url("campaign_gang", world, 9999)).status_code == 404
    assert world.clients["sam"].get(url("campaign_gang", world, world.a)).status_code == 404
    anon = world.clients["anon"].get(url("campaign_gang", world, world.a))
    assert anon.status_code == 302 and anon["Location"].startswith(reverse("login"))
    # Every participant sees a gang's page; only its player gets the forms.
    page = text(world.clients["carol"].get(url("campaign_gang", world, world.a)))
    assert "Red Jack" in page and 'data-testid="buy-form"' not in page
    buy = {"member": f"{world.a}/2", "item": "Knife", "quantity": "1"}
    assert (
        world.clients["carol"]
        .post(url("campaign_gang_step", world, world.a, "buy"), buy)
        .status_code
        == 403
    )
    assert (
        world.clients["olive"]
        .post(url("campaign_gang_step", world, world.a, "buy"), buy)
        .status_code
        == 403
    )
    assert (
        world.clients["bob"].get(url("campaign_gang_step", world, world.a, "mexico")).status_code
        == 403
    )
    assert world.clients["bob"].get(url("campaign_gang_recruit", world, world.a)).status_code == 403
    # Carol may not begin an encounter between two other gangs.
    response = world.clients["carol"].post(
        url("encounter_begin", world), {"gang": world.a, "against": world.b}
    )
    assert response.status_code == 200 and "Select a valid choice" in text(response)


def test_an_open_encounter_blocks_spending_beside_the_form(world, dice):
    enc = begin(world, dice)
    before = events(world)
    response = world.clients["alice"].post(
        url("campaign_gang_step", world, world.a, "buy"),
        {"member": f"{world.a}/2", "item": "Knife", "quantity": "1"},
    )
    assert response.status_code == 200 and events(world) == before
    assert "Buy between encounters, once the last one is settled." in text(response)
    page = text(world.clients["alice"].get(url("campaign_gang", world, world.a)))
    assert "Encounter 1 is still open" in page
    assert str(enc) in page
    # A second encounter for a gang with one open is refused, with the engine's words.
    response = world.clients["carol"].post(
        url("encounter_begin", world), {"gang": world.c, "against": world.a}
    )
    assert response.status_code == 200
    assert "has an encounter still open: finish it first." in text(response)


# --------------------------------------------------------------------------- undo


def fingerprint(s) -> dict:
    """The state as plain values: standings, gangs and every member's fields."""
    members = {}
    for gang in s.gangs.values():
        for m in gang.members.values():
            members[m.ref] = (
                m.name, m.status, m.score, m.best, m.earned, m.spent, m.cash,
                tuple(m.equipment), tuple(m.notes), m.replaces, m.replaced_by, m.joined_after,
                json.dumps(m.data, sort_keys=True),
            )  # fmt: skip
    return {
        "status": s.status,
        "standings": [(r.rank, r.gang.id, r.total, r.note) for r in s.standings()],
        "gangs": {
            g.id: (g.retired_after, g.purse, tuple(g.gear), g.next_key) for g in s.gangs.values()
        },
        "members": members,
        "encounters": [(e.id, e.number, e.status, e.awarded) for e in s.encounters],
    }


def test_undo_returns_the_exact_previous_state(world, dice):
    settled_encounter(world, dice, death_roll=4)  # Mark badly wounded: a skill row lost
    a, b = world.a, world.b
    world.clients["alice"].post(
        url("campaign_gang_step", world, a, "advance"), {"member": f"{a}/2", "choice": "rifle:1"}
    )
    before = fingerprint(state(world))
    # Encounter 2: everything that can change.
    enc = begin(world, dice, roll=6)
    lines = [
        {"kind": "kill", "by": f"{a}/1", "to": f"{b}/2", "amount": "4"},
        {"kind": "loot", "by": f"{a}/1", "to": f"{b}/2", "cash": "2"},
        {"kind": "left", "by": f"{b}/3"},
    ]
    assert record(world, enc, lines=lines).status_code == 302
    step(world, enc, "bob", "confirm", {"gang": b})
    dice(1)
    step(world, enc, "bob", "death", {"member": f"{b}/2"})
    assert fingerprint(state(world)) != before
    assert (
        world.clients["olive"]
        .post(url("encounter_undo", world), {"encounter": enc, "reason": "wrong table"})
        .status_code
        == 302
    )
    assert fingerprint(state(world)) == before


def test_only_the_last_encounter_is_undone(world, dice):
    first = settled_encounter(world, dice)
    page = text(world.clients["olive"].get(url("encounter_detail", world, first)))
    assert 'data-testid="undo-link"' in page
    dice(3)
    second = world.clients["carol"].post(
        url("encounter_begin", world), {"gang": world.c, "against": world.a}
    )
    assert second.status_code == 302
    page = text(world.clients["olive"].get(url("encounter_detail", world, first)))
    assert 'data-testid="undo-link"' not in page
    response = world.clients["olive"].post(url("encounter_undo", world), {"encounter": first})
    assert response.status_code == 200
    assert "Only the last encounter (number 2) can be undone." in text(response)


# --------------------------------------------------------------------------- htmx


def test_htmx_requests_get_fragments(world, dice):
    enc = begin(world, dice)
    record(world, enc)
    bob = world.clients["bob"]
    page = bob.get(url("encounter_detail", world, enc), **HX)
    html = page.content.decode()
    assert page.status_code == 200
    assert html.lstrip().startswith('<div id="steps"') and "<html" not in html
    response = step(world, enc, "bob", "confirm", {"gang": world.b}, **HX)
    html = response.content.decode()
    assert response.status_code == 200 and html.lstrip().startswith('<div id="steps"')
    assert 'data-testid="flash"' in html and "confirmed the record" in html
    assert "Roll for Mark" in html
    # A refused step comes back in the fragment, status 200.
    response = step(world, enc, "bob", "dispute", {"gang": world.b, "reason": "late"}, **HX)
    assert response.status_code == 200
    assert "is confirmed" in text(response)  # the engine: the record is confirmed now
    # The gang page too.
    html = bob.get(url("campaign_gang", world, world.b), **HX).content.decode()
    assert html.lstrip().startswith('<div id="gang"') and "<html" not in html


def test_the_plain_step_url_sends_a_get_to_the_page(world, dice):
    enc = begin(world, dice)
    response = world.clients["alice"].get(url("encounter_step", world, enc, "confirm"))
    assert response.status_code == 302
    assert response["Location"] == url("encounter_detail", world, enc)
    assert step(world, enc, "alice", "nonsense", {}).status_code == 404


# --------------------------------------------------------------------------- queries


def count_queries(client, path: str, **extra) -> int:
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(path, **extra)
    assert response.status_code == 200, response.content[:300]
    return len(ctx.captured_queries)


# session, user, the campaign, the user's gangs in it, the log
PAGE_QUERIES = 5


@pytest.mark.parametrize("size", [4, 6])
def test_pages_cost_the_same_for_4_and_6_outlaws(db, dice, size):
    olive = User.objects.create_user("olive", password="x-long-enough-1")
    alice = User.objects.create_user("alice", password="x-long-enough-1")
    campaign = services.create_campaign(
        olive, system="rivals", name="Deadrock", encounters=5, house_rules={}
    )
    source = roster(SIX, size)
    a = services.join_campaign(campaign, alice, import_gang(alice, source))
    b = services.join_campaign(campaign, olive, import_gang(olive, source))
    services.record(campaign, olive, "campaign_started", {})
    s = services.record(
        campaign, alice, "encounter_begun", {"gangs": [str(a.pk), str(b.pk)]}, rng=Scripted(3)
    )
    enc = s.last_encounter.id
    lines = [{"kind": "kill", "by": f"{a.pk}/1", "to": f"{b.pk}/1"}]
    services.record(
        campaign,
        alice,
        "encounter_recorded",
        {"encounter": enc, "gang": str(a.pk), "happenings": lines, "winner": str(a.pk)},
    )
    client = login(alice)
    detail = reverse("encounter_detail", args=[campaign.pk, enc])
    gang = reverse("campaign_gang", args=[campaign.pk, a.pk])
    assert count_queries(client, detail) == PAGE_QUERIES
    assert count_queries(client, detail, **HX) == PAGE_QUERIES
    assert count_queries(client, gang) == PAGE_QUERIES
    assert count_queries(client, gang, **HX) == PAGE_QUERIES


def test_no_showdown_says_why(world, dice):
    enc = begin(world, dice)
    assert record(world, enc, lines=[], winner="draw").status_code == 302
    assert step(world, enc, "bob", "confirm", {"gang": world.b}).status_code == 302
    page = text(world.clients["bob"].get(url("encounter_detail", world, enc)))
    assert "Both gangs have 0 reputation: neither is lower, so nobody may challenge." in page
    assert 'data-testid="challenge-form"' not in page
    # A challenge posted anyway gets the engine's reason, on the page.
    response = step(world, enc, "bob", "challenge", {"pair": f"{world.b}/1|{world.a}/1"})
    assert response.status_code == 200
    assert "A showdown challenge comes from an outlaw of the gang with the lower" in text(response)


def test_a_dispute_withdrawn_by_the_player_who_made_it(world, dice):
    enc = begin(world, dice)
    record(world, enc)
    step(world, enc, "bob", "dispute", {"gang": world.b, "reason": "Mark was in cover"})
    page = text(world.clients["bob"].get(url("encounter_detail", world, enc)))
    assert "Confirm it after all for The O&#x27;Neil Gang" in page
    assert 'data-testid="confirm"' not in text(
        world.clients["alice"].get(url("encounter_detail", world, enc))
    )
    assert step(world, enc, "bob", "confirm", {"gang": world.b}).status_code == 302
    assert state(world).encounter(enc).status == "confirmed"


def test_a_bwg1_campaign_uses_xp_a_scenario_and_the_purse(db, content, dice):
    olive = User.objects.create_user("olive", password="x-long-enough-1")
    alice = User.objects.create_user("alice", password="x-long-enough-1")
    campaign = services.create_campaign(
        olive, system="bwg1", name="Gulch", encounters=4, house_rules={}
    )
    dalton = roster("bwg1-legal-dalton-boys.json")
    a = str(services.join_campaign(campaign, alice, import_gang(alice, dalton)).pk)
    b = str(services.join_campaign(campaign, olive, import_gang(olive, dalton)).pk)
    services.record(campaign, olive, "campaign_started", {})
    client = login(alice)
    page = client.get(reverse("encounter_begin", args=[campaign.pk]))
    assert "Begin the encounter" in text(page) and 'name="scenario"' in text(page)
    response = client.post(
        reverse("encounter_begin", args=[campaign.pk]),
        {"gang": a, "against": b, "scenario": "The bank <job>"},
    )
    assert response.status_code == 302
    enc = services.state_of(campaign).last_encounter.id
    detail = text(client.get(reverse("encounter_detail", args=[campaign.pk, enc])))
    assert "The bank &lt;job&gt;" in detail and 'data-testid="location"' not in detail
    form = text(client.get(reverse("encounter_record", args=[campaign.pk, enc])))
    assert "Took out" in form and "lines-0-amount" not in form
    data = lines_data([{"kind": "out", "by": f"{a}/1", "to": f"{b}/2"}], winner=a)
    response = client.post(reverse("encounter_record", args=[campaign.pk, enc]), data)
    assert response.status_code == 302
    services.record(campaign, olive, "encounter_confirmed", {"encounter": enc, "gang": b})
    dice(6)  # playing dead
    assert (
        client.post(
            reverse("encounter_step", args=[campaign.pk, enc, "death"]), {"member": f"{b}/2"}
        ).status_code
        == 403
    )  # not Alice's outlaw: Olive (its player and the organiser) rolls
    response = login(olive).post(
        reverse("encounter_step", args=[campaign.pk, enc, "death"]), {"member": f"{b}/2"}
    )
    assert response.status_code == 302
    s = services.state_of(campaign)
    leader = s.member(f"{a}/1")
    assert leader.score == 3 + 2 and leader.saved == 1  # a Professional out: 3 VP
    page = text(client.get(reverse("campaign_gang", args=[campaign.pk, a])))
    assert "purse $10" in page and 'data-testid="advance-form"' in page
    step_url = reverse("campaign_gang_step", args=[campaign.pk, a, "advance"])
    choice = s.progression.advance_options(leader)[0][0]
    assert client.post(step_url, {"member": f"{a}/1", "choice": choice}).status_code == 302
    buy = reverse("campaign_gang_step", args=[campaign.pk, a, "buy"])
    response = client.post(buy, {"item": "Dynamite", "price": "11", "member": ""})
    assert response.status_code == 200 and "costs $11" in text(response)
    assert (
        client.post(buy, {"item": "Dynamite", "price": "4", "member": f"{a}/1"}).status_code == 302
    )
    s = services.state_of(campaign)
    assert s.gangs[a].purse == 6 and s.member(f"{a}/1").saved == 0


def test_a_gang_whose_leader_died_chooses_a_new_one(world, dice):
    a, b = world.a, world.b
    enc = begin(world, dice)
    lines = [{"kind": "kill", "by": f"{a}/1", "to": f"{b}/1"}]
    assert record(world, enc, lines=lines).status_code == 302
    assert step(world, enc, "bob", "confirm", {"gang": b}).status_code == 302
    dice(1)  # Jack O'Neil, the leader, is dead
    assert step(world, enc, "bob", "death", {"member": f"{b}/1"}).status_code == 302
    page = world.clients["bob"].get(url("campaign_gang", world, b))
    assert 'data-testid="leader-form"' in text(page)
    other = world.clients["alice"].post(
        url("campaign_gang_step", world, b, "leader"), {"member": f"{b}/3"}
    )
    assert other.status_code == 403
    bad = world.clients["bob"].post(url("campaign_gang_step", world, b, "leader"), {"member": ""})
    assert bad.status_code == 200 and 'data-testid="leader-form"' in text(bad)
    done = world.clients["bob"].post(
        url("campaign_gang_step", world, b, "leader"), {"member": f"{b}/3"}
    )
    assert done.status_code == 302
    after = state(world)
    assert after.member(f"{b}/3").data["leader"] is True
    page = world.clients["bob"].get(url("campaign_gang", world, b))
    assert 'data-testid="leader-form"' not in text(page)
    assert "now leads" in text(page)


def test_death_rolls_show_their_own_dice_even_for_namesakes(world, dice):
    """Alice's and Carol's gangs are both Red Jack's Gang: two Sarahs die."""
    from campaigns.encounter_views.detail import _death_results

    a, c = world.a, world.c
    dice(2)
    begun = world.clients["alice"].post(url("encounter_begin", world), {"gang": a, "against": c})
    assert begun.status_code == 302
    enc = state(world).last_encounter.id
    lines = [
        {"kind": "kill", "by": f"{a}/2", "to": f"{c}/2"},
        {"kind": "kill", "by": f"{c}/1", "to": f"{a}/2"},
    ]
    data = lines_data(lines, winner=a)
    assert world.clients["alice"].post(url("encounter_record", world, enc), data).status_code == 302
    assert step(world, enc, "carol", "confirm", {"gang": c}).status_code == 302
    dice(6)
    assert step(world, enc, "carol", "death", {"member": f"{c}/2"}).status_code == 302
    dice(1)
    assert step(world, enc, "alice", "death", {"member": f"{a}/2"}).status_code == 302
    now = state(world)
    rows = {r["member"].ref: r for r in _death_results(now, now.encounter(enc))}
    assert rows[f"{c}/2"]["roll"] == 6 and rows[f"{c}/2"]["dice"][0]["rolled"] == [6]
    assert rows[f"{a}/2"]["roll"] == 1 and rows[f"{a}/2"]["dice"][0]["rolled"] == [1]


def test_a_gang_fights_at_full_strength_or_chooses_to_fight_short_handed(world, dice):
    """003, "Recruiting new gang members": "Before the start of each encounter gang members
    killed and removed from the game in a previous encounter are replaced"."""
    settled_encounter(world, dice, death_roll=1)  # Mark is dead
    bob = world.clients["bob"]
    page = text(bob.get(url("campaign_gang", world, world.b)))
    assert 'data-testid="full-strength"' in page
    # The begin page refuses, beside the form, and nothing is written.
    before = events(world)
    response = bob.post(url("encounter_begin", world), {"gang": world.b, "against": world.a})
    assert response.status_code == 200 and events(world) == before
    assert "fights at full strength: recruit a replacement for Mark" in text(response)
    # Only the gang's player declines; then the encounter can begin.
    recruit = url("campaign_gang_recruit", world, world.b)
    assert 'data-testid="decline"' in text(bob.get(recruit))
    assert world.clients["alice"].post(recruit, {"decline": f"{world.b}/2"}).status_code == 403
    response = bob.post(recruit, {"decline": f"{world.b}/2"})
    assert response.status_code == 302
    assert state(world).gangs[world.b].members["2"].declined
    page = text(bob.get(recruit))
    assert 'data-testid="short-handed"' in page and 'data-testid="recruit"' in page
    assert 'data-testid="full-strength"' not in text(bob.get(url("campaign_gang", world, world.b)))
    dice(2)
    response = bob.post(url("encounter_begin", world), {"gang": world.b, "against": world.a})
    assert response.status_code == 302


def test_a_kill_is_filled_in_and_a_wound_too_big_is_refused_beside_its_line(world, dice):
    enc = begin(world, dice)
    a, b = world.a, world.b
    before = events(world)
    lines = [{"kind": "wound", "by": f"{a}/2", "to": f"{b}/2", "amount": "9"}]
    response = record(world, enc, lines=lines)
    assert response.status_code == 200 and events(world) == before
    assert "Mark has 4 actions left (toughness 4): a wound takes at most 4." in text(response)
    lines = [{"kind": "kill", "by": f"{a}/2", "to": f"{b}/2", "amount": ""}]
    assert record(world, enc, lines=lines).status_code == 302
    assert state(world).encounter(enc).happenings[0]["amount"] == 4
