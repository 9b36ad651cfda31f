"""dealer/people through its own functions, where the API's tests leave it unsaid: a user
added and deactivated by an admin or from the command line, each on the audit trail as such,
a wrong PIN from the command line (no request: its source is "local") and for an approval;
what a dealer may read and deal at; the trail's window; a tablet registered and renamed; an
entry confirmed at a hand; a record of the trail written only in a write, with its hand's
table and its details; the tablets listed; the languages chosen and read back, a seat's
included; a name not typed as words tried as ""; a sign-in read live and listed until it is
ended, its end on the trail; an entry typed by another refused with its code; a name like
two existing names named as the earlier.

Each write here is one write transaction, as a door makes it. Ada is the admin.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from flask import Flask
from sqlalchemy import insert, select
from sqlalchemy.orm import Session

from dealer.errors import Conflict, Forbidden, Invalid
from dealer.extensions import db
from dealer.floor.authority import authorise_address, authorise_down_print, authorise_scopes
from dealer.floor.downs import open_down
from dealer.floor.tables import create_table
from dealer.ledger.post import Recorder
from dealer.models import AuditRecord, AuthToken, Hand, Player, Table, User
from dealer.people.audit import audit_trail, record_audit, record_hand_audit
from dealer.people.devices import (
    devices,
    register_device,
    rename_device,
    retire_device,
    tablet_device,
)
from dealer.people.languages import check_language, choose_language, language_of, seat_language
from dealer.people.pin_changes import change_pin
from dealer.people.pins import attempt_of, check_pin
from dealer.people.sign_ins import issue_token, live_row, live_sign_ins, revoke
from dealer.people.typists import record_typist, typist_of
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


def test_a_record_of_the_trail_is_written_only_in_a_write(people: Flask) -> None:
    with people.app_context(), pytest.raises(RuntimeError) as refused:
        record_audit(db.session(), "sign_in", words="Ada signed in.")
    assert str(refused.value) == (
        "audit.record_audit needs a write transaction: use transactions.writing"
    )


def test_a_hands_record_names_its_table_hand_and_details(people: Flask) -> None:
    theirs, _other, _down, hand_id = dealer_at_a_table(people)
    with people.app_context(), writing(db.session()) as session:
        hand = session.get_one(Hand, hand_id)
        recorder = Recorder(person(session, "Sam").id, "Tablet 2")
        record_hand_audit(
            session, "override", hand, recorder, words="Sam overrode.", details={"seat": 2}
        )
    (overridden,) = trail(people, "override")
    assert (overridden.table_id, overridden.hand_id, overridden.device) == (
        theirs,
        hand_id,
        "Tablet 2",
    )
    assert overridden.details == {"seat": 2}


def test_the_tablets_in_use_are_listed_first_then_by_name(people: Flask) -> None:
    with people.app_context(), writing(db.session()) as session:
        sam = person(session, "Sam")
        for name in ("Cage", "Bar", "Door"):
            register_device(session, name, sam, None)
        (bar,) = [d for d in devices(session) if d.name == "Bar"]
        retire_device(session, bar.id, sam)
        assert [d.name for d in devices(session)] == ["Cage", "Door", "Bar"]


def test_a_language_shipped_is_chosen_and_read_back_and_another_refused(people: Flask) -> None:
    assert check_language("es") == "es"
    assert check_language("") is None
    with pytest.raises(Invalid) as refused:
        check_language("xx")
    assert refused.value.code == "unknown_language"
    with people.app_context(), writing(db.session()) as session:
        dee = person(session, "Dee")
        choose_language(session, "user", dee.id, "es")
        assert language_of(session, "user", dee.id) == "es"
        assert language_of(session, "user", person(session, "Sam").id) is None


def test_a_seats_language_is_its_players(people: Flask) -> None:
    sam = Api.sign_in(people, "supervisor")
    table = int(sam.table("classic")["id"])
    rosa = sam.post("/players", {"name": "Rosa"}, status=201)["id"]
    sam.post(f"/tables/{table}/seats", {"seat": 1, "player_id": rosa, "buy_in": 100}, status=201)
    sam.seat(table, 2, "P2")
    with people.app_context(), writing(db.session()) as session:
        choose_language(session, "player", rosa, "es")
        down = open_down(session, session.get_one(Table, table), person(session, "Dee").id)
        assert down.id
    hand = int(Api.sign_in(people, "dealer").hand(table)["id"])
    with people.app_context():
        session = db.session()
        assert session.get_one(Player, rosa).language == "es"
        assert (seat_language(session, hand, 1), seat_language(session, hand, 2)) == ("es", None)


def test_a_name_not_typed_as_words_is_tried_as_nothing(people: Flask) -> None:
    assert (attempt_of(5, None).name, attempt_of(5, None).source) == ("", "local")
    assert attempt_of(" Ada ", "10.0.0.9").name == " Ada "


def test_a_sign_in_is_live_and_listed_until_it_is_ended(people: Flask) -> None:
    with people.app_context(), writing(db.session()) as session:
        dee, sam = person(session, "Dee"), person(session, "Sam")
        dee_id, sam_id = dee.id, sam.id
        token, row = issue_token(session, dee, "Tablet 1")
        token_id = row.id
    with people.app_context():
        session = db.session()
        found = live_row(session, token)
        assert found is not None and found.id == token_id
        assert token_id in [r.id for r in live_sign_ins(session)]
        revoke(session, token_id, ended_by=sam_id)
        assert live_row(session, token) is None
        assert token_id not in [r.id for r in live_sign_ins(session)]
        assert session.get_one(AuthToken, token_id).ended_by == sam_id
    (ended,) = trail(people, "sign_in_ended")
    assert (ended.user_id, ended.details) == (sam_id, {"sign_in": token_id, "of": dee_id})


def test_an_entry_typed_by_another_and_not_confirmed_is_refused(people: Flask) -> None:
    with people.app_context():
        session = db.session()
        dee, sam = person(session, "Dee"), person(session, "Sam")
        assert typist_of(session, dee, dee.id, None) is None
        assert typist_of(session, dee, sam.id, sam.id) is sam
        with pytest.raises(Conflict) as refused:
            typist_of(session, dee, sam.id, None)
    assert refused.value.code == "typed_by_another"


def test_a_name_like_two_existing_ones_is_named_as_the_earlier(people: Flask) -> None:
    """Two users whose names look alike (written before names were held apart): a third is
    refused naming the one added first, whichever sorts first."""
    with people.app_context(), writing(db.session()) as session:
        dee = person(session, "Dee")
        session.execute(insert(User).values(name="DEE", role="dealer", pin_hash=dee.pin_hash))
        with pytest.raises(Conflict) as refused:
            add_user(session, "dee", "dealer", "5555")
    assert refused.value.code == "user_exists"
    assert refused.value.message == "“dee” looks like the existing user Dee: choose another name."
