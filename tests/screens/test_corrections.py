"""Voids: of an event (a supervisor's PIN once the hand is settled) and of the whole hand."""

from __future__ import annotations

from flask import Flask
from sqlalchemy import select

from dealer.extensions import db
from dealer.models import Event, User
from tests.helpers import Api
from tests.screens.conftest import Web, words

SEED = [["5S", "5S", "5S"], ["JH", "QH", "KH"], ["2C", "3C", "4C", "5C", "6C"]]


def settled(floor_api: Api, hand_id: int) -> int:
    """Play seed 000 to the end; return the going out's event id."""
    for cards in SEED:
        floor_api.event(hand_id, {"type": "meld", "seat": 1, "cards": cards})
    return int(floor_api.event(hand_id, {"type": "go_out", "seat": 1})["event"]["id"])


def last_event(app: Flask) -> tuple[str, str, str | None]:
    with app.app_context():
        event = db.session.scalars(select(Event).order_by(Event.id.desc())).first()
        assert event is not None
        supervisor = db.session.get(User, event.supervisor_id) if event.supervisor_id else None
        return event.type, event.user.name, supervisor.name if supervisor else None


def test_void_a_meld_while_in_play(
    people: Flask, dealer: Web, floor_api: Api, hand_id: int
) -> None:
    """Does the void screen list what is returned, and the void return it, with no PIN asked?"""
    meld = floor_api.event(hand_id, {"type": "meld", "seat": 1, "cards": SEED[0]})["event"]["id"]
    page = dealer.get(f"/hands/{hand_id}/events/{meld}/void")
    text = words(page)
    assert "Void event #3" in text
    assert "seat 1 (P1) returns 4 to seat 2 (P2)" in text
    assert "supervisor" not in text.lower().split("sign out")[1]
    answer = dealer.post(f"/hands/{hand_id}/events/{meld}/void", {"reason": "wrong seat"})
    banner = words(dealer.follow(answer))
    assert "Void of #3 (Seat 1 melds 5♠ 5♠ 5♠): wrong seat." in banner
    assert (
        "Seat 1 (P1) returns 4 chips each to seats 2, 3, 4 and 6: returned by the void of #3."
        in (banner)
    )
    page = dealer.get(f"/hands/{hand_id}")
    assert "Seat 1 (P1) returns: returned by the void of #3" in words(page)
    assert last_event(people) == ("void", "Dee", None)


def test_a_void_needs_a_reason(dealer: Web, floor_api: Api, hand_id: int) -> None:
    meld = floor_api.event(hand_id, {"type": "meld", "seat": 1, "cards": SEED[0]})["event"]["id"]
    answer = dealer.post(f"/hands/{hand_id}/events/{meld}/void", {"reason": " "}, status=422)
    assert "A void needs a reason the floor can read later." in words(answer.get_data(as_text=True))


def test_an_event_others_depend_on_cannot_be_voided(
    dealer: Web, floor_api: Api, hand_id: int
) -> None:
    """Is there no Void button for the drop once a meld follows, and the screen says why?"""
    page = dealer.get(f"/hands/{hand_id}")
    drop = int(page.split('id="event-')[1].split('"')[0])  # the newest first: the drop
    floor_api.event(hand_id, {"type": "meld", "seat": 1, "cards": SEED[0]})
    assert f"/hands/{hand_id}/events/{drop}/void" not in dealer.get(f"/hands/{hand_id}")
    text = words(dealer.get(f"/hands/{hand_id}/events/{drop}/void"))
    assert "Event 2 cannot be voided: event 3" in text
    assert "depends on it; void that first." in text
    answer = dealer.post(f"/hands/{hand_id}/events/{drop}/void", {"reason": "x"}, status=409)
    assert "depends on it" in words(answer.get_data(as_text=True))


def test_after_settlement_a_dealer_needs_a_supervisors_pin(
    people: Flask, dealer: Web, floor_api: Api, hand_id: int
) -> None:
    """Settled: is the floor asked for, no PIN or a wrong one refused, both people recorded?"""
    out = settled(floor_api, hand_id)
    page = dealer.get(f"/hands/{hand_id}/events/{out}/void")
    text = words(page)
    assert "A supervisor must approve this" in text
    assert "The hand is settled: only a supervisor can void now." in text
    assert "data-pin-pad" in page
    path = f"/hands/{hand_id}/events/{out}/void"
    none = dealer.post(path, {"reason": "went out on a bad count"}, status=403)
    assert "A supervisor must approve this" in words(none.get_data(as_text=True))
    wrong = dealer.post(
        path,
        {"reason": "bad count", "supervisor_name": "Sam", "supervisor_pin": "9999"},
        status=403,
    )
    page = wrong.get_data(as_text=True)
    assert "The supervisor's name or PIN is wrong." in words(page)
    assert 'value="bad count"' in page
    assert "9999" not in page
    a_dealer = dealer.post(
        path,
        {"reason": "bad count", "supervisor_name": "Dee", "supervisor_pin": "1111"},
        status=403,
    )
    assert "Only a supervisor can approve this." in words(a_dealer.get_data(as_text=True))
    right = dealer.post(
        path, {"reason": "bad count", "supervisor_name": "Sam", "supervisor_pin": "2222"}
    )
    text = words(dealer.follow(right))
    assert "Void of #6 (Seat 1 goes out): bad count." in text
    assert "Seat 1 (P1) returns 6 chips each to seats 2, 3, 4 and 6" in text
    assert "Seat 1 (P1) returns 2 chips to the pot: returned by the void of #6." in text
    assert "▶ in play" in text  # voiding the going out reopens the hand
    assert "Dee, approved by Sam" in text
    assert last_event(people) == ("void", "Dee", "Sam")


def test_a_signed_in_supervisor_approves_their_own_void(
    people: Flask, supervisor: Web, floor_api: Api, hand_id: int
) -> None:
    out = settled(floor_api, hand_id)
    page = words(supervisor.get(f"/hands/{hand_id}/events/{out}/void"))
    assert "A supervisor must approve this" not in page
    supervisor.post(f"/hands/{hand_id}/events/{out}/void", {"reason": "recount"})
    assert last_event(people) == ("void", "Sam", "Sam")


def test_void_the_hand_with_a_supervisors_pin(
    people: Flask, dealer: Web, floor_api: Api, dealer_api: Api, table_id: int, hand_id: int
) -> None:
    """Does voiding the hand return every entry, the drop included, with the floor's approval?"""
    floor_api.event(hand_id, {"type": "meld", "seat": 1, "cards": SEED[0]})
    text = words(dealer.get(f"/hands/{hand_id}/void"))
    assert "Void the whole hand" in text
    assert "Voiding a hand needs a supervisor." in text
    answer = dealer.post(
        f"/hands/{hand_id}/void",
        {"reason": "misdeal", "supervisor_name": "Sam", "supervisor_pin": "2222", "key": "web-vh"},
    )
    text = words(dealer.follow(answer))
    assert "The hand is void: misdeal." in text
    assert (
        "Seat 1 (P1) returns 4 chips each to seats 2, 3, 4 and 6: returned: the hand is void."
        in text
    )
    assert "The pot returns 2 chips to seat 5 (P5): returned: the hand is void." in text
    assert "✕ void" in text
    assert "Void the whole hand" not in text
    assert dealer_api.stacks(table_id) == dict.fromkeys(range(1, 7), 100)
    assert last_event(people) == ("void_hand", "Dee", "Sam")
    again = dealer.post(
        f"/hands/{hand_id}/void",
        {"reason": "misdeal", "supervisor_name": "Sam", "supervisor_pin": "2222", "key": "web-vh"},
    )
    assert again.headers["Location"] == answer.headers["Location"]


def test_a_supervisor_voiding_in_play_needs_no_approval(
    people: Flask, supervisor: Web, floor_api: Api, hand_id: int
) -> None:
    """In play a void needs no one's approval: a supervisor's is not recorded as one."""
    meld = floor_api.event(hand_id, {"type": "meld", "seat": 1, "cards": SEED[0]})["event"]["id"]
    supervisor.post(f"/hands/{hand_id}/events/{meld}/void", {"reason": "wrong seat"})
    assert last_event(people) == ("void", "Sam", None)
