"""My gangs, copying a gang, its history page, and how builder actions log their dice."""

from __future__ import annotations

import random

import pytest
from django import forms
from django.urls import reverse
from django.utils.html import escape

from builder import services
from builder.editors import ActionForm, Catalogue
from builder.models import DiceRoll, Gang, MemberItem
from builder.services import import_gang
from rules.roster import read_roster
from tests.factories import build_gang
from tests.test_roster_files import EXAMPLES


def test_my_gangs_shows_each_systems_total_and_a_legal_badge(owner_client, owner, content):
    for path in EXAMPLES:
        import_gang(owner, read_roster(path.read_bytes()))
    page = owner_client.get(reverse("gang_list")).content.decode()
    for gang in Gang.objects.all():
        assert escape(gang.name) in page
    for label in ("Fame", "Points", "CCP", "Figures"):
        assert f"</strong> {label}" in page
    legal = sum("-legal-" in p.name for p in EXAMPLES)
    assert page.count('class="badge ok">Legal<') == legal
    assert page.count('class="badge error">Illegal') == len(EXAMPLES) - legal
    for system in ("Blackwater Gulch 2nd edition", "Gangfight Core Rules 2.6", "Gunfight v2"):
        assert system in page


def test_copy_a_gang_gets_the_same_members_items_and_packs_and_a_new_share_link(
    owner_client, owner, content
):
    gang = build_gang(owner, name="The Daltons")
    pack = services.my_weapons_pack(owner)
    DiceRoll.objects.create(gang=gang, purpose="test", sides=6, dice=[3], total=3)
    page = owner_client.get(reverse("gang_clone", args=[gang.pk])).content.decode()
    assert "Copy “The Daltons”?" in page
    response = owner_client.post(reverse("gang_clone", args=[gang.pk]))
    copy = Gang.objects.get(name="Copy of The Daltons")
    assert response["Location"] == reverse("gang_detail", args=[copy.pk])
    assert copy.share_token != gang.share_token and copy.owner == owner
    assert list(copy.packs.all()) == [pack]

    def shape(g: Gang):
        return [
            (m.position, m.name, m.data, [mi.item_id for mi in m.member_items.all()])
            for m in g.members.order_by("position")
        ]

    assert shape(copy) == shape(gang)
    assert not copy.dice_rolls.exists()
    # Changing the copy leaves the original alone.
    MemberItem.objects.filter(member__gang=copy).delete()
    copy.members.first().delete()
    assert len(shape(gang)) == 5 and all(items for *_, items in shape(gang))


def test_a_copy_of_each_system_exports_the_same_roster(owner, content):
    from builder.roster import export_roster

    for path in EXAMPLES:
        gang = import_gang(owner, read_roster(path.read_bytes()))
        copy = services.clone_gang(gang)
        original, copied = export_roster(gang), export_roster(copy)
        assert copied["name"] == "Copy of " + original["name"]
        assert {**copied, "name": original["name"]} == original


class RollTwice(ActionForm):
    """A made-up action that rolls, for testing the plumbing every real one uses."""

    action = "roll-twice"
    label = "Roll twice"
    rolls = True
    note = forms.CharField(required=False)

    def apply(self, ctx) -> None:
        first = ctx.dice.roll(2, 6, "first throw")
        second = ctx.dice.d6("second throw")
        ctx.outcome = f"{first.total} then {second}"
        ctx.gang.data = {"note": self.cleaned_data["note"]}
        ctx.gang.save(update_fields=["data"])


def test_every_roll_an_action_makes_is_stored_with_who_when_and_each_die(owner, content):
    gang = build_gang(owner)
    form = RollTwice({"roll-twice-note": "hi"}, gang=gang, catalogue=Catalogue.for_gang(gang))
    assert form.is_valid()
    before = gang.version
    ctx = services.run_action(form, user=owner)
    rolls = list(DiceRoll.objects.order_by("id"))
    assert [r.purpose for r in rolls] == ["first throw", "second throw"]
    assert [len(r.dice) for r in rolls] == [2, 1]
    assert [r.total for r in rolls] == [sum(r.dice) for r in rolls]
    assert all(r.user == owner and r.action == "Roll twice" for r in rolls)
    assert all(r.outcome == ctx.outcome for r in rolls)
    assert [roll.dice for roll in ctx.dice.log] == [tuple(r.dice) for r in rolls]
    assert isinstance(ctx.dice.source, random.SystemRandom)
    assert Gang.objects.get(pk=gang.pk).version == before + 1


def test_an_action_that_fails_stores_no_rolls_and_changes_nothing(owner, content):
    gang = build_gang(owner)

    class Boom(RollTwice):
        def apply(self, ctx) -> None:
            ctx.dice.d6("doomed")
            raise RuntimeError("boom")

    form = Boom({}, gang=gang, catalogue=Catalogue.for_gang(gang))
    assert form.is_valid()
    with pytest.raises(RuntimeError):
        services.run_action(form, user=owner)
    assert not DiceRoll.objects.exists()
    assert Gang.objects.get(pk=gang.pk).version == gang.version


def test_history_page_lists_every_roll_with_its_dice(owner_client, owner, client, content):
    gang = build_gang(owner)
    DiceRoll.objects.create(
        gang=gang,
        user=owner,
        action="Roll a special skill",
        member_name="Red Jack",
        purpose="special skill: <gunfighter> table",
        sides=6,
        dice=[4],
        total=4,
        outcome="Gunfighter 4 → Quick Draw",
    )
    DiceRoll.objects.create(gang=gang, purpose="two dice", sides=10, dice=[2, 9], total=11)
    page = owner_client.get(reverse("gang_history", args=[gang.pk])).content.decode()
    assert page.count('data-testid="roll"') == 2
    assert "Red Jack" in page and "Gunfighter 4 → Quick Draw" in page
    assert "&lt;gunfighter&gt;" in page  # escaped
    assert (
        '<span class="die" data-testid="die">2</span><span class="die" data-testid="die">9</span>'
        in page
    )
    assert "2D10" in page and ">owner<" in page
    empty = build_gang(owner, name="Quiet")
    assert (
        "rolled no dice"
        in owner_client.get(reverse("gang_history", args=[empty.pk])).content.decode()
    )


def test_anonymous_visitor_opens_the_share_link_and_nothing_else(client, owner, content):
    gang = build_gang(owner)
    pack = services.my_weapons_pack(owner)
    assert client.get(reverse("gang_shared", args=[gang.share_token])).status_code == 200
    for url in (
        reverse("gang_detail", args=[gang.pk]),
        reverse("gang_history", args=[gang.pk]),
        reverse("gang_export", args=[gang.pk]),
        reverse("gang_clone", args=[gang.pk]),
        reverse("pack_detail", args=[pack.pk]),
        reverse("gang_list"),
    ):
        response = client.get(url)
        assert response.status_code == 302 and response["Location"].startswith(reverse("login"))


def test_every_editor_action_and_content_kind_does_something():
    """The base classes' apply() and stats() only raise: each real one must define its own."""
    from builder.editors import EntryForm, all_editors

    editors = all_editors()
    assert {e.system_id for e in editors} == {"bwg1", "bwg2", "gf26", "rivals", "gunfight"}
    for editor in editors:
        assert editor.edits_in_browser, editor.system_id
        for actions in (editor.gang_actions, editor.member_actions):
            for name, form_class in actions.items():
                assert form_class.action == name
                assert form_class.apply is not ActionForm.apply, (editor.system_id, name)
        for kind in editor.content_kinds:
            assert kind.stats is not EntryForm.stats, (editor.system_id, kind.category)
