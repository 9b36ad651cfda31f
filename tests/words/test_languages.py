"""The language is chosen per context, not per process: each thread (a request, a document's
build) speaks its own, a context that chose none the floor's default; numbers are written as
the language writes them, and each language is named in its own words."""

from __future__ import annotations

import threading

import pytest

from dealer.words.catalogue import (
    language,
    language_name,
    languages,
    say,
    say_n,
    speaking,
    use_language,
)
from dealer.words.numbers import chips_words, money_words
from tests.words.small_catalogues import small_catalogues  # noqa: F401  (the fixture)

pytestmark = pytest.mark.usefixtures("small_catalogues")


def test_the_languages_shipped_are_english_and_each_compiled() -> None:
    assert languages() == ["en", "es", "fil"]


def test_each_language_is_named_in_its_own_words() -> None:
    assert [language_name(code) for code in ("es", "fil", "en")] == [
        "Español",
        "Filipino",
        "English",
    ]


def test_two_threads_speak_two_languages_at_once() -> None:
    """Both threads are inside their language together (the barrier), each says its own."""
    both_inside = threading.Barrier(2)
    heard: dict[str, str] = {}

    def speak(code: str) -> None:
        with speaking(code):
            both_inside.wait()
            heard[code] = say("Sign out")

    threads = [threading.Thread(target=speak, args=(code,)) for code in ("es", "fil")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert heard == {"es": "Cerrar sesión", "fil": "Mag-sign out"}
    assert say("Sign out") == "Sign out"  # this thread chose none: the floor's default


def test_a_context_that_chose_none_speaks_the_floors_default() -> None:
    try:
        use_language("es")
        assert (language(), say("Pot")) == ("es", "Bote")
        with speaking("fil"):
            assert (language(), say("Pot")) == ("fil", "Pusta")
            with speaking(None):  # nobody chose: the language spoken stays
                assert language() == "fil"
        assert language() == "es"
    finally:
        use_language("en")


def test_plurals_and_numbers_are_the_languages() -> None:
    with speaking("es"):
        assert chips_words(12000) == "12.000 fichas"
        assert say_n("{count} chip", "{count} chips", 1, count="1") == "1 ficha"
        assert money_words(123450) == "$1.234,50"
    assert chips_words(12000) == "12,000 chips"
    assert money_words(-123450) == "-$1,234.50"
    assert money_words(2300, signed=True) == "+$23.00"
