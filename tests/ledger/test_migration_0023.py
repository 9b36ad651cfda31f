"""Migration 0023 on both databases: the language of a person, a tablet and a player is a
nullable column that goes away on a downgrade and comes back empty, the rows kept."""

from __future__ import annotations

from sqlalchemy import create_engine, inspect, text

from tests.conftest import Database, alembic, migrate

TABLES = ("users", "devices", "players")


def columns(uri: str) -> dict[str, bool]:
    """Whether each table has its ``language`` column, and it is nullable."""
    engine = create_engine(uri)
    try:
        found = {t: {c["name"]: c for c in inspect(engine).get_columns(t)} for t in TABLES}
    finally:
        engine.dispose()
    return {t: "language" in cs and cs["language"]["nullable"] for t, cs in found.items()}


def test_the_languages_come_and_go_with_the_revision(database: Database) -> None:
    assert columns(database.uri) == dict.fromkeys(TABLES, True)
    alembic(database.uri, "downgrade", "0022_settings_in_the_chain")
    assert columns(database.uri) == dict.fromkeys(TABLES, False)
    engine = create_engine(database.uri)
    try:
        with engine.begin() as connection:
            connection.execute(
                text(
                    "INSERT INTO users (id, name, role, pin_hash, active, failed_pins, "
                    "created_at) VALUES (1, 'Sam', 'supervisor', 'x', true, 0, '2026-01-01')"
                )
            )
        migrate(database.uri)
        with engine.begin() as connection:
            kept = connection.execute(text("SELECT name, language FROM users")).all()
    finally:
        engine.dispose()
    assert [tuple(row) for row in kept] == [("Sam", None)]
    assert columns(database.uri) == dict.fromkeys(TABLES, True)
