"""End-to-end campaign journeys through the views, with Django's test client.

Each journey goes the way players do: the organiser fills in the set-up form (with what
the page offers by default), players open the invite link from the campaign's page and
join, the organiser starts it, encounters are begun, recorded, confirmed and rolled for
through the encounter pages, the gangs spend, buy and recruit on their own pages. What
is checked is what a player reads on the pages (and in the chronicle PDF), not the
engine's state. Dice come from the views' RNG hook
(``campaigns.encounter_views.base.RNG``), scripted strictly: every roll a step makes is
the one the test says.

The expected Rivals reputation is worked out here, independently of the engine, with
the book's numbers (docs/campaigns.md): a wound earns the actions it costs, a kill the
victim's toughness in actions + his notoriety bonus at that moment, +2 to every outlaw of the
winning gang, -5 for leaving the board; "no reputation this encounter" (badly wounded,
playing dead) removes what the outlaw gained, never a penalty.
"""

from __future__ import annotations

import html as htmllib
import io
import random
import re
from collections import defaultdict
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urlparse

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from pypdf import PdfReader

from builder.models import Gang
from builder.services import import_gang
from campaigns.encounter_views import base as ev
from campaigns.models import Campaign, CampaignGang
from rules.roster import read_roster

EXAMPLES = Path(__file__).resolve().parent.parent / "docs" / "examples"
RED_JACKS = "rivals-legal-red-jacks-gang.json"
SIX_OUTLAWS = "rivals-legal-six-outlaws.json"
TITLE = "The Most Wanted Outlaws in the Old West"


# --------------------------------------------------------------------------- dice


class Strict(random.Random):
    """Dice that roll exactly what the test says; any other roll fails the test."""

    def __init__(self, *rolls: int):
        super().__init__(0)
        self.rolls = list(rolls)

    def randint(self, a: int, b: int) -> int:
        assert self.rolls, f"an unscripted roll of {a}-{b}"
        value = self.rolls.pop(0)
        assert a <= value <= b, (value, a, b)
        return value


@pytest.fixture
def dice(monkeypatch):
    """``with dice(2, 5): ...``: the views' next rolls, all of them used inside."""

    class Rolls:
        def __init__(self, *rolls: int):
            self.rng = Strict(*rolls)

        def __enter__(self) -> Strict:
            monkeypatch.setattr(ev, "RNG", self.rng)
            return self.rng

        def __exit__(self, kind, value, tb) -> None:
            monkeypatch.setattr(ev, "RNG", Strict())
            if kind is None:
                assert self.rng.rolls == [], f"rolls left unused: {self.rng.rolls}"

    monkeypatch.setattr(ev, "RNG", Strict())  # no unscripted roll anywhere
    return Rolls


# --------------------------------------------------------------------------- reading pages


def squash(fragment: str) -> str:
    """HTML as a player reads it: no tags, entities decoded, spaces collapsed."""
    text = re.sub(r"<(script|style)\b.*?</\1>", " ", fragment, flags=re.S)
    text = re.sub(r"<[^>]+>", " ", text)
    return re.sub(r"\s+", " ", htmllib.unescape(text)).strip()


def read(response) -> str:
    assert response.status_code == 200, (response.status_code, response.content[:300])
    return squash(response.content.decode())


def source(response) -> str:
    assert response.status_code == 200, (response.status_code, response.content[:300])
    return response.content.decode()


def table_rows(page: str, testid: str) -> list[list[str]]:
    """The body rows of the table marked ``data-testid``, each as its cells' text."""
    found = re.search(rf'<table[^>]*data-testid="{testid}"[^>]*>(.*?)</table>', page, re.S)
    assert found, f"no table {testid!r} on the page"
    body = found.group(1).split("</thead>", 1)[-1]
    rows = []
    for tr in re.findall(r"<tr\b[^>]*>(.*?)</tr>", body, re.S):
        rows.append([squash(c) for c in re.findall(r"<t[dh]\b[^>]*>(.*?)</t[dh]>", tr, re.S)])
    return rows


MEMBER = '<li class="card member campaign-member"'


def member_chunks(page: str) -> dict[str, str]:
    """A campaign gang page's member cards: {name: the card's HTML}."""
    start = page.find(MEMBER)
    members = page[start:].split("</ol>", 1)[0] if start >= 0 else ""
    chunks = {}
    for chunk in members.split(MEMBER)[1:]:
        name = re.search(r'data-member-name="([^"]*)"', chunk)
        assert name
        chunks[htmllib.unescape(name.group(1))] = chunk
    return chunks


def member_cards(page: str) -> dict[str, str]:
    """A campaign gang page's members: {name: the text of the member's card}."""
    return {name: squash(chunk.partition(">")[2]) for name, chunk in member_chunks(page).items()}


def member_html(page: str, name: str) -> str:
    return member_chunks(page)[name]


def score_of(page: str, name: str) -> int:
    found = re.search(r'data-testid="score">(-?\d+)<', member_html(page, name))
    assert found, name
    return int(found.group(1))


def stat(page: str, name: str, label: str) -> str:
    found = re.search(rf"<dt>{label}</dt><dd>([^<]*)</dd>", member_html(page, name))
    assert found, (name, label)
    return found.group(1)


def options(page: str, select_name: str) -> dict[str, str]:
    """A select's options on the page: {label: value}."""
    found = re.search(rf'<select name="{select_name}"[^>]*>(.*?)</select>', page, re.S)
    assert found, f"no select {select_name!r}"
    return {
        squash(label): htmllib.unescape(value)
        for value, label in re.findall(r'<option value="([^"]*)"[^>]*>(.*?)</option>', found[1])
    }


class FormReader(HTMLParser):
    """What a browser would send for a form left as the page shows it."""

    def __init__(self, testid: str):
        super().__init__(convert_charrefs=True)
        self.testid = testid
        self.inside = False
        self.fields: dict[str, str] = {}
        self.select: str | None = None
        self.chosen: set[str] = set()

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form" and a.get("data-testid") == self.testid:
            self.inside = True
            return
        if not self.inside:
            return
        name = a.get("name")
        if tag == "input" and name:
            kind = a.get("type", "text")
            if kind in ("checkbox", "radio"):
                if "checked" in a:
                    self.fields[name] = a.get("value") or "on"
            elif kind not in ("submit", "button", "reset"):
                self.fields[name] = a.get("value") or ""
        elif tag == "select" and name:
            self.select = name
        elif tag == "option" and self.select and self.select not in self.chosen:
            if "selected" in a or self.select not in self.fields:
                self.fields[self.select] = a.get("value") or ""
            if "selected" in a:
                self.chosen.add(self.select)

    def handle_endtag(self, tag):
        if tag == "select":
            self.select = None
        elif tag == "form":
            self.inside = False


def form_defaults(page: str, testid: str) -> dict[str, str]:
    reader = FormReader(testid)
    reader.feed(page)
    assert reader.fields, f"no form {testid!r}"
    return reader.fields


# --------------------------------------------------------------------------- doing things


def login(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


@dataclass
class Player:
    user: User
    client: Client

    @classmethod
    def make(cls, name: str) -> Player:
        user = User.objects.create_user(name, password="x-long-enough-1")
        return cls(user, login(user))


def example(user: User, name: str) -> Gang:
    """One of the docs/examples gangs, imported into the user's builder."""
    return import_gang(user, read_roster((EXAMPLES / name).read_bytes()))


def create_campaign(organiser: Player, system: str, name: str, encounters: int, **rules):
    """The set-up form as the page offers it, with the game, name, number and any house
    rule changed; the campaign's page follows."""
    page = source(organiser.client.get(reverse("campaign_create")))
    data = form_defaults(page, "campaign-form")
    data.update(system=system, name=name, encounters=str(encounters))
    data.update({f"{system}-{rule}": str(value) for rule, value in rules.items()})
    response = organiser.client.post(reverse("campaign_create"), data)
    assert response.status_code == 302, read(response)
    campaign = Campaign.objects.get(name=name)
    assert response["Location"] == reverse("campaign_detail", args=[campaign.pk])
    return campaign


def invite_path(organiser: Player, campaign: Campaign) -> str:
    page = source(organiser.client.get(reverse("campaign_detail", args=[campaign.pk])))
    link = re.search(r'value="([^"]+)"[^>]*data-testid="invite-link"', page)
    assert link, "the invite link is on the campaign's page"
    return urlparse(htmllib.unescape(link.group(1))).path


def join(player: Player, invite: str, gang: Gang) -> str:
    """Open the invite link, pick the gang, join; the campaign gang's id."""
    page = source(player.client.get(invite))
    assert gang.name in options(page, "gang")
    response = player.client.post(invite, {"gang": options(page, "gang")[gang.name]})
    assert response.status_code == 302, read(response)
    joined = CampaignGang.objects.filter(source=gang).latest("pk")
    assert f"“{gang.name}” joined" in read(player.client.get(response["Location"]))
    return str(joined.pk)


def start(organiser: Player, campaign: Campaign) -> None:
    response = organiser.client.post(reverse("campaign_start", args=[campaign.pk]))
    assert response.status_code == 302
    page = read(organiser.client.get(response["Location"]))
    assert "The campaign has started." in page and "Start an encounter" in page


def begin(player: Player, campaign: Campaign, gang: str, against: str, **extra) -> int:
    response = player.client.post(
        reverse("encounter_begin", args=[campaign.pk]), {"gang": gang, "against": against, **extra}
    )
    assert response.status_code == 302, read(response)
    found = re.search(r"/encounters/(\d+)/$", response["Location"])
    assert found, response["Location"]
    return int(found.group(1))


def record(player: Player, campaign: Campaign, enc: int, lines: list[dict], winner: str):
    data = {
        "lines-TOTAL_FORMS": str(max(6, len(lines))),
        "lines-INITIAL_FORMS": "0",
        "lines-MIN_NUM_FORMS": "0",
        "lines-MAX_NUM_FORMS": "200",
        "winner": winner,
        "notes": "",
    }
    for i, line in enumerate(lines):
        for key, value in line.items():
            data[f"lines-{i}-{key}"] = str(value)
    response = player.client.post(reverse("encounter_record", args=[campaign.pk, enc]), data)
    assert response.status_code == 302, read(response)


def do(player: Player, campaign: Campaign, enc: int, step: str, data: dict) -> str:
    """One step on the encounter's page (confirm, death...): the page after it."""
    url = reverse("encounter_step", args=[campaign.pk, enc, step])
    response = player.client.post(url, data)
    assert response.status_code == 302, read(response)
    return read(player.client.get(reverse("encounter_detail", args=[campaign.pk, enc])))


def gang_page(player: Player, campaign: Campaign, gang: str) -> str:
    return source(player.client.get(reverse("campaign_gang", args=[campaign.pk, gang])))


def gang_step(player: Player, campaign: Campaign, gang: str, step: str, data: dict) -> str:
    url = reverse("campaign_gang_step", args=[campaign.pk, gang, step])
    response = player.client.post(url, data)
    assert response.status_code == 302, read(response)
    return gang_page(player, campaign, gang)


# --------------------------------------------------------------------------- Rivals, by the book

NOTORIETY = [(5, 1), (10, 2), (15, 3), (20, 4), (30, 5)]  # docs/campaigns.md; 31+ is +6


def notoriety_bonus(reputation: int) -> int:
    return next((bonus for top, bonus in NOTORIETY if reputation <= top), 6)


@dataclass
class Ledger:
    """Reputation as the book awards it, kept by the test from what it recorded."""

    reputation: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    dead: set[str] = field(default_factory=set)
    toughness: dict[str, int] = field(default_factory=dict)  # actions; Regular 4 if absent

    def encounter(self, lines, winners: list[str], deaths: dict[str, str]) -> None:
        """``lines`` as recorded, the winning gang's outlaws, each death roll's result
        ("dead", "badly wounded", "playing dead")."""
        now = dict(self.reputation)
        awards: list[tuple[str, int]] = []

        def earn(who: str, amount: int) -> None:
            now[who] = now.get(who, 0) + amount
            awards.append((who, amount))

        for line in lines:
            if line["kind"] == "wound":
                earn(line["by"], int(line["amount"]))
            elif line["kind"] == "kill" and line.get("by"):
                bonus = notoriety_bonus(now.get(line["to"], 0))  # at that moment
                earn(line["by"], self.toughness.get(line["to"], 4) + bonus)
            elif line["kind"] == "left":
                earn(line["by"], -5)
        for who in winners:
            earn(who, 2)
        for who, amount in awards:
            if amount > 0 and who in deaths:
                continue  # no reputation this encounter: gains go, penalties stay
            self.reputation[who] += amount
        self.dead |= {who for who, result in deaths.items() if result == "dead"}

    def total(self, refs) -> int:
        return sum(self.reputation[r] for r in refs if r not in self.dead)


def build_recruit(player: Player, name: str) -> Gang:
    """A new Rivals gang in the player's builder with one outlaw: Regular toughness,
    Straight-shooter handgun (1 + 2 = 3 CCP), pack B."""
    response = player.client.post(
        reverse("gang_create"), {"name": "Recruits", "system": "rivals", "limit": ""}
    )
    assert response.status_code == 302
    gang = Gang.objects.get(owner=player.user, name="Recruits")
    response = player.client.post(
        reverse("gang_action", args=[gang.pk, "add_outlaw"]), {"add_outlaw-name": name}
    )
    assert response.status_code == 302
    member_id = int(response["Location"].rpartition("#member-")[2])
    tiers = {"toughness": 1, "handgun": 2, "rifle": 0, "shotgun": 0, "brawl": 0, "riding": 0}
    response = player.client.post(
        reverse("member_action", args=[gang.pk, member_id, "tiers"]),
        {f"m{member_id}-tiers-{row}": str(v) for row, v in tiers.items()},
    )
    assert response.status_code == 302
    poster = {"name": name, "gender": "male", "hand": "right", "pack": "B"}
    response = player.client.post(
        reverse("member_action", args=[gang.pk, member_id, "poster"]),
        {f"m{member_id}-poster-{k}": v for k, v in poster.items()},
    )
    assert response.status_code == 302
    return gang


def test_rivals_from_set_up_to_the_title(db, dice):
    olive, alice, bob = (Player.make(n) for n in ("olive", "alice", "bob"))

    # Set-up: Olive creates the campaign (4 encounters), the players join by the link.
    campaign = create_campaign(olive, "rivals", "Deadrock 1877", 4)
    page = read(olive.client.get(reverse("campaign_detail", args=[campaign.pk])))
    assert "Outlaws: Rivals \u2013 Gangs of the Old West · Setting up · organised by olive" in page
    assert "4 encounters agreed per gang" in page
    invite = invite_path(olive, campaign)
    a = join(alice, invite, example(alice.user, RED_JACKS))
    b = join(bob, invite, example(bob.user, SIX_OUTLAWS))
    page = read(alice.client.get(invite))
    assert "Red Jack's Gang (alice, 5 members)" in page
    assert "The O'Neil Gang (bob, 6 members)" in page
    start(olive, campaign)
    assert "already started" in read(Player.make("late").client.get(invite))

    def A(k: int) -> str:
        return f"{a}/{k}"

    def B(k: int) -> str:
        return f"{b}/{k}"

    names = {
        A(1): "Red Jack", A(2): "Sarah", A(3): "Jesse", A(4): "Luke", A(5): "Clay",
        B(1): "Jack O'Neil", B(2): "Mark", B(3): "David", B(4): "Bill", B(5): "Kate",
        B(6): "Tom", B(7): "Wes",
    }  # fmt: skip
    book = Ledger()
    book.toughness[A(5)] = 5  # Clay is Built like an outhouse!
    gang_names = {a: "Red Jack's Gang", b: "The O'Neil Gang"}
    riding = {a: [A(k) for k in range(1, 6)], b: [B(k) for k in range(1, 7)]}

    def play(n, begins, confirms, gangs, roll, where, lines, winner, deaths):
        """Encounter n: begin (location roll), record, confirm, the death rolls
        ({ref: (rolls, result)}); the book's reputation goes into the ledger."""
        with dice(roll):
            enc = begin(begins, campaign, *gangs)
        detail = read(begins.client.get(reverse("encounter_detail", args=[campaign.pk, enc])))
        assert f"Encounter {n}" in detail and where in detail
        record(begins, campaign, enc, lines, winner)
        page = do(confirms, campaign, enc, "confirm", {"gang": gangs[1]})
        for ref in deaths:
            assert f"{names[ref]} ({gang_names[ref.partition('/')[0]]}) ended it dead." in page
        for ref, (rolls, result) in deaths.items():
            player = alice if ref.startswith(f"{a}/") else bob
            detail = reverse("encounter_detail", args=[campaign.pk, enc])
            assert f"Roll for {names[ref]}" in read(player.client.get(detail))
            with dice(*rolls):
                page = do(player, campaign, enc, "death", {"member": ref})
            assert f"{names[ref]}: {result.capitalize()} (rolled {rolls[0]})" in page
        book.encounter(lines, riding[winner], {r: res for r, (_, res) in deaths.items()})
        for ref, (_, result) in deaths.items():
            if result == "dead":
                riding[ref.partition("/")[0]].remove(ref)
        return enc, page

    # Encounter 1 (centre of town): Red Jack wounds Jack O'Neil, Sarah kills Mark (a
    # Loafer) and takes his dollars and carbine, Tom wounds Jesse, David runs; Red
    # Jack's Gang wins. Mark's death roll: 1, dead.
    lines = [
        {"kind": "wound", "by": A(1), "to": B(1), "amount": 2},
        {"kind": "kill", "by": A(2), "to": B(2), "amount": ""},
        {"kind": "loot", "by": A(2), "to": B(2), "cash": 3, "items": "Winchester Carbine"},
        {"kind": "wound", "by": B(6), "to": A(3), "amount": 1},
        {"kind": "left", "by": B(3)},
    ]
    enc1, page = play(
        1, alice, bob, (a, b), 2, "Deadrock - centre of town", lines, a, {B(2): ([1], "dead")}
    )
    assert "Sarah took $3, Winchester Carbine from Mark." in page
    assert "David left the board early." in page
    detail = source(alice.client.get(reverse("encounter_detail", args=[campaign.pk, enc1])))
    rows = {row[0]: row for row in table_rows(detail, "reputation") if len(row) > 2}
    assert rows["Sarah"][1].startswith(f"+{4 + 1 + 2}") and rows["Sarah"][2] == "7"
    assert rows["David"][1].startswith("\u22125") and rows["David"][2] == "-5"

    # Between encounters: Sarah spends her CCP on a Regular rifle and buys a knife.
    mine = gang_page(alice, campaign, a)
    assert "Rifle: Regular +2 (1 CCP)" in squash(member_html(mine, "Sarah"))
    mine = gang_step(alice, campaign, a, "advance", {"member": A(2), "choice": "rifle:1"})
    sarah = member_cards(mine)["Sarah"]
    assert "Spent 1 CCP: Rifle is now Regular +2." in sarah and "0 CCP saved" in sarah
    mine = gang_step(alice, campaign, a, "buy", {"member": A(2), "item": "Knife", "quantity": 1})
    sarah = member_cards(mine)["Sarah"]
    assert "$12" in sarah and "2\u00d7 Knife" in sarah and "Winchester Carbine" in sarah
    assert "Bought Knife for $3." in sarah

    # Bob replaces Mark (made with 5 CCP) with Wes, built in a new gang of his builder.
    theirs = read(bob.client.get(reverse("campaign_gang", args=[campaign.pk, b])))
    assert "Mark : killed in encounter 1" in theirs and "not replaced yet" in theirs
    build_recruit(bob, "Wes")
    recruit_url = reverse("campaign_gang_recruit", args=[campaign.pk, b])
    page = source(bob.client.get(recruit_url))
    assert "Made with 5 CCP: the recruit may cost at most 5." in squash(page)
    choices = options(page, "recruit")
    assert "Recruits — Wes (3 CCP)" in choices
    response = bob.client.post(
        recruit_url, {"replaces": B(2), "recruit": choices["Recruits — Wes (3 CCP)"]}
    )
    assert response.status_code == 302, read(response)
    theirs = gang_page(bob, campaign, b)
    assert "replaced by Wes" in squash(theirs)
    wes = member_cards(theirs)["Wes"]
    assert "joined after encounter 1" in wes and "$12" in wes and "Loafer (+1)" in wes
    riding[b].append(B(7))

    # Encounter 2 (edge of town), begun by Bob: Jack O'Neil wounds Red Jack, Kate kills
    # Sarah (a Drifter now: +2), Red Jack kills Tom, Wes wounds Luke; the O'Neils win.
    # Sarah: 5, badly wounded (her rifle goes); Tom: 2, dead.
    lines = [
        {"kind": "wound", "by": B(1), "to": A(1), "amount": 3},
        {"kind": "kill", "by": B(5), "to": A(2), "amount": ""},
        {"kind": "kill", "by": A(1), "to": B(6), "amount": ""},
        {"kind": "wound", "by": B(7), "to": A(4), "amount": 2},
    ]
    _, page = play(
        2,
        bob,
        alice,
        (b, a),
        4,
        "Deadrock - edge of town",
        lines,
        b,
        {A(2): ([5, 2], "badly wounded"), B(6): ([2], "dead")},
    )
    assert "Rifle Regular +2 → Got the shakes! +0" in page

    # Tom is dead and not replaced: the O'Neils fight at full strength, so encounter 3
    # can't begin until Bob recruits or chooses to fight on without a replacement.
    theirs = read(bob.client.get(reverse("campaign_gang", args=[campaign.pk, b])))
    assert "Before its next encounter the gang replaces its fallen outlaw" in theirs
    response = bob.client.post(recruit_url, {"decline": B(6)})
    assert response.status_code == 302, read(response)

    # Encounter 3 (the Homestead): Jesse kills Kate (a Drifter), Bill wounds Clay, Luke
    # leaves the board, Jack O'Neil kills Clay; Red Jack's Gang wins. Kate: 4, badly
    # wounded; Clay: 6, playing dead (his win bonus doesn't count).
    lines = [
        {"kind": "kill", "by": A(3), "to": B(5), "amount": ""},
        {"kind": "wound", "by": B(4), "to": A(5), "amount": 2},
        {"kind": "left", "by": A(4)},
        {"kind": "kill", "by": B(1), "to": A(5), "amount": ""},
    ]
    _, page = play(
        3,
        alice,
        bob,
        (a, b),
        6,
        "Homestead",
        lines,
        a,
        {B(5): ([4, 2], "badly wounded"), A(5): ([6], "playing dead")},
    )
    assert "Riding Stunt Rider +3 → Horseman +2" in page
    assert "Playing dead: no reputation this encounter" in page

    # Encounter 4 (centre of town), begun by Bob: Wes kills Jesse (a Drifter), Red Jack
    # wounds Bill, Wes takes $2 from Jesse, Red Jack kills Wes, a Drifter by then (4 + 6);
    # the O'Neils win. Jesse: 1, dead; Wes: 5, badly wounded (only his handgun can go).
    lines = [
        {"kind": "kill", "by": B(7), "to": A(3), "amount": ""},
        {"kind": "wound", "by": A(1), "to": B(4), "amount": 1},
        {"kind": "loot", "by": B(7), "to": A(3), "cash": 2},
        {"kind": "kill", "by": A(1), "to": B(7), "amount": ""},
    ]
    _, page = play(
        4,
        bob,
        alice,
        (b, a),
        3,
        "Deadrock - centre of town",
        lines,
        b,
        {A(3): ([1], "dead"), B(7): ([5], "badly wounded")},
    )
    assert "Handgun Straight-shooter +2 → Regular +1" in page
    # The kill of Wes: his toughness (Regular, 4 actions) + a Drifter's 2, his notoriety at
    # that moment (4 before the encounter + 6 for killing Jesse, a Drifter).
    assert "Killed Wes: 4 actions (toughness) + Drifter notoriety bonus 2" in page

    # Every gang has played 4: Olive finishes; no confirmation is asked.
    detail = read(olive.client.get(reverse("campaign_detail", args=[campaign.pk])))
    assert "Every gang has played the agreed encounters." in detail
    response = olive.client.post(reverse("campaign_finish", args=[campaign.pk]))
    assert response.status_code == 302
    page = source(alice.client.get(reverse("campaign_detail", args=[campaign.pk])))

    # The standings: by the reputation of the surviving outlaws, as the book counts it.
    expected = sorted(
        ((gang_names[g], book.total(riding[g])) for g in (a, b)), key=lambda row: -row[1]
    )
    assert expected == [("The O'Neil Gang", 32), ("Red Jack's Gang", 28)]  # worked by hand
    shown = [(row[1].replace(" yours", ""), int(row[3])) for row in table_rows(page, "standings")]
    assert shown == expected
    first = table_rows(page, "standings")[0]
    assert first[0] == "1" and TITLE in first[5]
    banner = re.search(r'data-testid="title-banner">(.*?)</section>', page, re.S)
    assert banner and squash(banner.group(1)) == f"The O'Neil Gang — {TITLE}"
    # Each surviving outlaw's reputation, on the gang pages.
    for gang in (a, b):
        mine = gang_page(alice, campaign, gang)
        for ref in riding[gang]:
            assert score_of(mine, names[ref]) == book.reputation[ref], names[ref]
        assert f'data-testid="gang-total">{book.total(riding[gang])}<' in mine

    # The chronicle tells the four encounters in order, and the title.
    response = alice.client.get(reverse("campaign_chronicle", args=[campaign.pk]))
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    text = "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(response.content)).pages)
    text = re.sub(r"\s+", " ", text).replace("\u2019", "'")
    where = [text.find(f"Encounter {n}: ") for n in (1, 2, 3, 4)]
    assert -1 not in where and where == sorted(where), where
    assert "Encounter 1: Red Jack's Gang v The O'Neil Gang" in text
    assert "Encounter 2: The O'Neil Gang v Red Jack's Gang" in text
    assert f"The O'Neil Gang {TITLE}" in text
    assert text.find("Sarah killed Mark") < text.find("Kate killed Sarah") < where[2]


# --------------------------------------------------------------------------- the other games


@dataclass
class Journey:
    """One encounter of a non-Rivals game: the example gangs, who takes out whom (by
    member key), the death rolls, and the member of gang a who advances."""

    system: str
    first: str
    second: str
    outs: list[tuple[str, int, int]]  # (gang "a"/"b", by key, to key)
    deaths: list[tuple[str, int, tuple[int, ...], str]]  # (gang, key, rolls, result shown)
    star: int
    rules: dict = field(default_factory=dict)


PLAYING_DEAD = "Playing dead (rolled 6). Not really hurt that bad, just playing dead. "
PLAYING_DEAD += "Earns no XP this encounter."
BADLY_WOUNDED = "Badly wounded (rolled 4). Loses one point from a random attribute above 1 "
BADLY_WOUNDED += "and earns no XP this encounter."

JOURNEYS = {
    # Emmett Dalton (a Henchman) takes out Doc Ruth (a Professional: 3) and wins (+2).
    # Bob Dalton takes out Grat, who is badly wounded: the 5th attribute above 1, RC.
    "bwg1": Journey(
        "bwg1",
        "bwg1-legal-dalton-boys.json",
        "bwg1-legal-dalton-boys.json",
        [("a", 4, 2), ("b", 1, 3)],
        [
            ("b", 2, (6,), f"Doc Ruth: {PLAYING_DEAD}"),
            ("a", 3, (4, 5), f"Grat Dalton: {BADLY_WOUNDED}"),
        ],
        star=4,
    ),
    # The Captain takes out Hollow-Eyed Hank (a Henchman: 2 Victory Points), and wins.
    "bwg2": Journey(
        "bwg2",
        "bwg2-legal-switch-sides-325.json",
        "bwg2-legal-switch-sides-325.json",
        [("a", 1, 2)],
        [("b", 2, (6,), f"Hollow-Eyed Hank: {PLAYING_DEAD}")],
        star=1,
    ),
    # Dara (a Regular) takes out Gwen (a Hero: 3) and wins (+2): a promotion. Bren takes
    # out Finn, who is badly wounded: the 2nd attribute above 1, ATT.
    "gf26": Journey(
        "gf26",
        "gf26-legal-iron-company.json",
        "gf26-legal-iron-company.json",
        [("a", 5, 2), ("b", 3, 7)],
        [("b", 2, (6,), f"Gwen: {PLAYING_DEAD}"), ("a", 7, (4, 2), f"Finn: {BADLY_WOUNDED}")],
        star=5,
    ),
    # Deputy Jim Hale (a Greenhorn) takes out Grey Wolf (an Old Hand: 2) and wins (+2);
    # the posse riders take out the braves (troopers: no XP, no death roll).
    "gunfight": Journey(
        "gunfight",
        "gunfight-legal-lawman-posse.json",
        "gunfight-legal-indian-war-party.json",
        [("a", 2, 1), ("a", 3, 3)],
        [("b", 1, (6,), f"Grey Wolf: {PLAYING_DEAD}")],
        star=2,
        rules={"old_hand_xp": 3},
    ),
}


def one_encounter(dice, journey: Journey):
    """Set up (defaults, plus the journey's house rules), join, start, play one
    encounter won by gang a, confirm, make the death rolls."""
    olive, alice, bob = (Player.make(n) for n in ("olive", "alice", "bob"))
    campaign = create_campaign(olive, journey.system, "Frontier", 3, **journey.rules)
    # The settings page reads back what the set-up page offered (and the change).
    offered = form_defaults(source(olive.client.get(reverse("campaign_create"))), "campaign-form")
    offered |= {f"{journey.system}-{k}": str(v) for k, v in journey.rules.items()}
    settings = form_defaults(
        source(olive.client.get(reverse("campaign_settings", args=[campaign.pk]))),
        "campaign-form",
    )
    ours = {k: v for k, v in offered.items() if k.startswith(f"{journey.system}-")}
    assert ours and {k: settings.get(k) for k in ours} == ours
    invite = invite_path(olive, campaign)
    a = join(alice, invite, example(alice.user, journey.first))
    b = join(bob, invite, example(bob.user, journey.second))
    start(olive, campaign)
    ids = {"a": a, "b": b}
    enc = begin(alice, campaign, a, b, scenario="Showdown at the well")
    lines = [
        {"kind": "out", "by": f"{ids[g]}/{by}", "to": f"{ids['b' if g == 'a' else 'a']}/{to}"}
        for g, by, to in journey.outs
    ]
    record(alice, campaign, enc, lines, a)
    page = read(bob.client.get(reverse("encounter_detail", args=[campaign.pk, enc])))
    assert "House rule: once the record is confirmed, each member taken out rolls 1D6" in page
    assert "no XP this encounter" in page and "skill row" not in page
    # the game's own word on death rolls (its progression's death_roll_note)
    assert ("Troopers and rabble make no death roll." in page) == (journey.system == "gunfight")
    page = do(bob, campaign, enc, "confirm", {"gang": b})
    for g, key, rolls, _ in journey.deaths:
        player = alice if g == "a" else bob
        with dice(*rolls):
            page = do(player, campaign, enc, "death", {"member": f"{ids[g]}/{key}"})
    for _, _, _, shown in journey.deaths:
        assert shown in page
    assert "XP awarded" in page and "reputation" not in page.lower()
    return olive, alice, bob, campaign, a, b, enc, page


@pytest.mark.parametrize("system", list(JOURNEYS))
def test_one_encounter_and_an_advance(db, content, dice, system):
    journey = JOURNEYS[system]
    olive, alice, bob, campaign, a, b, enc, page = one_encounter(dice, journey)
    star = f"{a}/{journey.star}"
    assert "Showdown at the well" in page
    mine = gang_page(alice, campaign, a)
    settings = read(olive.client.get(reverse("campaign_settings", args=[campaign.pk])))
    assert "Fixed once the campaign has started." in settings

    if system == "bwg1":
        # 3 + 2 = 5 XP: one attribute point; Emmett's RC 4 becomes 5.
        assert score_of(mine, "Emmett Dalton") == 5 and stat(mine, "Emmett Dalton", "RC") == "4"
        assert stat(mine, "Grat Dalton", "RC") == "1"  # badly wounded: RC 2 - 1
        assert "Badly wounded in encounter 1: RC -1." in member_cards(mine)["Grat Dalton"]
        assert "1 attribute point saved" in member_cards(mine)["Emmett Dalton"]
        assert "RC 4 → 5" in squash(member_html(mine, "Emmett Dalton"))
        mine = gang_step(alice, campaign, a, "advance", {"member": star, "choice": "rc"})
        assert stat(mine, "Emmett Dalton", "RC") == "5"
        assert "Spent an attribute point: RC +1." in member_cards(mine)["Emmett Dalton"]
        assert 'data-testid="advance-form"' not in member_html(mine, "Emmett Dalton")

    elif system == "gf26":
        # 3 + 2 = 5 XP: a promotion; Dara becomes a Veteran with Dash.
        assert stat(mine, "Finn", "ATT") == "1"  # badly wounded: ATT 2 - 1
        assert "Badly wounded in encounter 1: ATT 2 → 1." in member_cards(mine)["Finn"]
        dara = member_cards(mine)["Dara"]
        assert dara.startswith("Dara Regular · Human Bowman") and "1 promotion saved" in dara
        assert "Become a Veteran with Dash" in squash(member_html(mine, "Dara"))
        mine = gang_step(alice, campaign, a, "advance", {"member": star, "choice": "dash"})
        dara = member_cards(mine)["Dara"]
        assert dara.startswith("Dara Veteran · Human Bowman")
        assert "Promoted to Veteran with Dash." in dara
        assert "0 promotions saved" in dara

    elif system == "gunfight":
        # 2 + 2 = 4 XP, past the house rule's 3: Greenhorn to Old Hand, rolling an
        # ability: 10 is Quick Draw, which he has, so the die is rolled again: 3.
        jim = member_cards(mine)["Deputy Jim Hale"]
        assert "Character · Lawman · Greenhorn" in jim and "4 XP" in jim
        assert "Become Old Hand and roll a new ability" in squash(
            member_html(mine, "Deputy Jim Hale")
        )
        riders = member_cards(mine)["Posse riders"]
        assert riders.startswith("Posse riders Trooper") and "0 XP" in riders
        detail = read(alice.client.get(reverse("encounter_detail", args=[campaign.pk, enc])))
        assert "troopers and rabble gain no experience" in detail
        deaths = detail.split("Death rolls", 1)[1].split("XP awarded", 1)[0]
        assert "Grey Wolf" in deaths and "Braves" not in deaths  # nameless: no roll
        with dice(10, 3):
            mine = gang_step(alice, campaign, a, "advance", {"member": star, "choice": "promote"})
        jim = member_cards(mine)["Deputy Jim Hale"]
        assert "Character · Lawman · Old Hand" in jim
        assert "Became Old Hand: rolled 3, Dead Eye." in jim
        assert "Dead Eye:" in jim  # the ability's rules, on the card

    else:  # bwg2: no advance; the card's XP and the gang's Fame go up by what it earned.
        before = source(bob.client.get(reverse("campaign_gang", args=[campaign.pk, b])))
        fame = re.search(r'data-testid="roster-total">\s*Fame (\d+)', before)
        assert fame, "the gang's Fame is on its page"
        start_fame = int(fame.group(1))
        assert start_fame == 300  # Bob's gang earned nothing
        # The Captain: 2 (Hank's Victory Points) + 2 (the win); the others +2 each.
        earned = {"Captain Nathan Reinholdt": 4, "Hollow-Eyed Hank": 2, "Ghoul 1": 2, "Ghoul 2": 2}
        card_xp = {"Captain Nathan Reinholdt": 150, "Hollow-Eyed Hank": 80, "Ghoul 1": 35}
        card_xp["Ghoul 2"] = 35
        for name, xp in earned.items():
            assert score_of(mine, name) == xp
            assert stat(mine, name, "XP") == str(card_xp[name] + xp)  # the card's XP
        assert 'data-testid="advance-form"' not in mine
        fame = re.search(r'data-testid="roster-total">\s*Fame (\d+)', mine)
        assert fame and int(fame.group(1)) == start_fame + sum(earned.values())
        assert f'data-testid="gang-total">{sum(earned.values())}<' in mine
        detail = source(alice.client.get(reverse("campaign_detail", args=[campaign.pk])))
        first, second = table_rows(detail, "standings")
        assert first[2] == "alice" and first[3] == str(sum(earned.values()))
        assert second[2] == "bob" and second[3] == "0"


def test_a_purchase_from_the_purse_shows_on_the_gang_page(db, dice):
    _, alice, bob, campaign, a, _, _, page = one_encounter(dice, JOURNEYS["gf26"])
    assert "The Iron Company +$10 to the purse." in page
    mine = gang_page(alice, campaign, a)
    assert "The gang's purse: $10" in squash(mine) and "purse $10" in squash(mine)
    assert 'data-testid="purse-form"' in mine
    members = options(mine, "member")
    assert "Dara" in members
    page = gang_step(
        alice,
        campaign,
        a,
        "buy",
        {"item": "Healing draught", "price": "6", "member": members["Dara"]},
    )
    text = squash(page)
    assert "The gang's purse: $4" in text
    assert "Healing draught for Dara ($6)" in text
    assert "Bought Healing draught ($6)." in member_cards(page)["Dara"]
    # Too dear: refused beside the form, the purse unchanged.
    response = alice.client.post(
        reverse("campaign_gang_step", args=[campaign.pk, a, "buy"]),
        {"item": "Warhorse", "price": "5", "member": ""},
    )
    text = read(response)
    assert "The Iron Company has $4; Warhorse costs $5." in text
    assert "The gang's purse: $4" in text
    # The other player sees the purchase, without the form.
    theirs = gang_page(bob, campaign, a)
    assert "Healing draught for Dara ($6)" in squash(theirs)
    assert 'data-testid="purse-form"' not in theirs
