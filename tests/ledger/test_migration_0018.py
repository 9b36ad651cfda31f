"""Migration 0018 on a database written before it: every user, table, seating, player and
dealer's session already there gets a first version, linked under the app's key, so `verify`
holds them from the start and names an edit made after."""

from __future__ import annotations

from flask import Flask
from sqlalchemy import create_engine, text

from dealer import create_app
from dealer.extensions import db
from tests.conftest import Database, alembic, migrate

ROWS = (
    "INSERT INTO users (id, name, role, pin_hash, active, failed_pins, created_at)"
    " VALUES (1, 'Sam', 'supervisor', 'x', true, 0, '2026-01-01')",
    "INSERT INTO card_tables (id, name, profile, rules, collection, chip_value_cents, "
    "created_at, created_by, min_buy_in, max_buy_in, approval_above) VALUES (1, 'T', "
    "'classic', '{}', '{\"kind\": \"none\"}', 100, '2026-01-01', 1, 1, 100000, 1000)",
    "INSERT INTO players (id, name, created_at, created_by) VALUES (1, 'Pat', '2026-01-01', 1)",
    "INSERT INTO seatings (id, table_id, seat, player, player_id, seated_at, paused) "
    "VALUES (1, 1, 3, 'Pat', 1, '2026-01-01', false)",
    "INSERT INTO table_sessions (id, table_id, dealer_id, opened_at, implicit) "
    "VALUES (1, 1, 1, '2026-01-01', false)",
)


def test_the_rows_there_are_linked_by_the_upgrade(database: Database, tmp_path: object) -> None:
    alembic(database.uri, "downgrade", "0017_health_checks")
    engine = create_engine(database.uri)
    try:
        with engine.begin() as connection:
            for sql in ROWS:
                connection.execute(text(sql))
        migrate(database.uri)  # signed with the testing ledger key, which the test app checks with
        with engine.begin() as connection:
            kinds = connection.execute(text("SELECT kind FROM identity_versions")).scalars()
            # The table twice: 0022_settings_in_the_chain versions it again with its settings.
            assert sorted(kinds) == ["player", "seating", "session", "table", "table", "user"]
            links = "SELECT count(*) FROM chain_links WHERE kind = 'version'"
            assert connection.execute(text(links)).scalar() == 6
    finally:
        engine.dispose()
    app = create_app(
        {
            "TESTING": True,
            "SQLALCHEMY_DATABASE_URI": database.uri,
            "CHECKPOINT_FILE": str(tmp_path) + "/checkpoints.jsonl",
        }
    )
    try:
        runner = app.test_cli_runner()
        # Linked, and no checkpoint file yet: verify says so until one is filed.
        filed = runner.invoke(args=["ledger", "checkpoint"])
        assert "No checkpoint is filed" in filed.output
        assert "Checkpoint filed (not checked)" in filed.output
        held = runner.invoke(args=["ledger", "verify"])
        assert held.exit_code == 0, held.output
        edit(app, "UPDATE seatings SET player = 'Mallory'")
        result = runner.invoke(args=["ledger", "verify"])
        assert result.exit_code == 1
        assert "The player's name of seating #1 was changed outside the app." in result.output
    finally:
        with app.app_context():
            db.session.remove()
            for bound in db.engines.values():
                bound.dispose()


def edit(app: Flask, sql: str) -> None:
    with app.app_context(), db.engine.begin() as connection:
        connection.execute(text(sql))
