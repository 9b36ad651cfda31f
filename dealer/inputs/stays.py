"""The stay in a seat an entry made at that seat is for: the seat's ``seating`` (as GET
/api/v1/tables/{id} shows it), in a write's body and in a leaving's query.

Given, an entry that arrives after that player left (kept on a tablet while its connection was
down, say) is refused with 409 ``seating_ended``, never put on whoever sits there then. Left
out, it is for whoever sits in the seat when it arrives, as API.md's calls always were.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any

from pydantic import Field
from pydantic_core import core_schema
from typing_extensions import TypedDict

from dealer.bounds import MAX_ID, check_whole
from dealer.inputs.words import Asked, Words, whole
from dealer.words.catalogue import say_later

__all__ = ["StayAsked", "StayAt"]

#: A write's ``seating``: the stay in the seat it is made for.
StayAt = Annotated[
    int | None,
    whole((1, MAX_ID), say_later("seating"), optional=True),
    Field(
        description="The stay in the seat this entry is made for: the seat's seating (GET "
        "/api/v1/tables/{id}). Given, the entry is refused with 409 seating_ended once that "
        "player has left, never put on whoever sits there then. Left out: whoever sits in the "
        "seat when it arrives."
    ),
    Asked(how="hidden"),
]


def _asked(value: Any, field: str, _given: Mapping[str, Any]) -> int:
    """A query's seating: its digits, as a whole number a row's id may be."""
    if isinstance(value, str) and value.isascii() and value.isdigit():
        value = int(value)
    return check_whole(value, (1, MAX_ID), say_later("seating"), field)


class StayAsked(TypedDict, total=False):
    """The stay in the seat a call at a seat is made for."""

    seating: Annotated[
        int,
        Words(
            _asked,
            inner=core_schema.int_schema(ge=1, le=MAX_ID),
            also={
                "description": "The stay in the seat this call is made for: the seat's "
                "seating (GET /api/v1/tables/{id}). Given, the call is refused with 409 "
                "seating_ended once that player has left, never put on whoever sits there "
                "then. Left out: whoever sits there now."
            },
        ),
    ]
