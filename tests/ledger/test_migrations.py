"""The migrations build exactly the schema the models describe, on both databases."""

from __future__ import annotations

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from flask import Flask
from sqlalchemy import inspect

from dealer.extensions import db


def test_migrations_match_the_models(app: Flask) -> None:
    """Does alembic's autogenerate find nothing to change after `db upgrade`?"""
    with app.app_context(), db.engine.connect() as connection:
        context = MigrationContext.configure(connection, opts={"compare_type": True})
        diff = compare_metadata(context, db.metadata)
    assert diff == []


def test_upgrade_builds_every_table_and_the_partial_indexes(app: Flask) -> None:
    with app.app_context():
        inspector = inspect(db.engine)
        assert set(inspector.get_table_names()) >= {
            "users",
            "auth_tokens",
            "card_tables",
            "seatings",
            "hands",
            "events",
            "ledger_entries",
            "idempotency_records",
            "chain_links",
            "players",
            "disputes",
            "dispute_rulings",
            "devices",
            "alembic_version",
        }
        names = {ix["name"] for ix in inspector.get_indexes("seatings")}
        assert "uq_seatings_open_seat" in names
