"""dealer/hands through its own functions: a hand dealt (`start_hand`), its events recorded
(`record_event`), a wrong-seat entry moved (`move_to_seat`), and a stored hand read back
(`read_hand`, `Recorded`) even when the engine can no longer replay it.

The tables and seats are set up through the API; each write here is one write transaction,
as a door makes it. Dee deals; Sam is the floor.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import select
from sqlalchemy.orm import Session

from dealer import rules
from dealer.errors import Conflict, Forbidden, Invalid, NotFound
from dealer.extensions import db
from dealer.floor.in_play import hands_in_play
from dealer.hands.moves import movable, move_to_seat, moved_reason
from dealer.hands.reading import Recorded, load_hand, read_hand
from dealer.hands.record import record_event, start_hand
from dealer.ledger.post import Recorder
from dealer.models import AuditRecord, Down, Event, Hand, Table, User
from dealer.transactions import writing
from tests.helpers import Api


@contextmanager
def written(app: Flask) -> Iterator[Session]:
    with app.app_context(), writing(db.session()) as session:
        yield session


def person(session: Session, name: str) -> User:
    return session.scalars(select(User).where(User.name == name)).one()


def recorder(session: Session, name: str = "Dee") -> Recorder:
    return Recorder(person(session, name).id, "tablet 1")


def seated_table(people: Flask, seats: int = 3) -> int:
    sam = Api.sign_in(people, "supervisor")
    table = int(sam.table("classic")["id"])
    for seat in range(1, seats + 1):
        sam.seat(table, seat, f"P{seat}", 100)
    return table


def deal(app: Flask, table: int, dropped: tuple[int, ...] = ()) -> int:
    with written(app) as session:
        replayed = start_hand(session, session.get_one(Table, table), dropped, recorder(session))
        return replayed.row.id


def event(
    app: Flask, hand: int, body: dict[str, Any], by: str = "Dee", supervisor: str | None = None
) -> Event:
    with written(app) as session:
        _replayed, row, _entries = record_event(
            session,
            session.get_one(Hand, hand),
            body,
            recorder(session, by),
            person(session, by),
            person(session, supervisor) if supervisor else None,
        )
        return row


def audit(app: Flask, kind: str) -> list[AuditRecord]:
    with app.app_context():
        query = select(AuditRecord).where(AuditRecord.kind == kind).order_by(AuditRecord.id)
        return list(db.session.scalars(query))


def test_dealing_numbers_the_tables_hands_and_opens_a_down(people: Flask) -> None:
    table = seated_table(people)
    first = deal(people, table, (3,))
    with people.app_context():
        session = db.session()
        hand = session.get_one(Hand, first)
        assert (hand.number, hand.status, sorted(hand.seats)) == (1, "playing", ["1", "2", "3"])
        down = session.get_one(Down, hand.down_id)
        assert (down.table_id, down.closed_at) == (table, None)
        assert [e.type for e in load_hand(session, hand.id).events] == ["deal", "drop"]
        assert hands_in_play(session, [table])[table].id == first
    with pytest.raises(Conflict) as again:
        deal(people, table)
    assert again.value.code == "hand_in_play"
    event(people, first, {"type": "void_hand", "reason": "Misdeal."}, by="Sam")
    with people.app_context():
        assert table not in hands_in_play(db.session(), [table])
    second = deal(people, table)
    with people.app_context():
        session = db.session()
        hand = session.get_one(Hand, second)
        assert hand.number == 2 and hand.down_id == session.get_one(Hand, first).down_id


def test_a_seat_not_dealt_in_cannot_drop(people: Flask) -> None:
    table = seated_table(people)
    with pytest.raises(Invalid) as refused:
        deal(people, table, (4,))
    assert refused.value.code == "not_dealt_in"
    assert "Seat 4 is not dealt into this hand" in refused.value.message
    with people.app_context():
        assert db.session.scalars(select(Hand)).all() == []  # nothing was dealt


def test_a_paused_seat_is_not_dealt_in(people: Flask) -> None:
    table = seated_table(people)
    sam = Api.sign_in(people, "supervisor")
    sam.post(f"/tables/{table}/seats/2/pause", {"paused": True}, status=200)
    hand = deal(people, table)
    with people.app_context():
        assert sorted(db.session.get_one(Hand, hand).seats) == ["1", "3"]


def test_a_void_names_its_event_by_id_and_is_on_the_audit_trail(people: Flask) -> None:
    table = seated_table(people)
    hand = deal(people, table)
    meld = event(people, hand, {"type": "meld", "seat": 2, "cards": ["KS", "KS", "KS"]})
    with pytest.raises(Invalid) as unknown:
        event(people, hand, {"type": "void", "event": meld.id + 100, "reason": "x"})
    assert unknown.value.code == "unknown_event"
    void = event(people, hand, {"type": "void", "event": meld.id, "reason": " Wrong cards. "})
    assert void.action is not None and void.action["event"] == meld.seq == 2
    with people.app_context():
        replayed = load_hand(db.session(), hand)
        assert set(replayed.engine.voided) == {2}
    record = audit(people, "void")[-1]
    assert record.words == f"Voided event #2 of hand 1 at table {table}: Wrong cards."
    assert record.details == {"event": void.id, "voided": 2}
    with pytest.raises(rules.RulesError):  # the engine's: a void needs a reason
        event(people, hand, {"type": "void", "event": meld.id, "reason": " "})


def test_voiding_the_whole_hand_needs_the_floor_and_names_who_approved(people: Flask) -> None:
    table = seated_table(people)
    hand = deal(people, table)
    with pytest.raises(Forbidden) as refused:
        event(people, hand, {"type": "void_hand", "reason": "Misdeal."})
    assert refused.value.code == "supervisor_required"
    assert audit(people, "supervisor_approval") == []
    void = event(people, hand, {"type": "void_hand", "reason": "Misdeal."}, supervisor="Sam")
    with people.app_context():
        assert void.supervisor_id == person(db.session(), "Sam").id
    assert audit(people, "void")[-1].words == (
        f"Voided the whole hand of hand 1 at table {table}: Misdeal."
    )
    approved = audit(people, "supervisor_approval")
    assert len(approved) == 1 and approved[0].words.startswith("Sam approved")
    # The floor voiding it itself approves it, and is not said to approve its own entry.
    second = deal(people, table)
    event(people, second, {"type": "void_hand", "reason": "Deck short."}, by="Sam")
    assert audit(people, "void")[-1].words == (
        f"Voided the whole hand of hand 2 at table {table}: Deck short."
    )
    assert len(audit(people, "supervisor_approval")) == 1


def test_a_wrong_seat_entry_moves_in_one_step(people: Flask) -> None:
    table = seated_table(people)
    hand = deal(people, table)
    meld = event(people, hand, {"type": "meld", "seat": 2, "cards": ["KS", "KS", "KS"]})
    with people.app_context():
        session = db.session()
        replayed = load_hand(session, hand)
        assert movable(replayed, replayed.events[1])
        assert not movable(replayed, replayed.events[0])  # the deal names no seat
        assert moved_reason(meld, 3) == "Wrong seat: entered for seat 2, moved to seat 3."

    def move(event_id: int, seat: int) -> tuple[Event, Event]:
        with written(people) as session:
            row = session.get_one(Hand, hand)
            return move_to_seat(
                session, row, event_id, seat, recorder(session), person(session, "Dee")
            )

    with pytest.raises(Invalid) as same:
        move(meld.id, 2)
    assert same.value.code == "same_seat"
    with pytest.raises(Invalid) as unknown:
        move(meld.id + 100, 3)
    assert unknown.value.code == "unknown_event"
    voided, again = move(meld.id, 3)
    assert (voided.type, voided.action and voided.action["event"]) == ("void", meld.seq)
    assert (again.type, again.seat, again.seq) == ("meld", 3, 4)
    with people.app_context():
        replayed = load_hand(db.session(), hand)
        assert [m.cards for m in replayed.engine.melds_of(3)] == [
            m.cards for m in replayed.engine.melds_of(3)
        ]
        assert len(replayed.engine.melds_of(3)) == 1 and replayed.engine.melds_of(2) == []
        assert not movable(replayed, replayed.events[1])  # voided already
    moved = audit(people, "seat_moved")[-1]
    assert moved.words == "Wrong seat: entered for seat 2, moved to seat 3. (hand 1, event #2)"
    assert moved.details == {"event": meld.id, "again": again.id, "seat": 3}
    with pytest.raises(Conflict) as not_movable:
        move(meld.id, 1)
    assert not_movable.value.code == "not_movable"


def test_a_hand_is_read_with_its_events_or_not_found(people: Flask) -> None:
    table = seated_table(people)
    hand = deal(people, table, (1,))
    with people.app_context():
        session = db.session()
        row, events = read_hand(session, hand)
        assert row.id == hand and [e.seq for e in events] == [1, 2]
        for missing in (0, -1, hand + 1, 2**63):
            with pytest.raises(NotFound) as error:
                read_hand(session, missing)
            assert error.value.code == "unknown_hand"


def stored(seq: int, kind: str, seat: int | None, action: dict[str, Any] | None) -> Event:
    return Event(seq=seq, type=kind, seat=seat, action=action)


def test_a_hand_the_engine_cannot_replay_is_still_read_from_what_was_stored() -> None:
    """No engine: the texts are the stored actions' own, the voids and the seats' status read
    from the drops and fouls that stand."""
    hand = Hand(seats={"1": 11, "2": 12, "3": 13})
    events = [
        stored(1, "deal", None, None),
        stored(2, "drop", 1, {"type": "drop", "seat": 1}),
        stored(3, "foul", 2, {"type": "foul", "seat": 2, "reason": "x"}),
        stored(4, "void", None, {"type": "void", "event": 3, "reason": "no"}),
        stored(5, "drop", 3, {"type": "drop", "seat": 3}),
        stored(6, "void", None, {"type": "void", "event": "5"}),
        stored(7, "strange", None, {"type": "strange"}),
    ]
    recorded = Recorded(hand, events, None, "the engine changed")
    assert recorded.voided() == {3}
    assert recorded.seat_status() == {1: "dropped", 2: "in", 3: "dropped"}
    texts = recorded.texts()
    assert texts[0] == "deal"
    assert texts[1] == "seat 1 drops"
    assert texts[6] == "strange {'type': 'strange'}"
