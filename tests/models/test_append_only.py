"""Database triggers refuse UPDATE and DELETE on ledger entries and events, on both databases."""

from __future__ import annotations

import pytest
from flask import Flask
from sqlalchemy import text
from sqlalchemy.exc import DBAPIError

from dealer.extensions import db
from tests.conftest import Database
from tests.helpers import Api


@pytest.fixture
def played(api: Api, floor: Api) -> Flask:
    table = floor.table()
    api.seat(table["id"], 1, "Ana")
    api.seat(table["id"], 2, "Ben")
    hand = api.hand(table["id"])
    api.event(hand["id"], {"type": "meld", "seat": 1, "cards": ["5S", "5S", "5S"]})
    return api.client.application


def run(app: Flask, sql: str) -> None:
    with app.app_context(), db.engine.begin() as connection:
        connection.execute(text(sql))


@pytest.mark.parametrize(
    "sql",
    [
        "UPDATE ledger_entries SET chips = 1 WHERE seq = 1",
        "UPDATE ledger_entries SET reason = 'edited'",
        "DELETE FROM ledger_entries WHERE seq = (SELECT max(seq) FROM ledger_entries)",
        "DELETE FROM ledger_entries",
        "UPDATE events SET seat = 2",
        "DELETE FROM events",
    ],
)
def test_changes_to_history_are_refused(played: Flask, sql: str) -> None:
    with pytest.raises(DBAPIError, match="append-only"):
        run(played, sql)


def test_truncate_is_refused_on_postgresql(played: Flask, database: Database) -> None:
    if database.kind != "postgresql":
        pytest.skip("SQLite has no TRUNCATE; its DELETE trigger covers a DELETE of every row")
    for table in ("ledger_entries", "events"):
        with pytest.raises(DBAPIError, match="append-only"):
            run(played, f"TRUNCATE {table} CASCADE")


def test_appending_still_works_after_a_refusal(played: Flask, api: Api) -> None:
    with pytest.raises(DBAPIError):
        run(played, "DELETE FROM ledger_entries")
    table = api.get("/tables/1")
    assert table["seats"]["1"]["stack"] == 104
