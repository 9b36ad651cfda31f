"""dealer/hands through its own functions, where the API's tests leave it unsaid: a stored
hand read back (`recorded`) beside another table's hand, its events its own, and its seats'
status as the engine replays them.

The tables and seats are set up through the API; the hands are dealt through `start_hand`,
one write transaction each, as a door makes it. Dee deals; Sam is the floor.
"""

from __future__ import annotations

from flask import Flask
from sqlalchemy import select

from dealer.extensions import db
from dealer.hands.reading import recorded
from dealer.hands.record import start_hand
from dealer.ledger.post import Recorder
from dealer.models import Hand, Table, User
from dealer.transactions import writing
from tests.helpers import Api


def seated_tables(people: Flask, count: int) -> list[int]:
    sam = Api.sign_in(people, "supervisor")
    tables = [int(sam.table("classic")["id"]) for _ in range(count)]
    for table in tables:
        for seat in (1, 2, 3):
            sam.seat(table, seat, f"P{seat}", 100)
    return tables


def dealt(people: Flask, table: int, dropped: tuple[int, ...]) -> int:
    with people.app_context(), writing(db.session()) as session:
        dee = session.scalars(select(User).where(User.name == "Dee")).one()
        found = session.get(Table, table)
        assert found is not None
        return start_hand(session, found, dropped, Recorder(dee.id, "tablet 1")).row.id


def test_a_stored_hand_is_read_with_its_own_events_and_its_seats_as_replayed(
    people: Flask,
) -> None:
    first, second = seated_tables(people, 2)
    ours = dealt(people, first, (2,))
    theirs = dealt(people, second, ())
    with people.app_context():
        hand = db.session.get(Hand, ours)
        assert hand is not None
        read = recorded(db.session(), hand)
        assert read.engine is not None
        assert {event.hand_id for event in read.events} == {ours}
        assert [event.seq for event in read.events] == [1, 2]
        assert read.seat_status() == {1: "in", 2: "dropped", 3: "in"}
        other = db.session.get(Hand, theirs)
        assert other is not None
        assert recorded(db.session(), other).seat_status() == {1: "in", 2: "in", 3: "in"}
