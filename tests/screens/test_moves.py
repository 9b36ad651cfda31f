"""Move to seat N: a wrong-seat entry moved in one step, when nothing depends on it."""

from __future__ import annotations

import re

from tests.helpers import Api
from tests.screens.conftest import Web, words
from tests.screens.test_hand import act


def move_form(page: str) -> tuple[str, str]:
    """The banner's Move form: its address and its key."""
    found = re.search(
        r'action="(/hands/\d+/events/\d+/move)".*?name="key"[^>]*value="([^"]+)"', page, re.S
    )
    assert found, "no Move to seat on the banner"
    return found.group(1), found.group(2)


def test_a_wrong_seat_meld_moves_in_one_tap(dealer: Web, hand_id: int) -> None:
    page = dealer.follow(act(dealer, hand_id, action="meld", seat=1, cards="5S 5S 5S"))
    assert "Wrong seat? Move to" in words(page)
    assert 'aria-label="Move to seat 5"' not in page  # seat 5 dropped
    address, key = move_form(page)
    moved = dealer.post(address, {"seat": "2", "key": key})
    again = dealer.post(address, {"seat": "2", "key": key})  # a double tap: moved once
    assert again.headers["Location"] == moved.headers["Location"]
    text = words(dealer.follow(moved))
    assert (
        "Void of #3 (Seat 1 melds 5♠ 5♠ 5♠): Wrong seat: entered for seat 1, moved to seat 2."
        in text
    )
    assert "Seat 2 melds 5♠ 5♠ 5♠." in text
    assert "Wrong seat? Move to" in text  # the new entry can move again


def test_an_entry_something_depends_on_cannot_move(
    dealer: Web, floor_api: Api, hand_id: int
) -> None:
    page = dealer.follow(act(dealer, hand_id, action="meld", seat=1, cards="5S 5S 5S"))
    address, key = move_form(page)
    floor_api.event(hand_id, {"type": "add", "seat": 1, "meld": 1, "cards": ["5S"]})
    refused = dealer.post(address, {"seat": "2", "key": key}, status=409)
    assert "cannot simply move" in words(refused.get_data(as_text=True))


def test_no_move_is_offered_for_an_add(dealer: Web, floor_api: Api, hand_id: int) -> None:
    """An add acts on the seat's own meld: it cannot change seat."""
    floor_api.event(hand_id, {"type": "meld", "seat": 1, "cards": ["5S", "5S", "5S"]})
    page = dealer.follow(act(dealer, hand_id, action="add", seat=1, meld=1, cards="5S"))
    assert "Wrong seat? Move to" not in words(page)


def test_a_dealer_holds_one_open_down(dealer: Web, dealer_api: Api, floor_api: Api) -> None:
    """Opening a session at a second table while one is open at the first is refused."""
    first, second = floor_api.table(name="First")["id"], floor_api.table(name="Second")["id"]
    dealer_api.post(f"/tables/{first}/sessions", {}, status=201)
    refused = dealer_api.post(f"/tables/{second}/sessions", {}, status=409)
    assert refused["error"]["code"] == "dealer_session_open"
    assert "still open at First" in refused["error"]["message"]
    assert "Your session" in words(dealer.get(f"/tables/{second}"))
