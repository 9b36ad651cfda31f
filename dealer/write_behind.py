"""Rows a write adds and never reads back, sent to PostgreSQL together: one round trip for all.

An event's write adds its ledger entries, their links, its kept answer and the live marks it
moved, each an INSERT whose result nothing reads. Sent one by one, each waits for its answer
before the next goes: four round trips with the writers' lock held, which every other table's
write waits behind (bench/api.py: ``lock_statements_ms``). Here each is queued instead and the
queue is sent as one psycopg pipeline (the statements in the same order, one round trip; those
on different tables as one statement, `_together`) just before the transaction's next
statement or its commit, whichever comes first: nothing later in the transaction can read
the database without the queued rows in it, and a commit never goes without them. A
rollback drops the queue with the rest of the transaction.

Each statement sent is announced to the engine's ``before_cursor_execute`` listeners as one
executed would be (the tests and bench/api.py count statements that way), and a failure is
raised as SQLAlchemy raises the driver's (an `IntegrityError` for a key kept meanwhile, an
`OperationalError` for a database gone, the connection then dropped from its pool), so the
callers' handling is the same whether a row was queued or written at once.

Each statement is sent with PostgreSQL's own placeholders (`_native`) and, once a connection
has sent it a few times, prepared: an event's rows are a statement of a few hundred parameters
sent with the writers' lock held, and parsing it (psycopg's placeholders, then PostgreSQL's
parse and plan) every time was a third of that round trip (bench/README.md, issue 46).

SQLite has no round trips (the database is in the process): each row is written at once,
exactly as before.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, cast

import psycopg
from psycopg.types.json import Json
from sqlalchemy import Connection, Engine, Table, event, insert
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session
from sqlalchemy.sql import sqltypes

#: Where a connection keeps its queue (`Connection.info`, which lives with the pooled
#: connection's checkout): a statement of the same connection finds it there.
QUEUED = "write_behind"


@dataclass(slots=True)
class _Queue:
    statements: list[tuple[str, list[Any]]] = field(default_factory=list)
    sending: bool = False


def add_rows(session: Session, table: Table, rows: Sequence[Mapping[str, Any]]) -> None:
    """Add ``rows`` (every row the same columns) to ``table`` inside the caller's write: queued
    on PostgreSQL (one INSERT of them all), written at once on SQLite."""
    if not rows:
        return
    connection = session.connection()
    if connection.dialect.name != "postgresql":
        statement = _INSERTS.get(table.name)
        if statement is None:
            statement = _INSERTS[table.name] = insert(table)
        connection.execute(statement, list(rows))
        return
    columns = tuple(rows[0])
    json = _json_columns(table)
    queue = _queue(connection)
    # In INSERTs of at most ROWS_AT_ONCE rows: well under PostgreSQL's 65,535 parameters.
    for start in range(0, len(rows), ROWS_AT_ONCE):
        chunk = rows[start : start + ROWS_AT_ONCE]
        values = [
            Json(row[name]) if name in json else row[name] for row in chunk for name in columns
        ]
        queue.statements.append((_insert_sql(connection, table.name, columns, len(chunk)), values))


def add_statement(session: Session, sqlite: Any, postgresql: str, params: Sequence[Any]) -> None:
    """A write whose result nothing reads: ``sqlite`` (a clause, run at once with ``params``
    numbered as its ``:s0``, ``:s1``, ...) on SQLite; on PostgreSQL ``postgresql`` (its
    parameters ``%s``, in order), queued."""
    connection = session.connection()
    if connection.dialect.name != "postgresql":
        connection.execute(sqlite, {f"s{i}": value for i, value in enumerate(params)})
        return
    _queue(connection).statements.append((postgresql, list(params)))


def pending(session: Session) -> bool:
    """Whether this session's connection has statements still queued."""
    if not session.in_transaction():
        return False
    queue = session.connection().info.get(QUEUED)
    return bool(queue and queue.statements)


def send(connection: Connection) -> None:
    """Send ``connection``'s queue now, as one pipeline; a failure is raised as SQLAlchemy's."""
    _sent(connection, [])


def fetch(session: Session, statements: Sequence[tuple[str, Sequence[Any]]]) -> list[list[Any]]:
    """PostgreSQL only: the queue and then ``statements`` (psycopg's SQL, ``%s`` parameters)
    in one pipeline, one round trip; each statement's rows, in order. A read among them sees
    everything before it in the pipeline, as it would sent alone."""
    return _sent(session.connection(), [(sql, list(params)) for sql, params in statements])


def _sent(
    connection: Connection, fetched: list[tuple[str, list[Any]]], commit: bool = False
) -> list[list[Any]]:
    queue: _Queue | None = connection.info.get(QUEUED)
    if queue is not None and queue.sending:
        return []  # a statement announced while its pipeline is sent
    queued: list[tuple[str, list[Any]]] = []
    if queue is not None:
        queued, queue.statements = queue.statements, []
    if not queued and not fetched:
        return []
    if queue is None:
        queue = connection.info[QUEUED] = _Queue()
    queue.sending = True
    try:
        return _send(connection, queued, fetched, commit)
    finally:
        queue.sending = False


def _send(
    connection: Connection,
    queued: list[tuple[str, list[Any]]],
    fetched: list[tuple[str, list[Any]]],
    commit: bool = False,
) -> list[list[Any]]:
    raw = connection.connection.driver_connection
    assert isinstance(raw, psycopg.Connection)
    dispatch = connection.dispatch
    queued = _together(queued)
    every = queued + fetched
    try:
        with raw.pipeline():
            cursors = []
            for sql, params in every:
                cursor = psycopg.RawCursor(raw)
                for listener in dispatch.before_cursor_execute:
                    listener(connection, cursor, sql, params, None, False)
                # Prepared by psycopg once a connection has sent it a few times (its
                # ``prepare_threshold``): PostgreSQL then parses and plans it once.
                cursor.execute(_native(sql), params)
                cursors.append(cursor)
            if commit:  # the transaction's own end, not a statement of it: not announced
                raw.execute(b"COMMIT", prepare=False)
        # The pipeline is answered (its end waits for every result): announced as answered.
        for cursor, (sql, params) in zip(cursors, every, strict=True):
            for listener in dispatch.after_cursor_execute:
                listener(connection, cursor, sql, params, None, False)
        rows = [cursor.fetchall() for cursor in cursors[len(queued) :]]
        for cursor in cursors:
            cursor.close()
        return rows
    except psycopg.Error as exc:
        disconnected = connection.dialect.is_disconnect(cast(Any, exc), connection.connection, None)
        if disconnected:
            connection.invalidate(exc)
        # A pipeline's failure comes at its end, not at the statement that failed: every
        # statement sent is named (the driver's own message names what failed).
        sent = "; ".join(sql for sql, _ in every)
        raise DBAPIError.instance(
            sent, None, exc, psycopg.Error, connection_invalidated=disconnected
        ) from exc


@lru_cache(maxsize=1024)
def _native(sql: str) -> str:
    """``sql`` with PostgreSQL's own placeholders (``$1``, ``$2``...) for its ``%s``, as a
    `psycopg.RawCursor` takes it: made once a statement. psycopg converts ``%s`` itself on
    every execution of a statement of over 50 parameters (its own cache stops there), and an
    event's rows sent together have a few hundred. A statement with any other ``%`` is not
    one this module makes."""
    if sql.count("%") != sql.count("%s"):
        raise ValueError(f"only %s placeholders are sent here: {sql[:80]}")
    parts = sql.split("%s")
    return parts[0] + "".join(f"${i}{part}" for i, part in enumerate(parts[1:], start=1))


def _together(queued: list[tuple[str, list[Any]]]) -> list[tuple[str, list[Any]]]:
    """The statements queued, in order, as few statements as is safe: each run of them on
    tables all different one statement, every one but its last in a WITH, within
    PostgreSQL's limit on parameters.

    A data-modifying WITH runs its statements as one, in one snapshot: none sees another's
    rows. So two on one table are never put together (a mark inserted, then bumped, must find
    it there). What is queued reads no other table (rows added, a hand's status set by its
    key, the marks bumped), and the foreign keys are checked as the whole statement ends.
    """
    out: list[tuple[list[str], set[str], list[Any]]] = []
    for sql, params in queued:
        target = _TARGET.match(sql)
        table = target.group(1) if target else sql
        if out and table not in out[-1][1] and len(out[-1][2]) + len(params) <= PARAMETERS:
            out[-1][0].append(sql)
            out[-1][1].add(table)
            out[-1][2].extend(params)
        else:
            out.append(([sql], {table}, list(params)))
    return [(_with(statements), params) for statements, _tables, params in out]


#: The table a queued statement writes.
_TARGET = re.compile(r'(?:INSERT INTO|UPDATE) "?(\w+)')


def _with(statements: list[str]) -> str:
    if len(statements) == 1:
        return statements[0]
    *first, last = statements
    return "WITH " + ", ".join(f"w{n} AS ({sql})" for n, sql in enumerate(first)) + " " + last


def _json_columns(table: Table) -> frozenset[str]:
    found = _JSON.get(table.name)
    if found is None:
        found = _JSON[table.name] = frozenset(
            c.name for c in table.columns if isinstance(c.type, sqltypes.JSON)
        )
    return found


_JSON: dict[str, frozenset[str]] = {}


def _queue(connection: Connection) -> _Queue:
    queue: _Queue | None = connection.info.get(QUEUED)
    if queue is None:
        queue = connection.info[QUEUED] = _Queue()
    return queue


#: The most rows one queued INSERT adds.
ROWS_AT_ONCE = 1000
#: The most parameters of statements sent together as one: PostgreSQL takes at most 65,535.
PARAMETERS = 30_000
#: The INSERTs of up to this many rows are built once each; longer ones each time.
KEPT_UP_TO = 64
_SQL: dict[tuple[str, tuple[str, ...], int], str] = {}
#: SQLite's INSERT of each table, built once: nothing to build or key for the cache each time.
_INSERTS: dict[str, Any] = {}


def _insert_sql(connection: Connection, table: str, columns: tuple[str, ...], n: int) -> str:
    """``INSERT INTO table (columns) VALUES (%s, ...), ...`` for ``n`` rows, built once each."""
    key = (table, columns, n)
    found = _SQL.get(key)
    if found is None:
        quote = connection.dialect.identifier_preparer.quote
        row = "(" + ", ".join(["%s"] * len(columns)) + ")"
        named = ", ".join(quote(name) for name in columns)
        found = f"INSERT INTO {quote(table)} ({named}) VALUES " + ", ".join([row] * n)
        if n <= KEPT_UP_TO:
            _SQL[key] = found
    return found


def _send_first(connection: Connection, *args: Any) -> None:
    send(connection)


def _before_commit(session: Session) -> None:
    # After every other before_commit (`install` is called last): the live marks are queued.
    if not session.in_transaction():
        return
    connection = session.connection()
    # The commit itself goes in the same round trip when nothing is left for the session to
    # flush after this hook (whose statements would come after it) and it is the write's own
    # (not a savepoint's): the connection's commit then finds the transaction ended and
    # sends nothing (psycopg's commit of no transaction). A commit that fails is raised here.
    clean = not (session.new or session.dirty or session.deleted)
    _sent(connection, [], commit=clean and not session.in_nested_transaction())


def _dropped(connection: Connection, *args: Any) -> None:
    if not connection.invalidated:  # an invalidated one sent its queue already: it is empty
        _drop(connection.info)


def _given_back(dbapi_connection: Any, record: Any) -> None:
    # A connection back in its pool keeps nothing queued for its next user.
    _drop(record.info)


def _reset(dbapi_connection: Any, record: Any, reset_state: Any) -> None:
    _drop(record.info)


def _drop(info: dict[Any, Any]) -> None:
    queue: _Queue | None = info.get(QUEUED)
    if queue is not None:
        queue.statements.clear()


def install_engine(engine: Engine) -> None:
    """Send a connection's queue before its next statement and before its commit; drop it at
    a rollback and when the connection goes back to its pool (once per engine)."""
    if engine.dialect.name != "postgresql" or event.contains(
        engine, "before_cursor_execute", _send_first
    ):
        return
    # Before any statement's cursor runs (a driver's SQL too, which `before_execute` misses);
    # the statements announced while sending find the queue already being sent.
    event.listen(engine, "before_cursor_execute", _send_first)
    event.listen(engine, "commit", _send_first)  # a commit without the session's hook
    event.listen(engine, "rollback", _dropped)
    event.listen(engine, "checkin", _given_back)
    event.listen(engine, "reset", _reset)


def install_session(session_class: type[Session]) -> None:
    """Send the queue as a session's commit begins, after the other hooks of its commit have
    queued theirs (the live marks): call it after `dealer.live.install`."""
    if not event.contains(session_class, "before_commit", _before_commit):
        event.listen(session_class, "before_commit", _before_commit)
