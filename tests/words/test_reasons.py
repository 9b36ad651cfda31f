"""A ledger entry keeps the English reason its posting wrote; every door that shows one says it
in the reader's language, read back against the templates it was written from (English word
for word, a reason no template fits as stored)."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import get_args

import pytest
from flask import Flask

from dealer import rules
from dealer.rules.payments import REASONS, PaymentRule
from dealer.words.catalogue import use_catalogue
from dealer.words.ledger import problem_words
from dealer.words.reasons import FLOOR_REASONS, NOTES, reason_words
from dealer.words.rows import IDENTITY_WORDS, counted_words, field_words, identity_noun, row_noun
from tests.helpers import Api
from tests.reports.evening import one_line, pdf_text
from tests.reports.test_routes import fetch
from tests.rules.test_golden_hands import HAND_FILES
from tests.screens.conftest import Web, six_seated
from tests.words.extraction import extracted
from tests.words.pseudo import Pseudo, leaked
from tests.words.test_events import played


def said(code: str, stored: str) -> str:
    with use_catalogue(Pseudo()):
        return reason_words(code, stored)


def test_every_template_a_reason_is_written_from_is_in_the_catalogue() -> None:
    templates = {*REASONS.values(), *FLOOR_REASONS.values(), *NOTES.values()}
    assert not templates - extracted()


def test_every_reason_the_engine_writes_reads_back() -> None:
    """Every payment of the golden hands: its reason said in English is the reason stored, and
    in the pseudo-language it is wrapped, with no English left but the voided event's text and
    the void's reason, which were typed or stored."""
    seen: set[str] = set()
    for path in HAND_FILES:
        for event in played(path).events:
            for paid in event.payments:
                seen.add(paid.rule)
                assert reason_words(paid.rule, paid.reason) == paid.reason
                words = said(paid.rule, paid.reason)
                assert words.startswith("⟦") and words.endswith("⟧"), words
                if paid.rule not in ("void", "void_hand"):
                    assert not leaked(words), words
    assert seen == set(get_args(PaymentRule))  # every rule a payment is made under


@pytest.mark.parametrize("name", list(FLOOR_REASONS))
@pytest.mark.parametrize("note", [None, "approved", "supervisor"])
def test_the_floors_reasons_read_back(name: str, note: str | None) -> None:
    code = "buy_in" if name in ("seated", "buy_in") else "cash_out"
    stored = FLOOR_REASONS[name].format(player="Ann", seat=3, chips=120)
    if note is not None:
        stored = NOTES[note].format(reason=stored, name="Sam")
    assert reason_words(code, stored) == stored
    words = said(code, stored)
    wrapped = 2 if note else 1
    assert words.count("⟦") == wrapped and words.startswith("⟦"), words
    assert not leaked(words.replace("Sam", "")), words


def test_a_time_collection_taken_early_reads_back() -> None:
    stored = NOTES["early"].format(
        reason=REASONS["time"].format(chips=2, minutes=30), minutes=12, name="Sam"
    )
    assert reason_words("collection", stored) == stored
    assert said("collection", stored) == (
        "⟦⟦time collection: 2 to the house every 30 minutes⟧ (taken early: 12 min before it "
        "was due, Sam)⟧"
    )


def test_a_reason_no_template_fits_is_shown_as_stored() -> None:
    assert said("buy_in", "chips from the old cage") == "chips from the old cage"
    assert said("transfer", "moved by hand") == "moved by hand"


def _voided_hand(floor_api: Api) -> tuple[int, int]:
    """A hand at a new table where seat 1 laid a valle set in spades, then voided it: its
    hand and the meld's first ledger entry."""
    table = six_seated(floor_api)
    hand = int(floor_api.hand(table)["id"])
    meld = floor_api.event(hand, {"type": "meld", "seat": 1, "cards": ["5S"] * 3})
    floor_api.event(hand, {"type": "void", "event": meld["event"]["id"], "reason": "typo"})
    return hand, int(meld["payments"][0]["entry"])


def test_the_dispute_panel_says_its_entries_reasons(people: Flask) -> None:
    """A supervisor ruling on a dispute picks a correction by its reason: said, not stored."""
    floor_api = Api.sign_in(people, "supervisor")
    hand, entry = _voided_hand(floor_api)
    body = {"raised_by": "seat", "seat": 2, "claim": "Paid twice", "entry": entry}
    floor_api.post(f"/hands/{hand}/disputes", body, status=201)
    with use_catalogue(Pseudo()):
        page = Web.sign_in(people, "supervisor").get(f"/hands/{hand}")
    options = re.findall(r"<option[^>]*>(⟦entry [^<]*)</option>", page)
    assert options, "no correction offered"
    assert all(
        ", ⟦void of event 2 (⟦seat 1 melds 5S 5S 5S⟧; typo)" in option for option in options
    ), options


def test_the_hand_slip_of_a_hand_that_no_longer_replays_says_its_reasons(
    people: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A hand the engine installed no longer replays is printed from its ledger entries: their
    reasons said, not as stored."""
    floor_api = Api.sign_in(people, "supervisor")
    hand, _ = _voided_hand(floor_api)

    def changed_engine(self: rules.Hand, action: rules.Action) -> rules.EventRecord:
        raise rules.IllegalMeldError("Not under this engine.")

    monkeypatch.setattr(rules.Hand, "apply", changed_engine)
    with use_catalogue(Pseudo()):
        text = one_line(pdf_text(fetch(floor_api, f"/reports/hands/{hand}.pdf").data))
    assert "⟦⟦valle set in ⟦spades⟧⟧ (5S 5S 5S)" in text, text
    assert "⟦void of event" in text


VOIDED = [
    rules.Meld(seat=2, cards=tuple(rules.parse_cards("7D 7D 7D")), claimed=False),
    rules.Add(seat=1, meld=3, cards=tuple(rules.parse_cards("5C"))),
    rules.Borrow(
        seat=2, meld=1, take=tuple(rules.parse_cards("7H")), cards=tuple(rules.parse_cards("7S 7C"))
    ),
    rules.Split(
        seat=1,
        meld=2,
        into=(tuple(rules.parse_cards("2C 3C 4C")), tuple(rules.parse_cards("5C 6C 7C"))),
        cards=(),
    ),
    rules.GoOut(seat=1),
    rules.Drop(seat=4),
    rules.Foul(seat=3),
    rules.Penalty(seat=5),
]


@pytest.mark.parametrize("action", VOIDED, ids=lambda action: type(action).__name__)
def test_a_voided_events_words_are_said_too(action: rules.Action) -> None:
    """A void's reason names the event it voids as the engine wrote it: read back, English word
    for word, and said in the reader's language."""
    stored = f"void of event 6 ({action.describe()}; wrong seat): returns 2 (takes the pot of 2)"
    assert reason_words("void", stored) == stored
    with use_catalogue(Pseudo()):
        assert not leaked(reason_words("void", stored).replace("wrong seat", "")), stored


#: A problem of each kind the ledger's checks compose from more than their fields, with the
#: fields its check gives: both sides of each choice the words make (a hand or none, one or more).
AT = datetime(2026, 12, 7, 21, 40, tzinfo=UTC)
COMPOSED = [
    ("out_of_sequence", {"seq": 7, "expected": 9}),
    ("out_of_sequence", {"seq": 9, "expected": 7}),
    ("figure", {"source": "A", "account": "B", "chips": 5, "hand": 3, "summed": 4}),
    ("figure", {"source": "A", "account": "B", "chips": 5, "hand": None, "summed": 4}),
    ("row_gone", {"link": 4, "kind": "event", "ref": 2, "hand": 3}),
    ("row_changed", {"link": 4, "kind": "event", "ref": 2, "hand": None}),
    ("file_changed", {"at": AT, "link": 4}),
    ("file_older", {"path": "/x", "at": AT, "link": 4, "missing": 1}),
    ("file_older", {"path": "/x", "at": AT, "link": 4, "missing": 3}),
    ("count_changed", {"at": AT, "link": 4, "kind": "entry", "then": 5, "found": 3}),
]


@pytest.mark.parametrize(("code", "fields"), COMPOSED)
def test_a_ledger_problem_made_of_more_than_its_fields_is_said_whole(
    code: str, fields: dict[str, object]
) -> None:
    """No English fragment is built beside the catalogue: in the pseudo-language only the
    fields (numbers, the times, a path, names given as they are) are left outside the marks."""

    class Problem:
        def __init__(self) -> None:
            self.code, self.fields = code, fields

    with use_catalogue(Pseudo()):
        words = problem_words(Problem())
    assert not leaked(words), words


def test_the_rows_and_fields_a_ledger_problem_names_are_said_in_the_readers_language() -> None:
    """What a person calls each linked row, each count of a checkpoint and each field a
    version keeps comes from the catalogue, not an English word put in a sentence."""
    with use_catalogue(Pseudo()):
        said = [row_noun(kind) for kind in ("entry", "event", "checkpoint")]
        said += [counted_words(kind) for kind in ("link", "entry", "version")]
        said += [identity_noun(kind, 4, first=True) for kind in IDENTITY_WORDS]
        said += [
            field_words(kind, field) for kind in IDENTITY_WORDS for field in IDENTITY_WORDS[kind]
        ]
    assert said and all(words.startswith("⟦") and not leaked(words) for words in said), said
