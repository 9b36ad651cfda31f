"""The audit trail is history like the ledger: the database refuses to change it, the keyed
chain links each record as it is written, and `ledger verify` names any record edited, deleted
or added behind the app's back (on SQLite and PostgreSQL)."""

from __future__ import annotations

import pytest
from flask import Flask
from sqlalchemy import text

from dealer.extensions import db
from tests.conftest import Database
from tests.helpers import Api
from tests.ledger.test_dispute_chain import run, tamper
from tests.ledger.test_tampering import banner, verdict
from tests.ledger.test_verify import GUARDED, play_two_melds

#: The guards an insider drops first, the audit trail's included.
GUARDS = (*GUARDED, "audit_records")


@pytest.fixture
def audited(api: Api, floor: Api) -> Flask:
    """A table opened, a session opened by dealing, two melds, and the second one voided."""
    play_two_melds(api, floor)
    hand = api.get("/hands/1")
    meld = hand["events"][-1]["id"]
    api.event(1, {"type": "void", "event": meld, "reason": "wrong cards"})
    return api.client.application


def record_ids(app: Flask, kind: str) -> list[int]:
    with app.app_context():
        return list(
            db.session.scalars(text("SELECT id FROM audit_records WHERE kind = :k"), {"k": kind})
        )


def test_every_record_is_linked_as_it_is_written(audited: Flask, floor: Api) -> None:
    code, _, report = verdict(audited, floor)
    assert code == 0 and report["ok"] is True, report
    with audited.app_context():
        records = db.session.scalar(text("SELECT count(*) FROM audit_records"))
        linked = db.session.scalar(text("SELECT count(*) FROM chain_links WHERE kind = 'audit'"))
    assert records == linked and linked >= 3  # the people, the table, the session, the void


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ("UPDATE audit_records SET words = 'Nothing happened.' WHERE id = {void}", "was changed"),
        ("UPDATE audit_records SET user_id = NULL WHERE id = {void}", "was changed"),
        ("UPDATE audit_records SET device = 'Tablet 9' WHERE id = {void}", "was changed"),
        ("DELETE FROM audit_records WHERE id = {void}", "is gone"),
    ],
)
def test_an_edited_or_deleted_record_is_named_by_verify_and_the_next_report(
    audited: Flask, floor: Api, database: Database, change: str, words: str
) -> None:
    (void,) = record_ids(audited, "void")
    tamper(audited, database, change.format(void=void), guards=GUARDS)
    code, output, report = verdict(audited, floor)
    assert code == 1 and report["ok"] is False
    problems = report["problems"]
    assert isinstance(problems, list)
    said = f"Audit record {void} {words}"
    assert any(p["check"] == "audit" and said in p["message"] for p in problems), problems
    assert "audit:" in output
    assert "CHECK(S) FAILED" in banner(floor)


def test_a_record_added_behind_the_apps_back_is_outside_the_chain(
    audited: Flask, floor: Api
) -> None:
    run(
        audited,
        "INSERT INTO audit_records (at, kind, user_id, device, table_id, hand_id, words, "
        "details) SELECT at, kind, user_id, device, table_id, hand_id, 'Sam approved it.', "
        "details FROM audit_records WHERE kind = 'void'",
    )
    _, output, report = verdict(audited, floor)
    problems = report["problems"]
    assert isinstance(problems, list)
    assert any(p["check"] == "unkeyed" and "audit" in p["message"] for p in problems), problems
    assert "unkeyed" in output
