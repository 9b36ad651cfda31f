"""Issue 10, finding 8: a database that cannot write is a 503 `storage_unavailable` in words
(API and screens, the entry kept), and /healthz says so; nothing is half-recorded.

SQLite: the file opened read-only (``mode=ro``): these tests run as root in CI, and root
writes through a chmod 0444 file, so the read-only open is how the file is made read-only
for the app. PostgreSQL: ``ALTER DATABASE ... SET default_transaction_read_only = on``.
"""

from __future__ import annotations

from collections.abc import Iterator

import psycopg
import pytest
from flask import Flask
from sqlalchemy.engine import make_url

from dealer import create_app
from dealer.errors import STORAGE_WORDS
from dealer.extensions import db
from tests.helpers import Api


def dispose(app: Flask) -> None:
    with app.app_context():
        db.session.remove()
        for engine in db.engines.values():
            engine.dispose()


@pytest.fixture
def table(floor: Api) -> int:
    """A table made while the database still writes."""
    return int(floor.table()["id"])


@pytest.fixture
def read_only(people: Flask, table: int) -> Iterator[Flask]:
    """The same database as ``people`` (with ``table`` in it), unable to write."""
    uri = people.config["SQLALCHEMY_DATABASE_URI"]
    url = make_url(uri)
    if url.get_backend_name() == "sqlite":
        stuck = create_app(
            {
                "TESTING": True,
                "SQLALCHEMY_DATABASE_URI": f"sqlite:///file:{url.database}?mode=ro&uri=true",
            }
        )
        yield stuck
        dispose(stuck)
        return
    dispose(people)
    admin = psycopg.connect(
        host=url.host, port=url.port or 5432, user=url.username, dbname="postgres", autocommit=True
    )
    admin.execute(f'ALTER DATABASE "{url.database}" SET default_transaction_read_only = on')
    try:
        yield people
    finally:
        dispose(people)
        admin.execute(f'ALTER DATABASE "{url.database}" SET default_transaction_read_only = off')
        admin.close()


def test_a_write_is_503_storage_unavailable_and_reads_go_on(
    floor: Api, table: int, read_only: Flask
) -> None:
    stuck = Api(read_only.test_client(), floor.token)
    answer = stuck.call(
        "POST", f"/tables/{table}/seats", {"seat": 1, "player": "Ana", "buy_in": 100}
    )
    assert answer.status_code == 503
    assert answer.get_json()["error"] == {"code": "storage_unavailable", "message": STORAGE_WORDS}
    assert stuck.call("GET", f"/tables/{table}").status_code == 200
    # Signing in needs a write too (the token, the counts): refused in the same words.
    sign_in = read_only.test_client().post("/api/v1/session", json={"name": "Dee", "pin": "1111"})
    assert sign_in.status_code == 503
    assert sign_in.get_json()["error"]["code"] == "storage_unavailable"


def test_health_says_the_database_cannot_write(read_only: Flask) -> None:
    answer = read_only.test_client().get("/healthz")
    assert answer.status_code == 503
    assert answer.get_json() == {"status": "error", "database": "cannot write"}


def test_health_is_ok_when_the_database_writes(people: Flask) -> None:
    answer = people.test_client().get("/healthz")
    assert answer.status_code == 200
    assert answer.get_json() == {"status": "ok", "database": "ok"}


def test_a_screen_keeps_the_entry_and_says_why(
    floor: Api, people: Flask, table: int, read_only: Flask
) -> None:
    """A seat sent from the table screen: 503, the words, and the entry drawn again."""
    client = read_only.test_client()
    client.set_cookie("session", signed_cookie(people, str(floor.token)))
    answer = client.post(
        f"/tables/{table}/seats",
        data={"seat": "3", "player": "Zoe Quill", "buy_in": "150", "key": "k" * 32},
    )
    assert answer.status_code == 503
    page = answer.get_data(as_text=True)
    assert "the database cannot write" in page
    assert "Zoe Quill" in page  # the entry, kept in the form to send again


def signed_cookie(app: Flask, token: str) -> str:
    from flask.sessions import SecureCookieSessionInterface

    serializer = SecureCookieSessionInterface().get_signing_serializer(app)
    assert serializer is not None
    return str(serializer.dumps({"_user_id": token, "_fresh": True}))
