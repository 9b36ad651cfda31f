"""Players through the API: add, find as you type, seat with a player id, and a player's
statement across sessions and days, whose sums are the ledger's."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from dealer.extensions import db
from dealer.models import LedgerEntry, Seating
from tests.helpers import Api


def add(api: Api, name: str, **fields: Any) -> dict[str, Any]:
    player: dict[str, Any] = api.post("/players", {"name": name, **fields}, status=201)
    return player


def test_a_player_is_added_found_as_you_type_and_read(floor: Api) -> None:
    ann = add(floor, "Ann Lee", card_number="C-100", notes="Likes seat 1")
    add(floor, "Joanne")
    add(floor, "Bob")
    assert (ann["name"], ann["card_number"], ann["notes"]) == ("Ann Lee", "C-100", "Likes seat 1")
    names = [p["name"] for p in floor.get("/players?q=an")["players"]]
    assert names == ["Ann Lee", "Joanne"]  # names that start with it first
    assert [p["name"] for p in floor.get("/players?q=C-100")["players"]] == ["Ann Lee"]
    assert [p["name"] for p in floor.get("/players?q=%25")["players"]] == []  # no wildcard
    assert len(floor.get("/players")["players"]) == 3
    assert floor.get(f"/players/{ann['id']}") == ann
    assert floor.get("/players/999", status=404)["error"]["code"] == "unknown_player"


def test_a_dealer_finds_and_seats_players_but_never_reads_their_card_or_notes(
    api: Api, floor: Api
) -> None:
    """The Players screen is the floor's: through the API a dealer finds a player by name, or
    by the card number the player shows, and reads the name only; so does a dealer adding one."""
    ann = add(floor, "Ann Lee", card_number="C-100", notes="Owes the cage")
    private = {"card_number": None, "notes": None}
    for found in (
        api.get("/players?q=ann")["players"],
        api.get("/players?q=C-100")["players"],
        api.get("/players")["players"],
        [api.get(f"/players/{ann['id']}")],
    ):
        assert [{**p, **private} for p in found] == found
        assert [p["name"] for p in found] == ["Ann Lee"]
    mine = add(api, "Bo Pike", card_number="C-200", notes="Quiet")
    assert (mine["card_number"], mine["notes"]) == (None, None)
    assert floor.get(f"/players/{mine['id']}")["card_number"] == "C-200"
    assert api.get(f"/players/{ann['id']}/statement", status=403)


def test_bad_players_are_refused_in_words(api: Api) -> None:
    add(api, "Ann", card_number="C-1")
    taken = api.post("/players", {"name": "Other", "card_number": "C-1"}, status=409)
    assert taken["error"]["code"] == "card_number_taken"
    for body, field in (  # each refusal names the field, in words
        ({"name": ""}, "name"),
        ({"name": "x" * 61}, "name"),
        ({}, "name"),
        ({"name": "A", "card_number": "x" * 31}, "card number"),
        ({"name": "A", "notes": "x" * 501}, "notes"),
        ({"name": "A", "nick": "x"}, "nick"),
    ):
        error = api.post("/players", body, status=422)["error"]
        assert field in error["message"], (body, error)
    assert api.get(f"/players?q={'x' * 61}", status=422)["error"]["code"] == "invalid_query"
    assert len(api.get("/players")["players"]) == 1


def test_a_seat_taken_with_a_player_id_belongs_to_the_player(api: Api, floor: Api) -> None:
    ann = add(api, "Ann Lee")
    table = floor.table("classic")["id"]
    seated = api.post(
        f"/tables/{table}/seats", {"seat": 1, "player_id": ann["id"], "buy_in": 50}, status=201
    )
    assert (seated["player"], seated["player_id"]) == ("Ann Lee", ann["id"])
    named = api.post(
        f"/tables/{table}/seats",
        {"seat": 2, "player": "Annie", "player_id": ann["id"], "buy_in": 0},
        status=201,
    )
    assert (named["player"], named["player_id"]) == ("Annie", ann["id"])
    old = api.seat(table, 3, "Walk-in")  # the name alone still works
    assert old["player_id"] is None
    seats = api.get(f"/tables/{table}")["seats"]
    assert seats["3"]["player"] == "Walk-in" and seats["1"]["player_id"] == ann["id"]
    unknown = api.post(
        f"/tables/{table}/seats", {"seat": 4, "player_id": 999, "buy_in": 0}, status=404
    )
    assert unknown["error"]["code"] == "unknown_player"
    nobody = api.post(f"/tables/{table}/seats", {"seat": 4, "buy_in": 0}, status=422)
    assert "player" in nobody["error"]["message"]


def test_a_statement_sums_what_the_ledger_says(api: Api, floor: Api) -> None:
    ann = add(api, "Ann")
    table = floor.table("classic", collection={"kind": "per_hand", "chips": 1})["id"]
    api.post(
        f"/tables/{table}/seats", {"seat": 1, "player_id": ann["id"], "buy_in": 200}, status=201
    )
    for seat in range(2, 7):
        api.seat(table, seat, f"P{seat}")
    voided = api.hand(table)["id"]
    api.event(voided, {"type": "meld", "seat": 1, "cards": ["5S"] * 3})
    floor.event(voided, {"type": "void_hand", "reason": "misdeal"})
    won = api.hand(table)["id"]
    api.event(won, {"type": "meld", "seat": 1, "cards": ["5S"] * 3})
    api.event(won, {"type": "meld", "seat": 1, "cards": ["JH", "QH", "KH"]})
    api.event(won, {"type": "meld", "seat": 1, "cards": ["2C", "3C", "4C", "5C", "6C"]})
    api.event(won, {"type": "go_out", "seat": 1})
    hands = [voided, won]
    api.post(f"/tables/{table}/seats/1/chips", {"kind": "buy_in", "amount": 30}, status=201)
    left = api.delete(f"/tables/{table}/seats/1", status=200)
    # A second stay, at another seat, the same player.
    api.post(
        f"/tables/{table}/seats", {"seat": 1, "player_id": ann["id"], "buy_in": 10}, status=201
    )

    statement = floor.get(f"/players/{ann['id']}/statement")
    signed = ledger_of(floor, ann["id"])
    buy_ins = sum(c for e, c in signed if e.from_account == "cage")
    cash_outs = -sum(c for e, c in signed if e.to_account == "cage")
    play = sum(c for e, c in signed if "cage" not in (e.from_account, e.to_account))
    assert statement["seatings"] == 2
    assert (statement["buy_ins"], statement["cash_outs"]) == (buy_ins, cash_outs)
    assert (buy_ins, cash_outs) == (240, left["cashed_out"])
    assert statement["net"] == play
    assert sum(h["net"] for h in statement["hands"]) + statement["collections"] == play
    assert [h["hand"] for h in statement["hands"]] == hands
    assert statement["hands"][0]["net"] == 0  # the void hand nets zero
    assert statement["hands"][1]["net"] == play
    assert [d["net"] for d in statement["days"]] == [play]
    assert sum(d["buy_ins"] for d in statement["days"]) == 240
    # A window that ends before anything happened holds nothing.
    early = floor.get(f"/players/{ann['id']}/statement?to=2000-01-01")
    assert (early["buy_ins"], early["net"], early["hands"]) == (0, 0, [])
    assert floor.get(f"/players/{ann['id']}/statement?from=nonsense", status=422)["error"]
    assert (
        floor.get(f"/players/{ann['id']}/statement?from=2030-01-01&to=2020-01-01", status=422)[
            "error"
        ]["code"]
        == "empty_window"
    )
    assert api.get(f"/players/{ann['id']}/statement", status=403)["error"]


def ledger_of(api: Api, player: int) -> list[tuple[LedgerEntry, int]]:
    """Every entry of the player's seatings, read from the ledger itself, with its sign."""
    with api.client.application.app_context():
        session = db.session()
        seatings = session.scalars(select(Seating.id).where(Seating.player_id == player))
        accounts = {f"seating:{s}" for s in seatings}
        entries = session.scalars(select(LedgerEntry).order_by(LedgerEntry.seq)).all()
        return [
            (e, e.chips if e.to_account in accounts else -e.chips)
            for e in entries
            if accounts & {e.from_account, e.to_account}
        ]
