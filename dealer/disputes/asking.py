"""A search put the way a player puts it: "player Rosa, table 4, around 21:40, 8 chips".

Read here into what to look for (`SeatQuery`), each part in its own words: a player's name
(part of it, any case, accents ignored) or a seat, a table (its name, "4" for "Table 4"), an
approximate time on the floor's clock ("21:40" is around then: a quarter of an hour either
way), and an amount. A part the search does not understand is refused with a sentence that
says what it takes; nothing is guessed.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, time, timedelta

from dealer.bounds import MAX_CHIPS, PLAYER_NAME, SEATS
from dealer.clock import Clock
from dealer.errors import Invalid
from dealer.words.catalogue import say

__all__ = ["AROUND", "SeatQuery", "folded", "read_asked", "read_words"]

#: "Around 21:40" is this far either way.
AROUND = timedelta(minutes=15)
#: The parts a search in words takes, in the order a form shows them.
PARTS = ("player", "seat", "table", "around", "amount")
#: The longest search in words.
LONGEST = 200


@dataclass(frozen=True, slots=True)
class SeatQuery:
    """What a player asked about; ``None`` is "any"."""

    start: datetime
    end: datetime
    player: str | None = None
    seat: int | None = None
    table: str | None = None
    #: The window "around" a time names, in UTC.
    near: tuple[datetime, datetime] | None = None
    amount: int | None = None


def folded(text: str) -> str:
    """``text`` as names are compared: any case, accents dropped ("Rosá" is "rosa")."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c)).strip()


def _hint() -> str:
    return say(
        'Say it as the player does, parts apart with commas: "player Rosa, table 4, around '
        '21:40, 8 chips" (or seat 3 instead of a player).'
    )


_PART = re.compile(
    r"^(?:(?P<key>player|seat|table|around|at|amount)\s+(?P<value>.+)"
    r"|(?P<chips>\d+)\s*(?:chips?)?"
    r"|(?P<clock>\d{1,2}[:.h]\d{2}\s*(?:[ap]\.?m\.?)?))$",
    re.IGNORECASE,
)


def read_words(text: str) -> dict[str, str]:
    """The parts of a search in words: ``{"player": "Rosa", "table": "4", ...}``."""
    if len(text) > LONGEST:
        raise Invalid(say("Say it in at most {n} characters.", n=LONGEST), "invalid_query")
    out: dict[str, str] = {}
    for part in (p.strip() for p in re.split(r"[,;]", text)):
        if not part:
            continue
        found = _PART.match(part)
        if found is None:
            raise Invalid(
                say('"{part}" is not something the search understands.', part=part) + " " + _hint(),
                "invalid_query",
            )
        key = (found["key"] or "").lower()
        key = "around" if key == "at" else key
        value = found["value"]
        if found["chips"]:
            key, value = "amount", found["chips"]
        elif found["clock"]:
            key, value = "around", found["clock"]
        value = re.sub(r"\s+chips?$", "", value.strip(), flags=re.IGNORECASE)
        if key in out:
            raise Invalid(say("Say the {part} once.", part=key) + " " + _hint(), "invalid_query")
        out[key] = value
    return out


def read_asked(
    asked: Mapping[str, object], clock: Clock, now: datetime, shift_start: datetime
) -> SeatQuery:
    """What to look for, from the parts given (each as typed); this shift when no window is
    given. Refuses, in words, a part it cannot read."""
    given = {k: str(v).strip() for k, v in asked.items() if v and str(v).strip()}
    if "q" in given:
        said = read_words(given.pop("q"))
        for key, value in said.items():
            given.setdefault(key, value)
    if not any(given.get(k) for k in PARTS):
        raise Invalid(say("Say what to look for.") + " " + _hint(), "no_scope")
    player = given.get("player")
    if player is not None and (len(player) > PLAYER_NAME or not folded(player)):
        raise Invalid(
            say("A player is part of a name: 1 to {n} characters.", n=PLAYER_NAME),
            "invalid_query",
        )
    return SeatQuery(
        start=shift_start,
        end=now,
        player=player,
        seat=_whole(given.get("seat"), SEATS, "seat"),
        table=given.get("table"),
        near=_near(given.get("around"), clock, now),
        amount=_whole(given.get("amount"), (1, MAX_CHIPS), "amount"),
    )


def _whole(text: str | None, bounds: tuple[int, int], name: str) -> int | None:
    if text is None:
        return None
    low, high = bounds
    if text.isascii() and text.isdigit() and low <= int(text) <= high:
        return int(text)
    raise Invalid(
        say(
            "The {name} is a whole number from {low} to {high}, not {text!r}.",
            name=name,
            low=low,
            high=high,
            text=text[:20],
        ),
        "invalid_query",
    )


_CLOCK = re.compile(r"^(\d{1,2})[:.h](\d{2})\s*(?:([ap])\.?m\.?)?$", re.IGNORECASE)


def _near(text: str | None, clock: Clock, now: datetime) -> tuple[datetime, datetime] | None:
    """The window around the last time the floor's clock read ``text`` ("21:40", "9:40 pm")."""
    if text is None:
        return None
    found = _CLOCK.match(text)
    hour, minute = (int(found[1]), int(found[2])) if found else (99, 99)
    if found and found[3]:
        pm = found[3].lower() == "p"
        hour = hour % 12 + (12 if pm else 0) if 1 <= hour <= 12 else 99
    if not (0 <= hour <= 23 and 0 <= minute <= 59):
        raise Invalid(
            say(
                "A time is the floor clock's hour and minute, such as 21:40 or 9:40 pm, "
                'not "{text}".',
                text=text[:20],
            ),
            "invalid_time",
        )
    here = clock.local(now)
    moment = datetime.combine(here.date(), time(hour, minute), tzinfo=clock.zone)
    if moment - AROUND > here:
        moment -= timedelta(days=1)
    moment = moment.astimezone(UTC)
    return moment - AROUND, moment + AROUND
