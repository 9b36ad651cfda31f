"""Where the hand screen's acting seat goes after a drop or a foul: a setting of the table's,
the same on every tablet, that a supervisor changes on the record.

Read as the keyed chain holds the table (its newest linked version, `dealer.ledger.identity`):
a setting changed outside the app (which `verify` names) moves no acting seat.
"""

from __future__ import annotations

from typing import Literal, get_args

from sqlalchemy.orm import Session

from dealer import rules
from dealer.bounds import check_one_of
from dealer.ledger.identity import held
from dealer.models import Event, Table, User
from dealer.people.audit import record_by
from dealer.people.users import require_role
from dealer.words import tables as table_words

#: Where the hand screen's acting seat goes after a drop or a foul: it stays with the seat that
#: acted (a seat lays several melds in its turn), or moves on to the next seat in play.
ActingSeat = Literal["stays", "moves_on"]
ACTING_SEAT_WAYS: tuple[ActingSeat, ...] = get_args(ActingSeat)


def check_acting_seat(way: object) -> ActingSeat | None:
    """``way`` if it is one of `ACTING_SEAT_WAYS` (None: not given, the table's stays)."""
    if way is None:
        return None
    return check_one_of(way, ACTING_SEAT_WAYS, table_words.acting_seat_refused)


def change_acting_seat(session: Session, table: Table, way: object, user: User) -> None:
    """A supervisor or above sets where the table's acting seat goes after a drop: written in
    the audit trail when it changes."""
    require_role(user, "supervisor")
    chosen = check_acting_seat(way)
    if chosen is None or chosen == table.acting_seat:
        return
    table.acting_seat = chosen
    session.flush()
    words = table_words.acting_seat_changed(user.name, table.name, chosen)
    record_by(session, "table_settings", user, words, table, acting_seat=chosen)


def acting_seat_of(session: Session, table_id: int) -> ActingSeat:
    """Where the acting seat goes after a drop at table ``table_id``, as the keyed chain holds
    the table's settings; ``stays`` (it moves nothing) when none hold."""
    settings = held(session, "table", [table_id]).get(table_id) or {}
    way = settings.get("acting_seat")
    return "moves_on" if way == "moves_on" else "stays"


def acting_seat_after(
    session: Session, table_id: int, engine: rules.Hand, done: Event
) -> int | None:
    """The seat acting on the hand screen once ``done`` is recorded at table ``table_id``.

    It stays with the seat that acted (a seat lays several melds in its turn); after a drop or
    a foul, at a table set so, it moves on to the next seat in play of ``engine``'s hand.
    """
    if done.seat is None or done.type not in ("drop", "foul"):
        return done.seat
    if acting_seat_of(session, table_id) == "stays":
        return done.seat
    return engine.next_in_play(done.seat)
