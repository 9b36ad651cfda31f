"""The event path as bench/api.py times it: what it writes outside the ORM's unit of work (the
event row, its links, the idempotency record, the live marks) behaves as the rest of the write,
and the statements it costs stay few."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import event, func, select, update

from dealer import write_behind
from dealer.extensions import db
from dealer.hands import rows as hands_service
from dealer.models import ChainLink, Event, IdempotencyRecord, LedgerEntry, LiveMark, User
from dealer.write_locks import TABLE_LOCKS, WRITERS_LOCK
from tests.helpers import Api

from .test_hands import six_seated

MELD = {"type": "meld", "seat": 2, "cards": ["7D", "7H", "7C"]}
#: What a statement that writes begins with.
WRITES = ("INSERT", "UPDATE", "DELETE")
#: The writers' lock taken (PostgreSQL).
WRITERS_LOCK_TAKEN = f"pg_advisory_xact_lock({WRITERS_LOCK})"


@contextmanager
def statements(app: Flask) -> Iterator[list[str]]:
    """Every statement the app's engine runs meanwhile."""
    seen: list[str] = []

    def note(*args: Any) -> None:
        seen.append(args[2])

    with app.app_context():
        engine = db.engine
    event.listen(engine, "before_cursor_execute", note)
    try:
        yield seen
    finally:
        event.remove(engine, "before_cursor_execute", note)


def counts(app: Flask) -> dict[str, int]:
    with app.app_context():
        session = db.session()
        return {
            model.__tablename__: session.scalar(select(func.count()).select_from(model)) or 0
            for model in (Event, LedgerEntry, ChainLink, IdempotencyRecord)
        }


def marks(app: Flask) -> dict[str, int]:
    with app.app_context():
        return {m.scope: m.version for m in db.session.scalars(select(LiveMark))}


def test_an_event_moves_the_marks_of_what_it_touched(people: Flask, api: Api, floor: Api) -> None:
    """The event row is written on the connection: its hand, table, seats and the floor still
    move, once each."""
    table = six_seated(api, floor, "classic")
    hand = api.hand(table)
    before = marks(people)
    answer = api.event(hand["id"], MELD)
    after = marks(people)
    seatings = {s["seating"] for s in api.get(f"/tables/{table}")["seats"].values()}
    moved = {scope for scope in after if after[scope] != before.get(scope, 0)}
    assert {f"hand:{hand['id']}", f"table:{table}", "floor"} <= moved
    assert {f"seating:{s}" for s in seatings} <= moved  # every seat paid the meld
    assert all(after[scope] == before.get(scope, 0) + 1 for scope in moved)
    assert answer["event"]["user"] == "Dee"
    assert answer["hand"]["seats"]["2"]["player"] == "Player 2"


def test_an_event_refused_half_way_leaves_nothing(
    people: Flask, api: Api, floor: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A failure after the event row is written (on the connection) rolls it back with the
    rest: no event, entry, link, kept answer or moved mark."""
    table = six_seated(api, floor, "classic")
    hand = api.hand(table)
    before, marked = counts(people), marks(people)

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("the disk is full")

    monkeypatch.setattr(hands_service, "link_event", broken)
    with pytest.raises(RuntimeError):
        api.event(hand["id"], MELD, key="half-way")
    monkeypatch.undo()
    assert counts(people) == before
    assert marks(people) == marked
    again = api.event(hand["id"], MELD, key="half-way")  # the key kept nothing: it records now
    assert again["event"]["seq"] == 2
    assert floor.get("/ledger/verify")["ok"]


def test_an_event_costs_nine_statements(people: Flask, api: Api, floor: Api) -> None:
    """The sign-in, the first locks (on SQLite BEGIN and BEGIN IMMEDIATE; on PostgreSQL the
    table's), the hand, the writers' lock (PostgreSQL), the event with both heads (on
    PostgreSQL its id, its row sent with the rest), the entries, their links, the kept answer,
    the marks: 9 at most on either database (no statement per
    payment, no row read twice, a new key not looked up, the answer's names kept with the
    hand's engine since the deal). Counted, not timed: bench/api.py times it."""
    table = six_seated(api, floor, "classic")
    hand = floor.hand(table)
    with statements(people) as seen:
        floor.event(hand["id"], MELD, key="counted")
    assert len(seen) <= 9, "\n".join(seen)
    assert not any(s.lstrip().startswith("SELECT idempotency_records") for s in seen)
    assert "BEGIN" not in [s.strip() for s in seen]  # SQLite: the sign-in's read needs none
    assert sum(s.count("INSERT INTO chain_links") for s in seen) == 1


def test_an_event_writes_nothing_before_the_writers_lock(
    people: Flask, api: Api, floor: Api
) -> None:
    """Every row of an event is written under the writers' lock. On PostgreSQL the event
    begins under its table's lock and reads its hand there (beside other tables' writes); the
    writers' lock comes before its first row. On SQLite, BEGIN IMMEDIATE first."""
    table = six_seated(api, floor, "classic")
    hand = floor.hand(table)
    with statements(people) as seen:
        floor.event(hand["id"], MELD, key="in order")
    # On PostgreSQL the event's rows go as one statement (`write_behind._together`): a WITH.
    writes = [i for i, s in enumerate(seen) if s.lstrip().upper().startswith((*WRITES, "WITH"))]
    writers = [i for i, s in enumerate(seen) if WRITERS_LOCK_TAKEN in s or "BEGIN IMMEDIATE" in s]
    assert writes and len(writers) == 1
    assert writers[0] < writes[0], "\n".join(seen)
    if "BEGIN IMMEDIATE" in seen[writers[0]]:
        return
    reads = [i for i, s in enumerate(seen) if s.lstrip().startswith("SELECT hands")]
    assert len(reads) == 1
    first = next(i for i, s in enumerate(seen) if "pg_advisory_xact_lock_shared" in s)
    assert f"pg_advisory_xact_lock({TABLE_LOCKS}, " in seen[first]
    assert first < min(reads) and max(reads) < writers[0]


def test_a_role_changed_between_requests_is_read_afresh(
    people: Flask, api: Api, floor: Api
) -> None:
    """Nothing of a user is kept from one request to the next: a supervisor made a dealer
    meanwhile (by another app server) is refused what needs a supervisor at once."""
    table = six_seated(api, floor, "classic")
    hand = floor.hand(table)
    for cards in (["5S", "5S", "5S"], ["JH", "QH", "KH"], ["2C", "3C", "4C", "5C", "6C"]):
        floor.event(hand["id"], {"type": "meld", "seat": 1, "cards": cards})
    meld = floor.event(hand["id"], {"type": "go_out", "seat": 1})
    with people.app_context():
        session = db.session()
        session.execute(update(User).where(User.name == "Sam").values(role="dealer"))
        session.commit()
    void = {"type": "void", "event": meld["event"]["id"], "reason": "mis-keyed"}
    refused = floor.call("POST", f"/hands/{hand['id']}/events", void, status=403)
    assert refused.get_json()["error"]["code"] in ("supervisor_required", "not_your_table")


def test_what_an_event_never_reads_back_goes_to_postgresql_at_once(
    people: Flask, api: Api, floor: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The writers' lock taken, then the event's id and both chains' heads read, in one round
    trip; then the event, its ledger entries, their links, its kept answer and the live marks
    it moved, queued and sent as one statement after its last read, with the commit: two round
    trips with the lock held, not six. On SQLite each is written at once, as the rest."""
    table = six_seated(api, floor, "classic")
    hand = floor.hand(table)
    sent: list[list[str]] = []
    send = write_behind._send

    def noted(connection: Any, queued: list[Any], fetched: list[Any], *commit: Any) -> Any:
        sent.append([sql.split("(")[0].strip() for sql, _ in queued + fetched])
        return send(connection, queued, fetched, *commit)

    monkeypatch.setattr(write_behind, "_send", noted)
    with statements(people) as seen:
        answer = floor.event(hand["id"], MELD, key="at once")
    assert answer["payments"], "the meld pays: it has entries to write"
    if WRITERS_LOCK_TAKEN not in "".join(seen):
        assert sent == []  # SQLite
        return
    assert sent == [
        ["SELECT pg_advisory_xact_lock", "SELECT nextval"],  # the lock, then the heads
        [
            "INSERT INTO events",
            "INSERT INTO ledger_entries",
            "INSERT INTO chain_links",
            "INSERT INTO idempotency_records",
            "INSERT INTO live_marks",
        ],
    ]
    # Those five on five tables, sent as one statement (`write_behind._together`).
    assert seen[-1].startswith("WITH w0 AS (INSERT INTO events"), "\n".join(seen)
    assert "INSERT INTO live_marks" in seen[-1] and "INSERT INTO ledger_entries" in seen[-1]
    assert WRITERS_LOCK_TAKEN in seen[-3] and seen[-2].startswith("SELECT nextval")
    assert floor.get("/ledger/verify")["ok"]
