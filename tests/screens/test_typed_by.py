"""An entry kept on a tablet carries who typed it: sent once someone else is signed in there, it
is refused in words (nothing recorded as theirs) until its typist sends it, or the person signed
in records it as theirs, which puts both names on the record."""

from __future__ import annotations

import pytest
from flask import Flask
from sqlalchemy import select

from dealer.extensions import db
from dealer.models import AuditRecord, User
from tests.conftest import Database
from tests.helpers import Api
from tests.screens.conftest import Web, text_of


@pytest.fixture
def database_uri(database: Database) -> str:
    """On SQLite and PostgreSQL alike."""
    return database.uri


def _id_of(app: Flask, name: str) -> int:
    with app.app_context():
        return int(db.session.scalars(select(User.id).where(User.name == name)).one())


def _melds(api: Api, hand_id: int) -> list[tuple[int, str]]:
    """Each meld of the hand: its seat and who recorded it."""
    events = api.get(f"/hands/{hand_id}")["events"]
    return [(e["seat"], e["user"]) for e in events if e["type"] == "meld"]


def test_a_meld_typed_by_dee_is_not_recorded_as_sams_without_his_word(
    people: Flask, dealer: Web, supervisor: Web, floor_api: Api, table_id: int, hand_id: int
) -> None:
    dee, sam = _id_of(people, "Dee"), _id_of(people, "Sam")
    meld = {"action": "meld", "seat": "1", "cards": "5S 5S 5S", "key": "web-dees-meld"}
    typed = {**meld, "typed_by": str(dee)}
    refused = supervisor.post(f"/hands/{hand_id}/events", typed, status=409)
    assert (
        "Dee typed this entry before their sign-in ended; Sam is signed in now. It is not "
        "recorded as Sam's unless Sam records it as theirs (with both names), or Dee signs in "
        "again to send it." in text_of(refused)
    )
    assert _melds(floor_api, hand_id) == []
    # Confirmed for someone else than its typist: still refused.
    wrong = {**typed, "typed_by_confirmed": str(sam)}
    supervisor.post(f"/hands/{hand_id}/events", wrong, status=409)
    # Sam records it as his: recorded once, his, with Dee's name beside it on the trail.
    supervisor.post(f"/hands/{hand_id}/events", {**typed, "typed_by_confirmed": str(dee)})
    supervisor.post(f"/hands/{hand_id}/events", {**typed, "typed_by_confirmed": str(dee)})
    assert _melds(floor_api, hand_id) == [(1, "Sam")]
    with people.app_context():
        record = db.session.scalars(
            select(AuditRecord).where(AuditRecord.kind == "entry_confirmed")
        ).one()
        made_at = (record.user_id, record.table_id, record.hand_id, record.details["typed_by"])
        assert made_at == (sam, table_id, hand_id, dee)
        assert record.words == (
            "Sam recorded as theirs an entry Dee typed on this tablet before their sign-in ended."
        )
    # Dee's own entry, sent by Dee: hers, as ever.
    again = {"action": "meld", "seat": "2", "cards": "KD KD KD", "key": "web-dee-2"}
    dealer.post(f"/hands/{hand_id}/events", {**again, "typed_by": str(dee)})
    assert _melds(floor_api, hand_id) == [(1, "Sam"), (2, "Dee")]


def test_a_buy_in_typed_by_dee_waits_for_her_or_sams_word(
    people: Flask, supervisor: Web, floor_api: Api, table_id: int
) -> None:
    dee = _id_of(people, "Dee")
    chips = f"/tables/{table_id}/seats/2/chips"
    typed = {"kind": "buy_in", "amount": "25", "key": "web-dee-buys", "typed_by": str(dee)}
    refused = supervisor.post(chips, typed, status=409)
    assert "Dee typed this entry" in text_of(refused)
    assert floor_api.get(f"/tables/{table_id}")["seats"]["2"]["stack"] == 100
    supervisor.post(chips, {**typed, "typed_by": "x1"}, status=422)
    supervisor.post(chips, {**typed, "typed_by_confirmed": str(dee)})
    assert floor_api.get(f"/tables/{table_id}")["seats"]["2"]["stack"] == 125
