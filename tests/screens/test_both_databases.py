"""The screens' own reads and writes on SQLite and PostgreSQL: the shift's drop (time zones),
a whole hand through the forms, a double submit, a void with a supervisor's PIN."""

from __future__ import annotations

import pytest
from flask import Flask
from sqlalchemy import func, select

from dealer.extensions import db
from dealer.models import Event
from dealer.write_locks import FLOOR_LOCK, TABLE_LOCKS, WRITERS_LOCK
from tests.api.test_event_path import statements
from tests.conftest import Database
from tests.helpers import Api
from tests.screens.conftest import Web, settlement_of, six_seated, words


@pytest.fixture
def database_uri(database: Database) -> str:
    return database.uri


def test_floor_drop_this_shift(supervisor: Web, floor_api: Api) -> None:
    table = six_seated(floor_api, collection={"kind": "per_hand", "chips": 1})
    floor_api.hand(table)
    assert "6 chips $6.00" in words(supervisor.get("/floor"))


def test_seed_000_through_the_screens(people: Flask, dealer: Web, floor_api: Api) -> None:
    table = six_seated(floor_api)
    answer = dealer.post(f"/tables/{table}/hands", {"dropped": ["5"], "key": "web-d"})
    hand = int(answer.headers["Location"].split("/")[2].split("?")[0])
    for n, cards in enumerate(["5S 5S 5S", "JH QH KH", "2C 3C 4C 5C 6C"]):
        form = {"action": "meld", "seat": "1", "cards": cards, "key": f"web-m{n}"}
        dealer.post(f"/hands/{hand}/events", form)
        dealer.post(f"/hands/{hand}/events", form)  # a double tap
    page = dealer.get(f"/hands/{hand}/settle?seat=1")
    assert "1 P1 ★ out" in words(page)
    assert settlement_of(page)[1] == ["+4", "+20", "+2", "0", "+26", "+46", "146"]
    dealer.post(f"/hands/{hand}/settle", {"seat": "1", "key": "web-out"})
    with people.app_context():
        assert db.session.scalar(select(func.count()).select_from(Event)) == 6
    out = floor_api.get(f"/hands/{hand}")["events"][-1]["id"]
    voided = dealer.post(
        f"/hands/{hand}/events/{out}/void",
        {"reason": "recount", "supervisor_name": "Sam", "supervisor_pin": "2222"},
    )
    assert "Dee, approved by Sam" in words(dealer.follow(voided))


def test_control_characters_are_refused_not_stored(
    dealer: Web, supervisor: Web, floor_api: Api
) -> None:
    """A NUL in a name is a form error on both databases, never a server error."""
    table = floor_api.table()["id"]
    answer = dealer.post(
        f"/tables/{table}/seats", {"seat": "1", "player": "Ann\x00", "buy_in": "5"}, status=422
    )
    assert "Use letters, digits and punctuation only." in words(answer.get_data(as_text=True))
    form = {"name": "T\x00", "profile": "classic", "collection": "none", "chip_value_cents": "1"}
    supervisor.post("/floor/tables", form, status=422)
    assert (
        dealer.client.post("/sign-in", data={"name": "Dee\x00", "pin": "1111"}).status_code == 422
    )


def test_the_screens_writes_queue_at_their_table(
    people: Flask, dealer: Web, floor_api: Api, database: Database
) -> None:
    """On PostgreSQL a form posted to a table's address writes at that table (the floor's lock
    shared, the table's and the writers'), and an entry of a hand's play is judged under its
    table's lock and takes the writers' lock only to write (`dealer.write_locks`)."""
    if database.kind != "postgresql":
        pytest.skip("SQLite has one write lock for the whole database")
    table = six_seated(floor_api)

    def locks(path: str, form: dict[str, str], status: int = 303) -> list[str]:
        with statements(people) as seen:
            dealer.post(path, form, status)
        return [kind_of(s, table) for s in seen if "pg_advisory_xact_lock" in s]

    dealt = locks(f"/tables/{table}/hands", {"key": "web-deal"})
    hand = floor_api.get(f"/tables/{table}/hands")["hands"][0]["id"]
    assert dealt == ["table"]
    assert locks(f"/tables/{table}/seats", {"seat": "7", "player": "Late", "buy_in": "5"}) == [
        "table"
    ]
    meld = {"action": "meld", "seat": "1", "cards": "5S 5S 5S", "key": "web-meld"}
    assert locks(f"/hands/{hand}/events", meld) == ["hand", "writers"]
    melded = floor_api.get(f"/hands/{hand}")["events"][-1]["id"]
    void = {"reason": "wrong cards", "key": "web-void"}
    assert locks(f"/hands/{hand}/events/{melded}/void", void) == ["hand", "writers"]
    # Refused by the rules (nobody has eleven cards down): judged, and nothing written.
    assert locks(f"/hands/{hand}/settle", {"seat": "2", "key": "web-out"}, 422) == ["hand"]


def kind_of(statement: str, table: int) -> str:
    """Which locks a statement takes: a hand's table's, a table's (with the writers'), the
    writers' alone, or the floor's whole."""
    shared = f"pg_advisory_xact_lock_shared({FLOOR_LOCK})"
    if shared in statement and "FROM hands" in statement:
        return "hand"
    if shared in statement and f"pg_advisory_xact_lock({TABLE_LOCKS}, {table})" in statement:
        return "table"
    if f"pg_advisory_xact_lock({FLOOR_LOCK})" in statement:
        return "floor"
    return "writers" if f"pg_advisory_xact_lock({WRITERS_LOCK})" in statement else statement
