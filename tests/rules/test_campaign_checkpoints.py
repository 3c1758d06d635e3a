"""A campaign's checkpoints (rules.campaign.Checkpoints, issue 31) give the state a replay
of the whole log gives, whatever came before: events added one by one, an undo, an event
changed behind the book's back, a shorter log, other settings."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from rules.campaign import Checkpoints, Event, replay

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from benchmarks.bench_campaign import play  # noqa: E402  (a seeded Rivals campaign)


def seen(state) -> str:
    """Everything a page reads of a state, as text (the progression aside: an object)."""
    fields = {k: v for k, v in vars(state).items() if k != "progression"}
    return repr(sorted(fields.items()))


@pytest.fixture(scope="module")
def log() -> list[Event]:
    return play(gangs=4, encounters=3, seed=7).events


def test_a_cold_replay_is_the_same_twice(log):
    assert seen(replay("rivals", log, agreed=3)) == seen(replay("rivals", log, agreed=3))


def test_events_added_one_by_one_give_the_whole_replay_at_every_step(log):
    book = Checkpoints("rivals", None, 3)
    for i in range(1, len(log) + 1):
        assert seen(book.replay(log[:i])) == seen(replay("rivals", log[:i], agreed=3)), i


def test_an_undo_strikes_out_the_same_events(log):
    begun = [e.seq for e in log if e.kind == "encounter_begun"]
    assert len(begun) >= 2
    for encounter in begun:
        undo = Event(len(log) + 1, "encounter_undone", {"encounter": encounter, "number": 0})
        book = Checkpoints("rivals", None, 3)
        book.replay(log)
        after = seen(book.replay([*log, undo]))
        assert after == seen(replay("rivals", [*log, undo], agreed=3))
        assert "undone=True" in after  # it did strike something out
        more = Event(len(log) + 2, "campaign_finished", {})
        assert seen(book.replay([*log, undo, more])) == seen(
            replay("rivals", [*log, undo, more], agreed=3)
        )


def test_a_changed_or_shorter_log_starts_again(log):
    book = Checkpoints("rivals", None, 3)
    book.replay(log)
    shorter = log[: len(log) // 2]
    assert seen(book.replay(shorter)) == seen(replay("rivals", shorter, agreed=3))
    changed = [*shorter[:-1], Event(shorter[-1].seq, shorter[-1].kind, shorter[-1].data, by="x")]
    assert seen(book.replay(changed)) == seen(replay("rivals", changed, agreed=3))


def test_a_book_says_which_settings_it_replays():
    book = Checkpoints("rivals", {"x": 1}, 3)
    assert book.fits("rivals", {"x": 1}, 3)
    assert not book.fits("rivals", {"x": 1}, 4)
    assert not book.fits("bwg1", {"x": 1}, 3)
    assert not book.fits("rivals", None, 3)


def test_checking_a_new_event_against_the_state_changes_nothing_the_book_keeps():
    """``campaigns.services.record`` asks ``prepare`` about the book's state, then for the
    state after: ``prepare`` must leave the state as it found it."""
    import contextlib
    import random

    from rules.campaign import CampaignError, prepare
    from rules.dice import Dice

    campaign = play(gangs=4, encounters=3, seed=11)
    log, raw = campaign.events, campaign.raw
    book = Checkpoints("rivals", None, 3)
    rng = random.Random(3)
    for i, (kind, data) in enumerate(raw):
        before = book.replay(log[:i])
        with contextlib.suppress(CampaignError):  # (an advance the log took otherwise)
            prepare(before, kind, data, Dice(rng))
        assert seen(book.replay(log[: i + 1])) == seen(replay("rivals", log[: i + 1], agreed=3))
