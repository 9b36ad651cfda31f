"""What the dispute desk asks its one search (`dealer.disputes.search`): a `Question`, read
from a search's filters (`query_from`: a hand, a table session or a window, a seat, a player, an
amount, a rule) or put the way a player puts it (`read_asked`: "Rosa table 1 16 chips", "player
Rosa, table 4, around 21:40, 8 chips").

A question in words is read each part in its own words: a player's name
(part of it, any case, accents ignored; no keyword needed: one run of words that are not
filler is the name) or a seat, a table (its name, "4" for "Table 4"), an approximate time on
the floor's clock ("21:40" is around then: a quarter of an hour either way), and an amount. A
question the search cannot read (two names, a part twice, a key with nothing after it) is
refused with how to ask, an example built from the words it did read; nothing is guessed.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, time, timedelta
from functools import cache
from itertools import chain
from typing import Any
from zoneinfo import ZoneInfo

from dealer.bounds import MAX_CHIPS, PLAYER_NAME, SEATS
from dealer.clock import Clock
from dealer.errors import Invalid
from dealer.words.catalogue import say, say_in, say_later, say_of
from dealer.words.search import search_words

#: "Around 21:40" is this far either way.
AROUND = timedelta(minutes=15)
#: The parts a search in words takes, in the order a form shows them.
PARTS = ("player", "seat", "table", "around", "amount")
#: The longest search in words.
LONGEST = 200
#: The longest window a search's filters look in at once: a shift ledger's.
LONGEST_WINDOW = timedelta(days=31)
#: The payments a search answers at most, unless its filters say fewer (or more).
DEFAULT_LIMIT = 100


@dataclass(frozen=True, slots=True)
class Question:
    """What to look for; ``None`` is "any"."""

    hand: int | None = None
    session: int | None = None
    start: datetime | None = None
    end: datetime | None = None
    seat: int | None = None
    #: Part of a name (any case, accents ignored, whole words first: `named`).
    player: str | None = None
    #: A player record: every seating that belongs to it, whatever name it was seated under.
    player_id: int | None = None
    #: A table's name, or its number ("4" for "Table 4").
    table: str | None = None
    #: The window "around" a time names, in UTC.
    near: tuple[datetime, datetime] | None = None
    amount: int | None = None
    rule: str | None = None
    #: At most this many payments (`dealer.disputes.search.find_payments`).
    limit: int = DEFAULT_LIMIT


def query_from(asked: Mapping[str, Any], zone: ZoneInfo) -> Question:
    """The search as `dealer.inputs.PaymentSearch` read it; a time without a zone is the
    floor's (``zone``). Refuses a search with no hand, session or whole window to look in."""
    start, end = (_utc(asked.get(name), zone) for name in ("from", "to"))
    scoped = asked.get("hand") is not None or asked.get("session") is not None
    if not scoped and (start is None or end is None):
        raise Invalid(
            say("Say where to look: a hand, a table session, or a window of time (from and to)."),
            "no_scope",
        )
    if start is not None and end is not None:
        if start >= end:
            raise Invalid(
                say("The window must end after it starts (from before to)."), "empty_window"
            )
        if end - start > LONGEST_WINDOW:
            raise Invalid(
                say("Search at most {days} days at a time.", days=LONGEST_WINDOW.days),
                "window_too_long",
            )
    filters = ("hand", "session", "seat", "player", "player_id", "amount", "rule")
    return Question(
        start=start,
        end=end,
        limit=asked.get("limit") or DEFAULT_LIMIT,
        **{name: asked.get(name) for name in filters},
    )


def _utc(text: str | None, zone: ZoneInfo) -> datetime | None:
    if not text:
        return None
    moment = datetime.fromisoformat(text)
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=zone)
    return moment.astimezone(ZoneInfo("UTC"))


def folded(text: str) -> str:
    """``text`` as names are compared: any case, accents dropped ("Rosá" is "rosa")."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c)).strip()


def named(wanted: str, names: Iterable[str]) -> set[str]:
    """The names that hold ``wanted`` (folded): as whole words when any do ("Bea T1" is Bea T1,
    not Bea T10), else anywhere ("ros" finds Rósa)."""
    said = folded(wanted)
    holding = {name for name in names if said in folded(name)}
    whole = re.compile(rf"(?<!\w){re.escape(said)}(?!\w)")
    return {name for name in holding if whole.search(folded(name))} or holding


#: The example a refusal fills in with whatever was read.
EXAMPLE = {"player": "Rosa", "table": "1", "around": "21:40", "amount": "16"}
#: What a word may carry around it that is not the word.
_MARKS = ".?!:'\"()"


def how_to_ask(found: Mapping[str, str]) -> str:
    """How to ask, with an example built from the parts read so far (the rest made up)."""
    parts = {**EXAMPLE, **{k: v for k, v in found.items() if k in PARTS and v}}
    context = "a part of a search in words"
    said = [
        say_in(context, "seat {seat}", seat=parts["seat"]) if "seat" in parts else parts["player"],
        say_in(context, "table {table}", table=parts["table"]),
        say_in(context, "around {time}", time=parts["around"]),
        say_in(context, "{amount} chips", amount=parts["amount"]),
    ]
    return say(
        "Ask it the way the player says it, the parts apart with commas, for example: "
        '"{example}" (or seat 3 instead of a name).',
        example=", ".join(said),
    )


#: A seat or an amount that is not a whole number in its range.
WHOLE = {
    "seat": say_later("The seat is a whole number from {low} to {high}, not {text!r}."),
    "amount": say_later("The amount is a whole number from {low} to {high}, not {text!r}."),
}
#: Each part said twice ("table 4, table 5").
ONCE = {
    "player": say_later("Say the player once."),
    "seat": say_later("Say the seat once."),
    "table": say_later("Say the table once."),
    "around": say_later("Say the around once."),
    "amount": say_later("Say the amount once."),
}


class _Words:
    """The words a search is read by, in English and the reader's language, folded."""

    def __init__(self) -> None:
        said = search_words()
        self.keys = {folded(w): part for part, ws in said.keys.items() for w in chain(*ws)}
        self.english = {folded(w) for english, _ in said.keys.values() for w in english}
        self.filler = frozenset(folded(w) for w in said.filler)
        self.numbers = {folded(w): n for w, n in said.numbers.items()}
        chips = {w.casefold() for w in said.chips} | {folded(w) for w in said.chips}
        self.token = _token(tuple(sorted(chips, key=len, reverse=True)))


@cache
def _token(chips: tuple[str, ...]) -> re.Pattern[str]:
    """A search's tokens, an amount followed by one of ``chips`` ("16 fichas") taken whole."""
    return re.compile(
        r"(?P<clock>\d{1,2}[:.h]\d{2}(?:\s*[ap]\.?m\.?)?)(?![\w:])"
        rf"|(?P<number>\d+)(?:\s*(?P<chips>{'|'.join(map(re.escape, chips))})\b)?(?![\w])"
        r"|(?P<word>[^\s,;]+)"
        r"|(?P<stop>[,;])",
        re.IGNORECASE,
    )


class _Reading:
    """A search in words read token by token: a key takes the value after it; a run of other
    words is the player's name (or, after "table", the table's); filler words are read past."""

    def __init__(self) -> None:
        self.words = _Words()
        self.found: dict[str, str] = {}
        self.pending: str | None = None  # a key waiting for its value
        self.keyword = ""  # the key as it was said
        self.run: list[str] | None = None  # the words of a name being read
        self.run_key = ""

    def said_key(self) -> str:
        """The key waiting, in the words it was said in (English's by its part's name)."""
        return str(self.pending) if self.keyword in self.words.english else self.keyword

    def refuse(self, part: str) -> Invalid:
        return Invalid(
            say('"{part}" is not something the search understands.', part=part[:40])
            + " "
            + how_to_ask(self.found),
            "invalid_query",
        )

    def put(self, key: str, value: str) -> None:
        if key in self.found:
            raise Invalid(say_of(ONCE, key) + " " + how_to_ask(self.found), "invalid_query")
        self.found[key] = value
        self.pending = None

    def end_run(self) -> None:
        if self.run is not None:
            self.found[self.run_key] = " ".join(self.run)
        self.run = None

    def key(self, word: str) -> None:
        self.end_run()
        part = self.words.keys[word]
        if self.pending == "around" and part != "around":
            self.pending = None  # "at table 7": "at" was the place, not a time
        if self.pending is not None:
            raise self.refuse(self.said_key())
        if part in self.found:
            self.put(part, "")
        self.pending, self.keyword = part, word

    def number(self, value: str, chips: bool, said: str) -> None:
        self.end_run()
        if self.pending in ("seat", "table", "amount") and not chips:
            self.put(self.pending, value)
        elif self.pending is None or (chips and self.pending == "amount"):
            self.put("amount", value)
        else:
            raise self.refuse(f"{self.said_key()} {said}")

    def clock(self, value: str) -> None:
        self.end_run()
        if self.pending not in (None, "around"):
            raise self.refuse(f"{self.said_key()} {value}")
        self.put("around", value)

    def word(self, raw: str) -> None:
        plain = raw.strip(_MARKS)
        word = folded(plain)
        if not word:
            return
        if word in self.words.keys:
            self.key(word)
        elif word in self.words.numbers and self.pending in (None, "seat", "table", "amount"):
            self.number(str(self.words.numbers[word]), False, raw)
        elif word in self.words.filler and self.pending in (None, "around"):
            self.end_run()  # "a las 21:40", "at the table"
        elif self.run is not None:
            self.run.append(plain)
        elif self.pending in (None, "player", "table"):
            name = self.pending or "player"
            if name in self.found:
                raise self.refuse(raw)
            self.run, self.run_key, self.pending = [plain], name, None
        else:
            raise self.refuse(f"{self.said_key()} {raw}")

    def stop(self) -> None:
        self.end_run()
        if self.pending is not None:
            raise self.refuse(self.said_key())


def read_words(text: str) -> dict[str, str]:
    """The parts of a search in words, said the way a player says them ("Rosa table 1 16
    chips", "player Rosa, table 4, around 21:40, 8 chips"; "Rosa, mesa 4, hacia 21:40, 16
    fichas" too when the reader's language says them so): ``{"player": "Rosa", ...}``.
    A name needs no keyword: one run of words is the name; a second is refused with an
    example of how to ask, built from what was read."""
    if len(text) > LONGEST:
        raise Invalid(say("Say it in at most {n} characters.", n=LONGEST), "invalid_query")
    reading = _Reading()
    for token in reading.words.token.finditer(text):
        if token["clock"]:
            reading.clock(token["clock"])
        elif token["number"]:
            reading.number(token["number"], bool(token["chips"]), token.group(0))
        elif token["word"]:
            reading.word(token["word"])
        else:
            reading.stop()
    reading.stop()
    return reading.found


def read_asked(
    asked: Mapping[str, object], clock: Clock, now: datetime, shift_start: datetime
) -> Question:
    """What to look for, from the parts given (each as typed); this shift when no window is
    given. Refuses, in words, a part it cannot read."""
    given = {k: str(v).strip() for k, v in asked.items() if v and str(v).strip()}
    if "q" in given:
        said = read_words(given.pop("q"))
        for key, value in said.items():
            given.setdefault(key, value)
    if not any(given.get(k) for k in PARTS):
        raise Invalid(say("Say what to look for.") + " " + how_to_ask(given), "no_scope")
    player = given.get("player")
    if player is not None and (len(player) > PLAYER_NAME or not folded(player)):
        raise Invalid(
            say("A player is part of a name: 1 to {n} characters.", n=PLAYER_NAME),
            "invalid_query",
        )
    return Question(
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
    raise Invalid(say_of(WHOLE, name).format(low=low, high=high, text=text[:20]), "invalid_query")


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
