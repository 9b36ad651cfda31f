"""Tables and seats: set-up, buy-ins, cash-outs, leaving, balances, the time collection."""

from __future__ import annotations

from datetime import datetime, timedelta

from dealer.rules import PROFILES
from tests.helpers import Api


def test_create_table_answers_every_effective_knob(floor: Api) -> None:
    table = floor.table("classic", rules={"going_out_chips": 2}, chip_value_cents=25)
    assert table["name"] == "Table 1"
    assert table["profile"] == "classic"
    assert table["rules"] == {**PROFILES["classic"].knobs(), "going_out_chips": 2}
    assert table["collection"] == {"kind": "none"}
    assert table["chip_value_cents"] == 25
    assert isinstance(table["id"], int)


def test_create_table_with_each_collection(floor: Api) -> None:
    for collection in (
        {"kind": "none"},
        {"kind": "per_hand", "chips": 1},
        {"kind": "time", "chips": 2, "minutes": 30},
        {"kind": "rake_percent", "percent": 10, "cap": 5},
    ):
        table = floor.table("cardroom", collection=collection)
        assert table["collection"] == collection
        assert bool(table["warnings"]) == (collection["kind"] == "rake_percent")


def test_unknown_knob_or_profile_or_collection_is_422(floor: Api) -> None:
    for body, code in [
        ({"name": "T", "profile": "classic", "rules": {"jokers": 2}}, "unknown_knob"),
        ({"name": "T", "profile": "texas"}, "unknown_profile"),
        ({"name": "T", "profile": "classic", "rules": {"packs": 0}}, "invalid_rules"),
        ({"name": "T", "profile": "classic", "collection": {"kind": "tip"}}, "unknown_collection"),
        ({"name": "T", "profile": "classic", "collection": {"kind": "time"}}, "invalid_rules"),
        ({"profile": "classic"}, "invalid"),
        ({"name": "T"}, "invalid"),
    ]:
        error = floor.post("/tables", body, status=422)["error"]
        assert error["code"] == code, body


def test_get_table_shows_seats_and_the_hand_in_play(api: Api, floor: Api) -> None:
    table = floor.table()
    api.seat(table["id"], 3, "Ana", 50)
    api.seat(table["id"], 5, "Ben", 70)
    shown = api.get(f"/tables/{table['id']}")
    assert shown["rules"] == table["rules"]
    assert shown["seats"]["3"]["player"] == "Ana"
    assert shown["seats"]["3"]["stack"] == 50
    assert shown["seats"]["5"]["stack"] == 70
    assert shown["hand"] is None
    hand = api.hand(table["id"])
    assert api.get(f"/tables/{table['id']}")["hand"] == hand["id"]


def test_unknown_table_is_404(api: Api) -> None:
    for path in ("/tables/999", "/tables/999/balances", "/tables/999/ledger"):
        assert api.get(path, status=404)["error"]["code"] in ("unknown_table", "not_found")
    api.post("/tables/999/seats", {"seat": 1, "player": "A", "buy_in": 1}, status=404)
    api.post("/tables/99999999999999999999/seats", {}, status=404)


def test_seat_answers_the_seat_and_a_taken_seat_is_409(api: Api, floor: Api) -> None:
    table = floor.table()
    seat = api.seat(table["id"], 2, "Ana", 40)
    assert {k: seat[k] for k in ("seat", "player", "stack")} == {
        "seat": 2,
        "player": "Ana",
        "stack": 40,
    }
    body = {"seat": 2, "player": "Ben", "buy_in": 40}
    error = api.post(f"/tables/{table['id']}/seats", body, status=409)["error"]
    assert error["code"] == "seat_taken"


def test_buy_in_and_cash_out_move_chips_through_the_cage(api: Api, floor: Api) -> None:
    table = floor.table()
    api.seat(table["id"], 1, "Ana", 40)
    path = f"/tables/{table['id']}/seats/1/chips"
    assert api.post(path, {"kind": "buy_in", "amount": 25}, status=201)["stack"] == 65
    assert api.post(path, {"kind": "cash_out", "amount": 15}, status=201)["stack"] == 50
    error = api.post(path, {"kind": "cash_out", "amount": 51}, status=422)["error"]
    assert error["code"] == "not_enough_chips"
    api.post(path, {"kind": "tip", "amount": 1}, status=422)
    api.post(path, {"kind": "buy_in", "amount": 0}, status=422)
    api.post(f"/tables/{table['id']}/seats/2/chips", {"kind": "buy_in", "amount": 1}, status=404)
    entries = api.get(f"/tables/{table['id']}/ledger")["entries"]
    assert [(e["from"], e["to"], e["chips"], e["rule"]) for e in entries] == [
        ("cage", "1", 40, "buy_in"),
        ("cage", "1", 25, "buy_in"),
        ("1", "cage", 15, "cash_out"),
    ]


def test_leaving_cashes_out_and_frees_the_seat(api: Api, floor: Api) -> None:
    table = floor.table()
    api.seat(table["id"], 1, "Ana", 40)
    left = api.delete(f"/tables/{table['id']}/seats/1", status=200)
    assert (left["seat"], left["player"], left["stack"], left["cashed_out"]) == (1, "Ana", 40, 40)
    assert api.get(f"/tables/{table['id']}/balances")["seats"] == {}
    # The seat is reused by the next player, with a stack of their own.
    assert api.seat(table["id"], 1, "Ben", 10)["stack"] == 10
    api.delete(f"/tables/{table['id']}/seats/2", status=404)


def test_no_leaving_or_cashing_out_while_in_the_hand_in_play(api: Api, floor: Api) -> None:
    table = floor.table()
    for seat in (1, 2):
        api.seat(table["id"], seat, f"P{seat}", 40)
    api.seat(table["id"], 1 + 2, "Late", 40)
    hand = api.hand(table["id"])
    assert set(hand["seats"]) == {"1", "2", "3"}
    error = api.delete(f"/tables/{table['id']}/seats/1", status=409)["error"]
    assert error["code"] == "seat_in_hand"
    body = {"kind": "cash_out", "amount": 1}
    api.post(f"/tables/{table['id']}/seats/1/chips", body, status=409)
    # A rebuy in the middle of a hand is fine.
    api.post(f"/tables/{table['id']}/seats/1/chips", {"kind": "buy_in", "amount": 5}, status=201)


def test_balances_shape(api: Api, floor: Api) -> None:
    table = floor.table("cardroom", collection={"kind": "per_hand", "chips": 1})
    api.seat(table["id"], 1, "Ana", 40)
    api.seat(table["id"], 4, "Ben", 30)
    api.hand(table["id"])
    balances = api.get(f"/tables/{table['id']}/balances")
    assert balances["seats"]["1"]["player"] == "Ana"
    # 1 to the house and the 1-chip ante each.
    assert balances["seats"]["1"]["stack"] == 38
    assert balances["seats"]["4"]["stack"] == 28
    assert balances["house"] == 2
    assert balances["pot"] == 2


def test_time_collection_takes_from_every_seated_player(api: Api, floor: Api) -> None:
    table = floor.table("classic", collection={"kind": "time", "chips": 3, "minutes": 30})
    api.seat(table["id"], 1, "Ana", 40)
    api.seat(table["id"], 2, "Ben", 40)
    taken = api.post(f"/tables/{table['id']}/collections", status=201)
    assert [(p["from"], p["to"], p["chips"]) for p in taken["payments"]] == [
        ("1", "house", 3),
        ("2", "house", 3),
    ]
    assert taken["balances"]["house"] == 6
    assert api.stacks(table["id"]) == {1: 37, 2: 37}
    timing = api.get(f"/tables/{table['id']}")["time_collection"]
    last, due = (datetime.fromisoformat(timing[k]) for k in ("last", "due"))
    assert due - last == timedelta(minutes=30)


def test_a_time_table_says_the_collection_is_due_before_the_first(api: Api, floor: Api) -> None:
    table = floor.table("classic", collection={"kind": "time", "chips": 1, "minutes": 20})
    assert api.get(f"/tables/{table['id']}")["time_collection"] == {"last": None, "due": None}
    assert "time_collection" not in api.get(f"/tables/{floor.table()['id']}")


def test_time_collection_only_at_time_tables(api: Api, floor: Api) -> None:
    table = floor.table("classic")
    error = api.post(f"/tables/{table['id']}/collections", status=409)["error"]
    assert error["code"] == "not_a_time_table"


def test_the_ledger_reads_in_pages(api: Api, floor: Api) -> None:
    table = floor.table()
    for seat in range(1, 6):
        api.seat(table["id"], seat, f"P{seat}", 10)
    path = f"/tables/{table['id']}/ledger"
    everything = api.get(path)["entries"]
    assert [e["seq"] for e in everything] == [1, 2, 3, 4, 5]
    assert [e["seq"] for e in api.get(path + "?after=2&limit=2")["entries"]] == [3, 4]
    assert api.get(path + "?after=5")["entries"] == []
    for query in ("?limit=0", "?after=-1", "?limit=x", "?after=\u0661"):
        assert api.get(path + query, status=422)["error"]["code"] == "invalid_query"


def test_the_floor_lists_every_table_with_what_a_client_starts_from(api: Api, floor: Api) -> None:
    """A supervisor sees every table's seats; a dealer sees every table's name, profile and
    open session, and the seats and hand in play only of the tables they deal."""
    mine = floor.table("classic", name="Table 1")
    other = floor.table("cardroom", name="Table 2", dealer=None)
    api.seat(mine["id"], 3, "Ana", 50)
    api.seat(mine["id"], 4, "Ben", 50)
    hand = api.hand(mine["id"])
    listed = {t["id"]: t for t in floor.get("/tables")["tables"]}
    assert list(listed) == [mine["id"], other["id"]]
    assert listed[mine["id"]]["name"] == "Table 1"
    assert listed[mine["id"]]["profile"] == "classic"
    assert listed[mine["id"]]["session"]["dealer"] == "Dee"
    assert listed[mine["id"]]["seats"]["3"]["stack"] == api.stacks(mine["id"])[3]
    assert listed[mine["id"]]["hand"] == hand["id"]
    assert listed[other["id"]]["session"] is None
    assert listed[other["id"]]["seats"] == {}
    assert all(t["mine"] for t in listed.values())

    seen = {t["id"]: t for t in api.get("/tables")["tables"]}
    assert seen[mine["id"]]["mine"] is True
    assert seen[mine["id"]]["seats"]["3"]["player"] == "Ana"
    assert seen[other["id"]] == {
        "id": other["id"],
        "name": "Table 2",
        "profile": "cardroom",
        "session": None,
        "mine": False,
        "seats": None,
        "hand": None,
    }


def test_a_tables_hands_come_newest_first_in_pages(api: Api, floor: Api) -> None:
    table = floor.table()
    for seat in (1, 2):
        api.seat(table["id"], seat, f"P{seat}")
    dealt = []
    for _ in range(3):
        hand = api.hand(table["id"])
        floor.event(hand["id"], {"type": "void_hand", "reason": "misdeal"})
        dealt.append(hand["id"])
    first = api.get(f"/tables/{table['id']}/hands?limit=2")
    assert [h["id"] for h in first["hands"]] == dealt[:0:-1]
    assert first["hands"][0]["status"] == "void"
    assert first["hands"][0]["number"] == 3
    assert first["hands"][0]["started_at"].endswith("Z")
    assert first["next"] == dealt[1]
    rest = api.get(f"/tables/{table['id']}/hands?limit=2&before={first['next']}")
    assert [h["id"] for h in rest["hands"]] == [dealt[0]]
    assert rest["next"] is None
    everything = api.get(f"/tables/{table['id']}/hands")
    assert [h["id"] for h in everything["hands"]] == dealt[::-1]
    refused = api.get(f"/tables/{table['id']}/hands?limit=0", status=422)
    assert refused["error"]["code"] == "invalid_query"
