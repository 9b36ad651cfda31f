"""dealer/people through its own functions, where the API's tests leave it unsaid: a user
added and deactivated by an admin or from the command line, each on the audit trail as such,
a wrong PIN from the command line (no request: its source is "local") and for an approval;
what a dealer may read and deal at; the trail's window; a tablet registered and renamed; an
entry confirmed at a hand.

Each write here is one write transaction, as a door makes it. Ada is the admin.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from flask import Flask
from sqlalchemy import select
from sqlalchemy.orm import Session

from dealer.errors import Conflict, Forbidden
from dealer.extensions import db
from dealer.floor.authority import authorise_address, authorise_down_print, authorise_scopes
from dealer.floor.downs import open_down
from dealer.floor.tables import create_table
from dealer.models import AuditRecord, Table, User
from dealer.people.audit import audit_trail
from dealer.people.devices import register_device, rename_device, tablet_device
from dealer.people.pin_changes import change_pin
from dealer.people.pins import attempt_of, check_pin
from dealer.people.typists import record_typist
from dealer.people.users import add_user, deactivate_user
from dealer.transactions import writing
from tests.helpers import Api

TAKEN = "“FRONT DESK” looks like the tablet in use Front desk: choose another name."


def trail(app: Flask, kind: str) -> list[AuditRecord]:
    with app.app_context():
        query = select(AuditRecord).where(AuditRecord.kind == kind).order_by(AuditRecord.id)
        return list(db.session.scalars(query))


def test_users_added_and_deactivated_by_an_admin_or_the_command_line(people: Flask) -> None:
    with people.app_context(), writing(db.session()) as session:
        ada = session.scalars(select(User).where(User.name == "Ada")).one()
        ada_id = ada.id
        by_ada = add_user(session, "Eve", "dealer", "5555", ada)
        by_nobody = add_user(session, "Fay", "dealer", "6666")
        deactivate_user(session, by_ada.id)
        deactivate_user(session, by_nobody.id, ada)
    added = trail(people, "user_added")[-2:]
    assert [record.user_id for record in added] == [ada_id, None]
    changed = [record.words for record in trail(people, "user_changed")[-2:]]
    assert changed == ["Eve deactivated.", "Fay deactivated by Ada."]


def test_a_wrong_pin_from_the_command_line_is_from_local(people: Flask) -> None:
    with people.app_context():
        session = db.session()
        assert check_pin(session, "Ada", "0000", attempt_of("Ada", None)) is None
        approval = attempt_of("Ada", None, approval=True, approval_for=1)
        assert check_pin(session, "Ada", "0000", approval) is None
    refused = trail(people, "sign_in_refused")[-2:]
    assert [record.details for record in refused] == [
        {"name": "Ada", "source": "local", "approval": False},
        {"name": "Ada", "source": "local", "approval": True},
    ]


def person(session: Session, name: str) -> User:
    return session.scalars(select(User).where(User.name == name)).one()


def unassigned_table(people: Flask) -> int:
    """A table no dealer is assigned to (the API's test tables assign Dee)."""
    with people.app_context(), writing(db.session()) as session:
        sam = person(session, "Sam")
        return create_table(session, "Table 9", "classic", {}, None, 100, sam).id


def dealer_at_a_table(people: Flask) -> tuple[int, int, int, int]:
    """Dee's session at one table, a hand dealt there, and another table: their ids."""
    sam = Api.sign_in(people, "supervisor")
    theirs, other = int(sam.table("classic")["id"]), unassigned_table(people)
    for seat in (1, 2):
        sam.seat(theirs, seat, f"P{seat}", 100)
    with people.app_context(), writing(db.session()) as session:
        table = session.get_one(Table, theirs)
        down = open_down(session, table, person(session, "Dee").id).id
    hand = int(Api.sign_in(people, "dealer").hand(theirs)["id"])
    return theirs, other, down, hand


def test_a_dealer_reads_what_belongs_to_their_table_and_nothing_else(people: Flask) -> None:
    theirs, other, down, hand = dealer_at_a_table(people)
    with people.app_context():
        session = db.session()
        dee = person(session, "Dee")
        authorise_scopes(session, dee, [f"table:{theirs}", f"hand:{hand}"])
        with pytest.raises(Forbidden) as refused:
            authorise_scopes(session, dee, [f"table:{other}"])
        assert refused.value.code == "not_your_table"
        authorise_address(session, dee, "read", hand_id=hand, table_id=theirs)
        with pytest.raises(Forbidden):
            authorise_address(session, dee, "read", table_id=other)
        assert authorise_down_print(session, dee, down).id == down


def test_a_dealer_holding_no_table_may_deal_at_one_with_no_down_open(people: Flask) -> None:
    table = unassigned_table(people)
    with people.app_context():
        session = db.session()
        dee = person(session, "Dee")
        authorise_address(session, dee, "deal", table_id=table)
        with pytest.raises(Forbidden):
            authorise_address(session, dee, "read", table_id=table)


def test_the_trail_window_ends_before_its_end(people: Flask) -> None:
    with people.app_context(), writing(db.session()) as session:
        add_user(session, "Eve", "dealer", "5555", person(session, "Ada"))
    with people.app_context():
        session = db.session()
        newest = session.scalars(select(AuditRecord).order_by(AuditRecord.id.desc())).first()
        assert newest is not None
        lines = audit_trail(session, until=newest.at)
        assert newest.id not in {line.record.id for line in lines}
        assert audit_trail(session, until=newest.at + timedelta(seconds=1))


def test_a_deactivated_users_pin_is_not_changed(people: Flask) -> None:
    with people.app_context(), writing(db.session()) as session:
        ada = person(session, "Ada")
        eve = add_user(session, "Eve", "dealer", "5555", ada)
        deactivate_user(session, eve.id, ada)
        with pytest.raises(Conflict) as refused:
            change_pin(session, eve.id, "7777", ada)
        assert refused.value.code == "inactive_user"


def test_a_tablet_registered_renamed_and_named_unlike_another(people: Flask) -> None:
    with people.app_context(), writing(db.session()) as session:
        sam = person(session, "Sam")
        token, first = register_device(session, "Front desk", sam, None)
        assert tablet_device(session, token) is first
        assert tablet_device(session, token + "x") is None
        _token, second = register_device(session, "Back bar", sam, None)
        with pytest.raises(Conflict) as taken:
            rename_device(session, second.id, "FRONT DESK", sam)
        assert taken.value.code == "device_exists"
        assert taken.value.message == TAKEN
        rename_device(session, second.id, "Cage", sam)
    (renamed,) = trail(people, "device_changed")
    assert renamed.words == "Sam renamed tablet Back bar to Cage."


def test_an_entry_confirmed_at_a_hand_names_the_hand(people: Flask) -> None:
    theirs, _other, _down, hand = dealer_at_a_table(people)
    with people.app_context(), writing(db.session()) as session:
        dee, sam = person(session, "Dee"), person(session, "Sam")
        record_typist(session, dee, sam, shown_at="/hands", hand_id=hand)
    (confirmed,) = trail(people, "entry_confirmed")
    assert (confirmed.table_id, confirmed.hand_id) == (theirs, hand)
