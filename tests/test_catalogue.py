"""The content catalogue and the weapons a user adds for themselves."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.urls import reverse

from builder.models import Gang, Item, Member
from tests.factories import build_gang

GOOD = {
    "name": "Colt Walker",
    "kind": "ranged",
    "hands": "1",
    "level": "5",
    "strength": "4",
    "traits": ["pistol"],
}


def carried_colt_walker(client, owner) -> tuple[Item, Gang, Member]:
    """Add the Colt Walker to the owner's catalogue and give it to a henchman."""
    client.post(reverse("weapon_list"), GOOD)
    item = Item.objects.get(name="Colt Walker")
    gang = build_gang(owner)
    henchman = gang.members.order_by("position")[1]
    url = reverse("member_action", args=[gang.pk, henchman.pk, "add_weapon"])
    client.post(url, {f"m{henchman.pk}-add_weapon-item": item.pk})
    assert henchman.member_items.filter(item=item).exists()
    return item, gang, henchman


def test_content_has_the_books_three_weapons_and_four_horses(content):
    weapons = {
        i.name: i.stats["level"]
        for i in Item.objects.filter(system="bwg1", category="weapon", is_sample=False, owner=None)
    }
    assert weapons == {"Bowie knife": 3, "Remington Army revolver": 4, "Winchester Repeater": 5}
    horses = {
        i.name: (i.stats["str"], i.stats["qui"], i.stats["sta"], i.stats["int"], i.stats["xp"])
        for i in Item.objects.filter(category="horse")
    }
    assert horses == {
        "Mule": (3, 3, 2, 2, 10),
        "Small horse": (4, 4, 3, 2, 20),
        "Large horse": (5, 5, 4, 3, 40),
        "War horse": (6, 6, 5, 3, 80),
    }
    # Anything else shipped is marked as sample content.
    others = Item.objects.filter(owner=None, system="bwg1", category="weapon").exclude(
        name__in=weapons
    )
    assert others.exists() and all(i.is_sample for i in others)


def test_loading_content_twice_changes_nothing(content):
    before = list(Item.objects.order_by("pk").values_list("pk", "name"))
    call_command("load_content", verbosity=0)
    assert list(Item.objects.order_by("pk").values_list("pk", "name")) == before


def test_catalogue_page_needs_a_login(client, content):
    response = client.get(reverse("weapon_list"))
    assert response.status_code == 302


def test_add_my_own_weapon_and_only_i_see_it(owner_client, stranger_client, content, owner):
    response = owner_client.post(reverse("weapon_list"), GOOD)
    assert response.status_code == 302
    item = Item.objects.get(name="Colt Walker")
    assert item.owner == owner
    assert item.stats == {
        "kind": "ranged",
        "hands": 1,
        "level": 5,
        "strength": "4",
        "traits": ["pistol"],
    }
    assert "Colt Walker" in owner_client.get(reverse("weapon_list")).content.decode()
    assert "Colt Walker" not in stranger_client.get(reverse("weapon_list")).content.decode()


def test_my_weapon_is_in_my_builder_and_not_in_anyone_elses(
    owner_client, stranger_client, owner, stranger, content
):
    owner_client.post(reverse("weapon_list"), GOOD)
    mine = build_gang(owner)
    theirs = build_gang(stranger)
    assert (
        "Colt Walker" in owner_client.get(reverse("gang_detail", args=[mine.pk])).content.decode()
    )
    assert (
        "Colt Walker"
        not in stranger_client.get(reverse("gang_detail", args=[theirs.pk])).content.decode()
    )


@pytest.mark.parametrize(
    ("change", "field_error"),
    [
        ({"name": ""}, "This field is required."),
        ({"level": "0"}, "greater than or equal to 1"),
        ({"level": "99"}, "less than or equal to 12"),
        ({"strength": "huge"}, "Write a number from 1 to 12"),
        ({"kind": "melee"}, "Pistol is a ranged trait"),
        ({"traits": ["parry"]}, "Parry is a melee trait"),
        ({"strength": "M+1"}, "strengths are for melee weapons"),
    ],
)
def test_bad_weapons_are_refused_with_the_reason(owner_client, content, change, field_error):
    response = owner_client.post(reverse("weapon_list"), {**GOOD, **change})
    assert response.status_code == 200
    assert field_error in response.content.decode()
    assert not Item.objects.filter(owner__isnull=False).exists()


def test_two_of_my_weapons_cannot_share_a_name(owner_client, content):
    owner_client.post(reverse("weapon_list"), GOOD)
    response = owner_client.post(reverse("weapon_list"), {**GOOD, "name": "colt walker"})
    assert "already has a weapon called “colt walker”" in response.content.decode()
    assert Item.objects.filter(owner__isnull=False).count() == 1


def test_edit_my_weapon_changes_the_xp_of_members_who_carry_it(owner_client, owner, content):
    item, gang, henchman = carried_colt_walker(owner_client, owner)
    before = gang.members.get(pk=henchman.pk)
    assert before.member_items.count() == 2
    owner_client.post(reverse("weapon_update", args=[item.pk]), {**GOOD, "level": "2"})
    item.refresh_from_db()
    assert item.stats["level"] == 2
    page = owner_client.get(reverse("gang_detail", args=[gang.pk])).content.decode()
    assert 'data-testid="fame">378<' in page  # 376 + the level-2 Colt Walker


def test_strangers_cannot_edit_or_delete_my_weapon(stranger_client, owner_client, content):
    owner_client.post(reverse("weapon_list"), GOOD)
    item = Item.objects.get(name="Colt Walker")
    assert stranger_client.get(reverse("weapon_update", args=[item.pk])).status_code == 404
    assert stranger_client.post(reverse("weapon_update", args=[item.pk]), GOOD).status_code == 404
    assert stranger_client.post(reverse("weapon_delete", args=[item.pk])).status_code == 404
    assert Item.objects.filter(pk=item.pk).exists()


def test_builtin_weapons_cannot_be_edited_by_users(owner_client, content):
    bowie = Item.objects.get(name="Bowie knife")
    assert owner_client.get(reverse("weapon_update", args=[bowie.pk])).status_code == 404
    assert owner_client.post(reverse("weapon_delete", args=[bowie.pk])).status_code == 404


def test_a_carried_weapon_cannot_be_deleted_until_it_is_taken_off(owner_client, owner, content):
    item, _gang, henchman = carried_colt_walker(owner_client, owner)
    page = owner_client.get(reverse("weapon_delete", args=[item.pk])).content.decode()
    assert "still carried by" in page and "Henchman 1" in page
    response = owner_client.post(reverse("weapon_delete", args=[item.pk]), follow=True)
    assert "is still carried" in response.content.decode()
    assert Item.objects.filter(pk=item.pk).exists()
    henchman.member_items.filter(item=item).delete()
    owner_client.post(reverse("weapon_delete", args=[item.pk]))
    assert not Item.objects.filter(pk=item.pk).exists()
