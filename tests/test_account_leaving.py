"""A player deletes their account: nothing waits on them for ever. What they owed becomes
the organiser's (listed in What waits on you, and the organiser may do it); pages say
"a former member" where the number is noise."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.urls import reverse

from accounts import services as accounts
from builder.services import import_gang
from campaigns import services as cs
from campaigns.leagues import services as ls
from campaigns.leagues.models import MatchReport
from notifications.waiting import waiting_for
from tests.test_notifications import (
    RED_JACK,
    SIX,
    Scripted,
    client_for,
    kinds,
    league,
    player,
    read_roster_file,
    text,
    user,
)


@pytest.fixture(autouse=True)
def fresh_cache():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def world(db):
    """A running Rivals campaign: Olive organises, Alice and Bob play."""
    olive, alice, bob = (user(n, f"{n}@example.com") for n in ("olive", "alice", "bob"))
    campaign = cs.create_campaign(
        olive, system="rivals", name="Deadrock", encounters=5, house_rules={}
    )
    a = cs.join_campaign(campaign, alice, import_gang(alice, read_roster_file(RED_JACK)))
    b = cs.join_campaign(campaign, bob, import_gang(bob, read_roster_file(SIX)))
    cs.record(campaign, olive, "campaign_started", {})
    return campaign, olive, alice, bob, str(a.pk), str(b.pk)


def _match(club):
    boss = club.members.get().user
    ann, ann_gang = player(club, "ann")
    bob, bob_gang = player(club, "bob")
    autumn = league(club, rounds=2)
    ls.register(autumn, ann, ann_gang)
    ls.register(autumn, bob, bob_gang)
    match = ls.next_round(autumn).pairings.get()
    return boss, ann, bob, autumn, match


def test_a_result_the_leaver_was_to_confirm_goes_to_the_organiser(club):
    boss, ann, bob, autumn, match = _match(club)
    reporter, leaver = (ann, bob) if match.a.player == ann else (bob, ann)
    report = ls.submit_report(match, reporter, {"vp_a": 12, "vp_b": 9, "winner": "a"})
    assert kinds(leaver) == ["confirm"] and kinds(boss) == []
    accounts.delete_account(leaver)
    items = waiting_for(boss)
    assert [i.kind for i in items] == ["dispute"]
    side_a, side_b = (
        "a former member" if side.player == leaver else side.player.username
        for side in (match.a, match.b)
    )
    assert items[0].text == (
        f"Settle the result of {side_a} v {side_b} (round 1 of Autumn): "
        "a player deleted their account."
    )
    assert items[0].url == reverse("match_detail", args=[autumn.pk, match.pk]) + "#settle"
    assert kinds(reporter) == []
    # the reporter's page says who decides now, not "waiting for former member #N"
    page = text(client_for(reporter).get(reverse("match_detail", args=[autumn.pk, match.pk])))
    assert "deleted their account before confirming: the organiser settles" in page
    assert "Waiting for former member" not in page
    # one player against a former member: the number is noise there
    sides = page.split('data-testid="match-sides"')[1].split("</p>")[0]
    assert "a former member" in sides and "former member #" not in sides
    # the organiser settles it; nothing waits any more
    ls.settle_report(report, boss, {"vp_a": 12, "vp_b": 9, "winner": "a"})
    assert kinds(boss) == ["round"] and kinds(reporter) == []  # next: pair round 2
    report.refresh_from_db()
    assert report.status == MatchReport.SETTLED


def test_a_result_the_leaver_reported_is_still_the_opponents_to_confirm(club):
    boss, ann, bob, _autumn, match = _match(club)
    ls.submit_report(match, bob, {"vp_a": 3, "vp_b": 9, "winner": "b"})
    accounts.delete_account(bob)
    assert kinds(ann) == ["confirm"] and kinds(boss) == []
    assert "a former member reported your round 1 match" in waiting_for(ann)[0].text


def test_an_unreported_match_against_a_leaver_goes_to_the_organiser(club):
    boss, ann, bob, _autumn, _pairing = _match(club)
    assert kinds(ann) == ["record"]
    accounts.delete_account(bob)
    assert kinds(ann) == []  # no game to play against someone who left
    items = waiting_for(boss)
    assert [i.kind for i in items] == ["dispute"]
    assert "a former member" in items[0].text and "#settle" in items[0].url
    page = text(client_for(boss).get(items[0].url.split("#")[0]))
    assert 'id="settle"' in page


def test_a_record_the_leaver_was_to_confirm_and_their_death_rolls_go_to_the_organiser(world):
    campaign, olive, alice, bob, a, b = world
    enc = cs.record(
        campaign, alice, "encounter_begun", {"gangs": [a, b]}, rng=Scripted(2)
    ).last_encounter.id
    happenings = [{"kind": "kill", "by": f"{a}/2", "to": f"{b}/2", "amount": 4}]
    cs.record(
        campaign,
        alice,
        "encounter_recorded",
        {"encounter": enc, "gang": a, "happenings": happenings, "winner": a},
    )
    assert kinds(bob) == ["confirm"] and kinds(olive) == []
    accounts.delete_account(bob)  # Olive organises; Bob's gang stays in the log
    items = waiting_for(olive)
    assert [i.kind for i in items] == ["confirm"]
    assert items[0].url.endswith("#step-confirm")
    # the organiser may confirm for the former member's gang (a player still may not)
    olive_client = client_for(olive)
    step = reverse("encounter_step", args=[campaign.pk, enc, "confirm"])
    assert client_for(alice).post(step, {"gang": b}).status_code == 403
    assert olive_client.post(step, {"gang": b}).status_code == 302
    # Bob's outlaw taken out: his death roll is the organiser's now
    items = waiting_for(olive)
    assert [i.kind for i in items] == ["death_roll"]
    assert items[0].url.endswith("#step-deaths")
    assert kinds(alice) == []
    # ...but not the CCP of a gang nobody plays any more
    assert "advance" not in kinds(olive)


def test_the_delete_page_names_what_will_show(db):
    ann = user("ann")
    page = text(client_for(ann).get(reverse("account_delete")))
    assert f"Your name there becomes “former member #{ann.pk}”" in page
    assert "lists of what waits say “a former member”" in page


def test_who_inherits_a_campaign_or_club_is_told_until_they_dismiss_it(world, club, background):
    from django.core import mail

    campaign, olive, alice, bob, _a, _b = world
    boss = club.members.get().user
    ann, _gang = player(club, "ann")  # no address
    ls.create_club(olive, name="Olive's Club")
    accounts.delete_account(olive)
    accounts.delete_account(boss)
    news = [i for i in waiting_for(alice) if i.kind == "notice"]
    assert [i.text for i in news] == [
        "You now organise Deadrock: its organiser deleted their account. Its players and "
        "results are as they were."
    ]
    assert news[0].url == reverse("campaign_detail", args=[campaign.pk])
    assert kinds(ann) == ["notice"]
    assert waiting_for(ann)[0].url == reverse("club_detail", args=[club.pk])
    page = text(client_for(alice).get(reverse("home")))
    assert "News for you" in page and 'data-testid="dismiss-notice"' in page
    # mailed once: the hand-over mail says it; the batch does not say it again
    background.run_all()
    assert [m.subject for m in mail.outbox if m.to == ["alice@example.com"]] == [
        "Gangfight: you now organise “Deadrock”"
    ]
    # only one's own notice can be dismissed; "Got it" removes it
    pk = int(news[0].key[1:])
    dismiss = reverse("notice_dismiss", args=[pk])
    assert client_for(bob).post(dismiss).status_code == 404
    assert client_for(alice).get(dismiss).status_code == 405
    response = client_for(alice).post(dismiss)
    assert response.status_code == 302 and response["Location"] == reverse("home")
    assert "notice" not in kinds(alice)


@pytest.fixture(autouse=True)
def _no_printing_ahead(no_printing_ahead):
    """This module runs background work for mail and counts, never for PDFs."""
