"""The simulated room, short: do bots playing legal Pan on both profiles, with every mishap a
dealer meets, leave every chip accounted for and a ledger that verifies?

A few hands a table through the in-process test client, on SQLite and PostgreSQL. Each answer's
payments are checked against the rules engine as the room plays (a difference stops the table
with an error); at the end each table's chips are counted and the ledger verified.
"""

from __future__ import annotations

from collections import Counter

from flask import Flask

from bench.room.table import Mishaps
from bench.room.transport import InProcessTransport
from bench.simulate import FLOOR, Room, dealer_of, make_tables, play_compressed
from dealer.extensions import db
from dealer.people.users import add_user
from dealer.transactions import writing
from tests.both_databases import database_uri

__all__ = ["database_uri"]

HANDS = 3
#: Far more often than on a real floor, so that a few hands meet every one of them.
OFTEN = Mishaps(
    foul=0.4, mis_entry=0.15, penalty=1.0, void_going_out=0.3, misdeal=0.1, seat_change=0.5
)


def test_a_short_shift_on_both_profiles_accounts_for_every_chip(app: Flask) -> None:
    tables = make_tables(4, seed=7, mishaps=OFTEN, more=lambda table: table.tally.hands < HANDS)
    with app.app_context(), writing(db.session()) as session:
        add_user(session, FLOOR["name"], "supervisor", FLOOR["pin"])
        for number in range(1, len(tables) + 1):
            add_user(session, dealer_of(number)["name"], "dealer", dealer_of(number)["pin"])
    room = Room(InProcessTransport(app), tables)
    room.sign_in()

    play_compressed(room)
    report = room.finish()

    assert room.errors == []
    assert report["ok"] is True, report["problems"]
    assert {t.profile for t in tables} == {"classic", "cardroom"}
    assert all(t.tally.hands == HANDS for t in tables)
    played: Counter[str] = Counter()
    for table in tables:
        played.update(table.tally.events)
    assert {"meld", "add", "drop", "go_out", "void"} <= set(played)
    statuses = Counter(status for _, _, status in room.transport.figures.sends)
    assert set(statuses) <= {200, 201}
