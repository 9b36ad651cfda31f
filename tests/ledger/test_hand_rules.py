"""A stored hand replays under the rules it was dealt under, knobs added since included."""

from __future__ import annotations

from dealer import rules
from dealer.ledger.replay import hand_rules
from dealer.models import Hand


def record(profile: str, **knobs: object) -> Hand:
    return Hand(rules={"profile": profile, **knobs})


def test_a_hand_dealt_before_rearrange_needs_card_existed_plays_as_the_engine_then_did() -> None:
    """A card-room hand stored without the knob allowed a split with no card from hand."""
    then = rules.make_rules("cardroom").knobs()
    del then["rearrange_needs_card"]
    assert hand_rules(record("cardroom", **then)).rearrange_needs_card is False


def test_a_hand_dealt_with_the_knob_keeps_it() -> None:
    now = rules.make_rules("cardroom").knobs()
    assert now["rearrange_needs_card"] is True
    assert hand_rules(record("cardroom", **now)).rearrange_needs_card is True
