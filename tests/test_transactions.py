"""How writes are serialised: SQLite's pragmas and BEGIN IMMEDIATE, PostgreSQL's lock."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import event, func, insert, select, text, update
from sqlalchemy.exc import DBAPIError

from dealer.extensions import db
from dealer.ledger import CAGE, Posting, Recorder, post, seating_account
from dealer.models import User
from dealer.people.users import add_user
from dealer.transactions import ALONE, require_writing, writing
from dealer.write_locks import COUNTS_LOCK, FLOOR_LOCK, WRITERS_LOCK
from tests.conftest import Database

#: This test's own database, for the cluster-wide views (pg_locks): the same advisory lock key
#: is taken in every database, the other test workers' included.
THIS_DATABASE = "(SELECT oid FROM pg_database WHERE datname = current_database())"
#: The advisory locks this connection holds, by key.
OWN_ADVISORY_LOCKS = text(
    "SELECT (classid::bigint << 32) | objid::bigint FROM pg_locks "
    "WHERE locktype = 'advisory' AND pid = pg_backend_pid() AND granted ORDER BY 1"
)
#: This connection's transaction's virtual id (asking for txid_current() would make it a
#: writer).
VIRTUAL_XID = text(
    "SELECT virtualtransaction FROM pg_locks "
    "WHERE pid = pg_backend_pid() AND locktype = 'virtualxid'"
)


@pytest.fixture
def database_uri(database: Database) -> str:
    return database.uri


def test_sqlite_runs_in_wal_with_full_sync_and_foreign_keys(app: Flask, database: Database) -> None:
    if database.kind != "sqlite":
        pytest.skip("SQLite pragmas")
    with app.app_context():
        session = db.session()
        assert session.execute(text("PRAGMA journal_mode")).scalar() == "wal"
        assert session.execute(text("PRAGMA foreign_keys")).scalar() == 1
        assert session.execute(text("PRAGMA synchronous")).scalar() == 2  # FULL
        assert session.execute(text("PRAGMA busy_timeout")).scalar() >= 1000


def test_a_sqlite_read_begins_before_its_first_statement_but_a_sign_ins(
    app: Flask, database: Database
) -> None:
    """A sign-in's read (one statement, `ALONE`) runs before its transaction's BEGIN; the
    read's next statement is preceded by it, so the rest of the read sees one snapshot; a
    write after the sign-in alone sends no BEGIN but its own."""
    if database.kind != "sqlite":
        pytest.skip("SQLite's BEGIN")
    seen: list[str] = []
    alone = select(func.count(User.id)).execution_options(**{ALONE: True})
    with app.app_context():
        engine = db.engine
        event.listen(engine, "before_cursor_execute", note := lambda *a: seen.append(a[2]))
        session = db.session()
        session.execute(alone)
        session.execute(select(func.count(User.id)))
        session.execute(select(func.count(User.id)))
        session.rollback()
        assert [s.split()[0] for s in seen] == ["SELECT", "BEGIN", "SELECT", "SELECT"]
        seen.clear()
        session.execute(alone)
        with writing(session) as work:
            work.execute(select(func.count(User.id)))
        assert [s.split()[0] for s in seen] == ["SELECT", "BEGIN", "SELECT"]
        assert "BEGIN IMMEDIATE" in seen[1]
        event.remove(engine, "before_cursor_execute", note)


def test_a_second_writer_waits_for_the_first(app: Flask) -> None:
    """While one write transaction is open, another cannot begin until it commits."""
    order: list[str] = []
    started = threading.Event()

    def first() -> None:
        with app.app_context(), writing(db.session()):
            order.append("first begins")
            started.set()
            time.sleep(0.5)
            order.append("first commits")

    def second() -> None:
        started.wait(5)
        with app.app_context(), writing(db.session()):
            order.append("second begins")

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    assert order == ["first begins", "first commits", "second begins"]


def test_postgresql_writers_hold_the_advisory_lock(app: Flask, database: Database) -> None:
    """A write (not of a hand's play) holds the floor's lock whole and the writers' lock, from
    its first statement to its end."""
    if database.kind != "postgresql":
        pytest.skip("PostgreSQL's writers' lock")
    held = text(
        "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' "
        "AND pid = pg_backend_pid() AND granted"
    )
    whole = text(
        "SELECT mode FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid() "
        "AND ((classid::bigint << 32) | objid::bigint) = :key"
    )
    with app.app_context():
        with writing(db.session()) as session:
            assert session.execute(held).scalar() == 2
            keys = session.execute(OWN_ADVISORY_LOCKS).scalars()
            assert list(keys) == sorted([WRITERS_LOCK, FLOOR_LOCK])
            assert session.execute(whole, {"key": FLOOR_LOCK}).scalar() == "ExclusiveLock"
        assert db.session().execute(held).scalar() == 0


def test_the_ledger_refuses_to_post_outside_a_write_transaction(app: Flask) -> None:
    posting = Posting(CAGE, seating_account(1), 5, "buy_in", "test")
    with app.app_context(), pytest.raises(RuntimeError, match="write transaction"):
        post(db.session(), 1, [posting], Recorder(1, "test"))


def test_a_read_is_not_blocked_by_a_writer(app: Flask) -> None:
    """Reads take no lock: a GET answers while a write transaction is open."""
    holding = threading.Event()
    release = threading.Event()

    def writer() -> None:
        with app.app_context(), writing(db.session()):
            holding.set()
            release.wait(10)

    thread = threading.Thread(target=writer)
    thread.start()
    holding.wait(5)
    try:
        started = time.monotonic()
        assert app.test_client().get("/healthz").status_code == 200
        assert time.monotonic() - started < 2
    finally:
        release.set()
        thread.join(10)


def test_a_write_keeps_only_the_rows_it_is_told_to_keep(app: Flask) -> None:
    """Ending the read transaction forgets every row read, but the ones named in ``keep``
    (the signed-in user, `dealer.web.once`): those keep the columns they were read with."""
    with app.app_context(), writing(db.session()) as session:
        add_user(session, "Kim", "dealer", "1234")
        add_user(session, "Lee", "dealer", "1234")
    with app.app_context():
        session = db.session()
        kim = session.scalars(select(User).where(User.name == "Kim")).one()
        lee = session.scalars(select(User).where(User.name == "Lee")).one()
        with db.engine.connect() as other:  # another app server, changing both meanwhile
            other.execute(update(User).values(role="supervisor"))
            other.commit()
        statements: list[str] = []

        def note(*args: Any) -> None:
            statements.append(args[2])

        with writing(session, keep=[kim]):
            event.listen(db.engine, "before_cursor_execute", note)
            try:
                assert kim.role == "dealer"  # as this request read it: not read again
                assert statements == []
                assert lee.role == "supervisor"  # forgotten, so read afresh under the lock
                assert len(statements) == 1
            finally:
                event.remove(db.engine, "before_cursor_execute", note)


def test_a_write_flushed_later_does_not_wait_for_the_disk_and_the_next_write_does(
    app: Flask, database: Database
) -> None:
    """A wrong PIN's count commits without waiting for the disk; is every other write, on the
    same pooled connection next, durable again (SQLite FULL, PostgreSQL synchronous_commit)?"""
    ask = "PRAGMA synchronous" if database.kind == "sqlite" else "SHOW synchronous_commit"
    # SQLite's synchronous: 1 is NORMAL, 2 is FULL.
    relaxed, durable = ("1", "2") if database.kind == "sqlite" else ("off", "on")
    with app.app_context():
        with writing(db.session(), flushed_later=True) as session:
            assert str(session.execute(text(ask)).scalar()) == relaxed
            add_user(session, "Quick", "dealer", "1234")
        with writing(db.session()) as session:
            assert str(session.execute(text(ask)).scalar()) == durable
            assert session.scalars(select(User.name).where(User.name == "Quick")).one()


def test_a_sign_in_count_takes_the_writers_lock_only_to_link_its_audit_record(
    app: Flask, database: Database
) -> None:
    """A wrong PIN's counts are written under the counts' own lock; the writers' lock, which
    every buy-in queues on, is taken only when its audit record joins the chain, once."""
    if database.kind != "postgresql":
        pytest.skip("PostgreSQL's advisory locks (SQLite has one write lock)")
    taken: list[str] = []
    with app.app_context():
        with writing(db.session(), sign_in_counts=True) as session:
            assert list(session.execute(OWN_ADVISORY_LOCKS).scalars()) == [COUNTS_LOCK]
            event.listen(
                session.connection(),
                "before_cursor_execute",
                lambda *args: taken.append(args[2]) if "xact_lock" in args[2] else None,
            )
            require_writing(session, "a test")
            require_writing(session, "a test")  # once per transaction
            assert sorted(session.execute(OWN_ADVISORY_LOCKS).scalars()) == sorted(
                [COUNTS_LOCK, WRITERS_LOCK]
            )
        assert taken == [f"SELECT pg_advisory_xact_lock({WRITERS_LOCK})"]
        with writing(db.session(), sign_in_counts=True) as session:  # a new transaction
            assert list(session.execute(OWN_ADVISORY_LOCKS).scalars()) == [COUNTS_LOCK]
            require_writing(session, "a test")
            assert len(list(session.execute(OWN_ADVISORY_LOCKS).scalars())) == 2
        with writing(db.session(), sign_in_counts=True) as session:
            savepoint = session.begin_nested()
            require_writing(session, "a test")
            savepoint.rollback()  # PostgreSQL lets the lock taken inside it go
            assert list(session.execute(OWN_ADVISORY_LOCKS).scalars()) == [COUNTS_LOCK]
            require_writing(session, "a test")  # so it is taken again, not remembered
            assert len(list(session.execute(OWN_ADVISORY_LOCKS).scalars())) == 2


def test_a_wrong_pin_waits_for_a_writer_only_to_write_its_audit_record(
    app: Flask, database: Database
) -> None:
    """While a buy-in holds the writers' lock, a wrong PIN's counts are already written (its
    transaction holds the counts' lock and waits for the writers'); its audit record is
    stamped and linked after the writer's, so the trail and the chain keep time order."""
    if database.kind != "postgresql":
        pytest.skip("PostgreSQL's advisory locks (SQLite has one write lock)")
    from dealer.models import AuditRecord, ChainLink
    from dealer.people import users
    from dealer.people.audit import record_audit

    holding, release = threading.Event(), threading.Event()
    refused: list[Exception] = []

    def writer() -> None:
        with app.app_context(), writing(db.session()) as session:
            holding.set()
            release.wait(10)
            record_audit(session, "user_added", words="An ordinary write's record.")

    def wrong_pin() -> None:
        with app.test_request_context():
            try:
                users.sign_in(db.session(), "Nobody", "0000")
            except Exception as exc:  # the refusal, once the writer is done
                refused.append(exc)

    waiting = text(
        "SELECT count(*) FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid "
        "WHERE l.locktype = 'advisory' AND NOT l.granted AND l.database = " + THIS_DATABASE + " "
        "AND ((l.classid::bigint << 32) | l.objid::bigint) = :key "
        "AND a.query LIKE 'SELECT pg_advisory_xact_lock%'"
    )
    held = text(
        "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted "
        "AND database = " + THIS_DATABASE + " AND ((classid::bigint << 32) | objid::bigint) = :key"
    )
    threads = [threading.Thread(target=writer), threading.Thread(target=wrong_pin)]
    threads[0].start()
    holding.wait(5)
    threads[1].start()
    try:
        with app.app_context():
            found = 0
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline and not found:
                found = db.session().execute(waiting, {"key": WRITERS_LOCK}).scalar() or 0
                db.session().rollback()
                time.sleep(0.05)
            assert found == 1  # the wrong PIN, hashed and counted, waits for the writers
            assert db.session().execute(held, {"key": COUNTS_LOCK}).scalar() == 1
            db.session().rollback()
    finally:
        release.set()
        for thread in threads:
            thread.join(15)
    assert [getattr(e, "code", None) for e in refused] == ["wrong_pin"]
    with app.app_context():
        records = (
            db.session()
            .execute(
                select(AuditRecord.id, AuditRecord.at, AuditRecord.kind).order_by(AuditRecord.id)
            )
            .all()
        )
        assert [r.kind for r in records] == ["user_added", "sign_in_refused"]
        assert records[0].at <= records[1].at
        links = db.session().execute(
            select(ChainLink.ref, ChainLink.at)
            .where(ChainLink.kind == "audit")
            .order_by(ChainLink.seq)
        )
        assert [(ref, at) for ref, at in links] == [(r.id, r.at) for r in records]


def test_a_write_after_a_read_goes_on_in_the_same_transaction_on_postgresql(
    app: Flask, database: Database
) -> None:
    """A request's sign-in reads, then it writes: on PostgreSQL the write takes the lock in the
    read's own transaction (no ROLLBACK and BEGIN between), and still sees a row another
    writer committed after the read began."""
    if database.kind != "postgresql":
        pytest.skip("SQLite's write always begins afresh (BEGIN IMMEDIATE)")
    with app.app_context():
        session = db.session()
        session.execute(select(User.id)).all()  # the sign-in's read
        before = session.execute(VIRTUAL_XID).scalar()
        with app.app_context(), writing(db.session()) as other:  # committed meanwhile
            add_user(other, "Meanwhile", "dealer", "1234")
        with writing(session) as work:
            assert work.execute(VIRTUAL_XID).scalar() == before
            assert work.scalars(select(User.name).where(User.name == "Meanwhile")).one()


def test_a_read_that_wrote_failed_or_is_a_snapshot_is_ended_before_the_write(
    app: Flask, database: Database
) -> None:
    """What a read flushed or wrote on the connection, a read a failed statement aborted, or a
    REPEATABLE READ snapshot, is never carried into a write: that transaction is rolled back
    and the write begins afresh (and works)."""
    if database.kind != "postgresql":
        pytest.skip("SQLite's write always begins afresh (BEGIN IMMEDIATE)")
    stray = select(func.count()).select_from(User).where(User.name.like("Stray%"))
    with app.app_context():
        session = db.session()
        session.add(User(name="Stray one", role="dealer", pin_hash="x"))
        session.flush()  # a read should never, but if it did: not written by the write
        before = session.execute(VIRTUAL_XID).scalar()
        with writing(session) as work:
            assert work.execute(VIRTUAL_XID).scalar() != before
        session.execute(
            insert(User).values(name="Stray two", role="dealer", pin_hash="x", active=True)
        )  # on the connection, not through a flush
        with writing(session) as work:
            pass
        assert session.execute(stray).scalar() == 0
        session.rollback()
        with pytest.raises(DBAPIError):
            session.execute(text("SELECT 1 / 0"))  # aborts the read transaction
        with writing(session) as work:
            add_user(work, "After a failed read", "dealer", "1234")
        session.rollback()
        session.connection(execution_options={"isolation_level": "REPEATABLE READ"})
        before = session.execute(VIRTUAL_XID).scalar()
        with writing(session) as work:
            assert work.execute(VIRTUAL_XID).scalar() != before
