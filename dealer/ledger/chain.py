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
from collections.abc import Mapping
from datetime import datetime
from typing import Any, Protocol

from dealer.models import as_utc

__all__ = [
    "GENESIS",
    "EntryFields",
    "EventFields",
    "HandFields",
    "LinkFields",
    "PrintFields",
    "canonical_fields",
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


class HandFields(Protocol):
    """A hand's fields fixed at the deal: its deal event's link covers them."""

    id: int
    table_id: int
    session_id: int | None
    number: int
    rules: dict[str, Any]
    collection: dict[str, Any]
    seats: dict[str, int]
    engine_version: str | None
    started_at: datetime


class EventFields(Protocol):
    """An event as stored: every column is covered."""

    id: int
    hand_id: int
    seq: int
    type: str
    action: dict[str, Any] | None
    seat: int | None
    user_id: int
    supervisor_id: int | None
    device: str
    created_at: datetime


class PrintFields(Protocol):
    """A print of a document as stored: every column is covered."""

    id: int
    kind: str
    subject: str
    reprint: int
    user_id: int
    device: str
    printed_at: datetime


def entry_link_fields(entry: EntryFields, own_hash: str) -> dict[str, object]:
    """What a link covers of a ledger entry: every column, its own sha256 hash too."""
    return {**canonical_fields(entry), "hash": own_hash}


def event_link_fields(event: EventFields, hand: HandFields | None) -> dict[str, object]:
    """What a link covers of an event; the deal's also covers its hand's fixed fields.

    So the rules, seats and engine a hand was dealt under cannot be changed unseen either
    (its status and winner change as it is played: the replay checks those).
    """
    fields: dict[str, object] = {
        "id": event.id,
        "hand": event.hand_id,
        "seq": event.seq,
        "type": event.type,
        "action": event.action,
        "seat": event.seat,
        "user": event.user_id,
        "supervisor": event.supervisor_id,
        "device": event.device,
        "at": moment(event.created_at),
    }
    if hand is not None:
        fields["dealt"] = {
            "table": hand.table_id,
            "session": hand.session_id,
            "number": hand.number,
            "rules": hand.rules,
            "collection": hand.collection,
            "seats": hand.seats,
            "engine": hand.engine_version,
            "started_at": moment(hand.started_at),
        }
    return fields


def print_link_fields(record: PrintFields) -> dict[str, object]:
    """What a link covers of a print of a document: every column."""
    return {
        "id": record.id,
        "kind": record.kind,
        "subject": record.subject,
        "reprint": record.reprint,
        "user": record.user_id,
        "device": record.device,
        "at": moment(record.printed_at),
    }


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
