"""The health check breaks nothing and grows nothing; a write that waits too long for the
database (SQLite's "database is locked") is a 503 in words, never a 500.

Issue 41: `/healthz` set SQLite's busy timeout to 0 on a connection it then gave back to the
pool, so a buy-in that got that connection failed at once with "database is locked", answered
500; and each check added a page-sized row, so 20,000 checks grew a PostgreSQL database by
200 MB. `bench/health.py` measures both against a served app.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from flask import Flask
from sqlalchemy import text
from sqlalchemy.engine import make_url

from dealer import transactions
from dealer.errors import busy_words
from dealer.extensions import db
from tests.api.test_storage import dispose, signed_cookie
from tests.conftest import Database
from tests.helpers import Api

#: Rounds of "the write lock held elsewhere while a buy-in is sent": enough for every pooled
#: connection to serve one (the pool hands them out in turn).
ROUNDS = 6


def sqlite_only(database: Database) -> None:
    if database.kind != "sqlite":
        pytest.skip("SQLite's busy timeout and its lock")


@contextmanager
def write_lock_held(app: Flask, seconds: float | None = None) -> Iterator[None]:
    """Another process's writer holding SQLite's write lock for ``seconds`` from now (None:
    until the block ends)."""
    path = str(make_url(app.config["SQLALCHEMY_DATABASE_URI"]).database)
    other = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    other.execute("BEGIN IMMEDIATE")
    timer = threading.Timer(seconds or 0, other.execute, ["COMMIT"])
    if seconds is not None:
        timer.start()
    try:
        yield
    finally:
        if seconds is None:
            other.execute("COMMIT")
        else:
            timer.join()
        other.close()


def test_a_write_after_health_checks_waits_its_turn(
    floor: Api, people: Flask, database: Database
) -> None:
    """After health checks, every pooled connection still waits for another writer's lock:
    a buy-in sent while another process writes waits and is recorded, never a 500."""
    sqlite_only(database)
    table = int(floor.table()["id"])
    floor.seat(table, 1, "Ana", 100)
    with people.app_context():  # several connections in the pool, as a busy server has
        held = [db.engine.connect() for _ in range(ROUNDS)]
        for connection in held:
            connection.close()
    health = people.test_client()
    for _ in range(3):
        assert health.get("/healthz").status_code == 200
    for _ in range(ROUNDS):
        with write_lock_held(people, 0.2):
            answer = floor.call(
                "POST", f"/tables/{table}/seats/1/chips", {"kind": "buy_in", "amount": 5}
            )
        assert answer.status_code == 201, answer.get_data(as_text=True)[:300]


@pytest.fixture
def short_wait(people: Flask, monkeypatch: pytest.MonkeyPatch) -> Flask:
    """``people``'s app whose SQLite writers wait 50 ms for the lock, not 30 s."""
    monkeypatch.setattr(transactions, "SQLITE_BUSY_TIMEOUT_MS", 50)
    dispose(people)  # connections made from here on wait the short time
    return people


def test_a_write_kept_waiting_too_long_is_503_in_words_on_every_door(
    floor: Api, database: Database, short_wait: Flask
) -> None:
    """SQLite's "database is locked" (another process's writer held the lock past the wait):
    the API, the sign-in and a screen answer 503 saying the database was busy and the entry
    is kept; the health check, which waits as a writer does, says it cannot write."""
    sqlite_only(database)
    table = int(floor.table()["id"])
    screen = short_wait.test_client()
    screen.set_cookie("session", signed_cookie(short_wait, str(floor.token)))
    with write_lock_held(short_wait):
        api = floor.call("POST", f"/tables/{table}/seats", {"seat": 2, "player": "Bo", "buy_in": 9})
        form = {"seat": "3", "player": "Zoe Quill", "buy_in": "150", "key": "k" * 32}
        page = screen.post(f"/tables/{table}/seats", data=form)
        sign_in = short_wait.test_client().post(
            "/api/v1/session", json={"name": "Dee", "pin": "1111"}
        )
        health = short_wait.test_client().get("/healthz")
    assert api.status_code == 503, api.get_data(as_text=True)[:300]
    assert api.get_json()["error"] == {"code": "storage_unavailable", "message": busy_words()}
    assert sign_in.status_code == 503
    assert sign_in.get_json()["error"]["message"] == busy_words()
    assert page.status_code == 503
    body = page.get_data(as_text=True)
    assert "busy with other writes" in body and 'value="Zoe Quill"' in body
    assert health.status_code == 503
    assert health.get_json() == {"status": "error", "database": "cannot write"}
    assert floor.call("GET", f"/tables/{table}").get_json()["seats"] == {}  # nothing recorded


def database_bytes(app: Flask) -> int:
    """The database's size: SQLite's pages, PostgreSQL's whole database."""
    with app.app_context():
        session = db.session()
        if db.engine.dialect.name == "sqlite":
            pages = session.execute(text("PRAGMA page_count")).scalar_one()
            size = int(pages) * int(session.execute(text("PRAGMA page_size")).scalar_one())
        else:
            size = int(
                session.execute(text("SELECT pg_database_size(current_database())")).one()[0]
            )
        session.rollback()
        return size


#: Checks in a row: 9 KB each grew a PostgreSQL database by about 2.7 MB.
CHECKS = 300
#: What PostgreSQL may add meanwhile besides the check's own row (a page of the table and of
#: its index as its first row lands; the free space and visibility maps).
SLACK = 64 * 1024


def test_health_checks_leave_the_database_its_size(people: Flask) -> None:
    health = people.test_client()
    before = database_bytes(people)
    for _ in range(CHECKS):
        assert health.get("/healthz").status_code == 200
    after = database_bytes(people)
    if make_url(people.config["SQLALCHEMY_DATABASE_URI"]).get_backend_name() == "sqlite":
        assert after == before
    else:
        assert after - before <= SLACK, (before, after)
