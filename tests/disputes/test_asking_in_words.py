"""dealer/disputes/asking.py through its own functions: a search put the way a player puts it,
read part by part, each part held to what it takes, and refused in words otherwise."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from dealer.clock import Clock
from dealer.disputes.asking import AROUND, LONGEST, folded, read_asked, read_words
from dealer.errors import Invalid
from dealer.words.catalogue import say
from tests.words.languages import SHIPPED, speaking

#: The floor's clock, and "now" on it: 22:00 in Los Angeles on 2026-12-06 (06:00 UTC).
CLOCK = Clock(ZoneInfo("America/Los_Angeles"))
NOW = datetime(2026, 12, 7, 6, 0, tzinfo=UTC)
SHIFT = NOW - timedelta(hours=8)


def refused(text: str) -> tuple[str, str]:
    with pytest.raises(Invalid) as error:
        read_asked({"q": text}, CLOCK, NOW, SHIFT)
    return str(error.value.code), error.value.message


def test_names_are_compared_without_case_or_accents() -> None:
    assert folded("  Rósa DÍAZ ") == "rosa diaz"
    assert folded("Straße") == "strasse"


def test_the_parts_of_a_search_in_words() -> None:
    assert read_words("player Rosa, table 4, around 21:40, 8 chips") == {
        "player": "Rosa",
        "table": "4",
        "around": "21:40",
        "amount": "8",
    }
    # Each part also said its other ways: "at" for around, a bare time, a bare amount, ";".
    assert read_words("Seat 3; at 9:40 pm;; 1 chip") == {
        "seat": "3",
        "around": "9:40 pm",
        "amount": "1",
    }
    assert read_words("21.40, amount 12 chips, player  Bo ") == {
        "around": "21.40",
        "amount": "12",
        "player": "Bo",
    }
    assert read_words("") == {}


def test_a_part_the_search_does_not_understand_is_refused_in_words() -> None:
    with pytest.raises(Invalid) as error:
        read_words("player Rosa, yesterday")
    assert error.value.code == "invalid_query"
    assert error.value.message.startswith('"yesterday" is not something the search understands.')
    assert 'parts apart with commas, for example: "Rosa, table 1' in error.value.message
    with pytest.raises(Invalid) as twice:
        read_words("table 4, Table 5")
    assert twice.value.message.startswith("Say the table once.")
    assert read_words("player " + "r" * (LONGEST - 7)) == {"player": "r" * (LONGEST - 7)}
    with pytest.raises(Invalid) as long:
        read_words("player " + "r" * (LONGEST - 6))
    assert long.value.message == f"Say it in at most {LONGEST} characters."


def test_what_to_look_for_this_shift_by_default() -> None:
    query = read_asked({"q": "player Rosa, table 4, 8 chips", "seat": ""}, CLOCK, NOW, SHIFT)
    assert (query.start, query.end) == (SHIFT, NOW)
    assert (query.player, query.table, query.amount, query.seat, query.near) == (
        "Rosa",
        "4",
        8,
        None,
        None,
    )
    # A part given in its own field stands over the same part said in words.
    query = read_asked({"q": "seat 2", "seat": " 5 ", "amount": 3}, CLOCK, NOW, SHIFT)
    assert (query.seat, query.amount) == (5, 3)
    assert read_asked({"table": "Table 9"}, CLOCK, NOW, SHIFT).table == "Table 9"


def test_a_search_must_say_what_to_look_for() -> None:
    for asked in ({}, {"q": " , "}, {"player": "  ", "other": "x"}):
        with pytest.raises(Invalid) as error:
            read_asked(asked, CLOCK, NOW, SHIFT)
        assert error.value.code == "no_scope"
        assert error.value.message.startswith("Say what to look for.")


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("seat 0", "seat"),
        ("seat 9", "seat"),
        ("seat twelve", "seat"),
        ("seat \uff13", "seat"),
        ("amount 0", "amount"),
        ("amount 1000001", "amount"),
    ],
)
def test_a_seat_or_an_amount_is_a_whole_number_in_its_range(text: str, word: str) -> None:
    code, message = refused(text)
    assert code == "invalid_query"
    assert message.startswith(f"The {word} is a whole number from")


def test_the_bounds_of_a_seat_and_an_amount_are_taken() -> None:
    assert read_asked({"q": "seat 1"}, CLOCK, NOW, SHIFT).seat == 1
    assert read_asked({"q": "seat 8"}, CLOCK, NOW, SHIFT).seat == 8
    assert read_asked({"q": "seat three"}, CLOCK, NOW, SHIFT).seat == 3  # as a player says it
    assert read_asked({"q": "1000000 chips"}, CLOCK, NOW, SHIFT).amount == 1_000_000
    assert refused("seat 9")[1] == "The seat is a whole number from 1 to 8, not '9'."


def test_a_player_is_part_of_a_name() -> None:
    assert read_asked({"player": "r" * 60}, CLOCK, NOW, SHIFT).player == "r" * 60
    for player in ("r" * 61, "\u0301"):
        with pytest.raises(Invalid) as error:
            read_asked({"player": player}, CLOCK, NOW, SHIFT)
        assert error.value.message == "A player is part of a name: 1 to 60 characters."


def local(hour: int, minute: int, days: int = 0) -> datetime:
    day = datetime(2026, 12, 6 + days, hour, minute, tzinfo=CLOCK.zone)
    return day.astimezone(UTC)


@pytest.mark.parametrize(
    ("said", "moment"),
    [
        ("21:40", local(21, 40)),
        ("9:40 pm", local(21, 40)),
        ("9.40 p.m.", local(21, 40)),
        ("12:05 am", local(0, 5)),
        ("12:05 pm", local(12, 5)),
        ("0h00", local(0, 0)),
        ("22:15", local(22, 15)),  # a quarter of an hour ahead is still today
        ("22:16", local(22, 16, days=-1)),  # later than that: the last time it read so
        ("23:59", local(23, 59, days=-1)),
    ],
)
def test_around_a_time_is_the_last_time_the_floors_clock_read_it(
    said: str, moment: datetime
) -> None:
    query = read_asked({"around": said}, CLOCK, NOW, SHIFT)
    assert query.near == (moment - AROUND, moment + AROUND)


@pytest.mark.parametrize("said", ["24:00", "23:60", "13:00 pm", "0:30 am", "noon"])
def test_a_time_the_clock_never_reads_is_refused(said: str) -> None:
    with pytest.raises(Invalid) as error:
        read_asked({"around": said}, CLOCK, NOW, SHIFT)
    assert error.value.code == "invalid_time"
    assert f'not "{said}"' in error.value.message


#: The parts of the search box's own example, as every language's catalogue words it.
EXAMPLE = {"player": "Rosa", "table": "4", "around": "21:40", "amount": "16"}


@pytest.mark.parametrize("language", SHIPPED)
def test_a_search_is_read_in_the_readers_language_and_in_english(language: str) -> None:
    with speaking(language):
        shown = say("Rosa, table 4, around 21:40, 16 chips")  # the search box's example
        assert shown != "Rosa, table 4, around 21:40, 16 chips"
        assert read_words(shown) == EXAMPLE
        assert read_words("Rosa, table 4, around 21:40, 16 chips") == EXAMPLE
        with pytest.raises(Invalid) as error:
            read_words("Rosa, 16, 17")
        # The example a refusal gives is read back as it was given.
        *_, given = re.findall(r'"([^"]*)"', error.value.message)
        assert read_words(given) == EXAMPLE | {"table": "1"}


def test_a_spanish_search_with_its_own_filler_numbers_and_refusals() -> None:
    with speaking("es"):
        assert read_words("Rosa en la mesa 4 a las 21:40, dieciséis fichas") == EXAMPLE
        assert read_words("asiento tres, hacia las 9:40 pm, cinco fichas") == {
            "seat": "3",
            "around": "9:40 pm",
            "amount": "5",
        }
        assert refused("asiento 12")[1] == "El asiento es un número entero de 1 a 8, no '12'."
        assert refused("mesa 4, mesa 5")[1].startswith("Indique la mesa una sola vez.")
        assert refused("asiento mesa")[1].startswith('"asiento" no es algo que la búsqueda')


def test_a_filipino_search_with_its_own_words() -> None:
    with speaking("fil"):
        assert read_words("upuan tatlo, bandang 21:40, labing-anim na chip") == {
            "seat": "3",
            "around": "21:40",
            "amount": "16",
        }
        assert read_words("manlalaro Rosa sa mesa 4, halaga 16") == {
            "player": "Rosa",
            "table": "4",
            "amount": "16",
        }
