"""The health check's questions: does the database answer (`storage_answers`), and does it
take a write now (`storage_writable`) without growing (`GET /healthz`; docs/running-a-floor.md,
"A database that cannot write or be reached")."""

from __future__ import annotations

import os
import shutil

from sqlalchemy import text
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.engine import Connection
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session

from dealer.models import HealthCheck, utcnow
from dealer.storage import storage_failed
from dealer.transactions import RELAXED, WRITE, writers_turn_if_free
from dealer.write_locks import HEALTH_LOCK


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
    gone, SQLite's lock held by another process past a writer's wait.

    It never queues behind the floor's writes, and changes no connection's settings: on
    SQLite, while a writer of this process has the writers' turn, that writer is the proof
    and nothing is written; else the check takes the turn (so this process's writers queue
    behind it as behind any writer, never polling SQLite's lock) and writes as they do, its
    commit not waiting for the disk (`writing`'s ``flushed_later``: the setting goes back as
    the connection returns to the pool). On PostgreSQL checks take turns (`HEALTH_LOCK`, no
    writer's lock): the row is written by one check at a time, so it keeps one page."""
    if session.in_transaction():
        session.rollback()
    engine = session.get_bind().engine
    sqlite = engine.dialect.name == "sqlite"
    options = {WRITE: True, RELAXED: True} if sqlite else {}
    with writers_turn_if_free(session) as free:
        if not free:
            return True  # a writer of this process is writing now
        try:
            with engine.connect().execution_options(**options) as connection:
                if sqlite and not _sqlite_has_room(connection):
                    return False
                _write_health_row(connection)
                connection.commit()
        except DBAPIError as exc:
            if storage_failed(exc):
                return False
            raise
    return True


def _write_health_row(connection: Connection) -> None:
    """Write the one row of ``health_checks`` (made by the first check): on PostgreSQL an
    update in place (no indexed column changes, so the page keeps one live version and prunes
    the dead), on SQLite a row of the same size over the old one."""
    if connection.dialect.name != "sqlite":
        connection.execute(text(f"SELECT pg_advisory_xact_lock({HEALTH_LOCK})"))
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
