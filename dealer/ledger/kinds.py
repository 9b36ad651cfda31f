"""What the keyed chain links, kind by kind, declared once: each kind's table, its key, the
columns its link covers and how they become the link's fields, and the row's own time.

The writers (`links`), the readers (`reading`) and the checkpoints' counts (`checkpoints`)
all read this one table.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy.orm import InstrumentedAttribute

from dealer.ledger.chain import (
    AUDIT_COLUMNS,
    CHECKPOINT_COLUMNS,
    DISPUTE_COLUMNS,
    ENTRY_COLUMNS,
    EVENT_COLUMNS,
    PRINT_COLUMNS,
    RULING_COLUMNS,
    VERSION_COLUMNS,
    audit_link_fields,
    checkpoint_link_fields,
    columns,
    dispute_link_fields,
    entry_link_fields,
    print_link_fields,
    ruling_link_fields,
    version_link_fields,
)
from dealer.models import (
    AuditRecord,
    CheckpointRecord,
    Dispute,
    DisputeRuling,
    Event,
    IdentityVersion,
    LedgerEntry,
    PrintRecord,
)

#: What a link covers of a row, from its columns in order.
LinkFieldsOf = Callable[[Sequence[Any]], list[object]]
#: A row written and linked on its own (`links.add_linked`).
Linkable = PrintRecord | Dispute | DisputeRuling | AuditRecord


@dataclass(frozen=True, slots=True)
class Kind:
    """One kind of row the chain links."""

    name: str
    model: type[Any]
    key: InstrumentedAttribute[int]
    #: The columns a link covers, in order (None: an event's, which also covers its deal).
    columns: Sequence[str]
    fields: LinkFieldsOf | None
    #: The attribute holding the row's own time (what its link is stamped with).
    at: str


KINDS: dict[str, Kind] = {
    kind.name: kind
    for kind in (
        Kind("entry", LedgerEntry, LedgerEntry.seq, ENTRY_COLUMNS, entry_link_fields, "at"),
        Kind("event", Event, Event.id, EVENT_COLUMNS, None, "created_at"),
        Kind("print", PrintRecord, PrintRecord.id, PRINT_COLUMNS, print_link_fields, "printed_at"),
        Kind("dispute", Dispute, Dispute.id, DISPUTE_COLUMNS, dispute_link_fields, "opened_at"),
        Kind(
            "ruling",
            DisputeRuling,
            DisputeRuling.id,
            RULING_COLUMNS,
            ruling_link_fields,
            "ruled_at",
        ),
        Kind("audit", AuditRecord, AuditRecord.id, AUDIT_COLUMNS, audit_link_fields, "at"),
        Kind(
            "checkpoint",
            CheckpointRecord,
            CheckpointRecord.id,
            CHECKPOINT_COLUMNS,
            checkpoint_link_fields,
            "at",
        ),
        Kind(
            "version",
            IdentityVersion,
            IdentityVersion.id,
            VERSION_COLUMNS,
            version_link_fields,
            "at",
        ),
    )
}
#: The kinds written one row at a time, each linked as it is written: by type.
SINGLE: dict[type[Any], Kind] = {
    KINDS[name].model: KINDS[name] for name in ("print", "dispute", "ruling", "audit")
}


def fields_of(kind: Kind, row: object) -> list[object]:
    """What a link covers of ``row`` (not an event: `links` adds its deal)."""
    assert kind.fields is not None
    return kind.fields(columns(row, kind.columns))
