"""Who may act where and what a count needs, inside the chain: a table's count settings and
acting seat, and the dealers' assignments to tables, are versioned and linked like the other
identity rows. The quick `ledger verify` names an edit made to them outside the app, and the
app decides by what it wrote itself (the linked versions), never by the edited row."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from sqlalchemy import func, select

from dealer.extensions import db
from dealer.models import Table
from tests.conftest import Database
from tests.helpers import Api
from tests.ledger.test_identity_chain import edit, versions
from tests.ledger.test_tampering import verdict
from tests.ledger.test_verify import without_triggers

WITNESS = {"name": "Ada", "pin": "3333"}
SAM = "(SELECT id FROM users WHERE name = 'Sam')"
DEE = "(SELECT id FROM users WHERE name = 'Dee')"


def named(app: Flask, floor: Api, sentence: str) -> None:
    """Both verifies fail, and both say ``sentence``."""
    code, output, report = verdict(app, floor)
    assert code == 1, output
    assert f"identity: {sentence}" in output
    problems: Any = report["problems"]
    assert report["ok"] is False and sentence in [p["message"] for p in problems]


def ended_down(api: Api, floor: Api, **table: Any) -> tuple[int, int]:
    """A table (Dee assigned) and a session of Dee's there, its down ended: ids of both."""
    table_id = floor.table(**{"name": "Table 1", **table})["id"]
    down = api.post(f"/tables/{table_id}/sessions", status=201)["id"]
    return table_id, down


def test_a_tolerance_raised_outside_the_app_lets_no_variance_pass(api: Api, floor: Api) -> None:
    """The attack: the tolerance raised to 100,000 in SQL, then a count 500 chips over."""
    table, down = ended_down(api, floor)
    api.post(f"/sessions/{down}/close", {})
    app = api.client.application
    edit(app, f"UPDATE card_tables SET count_tolerance = 100000 WHERE id = {table}")
    over = {"tray_chips": 500, "witness": WITNESS}
    refused = api.post(f"/sessions/{down}/count", over, status=403)["error"]
    assert refused["code"] == "needs_supervisor"
    assert "+500 chips from the ledger's 0, more than this table's 0" in refused["message"]
    assert api.get(f"/sessions/{down}")["count"] is None
    named(app, floor, f"The count tolerance of table #{table} was changed outside the app.")


def test_a_drop_box_taken_off_outside_the_app_is_still_counted(api: Api, floor: Api) -> None:
    """Selling for cash switched off in SQL would let a count skip the drop box's cash."""
    table, down = ended_down(api, floor, chip_value_cents=25)
    settings = {"tolerance": 0, "sells_for_cash": True}
    floor.call("PUT", f"/tables/{table}/count", settings, status=200)
    api.seat(table, 1, "P1", 100)
    api.post(f"/sessions/{down}/close", {})
    app = api.client.application
    edit(app, f"UPDATE card_tables SET sells_for_cash = false WHERE id = {table}")
    missing = api.post(f"/sessions/{down}/count", {"tray_chips": 0, "witness": WITNESS}, status=422)
    assert missing["error"]["code"] == "drop_box_missing"
    named(app, floor, f"The sale of chips for cash of table #{table} was changed outside the app.")


def test_no_count_is_held_at_a_table_added_outside_the_app(api: Api, floor: Api) -> None:
    app = api.client.application
    edit(
        app,
        "INSERT INTO card_tables (name, profile, rules, collection, chip_value_cents, "
        "created_at, created_by, min_buy_in, max_buy_in, approval_above) "
        "SELECT 'Ghost', 'classic', '{}', '{\"kind\": \"none\"}', 100, '2026-12-07 09:00:00', "
        "id, 1, 100000, 1000 FROM users WHERE name = 'Sam'",
    )
    with app.app_context():
        ghost = db.session.scalar(select(func.max(Table.id)))
    down = api.post(f"/tables/{ghost}/sessions", status=201)["id"]
    api.post(f"/sessions/{down}/close", {})
    refused = api.post(f"/sessions/{down}/count", {"tray_chips": 0, "witness": WITNESS}, status=409)
    assert refused["error"]["code"] == "settings_changed"
    assert refused["error"]["message"] == (
        "The settings of Ghost were changed outside the app: no count is held to them. "
        "Ask the floor to check the ledger."
    )


def test_an_assignment_added_outside_the_app_lets_no_dealer_in(api: Api, floor: Api) -> None:
    """The attack: a row INSERTed into table_assignments (no trigger stops an INSERT), then the
    dealer buys in at the table it names."""
    floor.table(name="Table 1")  # Dee's
    other = floor.table(name="Table 2", dealer=None)["id"]
    app = api.client.application
    edit(
        app,
        "INSERT INTO table_assignments (table_id, dealer_id, assigned, by_id, at) "
        f"VALUES ({other}, {DEE}, true, {SAM}, '2026-12-07 09:00:00')",
    )
    buy_in = {"seat": 1, "player": "P1", "buy_in": 100}
    refused = api.post(f"/tables/{other}/seats", buy_in, status=403)["error"]
    assert refused["code"] == "not_your_table"
    assert floor.get(f"/tables/{other}/assignments")["assigned"] == []
    named(
        app,
        floor,
        "Dealer's assignment #2 is outside the keyed chain: added behind the app's back, or "
        "before its rows were versioned (flask --app dealer db upgrade links them).",
    )


def test_an_ended_assignment_turned_back_on_outside_the_app_stays_ended(
    api: Api, floor: Api, database: Database
) -> None:
    other = floor.table(name="Table 2")["id"]  # assignment 1: Dee on
    dee = floor.get(f"/tables/{other}/assignments")["assigned"][0]["dealer_id"]
    floor.delete(f"/tables/{other}/assignments/{dee}", status=200)  # assignment 2: Dee off
    app = api.client.application
    without_triggers(app, database, "UPDATE table_assignments SET assigned = true WHERE id = 2")
    buy_in = {"seat": 1, "player": "P1", "buy_in": 100}
    assert api.post(f"/tables/{other}/seats", buy_in, status=403)["error"]["code"] == (
        "not_your_table"
    )
    named(app, floor, "The standing of dealer's assignment #2 was changed outside the app.")


@pytest.mark.parametrize(
    ("sql", "sentence"),
    [
        (
            "UPDATE card_tables SET count_tolerance = 100000 WHERE id = 1",
            "The count tolerance of table #1 was changed outside the app.",
        ),
        (
            "UPDATE card_tables SET sells_for_cash = true WHERE id = 1",
            "The sale of chips for cash of table #1 was changed outside the app.",
        ),
        (
            "UPDATE card_tables SET acting_seat = 'moves_on' WHERE id = 1",
            "The acting seat after a drop of table #1 was changed outside the app.",
        ),
        (
            f"UPDATE table_assignments SET dealer_id = {SAM} WHERE id = 1",
            "The dealer of dealer's assignment #1 was changed outside the app.",
        ),
        (
            "UPDATE table_assignments SET table_id = 2 WHERE id = 1",
            "The table of dealer's assignment #1 was changed outside the app.",
        ),
        (
            "DELETE FROM table_assignments WHERE id = 1",
            "Dealer's assignment #1 was deleted outside the app.",
        ),
    ],
)
def test_each_settings_edit_is_named_by_the_quick_verify(
    api: Api, floor: Api, database: Database, sql: str, sentence: str
) -> None:
    floor.table(name="Table 1")  # assignment 1: Dee to table 1
    floor.table(name="Table 2", dealer=None)
    app = api.client.application
    filed = app.test_cli_runner().invoke(args=["ledger", "checkpoint"])
    assert filed.exit_code == 0 and "Checkpoint filed (checked)" in filed.output, filed.output
    code, output, _ = verdict(app, floor)
    assert code == 0, output
    without_triggers(app, database, sql)
    named(app, floor, sentence)
    _, _, report = verdict(app, floor)
    assert report["full"] is False
    assert {p["check"] for p in report["problems"]} == {"identity"}  # type: ignore[union-attr]


def test_the_apps_own_settings_and_assignments_verify(api: Api, floor: Api) -> None:
    """Each change the app makes is a new linked version: verify stays OK, quick and full."""
    app = api.client.application
    before = versions(app)
    table, down = ended_down(api, floor)  # the table, Dee's assignment, the session
    assert versions(app) == before + 3
    floor.call("PUT", f"/tables/{table}/count", {"tolerance": 5, "sells_for_cash": False})
    floor.call("PATCH", f"/tables/{table}", {"acting_seat": "moves_on"}, status=200)
    assert versions(app) == before + 5  # each setting a version of the table
    dee = floor.get(f"/tables/{table}/assignments")["assigned"][0]["dealer_id"]
    floor.delete(f"/tables/{table}/assignments/{dee}", status=200)
    floor.post(f"/tables/{table}/assignments", {"dealer": "Dee"}, status=201)
    assert versions(app) == before + 7  # each a row of its own, versioned once
    api.post(f"/sessions/{down}/close", {})
    count = api.post(f"/sessions/{down}/count", {"tray_chips": 5, "witness": WITNESS}, status=201)
    assert count["approved_by"] is None  # within the 5 chips the app was told
    code, output, _ = verdict(app, floor)
    assert code == 0, output
    full = app.test_cli_runner().invoke(args=["ledger", "verify", "--full"])
    assert full.exit_code == 0, full.output
