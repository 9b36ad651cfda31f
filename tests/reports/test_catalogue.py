"""Every word a document shows comes through the message catalogue: with a pseudo-language
that wraps each message in ⟦ ⟧, every document of the knobbed hand is printed, the wrapped
parts are taken out, and what is left holds no English word, only figures, punctuation,
cards, dates and the names the test itself gave (players, tables, users, a claim)."""

from __future__ import annotations

from flask import Flask

from dealer.words.catalogue import say, say_n, use_catalogue
from tests.helpers import Api
from tests.reports.evening import pdf_text
from tests.reports.test_no_codes import every_document
from tests.reports.test_routes import fetch
from tests.screens.test_no_codes import knobbed  # noqa: F401  (the fixture)
from tests.words.pseudo import WORD, Pseudo, leaked, left_over, not_extracted


def test_the_pseudo_language_wraps_messages_and_keeps_fields() -> None:
    with use_catalogue(Pseudo()):
        assert say("Page {page} of {pages}", page=1, pages=2) == "⟦Page 1 of 2⟧"
        assert say_n("{n} chip", "{n} chips", 3) == "⟦3 chips⟧"
    assert say("Page {page} of {pages}", page=1, pages=2) == "Page 1 of 2"


def test_left_over_finds_a_word_outside_a_message() -> None:
    assert leaked("⟦Seat 1 ⟦pays⟧\nthe pot⟧ 4 Ann ⟦Hand sl...") == []
    assert leaked("⟦entry 2: ⟦void of event 1 (⟦⟦valle...⟧") == []  # cut inside a message
    assert WORD.findall(left_over("⟦{x}..., but⟧ then")) == ["then"]  # an ellipsis inside one
    assert WORD.findall(left_over("⟦Seat⟧ 1 pays ⟦the pot⟧ ab3f" + "0" * 30)) == ["pays"]
    assert WORD.findall(left_over("⟦Seat⟧Total1234567 cafe⟦x⟧face")) == ["Total", "cafe", "face"]


def test_every_document_word_is_in_the_catalogue(
    people: Flask,
    knobbed: dict[str, int],  # noqa: F811
) -> None:
    floor = Api.sign_in(people, "supervisor")
    leaks = {}
    said = Pseudo()
    with use_catalogue(said):
        for path in every_document(floor, knobbed):
            text = pdf_text(fetch(floor, path).data)
            assert len(text) > 100 and "⟦" in text, path
            if found := leaked(text):
                leaks[path] = found
    assert not leaks, "English outside the catalogue:\n" + "\n".join(
        f"{path}:\n  " + "\n  ".join(words) for path, words in leaks.items()
    )
    assert not (missing := not_extracted(said)), "not extracted:\n" + "\n".join(missing)
