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
from typing import Any
from zoneinfo import ZoneInfo

from dealer.bounds import MAX_CHIPS, PLAYER_NAME, SEATS
from dealer.clock import Clock
from dealer.errors import Invalid
from dealer.words.catalogue import say

__all__ = [
    "AROUND",
    "NUMBER_WORDS",
    "Question",
    "folded",
    "how_to_ask",
    "named",
    "query_from",
    "read_asked",
    "read_words",
]

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


#: Words a player says around what matters ("I got 16 chips for my set at table 1"): read past.
def named(wanted: str, names: Iterable[str]) -> set[str]:
    """The names that hold ``wanted`` (folded): as whole words when any do ("Bea T1" is Bea T1,
    not Bea T10), else anywhere ("ros" finds Rósa)."""
    said = folded(wanted)
    holding = {name for name in names if said in folded(name)}
    whole = re.compile(rf"(?<!\w){re.escape(said)}(?!\w)")
    return {name for name in holding if whole.search(folded(name))} or holding


# fmt: off
FILLER = frozenset([
    "i", "im", "i'm", "am", "me", "my", "mine", "she", "he", "her", "his", "they", "them", "we",
    "us", "you", "it", "its", "that", "this", "there", "was", "were", "is", "are", "be", "been",
    "have", "has", "had", "got", "get", "gets", "paid", "pay", "pays", "received", "won", "lost",
    "for", "the", "a", "an", "of", "on", "in", "to", "from", "by", "and", "with", "hand", "chips",
    "chip", "said", "says", "only", "just", "should", "set", "sets", "fives", "threes", "sevens",
    "run", "runs", "meld", "melds", "condition", "conditions", "going", "went", "out", "please",
])
# fmt: on
#: The parts a key names ("at" is "around").
KEYS = {
    "player": "player",
    "seat": "seat",
    "table": "table",
    "around": "around",
    "at": "around",
    "amount": "amount",
}
#: Numbers a player may say in words.
# fmt: off
NUMBER_WORDS = {word: n for n, word in enumerate([
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen",
    "nineteen", "twenty",
])}
# fmt: on
#: The example a refusal fills in with whatever was read.
EXAMPLE = {"player": "Rosa", "table": "1", "around": "21:40", "amount": "16"}
#: What a word may carry around it that is not the word.
_MARKS = ".?!:'\"()"


def how_to_ask(found: Mapping[str, str]) -> str:
    """How to ask, with an example built from the parts read so far (the rest made up)."""
    parts = {**EXAMPLE, **{k: v for k, v in found.items() if k in PARTS and v}}
    said = [f"seat {parts['seat']}"] if "seat" in parts else [parts["player"]]
    said += [f"table {parts['table']}", f"around {parts['around']}", f"{parts['amount']} chips"]
    return say(
        "Ask it the way the player says it, the parts apart with commas, for example: "
        '"{example}" (or seat 3 instead of a name).',
        example=", ".join(said),
    )


_TOKEN = re.compile(
    r"(?P<clock>\d{1,2}[:.h]\d{2}(?:\s*[ap]\.?m\.?)?)(?![\w:])"
    r"|(?P<number>\d+)(?:\s*(?P<chips>chips?)\b)?(?![\w])"
    r"|(?P<word>[^\s,;]+)"
    r"|(?P<stop>[,;])",
    re.IGNORECASE,
)


class _Reading:
    """A search in words read token by token: a key takes the value after it; a run of other
    words is the player's name (or, after "table", the table's); filler words are read past."""

    def __init__(self) -> None:
        self.found: dict[str, str] = {}
        self.pending: str | None = None  # a key waiting for its value
        self.run: list[str] | None = None  # the words of a name being read
        self.run_key = ""

    def refuse(self, part: str) -> Invalid:
        return Invalid(
            say('"{part}" is not something the search understands.', part=part[:40])
            + " "
            + how_to_ask(self.found),
            "invalid_query",
        )

    def put(self, key: str, value: str) -> None:
        if key in self.found:
            raise Invalid(
                say("Say the {part} once.", part=key) + " " + how_to_ask(self.found),
                "invalid_query",
            )
        self.found[key] = value
        self.pending = None

    def end_run(self) -> None:
        if self.run is not None:
            self.found[self.run_key] = " ".join(self.run)
        self.run = None

    def key(self, word: str) -> None:
        self.end_run()
        if self.pending == "around" and word != "around":
            self.pending = None  # "at table 7": "at" was the place, not a time
        if self.pending is not None:
            raise self.refuse(self.pending)
        if KEYS[word] in self.found:
            self.put(KEYS[word], "")
        self.pending = KEYS[word]

    def number(self, value: str, chips: bool, said: str) -> None:
        self.end_run()
        if self.pending in ("seat", "table", "amount") and not chips:
            self.put(self.pending, value)
        elif self.pending is None or (chips and self.pending == "amount"):
            self.put("amount", value)
        else:
            raise self.refuse(f"{self.pending} {said}")

    def clock(self, value: str) -> None:
        self.end_run()
        if self.pending not in (None, "around"):
            raise self.refuse(f"{self.pending} {value}")
        self.put("around", value)

    def word(self, raw: str) -> None:
        plain = raw.strip(_MARKS)
        word = plain.casefold()
        if not word:
            return
        if word in KEYS:
            self.key(word)
        elif word in NUMBER_WORDS and self.pending in (None, "seat", "table", "amount"):
            self.number(str(NUMBER_WORDS[word]), False, raw)
        elif word in FILLER and self.pending is None:
            self.end_run()
        elif self.run is not None:
            self.run.append(plain)
        elif self.pending in (None, "player", "table"):
            name = self.pending or "player"
            if name in self.found:
                raise self.refuse(raw)
            self.run, self.run_key, self.pending = [plain], name, None
        else:
            raise self.refuse(f"{self.pending} {raw}")

    def stop(self) -> None:
        self.end_run()
        if self.pending is not None:
            raise self.refuse(self.pending)


def read_words(text: str) -> dict[str, str]:
    """The parts of a search in words, said the way a player says them ("Rosa table 1 16
    chips", "player Rosa, table 4, around 21:40, 8 chips"): ``{"player": "Rosa", ...}``.
    A name needs no keyword: one run of words is the name; a second is refused with an
    example of how to ask, built from what was read."""
    if len(text) > LONGEST:
        raise Invalid(say("Say it in at most {n} characters.", n=LONGEST), "invalid_query")
    reading = _Reading()
    for token in _TOKEN.finditer(text):
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
