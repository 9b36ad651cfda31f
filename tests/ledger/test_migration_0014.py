"""Migration 0014 on a database written before it, on SQLite and PostgreSQL: old seatings stay
readable with no player, the chain takes disputes and rulings, and every guard still holds."""

from __future__ import annotations

import pytest
from sqlalchemy import create_engine, inspect, text
from sqlalchemy.exc import DBAPIError

from tests.conftest import Database, MigrationRefused, alembic, migrate


def test_an_old_database_upgrades_and_keeps_its_seatings_and_guards(database: Database) -> None:
    alembic(database.uri, "downgrade", "0013_live")  # to just before 0014
    engine = create_engine(database.uri)
    try:
        with engine.begin() as connection:
            connection.execute(
                text(
                    "INSERT INTO users (id, name, role, pin_hash, active, failed_pins, created_at)"
                    " VALUES (1, 'Sam', 'supervisor', 'x', true, 0, '2026-01-01')"
                )
            )
            connection.execute(
                text(
                    "INSERT INTO card_tables (id, name, profile, rules, collection, "
                    "chip_value_cents, created_at, created_by) VALUES (1, 'T', 'classic', '{}', "
                    "'{\"kind\": \"none\"}', 100, '2026-01-01', 1)"
                )
            )
            connection.execute(
                text(
                    "INSERT INTO seatings (id, table_id, seat, player, seated_at, paused) "
                    "VALUES (1, 1, 3, 'Old Timer', '2026-01-01', false)"
                )
            )
        migrate(database.uri)
        with engine.begin() as connection:
            row = connection.execute(text("SELECT player, player_id FROM seatings")).one()
            assert tuple(row) == ("Old Timer", None)
            # (Links 1 to 3 are the first versions of the user, the table and the seating,
            # linked by 0017.)
            connection.execute(
                text(
                    "INSERT INTO chain_links (seq, kind, ref, at, prev_hash, hash) VALUES "
                    "(101, 'dispute', 1, '2026-01-01', 'a', 'b'), (102, 'ruling', 1, '2026-01-01', "
                    "'b', 'c')"
                )
            )
        with pytest.raises(DBAPIError), engine.begin() as connection:
            connection.execute(
                text(
                    "INSERT INTO chain_links (seq, kind, ref, at, prev_hash, hash) VALUES "
                    "(103, 'gossip', 1, '2026-01-01', 'c', 'd')"
                )
            )
        # SQLite copied chain_links to change its check: the copy is guarded again.
        for sql in ("UPDATE chain_links SET hash = 'x'", "DELETE FROM chain_links"):
            with pytest.raises(DBAPIError, match="append-only"), engine.begin() as connection:
                connection.execute(text(sql))
        names = set(inspect(engine).get_table_names())
        assert {"players", "disputes", "dispute_rulings"} <= names
        # Disputes in the keyed chain cannot be unwritten by going back.
        with pytest.raises(MigrationRefused, match="cannot go back"):
            alembic(database.uri, "downgrade", "0013_live")
    finally:
        engine.dispose()
