"""The language is chosen per context, not per process: each thread (a request, a document's
build) speaks its own, a context that chose none the floor's default; numbers and times are
written as the language writes them, and each language is named in its own words."""

from __future__ import annotations

import threading
from datetime import UTC, date, datetime

import pytest

from dealer.clock import Clock, zone
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
from dealer.words.times import day_words
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


def said_in(code: str, message: str, **fields: object) -> str:
    with speaking(code):
        return say(message, **fields)


def test_a_figure_a_message_groups_is_grouped_as_the_language_groups() -> None:
    """``{amount:,}`` in the English message and in a translation alike; a plain ``{id}``
    stays plain digits, a bool a bool."""
    message = "Hand {id}: {amount:,} chips, {variance:+,} from the count, pot {pot:,}, {late}."
    fields = {"id": 12000, "amount": 12000, "variance": -12000, "pot": 0, "late": True}
    assert {code: said_in(code, message, **fields) for code in ("es", "fil", "en")} == {
        "es": "Hand 12000: 12.000 chips, -12.000 from the count, pot 0, True.",
        "fil": "Hand 12000: 12,000 chips, -12,000 from the count, pot 0, True.",
        "en": "Hand 12000: 12,000 chips, -12,000 from the count, pot 0, True.",
    }
    assert said_in("es", "{n:+,}", n=12000) == "+12.000"


def test_times_are_written_as_the_language_writes_them() -> None:
    """English keeps the house's forms; Spanish and Filipino their own dates, 24-hour."""
    clock = Clock(zone("America/Los_Angeles"))
    at = datetime(2024, 5, 3, 21, 5, 9, tzinfo=UTC)  # 14:05:09 PDT
    styles = ("datetime", "minute", "short", "date", "time", "hour")
    written = {}
    for code in ("en", "es", "fil"):
        with speaking(code):
            written[code] = [clock.words(at, style) for style in styles]
            written[code].append(day_words(date(2024, 12, 25)))
    assert written == {
        "en": [
            "2024-05-03 14:05:09 PDT",
            "2024-05-03 14:05 PDT",
            "05-03 14:05",
            "2024-05-03",
            "14:05:09",
            "14:05",
            "2024-12-25",
        ],
        "es": [
            "3/5/2024, 14:05:09 -0700",
            "3/5/2024, 14:05 -0700",
            "3/5, 14:05",
            "3/5/2024",
            "14:05:09",
            "14:05",
            "25/12/2024",
        ],
        "fil": [
            "5/3/2024, 14:05:09 -0700",
            "5/3/2024, 14:05 -0700",
            "5/3, 14:05",
            "5/3/2024",
            "14:05:09",
            "14:05",
            "12/25/2024",
        ],
    }
    assert Clock(zone("Europe/Madrid")).words(at) == "2024-05-03 23:05:09 CEST"  # tzdata's
