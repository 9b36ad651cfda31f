"""Keeping the ledger: linking an old unkeyed ledger once, backing up and restoring, and hands
whose engine changed since they were played."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from dealer import create_app
from dealer.extensions import db
from dealer.hands import reading
from dealer.ledger import replay
from dealer.ledger.links import Unkeyed, link_unkeyed, unkeyed
from dealer.models import Hand
from dealer.rules import IllegalMeldError, Rules, make_rules
from dealer.transactions import writing
from tests.conftest import Database
from tests.helpers import Api
from tests.ledger.test_verify import without_triggers
from tests.reports.evening import pdf_text
from tests.reports.test_routes import fetch


@pytest.fixture
def played(api: Api, floor: Api) -> Flask:
    table = floor.table()
    for seat in (1, 2, 3):
        api.seat(table["id"], seat, f"P{seat}")
    hand = api.hand(table["id"])
    api.event(hand["id"], {"type": "meld", "seat": 1, "cards": ["5S", "5S", "5S"]})
    fetch(api, f"/reports/hands/{hand['id']}.pdf")  # a print, in the print log
    return api.client.application


def cli(app: Flask, *args: str) -> Any:
    return app.test_cli_runner().invoke(args=list(args))


def test_an_old_unkeyed_ledger_is_linked_once(
    played: Flask, floor: Api, database: Database
) -> None:
    without_triggers(played, database, "DELETE FROM chain_links")  # as it was before 0009
    report = floor.get("/ledger/verify")
    assert {p["check"] for p in report["problems"]} == {"unkeyed"}
    # entries, events, prints, audit records, versions of people, tables and seats
    assert len(report["problems"]) == 5
    result = cli(played, "ledger", "link-unkeyed")
    assert result.exit_code == 0, result.output
    assert "Checkpoint filed (checked)" in result.output
    report = floor.get("/ledger/verify")
    assert report["ok"] is True and report["chain"]["seq"] > 0
    again = cli(played, "ledger", "link-unkeyed")
    assert "Linked 0 entries, 0 events, 0 prints, 0 disputes and rulings and 0 audit" in (
        again.output
    )


def test_linking_an_old_ledger_counts_the_rows_of_each_kind(
    played: Flask, database: Database
) -> None:
    without_triggers(played, database, "DELETE FROM chain_links")
    with played.app_context():
        session = db.session()
        with writing(session) as work:
            found = unkeyed(work)
            linked = link_unkeyed(work)
    assert len(found["print"]) == 1 and found["dispute"] == found["ruling"] == []
    assert linked == Unkeyed(
        entries=len(found["entry"]),
        events=len(found["event"]),
        prints=1,
        disputes=0,
        audits=len(found["audit"]),
        versions=len(found["version"]),
    )
    assert min(linked.entries, linked.events, linked.audits, linked.versions) > 1


def test_an_old_ledger_with_a_problem_is_not_linked(
    played: Flask, floor: Api, database: Database
) -> None:
    without_triggers(
        played,
        database,
        "DELETE FROM chain_links",
        "UPDATE ledger_entries SET chips = 500 WHERE seq = 2",
    )
    result = cli(played, "ledger", "link-unkeyed")
    assert result.exit_code != 0
    assert "chain (entry 2)" in result.output
    assert "nothing was linked" in result.output
    assert floor.get("/ledger/verify")["chain"]["seq"] == 0


def test_a_backup_restores_to_the_same_ledger(
    played: Flask, floor: Api, database: Database, tmp_path: Path
) -> None:
    target = tmp_path / "backup.sqlite3"
    result = cli(played, "backup", str(target))
    if database.kind == "postgresql":
        assert result.exit_code != 0 and "pg_dump" in result.output
        return
    assert result.exit_code == 0, result.output
    assert "Checkpoint filed" in result.output
    assert cli(played, "backup", str(target)).exit_code != 0  # never over an existing file
    before = floor.get("/ledger/verify")
    restored = tmp_path / "restored.sqlite3"
    shutil.copyfile(target, restored)  # the documented restore: the copy put in place
    app = create_app(
        {
            "TESTING": True,
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{restored}",
            "CHECKPOINT_FILE": played.config["CHECKPOINT_FILE"],
        }
    )
    try:
        # The floor's own token, in the copy too: a new sign-in would add its audit record.
        after = Api(app.test_client(), floor.token).get("/ledger/verify")
    finally:
        with app.app_context():
            db.engine.dispose()
    assert after["ok"] is True
    for field in ("entries", "head", "chain", "problems", "checked_from"):
        assert after[field] == before[field], field


def test_a_changed_engine_is_not_tampering_and_the_slip_still_prints(
    played: Flask, floor: Api, api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The rules changed (spade sets no longer double): the hand replays to other figures."""
    real = replay.hand_rules

    def new_rules(hand: Hand) -> Rules:
        old = real(hand)
        return make_rules(old.profile, {**old.knobs(), "spades_double": False})

    monkeypatch.setattr(replay, "hand_rules", new_rules)
    monkeypatch.setattr("dealer.ledger.verification.engine_version", lambda: "9.9+newer")
    monkeypatch.setattr("dealer.views.documents.hand.engine_version", lambda: "9.9+newer")
    report = floor.get("/ledger/verify")
    assert report["ok"] is True, report["problems"]
    [change] = report["engine_changed"]
    assert change["hand"] == 1 and change["played_under"] != "9.9+newer"
    assert "Engine changed" in change["message"]
    result = cli(played, "ledger", "verify")
    assert result.exit_code == 0 and "engine changed (hand 1)" in result.output
    slip = " ".join(pdf_text(fetch(api, "/reports/hands/1.pdf").data).split())
    assert "Engine changed: this hand was played under" in slip


def test_a_hand_the_engine_can_no_longer_replay_still_prints_its_slip(
    played: Flask, api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    def gone(hand: Hand, events: Any) -> Any:
        refused = IllegalMeldError("The meld rules changed.")
        raise replay.ReplayError("engine_refuses", id=hand.id, refused=refused)

    monkeypatch.setattr(reading, "replay_engine", gone)
    slip = " ".join(pdf_text(fetch(api, "/reports/hands/1.pdf").data).split())
    assert "it no longer replays" in slip
    assert "seat 1 melds 5S 5S 5S" in slip
