"""dealer/hands through its own functions, where the API's tests leave it unsaid: a stored
hand read back (`recorded`) beside another table's hand, its events its own, and its seats'
status as the engine replays them.

The tables and seats are set up through the API; the hands are dealt through `start_hand`,
one write transaction each, as a door makes it. Dee deals; Sam is the floor.
"""

from __future__ import annotations

import pytest
from flask import Flask
from sqlalchemy import select
from sqlalchemy.orm import Session

from dealer.errors import Conflict, Invalid, NotFound
from dealer.extensions import db
from dealer.hands.moves import move_to_seat
from dealer.hands.reading import read_hand, recorded
from dealer.hands.record import record_event, start_hand
from dealer.ledger.post import Recorder
from dealer.models import Event, Hand, Table, User
from dealer.transactions import writing
from tests.helpers import Api
from tests.words.languages import speaking

#: Seat 1's melds that go out at a classic table.
GOING_OUT = [["5S", "5S", "5S"], ["JH", "QH", "KH"], ["2C", "3C", "4C", "5C", "6C"]]


def seated_tables(people: Flask, count: int) -> list[int]:
    sam = Api.sign_in(people, "supervisor")
    tables = [int(sam.table("classic")["id"]) for _ in range(count)]
    for table in tables:
        for seat in (1, 2, 3):
            sam.seat(table, seat, f"P{seat}", 100)
    return tables


def dee(session: Session) -> User:
    return session.scalars(select(User).where(User.name == "Dee")).one()


def recorded_event(people: Flask, hand: int, body: dict[str, object]) -> Event:
    with people.app_context(), writing(db.session()) as session:
        row = session.get(Hand, hand)
        assert row is not None
        dealer = dee(session)
        return record_event(session, row, body, Recorder(dealer.id, "tablet 1"), dealer, None)[1]


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


def test_what_a_hand_refuses_says_why(people: Flask) -> None:
    (table,) = seated_tables(people, 1)
    hand = dealt(people, table, ())
    meld = recorded_event(people, hand, {"type": "meld", "seat": 2, "cards": ["KS", "KS", "KS"]})
    with people.app_context(), writing(db.session()) as session:
        row = session.get(Hand, hand)
        assert row is not None
        dealer = dee(session)
        with pytest.raises(Invalid) as same:
            move_to_seat(session, row, meld.id, 2, Recorder(dealer.id, "tablet 1"), dealer)
        assert same.value.message == f"Event #{meld.seq} is seat 2's already."
        with pytest.raises(NotFound) as unknown:
            read_hand(session, hand + 1)
        assert unknown.value.message == f"There is no hand {hand + 1}."


def test_a_penalty_may_not_charge_a_seat_that_has_left(people: Flask) -> None:
    (table,) = seated_tables(people, 1)
    hand = dealt(people, table, (3,))
    for cards in GOING_OUT:
        recorded_event(people, hand, {"type": "meld", "seat": 1, "cards": cards})
    recorded_event(people, hand, {"type": "go_out", "seat": 1})
    Api.sign_in(people, "supervisor").delete(f"/tables/{table}/seats/2", status=200)
    with pytest.raises(Conflict) as left:
        recorded_event(people, hand, {"type": "penalty", "seat": 2})
    assert left.value.code == "seat_left"
    assert left.value.message == (
        "This would move chips of seat 2 (P2), who left the table and was cashed out."
    )
    with speaking("fil"), pytest.raises(Conflict) as in_filipino:
        recorded_event(people, hand, {"type": "penalty", "seat": 2})
    assert "upuan 2 (P2)" in in_filipino.value.message
