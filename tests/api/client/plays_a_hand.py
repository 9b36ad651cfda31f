"""A client's program, written against the client generated from the served document
(``dealer_client``, by openapi-python-client) and checked with ``mypy --strict``.

It signs in, opens a table, seats three players, deals a hand that ends when seats 2 and 3
drop, then reads the hand, its replay, every seat's statement and seat 1's printed statement.
Run as ``python plays_a_hand.py URL NAME PIN``: it prints what it read as one JSON line.
"""

from __future__ import annotations

import json
import sys

from dealer_client import AuthenticatedClient, Client
from dealer_client.api.disputes import read_seat_statement, replay_hand
from dealer_client.api.hands import read_hand, record_event, start_hand
from dealer_client.api.reports import print_seat_statement
from dealer_client.api.sign_in import sign_in
from dealer_client.api.tables import create_table, seat_player
from dealer_client.models import (
    DropEvent,
    HandSeatViewAllowedItem,
    HandView,
    HandViewStatus,
    NewHand,
    NewSeat,
    NewTable,
    NewTableProfile,
    Recorded,
    Refused,
    ReplaySeatStatus,
    ReplayView,
    ReplayViewStatus,
    RuleNamedCode,
    SignedIn,
    SignIn,
    Statement,
    TableView,
)
from dealer_client.types import File

SEATS = (1, 2, 3)


def plays(base_url: str, name: str, pin: str) -> dict[str, object]:
    """Play the hand; what was read, for the caller to check."""
    signed = sign_in.sync(client=Client(base_url=base_url), body=SignIn(name=name, pin=pin))
    if not isinstance(signed, SignedIn):
        raise SystemExit(f"not signed in: {signed}")
    floor = AuthenticatedClient(base_url=base_url, token=signed.token)
    table = create_table.sync(
        client=floor, body=NewTable(name="Typed", profile=NewTableProfile.CLASSIC)
    )
    if not isinstance(table, TableView):
        raise SystemExit(f"no table: {table}")
    for seat in SEATS:
        body = NewSeat(seat=seat, player=f"P{seat}", buy_in=50)
        seat_player.sync(table.id, client=floor, body=body)
    hand = start_hand.sync(table.id, client=floor, body=NewHand())
    if not isinstance(hand, HandView):
        raise SystemExit(f"no hand: {hand}")
    allowed: list[HandSeatViewAllowedItem] = hand.seats.additional_properties["2"].allowed
    assert HandSeatViewAllowedItem.DROP in allowed
    rules: list[str] = []
    for seat in (2, 3):
        recorded = record_event.sync(hand.id, client=floor, body=DropEvent(type_="drop", seat=seat))
        if isinstance(recorded, Refused):
            raise SystemExit(recorded.error.message)
        assert isinstance(recorded, Recorded)
        rules += [payment.rule.value for payment in recorded.payments]
    read = read_hand.sync(hand.id, client=floor)
    assert isinstance(read, HandView) and read.status is HandViewStatus.SETTLED
    replay = replay_hand.sync(hand.id, client=floor, at=2)
    assert isinstance(replay, ReplayView)
    after_first_drop = replay.seats.additional_properties["2"].status
    statements: dict[str, int] = {}
    for seat in SEATS:
        statement = read_seat_statement.sync(hand.id, seat, client=floor)
        assert isinstance(statement, Statement) and statement.balanced
        codes: list[RuleNamedCode] = [line.rule.code for line in statement.lines]
        assert codes, f"seat {seat} moved no chips"
        statements[str(seat)] = statement.net
    printed = print_seat_statement.sync(hand.id, 1, client=floor)
    assert isinstance(printed, File)
    return {
        "status": read.status.value,
        "winner": read.winner,
        "rules": rules,
        "replay": [replay.at, replay.status is ReplayViewStatus.PLAYING],
        "seat_2_after_its_drop": after_first_drop is ReplaySeatStatus.DROPPED,
        "statements": statements,
        "pdf": printed.payload.read(5).decode(),
    }


if __name__ == "__main__":
    print(json.dumps(plays(*sys.argv[1:4])))
