"""`ledger verify` and GET /ledger/verify: an intact ledger passes; tampering is found."""

from __future__ import annotations

import pytest
from flask import Flask
from sqlalchemy import text

from dealer.extensions import db
from tests.conftest import Database
from tests.helpers import Api


def play_two_melds(api: Api, floor: Api) -> int:
    """Three buy-ins, then a hand with two melds: entries 1 to 13. The table's id."""
    table = floor.table("cardroom", collection={"kind": "per_hand", "chips": 1})
    for seat in (1, 2, 3):
        api.seat(table["id"], seat, f"P{seat}")
    hand = api.hand(table["id"])
    api.event(hand["id"], {"type": "meld", "seat": 1, "cards": ["5S", "5S", "5S"]})
    api.event(hand["id"], {"type": "meld", "seat": 2, "cards": ["KD", "KD", "KD"]})
    table_id: int = table["id"]
    return table_id


@pytest.fixture
def played(api: Api, floor: Api) -> Flask:
    play_two_melds(api, floor)
    return api.client.application


#: Every append-only table: its guards are what an insider drops first.
GUARDED = (
    "ledger_entries",
    "events",
    "report_prints",
    "chain_links",
    "checkpoint_records",
    "audit_records",
    "identity_versions",
    "table_assignments",
)


def without_triggers(app: Flask, database: Database, *statements: str) -> None:
    """Tamper as someone with the database's keys would: drop the guards, then edit."""
    if database.kind == "postgresql":
        drops = [f"DROP TRIGGER IF EXISTS {t}_append_only ON {t}" for t in GUARDED]
    else:
        drops = [
            f"DROP TRIGGER IF EXISTS {t}_no_{c}" for t in GUARDED for c in ("update", "delete")
        ]
    with app.app_context(), db.engine.begin() as connection:
        for sql in [*drops, *statements]:
            connection.execute(text(sql))


def test_an_intact_ledger_verifies(played: Flask, floor: Api) -> None:
    report = floor.get("/ledger/verify")
    assert report["ok"] is True
    assert report["problems"] == []
    assert report["entries"] == 3 + 3 + 3 + 2 + 2
    entries = floor.get("/tables/1/ledger")["entries"]
    assert report["head"] == entries[-1]["hash"]


def test_a_changed_amount_is_found(played: Flask, floor: Api, database: Database) -> None:
    without_triggers(played, database, "UPDATE ledger_entries SET chips = 40 WHERE seq = 10")
    report = floor.get("/ledger/verify")
    assert report["ok"] is False
    checks = {(p["check"], p["seq"]) for p in report["problems"]}
    assert ("chain", 10) in checks
    assert any(p["check"] == "balances" for p in report["problems"])


def test_a_deleted_last_entry_is_found(played: Flask, floor: Api, database: Database) -> None:
    """Removing the newest entry leaves no gap, but the hand's replay no longer adds up."""
    without_triggers(played, database, "DELETE FROM ledger_entries WHERE seq = 13")
    report = floor.get("/ledger/verify")
    assert report["ok"] is False
    assert not any(p["check"] == "sequence" for p in report["problems"])
    assert any(p["check"] == "balances" for p in report["problems"])


def test_a_gap_in_the_middle(played: Flask, floor: Api, database: Database) -> None:
    without_triggers(
        played,
        database,
        "UPDATE ledger_entries SET reverses = NULL",
        "DELETE FROM ledger_entries WHERE seq = 2",
    )
    problems = floor.get("/ledger/verify")["problems"]
    assert {"sequence", "chain"} <= {p["check"] for p in problems}
    assert [p["seq"] for p in problems if p["check"] == "sequence"] == [3]


def test_a_stored_hand_status_that_disagrees_with_its_replay(played: Flask, floor: Api) -> None:
    with played.app_context(), db.engine.begin() as connection:
        connection.execute(text("UPDATE hands SET status = 'settled', winner = 2"))
    problems = floor.get("/ledger/verify")["problems"]
    assert any(p["check"] == "replay" for p in problems)


def test_cli_verify_exits_1_on_problems(played: Flask, database: Database) -> None:
    runner = played.test_cli_runner()
    result = runner.invoke(args=["ledger", "verify"])
    assert result.exit_code == 0, result.output
    assert "OK" in result.output
    without_triggers(played, database, "UPDATE ledger_entries SET reason = 'edited' WHERE seq = 5")
    result = runner.invoke(args=["ledger", "verify"])
    assert result.exit_code == 1
    assert "chain (entry 5)" in result.output
    result = runner.invoke(args=["ledger", "verify", "--json"])
    assert result.exit_code == 1
    assert '"ok": false' in result.output
