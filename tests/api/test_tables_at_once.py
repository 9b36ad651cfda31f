"""Two tables at once on PostgreSQL: an event is read, replayed and judged under its table's
lock while another table's event is written; only the rows, links, answer and commit queue on
the writers' lock (`dealer.transactions.writing`'s ``hand``). Every other write still waits for
the hands' writes under way, and a key sent at two tables at once is kept once.

Each test holds one event at the moment it would take the writers' lock (its hand read and
judged, nothing written) and looks at what the floor does meanwhile. SQLite has one write lock
for the whole database, so these are PostgreSQL's alone.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import text
from sqlalchemy.orm import Session
from werkzeug.test import TestResponse

from dealer.extensions import db
from dealer.hands import rows
from dealer.transactions import require_writing, writers_first, writing
from dealer.write_locks import FLOOR_LOCK, TABLE_LOCKS, WRITERS_LOCK
from tests.helpers import Api

#: How long a test waits for a thread before it fails.
PATIENCE = 20.0


@dataclass
class Held:
    """The event held at the writers' lock, and how to let it go."""

    arrived: threading.Event = field(default_factory=threading.Event)
    release: threading.Event = field(default_factory=threading.Event)
    answer: list[TestResponse] = field(default_factory=list)
    failed: list[BaseException] = field(default_factory=list)
    thread: threading.Thread | None = None

    def send(self, send: Callable[[], TestResponse]) -> None:
        try:
            self.answer.append(send())
        except BaseException as exc:  # reported by the test's own thread
            self.failed.append(exc)

    def let_go(self) -> TestResponse:
        self.release.set()
        assert self.thread is not None
        self.thread.join(PATIENCE)
        assert not self.failed, self.failed
        assert self.answer, "the held event never answered"
        return self.answer[0]


@pytest.fixture
def hold(
    people: Flask, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Callable[[Callable[[], TestResponse]], Held]]:
    """``hold(send)`` sends in a thread of its own and holds that send at the writers' lock
    until let go (`Held.let_go`); the test's own sends go by."""
    if people.config["SQLALCHEMY_DATABASE_URI"].startswith("sqlite"):
        pytest.skip("SQLite has one write lock for the whole database")
    # An event on PostgreSQL takes the writers' lock in the round trip that reads its place.
    real = rows.writers_first
    holding: list[Held] = []

    def at_the_lock(session: Session, what: str) -> list[str]:
        for held in holding:
            if held.thread is threading.current_thread():
                held.arrived.set()
                assert held.release.wait(6 * PATIENCE)  # let go by the test, or at its end
        return real(session, what)

    monkeypatch.setattr(rows, "writers_first", at_the_lock)

    def start(send: Callable[[], TestResponse]) -> Held:
        held = Held()
        held.thread = threading.Thread(target=held.send, args=(send,))
        holding.append(held)
        held.thread.start()
        assert held.arrived.wait(PATIENCE), "the held event never reached the writers' lock"
        return held

    yield start
    for held in holding:  # never leave a thread waiting, whatever the test found
        held.release.set()
        if held.thread is not None:
            held.thread.join(PATIENCE)


def two_tables(floor: Api) -> list[tuple[int, int]]:
    """Two tables, each ``(table, hand)`` with a hand in play (the floor records at both)."""
    tables = []
    for name in ("Table 1", "Table 2"):
        table = floor.table(name=name, dealer=None)["id"]
        for seat in (1, 2, 3):
            floor.seat(table, seat, f"{name[-1]}-{seat}")
        tables.append((table, floor.hand(table)["id"]))
    return tables


def ledger(floor: Api, *tables: int) -> list[dict[str, Any]]:
    """The tables' entries in the one chain's order."""
    entries = [e for t in tables for e in floor.get(f"/tables/{t}/ledger")["entries"]]
    return sorted(entries, key=lambda e: e["seq"])


def other_tablet(app: Flask) -> Api:
    return Api.sign_in(app, "supervisor")


def meld(seat: int) -> dict[str, Any]:
    return {"type": "meld", "seat": seat, "cards": ["7D", "7H", "7C"]}


def test_an_event_at_another_table_is_written_while_one_is_judged(
    people: Flask, floor: Api, hold: Callable[[Callable[[], TestResponse]], Held]
) -> None:
    (one, first), (two, second) = two_tables(floor)
    tablet = other_tablet(people)  # signed in first: a sign-in is not a hand's play
    held = hold(lambda: floor.call("POST", f"/hands/{first}/events", meld(1)))
    # Table 1's event holds its table's lock, read and judged: table 2's goes by it.
    passing = tablet.call("POST", f"/hands/{second}/events", meld(2))
    assert passing.status_code == 201, passing.get_json()
    answer = held.let_go()
    assert answer.status_code == 201, answer.get_json()
    assert answer.get_json()["event"]["seq"] == 2
    # Each event's entries lie together in the one chain, the passing event's first.
    entries = ledger(floor, one, two)
    assert [e["seq"] for e in entries] == list(range(1, len(entries) + 1))
    events = [e["event"] for e in entries if e["event"] is not None]
    runs = [ev for i, ev in enumerate(events) if i == 0 or events[i - 1] != ev]
    assert len(runs) == len(set(runs))
    assert runs[-2:] == [passing.get_json()["event"]["id"], answer.get_json()["event"]["id"]]
    assert floor.get("/ledger/verify")["ok"] is True


#: The advisory locks of this test's database waited for, by key (one-key or two-key form).
WAITING = text(
    "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted "
    "AND database = (SELECT oid FROM pg_database WHERE datname = current_database()) "
    "AND ((classid::bigint << 32) | objid::bigint) = :key"
)
WAITING_TABLE = text(
    "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted "
    "AND database = (SELECT oid FROM pg_database WHERE datname = current_database()) "
    "AND classid = :first AND objid = :table AND objsubid = 2"
)


def waits(app: Flask, lock: Any, **key: int) -> bool:
    """Whether a write waits for ``lock`` (a query of pg_locks) within the test's patience."""
    with app.app_context():
        deadline = time.monotonic() + PATIENCE
        while time.monotonic() < deadline:
            found = db.session().execute(lock, key).scalar() or 0
            db.session().rollback()
            if found:
                return True
            time.sleep(0.02)
    return False


def in_thread(send: Callable[[], TestResponse]) -> tuple[threading.Thread, list[TestResponse]]:
    answers: list[TestResponse] = []
    thread = threading.Thread(target=lambda: answers.append(send()))
    thread.start()
    return thread, answers


def seat_four(tablet: Api, table: int) -> TestResponse:
    return tablet.call(
        "POST", f"/tables/{table}/seats", {"seat": 4, "player": "Late", "buy_in": 50}
    )


def written_after(floor: Api, tables: tuple[int, int], event: int) -> list[tuple[str, int]]:
    """What the chain holds after ``event``'s entries: ``(to, chips)`` of each entry."""
    entries = ledger(floor, *tables)
    last_of_event = max(e["seq"] for e in entries if e["event"] == event)
    return [(e["to"], e["chips"]) for e in entries if e["seq"] > last_of_event]


def test_a_write_at_another_table_goes_by_an_event_being_judged(
    people: Flask, floor: Api, hold: Callable[[Callable[[], TestResponse]], Held]
) -> None:
    """A player seated at table 2 (a write at that table) while table 1's event is held: it is
    written at once, before the held event's rows."""
    (one, first), (two, _second) = two_tables(floor)
    tablet = other_tablet(people)
    held = hold(lambda: floor.call("POST", f"/hands/{first}/events", meld(1)))
    assert seat_four(tablet, two).status_code == 201
    answer = held.let_go()
    assert answer.status_code == 201, answer.get_json()
    assert written_after(floor, (one, two), answer.get_json()["event"]["id"]) == []
    assert floor.get("/ledger/verify")["ok"] is True


def test_a_write_at_the_same_table_waits_for_its_event(
    people: Flask, floor: Api, hold: Callable[[Callable[[], TestResponse]], Held]
) -> None:
    """A player seated at table 1 while its event is held waits for the table's lock, and is
    written after the event."""
    (one, first), (two, _second) = two_tables(floor)
    tablet = other_tablet(people)
    held = hold(lambda: floor.call("POST", f"/hands/{first}/events", meld(1)))
    thread, seated = in_thread(lambda: seat_four(tablet, one))
    assert waits(people, WAITING_TABLE, first=TABLE_LOCKS, table=one)
    assert not seated
    answer = held.let_go()
    thread.join(PATIENCE)
    assert answer.status_code == 201, answer.get_json()
    assert [s.status_code for s in seated] == [201]
    assert written_after(floor, (one, two), answer.get_json()["event"]["id"]) == [("4", 50)]
    assert floor.get("/ledger/verify")["ok"] is True


def test_a_write_of_the_whole_floor_waits_for_the_events_under_way(
    people: Flask, floor: Api, hold: Callable[[Callable[[], TestResponse]], Held]
) -> None:
    """A table opened (a write at no one table) takes the floor's lock whole: it waits for
    the event held, and is written after it."""
    (_one, first), (_two, _second) = two_tables(floor)
    tablet = other_tablet(people)
    held = hold(lambda: floor.call("POST", f"/hands/{first}/events", meld(1)))
    body = {"name": "Table 3", "profile": "classic"}
    thread, opened = in_thread(lambda: tablet.call("POST", "/tables", body))
    assert waits(people, WAITING, key=FLOOR_LOCK)
    assert not opened
    answer = held.let_go()
    thread.join(PATIENCE)
    assert answer.status_code == 201, answer.get_json()
    assert [o.status_code for o in opened] == [201]
    assert floor.get("/ledger/verify")["ok"] is True


def test_one_key_sent_at_two_tables_at_once_is_kept_once(
    people: Flask, floor: Api, hold: Callable[[Callable[[], TestResponse]], Held]
) -> None:
    """The same key for events at two tables: the second to keep it is answered as a key sent
    again with other content, and what it wrote is rolled back."""
    (_one, first), (_two, second) = two_tables(floor)
    held = hold(lambda: floor.call("POST", f"/hands/{first}/events", meld(1), key="both"))
    passing = Api(people.test_client(), floor.token)  # the same user's second tablet
    assert passing.call("POST", f"/hands/{second}/events", meld(2), key="both").status_code == 201
    answer = held.let_go()
    assert answer.status_code == 409, answer.get_json()
    assert answer.get_json()["error"]["code"] == "idempotency_key_reused"
    assert [e["seq"] for e in floor.get(f"/hands/{first}")["events"]] == [1]
    assert floor.get("/ledger/verify")["ok"] is True


def test_an_events_write_takes_the_writers_lock_only_to_write(people: Flask, floor: Api) -> None:
    """A write of a hand's play begins with its table's lock and the floor's shared; the
    writers' lock comes with `require_writing` (or the statement `writers_first` gives), once."""
    if people.config["SQLALCHEMY_DATABASE_URI"].startswith("sqlite"):
        pytest.skip("SQLite has one write lock for the whole database")
    [(table, hand)] = two_tables(floor)[:1]
    own = text(
        "SELECT classid, objid, objsubid, mode FROM pg_locks WHERE locktype = 'advisory' "
        "AND pid = pg_backend_pid() AND granted"
    )
    with people.app_context(), writing(db.session(), hand=hand) as session:
        before = sorted(tuple(r) for r in session.execute(own))
        require_writing(session, "a test")
        require_writing(session, "a test")  # once per transaction
        after = sorted(tuple(r) for r in session.execute(own))
    floor_shared = (FLOOR_LOCK >> 32, FLOOR_LOCK & 0xFFFFFFFF, 1, "ShareLock")
    its_table = (TABLE_LOCKS, table, 2, "ExclusiveLock")
    writers = (WRITERS_LOCK >> 32, WRITERS_LOCK & 0xFFFFFFFF, 1, "ExclusiveLock")
    assert before == sorted([floor_shared, its_table])
    assert after == sorted([floor_shared, its_table, writers])
    # An event's write is given the lock's statement, to send first in its next round trip.
    with people.app_context(), writing(db.session(), hand=hand) as session:
        [taking] = writers_first(session, "a test")
        assert writers_first(session, "a test") == []  # once per transaction
        assert sorted(tuple(r) for r in session.execute(own)) == before  # given, not taken
        session.execute(text(taking))
        require_writing(session, "a test")  # held already: nothing more sent
        assert sorted(tuple(r) for r in session.execute(own)) == after
