"""dealer/floor/counts.py through its own functions: what the ledger says a session's close
should find, each branch of the variance rule, and the audit records a count and a change to
the count's settings leave.

The tables are set up through the API (as the floor would); the counts are recorded by the
package's functions in a write transaction. Counted by Dee, confirmed by Ada; where a variance
needs approving, Sam approves: a supervisor other than both.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import select
from sqlalchemy.orm import Session

from dealer.errors import Conflict, Forbidden, Invalid
from dealer.extensions import db
from dealer.floor import counts
from dealer.models import Down, User
from dealer.transactions import writing
from tests.helpers import Api
from tests.reports.evening import WINNING_MELDS

ADA = {"name": "Ada", "pin": "3333"}


@contextmanager
def written(app: Flask) -> Iterator[Session]:
    with app.app_context(), writing(db.session()) as session:
        yield session


def user(session: Session, name: str) -> User:
    return session.scalars(select(User).where(User.name == name)).one()


def down_of(session: Session, down: int) -> Down:
    return session.get_one(Down, down)


def count(
    app: Flask,
    down: int,
    tray: int,
    cents: int | None = None,
    *,
    supervisor: str | None = None,
    reason: str | None = None,
) -> dict[str, Any]:
    """Dee's count of ``down``, confirmed by Ada: the record's words and details."""
    with written(app) as session:
        record = counts.record_count(
            session,
            down_of(session, down),
            user(session, "Dee"),
            tray,
            cents,
            user(session, "Ada"),
            user(session, supervisor) if supervisor else None,
            reason,
        )
        return {"words": record.words, "kind": record.kind, **record.details}


#: What each refusal says, as it begins.
REFUSALS = {
    "session_open": "Close the session before counting: the down is still open.",
    "not_confirmed": "A second person confirms the count: not the one who counted.",
    "drop_box_missing": "This table sells chips for cash: count the drop box too.",
    "needs_supervisor": "The count is ",
    "reason_missing": "Give the reason for the variance.",
}


def refused(app: Flask, down: int, tray: int, cents: int | None = None, **kw: Any) -> str:
    """The code ``count`` is refused with (nothing is recorded), its words checked."""
    with pytest.raises((Conflict, Forbidden, Invalid)) as error:
        count(app, down, tray, cents, **kw)
    with app.app_context():
        assert counts.counts_of(db.session(), [down]) == {}
    code = str(error.value.code)
    assert error.value.message.startswith(REFUSALS[code]), error.value.message
    return code


def hand_won(api: Api, table: int) -> int:
    """A hand seat 1 wins by going out: the house takes its collection."""
    hand: int = api.hand(table)["id"]
    for cards in WINNING_MELDS:
        api.event(hand, {"type": "meld", "seat": 1, "cards": cards})
    api.event(hand, {"type": "go_out", "seat": 1})
    return hand


def closed_down(
    people: Flask, *, hands: int = 1, tolerance: int = 0, cash: bool = False, **table: Any
) -> tuple[int, int]:
    """A table taking 1 chip a seat each hand, ``hands`` played in a down Dee opened and
    closed; its count settings set by Sam. The table's and the down's ids."""
    sam, dee = Api.sign_in(people, "supervisor"), Api.sign_in(people, "dealer")
    collection = {"kind": "per_hand", "chips": 1}
    tid = int(sam.table("classic", collection=collection, **table)["id"])
    settings = {"tolerance": tolerance, "sells_for_cash": cash}
    sam.call("PUT", f"/tables/{tid}/count", settings, status=200)
    down = int(dee.post(f"/tables/{tid}/sessions", status=201)["id"])
    for seat in (1, 2, 3):
        dee.seat(tid, seat, f"P{seat}", 100)
    for _ in range(hands):
        hand_won(dee, tid)
    dee.post(f"/sessions/{down}/close", {}, status=200)
    return tid, down


# ---------- what the close should find


def expected(app: Flask, down: int) -> counts.Expected:
    with app.app_context():
        session = db.session()
        return counts.expected_count(session, down_of(session, down))


def test_the_tray_holds_the_houses_take_less_what_voids_gave_back(people: Flask) -> None:
    """Two hands take 3 chips each; the first voided gives its 3 back: the tray holds 3."""
    sam, dee = Api.sign_in(people, "supervisor"), Api.sign_in(people, "dealer")
    tid = int(sam.table("classic", collection={"kind": "per_hand", "chips": 1})["id"])
    down = int(dee.post(f"/tables/{tid}/sessions", status=201)["id"])
    for seat in (1, 2, 3):
        dee.seat(tid, seat, f"P{seat}", 100)
    voided = hand_won(dee, tid)
    assert expected(people, down) == counts.Expected(3, None)
    hand_won(dee, tid)
    assert expected(people, down) == counts.Expected(6, None)
    sam.event(voided, {"type": "void_hand", "reason": "Misdeal."})
    assert expected(people, down) == counts.Expected(3, None)


def test_the_tray_holds_the_time_collected_while_the_down_was_open(people: Flask) -> None:
    """A time collection is taken between hands: in the tray of the down it was taken in,
    not of a down closed before it."""
    sam, dee = Api.sign_in(people, "supervisor"), Api.sign_in(people, "dealer")
    collection = {"kind": "time", "chips": 2, "minutes": 30}
    tid = int(sam.table("classic", collection=collection)["id"])
    first = int(dee.post(f"/tables/{tid}/sessions", status=201)["id"])
    for seat in (1, 2, 3):
        dee.seat(tid, seat, f"P{seat}", 100)
    dee.post(f"/sessions/{first}/close", {}, status=200)
    second = int(dee.post(f"/tables/{tid}/sessions", status=201)["id"])
    sam.post(f"/tables/{tid}/collections", status=201)  # early: the floor takes it
    assert expected(people, second) == counts.Expected(6, None)
    assert expected(people, first) == counts.Expected(0, None)


def test_the_drop_box_holds_the_chips_sold_at_the_tables_chip_value(people: Flask) -> None:
    """150 chips bought, 10 cashed out, at 25 cents: $35.00 in the drop box; a table that
    sells no chips for cash has no drop box (None)."""
    sam, dee = Api.sign_in(people, "supervisor"), Api.sign_in(people, "dealer")
    tid = int(sam.table("classic", name="Cash", chip_value_cents=25)["id"])
    sam.call("PUT", f"/tables/{tid}/count", {"tolerance": 0, "sells_for_cash": True}, status=200)
    down = int(dee.post(f"/tables/{tid}/sessions", status=201)["id"])
    dee.seat(tid, 1, "P1", 100)
    dee.seat(tid, 2, "P2", 50)
    dee.post(f"/tables/{tid}/seats/2/chips", {"kind": "cash_out", "amount": 10})
    assert expected(people, down) == counts.Expected(0, 3500)
    # The next down sells only its own chips.
    dee.post(f"/sessions/{down}/close", {}, status=200)
    later = int(dee.post(f"/tables/{tid}/sessions", status=201)["id"])
    dee.seat(tid, 3, "P3", 20)
    dee.post(f"/tables/{tid}/seats/1/chips", {"kind": "cash_out", "amount": 4})
    assert expected(people, later) == counts.Expected(0, 400)
    assert expected(people, down) == counts.Expected(0, 3500)
    sam.call("PUT", f"/tables/{tid}/count", {"tolerance": 0, "sells_for_cash": False}, status=200)
    assert expected(people, down) == counts.Expected(0, None)


def test_a_down_counts_only_its_own_hands(people: Flask) -> None:
    """The next down's hands are not in the closed one's tray, nor the closed one's (nor
    what its void gave back) in it."""
    sam, dee = Api.sign_in(people, "supervisor"), Api.sign_in(people, "dealer")
    tid = int(sam.table("classic", collection={"kind": "per_hand", "chips": 1})["id"])
    first = int(dee.post(f"/tables/{tid}/sessions", status=201)["id"])
    for seat in (1, 2, 3):
        dee.seat(tid, seat, f"P{seat}", 100)
    hand_won(dee, tid)
    sam.event(hand_won(dee, tid), {"type": "void_hand", "reason": "Misdeal."})
    dee.post(f"/sessions/{first}/close", {}, status=200)
    second = int(dee.post(f"/tables/{tid}/sessions", status=201)["id"])
    hand_won(dee, tid)
    hand_won(dee, tid)
    assert expected(people, first).tray_chips == 3
    assert expected(people, second).tray_chips == 6


# ---------- the variance rule, branch by branch


def test_an_exact_count_needs_no_supervisor(people: Flask) -> None:
    """The everyday case: the tolerance is 0 and the tray holds what the ledger says."""
    _, down = closed_down(people)
    record = count(people, down, 3)
    assert record["kind"] == "count"
    assert (record["tray_chips"], record["expected_chips"], record["session"]) == (3, 3, down)
    assert (record["supervisor"], record["reason"], record["drop_box_cents"]) == (
        None,
        None,
        None,
    )
    assert record["words"] == (
        f"Dee counted 3 chips at session {down}'s close (the ledger: 3), confirmed by Ada."
    )


@pytest.mark.parametrize("tray", [1, 5])
def test_a_count_exactly_at_the_tolerance_needs_no_supervisor(people: Flask, tray: int) -> None:
    """Two chips short or over, with two allowed: recorded as counted, nobody approving."""
    _, down = closed_down(people, tolerance=2)
    record = count(people, down, tray)
    assert (record["tray_chips"], record["expected_chips"]) == (tray, 3)
    assert record["supervisor"] is None
    assert "approved" not in record["words"]


@pytest.mark.parametrize("tray", [0, 6])
def test_a_count_over_the_tolerance_needs_a_supervisor_and_a_reason(
    people: Flask, tray: int
) -> None:
    """Three chips short or over, with two allowed: refused without a supervisor, and
    without a reason; recorded with both, the approver named."""
    _, down = closed_down(people, tolerance=2)
    assert refused(people, down, tray) == "needs_supervisor"
    with pytest.raises(Forbidden) as error:
        count(people, down, tray)
    assert f"{tray - 3:+} chips from the ledger's 3" in error.value.message
    assert "this table's 2" in error.value.message
    assert refused(people, down, tray, supervisor="Sam") == "reason_missing"
    assert refused(people, down, tray, supervisor="Sam", reason="  ") == "reason_missing"
    record = count(people, down, tray, supervisor="Sam", reason=" Chips behind the tray. ")
    with people.app_context():
        sam = user(db.session(), "Sam")
        assert (record["supervisor"], record["reason"]) == (sam.id, "Chips behind the tray.")
    assert record["words"].endswith(
        "confirmed by Ada. Sam approved the variance: Chips behind the tray."
    )


def test_a_cash_variance_is_held_to_the_tolerance_in_chips(people: Flask) -> None:
    """At 25 cents a chip and 2 chips allowed, 50 cents short is 2 chips: no supervisor;
    75 cents short is 3: one is needed."""
    sam, dee = Api.sign_in(people, "supervisor"), Api.sign_in(people, "dealer")
    tid = int(sam.table("classic", name="Cash", chip_value_cents=25)["id"])
    sam.call("PUT", f"/tables/{tid}/count", {"tolerance": 2, "sells_for_cash": True}, status=200)
    down = int(dee.post(f"/tables/{tid}/sessions", status=201)["id"])
    dee.seat(tid, 1, "P1", 100)  # $25.00 in the drop box
    dee.post(f"/sessions/{down}/close", {}, status=200)
    assert refused(people, down, 0) == "drop_box_missing"
    assert refused(people, down, 0, 2425) == "needs_supervisor"
    assert refused(people, down, 0, 2575) == "needs_supervisor"
    record = count(people, down, 0, 2450)
    assert (record["drop_box_cents"], record["expected_cents"]) == (2450, 2500)
    assert record["supervisor"] is None


def test_at_a_table_whose_chips_have_no_cash_value_a_cent_is_a_chip(people: Flask) -> None:
    """A chip value of 0: the drop box's variance is held to the tolerance cent for cent."""
    sam, dee = Api.sign_in(people, "supervisor"), Api.sign_in(people, "dealer")
    tid = int(sam.table("classic", name="Free", chip_value_cents=0)["id"])
    sam.call("PUT", f"/tables/{tid}/count", {"tolerance": 2, "sells_for_cash": True}, status=200)
    down = int(dee.post(f"/tables/{tid}/sessions", status=201)["id"])
    dee.seat(tid, 1, "P1", 100)
    dee.post(f"/sessions/{down}/close", {}, status=200)
    assert refused(people, down, 0, 3) == "needs_supervisor"
    record = count(people, down, 0, 2)
    assert (record["drop_box_cents"], record["expected_cents"], record["supervisor"]) == (
        2,
        0,
        None,
    )


def test_a_supervisor_named_for_a_count_within_the_tolerance_approves_nothing(
    people: Flask,
) -> None:
    _, down = closed_down(people, tolerance=2)
    record = count(people, down, 4, supervisor="Sam", reason="Asked anyway.")
    assert (record["supervisor"], record["reason"]) == (None, "Asked anyway.")
    assert "approved" not in record["words"]


def test_a_drop_box_counted_at_a_table_selling_no_chips_for_cash_is_not_kept(
    people: Flask,
) -> None:
    """Cash given for a table with no drop box is no variance and is not recorded."""
    _, down = closed_down(people)
    record = count(people, down, 3, 5000)
    assert (record["drop_box_cents"], record["expected_cents"]) == (None, None)


def test_a_count_is_refused_while_open_alone_or_twice(people: Flask) -> None:
    sam, dee = Api.sign_in(people, "supervisor"), Api.sign_in(people, "dealer")
    tid = int(sam.table("classic")["id"])
    down = int(dee.post(f"/tables/{tid}/sessions", status=201)["id"])
    assert refused(people, down, 0) == "session_open"
    dee.post(f"/sessions/{down}/close", {}, status=200)
    with written(people) as session, pytest.raises(Forbidden) as alone:
        dee_user = user(session, "Dee")
        counts.record_count(session, down_of(session, down), dee_user, 0, None, dee_user, None, "")
    assert (alone.value.code, alone.value.message) == ("not_confirmed", REFUSALS["not_confirmed"])
    count(people, down, 0)
    with pytest.raises(Conflict) as twice:
        count(people, down, 0)
    assert (twice.value.code, twice.value.message) == (
        "counted_already",
        f"Session {down} is counted already.",
    )


# ---------- which session is waiting


def test_the_last_closed_down_is_the_tables_latest_once_closed_counted_or_not(
    people: Flask,
) -> None:
    """The session the table screen guides through its close, count and report."""
    sam, dee = Api.sign_in(people, "supervisor"), Api.sign_in(people, "dealer")
    tid = int(sam.table("classic")["id"])
    other = int(sam.table("classic", name="Table 2")["id"])

    def last(table: int) -> int | None:
        with people.app_context():
            found = counts.last_closed(db.session(), table)
            return found.id if found is not None else None

    assert last(tid) is None  # no session yet
    first = int(dee.post(f"/tables/{tid}/sessions", status=201)["id"])
    assert last(tid) is None  # still open
    dee.post(f"/sessions/{first}/close", {}, status=200)
    assert (last(tid), last(other)) == (first, None)
    second = int(dee.post(f"/tables/{tid}/sessions", status=201)["id"])
    assert last(tid) == first  # the second is open: the first is still the last closed
    dee.post(f"/sessions/{second}/close", {}, status=200)
    assert last(tid) == second  # the latest, though the first is not counted either
    count(people, second, 0)
    assert last(tid) == second  # counted, still the one whose report the screen offers
    with people.app_context():
        found = counts.counts_of(db.session(), [first, second])
        assert list(found) == [second] and found[second].details["session"] == second
