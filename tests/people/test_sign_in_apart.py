"""A sign-in's last use is written apart from every table's write: on PostgreSQL its write takes
the writers' lock alone, never the floor's, so a table's write under way never holds it up."""

from __future__ import annotations

from datetime import timedelta

import pytest
from flask import Flask
from sqlalchemy import select, update

from dealer import clock
from dealer.extensions import db
from dealer.models import AuthToken, User, as_utc
from dealer.people.sign_ins import find_token, issue_token
from dealer.transactions import writing
from dealer.write_locks import FLOOR_LOCK, WRITERS_LOCK
from tests.conftest import Database
from tests.test_write_behind import statements


@pytest.fixture
def database_uri(database: Database) -> str:
    return database.uri


def test_a_sign_ins_last_use_is_written_apart_from_the_tables(
    people: Flask, database: Database
) -> None:
    with people.app_context(), writing(db.session()) as session:
        dee = session.scalars(select(User).where(User.name == "Dee")).one()
        token, row = issue_token(session, dee, "Tablet 1")
        token_id = row.id
        a_while_ago = clock.now() - timedelta(minutes=2)  # due to be written again
        session.execute(
            update(AuthToken).where(AuthToken.id == token_id).values(last_seen_at=a_while_ago)
        )
    with people.app_context():
        with statements(people) as seen:
            found = find_token(db.session(), token)
        assert isinstance(found, AuthToken) and as_utc(found.last_seen_at) > a_while_ago
    locks = [s for s in seen if "pg_advisory" in s]
    if database.kind == "postgresql":
        (taken,) = locks
        assert taken.startswith(f"SELECT pg_advisory_xact_lock({WRITERS_LOCK})")
    assert not [s for s in locks if str(FLOOR_LOCK) in s]
