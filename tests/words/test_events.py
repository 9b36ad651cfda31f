"""Each event in one sentence: melds named by their cards as they stood (never by number),
cards with their suits' symbols (never letters), and a void naming what it voids."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from dealer import rules
from dealer.words.events import event_sentences
from tests.rules.test_golden_hands import HAND_FILES, load

#: A card written with a letter suit: 5S, JH (the canonical form is for machines only).
LETTER_CARD = re.compile(r"\b[A2-7JQK][CDHS]\b")


def played(path: Path) -> rules.Hand:
    """The golden hand played through the engine, its refused events left out."""
    data = load(path)
    knobs = rules.make_rules(data["profile"], data.get("rules") or {})
    collection = rules.make_collection(data.get("collection") or {"kind": "none"})
    engine = rules.Hand(knobs, data["seats"], collection)
    for event in data["events"]:
        if "error" not in event:
            engine.apply(rules.action_from_dict(event["action"]))
    return engine


@pytest.mark.parametrize("path", HAND_FILES, ids=[p.name for p in HAND_FILES])
def test_every_event_has_one_sentence_in_cards_never_numbers(path: Path) -> None:
    engine = played(path)
    said = event_sentences(engine)
    assert len(said) == len(engine.events)
    for sentence, record in zip(said, engine.events, strict=True):
        assert sentence and sentence[0].isupper(), sentence
        assert not re.search(r"\bmeld \d+\b", sentence), (path.name, sentence)
        ours = sentence
        if record.type in ("void", "void_hand"):  # the reason is the dealer's own words
            ours = sentence.removesuffix(record.action.reason)  # type: ignore[union-attr]
        assert not LETTER_CARD.search(ours), (path.name, sentence)
        if record.type == "void":
            target = record.action.event  # type: ignore[union-attr]
            assert f"#{target} ({said[target - 1]})" in sentence


def test_an_add_names_the_meld_as_it_was_before_and_a_void_names_the_add() -> None:
    engine = rules.Hand(rules.make_rules("classic"), [1, 2, 3])
    engine.apply(rules.action_from_dict({"type": "meld", "seat": 1, "cards": ["2C", "3C", "4C"]}))
    engine.apply(rules.action_from_dict({"type": "add", "seat": 1, "meld": 1, "cards": ["5C"]}))
    engine.apply(rules.action_from_dict({"type": "void", "event": 3, "reason": "wrong meld"}))
    said = event_sentences(engine)
    assert said == [
        "Dealt to seats 1, 2 and 3",
        "Seat 1 melds 2♣ 3♣ 4♣",
        "Seat 1 adds 5♣ to 2♣ 3♣ 4♣",
        "Void of #3 (Seat 1 adds 5♣ to 2♣ 3♣ 4♣): wrong meld",
    ]
    assert engine.events[2].text == "seat 1 adds 5C to meld 1"  # what the engine stored


def test_unclaimed_borrow_and_split_in_words() -> None:
    engine = rules.Hand(rules.make_rules("classic"), [1, 2, 3])
    apply = [
        {"type": "meld", "seat": 1, "cards": ["4D", "5D", "6D", "7D"]},
        {"type": "borrow", "seat": 1, "meld": 1, "take": ["7D"], "cards": ["7H", "7C"]},
        {"type": "meld", "seat": 2, "cards": ["5C", "6C", "7C", "JC"], "claimed": False},
        {
            "type": "split",
            "seat": 2,
            "meld": 3,
            "cards": ["4C", "QC"],
            "into": [["4C", "5C", "6C"], ["7C", "JC", "QC"]],
        },
    ]
    for body in apply:
        engine.apply(rules.action_from_dict(body))
    said = event_sentences(engine)
    assert said[2] == "Seat 1 borrows 7♦ from 4♦ 5♦ 6♦ 7♦ for 7♣ 7♦ 7♥"
    assert said[3] == "Seat 2 melds 5♣ 6♣ 7♣ J♣ (not claimed: nothing paid)"
    assert said[4] == ("Seat 2 adds 4♣ Q♣ to 5♣ 6♣ 7♣ J♣ and splits it into 4♣ 5♣ 6♣ and 7♣ J♣ Q♣")
