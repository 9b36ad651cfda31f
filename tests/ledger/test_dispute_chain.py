"""Disputes and rulings are history like the ledger: the database refuses to change them, the
keyed chain links each one, and `ledger verify` names any that was edited, deleted or added
behind the app's back (on SQLite and PostgreSQL)."""

from __future__ import annotations

import pytest
from flask import Flask
from sqlalchemy import text
from sqlalchemy.exc import DBAPIError

from dealer.extensions import db
from tests.conftest import Database
from tests.helpers import Api
from tests.ledger.test_tampering import banner, verdict
from tests.ledger.test_verify import GUARDED, play_two_melds

#: The guards an insider drops first, the dispute desk's included.
GUARDS = (*GUARDED, "disputes", "dispute_rulings")


@pytest.fixture
def ruled(api: Api, floor: Api) -> Flask:
    """Hand 1 with two melds; dispute 1 (seat 2, on entry 10) denied, dispute 2 open."""
    play_two_melds(api, floor)
    first = api.post(
        "/hands/1/disputes",
        {"raised_by": "seat", "seat": 2, "claim": "Paid 4, not 2.", "entry": 10},
        status=201,
    )
    floor.post(
        f"/disputes/{first['id']}/ruling",
        {"outcome": "denied", "reason": "Four is right for a valle set."},
        status=201,
    )
    api.post("/hands/1/disputes", {"raised_by": "dealer", "claim": "Count the pot."}, status=201)
    return api.client.application


def run(app: Flask, *statements: str) -> None:
    with app.app_context(), db.engine.begin() as connection:
        for sql in statements:
            connection.execute(text(sql))


def tamper(
    app: Flask, database: Database, *statements: str, guards: tuple[str, ...] = GUARDS
) -> None:
    """As someone holding the database's keys: drop the ``guards``, then edit."""
    if database.kind == "postgresql":
        drops = [f"DROP TRIGGER IF EXISTS {t}_append_only ON {t}" for t in guards]
    else:
        drops = [f"DROP TRIGGER IF EXISTS {t}_no_{c}" for t in guards for c in ("update", "delete")]
    run(app, *drops, *statements)


@pytest.mark.parametrize(
    "sql",
    [
        "UPDATE disputes SET claim = 'edited'",
        "DELETE FROM disputes WHERE id = 2",
        "UPDATE dispute_rulings SET outcome = 'upheld'",
        "DELETE FROM dispute_rulings",
    ],
)
def test_the_database_refuses_to_change_a_dispute_or_a_ruling(ruled: Flask, sql: str) -> None:
    with pytest.raises(DBAPIError, match="append-only"):
        run(ruled, sql)


def test_the_chain_links_every_dispute_and_ruling(ruled: Flask, floor: Api) -> None:
    code, _, report = verdict(ruled, floor)
    assert code == 0 and report["ok"] is True, report
    with ruled.app_context():
        kinds = db.session.execute(
            text(
                "SELECT kind, ref FROM chain_links WHERE kind IN ('dispute', 'ruling') ORDER BY seq"
            )
        ).all()
    assert [tuple(k) for k in kinds] == [("dispute", 1), ("ruling", 1), ("dispute", 2)]


@pytest.mark.parametrize(
    ("statements", "words"),
    [
        (["UPDATE disputes SET claim = 'Paid 2, not 4.' WHERE id = 1"], "Dispute 1 was changed"),
        (["UPDATE disputes SET seat = 3 WHERE id = 1"], "Dispute 1 was changed"),
        (["UPDATE dispute_rulings SET reason = 'Upheld after all.'"], "Ruling 1 was changed"),
        (
            ["UPDATE dispute_rulings SET user_id = (SELECT id FROM users WHERE name = 'Dee')"],
            "Ruling 1 was changed",
        ),
        (["DELETE FROM disputes WHERE id = 2"], "Dispute 2 is gone"),
        (["DELETE FROM dispute_rulings"], "Ruling 1 is gone"),
    ],
)
def test_an_edited_or_deleted_dispute_is_named_by_verify_and_the_next_report(
    ruled: Flask, floor: Api, database: Database, statements: list[str], words: str
) -> None:
    tamper(ruled, database, *statements)
    code, output, report = verdict(ruled, floor)
    assert code == 1 and report["ok"] is False
    problems = report["problems"]
    assert isinstance(problems, list)
    assert any(p["check"] == "disputes" and words in p["message"] for p in problems), problems
    assert "disputes:" in output
    assert "CHECK(S) FAILED" in banner(floor)


def test_a_dispute_added_behind_the_apps_back_is_outside_the_chain(
    ruled: Flask, floor: Api
) -> None:
    run(
        ruled,
        "INSERT INTO disputes (hand_id, raised_by, seat, claim, entry_seq, user_id, device, "
        "opened_at) SELECT hand_id, raised_by, seat, 'added later', entry_seq, user_id, device, "
        "opened_at FROM disputes WHERE id = 1",
    )
    _, output, report = verdict(ruled, floor)
    problems = report["problems"]
    assert isinstance(problems, list)
    assert any(p["check"] == "unkeyed" and "dispute" in p["message"] for p in problems), problems
    assert "unkeyed" in output
