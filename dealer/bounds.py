"""Every bound on what a person may enter, declared once.

The API's request models (`dealer.inputs`, which the OpenAPI document is made from), the
screens' forms and the services all read these; the rules engine declares its own
(knobs, collections) and they are taken from it here, never restated.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable, Mapping
from functools import cache, lru_cache
from typing import TypeVar

from dealer import rules
from dealer.errors import Conflict, Invalid
from dealer.words import inputs as said
from dealer.words.catalogue import say

#: The seats around a Pan table.
SEATS = (1, 8)
#: The most chips one entry may move: far above any real stack, far below any overflow.
MAX_CHIPS = 1_000_000
#: A table's money limits when the floor sets none (each table keeps its own, changed by a
#: supervisor): a buy-in of at least 1 chip and at most 2,000, and a supervisor's name and PIN
#: for any buy-in or cash-out above 1,000. The floor sets a table's minimum to its stakes.
MIN_BUY_IN = 1
MAX_BUY_IN = 2_000
APPROVAL_ABOVE = 1_000
#: What any of those limits may be set to, in chips.
BUY_IN_CHIPS = (1, MAX_CHIPS)
#: The largest id a row can have (a signed 32-bit integer): anything larger names nothing.
MAX_ID = 2**31 - 1
#: The longest names, in characters.
PLAYER_NAME = 60
TABLE_NAME = 100
USER_NAME = 60
#: A PIN is this many digits.
PIN_DIGITS = (4, 8)
#: What one chip is worth, in cents.
CHIP_VALUE_CENTS = (0, 10_000_000)
#: The longest reason for a void, and the longest list of cards typed into one field.
REASON = 500
CARDS_TEXT = 400
#: A dispute's claim and a ruling's reason, as the floor words them.
CLAIM = 500
RULING_REASON = 500
#: A player's card number (the card room's own), the notes kept on a player, and the most
#: players one search answers with (search as you type: the first few are enough).
CARD_NUMBER = 30
PLAYER_NOTES = 500
PLAYER_SEARCH = 20
#: The most ledger entries one page of the API's ledger holds.
LEDGER_PAGE = (1, 10_000)
#: The fewest and most hands one page of a table's hands holds.
HANDS_PAGE = (1, 200)
#: The most payments one search answers with.
SEARCH_PAGE = (1, 500)
#: The longest idempotency key kept (`dealer.web.once`).
IDEMPOTENCY_KEY = 255

#: Live screens (dealer.screens.live): an open screen's ask is held up to LIVE_HOLD_S
#: seconds until what it shows changes; the server reads the marks it holds asks for every
#: LIVE_READ_MS; a screen asks again at most every LIVE_EVERY_MS (when an ask could not be
#: held). So a change shows within 2 s (issue 14), and 200 idle screens cost a few asks a
#: second (bench/live.py measures both). The most things (scopes) one screen may ask about.
LIVE_HOLD_S = 20
LIVE_READ_MS = 250
LIVE_EVERY_MS = 1000
LIVE_SCOPES = 4
#: The rules engine's own: how a card is written, every whole-number knob, and each
#: collection's settings.
CARD_PATTERN = rules.CARD_PATTERN
KNOB_BOUNDS: Mapping[str, tuple[int, int]] = rules.KNOB_BOUNDS
COLLECTION_FIELDS: Mapping[str, Mapping[str, tuple[int, int]]] = rules.COLLECTION_FIELDS


Choice = TypeVar("Choice", bound=str)


def check_one_of(
    value: object, choices: tuple[Choice, ...], refused: Callable[[], str], code: str = "invalid"
) -> Choice:
    """``value`` if it is one of ``choices``; else refused in ``refused()``'s words (said when
    refused, so in the language of that moment), with ``code``."""
    if value not in choices:
        raise Invalid(refused(), code)
    return choices[choices.index(value)]


def check_whole(value: object, bounds: tuple[int, int], what: str, field: str = "") -> int:
    """``value`` as a whole number within ``bounds``, or the sentence saying why not (the
    field's words, ``what``: the form shows it beside ``field``, the API with its code)."""
    low, high = bounds
    if value is None or value == "":
        raise Invalid(said.enter(what))
    if isinstance(value, bool) or not isinstance(value, int):
        raise Invalid(said.not_whole(what))
    if not low <= value <= high:
        raise Invalid(said.out_of_bounds(what, low, high))
    return value


#: Characters that change how text around them is shown without being seen themselves: the
#: bidirectional embeddings, overrides and isolates (U+202E makes "Ann" read backwards on a
#: slip), and the marks that steer them.
BIDI_CONTROLS = frozenset(
    "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
)
#: Unicode categories no name or reason holds: control characters (NUL, BEL, ESC, ...),
#: surrogates, and line or paragraph separators.
UNPRINTABLE = frozenset({"Cc", "Cs", "Zl", "Zp"})
PLAIN_TEXT_WORDS = said.PLAIN_TEXT
#: The same, as a JSON Schema pattern's character class (the OpenAPI document's words).
NOT_PLAIN_CLASS = (
    "\\x00-\\x1f\\x7f-\\x9f\\u061c\\u200e\\u200f\\u202a-\\u202e\\u2028\\u2029\\u2066-\\u2069"
)


def is_plain(text: str) -> bool:
    """Whether ``text`` holds only characters that print as themselves: the one check of the
    API and the forms alike (`check_text`, `dealer.people.users.check_name`, which the
    declarations of `dealer.inputs` judge with)."""
    return not any(ch in BIDI_CONTROLS or unicodedata.category(ch) in UNPRINTABLE for ch in text)


#: Characters that show nothing where they stand, beyond the format characters (Unicode
#: category Cf: the zero-width space U+200B, the byte-order mark U+FEFF, the soft hyphen U+00AD,
#: the joiners, the word joiner, the tags ...): the combining grapheme joiner, the variation
#: selectors, the Hangul and Khmer fillers, the blank Braille pattern. "super1" followed by one
#: of these looks exactly like super1 on every screen and slip.
INVISIBLE = frozenset(
    "\u034f\u115f\u1160\u17b4\u17b5\u180b\u180c\u180d\u180f\u2800\u3164\uffa0"
    + "".join(chr(c) for c in range(0xFE00, 0xFE10))
    + "".join(chr(c) for c in range(0xE0100, 0xE01F0))
)


def invisible_words() -> str:
    """What a name holding a character that shows nothing hears."""
    return say(
        "A name cannot hold a character that shows nothing (a zero-width space, a soft hyphen, "
        "a joiner ...): type it again with letters, digits and punctuation only."
    )


def is_visible_name(text: str) -> bool:
    """Whether every character of the name ``text`` shows: none of category Cf (format
    characters, the bidi controls among them) and none of `INVISIBLE`. Two names that look
    alike on a screen are then the same characters, but for letters that look alike."""
    return not any(ch in INVISIBLE or unicodedata.category(ch) == "Cf" for ch in text)


def check_name_text(value: object, longest: int, what: str, field: str = "") -> str:
    """A name (a table's, a player's, a tablet's): `check_text`, and every character shows
    (`is_visible_name`)."""
    name = check_text(value, longest, what, field)
    if not is_visible_name(name):
        raise Invalid(invisible_words(), "unprintable_text")
    return name


def check_text(value: object, longest: int, what: str, field: str = "") -> str:
    """``value`` as non-blank, plain text of at most ``longest`` characters, trimmed."""
    if value is None or (isinstance(value, str) and not value.strip()):
        raise Invalid(said.enter(what))
    if not isinstance(value, str):
        raise Invalid(said.not_text(what))
    if len(value) > longest:
        raise Invalid(said.too_long(what, longest))
    if not is_plain(value):
        raise Invalid(said.not_plain(what), "unprintable_text")
    return value.strip()


#: A mark that confusables.txt's comments put around right-to-left letters; no part of them.
_LEFT_TO_RIGHT = "\u200e"


@cache
def _prototypes() -> dict[str, str]:
    """Each character that passes for another, mapped to what it passes for: Unicode's
    confusables (UTS #39), as the `confusable_homoglyphs` package ships them.

    The package keeps each line of confusables.txt both ways: a character that passes for
    another lists that one alone, and the one it passes for lists every character that does
    (Cyrillic U+0430 lists "a"; "a" lists U+0430, Greek alpha ...). Where two characters list
    only each other, either may stand for both: the first in code point order does.
    """
    from confusable_homoglyphs.confusables import confusables_data

    listed = {
        key.replace(_LEFT_TO_RIGHT, ""): [e["c"].replace(_LEFT_TO_RIGHT, "") for e in entries]
        for key, entries in confusables_data.items()
    }
    table: dict[str, str] = {}
    for source, targets in listed.items():
        if len(source) != 1 or len(targets) != 1:
            continue  # what several characters pass for: it stays itself
        target = targets[0]
        if listed.get(target) == [source] and len(target) == 1:
            if source > target:
                table[source] = target
        else:
            table[source] = target
    return table


def _folded(text: str) -> str:
    return unicodedata.normalize("NFD", text.casefold())


@lru_cache(maxsize=65536)
def skeleton(name: str) -> str:
    """What ``name`` looks like to a person: two names with one skeleton read alike on a
    screen, a slip or the audit trail. The one comparison of names, for users, tables, tablets
    and players alike.

    Compatibility forms are their plain letters (Sam in full-width letters is Sam: NFKC), case
    is one letter (SAM is Sam), a run of spaces is one space and the ends are trimmed, and each
    character that passes for another in Unicode's confusables is that other (Cyrillic U+0430
    and U+0405 are a and S; "m" is "rn"; "0" is "O"): UTS #39's skeleton of the case-folded name.
    A capital I standing for a small l is the one look-alike left out: with case one letter,
    "Ali" and "All" would be one name.
    """
    table = _prototypes()
    text = _folded(" ".join(unicodedata.normalize("NFKC", name).split()))
    for _ in range(3):  # a character mapped may fold to one that maps again ("0" -> "O" -> "o")
        mapped = _folded("".join(table.get(ch, ch) for ch in text))
        if mapped == text:
            break
        text = mapped
    return text


def lookalike(name: str, names: Iterable[str]) -> str | None:
    """The first of ``names`` that looks like ``name`` (`skeleton`), None when none does."""
    seen = skeleton(name)
    return next((other for other in names if skeleton(other) == seen), None)


def refuse_lookalike(name: str, names: Iterable[str], kind: str, code: str) -> None:
    """Refuse ``name``, a ``kind`` of name (``user``, ``table``, ``tablet``), with ``code``
    (409) when it reads as one of ``names``: the sentence names the one it reads as."""
    other = lookalike(name, names)
    if other is not None:
        raise Conflict(said.name_taken(kind, name, other), code)
