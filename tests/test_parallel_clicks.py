"""Rules hold under simultaneous clicks (issue 19, item 4): many requests at the same
moment, each in its own thread with its own database connection, as a player hammering a
button or two tabs at once would send them."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.db import connection
from django.test import Client
from django.urls import reverse

from builder import services
from rules import get_system
from tests.parallel import in_parallel

pytestmark = pytest.mark.django_db(transaction=True)


def answered(statuses: list) -> bool:
    """Every click was answered, and clicks did get through: on PostgreSQL each one is
    applied or refused with the page (200); the in-memory SQLite test database refuses a
    write made while another holds it, which the site answers politely (503, "try
    again"), but never every one of them (a run of nothing but 503s proves nothing)."""
    allowed = {200} if connection.vendor == "postgresql" else {200, 503}
    return all(s in allowed for s in statuses) and 200 in statuses


def logged_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_fifty_plus_str_at_once_stop_at_the_most_the_rules_allow():
    """A fresh Henchman (10 points to spend, attributes 1 to 6): 50 "+Str" at once leave
    Str at most 6 and never spend more points than he has."""
    call_command("load_content", verbosity=0)
    user = User.objects.create_user("ann", password="x-long-enough-1")
    gang = services.create_gang(user, system="bwg1", name="Hammer", limit=None)
    member = services.append_member(gang, name="Grat", data={"type": "henchman"})
    url = reverse("member_action", args=[gang.pk, member.pk, "points"])
    clients = [logged_in(user) for _ in range(50)]

    def click(i: int) -> int:
        response = clients[i].post(
            url, {f"m{member.pk}-points-change": "str:+"}, HTTP_HX_REQUEST="true"
        )
        return response.status_code

    statuses = in_parallel(click, 50)
    assert answered(statuses), statuses
    member.refresh_from_db()
    gang.refresh_from_db()
    report = get_system("bwg1").evaluate(
        {"system": "bwg1", "name": "Hammer", "limit": None, "gang": {},
         "members": [{"key": "1", "name": "Grat", "data": member.data}]}
    )  # fmt: skip
    figures = report.members["1"]
    assert figures.attributes["str"] > 1, "no click got through"
    assert figures.attributes["str"] <= 6
    assert figures.points_left >= 0
    assert not [f for f in report.findings_for("1") if f.is_error and "point" in f.code]


def test_twenty_recruits_at_once_each_have_their_own_place():
    """The recruitment order decides bonuses: 20 adds at once give 20 positions."""
    call_command("load_content", verbosity=0)
    user = User.objects.create_user("bob", password="x-long-enough-1")
    gang = services.create_gang(user, system="bwg1", name="Crowd", limit=None)
    url = reverse("gang_action", args=[gang.pk, "recruit"])
    clients = [logged_in(user) for _ in range(20)]

    def add(i: int) -> int:
        data = {"recruit-name": f"Hand {i}", "recruit-member_type": "henchman"}
        return clients[i].post(url, data, HTTP_HX_REQUEST="true").status_code

    statuses = in_parallel(add, 20)
    assert answered(statuses), statuses
    positions = list(gang.members.values_list("position", flat=True))
    assert len(set(positions)) == len(positions) == statuses.count(200)


def test_an_action_checked_on_a_gang_changed_since_is_checked_again():
    """Two tabs: each sees one point left and spends it. The second, checked against the
    gang as the first left it, is refused with the reason beside the form."""
    from builder.editors import get_editor
    from builder.editors.base import Catalogue
    from builder.roster import evaluate_gang

    call_command("load_content", verbosity=0)
    user = User.objects.create_user("cy", password="x-long-enough-1")
    gang = services.create_gang(user, system="bwg1", name="Tabs", limit=None)
    data = {"type": "henchman", "points": {"str": 3, "qui": 3, "sta": 3}}
    member = services.append_member(gang, name="Emmett", data=data)
    form_class = get_editor("bwg1").member_actions["points"]

    def tab(change: str):
        seen = type(gang).objects.get(pk=gang.pk)
        figures = evaluate_gang(seen).report.members[str(member.pk)]
        form = form_class(
            {f"m{member.pk}-points-change": change},
            gang=seen,
            member=seen.members.get(pk=member.pk),
            figures=figures,
            catalogue=Catalogue.for_gang(seen),
        )
        assert form.is_valid(), form.errors
        return form

    first, second = tab("int:+"), tab("rc:+")
    services.run_action(first, user=user)
    with pytest.raises(services.ActionRefused) as refused:
        services.run_action(second, user=user)
    assert "No attribute points left" in str(refused.value.form.errors)
    member.refresh_from_db()
    assert member.data["points"] == {"str": 3, "qui": 3, "sta": 3, "int": 1}
