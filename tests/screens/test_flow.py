"""The dealer's flow on the hand screen: the next hand dealt from a settled one, and the
entry just made undone in two taps (a void with its reason ready)."""

from __future__ import annotations

import re

from tests.helpers import Api
from tests.screens.conftest import Web, words
from tests.screens.test_hand import SEED, act


def deal_form(page: str) -> tuple[str, str]:
    """The settled hand's deal form: its address and its key."""
    form = re.search(
        r'<form method="post" action="([^"]+)"[^>]*class="next-deal">(.*?)</form>', page, re.S
    )
    assert form, "no 'Deal the next hand' on the settled hand"
    key = re.search(r'name="key"[^>]*value="([^"]+)"', form.group(2))
    assert key
    return form.group(1), key.group(1)


def settle(floor_api: Api, hand_id: int) -> None:
    for cards in SEED:
        floor_api.event(hand_id, {"type": "meld", "seat": 1, "cards": cards})
    floor_api.event(hand_id, {"type": "go_out", "seat": 1})


def test_a_settled_hand_deals_the_next_in_one_tap(
    dealer: Web, floor_api: Api, hand_id: int, table_id: int
) -> None:
    """Does the settled hand offer the next hand's drops and deal it, with seat 3 dropping?"""
    assert "Deal the next hand" not in dealer.get(f"/hands/{hand_id}")  # still in play
    settle(floor_api, hand_id)
    page = dealer.get(f"/hands/{hand_id}")
    assert "The next hand: who drops?" in words(page)
    assert re.search(r"<button[^>]*data-deal-next autofocus>", page), "not one key away"
    address, key = deal_form(page)
    assert address == f"/tables/{table_id}/hands"
    dealt = dealer.post(address, {"key": key, "dropped": "3"})
    text = words(dealer.follow(dealt))
    assert "hand 2" in text
    assert "Seat 3 drops" in text
    # The next hand is in play: nothing more to deal from the first.
    assert "Deal the next hand" not in dealer.get(f"/hands/{hand_id}")


def test_undo_voids_the_entry_just_made_with_its_reason_ready(dealer: Web, hand_id: int) -> None:
    """Undo on the banner opens the void with the reason filled in; one tap voids it, and
    its payments are returned."""
    done = dealer.follow(act(dealer, hand_id, action="meld", seat=1, cards="5s 5s 5s", key="u1"))
    undo = re.search(r'href="([^"]+undo=1)"[^>]*data-undo', done)
    assert undo, "no Undo on the banner"
    page = dealer.get(undo.group(1).replace("&amp;", "&"))
    reason = re.search(r'id="reason"[^>]*value="([^"]*)"', page)
    assert reason and reason.group(1) == "Undone: entered by mistake."
    address = undo.group(1).split("?")[0]
    key = re.search(r'name="key"[^>]*value="([^"]+)"', page)
    assert key
    voided = words(
        dealer.follow(dealer.post(address, {"key": key.group(1), "reason": reason.group(1)}))
    )
    assert "void" in voided.lower()
    assert "+16" not in voided.split("History")[0]


def test_no_undo_once_something_depends_on_the_entry(
    dealer: Web, floor_api: Api, hand_id: int
) -> None:
    """The drop of the deal cannot be undone once a meld follows it: no Undo offered."""
    floor_api.event(hand_id, {"type": "meld", "seat": 1, "cards": SEED[0]})
    events = floor_api.get(f"/hands/{hand_id}")["events"]
    drop = next(e for e in events if e["type"] == "drop")
    assert "data-undo" not in dealer.get(f"/hands/{hand_id}?done={drop['id']}")


def test_after_a_refusal_the_last_good_entry_can_still_be_undone(dealer: Web, hand_id: int) -> None:
    """A refused entry takes the banner's place: the last entry recorded keeps its Undo."""
    act(dealer, hand_id, action="meld", seat=1, cards="5s 5s 5s", key="r1")
    refused = act(dealer, hand_id, status=422, action="meld", seat=2, cards="2h 3s 4d", key="r2")
    page = refused.get_data(as_text=True)
    assert "Not recorded." in words(page)
    undo = re.search(r'<p class="undo-row"[^>]*>(.*?)</p>', page, re.S)
    assert undo, "no Undo after the refusal"
    assert "Last recorded: Seat 1 melds 5♠ 5♠ 5♠" in words(undo.group(1))
    assert re.search(r'href="[^"]+undo=1"[^>]*data-undo', undo.group(1))


def test_the_banner_of_an_undo_ends_with_one_full_stop(dealer: Web, hand_id: int) -> None:
    done = dealer.follow(act(dealer, hand_id, action="meld", seat=1, cards="5s 5s 5s", key="d1"))
    undo = re.search(r'href="([^"]+undo=1)"[^>]*data-undo', done)
    assert undo
    page = dealer.get(undo.group(1).replace("&amp;", "&"))
    key = re.search(r'name="key"[^>]*value="([^"]+)"', page)
    assert key
    address = undo.group(1).split("?")[0]
    reason = "Undone: entered by mistake."
    voided = words(dealer.follow(dealer.post(address, {"key": key.group(1), "reason": reason})))
    assert "Undone: entered by mistake.." not in voided
    assert "Undone: entered by mistake." in voided
