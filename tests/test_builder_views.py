"""The builder's views: who may do what, htmx fragments, plain posts, bad input."""

from __future__ import annotations

import re
from urllib.parse import quote

import pytest
from django.test import Client
from django.urls import resolve, reverse

from builder.models import Gang, Item, Member
from builder.services import my_weapons_pack
from tests.factories import build_gang, horse, weapon

HX = {"HTTP_HX_REQUEST": "true"}


def first_member(gang: Gang) -> Member:
    return gang.members.order_by("position").first()


def member_urls(gang: Gang) -> dict[str, tuple[str, str, dict]]:
    """Every member-level endpoint: name -> (method, url, valid data)."""
    m = first_member(gang)
    mi = m.member_items.first()
    return {
        "update": (
            "post",
            reverse("member_update", args=[gang.pk, m.pk]),
            {"name": "Renamed", "member_type": "leader", "profession": "gambler"},
        ),
        "points": ("post", reverse("member_points", args=[gang.pk, m.pk]), {"change": "str:-"}),
        "weapon_add": (
            "post",
            reverse("member_weapon_add", args=[gang.pk, m.pk]),
            {"item": weapon("Bowie knife").pk},
        ),
        "weapon_remove": (
            "post",
            reverse("member_weapon_remove", args=[gang.pk, m.pk, mi.pk]),
            {},
        ),
        "horse": ("post", reverse("member_horse", args=[gang.pk, m.pk]), {"item": ""}),
        "move": ("post", reverse("member_move", args=[gang.pk, m.pk]), {"direction": "down"}),
        "delete": ("post", reverse("member_delete", args=[gang.pk, m.pk]), {}),
        "delete_confirm": ("get", reverse("member_delete", args=[gang.pk, m.pk]), {}),
    }


def gang_urls(gang: Gang) -> dict[str, tuple[str, str, dict]]:
    return {
        "detail": ("get", reverse("gang_detail", args=[gang.pk]), {}),
        "settings": (
            "post",
            reverse("gang_update", args=[gang.pk]),
            {"gang-name": "New name", "gang-limit": "500"},
        ),
        "delete_confirm": ("get", reverse("gang_delete", args=[gang.pk]), {}),
        "delete": ("post", reverse("gang_delete", args=[gang.pk]), {}),
        "share_reset": ("post", reverse("gang_share_reset", args=[gang.pk]), {}),
        "pdf": ("get", reverse("gang_sheet_pdf", args=[gang.pk]), {}),
        "export": ("get", reverse("gang_export", args=[gang.pk]), {}),
        "packs": ("post", reverse("gang_packs", args=[gang.pk]), {}),
        "history": ("get", reverse("gang_history", args=[gang.pk]), {}),
        "clone_confirm": ("get", reverse("gang_clone", args=[gang.pk]), {}),
        "clone": ("post", reverse("gang_clone", args=[gang.pk]), {}),
        "member_add": (
            "post",
            reverse("member_add", args=[gang.pk]),
            {"new-name": "Kid", "new-member_type": "henchman"},
        ),
    }


def all_urls(gang: Gang) -> dict[str, tuple[str, str, dict]]:
    urls = {f"gang:{k}": v for k, v in gang_urls(gang).items()}
    urls.update({f"member:{k}": v for k, v in member_urls(gang).items()})
    return urls


ENDPOINTS = [
    *(f"gang:{k}" for k in ("detail", "settings", "delete_confirm", "delete", "share_reset")),
    *(f"gang:{k}" for k in ("pdf", "export", "member_add", "packs", "history")),
    *(f"gang:{k}" for k in ("clone_confirm", "clone")),
    *(f"member:{k}" for k in ("update", "points", "weapon_add", "weapon_remove", "horse")),
    *(f"member:{k}" for k in ("move", "delete", "delete_confirm")),
]


@pytest.mark.parametrize("endpoint", ENDPOINTS)
def test_anonymous_is_sent_to_log_in_and_nothing_changes(client, gang, endpoint):
    method, url, data = all_urls(gang)[endpoint]
    before = Gang.objects.get(pk=gang.pk).version
    response = getattr(client, method)(url, data)
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))
    assert Gang.objects.get(pk=gang.pk).version == before


@pytest.mark.parametrize("endpoint", ENDPOINTS)
def test_another_user_gets_404_and_nothing_changes(stranger_client, gang, endpoint):
    method, url, data = all_urls(gang)[endpoint]
    before = (Gang.objects.get(pk=gang.pk).version, gang.members.count(), gang.name)
    response = getattr(stranger_client, method)(url, data)
    assert response.status_code == 404
    gang.refresh_from_db()
    assert (gang.version, gang.members.count(), gang.name) == before
    assert Gang.objects.count() == 1


@pytest.mark.parametrize("endpoint", ENDPOINTS)
def test_owner_can_use_every_endpoint(owner_client, gang, endpoint):
    method, url, data = all_urls(gang)[endpoint]
    response = getattr(owner_client, method)(url, data)
    assert response.status_code in (200, 302)
    if method == "post" and endpoint != "gang:share_reset":
        assert response.status_code == 302  # a plain post redirects after the change


def test_member_of_another_gang_is_404_even_for_a_gang_owner(owner_client, owner, gang):
    """A member id from a gang that isn't the one in the URL is never found."""
    other = build_gang(owner, name="Other gang")
    outsider = first_member(other)
    url = reverse("member_points", args=[gang.pk, outsider.pk])
    assert owner_client.post(url, {"change": "str:-"}).status_code == 404


def test_my_gangs_lists_only_my_gangs_with_fame_and_legality(
    owner_client, owner, stranger, content
):
    build_gang(owner, name="Mine, legal")
    illegal = build_gang(owner, name="Mine, too small")
    first_member(illegal).delete()
    build_gang(stranger, name="Not mine")
    page = owner_client.get(reverse("gang_list")).content.decode()
    assert "Mine, legal" in page and "Mine, too small" in page
    assert "Not mine" not in page
    assert "376" in page  # the legal gang's Fame
    assert "Legal" in page and "error" in page


def test_anonymous_home_and_my_gangs(client, db):
    assert client.get(reverse("home")).status_code == 200
    response = client.get(reverse("gang_list"))
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))


def test_create_gang_then_its_builder_page(owner_client, content):
    response = owner_client.post(
        reverse("gang_create"), {"name": "  Red Jack's Gang ", "system": "bwg1", "limit": ""}
    )
    gang = Gang.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("gang_detail", args=[gang.pk])
    assert gang.name == "Red Jack's Gang" and gang.limit is None
    page = owner_client.get(response["Location"]).content.decode()
    assert "Red Jack&#x27;s Gang" in page
    assert "bwg1.too_few_members" in page and "bwg1.no_leader" in page


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"name": "", "system": "bwg1"}, "This field is required."),
        ({"name": "   ", "system": "bwg1"}, "This field is required."),
        ({"name": "X", "system": "nope"}, "Select a valid choice."),
        ({"name": "X", "system": "bwg1", "limit": "0"}, "greater than or equal to 1"),
        ({"name": "X", "system": "bwg1", "limit": "lots"}, "Enter a whole number."),
    ],
)
def test_create_gang_with_bad_input_shows_the_error_and_saves_nothing(owner_client, data, message):
    response = owner_client.post(reverse("gang_create"), data)
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not Gang.objects.exists()


def test_htmx_gets_the_builder_fragment_and_a_plain_get_gets_the_page(owner_client, gang):
    url = reverse("gang_detail", args=[gang.pk])
    page = owner_client.get(url).content.decode()
    fragment = owner_client.get(url, **HX).content.decode()
    assert page.lstrip().startswith("<!doctype html>")
    assert 'id="builder"' in page and 'id="builder"' in fragment
    assert "<html" not in fragment and "Download gang sheet" not in fragment


def test_points_change_through_htmx_returns_the_updated_fragment(owner_client, gang):
    leader = first_member(gang)
    url = reverse("member_points", args=[gang.pk, leader.pk])
    response = owner_client.post(url, {"change": "mc:-"}, **HX)
    body = response.content.decode()
    assert response.status_code == 200 and "<html" not in body
    leader.refresh_from_db()
    assert leader.data["points"]["mc"] == 3
    assert "bwg1.points_unspent" in body  # the panel updated in the same response
    assert re.search(r'data-testid="points-left"><strong>1</strong>', body)


def test_points_change_as_a_plain_post_redirects_back_to_the_member(owner_client, gang):
    leader = first_member(gang)
    url = reverse("member_points", args=[gang.pk, leader.pk])
    response = owner_client.post(url, {"change": "mc:-"})
    assert response.status_code == 302
    assert response["Location"] == reverse("gang_detail", args=[gang.pk]) + f"#member-{leader.pk}"


@pytest.mark.parametrize("htmx", [True, False])
def test_an_impossible_point_change_shows_why_beside_the_points(owner_client, gang, htmx):
    leader = first_member(gang)
    url = reverse("member_points", args=[gang.pk, leader.pk])
    response = owner_client.post(url, {"change": "str:+"}, **(HX if htmx else {}))
    assert response.status_code == 200
    assert "No attribute points left" in response.content.decode()
    leader.refresh_from_db()
    assert leader.data["points"]["str"] == 2


def test_points_cannot_go_below_the_starting_value_or_above_six(owner_client, gang):
    henchman = gang.members.order_by("position")[1]
    url = reverse("member_points", args=[gang.pk, henchman.pk])
    for _ in range(2):
        owner_client.post(url, {"change": "str:-"})
    response = owner_client.post(url, {"change": "str:-"}, **HX)
    assert "No points are spent on Str" in response.content.decode()
    leader = first_member(gang)
    url = reverse("member_points", args=[gang.pk, leader.pk])
    owner_client.post(url, {"change": "qui:-"})
    response = owner_client.post(url, {"change": "sta:+"}, **HX)  # Sta is already 6
    assert "Sta is already 6" in response.content.decode()
    assert response.status_code == 200


def test_garbage_point_change_is_a_form_error_not_a_crash(owner_client, gang):
    leader = first_member(gang)
    url = reverse("member_points", args=[gang.pk, leader.pk])
    response = owner_client.post(url, {"change": "luck:+"}, **HX)
    assert response.status_code == 200
    assert "Select a valid choice" in response.content.decode()


def test_update_member_and_turning_into_a_henchman_clears_the_profession(owner_client, gang):
    gun = gang.members.get(name="Gun 4")
    url = reverse("member_update", args=[gang.pk, gun.pk])
    owner_client.post(url, {"name": "Doc", "member_type": "professional", "profession": "doctor"})
    gun.refresh_from_db()
    assert (gun.name, gun.data["type"], gun.data["profession"]) == ("Doc", "professional", "doctor")
    owner_client.post(url, {"name": "Doc", "member_type": "henchman", "profession": "doctor"})
    gun.refresh_from_db()
    assert (gun.data["type"], gun.data["profession"]) == ("henchman", "")


def test_update_member_with_a_bad_type_shows_the_error(owner_client, gang):
    leader = first_member(gang)
    url = reverse("member_update", args=[gang.pk, leader.pk])
    response = owner_client.post(url, {"name": "Bill", "member_type": "sheriff"}, **HX)
    assert response.status_code == 200
    assert "Select a valid choice" in response.content.decode()
    leader.refresh_from_db()
    assert leader.data["type"] == "leader"


def test_add_member_goes_last_and_a_nameless_one_is_refused(owner_client, gang):
    url = reverse("member_add", args=[gang.pk])
    response = owner_client.post(url, {"new-name": "", "new-member_type": "henchman"}, **HX)
    assert response.status_code == 200
    assert "This field is required." in response.content.decode()
    assert gang.members.count() == 5
    owner_client.post(url, {"new-name": "The Kid", "new-member_type": "henchman"})
    assert list(gang.members.values_list("name", flat=True))[-1] == "The Kid"


def test_weapons_add_and_remove_change_xp_and_fame(owner_client, gang):
    henchman = gang.members.order_by("position")[1]
    add = reverse("member_weapon_add", args=[gang.pk, henchman.pk])
    body = owner_client.post(add, {"item": weapon("Remington Army revolver").pk}, **HX)
    assert 'data-testid="fame">380<' in body.content.decode()
    mi = henchman.member_items.get(item__name="Remington Army revolver")
    remove = reverse("member_weapon_remove", args=[gang.pk, henchman.pk, mi.pk])
    body = owner_client.post(remove, **HX)
    assert 'data-testid="fame">376<' in body.content.decode()


def test_adding_no_weapon_or_someone_elses_weapon_is_refused(owner_client, gang, stranger):
    secret = Item.objects.create(
        owner=stranger,
        pack=my_weapons_pack(stranger),
        system="bwg1",
        category="weapon",
        name="Secret gun",
        stats={"kind": "ranged", "level": 1, "hands": 1, "strength": "", "traits": []},
    )
    henchman = gang.members.order_by("position")[1]
    url = reverse("member_weapon_add", args=[gang.pk, henchman.pk])
    response = owner_client.post(url, {"item": ""}, **HX)
    assert "Choose one from the list first." in response.content.decode()
    response = owner_client.post(url, {"item": secret.pk}, **HX)
    assert "That is not in your catalogue" in response.content.decode()
    assert not henchman.member_items.filter(item=secret).exists()


def test_a_member_has_one_horse_and_its_xp_counts_toward_fame(owner_client, gang):
    henchman = gang.members.order_by("position")[1]
    url = reverse("member_horse", args=[gang.pk, henchman.pk])
    owner_client.post(url, {"item": horse("Mule").pk})
    body = owner_client.post(url, {"item": horse("War horse").pk}, **HX).content.decode()
    assert list(henchman.member_items.values_list("item__name", flat=True)) == [
        "Bowie knife",
        "War horse",
    ]
    assert 'data-testid="fame">456<' in body  # 376 + 80
    body = owner_client.post(url, {"item": ""}, **HX).content.decode()
    assert 'data-testid="fame">376<' in body


def test_moving_a_member_changes_who_gets_the_profession_bonus(owner_client, gang):
    """Recruitment order is member order: the first Gunslinger gets +1 RC."""
    guns = list(gang.members.filter(data__type="professional").order_by("position"))
    second = guns[1]
    url = reverse("member_move", args=[gang.pk, second.pk])
    owner_client.post(url, {"direction": "up"})
    owner_client.post(url, {"direction": "up"})
    body = owner_client.get(reverse("gang_detail", args=[gang.pk])).content.decode()
    assert f"Gunslinger +1 RC → {second.name}" in body
    order = list(gang.members.order_by("position").values_list("name", flat=True))
    assert order.index(second.name) < order.index(guns[0].name)


def test_moving_the_first_member_up_changes_nothing(owner_client, gang):
    leader = first_member(gang)
    before = list(gang.members.values_list("pk", flat=True))
    owner_client.post(reverse("member_move", args=[gang.pk, leader.pk]), {"direction": "up"})
    assert list(gang.members.values_list("pk", flat=True)) == before


def test_delete_member_with_confirmation_page_then_post(owner_client, gang):
    leader = first_member(gang)
    url = reverse("member_delete", args=[gang.pk, leader.pk])
    page = owner_client.get(url)
    assert page.status_code == 200 and "Remove Bill Dalton" in page.content.decode()
    assert gang.members.filter(pk=leader.pk).exists()
    body = owner_client.post(url, **HX).content.decode()
    assert not gang.members.filter(pk=leader.pk).exists()
    assert "bwg1.no_leader" in body


def test_gang_settings_update_and_bad_limit(owner_client, gang):
    url = reverse("gang_update", args=[gang.pk])
    body = owner_client.post(url, {"gang-name": "X", "gang-limit": "-3"}, **HX).content.decode()
    assert "greater than or equal to 1" in body
    gang.refresh_from_db()
    assert gang.limit is None
    body = owner_client.post(url, {"gang-name": "Daltons", "gang-limit": "350"}, **HX)
    body = body.content.decode()
    gang.refresh_from_db()
    assert (gang.name, gang.limit) == ("Daltons", 350)
    assert "bwg1.fame_over_limit" in body and "Fame 376 is over the gang" in body


def test_delete_gang(owner_client, gang):
    url = reverse("gang_delete", args=[gang.pk])
    assert "Delete “The Dalton Boys”?" in owner_client.get(url).content.decode()
    response = owner_client.post(url)
    assert response.status_code == 302 and not Gang.objects.filter(pk=gang.pk).exists()


def test_every_change_bumps_the_gang_version(owner_client, gang):
    before = gang.version
    leader = first_member(gang)
    owner_client.post(reverse("member_points", args=[gang.pk, leader.pk]), {"change": "mc:-"})
    gang.refresh_from_db()
    assert gang.version == before + 1


# --------------------------------------------------------------------------- sharing


def test_share_link_is_read_only_for_anyone(client, gang):
    url = reverse("gang_shared", args=[gang.share_token])
    page = client.get(url).content.decode()
    assert "Bill Dalton" in page and "376" in page
    assert "member_points" not in page and 'name="change"' not in page
    assert client.get(reverse("gang_shared_pdf", args=[gang.share_token])).status_code == 200


def test_share_token_is_unguessable_and_a_wrong_one_is_404(client, gang):
    assert len(gang.share_token) >= 32
    assert client.get(reverse("gang_shared", args=["not-the-token"])).status_code == 404


def test_resetting_the_share_link_kills_the_old_one(owner_client, client, gang):
    old = gang.share_token
    owner_client.post(reverse("gang_share_reset", args=[gang.pk]))
    gang.refresh_from_db()
    assert gang.share_token != old
    assert client.get(reverse("gang_shared", args=[old])).status_code == 404
    assert client.get(reverse("gang_shared", args=[gang.share_token])).status_code == 200


# --------------------------------------------------------------------------- safety


def test_user_text_is_escaped_everywhere(owner_client, client, owner, content):
    nasty = '<script>alert("x")</script><img src=x onerror=alert(1)>'
    gang = build_gang(owner, name=nasty)
    leader = first_member(gang)
    leader.name = nasty
    leader.save()
    pages = [
        owner_client.get(reverse("gang_detail", args=[gang.pk])),
        owner_client.get(reverse("gang_list")),
        client.get(reverse("gang_shared", args=[gang.share_token])),
        owner_client.get(reverse("member_delete", args=[gang.pk, leader.pk])),
    ]
    for response in pages:
        body = response.content.decode()
        assert "<script>alert" not in body
        assert "<img src=x" not in body
        assert "&lt;script&gt;alert" in body


def test_csrf_token_is_in_hx_headers_and_required(owner, gang):
    client = Client(enforce_csrf_checks=True)
    client.force_login(owner)
    page = client.get(reverse("gang_detail", args=[gang.pk])).content.decode()
    match = re.search(r"<body hx-headers='\{\"X-CSRFToken\": \"([^\"]+)\"\}'>", page)
    assert match, "the CSRF token must be in hx-headers on <body>"
    leader = first_member(gang)
    url = reverse("member_points", args=[gang.pk, leader.pk])
    refused = client.post(url, {"change": "mc:-"}, **HX)
    assert refused.status_code == 403
    leader.refresh_from_db()
    assert leader.data["points"]["mc"] == 4
    accepted = client.post(url, {"change": "mc:-"}, HTTP_X_CSRFTOKEN=match.group(1), **HX)
    assert accepted.status_code == 200
    leader.refresh_from_db()
    assert leader.data["points"]["mc"] == 3


def test_unknown_urls_are_a_friendly_404(client, db):
    response = client.get("/no/such/page/")
    assert response.status_code == 404
    assert "Not found" in response.content.decode()


def test_every_form_on_the_builder_posts_to_a_real_member_url(owner_client, gang):
    """Member URLs are built from one prefix; each must resolve to the view it names."""
    page = owner_client.get(reverse("gang_detail", args=[gang.pk])).content.decode()
    targets = set(re.findall(r'hx-post="([^"]+)"', page))
    views = {resolve(url).url_name for url in targets}
    assert views >= {
        "member_update",
        "member_points",
        "member_weapon_add",
        "member_weapon_remove",
        "member_horse",
        "member_move",
        "member_delete",
        "member_add",
        "gang_update",
    }
    for url in targets:
        match = resolve(url)
        assert match.kwargs["gang_id"] == gang.pk
        if "member_id" in match.kwargs:
            assert gang.members.filter(pk=match.kwargs["member_id"]).exists()
        if "member_item_id" in match.kwargs:
            member = gang.members.get(pk=match.kwargs["member_id"])
            assert member.member_items.filter(pk=match.kwargs["member_item_id"]).exists()


def test_logged_out_htmx_request_is_sent_to_log_in_and_back_to_the_gang(client, gang):
    """A session that expired mid-build: no login page pasted into the builder."""
    leader = first_member(gang)
    url = reverse("member_points", args=[gang.pk, leader.pk])
    login_then_gang = (
        reverse("login") + "?next=" + quote(reverse("gang_detail", args=[gang.pk]), "")
    )
    response = client.post(url, {"change": "mc:-"}, **HX)
    assert response.status_code == 200
    assert response["HX-Redirect"] == login_then_gang
    assert response.content == b""
    response = client.post(url, {"change": "mc:-"})
    assert response.status_code == 302 and response["Location"] == login_then_gang
    response = client.get(reverse("gang_detail", args=[gang.pk]))
    assert response["Location"] == login_then_gang


def test_a_get_on_a_builder_action_goes_back_to_the_page(owner_client, gang):
    leader = first_member(gang)
    for name in ("member_points", "member_update", "member_move", "member_horse"):
        response = owner_client.get(reverse(name, args=[gang.pk, leader.pk]))
        assert response.status_code == 302
        assert response["Location"] == reverse("gang_detail", args=[gang.pk]) + (
            f"#member-{leader.pk}"
        )
    response = owner_client.put(reverse("member_points", args=[gang.pk, leader.pk]))
    assert response.status_code == 405


def test_pages_answer_head_requests(owner_client, gang):
    for url in (
        reverse("gang_create"),
        reverse("gang_delete", args=[gang.pk]),
        reverse("weapon_list"),
        reverse("gang_detail", args=[gang.pk]),
    ):
        assert owner_client.head(url).status_code == 200, url


def test_plain_post_forms_come_back_to_the_member_they_concern(owner_client, gang):
    """Without JavaScript an invalid form is rendered at the form's URL: its action
    carries the member's anchor so the browser shows the error, not the top of the page."""
    page = owner_client.get(reverse("gang_detail", args=[gang.pk])).content.decode()
    for member in gang.members.all():
        actions = re.findall(rf'action="([^"]*/members/{member.pk}/[^"]*)"', page)
        posts = [a for a in actions if not a.endswith("/delete/")]
        assert posts and all(a.endswith(f"#member-{member.pk}") for a in posts), posts
    assert f'action="{reverse("member_add", args=[gang.pk])}#recruit"' in page


def test_a_henchman_given_a_profession_keeps_it_and_the_rules_say_so(owner_client, gang):
    henchman = gang.members.filter(data__type="henchman").first()
    url = reverse("member_update", args=[gang.pk, henchman.pk])
    body = owner_client.post(
        url, {"name": henchman.name, "member_type": "henchman", "profession": "doctor"}, **HX
    ).content.decode()
    henchman.refresh_from_db()
    assert henchman.data["profession"] == "doctor"
    assert "bwg1.henchman_profession" in body


def test_a_henchman_becomes_a_professional_with_a_profession_in_one_save(owner_client, gang):
    henchman = gang.members.filter(data__type="henchman").first()
    url = reverse("member_update", args=[gang.pk, henchman.pk])
    owner_client.post(
        url, {"name": henchman.name, "member_type": "professional", "profession": "doctor"}
    )
    henchman.refresh_from_db()
    assert (henchman.data["type"], henchman.data["profession"]) == ("professional", "doctor")
