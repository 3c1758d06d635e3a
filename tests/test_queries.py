"""Query counts are pinned: a page costs the same for 5 members as for 20."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from builder.services import import_gang
from rules.roster import read_roster
from tests.factories import build_gang
from tests.test_roster_files import EXAMPLES

HX = {"HTTP_HX_REQUEST": "true"}

# session, user, gang, members, member items + items, catalogue, the gang's packs, the
# packs it could pick
BUILDER_PAGE_QUERIES = 8
# session, user, gang, member; members + items to check the change; savepoint, the
# member re-read under a lock, its save, the version bump and read-back, release; then
# the fragment: members, items, catalogue, packs twice. (In a test the transaction is a
# savepoint.)
POINTS_UPDATE_QUERIES = 17


def count_queries(func) -> int:
    with CaptureQueriesContext(connection) as ctx:
        response = func()
    assert response.status_code == 200, response.content[:300]
    return len(ctx.captured_queries)


@pytest.mark.parametrize("size", [5, 20])
def test_builder_page_costs_a_fixed_number_of_queries(owner_client, owner, content, size):
    gang = build_gang(owner, size=size)
    url = reverse("gang_detail", args=[gang.pk])
    assert count_queries(lambda: owner_client.get(url)) == BUILDER_PAGE_QUERIES
    assert count_queries(lambda: owner_client.get(url, **HX)) == BUILDER_PAGE_QUERIES


@pytest.mark.parametrize("size", [5, 20])
def test_htmx_points_update_costs_a_fixed_number_of_queries(owner_client, owner, content, size):
    gang = build_gang(owner, size=size)
    leader = gang.members.order_by("position").first()
    url = reverse("member_points", args=[gang.pk, leader.pk])
    queries = count_queries(lambda: owner_client.post(url, {"change": "mc:-"}, **HX))
    assert queries == POINTS_UPDATE_QUERIES


@pytest.mark.parametrize("size", [5, 20])
def test_share_page_costs_a_fixed_number_of_queries(client, owner, content, size):
    gang = build_gang(owner, size=size)
    url = reverse("gang_shared", args=[gang.share_token])
    # gang, members, member items + items (no session for a visitor)
    assert count_queries(lambda: client.get(url)) == 3


@pytest.mark.parametrize("size", [1, 20])
def test_a_cached_pdf_costs_a_fixed_number_of_queries(client, owner, content, size, monkeypatch):
    from builder import printing

    monkeypatch.setattr(printing, "print_pdf", lambda *args, **kwargs: b"%PDF-1.7 made once")
    gang = build_gang(owner, size=size)
    url = reverse("gang_shared_print", args=[gang.share_token]) + "?kind=cards&paper=a4"
    # gang, members, member items + items: the same for a new PDF and a cached one
    assert count_queries(lambda: client.get(url)) == 3
    assert count_queries(lambda: client.get(url)) == 3


@pytest.mark.parametrize("gangs", [1, 6])
def test_my_gangs_costs_a_fixed_number_of_queries(owner_client, owner, content, gangs):
    for i in range(gangs):
        build_gang(owner, size=5 + i, name=f"Gang {i}")
    # session, user, gangs, members, member items + items
    assert count_queries(lambda: owner_client.get(reverse("gang_list"))) == 5


# session, user, gang, members, member items, catalogue, the gang's packs, the packs it
# could pick
EDITOR_PAGE_QUERIES = 8


def gang_of(owner, system: str, size: int):
    """The system's first legal example, its members repeated to ``size``."""
    path = next(p for p in EXAMPLES if p.name.startswith(f"{system}-legal-"))
    roster = read_roster(path.read_bytes())
    roster["members"] = [
        {**roster["members"][i % len(roster["members"])], "key": str(i + 1)} for i in range(size)
    ]
    return import_gang(owner, roster)


@pytest.mark.parametrize("size", [1, 50])
@pytest.mark.parametrize("system", ["bwg2", "gf26", "rivals", "gunfight"])
def test_each_systems_builder_page_costs_a_fixed_number_of_queries(
    owner_client, client, owner, content, system, size
):
    """The builder page, its htmx fragment and its share page, for 1 or 50 members."""
    gang = gang_of(owner, system, size)
    page = reverse("gang_detail", args=[gang.pk])
    assert count_queries(lambda: owner_client.get(page)) == EDITOR_PAGE_QUERIES
    assert count_queries(lambda: owner_client.get(page, **HX)) == EDITOR_PAGE_QUERIES
    shared = reverse("gang_shared", args=[gang.share_token])
    # gang, members, member items (none for these systems)
    assert count_queries(lambda: client.get(shared)) == 3
