"""The engine's refusals are said through the catalogue: each carries its English message as a
template and its fields, the template is one the extraction lists (the error classes' names are
its keywords), and the door says it in the reader's language, the English one word for word the
message the engine made."""

from __future__ import annotations

import ast
import re
import string
import tomllib
from collections.abc import Callable, Iterator

import pytest

from dealer import rules
from dealer.ledger.replay import ReplayError
from dealer.rules.profiles import KNOBS
from dealer.web.refusals import refusal
from dealer.words.catalogue import use_catalogue
from dealer.words.ledger import problem_words
from dealer.words.rules import event_text_words
from tests.words.extraction import ROOT, extracted
from tests.words.pseudo import Pseudo, leaked

#: The names whose first argument is an engine's message: its refusals and its `rules.Phrase`.
ENGINE_WORDS = {error.__name__ for error in rules.RulesError.__subclasses__()} | {"Phrase"}


def _calls() -> Iterator[tuple[str, ast.Call]]:
    """Every call in the app's code that makes an engine's refusal or phrase, with where."""
    for path in sorted((ROOT / "dealer").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call):
                name = getattr(node.func, "id", None) or getattr(node.func, "attr", "")
                if name in ENGINE_WORDS:
                    yield f"{path.relative_to(ROOT)}:{node.lineno}", node


def _fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_the_error_classes_are_the_extractions_keywords() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    (python,) = (m for m in config["tool"]["babel"]["mappings"] if m["method"] == "python")
    assert set(python["keywords"].split()) >= ENGINE_WORDS


def test_every_engine_refusal_is_a_template_the_extraction_lists() -> None:
    """No refusal's message is made in code (an f-string, a sum, a call): it is a literal the
    extraction finds, or a table's `rules.Phrase` (found as one), its fields given by name."""
    found = extracted()
    refusals, wrong = 0, []
    for where, call in _calls():
        first = call.args[0] if call.args else None
        refusals += getattr(call.func, "id", None) != "Phrase"
        if isinstance(first, ast.Subscript):
            continue  # a table of phrases: each is a call to Phrase, read here too
        if not (isinstance(first, ast.Constant) and isinstance(first.value, str)):
            wrong.append(f"{where}: not a literal message")
            continue
        if first.value not in found:
            wrong.append(f"{where}: not extracted: {first.value!r}")
        given = {k.arg for k in call.keywords if k.arg not in (None, "code")}
        phrase = getattr(call.func, "id", None) == "Phrase"  # its fields given where it is said
        if (
            not phrase
            and not any(k.arg is None for k in call.keywords)
            and given != _fields(first.value)
        ):
            wrong.append(f"{where}: fields {sorted(given)} for {first.value!r}")
    assert refusals > 60
    assert not wrong, "\n".join(wrong)


def _hand(*events: dict[str, object], seats: tuple[int, ...] = (1, 2, 3)) -> rules.Hand:
    hand = rules.Hand(rules.make_rules("classic"), list(seats))
    for event in events:
        hand.apply(rules.action_from_dict(event))
    return hand


MELD = {"type": "meld", "seat": 1, "cards": ["2C", "3C", "4C"]}
#: A refusal of each kind and of each place in the engine, made as a request makes it.
REFUSED: dict[str, Callable[[], object]] = {
    "a card that is no card": lambda: rules.parse_card("9Z"),
    "a card not written as text": lambda: rules.parse_card(5),  # type: ignore[arg-type]
    "a seat out of range": lambda: rules.action_from_dict({"type": "drop", "seat": 9}),
    "a meld not a number": lambda: rules.action_from_dict({**MELD, "type": "add", "meld": "x"}),
    "an unknown event type": lambda: rules.action_from_dict({"type": "deal"}),
    "an unknown profile": lambda: rules.make_rules("home"),
    "an unknown knob": lambda: rules.make_rules("classic", {"speed": 1}),
    "a knob out of bounds": lambda: rules.make_rules("classic", {"packs": 99}),
    "a choice knob": lambda: rules.make_rules("classic", {"addition_pay": "all"}),
    "a collection setting": lambda: rules.make_collection({"kind": "time", "rate": 1}),
    "not a meld": lambda: _hand({**MELD, "cards": ["2C", "3C", "5C"]}),
    "a set grown by a run": lambda: _hand(
        {**MELD, "cards": ["5C", "5C", "5C"]},
        {"type": "add", "seat": 1, "meld": 1, "cards": ["6C"]},
    ),
    "a one-suit set grown off suit": lambda: _hand(
        {**MELD, "cards": ["5C", "5C", "5C"]},
        {"type": "add", "seat": 1, "meld": 1, "cards": ["5D"]},
    ),
    "an unknown meld": lambda: _hand({"type": "add", "seat": 1, "meld": 4, "cards": ["5C"]}),
    "someone else's meld": lambda: _hand(
        MELD, {"type": "add", "seat": 2, "meld": 1, "cards": ["5C"]}
    ),
    "a seat not dealt in": lambda: _hand({"type": "drop", "seat": 5}),
    "going out short": lambda: _hand({"type": "go_out", "seat": 1}),
    "an unknown event to void": lambda: _hand({"type": "void", "event": 7, "reason": "no"}),
    "a void of a depended-on event": lambda: _hand(
        MELD,
        {"type": "add", "seat": 1, "meld": 1, "cards": ["5C"]},
        {"type": "void", "event": 2, "reason": "no"},
    ),
    "a drop after a meld": lambda: _hand(MELD, {"type": "drop", "seat": 2}),
}


@pytest.mark.parametrize("case", list(REFUSED))
def test_each_refusal_is_said_through_the_catalogue(case: str) -> None:
    with pytest.raises(rules.RulesError) as refused:
        REFUSED[case]()
    error = refused.value
    assert refusal(error)[2] == error.message  # English: the engine's words, word for word
    said = Pseudo()
    with use_catalogue(said):
        _, _, sentence = refusal(error)
        # an event's words (as the engine wrote them) are said as the history says them
        event = event_text_words(str(error.fields["text"])) if "text" in error.fields else ""
    assert sentence.startswith("⟦") and sentence.endswith("⟧"), sentence  # said, not as made
    assert sentence.count("⟦") == 1 + event.count("⟦") + sum(
        isinstance(v, rules.Phrase) for v in error.fields.values()
    )
    assert not leaked(sentence), sentence
    assert said.said and said.said <= extracted(), said.said - extracted()


def test_a_phrase_in_a_refusal_is_said_too() -> None:
    with pytest.raises(rules.IllegalMeldError) as refused:
        _hand({**MELD, "cards": ["2C", "3C", "2C"]})
    with use_catalogue(Pseudo()):
        _, _, sentence = refusal(refused.value)
    assert re.fullmatch(r"⟦2C 2C 3C is not a meld: ⟦a [^⟦⟧]+\.⟧⟧", sentence), sentence


@pytest.mark.parametrize("knob", KNOBS)
def test_every_knob_refuses_a_word_in_words(knob: str) -> None:
    """A choice knob's refusal names its choices as "one or other": every knob refuses a value
    it cannot take with a refusal, never a programming error."""
    with pytest.raises(rules.InvalidRulesError):
        rules.make_rules("cardroom", {knob: "zz"})


def test_a_hand_that_no_longer_replays_says_the_engines_refusal() -> None:
    """The ledger's words for a stored hand the engine refuses say the refusal too."""
    with pytest.raises(rules.RulesError) as refused:
        REFUSED["a seat not dealt in"]()
    with use_catalogue(Pseudo()):
        words = problem_words(ReplayError("engine_refuses", id=4, refused=refused.value))
    assert "⟦Hand 4 no longer replays: ⟦Seat 5 is not dealt into this hand.⟧⟧" in words
