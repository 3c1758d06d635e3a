"""The builder's views with bwg1: who may do what, htmx fragments, plain posts, bad input.

bwg1 is an editor of ActionForms: the gang action ``recruit`` and the member actions
``details``, ``points``, ``add_weapon``, ``remove_weapon``, ``horse``, ``move`` and
``remove``, served by ``gang_action`` / ``member_action``. Form fields carry a prefix:
``m<member id>-<action>-<field>`` for a member, ``<action>-<field>`` for the gang. Only
the open member (``?open=<id>`` on the page, ``open`` in a post) has its forms drawn.
"""

from __future__ import annotations

import html
import re
from urllib.parse import quote, urlsplit

import pytest
from django.test import Client
from django.urls import resolve, reverse

from builder.editors.bwg1 import EDITOR
from builder.models import Gang, Item, Member, MemberItem
from builder.services import create_gang, my_weapons_pack
from tests.factories import build_gang, give, horse, recruit, weapon

HX = {"HTTP_HX_REQUEST": "true"}
MEMBER_ACTIONS = ("details", "points", "add_weapon", "remove_weapon", "horse", "move", "remove")
MEMBER_FORM = re.compile(r"/members/(\d+)/do/([\w-]+)/")


def first_member(gang: Gang) -> Member:
    return gang.members.order_by("position").first()


def nth_member(gang: Gang, n: int) -> Member:
    return gang.members.order_by("position")[n]


def page_url(gang: Gang, member: Member | None = None) -> str:
    url = reverse("gang_detail", args=[gang.pk])
    return f"{url}?open={member.pk}" if member else url


def back_to(gang: Gang, member: Member) -> str:
    """Where a plain post about a member comes back to: the page, that member open."""
    return f"{page_url(gang, member)}#member-{member.pk}"


def act(gang: Gang, member: Member, action: str) -> str:
    return reverse("member_action", args=[gang.pk, member.pk, action])


def gang_act(gang: Gang, action: str) -> str:
    return reverse("gang_action", args=[gang.pk, action])


def data(member: Member, action: str, **values) -> dict[str, object]:
    """A member form's post: its fields carry the member's and the action's prefix."""
    return {f"m{member.pk}-{action}-{name}": value for name, value in values.items()}


def points(member: Member, **values) -> dict[str, object]:
    return data(member, "points", **values)


def stored_points(member: Member) -> dict[str, int]:
    member.refresh_from_db()
    return member.data["points"]


def open_forms(body: str) -> set[tuple[int, str]]:
    """(member id, action) of every member form on a page: only the open member's."""
    return {(int(pk), action) for pk, action in MEMBER_FORM.findall(body)}


def is_open(body: str, member: Member) -> bool:
    return f'id="member-{member.pk}"' in body and bool(
        re.search(rf'class="roster-row is-open[^"]*" id="member-{member.pk}"', body)
    )


def nothing_open(body: str) -> bool:
    return not open_forms(body) and 'data-testid="member-panel"' not in body


def attribute_box(body: str, attribute: str) -> str:
    """The part of the points form about one attribute: its number field and its error."""
    for chunk in body.split('<div class="attr')[1:]:
        if 'name="m' in chunk and f'-points-{attribute}"' in chunk:
            return chunk.split("</div>")[0]
    raise AssertionError(f"no {attribute} field on the page")


def selected(body: str, name: str) -> str:
    """The value selected in the select called ``name``."""
    select = re.search(rf'<select name="{name}"[^>]*>(.*?)</select>', body, re.S)
    assert select, name
    option = re.search(r'<option value="([^"]*)"[^>]*\bselected\b', select.group(1))
    return option.group(1) if option else ""


# --------------------------------------------------------------------------- who may do what


def member_urls(gang: Gang) -> dict[str, tuple[str, str, dict]]:
    """Every member action: name -> (method, url, valid data)."""
    m = first_member(gang)
    mi = m.member_items.first()
    return {
        "details": (
            "post",
            act(gang, m, "details"),
            data(m, "details", name="Renamed", member_type="leader", profession="gambler"),
        ),
        "points": ("post", act(gang, m, "points"), points(m, change="str:-")),
        "add_weapon": (
            "post",
            act(gang, m, "add_weapon"),
            data(m, "add_weapon", item=weapon("Bowie knife").pk),
        ),
        "remove_weapon": (
            "post",
            act(gang, m, "remove_weapon"),
            data(m, "remove_weapon", member_item=mi.pk),
        ),
        "horse": ("post", act(gang, m, "horse"), data(m, "horse", item=horse("Mule").pk)),
        "move": ("post", act(gang, m, "move"), data(m, "move", direction="down")),
        "remove": ("post", act(gang, m, "remove"), {}),
    }


def gang_urls(gang: Gang) -> dict[str, tuple[str, str, dict]]:
    return {
        "detail": ("get", reverse("gang_detail", args=[gang.pk]), {}),
        "detail_open": ("get", page_url(gang, first_member(gang)), {}),
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
        "recruit": (
            "post",
            gang_act(gang, "recruit"),
            {"recruit-name": "Kid", "recruit-member_type": "henchman"},
        ),
    }


def all_urls(gang: Gang) -> dict[str, tuple[str, str, dict]]:
    urls = {f"gang:{k}": v for k, v in gang_urls(gang).items()}
    urls.update({f"member:{k}": v for k, v in member_urls(gang).items()})
    return urls


ENDPOINTS = [
    *(f"gang:{k}" for k in ("detail", "detail_open", "settings", "delete_confirm", "delete")),
    *(f"gang:{k}" for k in ("share_reset", "pdf", "export", "recruit", "packs", "history")),
    *(f"gang:{k}" for k in ("clone_confirm", "clone")),
    *(f"member:{k}" for k in MEMBER_ACTIONS),
]


def test_the_endpoints_cover_every_bwg1_action():
    assert set(EDITOR.member_actions) == set(MEMBER_ACTIONS)
    assert set(EDITOR.gang_actions) == {"recruit"}


@pytest.mark.parametrize("endpoint", ENDPOINTS)
def test_anonymous_is_sent_to_log_in_and_nothing_changes(client, gang, endpoint):
    method, url, values = all_urls(gang)[endpoint]
    before = (Gang.objects.get(pk=gang.pk).version, gang.members.count())
    response = getattr(client, method)(url, values)
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))
    assert (Gang.objects.get(pk=gang.pk).version, gang.members.count()) == before


@pytest.mark.parametrize("endpoint", ENDPOINTS)
def test_another_user_gets_404_and_nothing_changes(stranger_client, gang, endpoint):
    method, url, values = all_urls(gang)[endpoint]
    items = MemberItem.objects.filter(member__gang=gang).count()
    before = (Gang.objects.get(pk=gang.pk).version, gang.members.count(), gang.name, items)
    response = getattr(stranger_client, method)(url, values)
    assert response.status_code == 404
    gang.refresh_from_db()
    items = MemberItem.objects.filter(member__gang=gang).count()
    assert (gang.version, gang.members.count(), gang.name, items) == before
    assert Gang.objects.count() == 1


@pytest.mark.parametrize("endpoint", ENDPOINTS)
def test_owner_can_use_every_endpoint(owner_client, gang, endpoint):
    method, url, values = all_urls(gang)[endpoint]
    before = Gang.objects.get(pk=gang.pk).version
    response = getattr(owner_client, method)(url, values)
    assert response.status_code in (200, 302)
    if method == "post":
        assert response.status_code == 302  # a plain post redirects after the change
    if endpoint.startswith("member:") or endpoint == "gang:recruit":
        assert Gang.objects.get(pk=gang.pk).version == before + 1  # it did something


def test_member_of_another_gang_is_404_even_for_a_gang_owner(owner_client, owner, gang):
    """A member id from a gang that isn't the one in the URL is never found."""
    other = build_gang(owner, name="Other gang")
    outsider = first_member(other)
    url = reverse("member_action", args=[gang.pk, outsider.pk, "points"])
    assert owner_client.post(url, points(outsider, change="str:-")).status_code == 404
    assert stored_points(outsider)["str"] == 2


def test_an_unknown_action_is_404_and_changes_nothing(owner_client, gang):
    leader = first_member(gang)
    before = gang.version
    assert owner_client.post(gang_act(gang, "nonsense"), {}).status_code == 404
    assert owner_client.post(act(gang, leader, "nonsense"), {}).status_code == 404
    assert owner_client.post(act(gang, leader, "recruit"), {}).status_code == 404
    assert owner_client.post(gang_act(gang, "points"), {}).status_code == 404
    assert Gang.objects.get(pk=gang.pk).version == before


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
    home = client.get(reverse("home"))
    assert home.status_code == 200
    page = html.unescape(home.content.decode())
    assert "<h1>Build your gang. Print it. Play.</h1>" in page
    # the introduction as a sentence, not the template code that printed it (issue 25)
    assert "checks every rule as you go and tells you what to change" in " ".join(page.split())
    assert "{%" not in page and "%}" not in page and "coming" not in page
    assert f'href="{reverse("signup")}"' in page
    from rules import all_systems

    for system in all_systems():  # every game, each built in the browser
        assert f"<strong>{system.name}</strong> — build it in the browser" in page
    french = client.get(reverse("home"), HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "<h1>Créez votre gang. Imprimez-le. Jouez.</h1>" in html.unescape(french)
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
    assert 'name="recruit-name"' in page and nothing_open(page)


@pytest.mark.parametrize(
    ("values", "message"),
    [
        ({"name": "", "system": "bwg1"}, "This field is required."),
        ({"name": "   ", "system": "bwg1"}, "This field is required."),
        ({"name": "X", "system": "nope"}, "Select a valid choice."),
        ({"name": "X", "system": "bwg1", "limit": "0"}, "greater than or equal to 1"),
        ({"name": "X", "system": "bwg1", "limit": "lots"}, "Enter a whole number."),
    ],
)
def test_create_gang_with_bad_input_shows_the_error_and_saves_nothing(
    owner_client, values, message
):
    response = owner_client.post(reverse("gang_create"), values)
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


# --------------------------------------------------------------------------- the open member


def test_a_closed_member_draws_no_forms(owner_client, gang):
    """Only the open member's forms are drawn: none without ``?open``, then exactly one
    member's, every one of its actions."""
    page = owner_client.get(page_url(gang)).content.decode()
    assert nothing_open(page)
    assert not re.search(r'name="m\d+-', page)
    assert 'name="recruit-name"' in page  # the gang's own form is always there
    for member in gang.members.all():
        assert f'data-member-name="{member.name}"' in page  # every row is drawn
    for member in (first_member(gang), nth_member(gang, 1)):
        body = owner_client.get(page_url(gang, member)).content.decode()
        assert open_forms(body) == {(member.pk, action) for action in MEMBER_ACTIONS}
        assert set(re.findall(r'name="m(\d+)-', body)) == {str(member.pk)}
        assert is_open(body, member)
        assert body.count('data-testid="member-panel"') == 1


@pytest.mark.parametrize("value", ["garbage", "-1", "0", "99999", "1.5", "", "other-gang"])
def test_open_with_garbage_or_another_gangs_member_opens_nothing(owner_client, owner, gang, value):
    if value == "other-gang":
        value = str(first_member(build_gang(owner, name="Other gang")).pk)
    response = owner_client.get(reverse("gang_detail", args=[gang.pk]), {"open": value})
    assert response.status_code == 200
    body = response.content.decode()
    assert nothing_open(body) and 'id="builder"' in body
    assert "Bill Dalton" in body  # the page itself is all there


def test_an_htmx_get_opens_a_member_and_another_closes_it(owner_client, gang):
    leader = first_member(gang)
    url = reverse("gang_detail", args=[gang.pk])
    body = owner_client.get(url, {"open": leader.pk}, **HX).content.decode()
    assert "<html" not in body and is_open(body, leader)
    assert open_forms(body) == {(leader.pk, a) for a in MEMBER_ACTIONS}
    body = owner_client.get(url, {"open": ""}, **HX).content.decode()
    assert nothing_open(body)


@pytest.mark.parametrize("action", MEMBER_ACTIONS)
def test_an_htmx_answer_points_the_address_bar_at_the_open_member(owner_client, gang, action):
    """A reload after a change keeps the member open: ``HX-Replace-Url`` says where."""
    _method, url, values = member_urls(gang)[action]
    member = first_member(gang)
    response = owner_client.post(url, values, **HX)
    assert response.status_code == 200
    body = response.content.decode()
    if action == "remove":  # a removed member closes
        assert response["HX-Replace-Url"] == page_url(gang)
        assert nothing_open(body)
    else:
        assert response["HX-Replace-Url"] == page_url(gang, member)
        assert is_open(body, member)
        assert {pk for pk, _ in open_forms(body)} == {member.pk}


def test_an_invalid_htmx_post_keeps_its_member_open(owner_client, gang):
    leader = first_member(gang)
    response = owner_client.post(act(gang, leader, "points"), points(leader, change="x"), **HX)
    assert response.status_code == 200
    assert response["HX-Replace-Url"] == page_url(gang, leader)
    assert is_open(response.content.decode(), leader)
    # A refused recruit (no name) leaves the member that was open as it was.
    values = {"recruit-name": "", "recruit-member_type": "henchman", "open": leader.pk}
    response = owner_client.post(gang_act(gang, "recruit"), values, **HX)
    assert response["HX-Replace-Url"] == page_url(gang, leader)
    assert is_open(response.content.decode(), leader)


def test_a_gang_level_post_keeps_the_open_member_open(owner_client, gang):
    """The page sends ``open`` with every post (a hidden field in each form, and the
    ``X-Builder-Open`` header from app.js): settings keep the panel."""
    henchman = nth_member(gang, 1)
    url = reverse("gang_update", args=[gang.pk])
    values = {"gang-name": "Daltons", "gang-limit": "", "open": henchman.pk}
    response = owner_client.post(url, values, **HX)
    assert response["HX-Replace-Url"] == page_url(gang, henchman)
    assert is_open(response.content.decode(), henchman)
    response = owner_client.post(url, values)
    assert response["Location"] == back_to(gang, henchman)
    page = owner_client.get(page_url(gang, henchman)).content.decode()
    settings = re.search(r'<details id="settings".*?</details>', page, re.S).group(0)
    assert f'<input type="hidden" name="open" value="{henchman.pk}">' in settings
    values.pop("open")
    response = owner_client.post(url, values, HTTP_X_BUILDER_OPEN=str(henchman.pk), **HX)
    assert is_open(response.content.decode(), henchman)


# --------------------------------------------------------------------------- points


def test_points_change_through_htmx_returns_the_updated_fragment(owner_client, gang):
    leader = first_member(gang)
    response = owner_client.post(act(gang, leader, "points"), points(leader, change="mc:-"), **HX)
    body = response.content.decode()
    assert response.status_code == 200 and "<html" not in body
    assert stored_points(leader)["mc"] == 3
    assert "bwg1.points_unspent" in body  # the panel updated in the same response
    assert re.search(r'data-testid="points-left"><strong>1</strong>', body)
    assert re.search(r'name="m\d+-points-mc" id="[^"]+" value="4"', body)


def test_points_change_as_a_plain_post_redirects_back_to_the_member(owner_client, gang):
    leader = first_member(gang)
    response = owner_client.post(act(gang, leader, "points"), points(leader, change="mc:-"))
    assert response.status_code == 302
    assert response["Location"] == back_to(gang, leader)


@pytest.mark.parametrize("htmx", [True, False])
def test_an_impossible_point_change_shows_why_beside_the_points(owner_client, gang, htmx):
    leader = first_member(gang)
    response = owner_client.post(
        act(gang, leader, "points"), points(leader, change="str:+"), **(HX if htmx else {})
    )
    assert response.status_code == 200
    body = response.content.decode()
    assert "No attribute points left: take one off another attribute first." in body
    assert body.lstrip().startswith("<!doctype html>") != htmx  # the page without JS
    assert is_open(body, leader)
    assert stored_points(leader)["str"] == 2


def test_points_cannot_go_below_the_starting_value_or_above_six(owner_client, gang):
    henchman = nth_member(gang, 1)
    url = act(gang, henchman, "points")
    for _ in range(2):
        owner_client.post(url, points(henchman, change="str:-"))
    assert stored_points(henchman)["str"] == 0
    response = owner_client.post(url, points(henchman, change="str:-"), **HX)
    assert "No points are spent on Str: it is at its starting value." in response.content.decode()
    assert stored_points(henchman)["str"] == 0
    leader = first_member(gang)
    url = act(gang, leader, "points")
    owner_client.post(url, points(leader, change="qui:-"))
    response = owner_client.post(url, points(leader, change="sta:+"), **HX)  # Sta is already 6
    assert response.status_code == 200
    assert "Sta can be at most 6." in response.content.decode()
    assert stored_points(leader)["sta"] == 5


def test_a_typed_value_sets_the_attribute(owner_client, gang):
    kid = recruit(gang, "The Kid")  # a Henchman: 10 points, every attribute at 1
    url = act(gang, kid, "points")
    response = owner_client.post(url, points(kid, str=4, qui="3", sta=""), **HX)
    assert response.status_code == 200
    assert stored_points(kid) == {"str": 3, "qui": 2, "sta": 0, "int": 0, "rc": 0, "mc": 0}
    body = response.content.decode()
    assert re.search(r'data-testid="points-left"><strong>5</strong>', body)
    # Lower again, and every field sent as the page sends them: only changes count.
    values = points(kid, str=2, qui=3, sta=1, int=1, rc=1, mc=1)
    assert owner_client.post(url, values).status_code == 302
    assert stored_points(kid) == {"str": 1, "qui": 2, "sta": 0, "int": 0, "rc": 0, "mc": 0}


def test_a_typed_value_counts_the_profession_bonus(owner_client, gang):
    """The first Gunslinger shows RC 5 (1 + 3 points + 1): typing 4 takes one point off."""
    gun = gang.members.get(name="Gun 3")
    response = owner_client.post(act(gang, gun, "points"), points(gun, rc=4), **HX)
    assert response.status_code == 200
    assert stored_points(gun)["rc"] == 2
    body = owner_client.post(act(gang, gun, "points"), points(gun, rc=1), **HX).content.decode()
    assert "RC starts at 2: it cannot go lower." in attribute_box(body, "rc")
    assert stored_points(gun)["rc"] == 2


@pytest.mark.parametrize(
    ("typed", "attribute", "message"),
    [
        ({"str": 7}, "str", "Str can be at most 6."),
        ({"str": 0}, "str", "Str starts at 1: it cannot go lower."),
        ({"int": 6}, "int", "Only 3 points left: Int can go up to 4."),
        ({"int": 2, "str": 9}, "str", "Str can be at most 6."),
        ({"rc": "lots"}, "rc", "Enter a whole number."),
        ({"mc": -2}, "mc", "greater than or equal to 0"),
    ],
)
def test_a_typed_value_that_cannot_be_is_refused_with_what_to_do(
    owner_client, gang, typed, attribute, message
):
    kid = recruit(gang, "The Kid", str=2, qui=2, sta=3)  # 3 of 10 points left
    before = stored_points(kid)
    response = owner_client.post(act(gang, kid, "points"), points(kid, **typed), **HX)
    assert response.status_code == 200
    body = response.content.decode()
    assert message in attribute_box(body, attribute)  # beside the field it is about
    assert stored_points(kid) == before  # nothing is half done


def test_typing_more_than_the_points_left_when_none_are_left(owner_client, gang):
    leader = first_member(gang)
    response = owner_client.post(act(gang, leader, "points"), points(leader, int=5), **HX)
    body = response.content.decode()
    assert "No attribute points left: take one off another attribute first." in (
        attribute_box(body, "int")
    )
    assert stored_points(leader)["int"] == 3


def test_garbage_point_change_is_a_form_error_not_a_crash(owner_client, gang):
    leader = first_member(gang)
    url = act(gang, leader, "points")
    before = gang.version
    for garbage in ("luck:+", "str:*", "str", ":+"):
        response = owner_client.post(url, points(leader, change=garbage), **HX)
        assert response.status_code == 200
        assert is_open(response.content.decode(), leader)
    assert stored_points(leader)["str"] == 2
    assert Gang.objects.get(pk=gang.pk).version == before


# --------------------------------------------------------------------------- details


def test_details_update_and_turning_into_a_henchman_clears_the_profession(owner_client, gang):
    gun = gang.members.get(name="Gun 4")
    url = act(gang, gun, "details")
    owner_client.post(
        url, data(gun, "details", name="Doc", member_type="professional", profession="doctor")
    )
    gun.refresh_from_db()
    assert (gun.name, gun.data["type"], gun.data["profession"]) == ("Doc", "professional", "doctor")
    owner_client.post(
        url, data(gun, "details", name="Doc", member_type="henchman", profession="doctor")
    )
    gun.refresh_from_db()
    assert (gun.data["type"], gun.data["profession"]) == ("henchman", "")


def test_details_with_a_bad_type_shows_the_error(owner_client, gang):
    leader = first_member(gang)
    url = act(gang, leader, "details")
    response = owner_client.post(url, data(leader, "details", name="Bill", member_type="x"), **HX)
    assert response.status_code == 200
    body = response.content.decode()
    assert "Select a valid choice" in body
    assert is_open(body, leader)
    leader.refresh_from_db()
    assert (leader.name, leader.data["type"]) == ("Bill Dalton", "leader")


def test_a_henchman_given_a_profession_keeps_it_and_the_rules_say_so(owner_client, gang):
    henchman = gang.members.filter(data__type="henchman").first()
    body = owner_client.post(
        act(gang, henchman, "details"),
        data(henchman, "details", name=henchman.name, member_type="henchman", profession="doctor"),
        **HX,
    ).content.decode()
    henchman.refresh_from_db()
    assert henchman.data["profession"] == "doctor"
    assert "bwg1.henchman_profession" in body


def test_a_henchman_becomes_a_professional_with_a_profession_in_one_save(owner_client, gang):
    henchman = gang.members.filter(data__type="henchman").first()
    owner_client.post(
        act(gang, henchman, "details"),
        data(
            henchman,
            "details",
            name=henchman.name,
            member_type="professional",
            profession="doctor",
        ),
    )
    henchman.refresh_from_db()
    assert (henchman.data["type"], henchman.data["profession"]) == ("professional", "doctor")


# --------------------------------------------------------------------------- recruiting


def test_recruit_goes_last_and_a_nameless_one_is_refused(owner_client, gang):
    url = gang_act(gang, "recruit")
    for name in ("", "   "):
        response = owner_client.post(
            url, {"recruit-name": name, "recruit-member_type": "henchman"}, **HX
        )
        assert response.status_code == 200
        form = re.search(r'<form id="form-recruit".*?</form>', response.content.decode(), re.S)
        assert form and "This field is required." in form.group(0)  # beside the field
    assert gang.members.count() == 5
    response = owner_client.post(
        url, {"recruit-name": " The Kid ", "recruit-member_type": "henchman"}
    )
    names = list(gang.members.order_by("position").values_list("name", flat=True))
    assert names[-1] == "The Kid" and len(names) == 6
    kid = gang.members.get(name="The Kid")
    assert kid.data == {
        "type": "henchman",
        "profession": "",
        "points": dict.fromkeys(("str", "qui", "sta", "int", "rc", "mc"), 0),
    }


def test_the_first_recruit_is_the_leader_and_later_ones_henchmen(owner_client, owner, content):
    gang = create_gang(owner, system="bwg1", name="New boys", limit=None)
    page = owner_client.get(page_url(gang)).content.decode()
    assert selected(page, "recruit-member_type") == "leader"
    assert "Recruit your Leader first" in page
    response = owner_client.post(
        gang_act(gang, "recruit"), {"recruit-name": "Boss", "recruit-member_type": "leader"}, **HX
    )
    body = response.content.decode()
    assert selected(body, "recruit-member_type") == "henchman"
    assert gang.members.get().data["type"] == "leader"


def test_after_recruiting_the_new_member_is_open(owner_client, gang):
    leader = first_member(gang)
    values = {"recruit-name": "The Kid", "recruit-member_type": "henchman", "open": leader.pk}
    response = owner_client.post(gang_act(gang, "recruit"), values, **HX)
    kid = gang.members.get(name="The Kid")
    body = response.content.decode()
    assert response["HX-Replace-Url"] == page_url(gang, kid)
    assert is_open(body, kid) and not is_open(body, leader)
    assert {pk for pk, _ in open_forms(body)} == {kid.pk}
    values["recruit-name"] = "The Other Kid"
    response = owner_client.post(gang_act(gang, "recruit"), values)
    assert response["Location"] == back_to(gang, gang.members.get(name="The Other Kid"))


# --------------------------------------------------------------------------- weapons and horses


def test_weapons_add_and_remove_change_xp_and_fame(owner_client, gang):
    henchman = nth_member(gang, 1)
    revolver = weapon("Remington Army revolver")
    body = owner_client.post(
        act(gang, henchman, "add_weapon"), data(henchman, "add_weapon", item=revolver.pk), **HX
    ).content.decode()
    assert 'data-testid="fame">380<' in body
    assert re.search(r'data-testid="member-xp">\d+<', body)
    mi = henchman.member_items.get(item=revolver)
    assert f'id="weapon-{mi.pk}"' in body  # shown in the open panel
    body = owner_client.post(
        act(gang, henchman, "remove_weapon"),
        data(henchman, "remove_weapon", member_item=mi.pk),
        **HX,
    ).content.decode()
    assert 'data-testid="fame">376<' in body
    assert not henchman.member_items.filter(item=revolver).exists()


def test_adding_no_weapon_or_someone_elses_weapon_is_refused(owner_client, gang, stranger):
    secret = Item.objects.create(
        owner=stranger,
        pack=my_weapons_pack(stranger),
        system="bwg1",
        category="weapon",
        name="Secret gun",
        stats={"kind": "ranged", "level": 1, "hands": 1, "strength": "", "traits": []},
    )
    henchman = nth_member(gang, 1)
    url = act(gang, henchman, "add_weapon")
    response = owner_client.post(url, data(henchman, "add_weapon", item=""), **HX)
    assert response.status_code == 200
    assert "Choose a weapon from the list first." in response.content.decode()
    # Someone else's own weapon, a horse (not a weapon), nothing at all.
    for pk in (secret.pk, horse("Mule").pk, secret.pk + 10_000):
        response = owner_client.post(url, data(henchman, "add_weapon", item=pk), **HX)
        form = re.search(
            r'<form id="form-m\d+-add_weapon".*?</form>', response.content.decode(), re.S
        )
        assert form and "not in your catalogue" in form.group(0)  # beside the field
        assert f'<option value="{pk}"' not in form.group(0)  # never offered either
    assert list(henchman.member_items.values_list("item__name", flat=True)) == ["Bowie knife"]


def test_removing_another_members_weapon_is_refused(owner_client, owner, gang):
    henchman, other = nth_member(gang, 1), nth_member(gang, 2)
    theirs = other.member_items.get()
    elsewhere = first_member(build_gang(owner, name="Other gang")).member_items.first()
    url = act(gang, henchman, "remove_weapon")
    for member_item in (theirs.pk, elsewhere.pk, 999999, "x"):
        response = owner_client.post(
            url, data(henchman, "remove_weapon", member_item=member_item), **HX
        )
        assert response.status_code == 200
        assert "field-error" in response.content.decode()
    assert other.member_items.filter(pk=theirs.pk).exists()
    assert type(elsewhere).objects.filter(pk=elsewhere.pk).exists()
    response = owner_client.post(url, data(henchman, "remove_weapon", member_item=theirs.pk))
    assert "That weapon is gone already: reload the page." in response.content.decode()


def test_a_member_has_one_horse_and_its_xp_counts_toward_fame(owner_client, gang):
    henchman = nth_member(gang, 1)
    url = act(gang, henchman, "horse")
    owner_client.post(url, data(henchman, "horse", item=horse("Mule").pk))
    body = owner_client.post(
        url, data(henchman, "horse", item=horse("War horse").pk), **HX
    ).content.decode()
    assert list(henchman.member_items.values_list("item__name", flat=True)) == [
        "Bowie knife",
        "War horse",
    ]
    assert 'data-testid="fame">456<' in body  # 376 + 80
    assert selected(body, f"m{henchman.pk}-horse-item") == str(horse("War horse").pk)
    body = owner_client.post(url, data(henchman, "horse", item=""), **HX).content.decode()
    assert 'data-testid="fame">376<' in body
    assert list(henchman.member_items.values_list("item__name", flat=True)) == ["Bowie knife"]
    response = owner_client.post(url, data(henchman, "horse", item=weapon("Bowie knife").pk))
    assert response.status_code == 200
    assert "That is not in your catalogue: choose one from the list." in response.content.decode()
    assert list(henchman.member_items.values_list("item__name", flat=True)) == ["Bowie knife"]


# --------------------------------------------------------------------------- order and removal


def test_moving_a_member_changes_who_gets_the_profession_bonus(owner_client, gang):
    """Recruitment order is member order: the first Gunslinger gets +1 RC."""
    guns = list(gang.members.filter(data__type="professional").order_by("position"))
    second = guns[1]
    url = act(gang, second, "move")
    assert "Gunslinger +1 RC → Gun 3" in owner_client.get(page_url(gang)).content.decode()
    owner_client.post(url, data(second, "move", direction="up"))
    owner_client.post(url, data(second, "move", direction="up"))
    body = owner_client.get(page_url(gang)).content.decode()
    assert f"Gunslinger +1 RC → {second.name}" in body
    order = list(gang.members.order_by("position").values_list("name", flat=True))
    assert order.index(second.name) < order.index(guns[0].name)
    assert order == ["Bill Dalton", "Henchman 1", "Gun 4", "Henchman 2", "Gun 3"]


def test_moving_the_first_member_up_changes_nothing(owner_client, gang):
    leader = first_member(gang)
    before = list(gang.members.order_by("position").values_list("pk", flat=True))
    body = owner_client.get(page_url(gang, leader)).content.decode()
    assert re.search(r'id="form-m\d+-move-up"[^>]*disabled', body)
    response = owner_client.post(act(gang, leader, "move"), data(leader, "move", direction="up"))
    assert response["Location"] == back_to(gang, leader)
    assert list(gang.members.order_by("position").values_list("pk", flat=True)) == before
    last = gang.members.order_by("position").last()
    owner_client.post(act(gang, last, "move"), data(last, "move", direction="down"))
    assert list(gang.members.order_by("position").values_list("pk", flat=True)) == before
    response = owner_client.post(
        act(gang, leader, "move"), data(leader, "move", direction="sideways"), **HX
    )
    assert response.status_code == 200 and is_open(response.content.decode(), leader)
    assert list(gang.members.order_by("position").values_list("pk", flat=True)) == before


def test_removing_a_member_closes_it(owner_client, gang):
    leader = first_member(gang)
    body = owner_client.get(page_url(gang, leader)).content.decode()
    assert "hx-confirm" not in body  # no dialog: the roster offers Undo instead
    response = owner_client.post(act(gang, leader, "remove"), {"open": leader.pk}, **HX)
    body = response.content.decode()
    assert not gang.members.filter(pk=leader.pk).exists()
    assert "bwg1.no_leader" in body
    assert nothing_open(body) and response["HX-Replace-Url"] == page_url(gang)
    henchman = first_member(gang)
    response = owner_client.post(act(gang, henchman, "remove"))
    assert response.status_code == 302 and response["Location"] == page_url(gang) + "#undo-notice"
    assert gang.members.count() == 3


# --------------------------------------------------------------------------- the gang


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


def test_every_change_bumps_the_gang_version_and_a_refused_one_does_not(owner_client, gang):
    before = gang.version
    leader = first_member(gang)
    url = act(gang, leader, "points")
    owner_client.post(url, points(leader, change="mc:-"))
    gang.refresh_from_db()
    assert gang.version == before + 1
    body = owner_client.post(url, points(leader, change="mc:-"), **HX).content.decode()
    gang.refresh_from_db()
    assert gang.version == before + 2
    assert f'data-version="{before + 2}"' in body  # the page knows which answer is newest
    # Refused: Sta is already 6, no such change, no such type, no such action.
    owner_client.post(url, points(leader, change="sta:+"))
    owner_client.post(url, points(leader, change="nope"))
    owner_client.post(act(gang, leader, "details"), data(leader, "details", member_type="x"))
    owner_client.post(act(gang, leader, "nonsense"))
    gang.refresh_from_db()
    assert gang.version == before + 2


# --------------------------------------------------------------------------- sharing


def test_share_link_is_read_only_for_anyone(client, gang):
    url = reverse("gang_shared", args=[gang.share_token])
    page = client.get(url).content.decode()
    assert "Bill Dalton" in page and "376" in page
    assert "/do/" not in page and not re.search(r'name="m\d+-', page)
    assert 'name="recruit-name"' not in page
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


NASTY = '<script>alert("x")</script><img src=x onerror=alert(1)>'


def assert_escaped(body: str) -> None:
    assert "<script>alert" not in body
    assert "<img src=x" not in body
    assert "&lt;script&gt;alert" in body


def test_user_text_is_escaped_everywhere(owner_client, client, owner, content):
    gang = build_gang(owner, name=NASTY)
    leader = first_member(gang)
    leader.name = NASTY
    leader.save()
    own = Item.objects.create(
        owner=owner,
        pack=my_weapons_pack(owner),
        system="bwg1",
        category="weapon",
        name=NASTY,
        stats={"kind": "ranged", "level": 1, "hands": 1, "strength": "", "traits": []},
    )
    gang.packs.add(own.pack)
    give(leader, own)
    pages = [
        owner_client.get(page_url(gang, leader)),
        owner_client.get(page_url(gang, leader), **HX),
        owner_client.get(page_url(gang)),
        owner_client.get(reverse("gang_list")),
        client.get(reverse("gang_shared", args=[gang.share_token])),
        # The name typed comes back in the field, the error beside it (htmx and plain).
        owner_client.post(
            act(gang, leader, "details"), data(leader, "details", name=NASTY, member_type="x")
        ),
        owner_client.post(
            act(gang, leader, "details"),
            data(leader, "details", name=NASTY, member_type="leader"),
            **HX,
        ),
        owner_client.post(
            gang_act(gang, "recruit"),
            {"recruit-name": NASTY, "recruit-member_type": "nope"},
            **HX,
        ),
        owner_client.post(
            gang_act(gang, "recruit"), {"recruit-name": NASTY, "recruit-member_type": "henchman"}
        ),
    ]
    for response in pages:
        assert response.status_code in (200, 302)
        if response.status_code == 302:
            response = owner_client.get(response["Location"])
        assert_escaped(response.content.decode())
    body = pages[0].content.decode()
    assert 'aria-label="Recruit &lt;script&gt;' in body  # in attributes, too
    assert f'id="weapon-{leader.member_items.get(item=own).pk}"' in body  # the weapon shows


def test_csrf_token_is_in_hx_headers_and_required(owner, gang):
    client = Client(enforce_csrf_checks=True)
    client.force_login(owner)
    leader = first_member(gang)
    page = client.get(page_url(gang, leader)).content.decode()
    match = re.search(r"<body hx-headers='\{\"X-CSRFToken\": \"([^\"]+)\"\}'>", page)
    assert match, "the CSRF token must be in hx-headers on <body>"
    forms = re.findall(r"<form[^>]*method=\"post\".*?</form>", page, re.S)
    assert forms and all("csrfmiddlewaretoken" in f for f in forms)  # and in every form
    url = act(gang, leader, "points")
    refused = client.post(url, points(leader, change="mc:-"), **HX)
    assert refused.status_code == 403
    assert stored_points(leader)["mc"] == 4
    refused = client.post(
        gang_act(gang, "recruit"), {"recruit-name": "Kid", "recruit-member_type": "henchman"}
    )
    assert refused.status_code == 403 and gang.members.count() == 5
    accepted = client.post(
        url, points(leader, change="mc:-"), HTTP_X_CSRFTOKEN=match.group(1), **HX
    )
    assert accepted.status_code == 200
    assert stored_points(leader)["mc"] == 3


def test_unknown_urls_are_a_friendly_404(client, db):
    response = client.get("/no/such/page/")
    assert response.status_code == 404
    assert "Not found" in response.content.decode()


def test_every_form_on_the_builder_posts_to_a_real_url(owner_client, gang):
    """With a member open, every form's action and hx-post resolves to a view of this
    gang, for an action its editor has, about a member (and weapon) of this gang."""
    henchman = nth_member(gang, 1)
    page = owner_client.get(page_url(gang, henchman)).content.decode()
    targets = set(re.findall(r'<form[^>]*\baction="([^"]+)"', page))
    targets |= set(re.findall(r'hx-post="([^"]+)"', page))
    views = set()
    for target in targets:
        path = urlsplit(target).path
        match = resolve(path)
        views.add(match.url_name)
        if "gang_id" not in match.kwargs:
            assert match.url_name in ("logout", "set_language"), target
            continue
        assert match.kwargs["gang_id"] == gang.pk, target
        if match.url_name == "gang_action":
            assert match.kwargs["action"] in EDITOR.gang_actions
        if match.url_name == "member_action":
            assert match.kwargs["member_id"] == henchman.pk
            assert match.kwargs["action"] in EDITOR.member_actions
    assert views >= {"member_action", "gang_action", "gang_update", "gang_share_reset"}
    member_items = re.findall(
        rf'name="m{henchman.pk}-remove_weapon-member_item" value="(\d+)"', page
    )
    assert member_items and {int(pk) for pk in member_items} == set(
        henchman.member_items.values_list("pk", flat=True)
    )
    # Every other link that opens a member opens one of this gang.
    for pk in re.findall(r"\?open=(\d+)", page):
        assert gang.members.filter(pk=pk).exists()


def test_logged_out_htmx_request_is_sent_to_log_in_and_back_to_the_gang(client, gang):
    """A session that expired mid-build: no login page pasted into the builder."""
    leader = first_member(gang)
    url = act(gang, leader, "points")
    login_then_gang = (
        reverse("login") + "?next=" + quote(reverse("gang_detail", args=[gang.pk]), "")
    )
    response = client.post(url, points(leader, change="mc:-"), **HX)
    assert response.status_code == 200
    assert response["HX-Redirect"] == login_then_gang
    assert response.content == b""
    response = client.post(gang_act(gang, "recruit"), {"recruit-name": "Kid"}, **HX)
    assert response["HX-Redirect"] == login_then_gang
    response = client.post(url, points(leader, change="mc:-"))
    assert response.status_code == 302 and response["Location"] == login_then_gang
    response = client.get(reverse("gang_detail", args=[gang.pk]))
    assert response["Location"] == login_then_gang
    assert stored_points(leader)["mc"] == 4


def test_a_get_on_a_builder_action_goes_back_to_the_page(owner_client, gang):
    leader = first_member(gang)
    for action in MEMBER_ACTIONS:
        response = owner_client.get(act(gang, leader, action))
        assert response.status_code == 302
        assert response["Location"] == back_to(gang, leader)
        assert owner_client.head(act(gang, leader, action))["Location"] == back_to(gang, leader)
    response = owner_client.get(gang_act(gang, "recruit"))
    assert response.status_code == 302 and response["Location"] == page_url(gang)
    assert owner_client.put(act(gang, leader, "points")).status_code == 405
    assert owner_client.delete(act(gang, leader, "remove")).status_code == 405
    assert gang.members.filter(pk=leader.pk).exists()
    page = owner_client.get(response["Location"] + f"?open={leader.pk}").content.decode()
    assert is_open(page, leader)


def test_pages_answer_head_requests(owner_client, gang):
    for url in (
        reverse("gang_create"),
        reverse("gang_delete", args=[gang.pk]),
        reverse("weapon_list"),
        reverse("gang_detail", args=[gang.pk]),
        page_url(gang, first_member(gang)),
    ):
        assert owner_client.head(url).status_code == 200, url


@pytest.mark.parametrize("action", [a for a in MEMBER_ACTIONS if a != "remove"])
def test_plain_posts_come_back_to_the_member_they_concern(owner_client, gang, action):
    """Without JavaScript a change comes back to the page with its member open and in view;
    a refused one gets the page (status 200) with that member open and the error in it."""
    _method, url, values = member_urls(gang)[action]
    member = first_member(gang)
    response = owner_client.post(url, values)
    assert response.status_code == 302
    assert response["Location"] == back_to(gang, member)
    assert is_open(owner_client.get(response["Location"]).content.decode(), member)
    before = Gang.objects.get(pk=gang.pk).version
    values, message = INVALID[action]
    response = owner_client.post(url, data(member, action, **values))
    assert response.status_code == 200
    body = response.content.decode()
    assert body.lstrip().startswith("<!doctype html>")
    assert is_open(body, member)
    if message:
        assert message in body
    assert Gang.objects.get(pk=gang.pk).version == before


INVALID = {
    "details": ({"name": "X", "member_type": "sheriff"}, "Select a valid choice."),
    "points": ({"str": "lots"}, "Enter a whole number."),
    "add_weapon": ({"item": ""}, "Choose a weapon from the list first."),
    "remove_weapon": ({"member_item": "999999"}, "That weapon is gone already"),
    "horse": ({"item": "999999"}, "That is not in your catalogue"),
    "move": ({"direction": "sideways"}, ""),
}


def test_a_plain_post_from_a_closed_page_opens_the_member_it_changed(owner_client, gang):
    henchman = nth_member(gang, 1)
    response = owner_client.post(
        act(gang, henchman, "points"), {**points(henchman, change="mc:-"), "open": ""}
    )
    assert response["Location"] == back_to(gang, henchman)
