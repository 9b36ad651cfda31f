"""One writer at a time: how every write transaction is serialised, on SQLite and PostgreSQL.

The ledger's gapless sequence and hash chain need each write to see the one
before it. Rather than retrying on conflicts, writes queue:

- SQLite runs in WAL mode (readers never wait for the writer) with
  ``synchronous=FULL`` and ``foreign_keys=ON``. pysqlite's own transaction
  handling is switched off and every transaction is begun by us: ``BEGIN
  IMMEDIATE`` for a write, so a second tablet waits (``busy_timeout``) for the
  write lock instead of failing with "database is locked" half-way through;
  plain ``BEGIN`` for a read, sent before its first statement but a sign-in's
  (`ALONE`). This is SQLAlchemy's "pysqlite serializable" recipe, made to tell
  reads from writes. Within one process, writers also queue
  on a lock of the process's own before ``BEGIN IMMEDIATE``: SQLite's busy
  handler polls with sleeps of up to 100 ms, so writers of one process that met
  only at SQLite's lock would wait longer than the write takes, and unfairly.
- PostgreSQL writes queue on advisory locks (`dealer.write_locks`); every write holds the
  writers' lock while it writes, in place of a locked head row (no stored head to drift from
  the entries). Under READ COMMITTED every statement after it sees what the previous writer
  committed, so the next ``seq`` and ``prev_hash`` are read fresh; for the same reason a
  write after a read in one request (its sign-in) takes its locks in the read's transaction
  (`_read_to_upgrade`), sparing a ROLLBACK and a BEGIN.

Reads (every GET) take no lock at all.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Iterator, Mapping
from contextlib import AbstractContextManager, contextmanager, nullcontext
from typing import Any

from sqlalchemy import Engine, event, inspect
from sqlalchemy.engine import Connection
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session
from sqlalchemy.orm.attributes import set_committed_value

from dealer.errors import StorageUnavailable, busy_words
from dealer.models import utcnow
from dealer.storage import database_busy, storage_failed
from dealer.write_locks import APART, COUNTS, HAND, TABLE, TAKE_WRITERS, first_locks, writers_later

#: The execution option that marks a connection's transaction as a write.
WRITE = "dealer_write"
#: The execution option of a write whose commit need not wait for the disk (`writing`'s
#: ``flushed_later``): PostgreSQL's ``SET LOCAL synchronous_commit = off`` ends with the
#: transaction; SQLite's ``synchronous`` belongs to the connection, set before its BEGIN and
#: put back to FULL when it returns to the pool (`_sqlite_checkin`), before anyone else's write.
RELAXED = "dealer_relaxed_commit"
#: The session's note of the write (its transaction) that began under another lock (the
#: counts', a table's) and holds the writers' lock too.
WRITERS_HELD = "dealer_writers_held"
#: The execution option of a read that may run on its own, before its transaction's BEGIN
#: (SQLite): a request's sign-in, one statement. A write follows it in most requests, and
#: begins afresh (BEGIN IMMEDIATE): the read's BEGIN, never sent, is one statement less.
ALONE = "dealer_alone"
#: A SQLite read transaction's note that its BEGIN is still to be sent (`Connection.info`).
BEGIN_LATER = "dealer_begin_later"
#: How long a SQLite writer waits for another's lock before giving up, in ms.
SQLITE_BUSY_TIMEOUT_MS = 30_000


def install(engine: Engine) -> None:
    """Set up ``engine``'s connections and transactions as the module docstring says."""
    if engine.dialect.name == "sqlite":
        event.listen(engine, "connect", _sqlite_connect)
        event.listen(engine, "begin", _sqlite_begin)
        event.listen(engine, "before_execute", _sqlite_begin_later)
        event.listen(engine, "commit", _sqlite_ended)
        event.listen(engine, "rollback", _sqlite_ended)
        event.listen(engine, "checkin", _sqlite_checkin)
    elif engine.dialect.name == "postgresql":
        event.listen(engine, "begin", _postgresql_begin)


def _sqlite_connect(dbapi_connection: Any, _record: Any) -> None:
    # Stop pysqlite from issuing BEGIN (and COMMIT before DDL) itself: we begin.
    dbapi_connection.isolation_level = None
    cursor = dbapi_connection.cursor()
    cursor.execute(f"PRAGMA busy_timeout = {SQLITE_BUSY_TIMEOUT_MS}")
    cursor.execute("PRAGMA journal_mode = WAL")
    cursor.execute("PRAGMA synchronous = FULL")
    cursor.execute("PRAGMA foreign_keys = ON")
    cursor.close()


def _sqlite_begin(connection: Connection) -> None:
    options = connection.get_execution_options()
    if options.get(RELAXED, False):
        # SQLite takes the setting only outside a transaction; FULL again at check-in.
        connection.exec_driver_sql("PRAGMA synchronous = NORMAL")
        connection.connection.info[RELAXED] = True
    if options.get(WRITE, False):
        connection.exec_driver_sql("BEGIN IMMEDIATE")
    else:  # before the read's first statement that is not `ALONE`
        connection.info[BEGIN_LATER] = True


def _sqlite_begin_later(
    connection: Connection, statement: Any, _multiparams: Any, _params: Any, options: Any
) -> None:
    """A read's BEGIN, sent before its first statement but those that may run `ALONE`."""
    if not connection.info.get(BEGIN_LATER, False):
        return
    asked: Mapping[str, Any] = getattr(statement, "get_execution_options", dict)()
    if options.get(ALONE, False) or asked.get(ALONE, False):
        return
    del connection.info[BEGIN_LATER]
    connection.exec_driver_sql("BEGIN")


def _sqlite_ended(connection: Connection) -> None:
    connection.info.pop(BEGIN_LATER, None)


_SQLITE_WRITERS: dict[str, threading.RLock] = {}  # each database's, by its URL
_SQLITE_WRITERS_GUARD = threading.Lock()


def _process_writers(session: Session) -> AbstractContextManager[object]:
    """The lock this process's writers to the session's SQLite database queue on (none for
    PostgreSQL, whose advisory locks queue writers fairly already)."""
    bind = session.get_bind()
    if bind.dialect.name != "sqlite":
        return nullcontext()
    with _SQLITE_WRITERS_GUARD:
        return _SQLITE_WRITERS.setdefault(str(bind.engine.url), threading.RLock())


@contextmanager
def writers_turn_if_free(session: Session) -> Iterator[bool]:
    """This process's SQLite writers' turn (`_process_writers`), taken only if no writer of
    the process holds it now: yields whether it was (always on PostgreSQL, which has none).
    For a write that must never queue behind the floor's (the health check's)."""
    lock = _process_writers(session)
    acquire = getattr(lock, "acquire", None)
    if acquire is None:
        yield True
        return
    if not acquire(blocking=False):
        yield False
        return
    try:
        yield True
    finally:
        lock.release()  # type: ignore[attr-defined]


def _postgresql_begin(connection: Connection) -> None:
    options = connection.get_execution_options()
    if options.get(WRITE, False):
        connection.exec_driver_sql(f"SELECT {first_locks(options)}")
    _relax(connection, options)


def _relax(connection: Connection, options: Mapping[str, object]) -> None:
    """A PostgreSQL write ``flushed_later`` commits without waiting for the disk."""
    if options.get(RELAXED, False):
        connection.exec_driver_sql("SET LOCAL synchronous_commit = off")


@contextmanager
def writing(
    session: Session,
    *,
    keep: Iterable[object] = (),
    flushed_later: bool = False,
    sign_in_counts: bool = False,
    hand: int | None = None,
    table: int | None = None,
    apart: bool = False,
) -> Iterator[Session]:
    """One write transaction: it waits its turn, then commits everything or nothing.

    A read transaction already open on the session (signing in reads the token) is ended
    first, so the write begins fresh with its locks held.

    Ending it forgets every row it read (the ORM expires them), except ``keep``'s: the
    signed-in user, read by this request's sign-in a moment before, keeps the columns it was
    read with instead of being read again under the writers' lock (a round trip every write
    made, for the role the sign-in had just read). A role changed in between stands as if the
    change had come a moment after this request, as a token revoked in between already does.

    ``flushed_later``: the commit does not wait for the disk (SQLite's ``synchronous = NORMAL``,
    PostgreSQL's ``synchronous_commit = off``). Only for what may be lost to a power cut in the
    last moment before it, never chips: a wrong PIN's count and its audit record. Both logs
    keep their order: a crash loses at most the last few, never one before a durable commit.

    What else the write is, for PostgreSQL's locks (`dealer.write_locks`; on SQLite, whose one
    write lock covers the database, each is an ordinary write): ``sign_in_counts``, a write of
    the sign-in counts (`dealer.people.lockout`) and the audit records of their outcome;
    ``hand``, a write of that hand's play alone (an event recorded, voided or moved; a key's
    fits); ``table``, a write at that table alone (what its own routes write); ``apart``, a
    write of nothing any table's write reads (a sign-in, its last use, its end). The first two
    take the writers' lock when they first ask `require_writing` (before a row is written).
    """
    options: dict[str, object] = {
        WRITE: True,
        RELAXED: flushed_later,
        COUNTS: sign_in_counts,
        HAND: hand,
        TABLE: table,
        APART: apart,
    }
    upgrade = _read_to_upgrade(session)
    kept = [(row, _loaded_columns(row)) for row in keep] if session.in_transaction() else []
    if upgrade is None and session.in_transaction():
        session.rollback()  # before queueing: no read snapshot held while waiting
        _restore(kept)
    with _process_writers(session):
        try:
            _begin(session, upgrade, options, kept)
            yield session
            session.commit()
        except BaseException as exc:
            session.rollback()
            if isinstance(exc, DBAPIError) and storage_failed(exc):
                raise StorageUnavailable(busy_words() if database_busy(exc) else None) from exc
            raise


def _begin(
    session: Session,
    upgrade: Connection | None,
    options: dict[str, object],
    kept: Iterable[tuple[object, dict[str, Any]]],
) -> None:
    """Begin the write, its turn come: in place, on the read transaction open (``upgrade``)
    when that read wrote nothing, else afresh with ``options``; ``kept`` rows as they were."""
    if upgrade is not None:
        if _lock_in_place(upgrade, options):
            session.expire_all()  # read again under the lock, as after a rollback
            _restore(kept)
            return
        session.rollback()  # the read wrote something: not this write's to commit
        _restore(kept)
    session.connection(execution_options=options)


def _restore(kept: Iterable[tuple[object, dict[str, Any]]]) -> None:
    for row, columns in kept:
        for name, value in columns.items():
            set_committed_value(row, name, value)


def _read_to_upgrade(session: Session) -> Connection | None:
    """The connection of the read transaction open on ``session`` if the write may go on in it
    (PostgreSQL), else None: the read is ended and the write begins afresh.

    Under PostgreSQL's READ COMMITTED every statement sees what was committed before it, so a
    statement after the writers' lock sees the previous writer's work whether the transaction
    began before the lock or after: a request's sign-in, read in that transaction a moment
    before, is followed by the write in the same one, sparing a ROLLBACK and a BEGIN (two
    round trips on every write). Only a plain read: not a REPEATABLE READ `snapshot` (its
    view is fixed at its first statement) nor a connection given any other option, not a
    savepoint, not a transaction a failed statement aborted, nothing pending in the session
    (and `_lock_in_place` makes sure it wrote nothing). SQLite's reads are snapshots, and its
    BEGIN IMMEDIATE must come first: it always begins afresh.
    """
    if (
        not session.in_transaction()
        or session.in_nested_transaction()
        or session.new
        or session.dirty
        or session.deleted
    ):
        return None
    connection = session.connection()
    if connection.dialect.name != "postgresql" or connection.get_execution_options():
        return None
    driver = getattr(connection.connection, "dbapi_connection", None)
    status = getattr(getattr(driver, "info", None), "transaction_status", None)
    if status is None or status.name != "INTRANS":  # idle, active or aborted: begin afresh
        return None
    return connection


def _lock_in_place(connection: Connection, options: dict[str, object]) -> bool:
    """Make the read transaction on ``connection`` the write: take its lock there (in the
    statement that asks whether the transaction wrote anything yet). False when it had: a
    read never writes, and what it wrote is not this write's to commit (the caller rolls it
    back and begins afresh)."""
    connection.execution_options(**options)  # in place, on this transaction's connection
    asked = f"SELECT {first_locks(options)}, txid_current_if_assigned()"
    if connection.exec_driver_sql(asked).one()[-1] is not None:
        return False
    _relax(connection, options)
    return True


def _sqlite_checkin(dbapi_connection: Any, record: Any) -> None:
    if record is not None:
        record.info.pop(BEGIN_LATER, None)
    if record is not None and record.info.pop(RELAXED, False):
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA synchronous = FULL")
        cursor.close()


def _loaded_columns(row: object) -> dict[str, Any]:
    """The columns of ``row`` loaded now (none if it is not in a session)."""
    state = inspect(row)
    if state.session is None or state.expired:
        return {}
    return {
        column.key: state.dict[column.key]
        for column in state.mapper.column_attrs
        if column.key in state.dict
    }


def in_write(session: Session) -> bool:
    """Whether ``session`` is inside a write transaction now (one `writing` block)."""
    if not session.in_transaction():
        return False
    return bool(session.connection().get_execution_options().get(WRITE, False))


def require_writing(session: Session, what: str) -> None:
    """Refuse to go on unless ``session`` is in a write transaction (a programming error).

    A write of the sign-in counts or of a hand's play on PostgreSQL takes the writers' lock
    here, the first time (`dealer.write_locks`): from here on it is in the writers' order.
    """
    for statement in writers_first(session, what):
        session.connection().exec_driver_sql(statement)


def writers_first(session: Session, what: str) -> list[str]:
    """`require_writing`, but the statement that takes the writers' lock (when this write has
    yet to take it, on PostgreSQL) is given back to be sent first in the caller's next round
    trip (`dealer.write_behind.fetch`), instead of in one of its own: every statement after it
    in that pipeline begins once the lock is held, and sees what the writer before committed.
    The lock is noted as held from here: a pipeline that fails rolls the transaction back."""
    connection = session.connection()
    options = connection.get_execution_options()
    if not options.get(WRITE, False):
        raise RuntimeError(f"{what} needs a write transaction: use transactions.writing")
    transaction = session.get_transaction()
    if not writers_later(options) or session.info.get(WRITERS_HELD) is transaction:
        return []
    # Noted for the transaction (a new one takes it afresh); never inside a savepoint,
    # whose rollback would let the lock go and leave the note behind.
    if not session.in_nested_transaction():
        session.info[WRITERS_HELD] = transaction
    return [f"SELECT {TAKE_WRITERS}"] if connection.dialect.name == "postgresql" else []


#: The key of `Session.info` that holds when the session's `snapshot` began.
SNAPSHOT_BEGAN = "snapshot_began"


@contextmanager
def snapshot(session: Session) -> Iterator[Session]:
    """One read transaction that sees the whole database as of one moment, then ends.

    A report reads many tables; under PostgreSQL's READ COMMITTED a write committed between
    two of its queries would show in one and not the other, so it reads in REPEATABLE READ.
    SQLite's WAL already gives a read transaction one snapshot. It takes no lock.
    """
    if session.in_transaction():
        session.rollback()
    # Taken before the snapshot is: whatever was committed before this moment is in it (a
    # checkpoint filed after it may be of links the snapshot does not hold, `verify`).
    session.info[SNAPSHOT_BEGAN] = utcnow()
    if session.get_bind().dialect.name == "postgresql":
        session.connection(execution_options={"isolation_level": "REPEATABLE READ"})
    try:
        yield session
    finally:
        session.rollback()
        session.info.pop(SNAPSHOT_BEGAN, None)
