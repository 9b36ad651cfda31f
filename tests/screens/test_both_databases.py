"""The screens' own reads and writes on SQLite and PostgreSQL: the shift's drop (time zones),
a whole hand through the forms, a double submit, a void with a supervisor's PIN."""

from __future__ import annotations

import pytest
from flask import Flask
from sqlalchemy import func, select

from dealer.extensions import db
from dealer.models import Event
from tests.conftest import Database
from tests.helpers import Api
from tests.screens.conftest import Web, six_seated, words


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
    text = words(dealer.get(f"/hands/{hand}/settle?seat=1"))
    assert "1 P1 ★ out +4 +20 +2 0 +26 +46 146" in text
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
