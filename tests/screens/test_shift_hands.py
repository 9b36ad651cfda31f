"""Every hand of the shift reachable: the table screen and the floor list the shift's hands,
paged, the newest first, each with its winner and the chips it moved; every flag on the
floor is a link, open disputes to the list of them, each a link to its hand."""

from __future__ import annotations

import re

from tests.helpers import Api
from tests.screens.conftest import Web, six_seated, words


def dealt(floor_api: Api, table: int, count: int) -> list[int]:
    """``count`` hands at ``table``, each settled at once (five seats drop, seat 6 wins)."""
    return [floor_api.hand(table, dropped=[1, 2, 3, 4, 5])["id"] for _ in range(count)]


def listed(html: str) -> list[int]:
    return [int(h) for h in re.findall(r'data-hand-line="(\d+)"', html)]


def test_every_hand_of_the_shift_is_a_link_from_the_table_and_the_floor(
    dealer: Web, supervisor: Web, floor_api: Api
) -> None:
    table = six_seated(floor_api)
    hands = dealt(floor_api, table, 30)
    newest_first = hands[::-1]

    page = dealer.get(f"/tables/{table}")
    assert listed(page) == newest_first[:10]
    assert "settled · seat 6 (P6) went out · 10 chips moved" in words(page)
    assert f'href="/tables/{table}/hands"' in page

    seen: list[int] = []
    address: str | None = f"/tables/{table}/hands"
    while address:
        page = dealer.get(address)
        assert "30 hands since" in words(page)
        seen += listed(page)
        for hand in listed(page):
            assert f'href="/hands/{hand}"' in page
        older = re.search(r'data-older href="([^"]+)"', page)
        address = older[1].replace("&amp;", "&") if older else None
    assert seen == newest_first

    floor = supervisor.get("/floor")
    assert listed(floor) == newest_first[:10]
    assert 'href="/floor/hands"' in floor
    every = supervisor.get("/floor/hands")
    assert listed(every) == newest_first[:25]
    assert (
        listed(supervisor.get(f"/floor/hands?table={table}&before={hands[5]}")) == hands[:5][::-1]
    )


def test_open_disputes_are_a_link_from_the_floor_to_their_hands(
    supervisor: Web, floor_api: Api
) -> None:
    table = six_seated(floor_api)
    hands = dealt(floor_api, table, 6)
    for hand in (hands[1], hands[4]):
        floor_api.post(
            f"/hands/{hand}/disputes", {"raised_by": "seat", "seat": 3, "claim": "I never dropped"}
        )
    floor = supervisor.get("/floor")
    flag = re.search(r'data-flag="open_disputes"[^>]*href="([^"]+)"', floor)
    assert flag is not None and "2 open disputes" in words(floor)
    listing = supervisor.get(flag[1].replace("&amp;", "&"))
    assert words(listing).count("I never dropped") == 2
    for hand in (hands[1], hands[4]):
        assert re.search(rf'href="/hands/{hand}#dispute-\d+"', listing)
    assert "hand 2" in words(supervisor.get(f"/tables/{table}/hands"))
    assert "1 open dispute" in words(supervisor.get(f"/tables/{table}/hands"))


def test_a_bad_page_is_refused_in_words(supervisor: Web) -> None:
    refused = words(supervisor.get("/floor/hands?before=soon", status=422))
    assert "before must be a whole number" in refused
    assert "There is no table 99" in words(supervisor.get("/floor/hands?table=99", status=404))
    assert "Unknown field 'page': this call takes before, table." in words(
        supervisor.get("/floor/disputes?page=2", status=422)
    )
