"""The hash chains.

- The ledger's own chain: each entry's ``hash`` is sha256 of its fields and the hash before
  it. Anyone can recompute it, so it shows a slip, not a forger.
- The keyed chain: each link's ``hash`` is HMAC-SHA256, under the ledger's key (never in the
  database), of the link, the fields of the row it names (an entry, an event, a print) and the
  link before it. Without the key no edited row can be made to match again.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any, Protocol

from dealer.models import as_utc

__all__ = [
    "DEALT_COLUMNS",
    "EVENT_COLUMNS",
    "GENESIS",
    "PRINT_COLUMNS",
    "EntryFields",
    "LinkFields",
    "canonical_fields",
    "columns",
    "entry_hash",
    "entry_link_fields",
    "event_link_fields",
    "link_message",
    "print_link_fields",
]

#: The ``prev_hash`` of the first entry.
GENESIS = "0" * 64


class EntryFields(Protocol):
    """What the chain covers: every field of a ledger entry but its own hash."""

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
    """A stored time in the one fixed UTC form the chains hash."""
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


def _canonical_json(value: object) -> bytes:
    """Sorted keys, no spaces, UTF-8: the one text a value is hashed as."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def entry_hash(entry: EntryFields) -> str:
    """sha256 of the canonical JSON of ``entry``'s fields (sorted keys, no spaces, UTF-8)."""
    return hashlib.sha256(_canonical_json(canonical_fields(entry))).hexdigest()


# ------------------------------------------------------------------------- the keyed chain


class LinkFields(Protocol):
    """What a link's own HMAC covers besides the row: its place, its row's name, the link before."""

    @property
    def seq(self) -> int: ...

    @property
    def kind(self) -> str: ...

    @property
    def ref(self) -> int: ...

    @property
    def at(self) -> datetime: ...

    @property
    def prev_hash(self) -> str: ...


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
)
#: A hand's columns fixed at the deal: its deal's link covers them too, so the rules, seats
#: and engine a hand was dealt under cannot be changed unseen either (its status and winner
#: change as it is played: the replay checks those).
DEALT_COLUMNS = (
    "id",
    "table_id",
    "session_id",
    "number",
    "rules",
    "collection",
    "seats",
    "engine_version",
    "started_at",
)
#: A print's columns: its link covers them all.
PRINT_COLUMNS = ("id", "kind", "subject", "reprint", "user_id", "device", "printed_at")


def columns(row: object, names: Sequence[str]) -> dict[str, Any]:
    """The ``names`` attributes of an ORM row, as the link functions take them."""
    return {name: getattr(row, name) for name in names}


def _hashed(values: Mapping[str, Any], names: Sequence[str]) -> dict[str, object]:
    """The ``names`` columns of ``values`` as the chain hashes them: times in one UTC form."""
    out: dict[str, object] = {}
    for name in names:
        value = values[name]
        out[name] = moment(value) if isinstance(value, datetime) else value
    return out


def entry_link_fields(entry: EntryFields, own_hash: str) -> dict[str, object]:
    """What a link covers of a ledger entry: every column, its own sha256 hash too."""
    return {**canonical_fields(entry), "hash": own_hash}


def event_link_fields(
    event: Mapping[str, Any], dealt: Mapping[str, Any] | None
) -> dict[str, object]:
    """What a link covers of an event (`EVENT_COLUMNS`); a deal's, its hand's `DEALT_COLUMNS`."""
    fields = _hashed(event, EVENT_COLUMNS)
    if dealt is not None:
        fields["dealt"] = _hashed(dealt, DEALT_COLUMNS)
    return fields


def print_link_fields(record: Mapping[str, Any]) -> dict[str, object]:
    """What a link covers of a print of a document: every column."""
    return _hashed(record, PRINT_COLUMNS)


def link_message(link: LinkFields, row: Mapping[str, object]) -> bytes:
    """The bytes a link's HMAC is taken of: the link and its row's fields, canonical JSON."""
    return _canonical_json(
        {
            "seq": link.seq,
            "kind": link.kind,
            "ref": link.ref,
            "at": moment(link.at),
            "prev": link.prev_hash,
            "row": row,
        }
    )
