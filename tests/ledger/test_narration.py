"""A hand's events in words: every meld named by its cards, never by its number, in every
golden hand; and the words are only read out, never what the engine stored."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from dealer import rules
from dealer.hands.narration import event_texts
from dealer.hands.reading import Replayed
from dealer.ledger.replay import ActionRow
from dealer.models import Hand
from tests.rules.test_golden_hands import HAND_FILES, load


def played(path: Path) -> Replayed:
    """The golden hand played through the engine, as a stored hand would replay."""
    data = load(path)
    knobs = rules.make_rules(data["profile"], data.get("rules") or {})
    collection = rules.make_collection(data.get("collection") or {"kind": "none"})
    engine = rules.Hand(knobs, data["seats"], collection)
    for event in data["events"]:
        if "error" not in event:
            engine.apply(rules.action_from_dict(event["action"]))
    row = Hand(
        id=1,
        rules={"profile": knobs.profile, **knobs.knobs()},
        collection=collection.as_dict(),
        seats={str(s): s for s in data["seats"]},
    )
    events = [ActionRow(r.seq, r.type, None) for r in engine.events]
    return Replayed(row, engine, events)  # type: ignore[arg-type]


@pytest.mark.parametrize("path", HAND_FILES, ids=[p.name for p in HAND_FILES])
def test_no_meld_is_named_by_its_number(path: Path) -> None:
    replayed = played(path)
    texts = event_texts(replayed)
    assert len(texts) == len(replayed.engine.events)
    for text, record in zip(texts, replayed.engine.events, strict=True):
        assert not re.search(r"\bmeld \d+\b", text), (path.name, text)
        if "meld" not in record.text:
            assert text == record.text


def test_an_add_names_the_meld_as_it_was_before() -> None:
    engine = rules.Hand(rules.make_rules("classic"), [1, 2, 3])
    engine.apply(rules.action_from_dict({"type": "meld", "seat": 1, "cards": ["2C", "3C", "4C"]}))
    engine.apply(rules.action_from_dict({"type": "add", "seat": 1, "meld": 1, "cards": ["5C"]}))
    engine.apply(rules.action_from_dict({"type": "void", "event": 3, "reason": "wrong meld"}))
    knobs = engine.rules
    row = Hand(id=1, rules={"profile": knobs.profile, **knobs.knobs()}, collection={"kind": "none"})
    texts = event_texts(Replayed(row, engine, []))
    assert texts[2] == "seat 1 adds 5C to 2C 3C 4C"
    assert texts[3] == "void of event 3"
    assert engine.events[2].text == "seat 1 adds 5C to meld 1"
