"""The suite's PostgreSQL databases (`tests.postgres`): a database given back is handed to the
next test exactly as its template holds it (rows, ids to come, guards), and one whose shape a
test changed is dropped, never handed on."""

from __future__ import annotations

from collections.abc import Iterator

import psycopg
import pytest

from tests.postgres import PostgresServer

pytestmark = pytest.mark.postgres

#: What the test reads of a database: its rows by table, the next ids, and its guards.
STATE = {
    "users": "SELECT count(*) FROM users",
    "tables": "SELECT count(*) FROM card_tables",
    "version": "SELECT version_num FROM alembic_version",
    "next table": "SELECT nextval('card_tables_id_seq')",
    "next user": "SELECT nextval('users_id_seq')",
    "guards on": "SELECT count(*) FROM pg_trigger WHERE NOT tgisinternal AND tgenabled = 'O'",
}


@pytest.fixture
def server(postgres_server: PostgresServer) -> Iterator[PostgresServer]:
    yield postgres_server


@pytest.fixture(params=["migrated", "with people"])
def template(request: pytest.FixtureRequest, server: PostgresServer) -> str:
    """The migrated template, and the one with people added (its users' ids taken)."""
    if request.param == "migrated":
        return server.template
    name, _folder = request.getfixturevalue("postgres_people_template")
    return str(name)


def connect(server: PostgresServer, name: str) -> psycopg.Connection:
    return psycopg.connect(server.conninfo_of(name), autocommit=True)


def state(server: PostgresServer, name: str) -> dict[str, object]:
    """The database's state. Reading the next id takes it: putting the database back gives
    its sequences the template's values again, so the same id is read next time."""
    with connect(server, name) as conn:
        return {what: conn.execute(query).fetchone()[0] for what, query in STATE.items()}  # type: ignore[index]


def test_a_database_given_back_comes_back_as_its_template_holds_it(
    server: PostgresServer, template: str
) -> None:
    name = server.new_database(template)
    fresh = state(server, name)
    server.give_back(name)  # the ids read above are taken back too
    again = server.new_database(template)
    assert again == name
    with connect(server, again) as conn:
        conn.execute(
            "INSERT INTO users (name, role, pin_hash, active, failed_pins, created_at) "
            "VALUES ('Zed', 'dealer', 'x', true, 0, now())"
        )
        conn.execute("INSERT INTO alembic_version VALUES ('a_second_row')")
    server.give_back(again)
    third = server.new_database(template)
    assert third == name
    assert state(server, third) == fresh
    server.give_back(third)


#: What a test may leave changed: a guard dropped (the tamper tests), a table of its own in a
#: schema of its own, a column added, an index.
CHANGES = (
    "DROP TRIGGER ledger_entries_append_only ON ledger_entries",
    "CREATE SCHEMA extra; CREATE TABLE extra.notes (line text)",
    "ALTER TABLE players ADD COLUMN nickname text",
    "CREATE INDEX ix_players_notes ON players (notes)",
)


@pytest.mark.parametrize("change", CHANGES)
def test_a_database_whose_shape_changed_is_dropped(server: PostgresServer, change: str) -> None:
    name = server.new_database()
    with connect(server, name) as conn:
        conn.execute(change)  # type: ignore[arg-type]
    server.give_back(name)
    other = server.new_database()
    server.give_back(other)
    assert other != name
    server.dropping.wait()
    with server.admin.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_database WHERE datname = %s", (name,))
        assert cursor.fetchone() == (0,)


def test_a_database_left_refusing_connections_is_dropped(server: PostgresServer) -> None:
    name = server.new_database()
    server.execute(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS false')
    server.give_back(name)
    other = server.new_database()
    server.give_back(other)
    assert other != name
