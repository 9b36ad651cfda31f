"""Every input declared once: the same bad input gets the same sentence through the JSON API
and through the screen's form, for every form that has an API twin.

Each case sends one bad input both ways: the API's refusal is read from its error, the form's
from the page drawn again (beside the field, or in the banner), and the two must be the same
sentence. Nothing is recorded either way.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import func, select

from dealer.extensions import db
from dealer.models import Dispute, DisputeRuling, Down, LedgerEntry, Player, Seating, Table
from dealer.words.catalogue import use_catalogue
from tests.helpers import Api
from tests.screens.conftest import Web, words
from tests.words.pseudo import Pseudo, not_extracted

SUPERVISOR = {"name": "Sam", "pin": "2222"}


@dataclass(frozen=True)
class Place:
    """What the cases are sent to: a table with two seated, a hand, a dispute, a session."""

    table: int
    hand: int
    dispute: int
    session: int


@dataclass(frozen=True)
class Case:
    """One bad input: the API's call and the form's post (``{...}`` filled from `Place`)."""

    name: str
    method: str
    api_path: str
    api_body: dict[str, Any]
    form_path: str
    form_data: dict[str, Any]
    #: The sentence both must say (so a case cannot pass by both saying nothing).
    sentence: str
    signed_in: str = "supervisor"


def _seat(**changed: Any) -> dict[str, Any]:
    return {"seat": 3, "player": "Cy", "buy_in": 100, **changed}


def _seat_form(**changed: str) -> dict[str, str]:
    return {"seat": "3", "player": "Cy", "buy_in": "100", **changed}


CASES = [
    Case(
        "a buy-in over the table's limit",
        "POST",
        "/tables/{table}/seats",
        _seat(buy_in=5000),
        "/tables/{table}/seats",
        _seat_form(buy_in="5000"),
        "The most a seat may buy in for at this table is 2,000 chips.",
    ),
    Case(
        "a control character in a player's name",
        "POST",
        "/tables/{table}/seats",
        _seat(player="Ann\x07"),
        "/tables/{table}/seats",
        _seat_form(player="Ann\x07"),
        "The player's name: Use letters, digits and punctuation only.",
    ),
    Case(
        "a bidi override in a new player's name",
        "POST",
        "/players",
        {"name": "Ann\u202e"},
        "/players",
        {"name": "Ann\u202e"},
        "The player's name: Use letters, digits and punctuation only.",
    ),
    Case(
        "a control character in a table's name",
        "POST",
        "/tables",
        {"name": "T\x1b[31m", "profile": "classic"},
        "/floor/tables",
        {"name": "T\x1b[31m", "profile": "classic", "collection": "none"},
        "The table's name: Use letters, digits and punctuation only.",
    ),
    Case(
        "an unknown seat",
        "POST",
        "/tables/{table}/seats",
        _seat(seat=9),
        "/tables/{table}/seats",
        _seat_form(seat="9"),
        "The seat must be from 1 to 8.",
    ),
    Case(
        "a seat that is not a number",
        "POST",
        "/tables/{table}/seats",
        _seat(seat="x"),
        "/tables/{table}/seats",
        _seat_form(seat="x"),
        "The seat must be a whole number.",
    ),
    Case(
        "a buy-in below nothing",
        "POST",
        "/tables/{table}/seats",
        _seat(buy_in=-5),
        "/tables/{table}/seats",
        _seat_form(buy_in="-5"),
        "The buy-in must be from 0 to 1000000.",
    ),
    Case(
        "a supervisor's PIN of 3 digits",
        "POST",
        "/tables/{table}/seats/1/chips",
        {"kind": "buy_in", "amount": 1500, "supervisor": {"name": "Sam", "pin": "222"}},
        "/tables/{table}/seats/1/chips",
        {"kind": "buy_in", "amount": "1500", "supervisor_name": "Sam", "supervisor_pin": "222"},
        "A PIN is 4 to 8 digits.",
        signed_in="dealer",
    ),
    Case(
        "chips moved neither in nor out",
        "POST",
        "/tables/{table}/seats/1/chips",
        {"kind": "sideways", "amount": 5},
        "/tables/{table}/seats/1/chips",
        {"kind": "sideways", "amount": "5"},
        "Say whether chips are bought in or cashed out.",
        signed_in="dealer",
    ),
    Case(
        "chips that are not a number",
        "POST",
        "/tables/{table}/seats/1/chips",
        {"kind": "buy_in", "amount": "5x"},
        "/tables/{table}/seats/1/chips",
        {"kind": "buy_in", "amount": "5x"},
        "The number of chips must be a whole number.",
        signed_in="dealer",
    ),
    Case(
        "no chips",
        "POST",
        "/tables/{table}/seats/1/chips",
        {"kind": "buy_in", "amount": 0},
        "/tables/{table}/seats/1/chips",
        {"kind": "buy_in", "amount": "0"},
        "The number of chips must be from 1 to 1000000.",
        signed_in="dealer",
    ),
    Case(
        "a time collection taken early with a supervisor's PIN of 3 digits",
        "POST",
        "/tables/{table}/collections",
        {"supervisor": {"name": "Sam", "pin": "123"}},
        "/tables/{table}/collections",
        {"supervisor_name": "Sam", "supervisor_pin": "123"},
        "A PIN is 4 to 8 digits.",
        signed_in="dealer",
    ),
    Case(
        "a supervisor's name with no PIN, to close a session",
        "POST",
        "/sessions/{session}/close",
        {"supervisor": {"name": "Sam", "pin": ""}},
        "/tables/{table}/sessions/{session}/close",
        {"supervisor_name": "Sam", "supervisor_pin": ""},
        "Enter the supervisor's PIN.",
        signed_in="dealer",
    ),
    Case(
        "a table limit of nothing",
        "PATCH",
        "/tables/{table}",
        {"max_buy_in": 0},
        "/tables/{table}/settings",
        {"min_buy_in": "1", "max_buy_in": "0", "approval_above": "1000"},
        "The limit in chips must be from 1 to 1000000.",
    ),
    Case(
        "a knob out of the engine's bounds",
        "POST",
        "/tables",
        {"name": "T", "profile": "classic", "rules": {"packs": 0}},
        "/floor/tables",
        {"name": "T", "profile": "classic", "collection": "none", "packs": "0"},
        "The rule packs must be from 1 to 20, not 0.",
    ),
    Case(
        "a profile nobody has",
        "POST",
        "/tables",
        {"name": "T", "profile": "casino"},
        "/floor/tables",
        {"name": "T", "profile": "casino", "collection": "none"},
        "'casino' is not a rule profile: choose cardroom or classic.",
    ),
    Case(
        "a seat dropping twice",
        "POST",
        "/tables/{table}/hands",
        {"dropped": [1, 1]},
        "/tables/{table}/hands",
        {"dropped": ["1", "1"]},
        "Each seat can drop only once.",
        signed_in="dealer",
    ),
    Case(
        "a seat dropping that is not at any table",
        "POST",
        "/tables/{table}/hands",
        {"dropped": [9]},
        "/tables/{table}/hands",
        {"dropped": ["9"]},
        "The seats that drop must be from 1 to 8.",
        signed_in="dealer",
    ),
    Case(
        "a player's card number too long",
        "POST",
        "/players",
        {"name": "Ann", "card_number": "9" * 31},
        "/players",
        {"name": "Ann", "card_number": "9" * 31},
        "The card number is too long: at most 30 characters.",
    ),
    Case(
        "a dealer's name left blank",
        "POST",
        "/tables/{table}/assignments",
        {"dealer": " "},
        "/tables/{table}/assignments",
        {"dealer": " "},
        "Enter the dealer's name.",
    ),
    Case(
        "a dispute with no claim",
        "POST",
        "/hands/{hand}/disputes",
        {"raised_by": "dealer", "claim": ""},
        "/hands/{hand}/disputes",
        {"raised_by": "0", "claim": ""},
        "Enter the claim.",
        signed_in="dealer",
    ),
    Case(
        "a dispute raised by an unknown seat",
        "POST",
        "/hands/{hand}/disputes",
        {"raised_by": "seat", "seat": 9, "claim": "Short paid."},
        "/hands/{hand}/disputes",
        {"raised_by": "9", "claim": "Short paid."},
        "The seat must be from 1 to 8.",
        signed_in="dealer",
    ),
    Case(
        "a ruling neither upheld nor denied",
        "POST",
        "/disputes/{dispute}/ruling",
        {"outcome": "maybe", "reason": "Counted again."},
        "/hands/{hand}/disputes/{dispute}/ruling",
        {"ruling-{dispute}-outcome": "maybe", "ruling-{dispute}-reason": "Counted again."},
        "Rule the claim upheld or denied.",
    ),
    Case(
        "a ruling's reason too long",
        "POST",
        "/disputes/{dispute}/ruling",
        {"outcome": "denied", "reason": "x" * 501},
        "/hands/{hand}/disputes/{dispute}/ruling",
        {"ruling-{dispute}-outcome": "denied", "ruling-{dispute}-reason": "x" * 501},
        "The reason for the ruling is too long: at most 500 characters.",
    ),
    Case(
        "a void with no reason",
        "POST",
        "/hands/{hand}/events",
        {"type": "void_hand", "reason": ""},
        "/hands/{hand}/void",
        {"reason": ""},
        "A void needs a reason the floor can read later.",
    ),
    Case(
        "a void's reason holding a control character",
        "POST",
        "/hands/{hand}/events",
        {"type": "void_hand", "reason": "misdeal\x07"},
        "/hands/{hand}/void",
        {"reason": "misdeal\x07"},
        "The reason: Use letters, digits and punctuation only.",
    ),
]


@pytest.fixture
def place(people: Flask) -> Place:
    floor = Api.sign_in(people, "supervisor")
    dealer = Api.sign_in(people, "dealer")
    table = floor.table()["id"]
    floor.seat(table, 1, "Ann", 100)
    floor.seat(table, 2, "Ben", 100)
    session = dealer.post(f"/tables/{table}/sessions", status=201)["id"]
    hand = dealer.hand(table)["id"]
    opened = {"raised_by": "dealer", "claim": "Count again."}
    dispute = dealer.post(f"/hands/{hand}/disputes", opened, status=201)["id"]
    return Place(table, hand, dispute, session)


def recorded(app: Flask) -> tuple[int, ...]:
    with app.app_context():
        return tuple(
            int(db.session.scalar(select(func.count()).select_from(m)) or 0)
            for m in (Table, Seating, LedgerEntry, Player, Dispute, DisputeRuling, Down)
        )


def filled(text: str, place: Place) -> str:
    return text.format(**vars(place))


Door = Callable[[Case, Place], str]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_the_same_bad_input_gets_the_same_sentence_from_either_door(
    people: Flask, place: Place, case: Case
) -> None:
    before = recorded(people)
    api = Api.sign_in(people, case.signed_in)
    answer = api.call(case.method, filled(case.api_path, place), case.api_body)
    assert 400 <= answer.status_code < 500, answer.get_json()
    said_by_api = answer.get_json()["error"]["message"]

    web = Web.sign_in(people, case.signed_in)
    data = {filled(k, place): v for k, v in case.form_data.items()}
    page = web.post(filled(case.form_path, place), data, status=None)
    assert 400 <= page.status_code < 500, words(page.get_data(as_text=True))
    shown = words(page.get_data(as_text=True))

    assert said_by_api == case.sentence
    assert case.sentence in shown
    assert recorded(people) == before


@pytest.mark.parametrize(
    ("body", "sentence"),
    [
        ({"name": "Dee", "pin": "123"}, "A PIN is 4 to 8 digits."),
        ({"name": "Dee", "pin": "12a4"}, "A PIN is 4 to 8 digits."),
        ({"name": "Dee\x07", "pin": "1111"}, "The name: Use letters, digits and punctuation only."),
        ({"name": " ", "pin": "1111"}, "Enter your name."),
        ({"name": "Dee", "pin": ""}, "Enter your PIN."),
    ],
)
def test_a_sign_in_no_user_could_have_is_told_the_same_at_either_door(
    people: Flask, body: dict[str, str], sentence: str
) -> None:
    """The sign-in: a name or PIN no user can have is refused before any PIN is checked."""
    answer = people.test_client().post("/api/v1/session", json=body)
    assert answer.status_code == 422
    assert answer.get_json()["error"]["message"] == sentence
    page = people.test_client().post("/sign-in", data=body)
    assert page.status_code == 422
    assert sentence in words(page.get_data(as_text=True))


def test_a_wrong_pin_is_still_the_same_wrong_pin_at_either_door(people: Flask) -> None:
    """A PIN that could be someone's but is not: one sentence, and it is counted (401)."""
    body = {"name": "Dee", "pin": "9999"}
    answer = people.test_client().post("/api/v1/session", json=body)
    assert answer.status_code == 401
    sentence = answer.get_json()["error"]["message"]
    page = people.test_client().post("/sign-in", data=body)
    assert page.status_code == 401
    assert sentence in words(page.get_data(as_text=True))


def test_every_refusal_of_a_bad_input_is_a_message_the_extraction_lists(
    people: Flask,
    place: Place,
) -> None:
    """The sentences of the bad inputs above, and the names of the fields they refuse, are
    the catalogue's: a translator is given each of them."""
    said = Pseudo()
    with use_catalogue(said):
        for case in CASES:
            api = Api.sign_in(people, case.signed_in)
            answer = api.call(case.method, filled(case.api_path, place), case.api_body)
            assert 400 <= answer.status_code < 500, (case.name, answer.get_json())
            assert "⟦" in answer.get_json()["error"]["message"], case.name
    assert len(said.said) > len(CASES)
    assert not (missing := not_extracted(said)), missing
