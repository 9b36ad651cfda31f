"""A hand's events in words, melds named by their cards: "seat 1 adds 5C to 2C 3C 4C".

The engine's own text names a meld by its number ("adds 5C to meld 3"), which it needs and a
dealer never sees. The words are made by replaying the hand once more, reading each meld's
cards just before the event that names it. The engine's text is what is stored and chained;
this is only how it is read out (a change here changes no hand's engine version).
"""

from __future__ import annotations

import re

from dealer import rules
from dealer.hands.reading import Replayed
from dealer.ledger.replay import hand_collection, hand_rules

__all__ = ["event_texts"]

_MELD = re.compile(r"\bmeld (\d+)\b")


def event_texts(replayed: Replayed) -> list[str]:
    """Each event's text, with every "meld N" it names said as that meld's cards then."""
    hand = replayed.row
    engine = replayed.engine
    if not any(isinstance(r.action, (rules.Add, rules.Borrow, rules.Split)) for r in engine.events):
        return [r.text for r in engine.events]
    again = rules.Hand(hand_rules(hand), engine.seats, hand_collection(hand))
    texts = [engine.events[0].text]
    cards_then: dict[int, str] = {}
    for record in engine.events[1:]:
        for meld_id, meld in again.melds.items():
            cards_then[meld_id] = rules.format_cards(meld.cards)
        text = record.text
        if isinstance(record.action, (rules.Add, rules.Borrow, rules.Split)):
            text = _MELD.sub(lambda m: cards_then.get(int(m.group(1)), m.group(0)), text)
        texts.append(text)
        assert record.action is not None
        again.apply(record.action)
    return texts
