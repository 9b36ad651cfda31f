"""Finding 1 of the security review: a dealer acts only at the table they hold.

A dealer holds a table through their open table session there, or a supervisor's assignment;
supervisors and admins act everywhere. Dee holds table 1, Bo holds table 2.
"""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from sqlalchemy import select

from dealer.extensions import db
from dealer.floor.authority import NotYourTable, authorise
from dealer.models import User
from dealer.people.users import add_user
from dealer.transactions import writing
from tests.helpers import Api
from tests.words.languages import speaking


@pytest.fixture
def two_tables(api: Api, floor: Api, people: Flask) -> dict[str, Any]:
    """Table 1 (Dee's session, a hand in play with a meld) and table 2 (Bo's, the same)."""
    with people.app_context(), writing(db.session()) as session:
        add_user(session, "Bo", "dealer", "5555")
    bo = Api.sign_in_as(people, "Bo", "5555")
    out: dict[str, Any] = {"bo": bo}
    for number, dealer in ((1, api), (2, bo)):
        table = floor.table(name=f"Table {number}", dealer=None)["id"]
        dealer.post(f"/tables/{table}/sessions", status=201)
        for seat in (1, 2, 3):
            dealer.seat(table, seat, f"P{seat}", 100)
        hand = dealer.hand(table)["id"]
        meld = {"type": "meld", "seat": 1, "cards": ["5S", "5S", "5S"]}
        event = dealer.event(hand, meld)["event"]["id"]
        out[number] = {"table": table, "hand": hand, "event": event}
    return out


def refused(answer: Any) -> str:
    assert answer["error"]["code"] == "not_your_table", answer
    return str(answer["error"]["message"])


def test_a_dealer_at_table_1_can_do_nothing_at_table_2(
    two_tables: dict[str, Any], api: Api
) -> None:
    """The review's attack: a meld, a void, a 1,000,000 buy-in and a pause at another
    dealer's table, and reading its ledger. Each is a 403 in words, and nothing changes."""
    t2, h2, e2 = two_tables[2]["table"], two_tables[2]["hand"], two_tables[2]["event"]
    before = two_tables["bo"].get(f"/tables/{t2}/ledger")["entries"]
    meld = {"type": "meld", "seat": 2, "cards": ["JH", "QH", "KH"]}
    said = refused(api.event(h2, meld, status=403))
    assert said == "You deal Table 1; Table 2 is Bo's."
    refused(api.event(h2, {"type": "void", "event": e2, "reason": "x"}, status=403))
    big = {"kind": "buy_in", "amount": 1_000_000}
    refused(api.post(f"/tables/{t2}/seats/1/chips", big, status=403))
    refused(api.post(f"/tables/{t2}/seats/2/pause", {"paused": True}, status=403))
    refused(api.post(f"/tables/{t2}/seats", {"seat": 5, "player": "X", "buy_in": 10}, status=403))
    refused(api.delete(f"/tables/{t2}/seats/3", status=403))
    refused(api.post(f"/tables/{t2}/collections", {}, status=403))
    for path in (
        f"/tables/{t2}",
        f"/tables/{t2}/ledger",
        f"/tables/{t2}/balances",
        f"/tables/{t2}/sessions",
        f"/hands/{h2}",
    ):
        refused(api.get(path, status=403))
    assert two_tables["bo"].get(f"/tables/{t2}/ledger")["entries"] == before
    assert two_tables["bo"].get(f"/hands/{h2}")["events"][-1]["id"] == e2


def test_the_dealer_reads_and_records_at_their_own_table(
    two_tables: dict[str, Any], api: Api
) -> None:
    t1, h1 = two_tables[1]["table"], two_tables[1]["hand"]
    assert api.get(f"/tables/{t1}/ledger")["entries"]
    api.event(h1, {"type": "meld", "seat": 2, "cards": ["JH", "QH", "KH"]})
    api.post(f"/tables/{t1}/seats/3/pause", {"paused": True}, status=200)


def test_supervisors_and_admins_act_everywhere(
    two_tables: dict[str, Any], floor: Api, admin: Api
) -> None:
    for who in (floor, admin):
        for number in (1, 2):
            table = two_tables[number]["table"]
            assert who.get(f"/tables/{table}/ledger")["entries"]
            who.post(f"/tables/{table}/seats/2/chips", {"kind": "buy_in", "amount": 5}, status=201)


def test_an_assignment_gives_a_dealer_the_table_and_its_end_takes_it_back(
    two_tables: dict[str, Any], api: Api, floor: Api
) -> None:
    t2 = two_tables[2]["table"]
    refused(api.get(f"/tables/{t2}/ledger", status=403))
    shown = floor.post(f"/tables/{t2}/assignments", {"dealer": "Dee"}, status=201)
    assert shown["assigned"] == [{"dealer": "Dee", "dealer_id": shown["assigned"][0]["dealer_id"]}]
    assert shown["session_dealer"] == "Bo"
    assert api.get(f"/tables/{t2}/ledger")["entries"]
    api.post(f"/tables/{t2}/seats/2/chips", {"kind": "buy_in", "amount": 5}, status=201)
    again = floor.post(f"/tables/{t2}/assignments", {"dealer": "Dee"}, status=409)
    assert again["error"]["code"] == "assigned_already"
    dee = shown["assigned"][0]["dealer_id"]
    assert floor.delete(f"/tables/{t2}/assignments/{dee}", status=200)["assigned"] == []
    refused(api.get(f"/tables/{t2}/ledger", status=403))
    assert floor.delete(f"/tables/{t2}/assignments/{dee}", status=404)["error"]["code"] == (
        "not_assigned"
    )


def test_only_the_floor_assigns_and_only_dealers(
    two_tables: dict[str, Any], api: Api, floor: Api
) -> None:
    t1 = two_tables[1]["table"]
    assert api.post(f"/tables/{t1}/assignments", {"dealer": "Bo"}, status=403)
    assert (
        floor.post(f"/tables/{t1}/assignments", {"dealer": "Sam"}, status=422)["error"]["code"]
        == "not_a_dealer"
    )
    assert floor.post(f"/tables/{t1}/assignments", {"dealer": "Nobody"}, status=404)


def test_a_dealer_with_no_table_opens_a_down_at_a_free_one(
    api: Api, floor: Api, people: Flask
) -> None:
    """Opening a session is how a dealer comes to hold a table; dealing at a free table while
    holding none opens one too (the implicit session). A table someone holds stays theirs."""
    free = floor.table(name="Table 3", dealer=None)["id"]
    other = floor.table(name="Table 4", dealer=None)["id"]
    refused(api.post(f"/tables/{free}/seats", {"seat": 1, "player": "A", "buy_in": 10}, status=403))
    api.post(f"/tables/{free}/sessions", status=201)
    api.seat(free, 1, "A", 10)
    api.seat(free, 2, "B", 10)
    # Holding table 3, Dee may not deal at table 4 (nobody's): that would be a second table.
    said = refused(api.post(f"/tables/{other}/hands", {}, status=403))
    assert said == "You deal Table 3; Table 4 is not yours."


def test_dealing_at_a_free_table_holding_none_opens_the_down(api: Api, floor: Api) -> None:
    table = floor.table(name="Table 5", dealer=None)["id"]
    for seat in (1, 2):
        floor.seat(table, seat, f"P{seat}", 10)
    hand = api.hand(table)
    (session,) = api.get(f"/tables/{table}/sessions")["sessions"]
    assert session["dealer"] == "Dee" and session["implicit"] is True
    assert api.get(f"/hands/{hand['id']}")["id"] == hand["id"]


def test_a_dealer_reads_their_own_down_after_their_down(
    two_tables: dict[str, Any], api: Api, floor: Api
) -> None:
    """A closed down is no longer the dealer's table, but it is still their session."""
    t1, h1 = two_tables[1]["table"], two_tables[1]["hand"]
    floor.event(h1, {"type": "void_hand", "reason": "misdeal"})
    (mine, *_) = api.get(f"/tables/{t1}/sessions")["sessions"]
    api.post(f"/sessions/{mine['id']}/close", {}, status=200)
    refused(api.get(f"/tables/{t1}/ledger", status=403))
    assert api.get(f"/sessions/{mine['id']}")["status"] == "awaiting_confirmation"
    approve = {"supervisor": {"name": "Sam", "pin": "2222"}}
    assert api.post(f"/sessions/{mine['id']}/close", approve, status=200)["status"] == "closed"


def test_documents_follow_the_same_rule(two_tables: dict[str, Any], api: Api) -> None:
    headers = {"Authorization": f"Bearer {api.token}"}
    mine = api.client.get(f"/reports/hands/{two_tables[1]['hand']}.pdf", headers=headers)
    assert mine.status_code == 200
    theirs = api.client.get(f"/reports/hands/{two_tables[2]['hand']}.pdf", headers=headers)
    assert theirs.status_code == 403
    assert theirs.get_json()["error"]["code"] == "not_your_table"


@pytest.mark.parametrize(
    ("language", "free", "held"),
    [
        (
            "es",
            "Usted reparte en Table 1; Table 3 no es suya.",
            "Table 2 es de Bo: usted no tiene mesa.",
        ),
        (
            "fil",
            "Ikaw ang nagdi-deal sa Table 1; hindi sa iyo ang Table 3.",
            "Kay Bo ang Table 2: wala kang hawak na mesa.",
        ),
    ],
)
def test_whose_table_it_is_is_said_in_the_readers_language(
    two_tables: dict[str, Any], floor: Api, people: Flask, language: str, free: str, held: str
) -> None:
    """The refusal's "Table 2 is Bo's" and "is not yours" are messages of the catalogue (a
    sentence that begins with one starts with a capital)."""
    third = floor.table(name="Table 3", dealer=None)["id"]
    with people.app_context(), writing(db.session()) as session:
        dee = session.scalars(select(User).where(User.name == "Dee")).one()
        cy = add_user(session, "Cy", "dealer", "6666")
        with speaking(language), pytest.raises(NotYourTable) as not_held:
            authorise(session, dee, third, "write")
        with speaking(language), pytest.raises(NotYourTable) as holding_none:
            authorise(session, cy, two_tables[2]["table"], "write")
    assert not_held.value.message == free
    assert holding_none.value.message.startswith(held)
