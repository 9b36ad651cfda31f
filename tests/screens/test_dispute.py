"""The dispute view: tap a payment, see the rule, the cards and the ledger entries behind it."""

from __future__ import annotations

import re

from tests.helpers import Api
from tests.screens.conftest import Web, words

SEED = [["5S", "5S", "5S"], ["JH", "QH", "KH"], ["2C", "3C", "4C", "5C", "6C"]]


def test_history_lists_every_event_with_payments_that_open_the_dispute_view(
    dealer: Web, floor_api: Api, hand_id: int
) -> None:
    meld = floor_api.event(hand_id, {"type": "meld", "seat": 1, "cards": SEED[0]})["event"]["id"]
    page = dealer.get(f"/hands/{hand_id}")
    text = words(page)
    assert "#1 Dealt to seats 1, 2, 3, 4, 5 and 6 Sam" in text
    assert "#2 Seat 5 drops Sam" in text
    assert "4 each to seat 1 (P1): valle set in spades (5♠ 5♠ 5♠)" in text
    links = re.findall(rf'href="(/hands/{hand_id}/events/{meld}/payments/\d)"', page)
    assert links == [f"/hands/{hand_id}/events/{meld}/payments/{n}" for n in range(1, 5)]


def test_a_condition_payment_shows_rule_cards_and_its_ledger_entry(
    dealer: Web, floor_api: Api, hand_id: int
) -> None:
    meld = floor_api.event(hand_id, {"type": "meld", "seat": 1, "cards": SEED[0]})
    ledger = floor_api.get(f"/tables/{meld['hand']['table']}/ledger")["entries"]
    page = dealer.get(f"/hands/{hand_id}/events/{meld['event']['id']}/payments/2")
    text = words(page)
    assert "Seat 3 (P3) pays seat 1 (P1) 4" in text
    assert "Conditions rule 4 : When a condition is laid or grows" in text
    assert 'href="/rules/4"' in page
    assert page.count('aria-label="5 of spades"') == 6  # the payment's cards and the meld now
    assert "valle set in spades, worth 4, paid 4" in text
    entry = ledger[-3]
    assert (entry["from"], entry["to"], entry["chips"]) == ("3", "1", 4)
    assert f"{entry['seq']} seat 3 (P3) seat 1 (P1) 4" in text
    assert "seating:" not in text  # an account is named, never shown as its code
    assert entry["hash"][:16] in page
    assert "Dee" not in text.split("Ledger entries")[1]  # Sam recorded it, through the API
    assert "Sam" in text.split("Ledger entries")[1]


def test_conditions_again_shows_the_condition_payments_behind_it(
    dealer: Web, floor_api: Api, hand_id: int
) -> None:
    for cards in SEED:
        floor_api.event(hand_id, {"type": "meld", "seat": 1, "cards": cards})
    out = floor_api.event(hand_id, {"type": "go_out", "seat": 1})["event"]["id"]
    page = dealer.get(f"/hands/{hand_id}/events/{out}/payments/2")
    text = words(page)
    assert "Seat 2 (P2) pays seat 1 (P1) 5" in text
    assert 'href="/rules/5#item-4"' in page
    assert "Conditions paid again rule 5.4 : At going out" in text
    assert "conditions_again" not in text and "section 5.4" not in text
    assert "#3 Seat 1 melds 5♠ 5♠ 5♠: seat 2 (P2) → seat 1 (P1) 4" in text
    assert "#4 Seat 1 melds J♥ Q♥ K♥: seat 2 (P2) → seat 1 (P1) 1" in text


def test_a_voided_payment_links_to_the_entry_that_reverses_it(
    dealer: Web, floor_api: Api, hand_id: int
) -> None:
    meld = floor_api.event(hand_id, {"type": "meld", "seat": 1, "cards": SEED[0]})["event"]["id"]
    void = floor_api.event(hand_id, {"type": "void", "event": meld, "reason": "wrong seat"})
    text = words(dealer.get(f"/hands/{hand_id}/events/{meld}/payments/1"))
    assert "void (by #4)" in text
    assert "Linked corrections" in text
    reversal = words(dealer.get(f"/hands/{hand_id}/events/{void['event']['id']}/payments/1"))
    assert "Returned by a void rule 7 : A voided event" in reversal
    assert "reverses" in reversal
