"""What every view is made of: a frozen model, times with their zone, seats as keys."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Annotated, Any

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PlainSerializer,
    WithJsonSchema,
)
from sqlalchemy import inspect

from dealer.bounds import SEATS
from dealer.ledger import parse_account
from dealer.models import LedgerEntry, as_utc


def when(moment: datetime | None) -> str | None:
    """A time as ISO 8601 UTC with a ``Z``, to the microsecond."""
    if moment is None:
        return None
    return as_utc(moment).isoformat(timespec="microseconds").replace("+00:00", "Z")


#: A stored time: read as UTC whichever database it came from, written with its ``Z``.
Time = Annotated[
    datetime,
    BeforeValidator(lambda v: as_utc(v) if isinstance(v, datetime) else v),
    PlainSerializer(when, return_type=str, when_used="json"),
    # The document says what the answer holds: an RFC 3339 time, which always has its zone.
    WithJsonSchema({"type": "string", "format": "date-time"}, mode="serialization"),
]
SeatNumber = Annotated[int, Field(ge=SEATS[0], le=SEATS[1])]
#: A seat as an object's key ("1" to "8"): `dict[str, X]` with this, so the document types
#: the values (additionalProperties) and names the keys (propertyNames).
SEAT_KEY: dict[str, Any] = {"propertyNames": {"pattern": f"^[{SEATS[0]}-{SEATS[1]}]$"}}


class View(BaseModel):
    """A view: frozen, read by attribute on the screens, dumped by the API as declared."""

    model_config = ConfigDict(frozen=True, populate_by_name=True, arbitrary_types_allowed=True)

    def answer(self) -> dict[str, Any]:
        """The API's JSON for this view: fields by their API names, screen-only ones left out."""
        return self.model_dump(mode="json", by_alias=True)


def one_of(codes: Iterable[str], **more: Any) -> Any:
    """A field that holds one of ``codes``: an enum in the document (and in a client generated
    from it), where the field's Python type stays ``str``."""
    return Field(json_schema_extra={"enum": list(codes)}, **more)


def given(**more: Any) -> Any:
    """A field answered only when it holds something: left out of the answer when None (the
    document shows it as not required)."""
    return Field(None, exclude_if=lambda value: value is None, **more)


def screen(default: Any = None, **more: Any) -> Any:
    """A field for the people who read the view (the screens, the documents), left out of the
    API's answer and its document."""
    return Field(default, exclude=True, **more)


def party(account: str, seat_of: Mapping[int, int]) -> str:
    """An account as the API, the CSV and the documents name a party: ``"3"`` for a seat (by
    ``seat_of``, seating id to seat), else pot, house or cage; an account it cannot place, as
    it is. (In words, for a person: `dealer.views.payment`.)"""
    parsed = parse_account(account)
    if parsed is None:
        return account
    if parsed.kind == "seating" and parsed.id is not None:
        return str(seat_of[parsed.id]) if parsed.id in seat_of else account
    return parsed.kind


def row_columns(row: object) -> dict[str, Any]:
    """A database row's columns by their names, for a view read from the row and more."""
    return {column.key: getattr(row, column.key) for column in inspect(row).mapper.column_attrs}


#: The columns of a ledger entry every row of it shows as the ledger holds them, by their names.
ENTRY_ROW_COLUMNS = (
    "seq",
    "at",
    "from_account",
    "to_account",
    "chips",
    "reverses",
    "device",
    "hash",
)


def entry_columns(entry: LedgerEntry) -> dict[str, Any]:
    """A ledger entry's `ENTRY_ROW_COLUMNS`, for a row of it (the API's, a screen's, an export's)
    to add what it says of the entry in its own words."""
    return {name: getattr(entry, name) for name in ENTRY_ROW_COLUMNS}
