"""The hash chain: each entry's hash covers its own fields and the hash before it."""

from __future__ import annotations

import hashlib
import json
from datetime import datetime
from typing import Protocol

from dealer.models import as_utc

__all__ = ["GENESIS", "EntryFields", "canonical_fields", "entry_hash"]

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


def canonical_fields(entry: EntryFields) -> dict[str, object]:
    """The fields the hash covers, with the time in one fixed UTC form."""
    return {
        "seq": entry.seq,
        "at": as_utc(entry.at).isoformat(timespec="microseconds"),
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


def entry_hash(entry: EntryFields) -> str:
    """sha256 of the canonical JSON of ``entry``'s fields (sorted keys, no spaces, UTF-8)."""
    text = json.dumps(
        canonical_fields(entry), sort_keys=True, separators=(",", ":"), ensure_ascii=False
    )
    return hashlib.sha256(text.encode()).hexdigest()
