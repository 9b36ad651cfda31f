"""dealer/floor through its own functions, where the API's tests leave a branch unsaid: the
words of each kind of supervisor's approval, a dealer sent to a table and taken off it, a
dealer who holds a session at another table, a close that waits for the floor and the floor's
confirmation of it, a seat given to a player record, chips moved by a number out of bounds,
and a table's recent hands beside another table's; a dealer unknown or not a dealer refused
with its code; a dealer refused another table in words naming theirs, dealing at a free one
and opening a session through another dealer's; a live screen's table and seat read as their
table is; the checks' problems on the trail; a session's opening on the trail; a table named
like another refused; a stay ended refused; the floor's flags; a collection taken early on the
trail with its device and approver.

Each write here is one write transaction, as a door makes it. Sam is the floor; Dee deals.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from flask import Flask
from sqlalchemy import select
from sqlalchemy.orm import Session

from dealer.errors import Conflict, Forbidden, Invalid, NotFound
from dealer.extensions import db
from dealer.floor.approvals import record_approval
from dealer.floor.assignments import assign, assigned_dealers, assigned_tables, unassign
from dealer.floor.authority import authorise, authorise_down, authorise_scopes
from dealer.floor.down_checks import _tell_the_floor
from dealer.floor.downs import close_down, open_down
from dealer.floor.figures import FloorFlags, floor_flags, recent_hands
from dealer.floor.tables import create_table, get_table, move_chips, open_seat, seat_player
from dealer.floor.time_collection import take_time_collection
from dealer.ledger.post import Recorder
from dealer.models import AuditRecord, Down, Player, Seating, Table, User
from dealer.people.users import add_user
from dealer.transactions import writing
from tests.helpers import Api

#: A table that collects 2 chips a seat every 30 minutes.
BY_TIME = {"kind": "time", "chips": 2, "minutes": 30}


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


def test_a_dealer_unknown_or_not_a_dealer_is_refused_with_its_code(people: Flask) -> None:
    table_id = new_table(people)
    with written(people) as session:
        table, sam = session.get_one(Table, table_id), person(session, "Sam")
        with pytest.raises(NotFound) as unknown:
            assign(session, table, "Zed", sam)
        assert unknown.value.code == "unknown_user"
        with pytest.raises(Invalid) as floor:
            assign(session, table, "Sam", sam)
        assert floor.value.code == "not_a_dealer"


def test_a_dealer_is_refused_another_table_in_words_naming_theirs(people: Flask) -> None:
    mine, other, free = new_table(people), new_table(people, "Table 2"), new_table(people, "Bar")
    with written(people) as session:
        dee = person(session, "Dee")
        assign(session, session.get_one(Table, mine), "Dee", person(session, "Sam"))
        with pytest.raises(Forbidden) as refused:
            authorise(session, dee, other, "deal")
        assert refused.value.message == "You deal Table 1; Table 2 is not yours."
        with pytest.raises(Forbidden):
            authorise_scopes(session, dee, [f"table:{other}"])
        authorise_scopes(session, dee, [f"table:{mine}"])
        eve = add_user(session, "Eve", "dealer", "5555")
        theirs = open_down(session, session.get_one(Table, free), eve.id)
        with pytest.raises(Forbidden) as held:
            authorise_down(session, dee, theirs.id)
        assert held.value.message == "You deal Table 1; Bar is Eve's."
        assert authorise_down(session, dee, theirs.id, "open_down") is theirs


def test_a_dealer_holding_no_table_may_deal_at_a_free_one(people: Flask) -> None:
    free = new_table(people)
    with written(people) as session:
        dee = person(session, "Dee")
        authorise(session, dee, free, "deal")
        with pytest.raises(Forbidden) as refused:
            authorise(session, dee, free, "read")
        assert refused.value.message == (
            "Table 1 is not yours: you hold no table. Open your session at a free table, or "
            "ask a supervisor to assign you."
        )


def test_a_live_screens_seat_is_read_as_its_table_is(people: Flask) -> None:
    sam = Api.sign_in(people, "supervisor")
    mine = int(sam.table("classic")["id"])
    other = int(sam.table("classic", dealer=None)["id"])
    seated = {t: sam.seat(t, 1, "P1", 100) for t in (mine, other)}
    with people.app_context():
        session = db.session()
        dee = person(session, "Dee")
        ids = {
            t: session.scalars(select(Seating.id).where(Seating.table_id == t)).one()
            for t in seated
        }
        authorise_scopes(session, dee, [f"table:{mine}", f"seating:{ids[mine]}"])
        with pytest.raises(Forbidden):
            authorise_scopes(session, dee, [f"seating:{ids[other]}"])


def test_the_checks_problems_are_put_on_the_trail(people: Flask) -> None:
    with people.app_context():
        _tell_the_floor(db.session(), 2, "a close")
    (told,) = audit(people, "ledger_check_failed")
    assert told.details == {"problems": 2}
    assert told.words.startswith("The ledger's checks after a close found 2 problems")


def test_a_sessions_opening_is_on_the_trail(people: Flask) -> None:
    table_id = new_table(people)
    with written(people) as session:
        down = open_down(session, session.get_one(Table, table_id), person(session, "Dee").id)
        down_id = down.id
    (opened,) = audit(people, "session_opened")
    assert (opened.table_id, opened.details) == (table_id, {"session": down_id, "implicit": False})


def test_a_table_named_like_another_or_unknown_is_refused_with_its_code(people: Flask) -> None:
    new_table(people)
    with pytest.raises(Conflict) as taken:
        new_table(people, "TABLE 1")
    assert taken.value.code == "table_exists"
    assert (
        taken.value.message
        == "“TABLE 1” looks like the existing table Table 1: choose another name."
    )
    with people.app_context(), pytest.raises(NotFound) as unknown:
        get_table(db.session(), 999)
    assert unknown.value.code == "unknown_table"


def test_an_entry_for_a_stay_that_ended_is_refused(people: Flask) -> None:
    table_id = new_table(people)
    with written(people) as session:
        sam = person(session, "Sam")
        table = session.get_one(Table, table_id)
        recorder = Recorder(sam.id, "tablet")
        first = seat_player(session, table, 1, "Ana", 100, recorder, sam)
        assert open_seat(session, table, 1, first.id) is first
        with pytest.raises(Conflict) as ended:
            open_seat(session, table, 1, first.id + 1)
        assert ended.value.code == "seating_ended"


def test_the_floors_flags_name_short_stacks_and_a_collection_due(people: Flask) -> None:
    sam = Api.sign_in(people, "supervisor")
    timed = int(sam.table("classic", collection=BY_TIME)["id"])
    plain = int(sam.table("classic")["id"])
    for table in (timed, plain):
        sam.seat(table, 1, "P1", 100)
        sam.seat(table, 2, "P2", 100)
    sam.post(f"/tables/{plain}/seats/1/chips", {"kind": "cash_out", "amount": 99}, status=201)
    with people.app_context():
        session = db.session()
        tables = [session.get_one(Table, t) for t in (timed, plain)]
        assert floor_flags(session, tables) == {
            timed: FloorFlags(short_stacks=0, time_due=True),
            plain: FloorFlags(short_stacks=1, time_due=False),
        }
        assert floor_flags(session, []) == {}


def test_a_collection_taken_early_names_its_device_and_approver(people: Flask) -> None:
    sam = Api.sign_in(people, "supervisor")
    table_id = int(
        sam.table("classic", collection={"kind": "time", "chips": 2, "minutes": 30})["id"]
    )
    sam.seat(table_id, 1, "P1", 100)
    sam.post(f"/tables/{table_id}/collections", status=201)
    with written(people) as session:
        floor = person(session, "Sam")
        table = session.get_one(Table, table_id)
        take_time_collection(session, table, Recorder(floor.id, "Tablet 4"), floor)
        floor_id = floor.id
    (early,) = audit(people, "override")
    assert (early.device, early.user_id, early.table_id) == ("Tablet 4", floor_id, table_id)
    assert early.details["supervisor"] == floor_id
    assert set(early.details) == {"supervisor", "minutes_early"}
