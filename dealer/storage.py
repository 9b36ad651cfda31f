"""Whether the database can write now: what a database's failure says (`storage_failed`,
`database_busy`), and the health check's questions (`storage_answers`, `storage_writable`).

A write that fails to commit is answered by `dealer.transactions.writing`, everything else the
database's failure reaches by `dealer.web.storage`: both ask `storage_failed` whether the
database failed (a 503 in words) or the statement was wrong (a bug, a 500).
"""

from __future__ import annotations

import os
import shutil

from sqlalchemy import text
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.engine import Connection
from sqlalchemy.exc import DBAPIError, InterfaceError, OperationalError
from sqlalchemy.orm import Session

from dealer.models import HealthCheck, utcnow

__all__ = ["database_busy", "storage_answers", "storage_failed", "storage_writable"]


#: SQLite's result codes (the primary code, the low byte) for a database that cannot write:
#: READONLY, IOERR, CORRUPT is not one of them (that is a bug to see), FULL, CANTOPEN.
SQLITE_CANNOT_WRITE = frozenset({8, 10, 13, 14})
#: SQLite's "database is locked": another connection held the write lock past the busy
#: timeout (`dealer.transactions.SQLITE_BUSY_TIMEOUT_MS`; the health check does not wait).
SQLITE_BUSY = 5
#: PostgreSQL's SQLSTATEs (or their classes) for the same: a read-only transaction, a full
#: disk or other exhausted resources, an I/O error, the connection or server gone.
POSTGRESQL_CANNOT_WRITE = ("25006", "53", "58030", "08", "57P01", "57P02", "57P03")


def storage_failed(error: DBAPIError) -> bool:
    """Whether ``error`` says the database cannot write now (not that the write was wrong),
    a database busy past the wait (`database_busy`) included."""
    if error.connection_invalidated:
        return True
    orig = error.orig
    if isinstance(error, OperationalError | InterfaceError) and _connection_failed(orig):
        return True
    sqlite_code = getattr(orig, "sqlite_errorcode", None)
    if isinstance(sqlite_code, int):
        return sqlite_code & 0xFF in SQLITE_CANNOT_WRITE or database_busy(error)
    sqlstate = getattr(orig, "sqlstate", None)
    return isinstance(sqlstate, str) and sqlstate.startswith(POSTGRESQL_CANNOT_WRITE)


def database_busy(error: DBAPIError) -> bool:
    """Whether ``error`` is SQLite's "database is locked": another write held the database for
    longer than a writer waits; nothing was written, and the same write may be sent again."""
    code = getattr(error.orig, "sqlite_errorcode", None)
    return isinstance(code, int) and code & 0xFF == SQLITE_BUSY


def _connection_failed(orig: BaseException | None) -> bool:
    """A PostgreSQL driver's error that names no SQLSTATE: the connection could not be made or
    was lost (refused, the database closed to connections, the server gone), never a wrong
    statement, which the server answers with its SQLSTATE."""
    if orig is None:
        return False
    return getattr(orig, "sqlstate", "") is None and getattr(orig, "sqlite_errorcode", None) is None


def storage_answers(session: Session) -> None:
    """Ask the database the least question there is; it raises if the database is gone."""
    session.execute(text("SELECT 1"))


#: The one row of ``health_checks`` each check writes again.
HEALTH_ROW = 1
#: The least free room on the SQLite file's disk for it to take writes: a few writes' worth of
#: its log (WAL) and pages.
SQLITE_ROOM_BYTES = 1 << 20


def storage_writable(session: Session) -> bool:
    """Whether the database takes a write now: a real one, committed, that grows nothing (the
    one row of ``health_checks`` written again in place), and on SQLite whether its file has
    room for a page more (`_sqlite_has_room`). It fails as the floor's writes do on a read-only
    file or database, a PostgreSQL read-only transaction or its log's disk full, a database
    gone. It takes no writers' lock: the health check must not queue behind the floor's writes
    (on SQLite a writer holding the lock proves the database writes).

    It writes on a connection of its own. On SQLite it must never wait for the write lock
    (busy timeout 0), and a connection so changed must never serve another request: it is
    taken out of the pool before the change (`Connection.detach`) and closed after."""
    if session.in_transaction():
        session.rollback()
    engine = session.get_bind().engine
    sqlite = engine.dialect.name == "sqlite"
    try:
        with engine.connect() as connection:
            if sqlite:
                connection.detach()
                connection.exec_driver_sql("PRAGMA busy_timeout = 0")
                if not _sqlite_has_room(connection):
                    return False
            _write_health_row(connection)
            connection.commit()
    except DBAPIError as exc:
        if database_busy(exc):
            return True
        if storage_failed(exc):
            return False
        raise
    return True


def _write_health_row(connection: Connection) -> None:
    """Write the one row of ``health_checks`` (made by the first check): on PostgreSQL an
    update in place (no indexed column changes, so the page keeps one live version and prunes
    the dead), on SQLite a row of the same size over the old one."""
    upsert = (sqlite_insert if connection.dialect.name == "sqlite" else postgresql_insert)(
        HealthCheck
    ).values(id=HEALTH_ROW, at=utcnow())
    connection.execute(
        upsert.on_conflict_do_update(
            index_elements=[HealthCheck.id], set_={"at": upsert.excluded.at}
        )
    )


def _sqlite_has_room(connection: Connection) -> bool:
    """Whether the SQLite file can take a page more without waiting for anyone: a free page in
    it or room to grow (under its page limit, ``max_page_count``), and room on its disk."""

    def pragma(name: str) -> int:
        return int(connection.exec_driver_sql(f"PRAGMA {name}").scalar_one())

    if not pragma("freelist_count") and pragma("page_count") >= pragma("max_page_count"):
        return False
    file = next(
        row[2] for row in connection.exec_driver_sql("PRAGMA database_list") if row[1] == "main"
    )
    return not file or shutil.disk_usage(os.path.dirname(file)).free >= SQLITE_ROOM_BYTES
