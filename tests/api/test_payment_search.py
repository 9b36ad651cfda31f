"""Find a payment (GET /payments): by hand, session, window, seat, player, amount and rule;
every filter narrows, a bad one is a 422 in words, and only the floor searches."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from tests.api.test_statement import SEED
from tests.helpers import Api


def two_hands(api: Api, floor: Api) -> dict[str, Any]:
    """Seed 000's hand settled at one table, and a hand in play at another (Zed in seat 2)."""
    first = floor.table(name="First")
    for seat in range(1, 7):
        api.seat(first["id"], seat, f"Player {seat}")
    hand = api.hand(first["id"], dropped=[5])
    for cards in SEED:
        api.event(hand["id"], {"type": "meld", "seat": 1, "cards": cards})
    api.event(hand["id"], {"type": "go_out", "seat": 1})
    second = floor.table(name="Second")
    api.seat(second["id"], 1, "Ann")
    api.seat(second["id"], 2, "Zed")
    other = api.hand(second["id"])
    api.event(other["id"], {"type": "meld", "seat": 2, "cards": ["KS", "KS", "KS"]})
    session = api.get(f"/tables/{first['id']}/sessions")["sessions"][0]["id"]
    return {"hand": hand["id"], "other": other["id"], "session": session}


def window() -> str:
    now = datetime.now(UTC)
    start, end = now - timedelta(hours=1), now + timedelta(hours=1)
    return f"from={start.isoformat().replace('+', '%2B')}&to={end.isoformat().replace('+', '%2B')}"


def search(floor: Api, query: str) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = floor.get(f"/payments?{query}")["payments"]
    return found


def test_every_filter_narrows(api: Api, floor: Api) -> None:
    world = two_hands(api, floor)
    hand = world["hand"]
    everything = search(floor, window())
    assert len(everything) == 4 + 4 + 9 + 1 + 1  # drop, two melds, going out; the other hand
    in_hand = search(floor, f"hand={hand}")
    assert {p["hand"] for p in in_hand} == {hand} and len(in_hand) == 18
    assert search(floor, f"session={world['session']}") == in_hand
    times = [p["at"] for p in in_hand]
    assert times == sorted(times, reverse=True), "the newest first"
    # Every time with its zone, on SQLite (which keeps none) as on PostgreSQL.
    assert all(t.endswith("Z") for t in times)
    seat3 = search(floor, f"hand={hand}&seat=3")
    assert len(seat3) == 4
    assert all("3" in (p["from"]["party"], p["to"]["party"]) for p in seat3)
    assert {p["from"]["words"] for p in seat3} == {"seat 3 (Player 3)"}
    zed = search(floor, f"{window()}&player=zE")
    assert [(p["from"]["words"], p["to"]["words"], p["chips"]) for p in zed] == [
        ("seat 1 (Ann)", "seat 2 (Zed)", 2)
    ]
    assert zed[0]["statements"] == {
        "1": f"/api/v1/hands/{world['other']}/seats/1/statement",
        "2": f"/api/v1/hands/{world['other']}/seats/2/statement",
    }
    # Six seatings (Player 1 to 6): read newest first along the window, not seating by seating.
    assert search(floor, f"{window()}&player=player") == in_hand
    assert len(search(floor, f"{window()}&seat=1")) == 8 + 4 + 4 + 1 + 1  # and Ann pays Zed
    fives = search(floor, f"{window()}&amount=5")
    assert len(fives) == 4 and {p["rule"]["code"] for p in fives} == {"conditions_again"}
    again = search(floor, f"hand={hand}&rule=conditions_again&seat=3")
    (one,) = again
    assert (one["chips"], one["rule"]["name"], one["rule"]["link"]) == (
        5,
        "conditions paid again",
        "/rules/5#item-4",
    )
    assert one["dispute"] == f"/hands/{hand}/events/{one['event']}/payments/{one['payment']}"
    shown = next(e for e in floor.get(f"/hands/{hand}")["events"] if e["id"] == one["event"])
    paid = shown["payments"][one["payment"] - 1]
    assert (paid["from"], paid["to"], paid["rule"]) == ("3", "1", "conditions_again")
    assert search(floor, f"hand={hand}&player=nobody") == []
    assert search(floor, f"hand={hand}&seat=8") == []
    limited = floor.get(f"/payments?hand={hand}&limit=3")
    assert len(limited["payments"]) == 3 and limited["more"] is True
    assert floor.get(f"/payments?hand={hand}")["more"] is False
    later = datetime.now(UTC) + timedelta(hours=2)
    query = f"from={later:%Y-%m-%dT%H:%M}Z&to={later + timedelta(hours=1):%Y-%m-%dT%H:%M}Z"
    assert search(floor, query) == []


def test_a_player_record_finds_every_seating_of_theirs(api: Api, floor: Api) -> None:
    """Seated under two names at two tables, is a player found by their record's id?"""
    pat = floor.post("/players", {"name": "Pat", "card_number": "C-77"}, status=201)
    tables = [floor.table(name=name)["id"] for name in ("East", "West")]
    for table, shown in zip(tables, ("Pat", "Patsy"), strict=True):
        api.post(
            f"/tables/{table}/seats",
            {"seat": 1, "player_id": pat["id"], "player": shown, "buy_in": 100},
            status=201,
        )
        api.seat(table, 2, f"Other at {table}")
        hand = api.hand(table)
        api.event(hand["id"], {"type": "meld", "seat": 1, "cards": ["KS", "KS", "KS"]})
    found = search(floor, f"{window()}&player_id={pat['id']}")
    assert [(p["from"]["words"], p["to"]["words"]) for p in found] == [
        ("seat 2 (Other at 2)", "seat 1 (Patsy)"),
        ("seat 2 (Other at 1)", "seat 1 (Pat)"),
    ]
    assert search(floor, f"{window()}&player_id={pat['id'] + 1}") == []


@pytest.mark.parametrize(
    ("query", "code"),
    [
        ("", "no_scope"),
        ("seat=3", "no_scope"),
        ("from=2024-05-03T18:00:00Z", "no_scope"),
        ("hand=0", "invalid_query"),
        ("hand=abc", "invalid_query"),
        ("session=-1", "invalid_query"),
        ("hand=1&seat=9", "invalid_query"),
        ("hand=1&amount=0", "invalid_query"),
        ("hand=1&amount=2.5", "invalid_query"),
        ("hand=1&rule=meld_6", "invalid_query"),
        ("hand=1&player=" + "x" * 61, "invalid_query"),
        ("hand=1&limit=501", "invalid_query"),
        ("hand=1&player_id=0", "invalid_query"),
        ("from=yesterday&to=2024-05-03T18:00:00Z", "invalid_time"),
        ("from=2024-05-03T18:00:00Z&to=2024-05-03T17:00:00Z", "empty_window"),
        ("from=2024-05-03T18:00:00Z&to=2024-07-03T18:00:00Z", "window_too_long"),
        ("hand=1&sort=chips", "unknown_field"),
    ],
)
def test_a_bad_filter_is_a_422_in_words(floor: Api, query: str, code: str) -> None:
    answer = floor.call("GET", f"/payments?{query}", status=422)
    error = answer.get_json()["error"]
    assert error["code"] == code
    assert error["message"].endswith(".") and "Traceback" not in error["message"]


def test_the_rule_is_refused_with_the_rules_in_words(floor: Api) -> None:
    error = floor.call("GET", "/payments?hand=1&rule=x", status=422).get_json()["error"]
    assert "conditions_again (conditions paid again)" in error["message"]


def test_only_the_floor_searches_and_a_down_must_exist(api: Api, floor: Api) -> None:
    answer = api.call("GET", "/payments?hand=1", status=403)
    assert answer.get_json()["error"]["code"] == "role_not_allowed"
    answer = floor.call("GET", "/payments?session=999999", status=404)
    assert answer.get_json()["error"]["code"] == "unknown_session"


def test_a_name_is_compared_as_the_search_in_words_compares_it(api: Api, floor: Api) -> None:
    """One search, one comparison of names: any case, accents dropped, whole words first."""
    table = floor.table(name="Names")["id"]
    for seat, player in ((1, "Rósa"), (2, "Bea T1"), (3, "Bea T10")):
        api.seat(table, seat, player)
    hand = api.hand(table)
    api.event(hand["id"], {"type": "meld", "seat": 1, "cards": ["KS", "KS", "KS"]})

    def payers(player: str) -> set[str]:
        return {p["from"]["words"] for p in search(floor, f"hand={hand['id']}&player={player}")}

    assert payers("ROSA") == {"seat 2 (Bea T1)", "seat 3 (Bea T10)"}  # each pays Rósa
    assert payers("bea%20t1") == {"seat 2 (Bea T1)"}  # not Bea T10
    assert payers("bea") == {"seat 2 (Bea T1)", "seat 3 (Bea T10)"}
