"""The windows of time a report, an export or the payment search takes: each end an RFC 3339
date-time, as the document says (``format: date-time``); the routes also read a time without
a zone, on the floor's clock (`dealer.reports.routes`, with their own sentences)."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field
from typing_extensions import TypedDict

__all__ = ["DATE_TIME", "MOMENT", "Export", "From", "Moment", "To", "Window"]

MOMENT = (
    "An ISO 8601 time such as 2024-05-03T18:00:00Z; without a zone it is read on the floor's "
    "clock (DEALER_TIMEZONE). The window is [from, to)."
)
#: What the document says of a time a client sends.
DATE_TIME: dict[str, Any] = {"format": "date-time"}


def _open_end(schema: dict[str, Any]) -> None:
    """An end of a window that may be left open: a date-time, or empty."""
    schema.pop("type", None)
    schema["anyOf"] = [{"type": "string", **DATE_TIME}, {"type": "string", "maxLength": 0}]


#: A time that must be given (the shift ledger's window).
Moment = Annotated[str, Field(description=MOMENT, min_length=1, json_schema_extra=DATE_TIME)]
From = Annotated[
    str,
    Field(description=MOMENT, examples=["2024-05-03T18:00:00Z"], json_schema_extra=_open_end),
]
To = Annotated[
    str,
    Field(description=MOMENT, examples=["2024-05-04T02:00:00Z"], json_schema_extra=_open_end),
]
#: A window of time for a player's statement: either end may be left open (missing or empty).
Window = TypedDict("Window", {"from": From, "to": To}, total=False)  # "from" is not a Python name
#: An export's window, and whether it is written for Excel (`dealer.reports.exports`).
Export = TypedDict(
    "Export",
    {
        "from": From,
        "to": To,
        "bom": Annotated[
            bool,
            Field(
                description="true: the file begins with UTF-8's byte-order mark, which Excel "
                "on Windows needs to read accents and other scripts right; false (the "
                "default): without it, as a program reading UTF-8 expects."
            ),
        ],
    },
    total=False,
)
