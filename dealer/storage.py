"""What a database's failure says: that it cannot write or be reached now (`storage_failed`;
SQLite's "database is locked" past the wait, `database_busy`), or that the statement was wrong.

A write that fails to commit is answered by `dealer.transactions.writing`, everything else the
database's failure reaches by `dealer.web.storage`: both ask `storage_failed` whether the
database failed (a 503 in words) or the statement was wrong (a bug, a 500).
"""

from __future__ import annotations

from sqlalchemy.exc import DBAPIError, InterfaceError, OperationalError

#: SQLite's result codes (the primary code, the low byte) for a database that cannot write:
#: READONLY, IOERR, CORRUPT is not one of them (that is a bug to see), FULL, CANTOPEN.
SQLITE_CANNOT_WRITE = frozenset({8, 10, 13, 14})
#: SQLite's "database is locked": another connection held the write lock past the busy
#: timeout (`dealer.transactions.SQLITE_BUSY_TIMEOUT_MS`).
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
