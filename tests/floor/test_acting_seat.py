"""dealer/floor/tables.py: where the hand screen's acting seat goes after a drop is a setting
of the table, set by a supervisor or above and written in the audit trail."""

from __future__ import annotations

import pytest
from flask import Flask
from sqlalchemy import select

from dealer.errors import Forbidden, Invalid
from dealer.extensions import db
from dealer.floor.acting_seat import acting_seat_of, change_acting_seat
from dealer.floor.tables import create_table
from dealer.models import AuditRecord, Table, User
from dealer.transactions import writing


def new_table(people: Flask) -> int:
    with people.app_context(), writing(db.session()) as session:
        sam = session.scalars(select(User).where(User.name == "Sam")).one()
        return create_table(session, "Table 1", "classic", {}, None, 100, sam).id


def test_a_table_keeps_the_acting_seat_with_the_seat_that_acted_until_set(people: Flask) -> None:
    table_id = new_table(people)
    with people.app_context():
        table = db.session.get(Table, table_id)
        assert table is not None
        assert table.acting_seat == "stays"
        assert acting_seat_of(db.session(), table_id) == "stays"


@pytest.mark.parametrize("name", ["Sam", "Ada"])
def test_a_supervisor_or_above_sets_it_and_the_audit_trail_says_so(
    people: Flask, name: str
) -> None:
    table_id = new_table(people)
    with people.app_context(), writing(db.session()) as session:
        who = session.scalars(select(User).where(User.name == name)).one()
        table = session.get(Table, table_id)
        assert table is not None
        change_acting_seat(session, table, "moves_on", who)
        change_acting_seat(session, table, "moves_on", who)  # no change: no second record
        change_acting_seat(session, table, None, who)  # not given: stays as it is
    with people.app_context():
        table = db.session.get(Table, table_id)
        assert table is not None and acting_seat_of(db.session(), table_id) == "moves_on"
        said = db.session.scalars(
            select(AuditRecord.words).where(AuditRecord.kind == "table_settings")
        ).all()
        assert said == [
            f"{name} set where the acting seat goes after a drop at Table 1: "
            "moves on to the next seat in play."
        ]


def test_a_dealer_may_not_set_it_nor_may_anyone_set_a_way_there_is_not(people: Flask) -> None:
    table_id = new_table(people)
    with people.app_context(), writing(db.session()) as session:
        dee = session.scalars(select(User).where(User.name == "Dee")).one()
        sam = session.scalars(select(User).where(User.name == "Sam")).one()
        table = session.get(Table, table_id)
        assert table is not None
        with pytest.raises(Forbidden) as refused:
            change_acting_seat(session, table, "moves_on", dee)
        assert refused.value.code == "role_not_allowed"
        with pytest.raises(Invalid) as bad:
            change_acting_seat(session, table, "next", sam)
        assert "stays with the seat that acted or moves on" in bad.value.message
        assert table.acting_seat == "stays"


def test_a_dealer_may_not_change_a_tables_limits_whichever_door_asks(people: Flask) -> None:
    """The limits are a supervisor's setting: the service refuses a dealer itself, and changes
    nothing."""
    from dealer.floor.limits import change_limits, limits_of

    table_id = new_table(people)
    with people.app_context(), writing(db.session()) as session:
        dee = session.scalars(select(User).where(User.name == "Dee")).one()
        table = session.get(Table, table_id)
        assert table is not None
        before = limits_of(table)
        with pytest.raises(Forbidden):
            change_limits(session, table, {"max_buy_in": before.max_buy_in + 100}, dee)
    with people.app_context():
        table = db.session.get(Table, table_id)
        assert table is not None and limits_of(table) == before
