"""dealer/floor through its own functions, where the API's tests leave a branch unsaid: the
words of each kind of supervisor's approval, a dealer sent to a table and taken off it, a
dealer who holds a session at another table, a close that waits for the floor and the floor's
confirmation of it, a seat given to a player record, chips moved by a number out of bounds,
and a table's recent hands beside another table's.

Each write here is one write transaction, as a door makes it. Sam is the floor; Dee deals.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from flask import Flask
from sqlalchemy import select
from sqlalchemy.orm import Session

from dealer.errors import Conflict, Invalid, NotFound
from dealer.extensions import db
from dealer.floor.approvals import record_approval
from dealer.floor.assignments import assign, assigned_dealers, assigned_tables, unassign
from dealer.floor.downs import close_down, open_down
from dealer.floor.figures import recent_hands
from dealer.floor.tables import create_table, move_chips, seat_player
from dealer.ledger.post import Recorder
from dealer.models import AuditRecord, Down, Player, Table, User
from dealer.transactions import writing
from tests.helpers import Api


@contextmanager
def written(app: Flask) -> Iterator[Session]:
    with app.app_context(), writing(db.session()) as session:
        yield session


def person(session: Session, name: str) -> User:
    return session.scalars(select(User).where(User.name == name)).one()


def new_table(app: Flask, name: str = "Table 1", approval_above: int = 500) -> int:
    with written(app) as session:
        limits = {"approval_above": approval_above}
        table = create_table(
            session, name, "classic", {}, None, 100, person(session, "Sam"), limits
        )
        return table.id


def audit(app: Flask, kind: str) -> list[AuditRecord]:
    with app.app_context():
        found = db.session.scalars(
            select(AuditRecord).where(AuditRecord.kind == kind).order_by(AuditRecord.id)
        )
        return list(found)


@pytest.mark.parametrize(
    ("what", "words"),
    [
        ("buy_in", "Sam approved a buy-in of 1,200 at Table 1."),
        ("cash_out", "Sam approved a cash-out of 1,200 at Table 1."),
        ("leaving", "Sam approved a cash-out on leaving of 1,200 at Table 1."),
    ],
)
def test_each_kind_of_approval_says_what_was_approved(people: Flask, what: str, words: str) -> None:
    table_id = new_table(people)
    with written(people) as session:
        table = session.get(Table, table_id)
        assert table is not None
        sam, dee = person(session, "Sam"), person(session, "Dee")
        record_approval(session, table, what, 1200, sam, dee)
        record_approval(session, table, what, 500, sam, dee)  # at the threshold: no record
    (record,) = audit(people, "supervisor_approval")
    assert record.words == words
    assert record.details == {
        "supervisor": record.details["supervisor"],
        "amount": 1200,
        "what": what,
    }


def test_a_dealer_assigned_and_taken_off_a_table(people: Flask) -> None:
    table_id = new_table(people)
    with written(people) as session:
        table = session.get(Table, table_id)
        assert table is not None
        sam = person(session, "Sam")
        dee_id = assign(session, table, "Dee", sam).id
        with pytest.raises(Conflict) as twice:
            assign(session, table, "Dee", sam)
        assert twice.value.code == "assigned_already"
    with written(people) as session:
        assert [d.name for d in assigned_dealers(session, table_id)] == ["Dee"]
        assert assigned_tables(session, dee_id) == {table_id}
        table = session.get(Table, table_id)
        assert table is not None
        assert unassign(session, table, dee_id, person(session, "Sam")).name == "Dee"
    with written(people) as session:
        assert assigned_dealers(session, table_id) == []
        assert assigned_tables(session, dee_id) == set()
        table = session.get(Table, table_id)
        assert table is not None
        with pytest.raises(NotFound) as not_there:
            unassign(session, table, dee_id, person(session, "Sam"))
        assert not_there.value.code == "not_assigned"
    words = [r.words for r in audit(people, "assignment")]
    assert words[-1] == "Sam took Dee off Table 1."


def test_a_dealer_holds_one_tables_down_at_a_time(people: Flask) -> None:
    first, second = new_table(people), new_table(people, "Table 2")
    with written(people) as session:
        dee = person(session, "Dee")
        held = open_down(session, session.get(Table, first), dee.id)  # type: ignore[arg-type]
        with pytest.raises(Conflict) as elsewhere:
            open_down(session, session.get(Table, second), dee.id)  # type: ignore[arg-type]
        assert elsewhere.value.code == "dealer_session_open"
        assert f"Your session {held.id} is still open at Table 1" in elsewhere.value.message
        # Dealing with no session open still opens one, the other notwithstanding.
        open_down(session, session.get(Table, second), dee.id, implicit=True)  # type: ignore[arg-type]


def test_a_close_waits_for_the_floor_which_confirms_it(people: Flask) -> None:
    table_id = new_table(people)
    with written(people) as session:
        dee = person(session, "Dee")
        down_id = open_down(session, session.get(Table, table_id), dee.id).id  # type: ignore[arg-type]
    with written(people) as session:
        down = session.get(Down, down_id)
        assert down is not None
        close_down(session, down, person(session, "Dee"), None)
    with written(people) as session:
        down = session.get(Down, down_id)
        assert down is not None
        with pytest.raises(Conflict) as waits:
            close_down(session, down, person(session, "Dee"), None)
        assert waits.value.code == "awaiting_confirmation"
        assert waits.value.message == (
            f"Session {down_id} is closed and waits for a supervisor to confirm it: add the "
            "supervisor's name and PIN."
        )
        dee, sam = person(session, "Dee"), person(session, "Sam")
        close_down(session, down, dee, sam)
        dee_id, sam_id = dee.id, sam.id
    (confirmed,) = audit(people, "session_confirmed")
    assert confirmed.words == f"Sam confirmed the close of session {down_id}."
    assert confirmed.user_id == dee_id
    assert confirmed.table_id == table_id
    assert confirmed.details == {"session": down_id, "supervisor": sam_id}


def test_a_seat_given_to_a_player_record_takes_its_name(people: Flask) -> None:
    table_id = new_table(people)
    with written(people) as session:
        sam = person(session, "Sam")
        ana = Player(name="Ana Lima", created_by=sam.id)
        session.add(ana)
        session.flush()
        table = session.get(Table, table_id)
        assert table is not None
        seated = seat_player(
            session, table, 1, None, 0, Recorder(sam.id, "tablet"), sam, None, ana.id
        )
        assert (seated.player, seated.player_id) == ("Ana Lima", ana.id)
        with pytest.raises(NotFound) as unknown:
            seat_player(
                session, table, 2, None, 0, Recorder(sam.id, "tablet"), sam, None, ana.id + 1
            )
        assert unknown.value.code == "unknown_player"


def test_chips_moved_are_a_number_of_chips_within_bounds(people: Flask) -> None:
    table_id = new_table(people)
    with written(people) as session:
        sam = person(session, "Sam")
        table = session.get(Table, table_id)
        assert table is not None
        recorder = Recorder(sam.id, "tablet")
        seated = seat_player(session, table, 1, "Ana", 100, recorder, sam)
        with pytest.raises(Invalid) as refused:
            move_chips(session, table, seated, "buy_in", 0, recorder, sam)
        assert "number of chips" in refused.value.message


def test_a_new_tables_record_keeps_its_rules_and_collection(people: Flask) -> None:
    table_id = new_table(people)
    (made,) = audit(people, "table_created")
    with people.app_context():
        table = db.session.get(Table, table_id)
        assert table is not None
        assert made.details == {"rules": {}, "collection": table.collection}


def test_a_tables_recent_hands_are_its_own(people: Flask) -> None:
    sam = Api.sign_in(people, "supervisor")
    tables = [int(sam.table("classic")["id"]) for _ in range(2)]
    for table in tables:
        for seat in (1, 2):
            sam.seat(table, seat, f"P{seat}", 100)
    first = sam.hand(tables[0])["id"]
    with people.app_context():
        assert [h.id for h in recent_hands(db.session(), tables[0])] == [first]
        assert recent_hands(db.session(), tables[1]) == []
