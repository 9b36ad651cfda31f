"""Idempotency-Key: a repeat answers the first answer and records nothing new."""

from __future__ import annotations

from flask import Flask
from sqlalchemy import func, select

from dealer.extensions import db
from dealer.models import Event, IdempotencyRecord, LedgerEntry
from tests.helpers import Api


def count(app: Flask, model: type) -> int:
    with app.app_context():
        return int(db.session.scalar(select(func.count()).select_from(model)) or 0)


def test_a_repeated_event_is_recorded_once(api: Api, floor: Api) -> None:
    app = api.client.application
    table = floor.table()
    api.seat(table["id"], 1, "Ana")
    api.seat(table["id"], 2, "Ben")
    hand = api.hand(table["id"])
    body = {"type": "meld", "seat": 1, "cards": ["5S", "5S", "5S"]}
    first = api.call("POST", f"/hands/{hand['id']}/events", body, key="k-1", status=201)
    events, entries = count(app, Event), count(app, LedgerEntry)
    again = api.call("POST", f"/hands/{hand['id']}/events", body, key="k-1", status=201)
    assert again.get_data() == first.get_data()
    assert again.headers["Idempotent-Replayed"] == "true"
    assert (count(app, Event), count(app, LedgerEntry)) == (events, entries)


def test_a_repeat_the_hand_would_refuse_answers_the_first_answer(api: Api, floor: Api) -> None:
    """A new key is not looked up before its write: a repeat that the write refuses (a second
    deal while the first hand is in play) is still answered as the first send was."""
    app = api.client.application
    table = floor.table()
    api.seat(table["id"], 1, "Ana")
    api.seat(table["id"], 2, "Ben")
    path = f"/tables/{table['id']}/hands"
    first = api.call("POST", path, {}, key="deal-1", status=201)
    hands = count(app, Event)
    again = api.call("POST", path, {}, key="deal-1", status=201)
    assert again.get_data() == first.get_data()
    assert again.headers["Idempotent-Replayed"] == "true"
    assert count(app, Event) == hands
    refused = api.call("POST", path, {}, key="deal-2")
    assert refused.get_json()["error"]["code"] == "hand_in_play"


def test_same_key_other_body_is_409(api: Api, floor: Api) -> None:
    table = floor.table()
    path = f"/tables/{table['id']}/seats"
    api.call("POST", path, {"seat": 1, "player": "Ana", "buy_in": 5}, key="seat", status=201)
    answer = api.call("POST", path, {"seat": 2, "player": "Ana", "buy_in": 5}, key="seat")
    assert answer.status_code == 409
    assert answer.get_json()["error"]["code"] == "idempotency_key_reused"
    # Another path with the same key is another request too.
    api.call(
        "POST",
        f"/tables/{table['id']}/seats/1/chips",
        {"kind": "buy_in", "amount": 1},
        key="seat",
        status=409,
    )


def test_body_spelling_does_not_matter_only_its_meaning(api: Api, floor: Api) -> None:
    table = floor.table()
    path = f"/api/v1/tables/{table['id']}/seats"
    headers = {**api.headers(None), "Idempotency-Key": "spaced"}
    one = api.client.post(
        path,
        data='{"seat":1,"player":"Ana","buy_in":5}',
        content_type="application/json",
        headers=headers,
    )
    two = api.client.post(
        path,
        data='{ "buy_in": 5, "player": "Ana", "seat": 1 }',
        content_type="application/json",
        headers=headers,
    )
    assert one.status_code == two.status_code == 201
    assert two.headers.get("Idempotent-Replayed") == "true"


def test_keys_are_per_user(api: Api, floor: Api) -> None:
    """The same key from two users is two requests (two tables: no two may share a name)."""
    first = floor.call("POST", "/tables", {"name": "A", "profile": "classic"}, key="same")
    second = Api.sign_in(api.client.application, "admin").call(
        "POST", "/tables", {"name": "B", "profile": "classic"}, key="same"
    )
    assert first.status_code == second.status_code == 201
    assert first.get_json()["id"] != second.get_json()["id"]
    assert second.get_json()["name"] == "B"


def test_a_refused_call_stores_no_answer(api: Api, floor: Api) -> None:
    """A 4xx keeps nothing, so the call can be fixed and sent again under the same key."""
    app = api.client.application
    table = floor.table()
    path = f"/tables/{table['id']}/seats"
    api.call("POST", path, {"seat": 1, "player": "Ana", "buy_in": -5}, key="fix", status=422)
    assert count(app, IdempotencyRecord) == 0
    api.call("POST", path, {"seat": 1, "player": "Ana", "buy_in": 5}, key="fix", status=201)
    assert count(app, IdempotencyRecord) == 1


def test_fits_with_a_key_answers_the_first_answer(api: Api, floor: Api) -> None:
    table = floor.table()
    api.seat(table["id"], 1, "Ana")
    api.seat(table["id"], 2, "Ben")
    hand = api.hand(table["id"])
    path = f"/hands/{hand['id']}/fits"
    assert api.post(path, {"card": "7C"}, key="fit", status=200) == {"fits": []}
    api.event(hand["id"], {"type": "meld", "seat": 1, "cards": ["5C", "6C", "7C"]})
    assert api.post(path, {"card": "JC"}, status=200)["fits"]
    assert api.post(path, {"card": "7C"}, key="fit", status=200) == {"fits": []}


def test_bad_keys_are_422(api: Api, floor: Api) -> None:
    for key in ("", "x" * 256, "caf\u00e9"):
        headers = {"Idempotency-Key": key}
        answer = floor.call(
            "POST",
            "/tables",
            {"name": "A", "profile": "classic"},
            headers={k: v.encode().decode("latin-1") for k, v in headers.items()},
        )
        assert answer.status_code == 422, key
        assert answer.get_json()["error"]["code"] == "invalid_idempotency_key"
