"""A party's name is put into a sentence as it is ("upuan 1 (Rosa)") and the finished sentence
starts with a capital: a language that opens the sentence with its verb ("Nagbayad ang upuan 1
...") reads no capital in the middle, and English still opens with "Seat 1 (Rosa) paid"."""

from __future__ import annotations

import re

from flask import Flask

from tests.screens.conftest import Web, words
from tests.views.test_statement_words import played
from tests.words.languages import speaking

#: A seat's word with a capital after a Filipino article or preposition: mid-sentence.
MID_SENTENCE = re.compile(r"\b(?:ang|ng|sa|kay) Upuan\b")


def pages(app: Flask) -> dict[str, str]:
    """The screens that put a party's name into a sentence, as words (a hand gone out by seat
    1, Rosa)."""
    floor, hand = played(app)
    going_out = floor.get(f"/hands/{hand}")["events"][-1]["id"]
    payment = f"/hands/{hand}/events/{going_out}/payments/1"
    screen = Web.sign_in(app, "supervisor")
    paths = {
        "statement": f"/hands/{hand}/seats/2/statement",
        "hand": f"/hands/{hand}",
        "payment": payment,
        "dispute": payment + "/dispute",
        "find": f"/payments?hand={hand}",
    }
    return {name: words(screen.get(path)) for name, path in paths.items()}


def test_a_sentence_starts_with_a_capital_and_a_name_in_it_keeps_its_own(app: Flask) -> None:
    with speaking("fil"):
        filipino = pages(app)
    for name, text in filipino.items():
        assert not MID_SENTENCE.findall(text), (name, MID_SENTENCE.findall(text))
    assert "Nagbayad ang upuan 2 (Bo) sa upuan 1 (Rosa)" in filipino["statement"]
    assert "Nagbabayad ang upuan" in filipino["payment"]
    assert "Nagbabayad ang upuan" in filipino["hand"]
    assert "Dispute: Nagbabayad ang upuan" in filipino["dispute"]
    assert "Nagbayad ang upuan" in filipino["find"]


def test_english_opens_with_the_partys_name_in_capitals(app: Flask) -> None:
    english = pages(app)
    assert "Seat 2 (Bo) paid seat 1 (Rosa)" in english["statement"]
    assert re.search(r"Dispute: Seat 2 \(Bo\) pays seat 1 \(Rosa\) \d+ chips?", english["dispute"])
    assert re.search(r"Seat 2 \(Bo\) pays seat 1 \(Rosa\) \d+ chips?", english["payment"])
    assert "Seat 2 (Bo) paid seat 1 (Rosa)" in english["find"]
