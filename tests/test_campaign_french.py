"""The campaign engine's own text in French (issue 16): a Rivals campaign's log, its refusals
and its reasons are built from translatable templates, so the same log replayed under French
reads in French, with every placeholder filled, and the English is unchanged."""

from __future__ import annotations

import pytest
from django.utils import translation

from rules.campaign import CampaignError, prepare
from tests.rules.test_campaign import JAMES, RED_JACK, SARAH, kill, rivals_campaign, wound

NBSP = "\u00a0"


def two_encounters():
    """Red Jack's Gang v The O'Neil Gang twice; Mark (James) dies after the second."""
    play = rivals_campaign()
    enc = play.begin()
    play.record(enc, wound(JAMES, RED_JACK, 4), winner="2")
    play.confirm(enc)
    enc = play.begin()
    play.record(enc, wound(SARAH, JAMES, 2), kill(SARAH, JAMES), winner="1")
    play.confirm(enc)
    play.do("death_rolled", 1, encounter=enc, member=JAMES)
    return play


def log_replayed_in(play, language: str) -> list[str]:
    with translation.override(language):
        return [line.text for line in play.state.log]


def test_the_log_replayed_in_french_reads_in_french():
    log = log_replayed_in(two_encounters(), "fr")
    assert log[0] == "Red Jack's Gang (ann) a rejoint la campagne avec 5 membres (30 CCP)."
    assert log[2] == "La campagne a commencé avec 2 gangs."
    assert log[3].startswith(f"Rencontre 1{NBSP}: Red Jack's Gang contre The O'Neil Gang à ")
    assert log[4] == (
        f"Rencontre 1 enregistrée{NBSP}: The O'Neil Gang a gagné{NBSP}; 1 événement. "
        "Provisoire jusqu'à ce que les deux confirment."
    )
    assert log[5].startswith(
        "The O'Neil Gang a confirmé le compte rendu de la rencontre 1. "
        f"Rencontre 1 réglée{NBSP}: Mark +6 Réputation (désormais 6, 1 CCP gagné){NBSP}; "
    )
    assert log[7].endswith("2 événements. Provisoire jusqu'à ce que les deux confirment.")
    assert log[8].endswith("Jets de mort à faire pour Mark.")
    assert log[9].startswith(
        f"Jet de mort de Mark{NBSP}: 1, Mort. Retiré du gang. Rencontre 2 réglée{NBSP}: "
        "Sarah +10 Réputation (désormais 10, 2 CCP gagnés)"
    )
    # no placeholder left unfilled, and nothing of the English templates left
    for line in log:
        assert "{" not in line and "}" not in line
        assert " joined " not in line and "Encounter" not in line and " now " not in line


def test_the_reasons_behind_the_reputation_are_in_french():
    play = two_encounters()
    with translation.override("fr"):
        enc = play.state.encounters[1]
        awards = [(a.reason, a.amount) for a in enc.awards_for(SARAH)]
    assert awards[:2] == [
        ("A blessé Mark (2 actions perdues)", 2),
        (f"A tué Mark{NBSP}: 4 actions (robustesse) + bonus de notoriété Drifter 2", 6),
    ]
    assert ("A gagné la rencontre", 2) in awards


def test_the_english_log_is_unchanged():
    log = log_replayed_in(two_encounters(), "en")
    assert log[0] == "Red Jack's Gang (ann) joined with 5 members (30 CCP)."
    assert log[2] == "The campaign began with 2 gangs."
    assert log[4] == (
        "Encounter 1 recorded: The O'Neil Gang won; 1 thing happened. "
        "Provisional until both confirm."
    )
    assert log[5].startswith(
        "The O'Neil Gang confirmed the record of encounter 1. "
        "Encounter 1 settled: Mark +6 Reputation (now 6, 1 CCP earned); "
    )
    assert log[9].startswith(
        "Death roll for Mark: 1, Dead. Removed from the gang. Encounter 2 settled: "
        "Sarah +10 Reputation (now 10, 2 CCP earned)"
    )


@pytest.mark.parametrize(
    ("language", "message"),
    [
        (
            "fr",
            f"The O'Neil Gang se bat au complet{NBSP}: recrutez d'abord un remplaçant pour Mark "
            "sur la page Recruter du gang (ou choisissez-y de vous battre en sous-effectif).",
        ),
        (
            "en",
            "The O'Neil Gang fights at full strength: recruit a replacement for Mark on the "
            "gang's Recruit page first (or choose there to fight short-handed).",
        ),
    ],
)
def test_a_refusal_is_in_the_readers_language_with_its_placeholders_filled(language, message):
    play = two_encounters()
    with translation.override(language), pytest.raises(CampaignError) as refused:
        play.begin()
    assert str(refused.value) == message
    assert refused.value.field == "gangs"


def test_a_record_line_refused_in_french_names_the_line_and_the_outlaw():
    play = rivals_campaign()
    enc = play.begin()
    with translation.override("fr"), pytest.raises(CampaignError) as refused:
        play.record(enc, wound(SARAH, RED_JACK, 1))
    assert str(refused.value) == (
        f"Ligne 1{NBSP}: seul un hors-la-loi d'un autre gang y gagne{NBSP}; "
        "Sarah et Red Jack chevauchent ensemble."
    )
    assert refused.value.field == "line-1"
    with translation.override("fr"), pytest.raises(CampaignError) as refused:
        play.record(enc, wound(JAMES, SARAH, 11))
    assert str(refused.value) == (
        f"Ligne 1{NBSP}: actions perdues{NBSP}: un nombre entre 1 et 10 est attendu, pas 11."
    )


def test_a_refusal_needing_no_placeholder_is_in_french_too():
    play = rivals_campaign()
    with translation.override("fr"), pytest.raises(CampaignError) as refused:
        prepare(play.state, "encounter_begun", {"gangs": ["1", "1"]})
    assert str(refused.value) == (
        f"Un gang ne peut pas s'affronter lui-même{NBSP}: choisissez deux gangs différents."
    )


def test_what_cannot_be_done_now_reads_as_one_french_sentence():
    play = two_encounters()
    play.do("campaign_finished")
    with translation.override("fr"), pytest.raises(CampaignError) as refused:
        prepare(play.state, "item_bought", {"member": SARAH, "item": "Rifle"})
    assert str(refused.value) == (
        f"Vous ne pouvez pas acheter quoi que ce soit{NBSP}: la campagne est terminée."
    )
    log = log_replayed_in(play, "fr")
    assert log[-1].startswith("La campagne s'est terminée avant le nombre de rencontres convenu. ")
    assert log[-1].endswith(
        f"convenu. Red Jack's Gang{NBSP}: Les hors-la-loi les plus recherchés de l'Ouest."
    )
    assert log_replayed_in(play, "en")[-1] == (
        "The campaign ended before the agreed number of encounters. "
        "Red Jack's Gang: The Most Wanted Outlaws in the Old West."
    )
