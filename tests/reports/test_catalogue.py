"""Every word a document shows comes through the message catalogue: with a pseudo-language
that wraps each message in ⟦ ⟧, every document of the knobbed hand is printed, the wrapped
parts are taken out, and what is left holds no English word, only figures, punctuation,
cards, dates and the names the test itself gave (players, tables, users, a claim)."""

from __future__ import annotations

import gettext
import re

from flask import Flask

from dealer.words.catalogue import say, say_n, use_catalogue
from tests.helpers import PEOPLE, Api
from tests.reports.evening import pdf_text
from tests.reports.test_no_codes import every_document
from tests.reports.test_routes import fetch
from tests.screens.test_no_codes import knobbed  # noqa: F401  (the fixture)

#: What the test's own world is called: it was typed in, not written by the documents.
NAMES = ("Table 1", "Table 2", "Ann", "Count again.", "wrong seat", "UTC")
NAMES += tuple(name for name, _ in PEOPLE.values())
#: A message, innermost first (a message's field may hold another message).
WRAPPED = re.compile(r"⟦[^⟦⟧]*⟧")
#: A message cut short by a clipped label or header: from its opening to the ellipsis.
CLIPPED = re.compile(r"⟦[^⟦⟧]*?\.\.\.")
#: A hash, a key or a signature in hex (or a piece of one, wrapped in its cell): eight or
#: more hex digits, at least one of them a figure.
DIGEST = re.compile(r"(?<![0-9A-Za-z])(?=[0-9a-f]*[0-9])[0-9a-f]{8,}(?![0-9A-Za-z])")
WORD = re.compile(r"[A-Za-z]{2,}")


class Pseudo(gettext.NullTranslations):
    """A language in which every message is its English source in ⟦ ⟧, fields kept."""

    def gettext(self, message: str) -> str:
        return f"⟦{message}⟧"

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return f"⟦{msgid1 if n == 1 else msgid2}⟧"


def left_over(text: str) -> str:
    """``text`` without its messages, the test's names and any digest, on one line."""
    while True:
        unwrapped = CLIPPED.sub(" ", WRAPPED.sub(" ", text))
        if unwrapped == text:
            break
        text = unwrapped
    text = " ".join(text.split())
    for name in NAMES:
        text = re.sub(rf"(?<!\w){re.escape(name)}(?!\w)", " ", text)
    return DIGEST.sub(" ", text)


def leaked(text: str) -> list[str]:
    """Each English word left over in ``text``, with what is around it."""
    rest = left_over(text)
    return [
        f"{m.group()!r} in {rest[max(0, m.start() - 25) : m.end() + 25]!r}"
        for m in WORD.finditer(rest)
    ]


def test_the_pseudo_language_wraps_messages_and_keeps_fields() -> None:
    with use_catalogue(Pseudo()):
        assert say("Page {page} of {pages}", page=1, pages=2) == "⟦Page 1 of 2⟧"
        assert say_n("{n} chip", "{n} chips", 3) == "⟦3 chips⟧"
    assert say("Page {page} of {pages}", page=1, pages=2) == "Page 1 of 2"


def test_left_over_finds_a_word_outside_a_message() -> None:
    assert leaked("⟦Seat 1 ⟦pays⟧\nthe pot⟧ 4 Ann ⟦Hand sl...") == []
    assert WORD.findall(left_over("⟦Seat⟧ 1 pays ⟦the pot⟧ ab3f" + "0" * 30)) == ["pays"]
    assert WORD.findall(left_over("⟦Seat⟧Total1234567 cafe⟦x⟧face")) == ["Total", "cafe", "face"]


def test_every_document_word_is_in_the_catalogue(
    people: Flask,
    knobbed: dict[str, int],  # noqa: F811
) -> None:
    floor = Api.sign_in(people, "supervisor")
    leaks = {}
    with use_catalogue(Pseudo()):
        for path in every_document(floor, knobbed):
            text = pdf_text(fetch(floor, path).data)
            assert len(text) > 100 and "⟦" in text, path
            if found := leaked(text):
                leaks[path] = found
    assert not leaks, "English outside the catalogue:\n" + "\n".join(
        f"{path}:\n  " + "\n  ".join(words) for path, words in leaks.items()
    )
