"""What a request gives besides its body: query parameters and headers."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any

from pydantic import Field
from pydantic_core import core_schema
from typing_extensions import TypedDict

from dealer.bounds import LEDGER_PAGE, MAX_ID
from dealer.errors import Invalid
from dealer.web.once import LONGEST_KEY

from .words import Words

__all__ = ["KEY_WORDS", "LedgerPage", "ShiftWindow", "Window", "WriteHeaders"]


def _number(bounds: tuple[int, int]) -> Words:
    """A query parameter holding a whole number within ``bounds``, in ASCII digits."""
    low, high = bounds

    def judge(value: Any, field: str, _given: Mapping[str, Any]) -> int:
        if (
            isinstance(value, str)
            and value.isascii()
            and value.isdigit()
            and low <= int(value) <= high
        ):
            return int(value)
        raise Invalid(f"{field} must be a whole number from {low} to {high}.", "invalid_query")

    return Words(judge, inner=core_schema.int_schema(ge=low, le=high))


class LedgerPage(TypedDict, total=False):
    """A page of a table's ledger: all of it, or ``limit`` entries after seq ``after``."""

    after: Annotated[
        int, _number((0, MAX_ID)), Field(description="Only entries with a greater seq.")
    ]
    limit: Annotated[int, _number(LEDGER_PAGE), Field(description="At most this many entries.")]


# The route reads the times itself (`dealer.reports.routes`), with its own sentences.
_MOMENT = (
    "An ISO 8601 time such as 2024-05-03T18:00:00Z; without a zone it is read on the floor's "
    "clock (REPORT_TIMEZONE). The window is [from, to)."
)
From = Annotated[str, Field(description=_MOMENT, examples=["2024-05-03T18:00:00Z"])]
To = Annotated[str, Field(description=_MOMENT, examples=["2024-05-04T02:00:00Z"])]
#: A window of time for the exports: either end may be left open (missing or empty).
Window = TypedDict("Window", {"from": From, "to": To}, total=False)  # "from" is not a Python name
#: A window of time for the shift ledger: both ends given.
ShiftWindow = TypedDict(
    "ShiftWindow",
    {"from": Annotated[From, Field(min_length=1)], "to": Annotated[To, Field(min_length=1)]},
)

#: What a damaged key is told; `dealer.web.once` checks it again before using it.
KEY_WORDS = Words(
    sentence=f"An Idempotency-Key is 1 to {LONGEST_KEY} printable ASCII characters.",
    code="invalid_idempotency_key",
    inner=core_schema.str_schema(min_length=1, max_length=LONGEST_KEY, pattern="^[ -~]+$"),
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
