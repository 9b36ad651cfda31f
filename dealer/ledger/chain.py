"""The hash chains.

- The ledger's own chain: each entry's ``hash`` is sha256 of its fields and the hash before
  it. Anyone can recompute it, so it shows a slip, not a forger.
- The keyed chain: each link's ``hash`` is HMAC-SHA256, under the ledger's key (never in the
  database), of the link, the fields of the row it names (an entry, an event, a print) and the
  link before it (a dispute opened on a hand and the ruling that closed it are linked too).
  Without the key no edited row can be made to match again.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any, Protocol

from dealer.models import as_utc

#: The ``prev_hash`` of the first entry.
GENESIS = "0" * 64
ZERO = timedelta(0)


class EntryFields(Protocol):
    """What the chain covers: every field of a ledger entry but its own hash."""

    __slots__ = ()

    seq: int
    at: datetime
    from_account: str
    to_account: str
    chips: int
    reason_code: str
    reason: str
    table_id: int
    hand_id: int | None
    event_id: int | None
    user_id: int
    device: str
    reverses: int | None
    prev_hash: str


def moment(at: datetime) -> str:
    """A stored time in the one fixed UTC form the chains hash (what ``as_utc`` reads, written).

    The checks write a few hundred thousand of these per shift: a naive (SQLite) or UTC time
    is written as it is, without building another datetime.
    """
    if at.tzinfo is None:
        return at.isoformat(timespec="microseconds") + "+00:00"
    if at.utcoffset() == ZERO:
        return at.replace(tzinfo=UTC).isoformat(timespec="microseconds")
    return as_utc(at).isoformat(timespec="microseconds")


def canonical_fields(entry: EntryFields) -> dict[str, object]:
    """The fields the hash covers, with the time in one fixed UTC form."""
    return {
        "seq": entry.seq,
        "at": moment(entry.at),
        "from": entry.from_account,
        "to": entry.to_account,
        "chips": entry.chips,
        "reason_code": entry.reason_code,
        "reason": entry.reason,
        "table": entry.table_id,
        "hand": entry.hand_id,
        "event": entry.event_id,
        "user": entry.user_id,
        "device": entry.device,
        "reverses": entry.reverses,
        "prev_hash": entry.prev_hash,
    }


#: Sorted keys, no spaces, UTF-8: the one text a value is hashed as (made once: the checks
#: write hundreds of thousands).
_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _canonical_json(value: object) -> bytes:
    return _CANONICAL.encode(value).encode()


def entry_hash(entry: EntryFields) -> str:
    """sha256 of the canonical JSON of ``entry``'s fields (sorted keys, no spaces, UTF-8)."""
    return hashlib.sha256(_canonical_json(canonical_fields(entry))).hexdigest()


# ------------------------------------------------------------------------- the keyed chain


class LinkFields(Protocol):
    """What a link's own HMAC covers besides the row: its place, its row's name, the link before.

    Not its ``at``: that only finds a window's links quickly. What counts is the row's own time,
    which the HMAC covers with the row.
    """

    @property
    def seq(self) -> int: ...

    @property
    def kind(self) -> str: ...

    @property
    def ref(self) -> int: ...

    @property
    def prev_hash(self) -> str: ...


#: A ledger entry's columns, in the order a link covers them (its own sha256 hash last).
ENTRY_COLUMNS = (
    "seq",
    "at",
    "from_account",
    "to_account",
    "chips",
    "reason_code",
    "reason",
    "table_id",
    "hand_id",
    "event_id",
    "user_id",
    "device",
    "reverses",
    "prev_hash",
    "hash",
)
#: An event's columns: its link covers them all.
EVENT_COLUMNS = (
    "id",
    "hand_id",
    "seq",
    "type",
    "action",
    "seat",
    "user_id",
    "supervisor_id",
    "device",
    "created_at",
    "hand_status",
    "hand_winner",
)
#: A hand's columns fixed at the deal: its deal's link covers them too, so the rules, seats
#: and engine a hand was dealt under cannot be changed unseen either (its status and winner
#: change as it is played: the replay checks those).
DEALT_COLUMNS = (
    "id",
    "table_id",
    "down_id",
    "number",
    "rules",
    "collection",
    "seats",
    "engine_version",
    "started_at",
)
#: A print's columns: its link covers them all.
PRINT_COLUMNS = ("id", "kind", "subject", "reprint", "user_id", "device", "printed_at")
#: A dispute's columns, and a ruling's: their links cover them all.
DISPUTE_COLUMNS = (
    "id",
    "hand_id",
    "raised_by",
    "seat",
    "claim",
    "entry_seq",
    "user_id",
    "device",
    "opened_at",
)
#: An audit record's columns: its link covers them all.
AUDIT_COLUMNS = ("id", "at", "kind", "user_id", "device", "table_id", "hand_id", "words", "details")
#: The database's record of a checkpoint filed: its link covers it all.
CHECKPOINT_COLUMNS = ("id", "seq", "at", "digest")
RULING_COLUMNS = (
    "id",
    "dispute_id",
    "outcome",
    "reason",
    "void_event_id",
    "correction_seq",
    "user_id",
    "device",
    "ruled_at",
)


def columns(row: object, names: Sequence[str]) -> list[Any]:
    """The ``names`` attributes of a row object, in order, as the link functions take them."""
    return [getattr(row, name) for name in names]


def _written(values: Sequence[Any], time: int) -> list[object]:
    """``values`` as a link covers them: the time at index ``time`` in the one UTC form."""
    out = list(values)
    out[time] = moment(out[time])
    return out


_ENTRY_TIME = ENTRY_COLUMNS.index("at")
_EVENT_TIME = EVENT_COLUMNS.index("created_at")
_DEALT_TIME = DEALT_COLUMNS.index("started_at")
_PRINT_TIME = PRINT_COLUMNS.index("printed_at")
_DISPUTE_TIME = DISPUTE_COLUMNS.index("opened_at")
_RULING_TIME = RULING_COLUMNS.index("ruled_at")
_AUDIT_TIME = AUDIT_COLUMNS.index("at")
_CHECKPOINT_TIME = CHECKPOINT_COLUMNS.index("at")


def entry_link_fields(entry: Sequence[Any]) -> list[object]:
    """What a link covers of a ledger entry: its `ENTRY_COLUMNS`, in order."""
    return _written(entry, _ENTRY_TIME)


def event_link_fields(event: Sequence[Any], dealt: Sequence[Any] | None) -> list[object]:
    """What a link covers of an event (`EVENT_COLUMNS`); a deal's, its hand's `DEALT_COLUMNS`."""
    return [*_written(event, _EVENT_TIME), _written(dealt, _DEALT_TIME) if dealt else None]


def print_link_fields(record: Sequence[Any]) -> list[object]:
    """What a link covers of a print of a document: its `PRINT_COLUMNS`, in order."""
    return _written(record, _PRINT_TIME)


def dispute_link_fields(dispute: Sequence[Any]) -> list[object]:
    """What a link covers of a dispute: its `DISPUTE_COLUMNS`, in order."""
    return _written(dispute, _DISPUTE_TIME)


def ruling_link_fields(ruling: Sequence[Any]) -> list[object]:
    """What a link covers of a ruling on a dispute: its `RULING_COLUMNS`, in order."""
    return _written(ruling, _RULING_TIME)


def audit_link_fields(record: Sequence[Any]) -> list[object]:
    """What a link covers of an audit record: its `AUDIT_COLUMNS`, in order."""
    return _written(record, _AUDIT_TIME)


def checkpoint_link_fields(record: Sequence[Any]) -> list[object]:
    """What a link covers of the database's record of a checkpoint: its `CHECKPOINT_COLUMNS`."""
    return _written(record, _CHECKPOINT_TIME)


#: Of each kind of row that says whose the chips are, under what rules, who may act where and
#: what a count needs, the fields a version keeps (and its link covers); what a person calls
#: each is `dealer.words.rows.IDENTITY_WORDS`.
IDENTITY: dict[str, tuple[str, ...]] = {
    "user": ("name", "role", "active", "pin_hash"),
    "table": (
        "name",
        "profile",
        "rules",
        "collection",
        "chip_value_cents",
        "created_by",
        "min_buy_in",
        "max_buy_in",
        "approval_above",
        "count_tolerance",
        "sells_for_cash",
        "acting_seat",
    ),
    "seating": ("table_id", "seat", "player", "player_id", "seated_at"),
    "player": ("name", "card_number", "created_by"),
    "session": (
        "table_id",
        "dealer_id",
        "opened_at",
        "implicit",
        "closed_at",
        "close_requested_by",
        "close_confirmed_by",
        "close_confirmed_at",
    ),
    "assignment": ("table_id", "dealer_id", "assigned", "by_id", "at"),
}
#: A version's columns: its link covers them all.
VERSION_COLUMNS = ("id", "kind", "ref", "at", "fields")
_VERSION_TIME = VERSION_COLUMNS.index("at")


def identity_fields(kind: str, values: Any) -> dict[str, object]:
    """What a version of a ``kind`` row keeps: its `IDENTITY` fields, times in the one UTC form
    (``values``: the row, or a mapping of its columns)."""
    get = values.get if isinstance(values, Mapping) else lambda name: getattr(values, name)
    out: dict[str, object] = {}
    for name in IDENTITY[kind]:
        value = get(name)
        out[name] = moment(value) if isinstance(value, datetime) else value
    return out


def version_link_fields(version: Sequence[Any]) -> list[object]:
    """What a link covers of a version of a row: its `VERSION_COLUMNS`, in order."""
    return _written(version, _VERSION_TIME)


def link_message(link: LinkFields, row: Sequence[object]) -> bytes:
    """The bytes a link's HMAC is taken of: the link, then its row's columns, as JSON (keys of
    the JSON in a row, such as an action's, sorted; no spaces; UTF-8)."""
    return _canonical_json([link.seq, link.kind, link.ref, link.prev_hash, row])
