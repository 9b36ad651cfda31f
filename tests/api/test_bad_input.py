"""Bad input is a 4xx in the error shape, never a 500, and changes nothing."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from sqlalchemy import func, select

from dealer.extensions import db
from dealer.models import Event, Hand, LedgerEntry, Seating, Table
from tests.helpers import Api


def snapshot(app: Flask) -> tuple[int, ...]:
    with app.app_context():
        return tuple(
            int(db.session.scalar(select(func.count()).select_from(m)) or 0)
            for m in (Table, Seating, Hand, Event, LedgerEntry)
        )


@pytest.fixture
def setup(api: Api, floor: Api) -> dict[str, Any]:
    table = floor.table()
    api.seat(table["id"], 1, "Ana")
    api.seat(table["id"], 2, "Ben")
    hand = api.hand(table["id"])
    return {"table": table["id"], "hand": hand["id"]}


BAD_BODIES: list[Any] = [
    None,
    [],
    "text",
    12,
    {"seat": "1"},
    {"seat": 1.0, "player": "A", "buy_in": 1},
    {"seat": True, "player": "A", "buy_in": 1},
    {"seat": 10**40, "player": "A", "buy_in": 1},
    {"seat": 3, "player": "A", "buy_in": 10**40},
    {"seat": 3, "player": "A", "buy_in": -1},
    {"seat": 3, "player": "", "buy_in": 1},
    {"seat": 3, "player": "x" * 61, "buy_in": 1},
    {"seat": 3, "player": " " + "x" * 60, "buy_in": 1},
    {"seat": 3, "player": "A\x00B", "buy_in": 1},
    {"seat": 3, "player": "\ud800", "buy_in": 1},
    {"seat": 3, "player": ["A"], "buy_in": 1},
    {"type": "meld", "seat": 1, "cards": "5S 5S"},
    {"type": "meld", "seat": 1, "cards": [5, 5, 5]},
    {"type": "meld", "seat": 1, "cards": [None]},
    {"type": "meld", "seat": 1, "cards": [["5S"]]},
    {"type": "meld", "seat": 1, "cards": {"a": 1}},
    {"type": "add", "seat": 1, "meld": "1", "cards": ["5S"]},
    {"type": "add", "seat": 1, "meld": 10**40, "cards": ["5S"]},
    {"type": "split", "seat": 1, "meld": 1, "into": "x"},
    {"type": "split", "seat": 1, "meld": 1, "into": [[], [], []]},
    {"type": "void", "event": "1", "reason": "x"},
    {"type": "void", "event": 1},
    {"type": "void", "event": 2, "reason": "x" * 501},
    {"type": "void_hand", "reason": ""},
    {"type": None},
    {"type": ["meld"]},
    {"supervisor": "Sam"},
    {"supervisor": {"name": 5, "pin": []}, "type": "void_hand", "reason": "x"},
    {"dropped": [1, "2"]},
    {"kind": "buy_in", "amount": "5"},
    {"kind": "cash_out", "amount": 10**30},
    {"card": ["5S"]},
    {"card": ""},
    {"name": "x" * 101, "profile": "classic"},
    {"name": "  " + "x" * 99, "profile": "classic"},
    {"name": "T", "profile": "classic", "colour": "red"},
    {"name": "T", "profile": "classic", "rules": []},
    {"name": "T", "profile": "classic", "rules": {"packs": "8"}},
    {"name": "T", "profile": "classic", "rules": {"packs": 10**40}},
    {"name": "T", "profile": "classic", "collection": "none"},
    {"name": "T", "profile": "classic", "chip_value_cents": -1},
    {"name": "T", "profile": ["classic"]},
    {"a": {"b": {"c": {"d": {"e": {"f": {"g": {"h": {"i": {"j": {"k": {"l": {}}}}}}}}}}}}},
]


@pytest.mark.parametrize(
    "path",
    [
        "/tables",
        "/tables/{table}/seats",
        "/tables/{table}/seats/1/chips",
        "/tables/{table}/hands",
        "/tables/{table}/collections",
        "/hands/{hand}/events",
        "/hands/{hand}/fits",
        "/session",
    ],
)
def test_bad_bodies_are_refused_and_change_nothing(
    admin: Api, setup: dict[str, Any], path: str
) -> None:
    app = admin.client.application
    before = snapshot(app)
    url = path.format(**setup)
    for body in BAD_BODIES:
        answer = admin.call("POST", url, body if body is not None else "null")
        assert 400 <= answer.status_code < 500, (url, body, answer.status_code)
        error = answer.get_json()["error"]
        assert set(error) == {"code", "message"}
    assert snapshot(app) == before


def test_malformed_json_and_wrong_content_type(admin: Api, setup: dict[str, Any]) -> None:
    client, headers = admin.client, admin.headers(None)
    url = f"/api/v1/hands/{setup['hand']}/events"
    for data in ("{", '{"type": "drop", "seat": 1', "\xff\xfe", "[" * 5000 + "]" * 5000, "NaN"):
        answer = client.post(url, data=data, content_type="application/json", headers=headers)
        assert answer.status_code == 422, data[:10]
        assert answer.get_json()["error"]["code"] == "malformed_json"
    answer = client.post(
        url, data="type=drop", headers=headers, content_type="application/x-www-form-urlencoded"
    )
    assert answer.status_code == 415
    big = '{"type": "' + "x" * 70_000 + '"}'
    answer = client.post(url, data=big, content_type="application/json", headers=headers)
    assert answer.status_code == 413
    assert answer.get_json()["error"]["code"] == "too_large"


def test_unknown_ids_and_seats_are_404(admin: Api, setup: dict[str, Any]) -> None:
    for path in (
        "/tables/0",
        "/tables/-1",
        "/tables/abc",
        "/tables/2147483648",
        "/hands/99999999999999999999",
        f"/tables/{setup['table']}/seats/9/chips",
        f"/tables/{setup['table']}/seats/0/chips",
    ):
        answer = admin.call("GET" if "chips" not in path else "POST", path, {})
        assert answer.status_code in (404, 405), path
        assert "error" in answer.get_json()


def test_odd_headers_do_not_break_a_call(admin: Api, setup: dict[str, Any]) -> None:
    odd = {
        "X-Device": "tablet\x07 7" + "x" * 500,
        "Authorization": admin.headers(None)["Authorization"],
    }
    answer = admin.client.post(
        f"/api/v1/hands/{setup['hand']}/fits", json={"card": "5S"}, headers=odd
    )
    assert answer.status_code == 200
    for auth in ("Bearer", "Bearer ", "Basic abc", "Bearer " + "x" * 500, "bearer \x00"):
        answer = admin.client.get("/api/v1/tables/1", headers={"Authorization": auth})
        assert answer.status_code == 401, auth


INVISIBLE = ["\u200b", "\ufeff", "\u00ad", "\u200d", "\u2060", "\u034f", "\u3164", "\ufe0f"]


@pytest.mark.parametrize("invisible", INVISIBLE)
def test_a_name_holding_an_invisible_character_is_refused_in_words(
    admin: Api, setup: dict[str, Any], invisible: str
) -> None:
    """'super1' followed by a zero-width space (or a byte-order mark, a soft hyphen, a joiner,
    a filler ...) looks exactly like super1: every name refuses it, in a sentence, and nothing
    is made."""
    app = admin.client.application
    before = snapshot(app)
    table = setup["table"]
    calls = [
        ("/users", {"name": f"super1{invisible}", "role": "dealer", "pin": "4444"}),
        ("/players", {"name": f"Ana{invisible} Lee"}),
        ("/tables", {"name": f"Table{invisible} 9", "profile": "classic"}),
        (f"/tables/{table}/seats", {"seat": 5, "player": f"Ana{invisible}", "buy_in": 10}),
    ]
    for path, body in calls:
        answer = admin.call("POST", path, body)
        assert answer.status_code == 422, (path, answer.get_json())
        message = answer.get_json()["error"]["message"]
        assert "cannot hold a character that shows nothing" in message, message
    assert snapshot(app) == before
    assert admin.get("/players") == {"players": []}
    assert all(user["name"].isprintable() for user in admin.get("/users")["users"])
