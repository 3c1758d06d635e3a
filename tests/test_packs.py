"""Content packs: a player's own content, private or public, picked per gang."""

from __future__ import annotations

import pytest
from django.urls import reverse

from builder.editors import Catalogue
from builder.models import ContentPack, Gang, Item
from builder.services import create_gang
from tests.factories import build_gang

WEAPON = {
    "name": "Colt Dragoon",
    "kind": "ranged",
    "hands": "1",
    "level": "4",
    "strength": "4",
    "traits": ["pistol"],
}


def make_pack(client, name="Border guns", *, public=False, use=True) -> ContentPack:
    data = {"system": "bwg1", "name": name, "description": "Guns from the border."}
    if public:
        data["is_public"] = "on"
    if use:
        data["use_in_my_gangs"] = "on"
    response = client.post(reverse("pack_list"), data)
    assert response.status_code == 302, response.content.decode()[:500]
    return ContentPack.objects.get(name=name)


def open_page(client, gang: Gang) -> str:
    """The gang's builder page with its first member open (its weapon menu drawn)."""
    first = gang.members.order_by("position").first()
    url = reverse("gang_detail", args=[gang.pk])
    return client.get(url, {"open": first.pk}).content.decode()


def add_to(client, gang: Gang, member, item: Item):
    """Give a member a weapon as the builder's weapon menu does."""
    url = reverse("member_action", args=[gang.pk, member.pk, "add_weapon"])
    return client.post(url, {f"m{member.pk}-add_weapon-item": item.pk})


def add_weapon(client, pack: ContentPack, **change) -> Item:
    response = client.post(reverse("entry_add", args=[pack.pk, "weapon"]), {**WEAPON, **change})
    assert response.status_code == 302, response.content.decode()[:500]
    return pack.items.get(name=change.get("name", WEAPON["name"]))


def test_make_a_pack_add_an_entry_and_a_gang_of_mine_uses_it(owner_client, owner, content):
    gang = build_gang(owner)
    pack = make_pack(owner_client)
    assert pack.owner == owner and not pack.is_public
    assert list(gang.packs.all()) == [pack]  # "use it in all my gangs"
    item = add_weapon(owner_client, pack)
    assert item.owner == owner and item.pack == pack
    page = open_page(owner_client, gang)
    assert "Colt Dragoon (level 4, ranged) · Border guns" in page
    detail = owner_client.get(reverse("pack_detail", args=[pack.pk])).content.decode()
    assert "Colt Dragoon" in detail and "Edit" in detail


def test_a_pack_not_picked_for_a_gang_is_not_in_its_catalogue(owner_client, owner, content):
    pack = make_pack(owner_client, use=False)
    add_weapon(owner_client, pack)
    gang = build_gang(owner)  # a new gang starts with its owner's packs picked
    assert list(gang.packs.all()) == [pack]
    owner_client.post(reverse("gang_packs", args=[gang.pk]), {})
    assert not gang.packs.exists()
    page = open_page(owner_client, gang)
    assert ">Colt Dragoon (level" not in page
    owner_client.post(reverse("gang_packs", args=[gang.pk]), {"packs-packs": [pack.pk]})
    page = open_page(owner_client, gang)
    assert ">Colt Dragoon (level" in page


def test_a_bad_entry_is_refused_beside_the_field_and_nothing_is_saved(owner_client, content):
    pack = make_pack(owner_client)
    url = reverse("entry_add", args=[pack.pk, "weapon"])
    response = owner_client.post(url, {**WEAPON, "level": "0"})
    assert response.status_code == 200
    assert "Ensure this value is greater than or equal to 1." in response.content.decode()
    add_weapon(owner_client, pack)
    response = owner_client.post(url, {**WEAPON, "name": "colt dragoon"})
    assert "already has a weapon called “colt dragoon”" in response.content.decode()
    assert pack.items.count() == 1


def test_a_pack_holds_only_its_systems_kinds(owner_client, content):
    pack = make_pack(owner_client)
    assert owner_client.get(reverse("entry_add", args=[pack.pk, "profile"])).status_code == 404


def test_another_user_never_sees_a_private_pack_or_its_content(
    owner_client, stranger_client, owner, stranger, content
):
    pack = make_pack(owner_client)
    item = add_weapon(owner_client, pack)
    assert stranger_client.get(reverse("pack_detail", args=[pack.pk])).status_code == 404
    assert "Border guns" not in stranger_client.get(reverse("pack_list")).content.decode()
    library = stranger_client.get(reverse("library", args=["bwg1"])).content.decode()
    assert "Colt Dragoon" not in library
    # Not on offer for their gangs, and picking it by id is refused.
    theirs = build_gang(stranger, name="Theirs")
    page = open_page(stranger_client, theirs)
    assert "Border guns" not in page and "Colt Dragoon" not in page
    response = stranger_client.post(
        reverse("gang_packs", args=[theirs.pk]), {"packs-packs": [pack.pk]}
    )
    assert response.status_code == 200 and "Select a valid choice" in response.content.decode()
    assert not theirs.packs.exists()
    henchman = theirs.members.order_by("position")[1]
    response = add_to(stranger_client, theirs, henchman, item)
    assert "That is not in your catalogue" in response.content.decode()
    assert not henchman.member_items.filter(item=item).exists()
    # Nor can they edit or delete its entries, or the pack.
    for name in ("entry_update", "entry_delete"):
        assert stranger_client.get(reverse(name, args=[item.pk])).status_code == 404
        assert stranger_client.post(reverse(name, args=[item.pk]), WEAPON).status_code == 404
    assert stranger_client.post(reverse("pack_delete", args=[pack.pk])).status_code == 404
    assert stranger_client.post(reverse("pack_detail", args=[pack.pk]), {}).status_code == 404
    assert Item.objects.get(pk=item.pk).name == "Colt Dragoon"


def test_a_public_pack_can_be_seen_and_picked_but_not_changed(
    owner_client, stranger_client, stranger, content
):
    pack = make_pack(owner_client, public=True)
    item = add_weapon(owner_client, pack)
    assert "Border guns" in stranger_client.get(reverse("pack_list")).content.decode()
    detail = stranger_client.get(reverse("pack_detail", args=[pack.pk]))
    assert detail.status_code == 200 and "Colt Dragoon" in detail.content.decode()
    assert reverse("entry_update", args=[item.pk]) not in detail.content.decode()
    assert stranger_client.post(reverse("pack_detail", args=[pack.pk]), {}).status_code == 404
    theirs = build_gang(stranger, name="Theirs")
    stranger_client.post(reverse("gang_packs", args=[theirs.pk]), {"packs-packs": [pack.pk]})
    assert list(theirs.packs.all()) == [pack]
    assert item in Catalogue.for_gang(theirs).items
    # Made private again: it leaves other players' catalogues at once.
    pack.is_public = False
    pack.save()
    assert item not in Catalogue.for_gang(Gang.objects.get(pk=theirs.pk)).items


def test_pack_pages_need_a_login(client, owner, content):
    pack = ContentPack.objects.create(owner=owner, system="bwg1", name="Mine", is_public=True)
    for url in (
        reverse("pack_list"),
        reverse("pack_detail", args=[pack.pk]),
        reverse("library", args=["bwg1"]),
        reverse("entry_add", args=[pack.pk, "weapon"]),
    ):
        response = client.get(url)
        assert response.status_code == 302 and response["Location"].startswith(reverse("login"))


def test_edit_and_delete_an_entry_and_a_pack(owner_client, owner, content):
    pack = make_pack(owner_client)
    item = add_weapon(owner_client, pack)
    response = owner_client.post(reverse("entry_update", args=[item.pk]), {**WEAPON, "level": "6"})
    assert response.status_code == 302
    item.refresh_from_db()
    assert item.stats["level"] == 6
    owner_client.post(reverse("entry_delete", args=[item.pk]))
    assert not Item.objects.filter(pk=item.pk).exists()
    response = owner_client.post(
        reverse("pack_detail", args=[pack.pk]),
        {"name": "Renamed", "description": "", "is_public": "on"},
    )
    assert response.status_code == 302
    pack.refresh_from_db()
    assert (pack.name, pack.is_public, pack.system) == ("Renamed", True, "bwg1")
    owner_client.post(reverse("pack_delete", args=[pack.pk]))
    assert not ContentPack.objects.filter(pk=pack.pk).exists()


def test_a_pack_whose_weapon_is_carried_is_not_deleted(owner_client, owner, content):
    pack = make_pack(owner_client)
    item = add_weapon(owner_client, pack)
    gang = build_gang(owner)
    henchman = gang.members.order_by("position")[1]
    add_to(owner_client, gang, henchman, item)
    assert henchman.member_items.filter(item=item).exists()
    response = owner_client.post(reverse("pack_delete", args=[pack.pk]), follow=True)
    assert "is still carried" in response.content.decode()
    assert ContentPack.objects.filter(pk=pack.pk).exists()


def test_two_packs_of_mine_cannot_share_a_name(owner_client, content):
    make_pack(owner_client)
    response = owner_client.post(
        reverse("pack_list"), {"system": "bwg1", "name": "border guns", "description": ""}
    )
    assert response.status_code == 200
    assert "You already have a pack with this name" in response.content.decode()
    assert ContentPack.objects.count() == 1


def test_library_marks_sample_content(owner_client, content):
    page = owner_client.get(reverse("library", args=["bwg1"])).content.decode()
    assert "Bowie knife" in page and "sample" in page and "book" in page
    assert owner_client.get(reverse("library", args=["nope"])).status_code == 404


def test_pack_text_is_escaped(owner_client, content):
    pack = make_pack(owner_client, name="<script>alert(1)</script>")
    add_weapon(owner_client, pack, name="<b>bold</b>")
    for url in (reverse("pack_detail", args=[pack.pk]), reverse("pack_list")):
        page = owner_client.get(url).content.decode()
        assert "<script>alert(1)</script>" not in page and "<b>bold</b>" not in page


@pytest.mark.django_db(transaction=True)
def test_the_migration_moves_a_users_own_weapons_into_a_pack_their_gangs_use():
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    executor = MigrationExecutor(connection)
    executor.migrate([("builder", "0002_gang_data")])
    old = executor.loader.project_state([("builder", "0002_gang_data")]).apps
    user = old.get_model("auth", "User").objects.create(username="old-timer")
    gang = old.get_model("builder", "Gang").objects.create(
        owner=user, system="bwg1", name="Old gang", share_token="t1"
    )
    old.get_model("builder", "Item").objects.create(
        owner=user, system="bwg1", category="weapon", name="Old gun", stats={"level": 2}
    )
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())
    item = Item.objects.get(name="Old gun")
    assert item.pack.name == "My weapons" and item.pack.owner_id == user.pk
    assert list(Gang.objects.get(pk=gang.pk).packs.all()) == [item.pack]


def test_a_new_gang_of_another_system_does_not_pick_bwg1_packs(owner_client, owner, content):
    make_pack(owner_client)
    gang = create_gang(owner, system="gf26", name="Iron", limit=500)
    assert not gang.packs.exists()
