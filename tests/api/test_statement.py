"""A seat's statement for a hand (GET /hands/{id}/seats/{seat}/statement): every chip in and
out, by the other party and by rule, adding up to the seat's net as the ledger has it."""

from __future__ import annotations

from typing import Any

from tests.helpers import Api

SEED = [["5S", "5S", "5S"], ["JH", "QH", "KH"], ["2C", "3C", "4C", "5C", "6C"]]


def seed_hand(api: Api, floor: Api) -> dict[str, Any]:
    """Seed 000's hand, settled: seat 5 drops, seat 1 melds three times and goes out."""
    table = floor.table()
    for seat in range(1, 7):
        api.seat(table["id"], seat, f"Player {seat}")
    hand = api.hand(table["id"], dropped=[5])
    for cards in SEED:
        api.event(hand["id"], {"type": "meld", "seat": 1, "cards": cards})
    return api.event(hand["id"], {"type": "go_out", "seat": 1})["hand"]


def ledger_net(api: Api, table: int, hand: int, account: str) -> int:
    entries = api.get(f"/tables/{table}/ledger")["entries"]
    return sum(
        e["chips"] * ((e["to_account"] == account) - (e["from_account"] == account))
        for e in entries
        if e["hand"] == hand
    )


def test_seat_3_paid_seat_1_in_words(api: Api, floor: Api) -> None:
    hand = seed_hand(api, floor)
    found = api.get(f"/hands/{hand['id']}/seats/3/statement")
    assert (found["seat"], found["player"], found["net"]) == (3, "Player 3", -11)
    assert found["ledger_net"] == -11 and found["balanced"]
    assert found["sentences"] == [
        "Seat 3 (Player 3) paid seat 1 (Player 1) 11 chips: 5 for conditions (4 for 5♠ 5♠ 5♠,"
        " 1 for J♥ Q♥ K♥), 1 for going out and 5 for conditions paid again (4 for 5♠ 5♠ 5♠,"
        " 1 for J♥ Q♥ K♥)."
    ]
    (party,) = found["parties"]
    assert (party["party"], party["label"], party["net"]) == ("1", "seat 1 (Player 1)", -11)
    again = next(g for g in party["groups"] if g["rule"]["code"] == "conditions_again")
    assert again["rule"] == {
        "code": "conditions_again",
        "name": "conditions paid again",
        "section": "5.4",
        "link": "/rules/5#item-4",
    }
    assert [line["running"] for line in found["lines"]] == [-4, -5, -6, -11]
    first = found["lines"][0]
    assert first["dispute"] == f"/hands/{hand['id']}/events/{first['event']}/payments/2"
    # Every time with its zone, on SQLite (which keeps none) as on PostgreSQL.
    assert all(line["at"].endswith("Z") for line in found["lines"])


def test_the_winner_and_the_dropped_seat(api: Api, floor: Api) -> None:
    hand = seed_hand(api, floor)
    winner = api.get(f"/hands/{hand['id']}/seats/1/statement")
    assert winner["net"] == 46 == winner["ledger_net"]
    assert [p["party"] for p in winner["parties"]] == ["2", "3", "4", "6", "pot"]
    assert sum(p["net"] for p in winner["parties"]) == 46
    assert "The pot paid seat 1 (Player 1) 2 chips: 2 for the pot." in winner["sentences"]
    dropped = api.get(f"/hands/{hand['id']}/seats/5/statement")
    assert dropped["sentences"] == ["Seat 5 (Player 5) paid the pot 2 chips: 2 for drop forfeit."]


def test_a_seat_not_dealt_in_and_a_hand_that_never_was(api: Api, floor: Api) -> None:
    table = floor.table()
    for seat in (1, 2):
        api.seat(table["id"], seat, f"Player {seat}")
    hand = api.hand(table["id"])
    answer = api.call("GET", f"/hands/{hand['id']}/seats/7/statement", status=404)
    assert answer.get_json()["error"]["code"] == "unknown_seat"
    answer = api.call("GET", "/hands/999999/seats/1/statement", status=404)
    assert answer.get_json()["error"]["code"] == "unknown_hand"
    api.call("GET", f"/hands/{hand['id']}/seats/9/statement", status=404)
    anonymous = Api(api.client)
    anonymous.client.delete_cookie("session")
    assert anonymous.call("GET", f"/hands/{hand['id']}/seats/1/statement").status_code == 401


def assert_every_seat_adds_up(api: Api, table: int, hand: dict[str, Any], seats: list[int]) -> None:
    """For every seat of a hand played to its end: the statement's net is the ledger's, its
    lines add up to it, and the running totals (by line and by party) end on it. Every golden
    hand is held to it as it is replayed through the API (tests/api/test_golden_hands.py)."""
    for seat in seats:
        found = api.get(f"/hands/{hand['id']}/seats/{seat}/statement")
        account = found["account"]
        assert found["net"] == ledger_net(api, table, hand["id"], account), seat
        assert found["net"] == found["ledger_net"] == hand["net"][str(seat)], seat
        assert sum(line["chips"] for line in found["lines"]) == found["net"]
        assert found["received"] - found["paid"] == found["net"]
        running = [line["running"] for line in found["lines"]]
        assert running[-1:] == [found["net"]] or (not running and found["net"] == 0)
        assert sum(p["net"] for p in found["parties"]) == found["net"]
        for party in found["parties"]:
            paid = sum(g["chips"] for g in party["groups"] if g["direction"] == "paid")
            received = sum(g["chips"] for g in party["groups"] if g["direction"] == "received")
            assert (party["paid"], party["received"]) == (paid, received)
