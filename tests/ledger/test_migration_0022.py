"""Migration 0022 on a database written before it: every table gets a version with its count
settings and acting seat, and every assignment its first version, linked under the app's key;
`verify` holds them from the start, the assignments go on assigning, and an edit after is
named."""

from __future__ import annotations

from sqlalchemy import create_engine, text

from dealer import create_app
from dealer.extensions import db
from dealer.floor.assignments import assigned_tables
from tests.conftest import Database, alembic, migrate
from tests.ledger.test_migration_0018 import edit

#: Before 0018: the people and the table (0018 versions them, without the settings to come).
BEFORE_0018 = (
    "INSERT INTO users (id, name, role, pin_hash, active, failed_pins, created_at)"
    " VALUES (1, 'Sam', 'supervisor', 'x', true, 0, '2026-01-01')",
    "INSERT INTO users (id, name, role, pin_hash, active, failed_pins, created_at)"
    " VALUES (2, 'Dee', 'dealer', 'x', true, 0, '2026-01-01')",
    "INSERT INTO card_tables (id, name, profile, rules, collection, chip_value_cents, "
    "created_at, created_by, min_buy_in, max_buy_in, approval_above) VALUES (1, 'T', "
    "'classic', '{}', '{\"kind\": \"none\"}', 100, '2026-01-01', 1, 1, 100000, 1000)",
)
#: At 0021: the table's settings, as the app before 0022 changed them (unversioned), and an
#: assignment.
AT_0021 = (
    "UPDATE card_tables SET count_tolerance = 5, sells_for_cash = true, acting_seat = 'moves_on'",
    "INSERT INTO table_assignments (id, table_id, dealer_id, assigned, by_id, at) "
    "VALUES (1, 1, 2, true, 1, '2026-01-01 10:00:00')",
)


def run(uri: str, statements: tuple[str, ...]) -> None:
    engine = create_engine(uri)
    try:
        with engine.begin() as connection:
            for sql in statements:
                connection.execute(text(sql))
    finally:
        engine.dispose()


def test_the_tables_and_assignments_there_are_linked_by_the_upgrade(
    database: Database, tmp_path: object
) -> None:
    alembic(database.uri, "downgrade", "0017_health_checks")
    run(database.uri, BEFORE_0018)
    alembic(database.uri, "upgrade", "0021_health_check_one_row")
    run(database.uri, AT_0021)
    migrate(database.uri)  # signed with the testing ledger key, which the test app checks with
    engine = create_engine(database.uri)
    try:
        with engine.begin() as connection:
            kinds = connection.execute(text("SELECT kind FROM identity_versions")).scalars()
            # The table twice: 0018's version, and 0022's with its settings.
            assert sorted(kinds) == ["assignment", "table", "table", "user", "user"]
            links = "SELECT count(*) FROM chain_links WHERE kind = 'version'"
            assert connection.execute(text(links)).scalar() == 5
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
        runner.invoke(args=["ledger", "checkpoint"])
        held = runner.invoke(args=["ledger", "verify"])
        assert held.exit_code == 0, held.output
        with app.app_context():
            assert assigned_tables(db.session(), 2) == {1}
        edit(app, "UPDATE card_tables SET count_tolerance = 100000")
        result = runner.invoke(args=["ledger", "verify"])
        assert result.exit_code == 1
        assert "The count tolerance of table #1 was changed outside the app." in result.output
    finally:
        with app.app_context():
            db.session.remove()
            for bound in db.engines.values():
                bound.dispose()
