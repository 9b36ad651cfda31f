"""dealer/views through its own functions, where the API's tests leave it unsaid: a hand gone
out read back with its settlement, and its events found by their number in the hand.

The table, seats and hand are played through the API, as a tablet plays them."""

from __future__ import annotations

from flask import Flask

from dealer.extensions import db
from dealer.hands.reading import load_hand
from dealer.views.hand import hand_view
from dealer.views.settlement import settled
from tests.disputes.test_disputes_pinned import played


def test_a_hand_gone_out_is_read_with_its_settlement_and_its_events_in_order(
    people: Flask,
) -> None:
    _table, hand = played(people)
    with people.app_context():
        replayed = load_hand(db.session(), hand)
        view = hand_view(db.session(), replayed, board=True)
        assert [e.seq for e in view.events] == list(range(1, len(view.events) + 1))
        settlement = settled(replayed, view)
        assert settlement is not None
        assert [line.seat for line in settlement.lines] == [1, 2, 3]
