"""Query counts are pinned: a page, opening a member and a change cost the same for 1
member as for 50."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from benchmarks.bench_editors import change_for, grown
from builder.services import import_gang
from rules.roster import read_roster
from tests.factories import build_gang
from tests.test_roster_files import EXAMPLES

HX = {"HTTP_HX_REQUEST": "true"}


def count_queries(func) -> int:
    with CaptureQueriesContext(connection) as ctx:
        response = func()
    assert response.status_code == 200, response.content[:300]
    return len(ctx.captured_queries)


@pytest.mark.parametrize("size", [5, 20])
def test_share_page_costs_a_fixed_number_of_queries(client, owner, content, size):
    gang = build_gang(owner, size=size)
    url = reverse("gang_shared", args=[gang.share_token])
    # gang, members, member items + items (no session for a visitor)
    assert count_queries(lambda: client.get(url)) == 3


@pytest.mark.parametrize("size", [1, 20])
def test_a_cached_pdf_costs_a_fixed_number_of_queries(client, owner, content, size, monkeypatch):
    from builder.printing import documents

    monkeypatch.setattr(documents, "print_pdf", lambda *args, **kwargs: b"%PDF-1.7 made once")
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


# session, user, gang, members, member items (+ items), catalogue, the gang's packs, the
# packs it could pick, the leagues it is registered in (issue 30: their caps)
BUILDER_PAGE_QUERIES = 9
SYSTEMS = ["bwg1", "bwg2", "gf26", "rivals", "gunfight"]


def gang_of(owner, system: str, size: int):
    """The system's first legal example, grown to ``size`` members (one leader kept)."""
    path = next(p for p in EXAMPLES if p.name.startswith(f"{system}-legal-"))
    return import_gang(owner, grown(read_roster(path.read_bytes()), size))


@pytest.mark.parametrize("size", [1, 50])
@pytest.mark.parametrize("system", SYSTEMS)
def test_each_systems_builder_page_costs_a_fixed_number_of_queries(
    owner_client, client, owner, content, system, size
):
    """The builder page (nothing open, a member open), opening a member with htmx, and the
    share page: the same queries for 1 or 50 members."""
    gang = gang_of(owner, system, size)
    member = gang.members.order_by("position", "id").first()
    page = reverse("gang_detail", args=[gang.pk])
    assert count_queries(lambda: owner_client.get(page)) == BUILDER_PAGE_QUERIES
    opened = {"open": member.pk}
    assert count_queries(lambda: owner_client.get(page, opened)) == BUILDER_PAGE_QUERIES
    shown = {"HTTP_X_BUILDER_VERSION": str(gang.version), "HTTP_X_BUILDER_OPEN": ""}
    queries = count_queries(lambda: owner_client.get(page, opened, **HX, **shown))
    assert queries == BUILDER_PAGE_QUERIES
    # A page that says nothing of what it shows gets every part, at the page's cost.
    assert count_queries(lambda: owner_client.get(page, opened, **HX)) == BUILDER_PAGE_QUERIES
    shared = reverse("gang_shared", args=[gang.share_token])
    # gang, members, member items
    assert count_queries(lambda: client.get(shared)) == 3


@pytest.mark.parametrize("system", SYSTEMS)
def test_a_change_costs_the_same_queries_for_1_or_50_members(owner_client, owner, content, system):
    """One real change per system (a point, a card's team, a perk, a tier, a name) and its
    htmx answer: the same number of queries whatever the gang's size."""
    counts = []
    for size in (1, 50):
        gang = gang_of(owner, system, size)
        member = gang.members.order_by("position", "id").first()
        url, data = change_for(system, gang, member, [0])
        shown = {"HTTP_X_BUILDER_VERSION": str(gang.version), "HTTP_X_BUILDER_OPEN": str(member.pk)}
        before = gang.version
        counts.append(
            count_queries(lambda u=url, d=data, s=shown: owner_client.post(u, d, **HX, **s))
        )
        gang.refresh_from_db()
        assert gang.version == before + 1, "the change was made"
    assert counts[0] == counts[1], counts
