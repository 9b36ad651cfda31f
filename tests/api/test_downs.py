"""Table sessions through the API: open, hands joining, close and the floor's confirmation."""

from __future__ import annotations

from typing import Any

from flask import Flask

from dealer.extensions import db
from dealer.people.users import add_user
from dealer.transactions import writing
from tests.api.test_concurrency import at_once
from tests.helpers import Api

SUPERVISOR = {"name": "Sam", "pin": "2222"}


def seated_table(api: Api, floor: Api, seats: int = 3) -> int:
    table = floor.table("classic")
    for seat in range(1, seats + 1):
        api.seat(table["id"], seat, f"P{seat}")
    return int(table["id"])


def settle(api: Api, hand: dict[str, Any]) -> None:
    """Everyone but seat 1 drops: seat 1 takes the pot and the hand is settled."""
    for seat in hand["seats"]:
        if seat != "1" and hand["seats"][seat]["status"] == "in":
            hand = api.event(hand["id"], {"type": "drop", "seat": int(seat)})["hand"]
    assert hand["status"] == "settled"


def test_open_shows_the_down_and_a_second_open_is_a_conflict(api: Api, floor: Api) -> None:
    table = seated_table(api, floor)
    opened = api.post(f"/tables/{table}/sessions", status=201)
    assert opened["table"] == table
    assert opened["dealer"] == "Dee"
    assert opened["status"] == "open"
    assert opened["implicit"] is False
    assert opened["closed_at"] is None and opened["close_confirmed_by"] is None
    assert opened["hands"] == []
    assert api.get(f"/sessions/{opened['id']}") == opened
    again = api.call("POST", f"/tables/{table}/sessions", {}, status=409)
    assert again.get_json()["error"]["code"] == "session_open"
    assert "Dee" in again.get_json()["error"]["message"]
    assert api.get(f"/tables/{table}/sessions")["sessions"] == [opened]


def test_hands_join_the_open_down(api: Api, floor: Api) -> None:
    table = seated_table(api, floor)
    opened = api.post(f"/tables/{table}/sessions", status=201)
    first = api.hand(table)
    settle(api, first)
    second = api.hand(table)
    shown = api.get(f"/sessions/{opened['id']}")
    assert shown["hands"] == [first["id"], second["id"]]


def test_dealing_with_no_down_open_opens_one_for_the_dealer(api: Api, floor: Api) -> None:
    table = seated_table(api, floor)
    hand = api.hand(table)
    [implicit] = api.get(f"/tables/{table}/sessions")["sessions"]
    assert implicit["implicit"] is True
    assert implicit["dealer"] == "Dee"
    assert implicit["status"] == "open"
    assert implicit["hands"] == [hand["id"]]


def test_a_dealer_ends_the_down_and_the_floor_confirms_later(api: Api, floor: Api) -> None:
    table = seated_table(api, floor)
    opened = api.post(f"/tables/{table}/sessions", status=201)
    hand = api.hand(table)
    settle(api, hand)
    ended = api.post(f"/sessions/{opened['id']}/close", status=200)
    assert ended["status"] == "awaiting_confirmation"
    assert ended["closed_at"] is not None
    assert ended["close_requested_by"] == "Dee"
    assert ended["close_confirmed_by"] is None
    # The down is over: the next dealer pushes in, and new hands are theirs.
    relief = floor.post(f"/tables/{table}/sessions", status=201)
    later = api.hand(table)
    assert api.get(f"/sessions/{relief['id']}")["hands"] == [later["id"]]
    assert api.get(f"/sessions/{opened['id']}")["hands"] == [hand["id"]]
    # Asking again without a supervisor changes nothing.
    waiting = api.call("POST", f"/sessions/{opened['id']}/close", {}, status=409)
    assert waiting.get_json()["error"]["code"] == "awaiting_confirmation"
    confirmed = floor.post(f"/sessions/{opened['id']}/close", status=200)
    assert confirmed["status"] == "closed"
    assert confirmed["close_confirmed_by"] == "Sam"
    assert confirmed["close_requested_by"] == "Dee"
    assert confirmed["closed_at"] == ended["closed_at"]
    done = floor.call("POST", f"/sessions/{opened['id']}/close", {}, status=409)
    assert done.get_json()["error"]["code"] == "session_closed"


def test_a_dealer_closes_with_the_supervisors_pin_on_the_spot(api: Api, floor: Api) -> None:
    table = seated_table(api, floor)
    opened = api.post(f"/tables/{table}/sessions", status=201)
    wrong = api.call(
        "POST", f"/sessions/{opened['id']}/close", {"supervisor": {"name": "Sam", "pin": "9999"}}
    )
    assert wrong.status_code == 403
    assert wrong.get_json()["error"]["code"] == "supervisor_not_approved"
    assert api.get(f"/sessions/{opened['id']}")["status"] == "open"
    closed = api.post(f"/sessions/{opened['id']}/close", {"supervisor": SUPERVISOR}, status=200)
    assert closed["status"] == "closed"
    assert (closed["close_requested_by"], closed["close_confirmed_by"]) == ("Dee", "Sam")


def test_a_dealer_cannot_approve_a_close(api: Api, floor: Api) -> None:
    table = seated_table(api, floor)
    opened = api.post(f"/tables/{table}/sessions", status=201)
    dealer = {"name": "Dee", "pin": "1111"}
    answer = api.call("POST", f"/sessions/{opened['id']}/close", {"supervisor": dealer})
    assert answer.status_code == 403
    assert answer.get_json()["error"]["code"] == "supervisor_not_approved"


def test_no_close_with_the_downs_hand_in_play(api: Api, floor: Api) -> None:
    table = seated_table(api, floor)
    opened = api.post(f"/tables/{table}/sessions", status=201)
    api.hand(table)
    answer = floor.call("POST", f"/sessions/{opened['id']}/close", {}, status=409)
    assert answer.get_json()["error"]["code"] == "hand_in_play"
    assert api.get(f"/sessions/{opened['id']}")["status"] == "open"


def test_only_the_downs_dealer_closes_it_without_the_floor(
    api: Api, floor: Api, people: Flask
) -> None:
    with people.app_context(), writing(db.session()) as session:
        add_user(session, "Dot", "dealer", "4444")
    table = seated_table(api, floor)
    # Dot deals here too (a relief dealer): the table is hers, the session is Dee's.
    floor.post(f"/tables/{table}/assignments", {"dealer": "Dot"}, status=201)
    opened = api.post(f"/tables/{table}/sessions", status=201)
    other = Api(people.test_client())
    token = other.client.post("/api/v1/session", json={"name": "Dot", "pin": "4444"})
    other.token = token.get_json()["token"]
    answer = other.call("POST", f"/sessions/{opened['id']}/close", {}, status=403)
    assert answer.get_json()["error"]["code"] == "not_your_session"
    # With the floor's PIN the relief dealer may close it.
    closed = other.post(f"/sessions/{opened['id']}/close", {"supervisor": SUPERVISOR}, status=200)
    assert closed["status"] == "closed"
    assert closed["close_requested_by"] == "Dot"


def test_idempotency_key_replays_the_open_and_the_close(api: Api, floor: Api) -> None:
    table = seated_table(api, floor)
    first = api.call("POST", f"/tables/{table}/sessions", {}, key="open-1", status=201)
    again = api.call("POST", f"/tables/{table}/sessions", {}, key="open-1", status=201)
    assert again.get_data() == first.get_data()
    assert again.headers.get("Idempotent-Replayed") == "true"
    assert len(api.get(f"/tables/{table}/sessions")["sessions"]) == 1
    session = first.get_json()["id"]
    closed = api.call("POST", f"/sessions/{session}/close", {}, key="close-1", status=200)
    repeat = api.call("POST", f"/sessions/{session}/close", {}, key="close-1", status=200)
    assert repeat.get_data() == closed.get_data()
    other = api.call(
        "POST", f"/sessions/{session}/close", {"supervisor": SUPERVISOR}, key="close-1"
    )
    assert other.status_code == 409
    assert other.get_json()["error"]["code"] == "idempotency_key_reused"


def test_bad_calls(api: Api, floor: Api, people: Flask) -> None:
    table = seated_table(api, floor)
    assert api.call("POST", "/tables/999/sessions", {}, status=404).get_json()["error"]["code"] == (
        "unknown_table"
    )
    assert api.call("GET", "/sessions/999", status=404).get_json()["error"]["code"] == (
        "unknown_session"
    )
    assert api.call("POST", "/sessions/999/close", {}, status=404)
    unknown = api.call("POST", f"/tables/{table}/sessions", {"dealer": "Dee"}, status=422)
    assert unknown.get_json()["error"]["code"] == "unknown_field"
    opened = api.post(f"/tables/{table}/sessions", status=201)
    typo = api.call("POST", f"/sessions/{opened['id']}/close", {"supervsor": SUPERVISOR})
    assert typo.status_code == 422
    assert api.call(
        "POST", f"/sessions/{opened['id']}/close", {"supervisor": "Sam"}
    ).status_code == (422)
    signed_out = Api(people.test_client())
    assert signed_out.call("GET", f"/sessions/{opened['id']}").status_code == 401
    assert signed_out.call("POST", f"/tables/{table}/sessions", {}).status_code == 401


def test_two_tablets_opening_at_once_open_one_down(api: Api, floor: Api) -> None:
    table = seated_table(api, floor)
    path = f"/tables/{table}/sessions"
    answers = at_once(lambda: api.call("POST", path, {}), lambda: floor.call("POST", path, {}))
    assert sorted(a.status_code for a in answers) == [201, 409]
    assert len(api.get(f"{path}")["sessions"]) == 1


def test_two_prints_at_once_never_share_a_stamp(api: Api, floor: Api) -> None:
    table = seated_table(api, floor)
    hand = api.hand(table)["id"]
    path = f"/reports/hands/{hand}.pdf"
    answers = at_once(
        lambda: api.client.get(path, headers=api.headers(None)),
        lambda: floor.client.get(path, headers=floor.headers(None)),
        lambda: api.client.get(path, headers=api.headers(None)),
    )
    names = sorted(a.headers["Content-Disposition"] for a in answers)
    assert names == [
        f'inline; filename="hand-slip-{hand}-reprint-1.pdf"',
        f'inline; filename="hand-slip-{hand}-reprint-2.pdf"',
        f'inline; filename="hand-slip-{hand}.pdf"',
    ]
