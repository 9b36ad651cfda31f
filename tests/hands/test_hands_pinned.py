"""dealer/hands through its own functions, where the API's tests leave it unsaid: a stored
hand read back (`recorded`) beside another table's hand, its events its own, and its seats'
status as the engine replays them; read outside a write, or when the engine no longer replays
it (with why); an event's entries' late seqs until it is stored; a settled hand's end kept and
its events moved only by the floor; seats that have left named in seat order.

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
from dealer.hands import kept, reading
from dealer.hands.moves import move_to_seat
from dealer.hands.reading import read_hand, recorded
from dealer.hands.record import judge_event, record_event, start_hand, store_event
from dealer.hands.rows import LATE_ID
from dealer.ledger.post import Recorder
from dealer.ledger.replay import ReplayError
from dealer.models import Event, Hand, Table, User, as_utc
from dealer.transactions import writing
from dealer.words.ledger import problem_words
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


def test_a_hand_read_outside_a_write_is_replayed_as_it_stands(people: Flask) -> None:
    (table,) = seated_tables(people, 1)
    hand = dealt(people, table, (3,))
    recorded_event(people, hand, {"type": "meld", "seat": 1, "cards": GOING_OUT[0]})
    with people.app_context():
        session = db.session()
        row, events = read_hand(session, hand)
        found = kept.replayed(session, row, events)
        assert found.row is row and found.events == events
        assert [e.seq for e in found.engine.events] == [e.seq for e in events] == [1, 2, 3]
        assert found.engine.seat_status[3] == "dropped"


def test_a_stored_hand_the_engine_no_longer_replays_is_read_with_why(
    people: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    (table,) = seated_tables(people, 1)
    hand = dealt(people, table, ())
    with people.app_context():
        session = db.session()
        row = session.get_one(Hand, hand)
        assert recorded(session, row).row is row
        gone = ReplayError("no_deal", id=hand)

        def refuses(*_args: object) -> None:
            raise gone

        monkeypatch.setattr(reading, "replay_engine", refuses)
        read = recorded(session, row)
        assert read.row is row and [e.seq for e in read.events] == [1]
        assert (read.engine, read.failure) == (None, problem_words(gone))
        assert read.texts() == ["deal"]


def test_an_events_entries_hold_late_seqs_until_it_is_stored(people: Flask) -> None:
    (table,) = seated_tables(people, 1)
    hand = dealt(people, table, ())
    meld = {"type": "meld", "seat": 1, "cards": GOING_OUT[0]}
    with people.app_context(), writing(db.session()) as session:
        dealer = dee(session)
        row = session.get_one(Hand, hand)
        judged = judge_event(session, row, meld, Recorder(dealer.id, "tablet 1"), dealer, None)
        late = [LATE_ID - n for n in range(1, len(judged.entries) + 1)]
        assert late and [e.seq for e in judged.entries] == late
        assert judged.moves_hand is False
        _replayed, _event, entries = store_event(session, judged)
        assert [judged.late()[seq] for seq in late] == [e.seq for e in entries]
        assert min(e.seq for e in entries) > 0


def test_a_settled_hand_keeps_its_end_and_its_events_need_the_floor_to_move(
    people: Flask,
) -> None:
    (table,) = seated_tables(people, 1)
    hand = dealt(people, table, ())
    for cards in GOING_OUT:
        recorded_event(people, hand, {"type": "meld", "seat": 1, "cards": cards})
    out = recorded_event(people, hand, {"type": "go_out", "seat": 1})
    penalty = recorded_event(people, hand, {"type": "penalty", "seat": 2})
    with people.app_context(), writing(db.session()) as session:
        row = session.get_one(Hand, hand)
        assert (row.status, row.winner) == ("settled", 1)
        assert as_utc(row.ended_at) == as_utc(out.created_at)
        dealer = dee(session)
        with pytest.raises(Conflict) as refused:
            move_to_seat(session, row, penalty.id, 3, Recorder(dealer.id, "tablet 1"), dealer)
    assert refused.value.code == "not_movable"


def test_a_payment_of_seats_that_have_left_names_them_in_seat_order(people: Flask) -> None:
    (table,) = seated_tables(people, 1)
    hand = dealt(people, table, ())
    for cards in GOING_OUT:
        recorded_event(people, hand, {"type": "meld", "seat": 1, "cards": cards})
    recorded_event(people, hand, {"type": "go_out", "seat": 1})
    sam = Api.sign_in(people, "supervisor")
    for seat in (3, 2):
        sam.delete(f"/tables/{table}/seats/{seat}", status=200)
    with pytest.raises(Conflict) as left:
        recorded_event(people, hand, {"type": "penalty", "seat": 2})
    assert left.value.message == (
        "This would move chips of seat 2 (P2), seat 3 (P3), who left the table and was cashed out."
    )
