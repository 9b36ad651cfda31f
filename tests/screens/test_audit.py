"""The audit trail: what is recorded, that it cannot be changed, and the supervisor's screen."""

from __future__ import annotations

import pytest
import sqlalchemy as sa
from flask import Flask
from sqlalchemy import select

from dealer.extensions import db
from dealer.models import AuditRecord
from dealer.people.audit import AUDIT_KINDS, audit_trail, record_audit
from dealer.transactions import writing
from tests.helpers import Api
from tests.screens.conftest import Web, words
from tests.screens.test_corrections import SEED, settled


def kinds(app: Flask) -> list[tuple[str, str | None, str]]:
    """Every record, oldest first: (kind, who, device)."""
    with app.app_context():
        return [
            (line.record.kind, line.user, line.record.device)
            for line in reversed(audit_trail(db.session))
        ]


def test_a_table_a_down_a_void_and_an_approval_are_recorded(
    people: Flask, floor_api: Api, dealer_api: Api, hand_id: int
) -> None:
    """Does each action land on the trail, with who did it and the device it claimed?"""
    meld = floor_api.event(hand_id, {"type": "meld", "seat": 1, "cards": SEED[0]})["event"]["id"]
    dealer_api.event(
        hand_id,
        {"type": "void", "event": meld, "reason": "wrong seat"},
        headers={"X-Device": "Tablet 7"},
    )
    trail = [line for line in kinds(people) if line[0] not in ("user_added", "sign_in")]
    assert trail[0][:2] == ("table_created", "Sam")
    assert trail[0][2].startswith("Werkzeug/")  # the test client's own User-Agent
    kinds_seen = [k for k, _who, _device in trail]
    # The tests' tables come with Dee assigned (tests.helpers.Api.table): the floor's call.
    assert kinds_seen == ["table_created", "assignment", "session_opened", "void"]
    assert trail[-1][1:] == ("Dee", "Tablet 7")
    with people.app_context():
        void = audit_trail(db.session, kinds=["void"])[0].record
        assert void.words == "Voided event #3 of hand 1 at table 1: wrong seat"
        assert void.hand_id == hand_id


def test_a_supervisor_approving_on_the_spot_is_recorded(
    people: Flask, floor_api: Api, dealer_api: Api, hand_id: int
) -> None:
    """A void of a settled hand needs a supervisor's name and PIN: is the approval recorded?"""
    out = settled(floor_api, hand_id)
    dealer_api.event(
        hand_id,
        {
            "type": "void",
            "event": out,
            "reason": "miscount",
            "supervisor": {"name": "Sam", "pin": "2222"},
        },
    )
    with people.app_context():
        approval = audit_trail(db.session, kinds=["supervisor_approval"])[0]
    assert approval.user == "Dee"
    assert approval.record.words.startswith("Sam approved void")
    assert approval.record.details["supervisor"] is not None


def test_users_added_and_deactivated_by_an_admin_are_recorded(people: Flask) -> None:
    admin = Api.sign_in(people, "admin")
    added = admin.post("/users", {"name": "Zed", "role": "dealer", "pin": "4444"}, status=201)
    admin.delete(f"/users/{added['id']}", status=200)
    with people.app_context():
        lines = audit_trail(db.session, kinds=["user_added", "user_changed"])
    assert [line.record.words for line in lines][:2] == [
        "Zed deactivated by Ada.",
        "Zed added as dealer by Ada.",
    ]


@pytest.mark.parametrize(
    "change", ["UPDATE audit_records SET words = 'x'", "DELETE FROM audit_records"]
)
def test_the_trail_is_append_only(people: Flask, change: str) -> None:
    """Can a record be edited or removed in place? The database refuses, on both kinds."""
    with people.app_context(), writing(db.session()) as session:
        record_audit(session, "sign_in", words="Dee signed in.")
    with people.app_context():
        before = db.session.scalars(select(AuditRecord.words).order_by(AuditRecord.id)).all()
    with (
        people.app_context(),
        pytest.raises(sa.exc.DatabaseError),
        writing(db.session()) as session,
    ):
        session.execute(sa.text(change))
    with people.app_context():
        after = db.session.scalars(select(AuditRecord.words).order_by(AuditRecord.id)).all()
    assert after == before and before[-1] == "Dee signed in."


def test_an_unknown_kind_is_a_programming_error(people: Flask) -> None:
    with people.app_context(), pytest.raises(ValueError), writing(db.session()) as session:
        record_audit(session, "made_up", words="?")


def test_the_screen_filters_by_kind_user_table_and_day(
    people: Flask, supervisor: Web, floor_api: Api, dealer_api: Api, hand_id: int, table_id: int
) -> None:
    meld = floor_api.event(hand_id, {"type": "meld", "seat": 1, "cards": SEED[0]})["event"]["id"]
    dealer_api.event(hand_id, {"type": "void", "event": meld, "reason": "wrong seat"})
    every = words(supervisor.get("/floor/audit"))
    assert "Void Voided event #3 of hand 1 at table 1: wrong seat" in every
    assert "Table opened" in every
    voids = words(supervisor.get("/floor/audit?kind=void"))
    assert "wrong seat" in voids and "Table opened Sam opened" not in voids
    with people.app_context():
        dee = db.session.scalar(sa.text("SELECT id FROM users WHERE name = 'Dee'"))
    by_dee = words(supervisor.get(f"/floor/audit?user={dee}"))
    assert "wrong seat" in by_dee and "Sam opened table" not in by_dee
    assert "wrong seat" in words(supervisor.get(f"/floor/audit?table={table_id}"))
    assert "Nothing matches" in words(
        supervisor.get("/floor/audit?since=2001-01-01&until=2001-01-02")
    )
    assert "wrong seat" in words(supervisor.get("/floor/audit?since=2001-01-01"))


def test_the_screen_refuses_bad_filters_in_words(supervisor: Web) -> None:
    page = words(supervisor.get("/floor/audit?since=2026-02-01&until=2026-01-01", status=422))
    assert "The last day comes before the first." in page
    assert "Not a valid choice" in words(supervisor.get("/floor/audit?kind=made_up", status=422))


def test_a_dealer_cannot_read_the_trail(dealer: Web) -> None:
    dealer.get("/floor/audit", status=403)


def test_every_kind_has_words() -> None:
    assert all(words and words[0].isupper() for words in AUDIT_KINDS.values())
