"""What a request gives besides its body: query parameters and headers."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Annotated, Any, NotRequired
from zoneinfo import ZoneInfo

from pydantic import Field
from pydantic_core import core_schema
from typing_extensions import TypedDict

from dealer.bounds import (
    HANDS_PAGE,
    IDEMPOTENCY_KEY,
    LEDGER_PAGE,
    MAX_CHIPS,
    MAX_ID,
    PLAYER_NAME,
    SEARCH_PAGE,
    SEATS,
)
from dealer.errors import Invalid
from dealer.inputs.windows import DATE_TIME, MOMENT, Moment
from dealer.inputs.words import Words, one_of
from dealer.words import rules as rulebook
from dealer.words.catalogue import say

__all__ = [
    "KEY_WORDS",
    "DisputeFilter",
    "HandsPage",
    "LedgerPage",
    "PaymentSearch",
    "PlayerSearch",
    "ReplayAt",
    "SeatSearch",
    "ShiftHandsPage",
    "ShiftWindow",
    "SlipPaper",
    "WriteHeaders",
    "read_window",
]


def _number(bounds: tuple[int, int], description: str) -> Words:
    """A query parameter holding a whole number within ``bounds``, in ASCII digits, described
    by ``description``."""
    low, high = bounds

    def judge(value: Any, field: str, _given: Mapping[str, Any]) -> int:
        if (
            isinstance(value, str)
            and value.isascii()
            and value.isdigit()
            and low <= int(value) <= high
        ):
            return int(value)
        raise Invalid(
            say(
                "{field} must be a whole number from {low} to {high}.",
                field=field,
                low=low,
                high=high,
            ),
            "invalid_query",
        )

    return Words(
        judge, inner=core_schema.int_schema(ge=low, le=high), also={"description": description}
    )


def _id(description: str) -> Words:
    """A query parameter holding a row's id."""
    return _number((1, MAX_ID), description)


class LedgerPage(TypedDict, total=False):
    """A page of a table's ledger: all of it, or ``limit`` entries after seq ``after``."""

    after: Annotated[int, _number((0, MAX_ID), "Only entries with a greater seq.")]
    limit: Annotated[int, _number(LEDGER_PAGE, "At most this many entries.")]


#: A page of hands after the last: the next page's hands are older than its oldest.
_BEFORE = _id("Only hands with a smaller id (the last page's next).")


class HandsPage(TypedDict, total=False):
    """A page of a table's hands, the newest first: ``limit`` of them older than ``before``."""

    before: Annotated[int, _BEFORE]
    limit: Annotated[int, _number(HANDS_PAGE, "At most this many hands (25 unless told).")]


class ReplayAt(TypedDict, total=False):
    """Which step of a hand's replay: the table as it stood after event ``at``."""

    at: Annotated[int, _id("The event's number in the hand (1 is the deal); the last if left out.")]
    entry: Annotated[
        int, _id("Instead of at, never with it: the event that made this ledger entry (a payment).")
    ]


class ShiftHandsPage(TypedDict, total=False):
    """A page of the shift's hands, the newest first: at one table, older than ``before``."""

    table: Annotated[int, _id("Only this table's hands.")]
    before: Annotated[int, _BEFORE]


def _at_most(longest: int) -> Words:
    """A query parameter holding text of at most ``longest`` characters."""

    def judge(value: Any, field: str, _given: Mapping[str, Any]) -> str:
        if isinstance(value, str) and len(value) <= longest:
            return value
        refused = say("{field} is at most {n} characters.", field=field, n=longest)
        raise Invalid(refused, "invalid_query")

    return Words(judge, inner=core_schema.str_schema(max_length=longest))


#: The longest part of a search in words (the whole of it, in q).
SAID_LONGEST = 200
_SAID = _at_most(SAID_LONGEST)


class SeatSearch(TypedDict, total=False):
    """A search put the way a player puts it, in this shift: in one line (q), or in parts.
    The parts are read by the search itself, which answers a part it cannot read in words."""

    q: Annotated[
        str,
        _SAID,
        Field(
            description='The whole search in words, as a player says it: "Rosa table 4 16 '
            'chips", "player Rosa, table 4, around 21:40, 8 chips".'
        ),
    ]
    player: Annotated[str, _SAID, Field(description="Part of a name: any case, accents ignored.")]
    seat: Annotated[str, _SAID, Field(description="A seat, 1 to 8.")]
    table: Annotated[str, _SAID, Field(description='A table\'s name, or its number ("4").')]
    around: Annotated[
        str,
        _SAID,
        Field(description="A time on the floor's clock (21:40): a quarter hour either way."),
    ]
    amount: Annotated[
        str,
        _SAID,
        Field(description="Chips: a seat's total paid or received in a hand, or one payment."),
    ]


class DisputeFilter(TypedDict, total=False):
    """Which disputes: every one, or only those open (or ruled)."""

    status: Annotated[
        str,
        one_of(
            ("open", "ruled"),
            lambda: say("status is open or ruled."),
            "invalid_query",
            "open: not ruled on yet; ruled: closed by a ruling.",
        ),
    ]


class PlayerSearch(TypedDict, total=False):
    """What was typed so far: part of a name, or a card number."""

    q: Annotated[
        str,
        _at_most(PLAYER_NAME),
        Field(description="Part of a name (any case) or a whole card number; none lists all."),
    ]


class SlipPaper(TypedDict, total=False):
    """Which paper a slip prints on."""

    paper: Annotated[
        str,
        one_of(
            ("page", "receipt"),
            lambda: say("paper is page or receipt."),
            "invalid_query",
            "receipt: the table's 80 mm receipt printer; page: letter or A4. Left out: the "
            "tablet's own choice (set on the table screen), else page.",
        ),
    ]


#: A window of time for the shift ledger: both ends given; the list of every hand (an
#: appendix) printed unless ``hands=none``.
ShiftWindow = TypedDict(
    "ShiftWindow",
    {
        "from": Annotated[Moment, Field(examples=["2024-05-03T18:00:00Z"])],
        "to": Annotated[Moment, Field(examples=["2024-05-04T02:00:00Z"])],
        "hands": NotRequired[
            Annotated[
                str,
                one_of(
                    ("all", "none"),
                    lambda: say("hands is all or none."),
                    "invalid_query",
                    "all (the default): every hand listed as an appendix; none: left out (the "
                    "ledger's CSV export lists them).",
                ),
            ]
        ],
    },
)

#: What a damaged key is told; `dealer.web.once` checks it again before using it.
KEY_WORDS = Words(
    sentence=f"An Idempotency-Key is 1 to {IDEMPOTENCY_KEY} printable ASCII characters.",
    code="invalid_idempotency_key",
    inner=core_schema.str_schema(min_length=1, max_length=IDEMPOTENCY_KEY, pattern="^[ -~]+$"),
)

#: The headers of a write.
WriteHeaders = TypedDict(  # header names are not Python names
    "WriteHeaders",
    {
        "Idempotency-Key": Annotated[
            str,
            KEY_WORDS,
            Field(
                description="A repeat returns the first answer and records nothing; the same "
                "key with another body is a 409. Scoped per user."
            ),
        ],
        "X-Device": Annotated[
            str,
            Field(
                description="The device recording the call (else its User-Agent), kept on each "
                "entry (unprintable characters dropped, at most 200 kept)."
            ),
        ],
    },
    total=False,
)


def read_moment(
    text: str | None,
    name: str,
    tz: ZoneInfo,
    example: str = "such as 2024-05-03T18:00:00Z or 2024-05-03",
) -> datetime | None:
    """``text`` as a UTC time (no zone: the floor's clock ``tz``); None when not given."""
    text = (text or "").strip()
    if not text:
        return None
    try:
        moment = datetime.fromisoformat(text)
        # A time without a zone is on the floor's clock; one at the edge of the calendar
        # (0001-01-01T00:00+05:00) overflows on its way to UTC, and is refused the same way.
        return (moment if moment.tzinfo else moment.replace(tzinfo=tz)).astimezone(UTC)
    except (ValueError, OverflowError):
        raise Invalid(
            say(
                "{name}={value!r} is not an ISO 8601 time {example}.",
                name=name,
                value=text[:40],
                example=example,
            ),
            "invalid_time",
        ) from None


def read_window(
    start: str | None, end: str | None, tz: ZoneInfo
) -> tuple[datetime | None, datetime | None]:
    """A window [from, to) read from its two texts; either end may be left open."""
    low, high = read_moment(start, "from", tz), read_moment(end, "to", tz)
    if low is not None and high is not None and low >= high:
        raise Invalid(say("The window must end after it starts (from before to)."), "empty_window")
    return low, high


def _player(value: Any, field: str, _given: Mapping[str, Any]) -> str:
    if isinstance(value, str) and value.strip() and len(value) <= PLAYER_NAME:
        return value.strip()
    raise Invalid(
        say(
            "{field} must be part of a player's name: 1 to {PLAYER_NAME} characters.",
            field=field,
            PLAYER_NAME=PLAYER_NAME,
        ),
        "invalid_query",
    )


#: The rules a payment of a hand is made under, as the search offers them.
SEARCHED_RULES = tuple(code for code in rulebook.HAND_RULES)


def _rule(value: Any, field: str, _given: Mapping[str, Any]) -> str:
    if isinstance(value, str) and value in SEARCHED_RULES:
        return value
    named = ", ".join(f"{code} ({rulebook.rule(code).name})" for code in SEARCHED_RULES)
    raise Invalid(
        say("{field} must be one of: {named}.", field=field, named=named), "invalid_query"
    )


def _moment(value: Any, field: str, _given: Mapping[str, Any]) -> str:
    if isinstance(value, str) and value.strip():
        try:
            datetime.fromisoformat(value.strip())
            return value.strip()
        except ValueError:
            pass
    raise Invalid(
        say(
            "{field} must be an ISO 8601 time such as 2024-05-03T18:00:00Z or 2024-05-03T11:00.",
            field=field,
        ),
        "invalid_time",
    )


_TEXT = core_schema.str_schema(min_length=1)


#: Find a payment: within a hand, a table session or a window of time (a shift), by seat,
#: player, amount and rule; at least one of hand, session, or from and to (the service says so).
PaymentSearch = TypedDict(  # "from" is not a Python name
    "PaymentSearch",
    {
        "hand": Annotated[int, _id("The hand's id.")],
        "session": Annotated[int, _id("A table session's id.")],
        "from": Annotated[
            str,
            Words(_moment, inner=_TEXT),
            Field(
                description=MOMENT + " Payments recorded at or after it.",
                json_schema_extra=DATE_TIME,
            ),
        ],
        "to": Annotated[
            str,
            Words(_moment, inner=_TEXT),
            Field(description=MOMENT + " Payments before it.", json_schema_extra=DATE_TIME),
        ],
        "seat": Annotated[int, _number(SEATS, "A seat that paid or was paid, 1 to 8.")],
        "player": Annotated[
            str,
            Words(_player, inner=core_schema.str_schema(min_length=1, max_length=PLAYER_NAME)),
            Field(
                description="Part of the name of a player seated on either side: any case, "
                "accents ignored; where some names hold it as whole words, those alone."
            ),
        ],
        "player_id": Annotated[
            int, _id("A player record's id: every seating of theirs, on either side.")
        ],
        "amount": Annotated[int, _number((1, MAX_CHIPS), "The payment's chips, exactly.")],
        "rule": Annotated[
            str,
            Words(_rule, inner=core_schema.literal_schema(list(SEARCHED_RULES))),
            Field(description="The rule it was paid under (its code; the screen offers words)."),
        ],
        "limit": Annotated[
            int, _number(SEARCH_PAGE, "At most this many payments, the newest first (default 100).")
        ],
    },
    total=False,
)
