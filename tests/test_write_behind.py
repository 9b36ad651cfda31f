"""Rows a write never reads back, queued and sent together (`dealer.write_behind`): on
PostgreSQL in one pipeline before the next statement or the commit, on SQLite at once; a
rollback, a failure or a connection lost leaves nothing behind."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, cast

import pytest
from flask import Flask
from sqlalchemy import Table, event, func, select, text
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from dealer import write_behind
from dealer.errors import StorageUnavailable
from dealer.extensions import db
from dealer.models import LiveMark
from dealer.transactions import require_writing, writing
from tests.conftest import Database

MARKS = cast(Table, LiveMark.__table__)
#: A mark's row as `add_statement` takes it on each database (one scope, bumped or made).
BUMP_SQLITE = text(
    "INSERT INTO live_marks (scope, version) VALUES (:s0, 1) "
    "ON CONFLICT (scope) DO UPDATE SET version = live_marks.version + 1"
)
BUMP_POSTGRESQL = (
    "INSERT INTO live_marks (scope, version) VALUES (%s, 1) "
    "ON CONFLICT (scope) DO UPDATE SET version = live_marks.version + 1"
)


@pytest.fixture
def database_uri(database: Database) -> str:
    return database.uri


@contextmanager
def statements(app: Flask) -> Iterator[list[str]]:
    """Every statement the app's engine runs meanwhile, as its listeners are told."""
    seen: list[str] = []

    def note(*args: Any) -> None:
        seen.append(" ".join(str(args[2]).split()))

    engine = db.engine
    event.listen(engine, "before_cursor_execute", note)
    try:
        yield seen
    finally:
        event.remove(engine, "before_cursor_execute", note)


def versions(session: Session) -> dict[str, int]:
    return {m.scope: m.version for m in session.scalars(select(LiveMark))}


def test_a_row_queued_is_there_for_the_next_statement_and_after_the_commit(
    app: Flask, database: Database
) -> None:
    """The queue goes before the transaction's next statement: what the write reads next
    already holds its rows, in the order they were added."""
    with app.app_context():
        session = db.session()
        with statements(app) as seen, writing(session) as work:
            require_writing(work, "test")
            write_behind.add_rows(work, MARKS, [{"scope": "table:1", "version": 1}])
            write_behind.add_statement(work, BUMP_SQLITE, BUMP_POSTGRESQL, ["table:1"])
            assert write_behind.pending(work) == (database.kind == "postgresql")
            assert versions(work) == {"table:1": 2}
            assert not write_behind.pending(work)
            write_behind.add_rows(work, MARKS, [{"scope": "table:2", "version": 5}])
        writes = [s for s in seen if s.startswith("INSERT")]
        assert len(writes) == 3 and "live_marks" in writes[0]
        assert seen.index(writes[1]) < seen.index(next(s for s in seen if "FROM live_marks" in s))
        assert versions(db.session()) == {"table:1": 2, "table:2": 5}


def test_a_rollback_drops_the_queue_and_the_next_write_sends_none_of_it(app: Flask) -> None:
    with app.app_context():
        session = db.session()
        with pytest.raises(RuntimeError), writing(session) as work:
            require_writing(work, "test")
            write_behind.add_rows(work, MARKS, [{"scope": "table:7", "version": 1}])
            raise RuntimeError("the dealer tapped Cancel")
        with writing(session) as work:
            require_writing(work, "test")
            write_behind.add_rows(work, MARKS, [{"scope": "table:8", "version": 1}])
        assert versions(db.session()) == {"table:8": 1}


def test_a_queued_row_that_breaks_a_constraint_fails_the_commit_and_writes_nothing(
    app: Flask,
) -> None:
    """Raised as SQLAlchemy raises the driver's error (the callers catch IntegrityError), the
    whole write rolled back, the session and its connection fit for the next write."""
    with app.app_context():
        session = db.session()
        with writing(session) as work:
            require_writing(work, "test")
            write_behind.add_rows(work, MARKS, [{"scope": "floor", "version": 1}])
        with pytest.raises(IntegrityError), writing(session) as work:
            require_writing(work, "test")
            write_behind.add_rows(work, MARKS, [{"scope": "table:3", "version": 1}])
            write_behind.add_rows(work, MARKS, [{"scope": "floor", "version": 9}])
        assert versions(db.session()) == {"floor": 1}
        with writing(session) as work:
            require_writing(work, "test")
            write_behind.add_rows(work, MARKS, [{"scope": "table:4", "version": 1}])
        assert versions(db.session()) == {"floor": 1, "table:4": 1}


def test_a_database_lost_while_the_queue_goes_is_storage_unavailable(
    app: Flask, database: Database
) -> None:
    """The connection cut before the queue is sent: the write is refused as a database that
    does not answer (a 503 in words at every door), its connection dropped from the pool, and
    the next write works on a new one."""
    if database.kind != "postgresql":
        pytest.skip("SQLite writes each row at once: nothing is queued to lose")
    with app.app_context():
        session = db.session()
        with pytest.raises(StorageUnavailable), writing(session) as work:
            require_writing(work, "test")
            pid = work.scalar(text("SELECT pg_backend_pid()"))
            write_behind.add_rows(work, MARKS, [{"scope": "table:5", "version": 1}])
            with db.engine.connect() as other:
                other.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": pid})
        with writing(session) as work:
            require_writing(work, "test")
            write_behind.add_rows(work, MARKS, [{"scope": "table:6", "version": 1}])
        assert versions(db.session()) == {"table:6": 1}


def test_a_connection_given_back_with_rows_queued_keeps_none_for_its_next_user(
    app: Flask, database: Database
) -> None:
    """Rows queued on a connection that goes back to its pool uncommitted are not sent by the
    next transaction to check it out."""
    if database.kind != "postgresql":
        pytest.skip("SQLite writes each row at once: nothing is queued")
    with app.app_context():
        with db.engine.connect() as connection:
            session = Session(bind=connection)
            write_behind.add_rows(session, MARKS, [{"scope": "table:9", "version": 1}])
            assert write_behind.pending(session)
            session.close()
        with db.engine.begin() as connection:
            found = connection.execute(select(func.count()).select_from(MARKS)).scalar()
        assert found == 0


def test_many_rows_go_in_inserts_the_database_takes(app: Flask) -> None:
    """More rows than one queued INSERT adds (`ROWS_AT_ONCE`): all written, in several."""
    many = 3 * write_behind.ROWS_AT_ONCE + 7
    with app.app_context():
        session = db.session()
        with writing(session) as work:
            require_writing(work, "test")
            rows = [{"scope": f"seating:{n}", "version": n} for n in range(1, many + 1)]
            write_behind.add_rows(work, MARKS, rows)
        found = versions(db.session())
        assert len(found) == many and found[f"seating:{many}"] == many


def test_queued_statements_on_different_tables_go_as_one() -> None:
    """Each run of statements on tables all different is one statement (a WITH), in order;
    one on a table already in the run starts the next, as does the limit on parameters."""
    entries = ("INSERT INTO ledger_entries (seq) VALUES (%s)", [1])
    links = ("INSERT INTO chain_links (seq) VALUES (%s), (%s)", [2, 3])
    bump = (BUMP_POSTGRESQL, ["hand:1"])
    made = ('INSERT INTO "live_marks" (scope, version) VALUES (%s, %s)', ["hand:2", 1])
    together = write_behind._together([entries, links, made, bump])
    assert together == [
        (
            f"WITH w0 AS ({entries[0]}), w1 AS ({links[0]}) {made[0]}",
            [1, 2, 3, "hand:2", 1],
        ),
        bump,
    ]
    many = ("INSERT INTO chain_links (seq) VALUES (%s)", [0] * write_behind.PARAMETERS)
    assert write_behind._together([entries, many]) == [entries, many]


def test_statements_go_with_postgresqls_own_placeholders() -> None:
    """``%s`` numbered as PostgreSQL numbers its parameters; any other ``%`` is refused, not
    sent wrong."""
    assert write_behind._native(BUMP_POSTGRESQL).startswith(
        "INSERT INTO live_marks (scope, version) VALUES ($1, 1) "
    )
    two = write_behind._native("INSERT INTO chain_links (seq, kind) VALUES (%s, %s), (%s, %s)")
    assert two == "INSERT INTO chain_links (seq, kind) VALUES ($1, $2), ($3, $4)"
    for odd in ("SELECT 100 %% 7, %s", "SELECT %(name)s"):
        with pytest.raises(ValueError):
            write_behind._native(odd)


def test_a_statement_sent_again_and_again_is_prepared_once(app: Flask, database: Database) -> None:
    """The same rows' statement, sent by write after write on one connection, is parsed and
    planned once: PostgreSQL holds it prepared (psycopg prepares it after a few sends)."""
    if database.kind != "postgresql":
        pytest.skip("SQLite has no statements sent: its rows are written at once")
    prepared = text("SELECT count(*) FROM pg_prepared_statements WHERE statement LIKE :like")
    like = "INSERT INTO live_marks (scope, version) VALUES ($1, 1)%"
    with app.app_context():
        session = db.session()
        for n in range(8):
            with writing(session) as work:
                require_writing(work, "test")
                write_behind.add_statement(work, BUMP_SQLITE, BUMP_POSTGRESQL, [f"hand:{n}"])
                # Asked on the write's own connection, after its statement went.
                assert work.execute(text("SELECT 1")).scalar() == 1
                held = work.execute(prepared, {"like": like}).scalar()
        assert held == 1
        assert versions(db.session()) == {f"hand:{n}": 1 for n in range(8)}
