"""Tables of the dealer app (typed SQLAlchemy 2.0), all on `Base`'s metadata.

What is stored is what happened, never what can be worked out from it: a
hand's melds, stacks and nets are rebuilt by replaying its events through the
rules engine, and every balance is a sum of ledger entries. The few figures a
row does keep (a hand's status and winner) are checked against the replay by
`dealer.ledger.verify`.
"""

from __future__ import annotations

from dealer.extensions import Base
from dealer.models.base import (
    DISPUTE_OUTCOMES,
    DISPUTE_RAISERS,
    HAND_STATUSES,
    IDENTITY_KINDS,
    LINK_KINDS,
    PRINT_KINDS,
    ROLES,
    Timestamp,
    as_utc,
    by_id,
    utcnow,
)
from dealer.models.floor import Down, Player, Seating, Table, TableAssignment
from dealer.models.hands import Dispute, DisputeRuling, Event, Hand
from dealer.models.ledger import (
    ChainLink,
    CheckpointRecord,
    HealthCheck,
    IdempotencyRecord,
    IdentityVersion,
    LedgerEntry,
    LiveMark,
    PrintRecord,
)
from dealer.models.people import FAILURE_SCOPES, AuditRecord, AuthToken, Device, SignInFailure, User

__all__ = [
    "DISPUTE_OUTCOMES",
    "DISPUTE_RAISERS",
    "FAILURE_SCOPES",
    "HAND_STATUSES",
    "IDENTITY_KINDS",
    "LINK_KINDS",
    "PRINT_KINDS",
    "ROLES",
    "AuditRecord",
    "AuthToken",
    "Base",
    "ChainLink",
    "CheckpointRecord",
    "Device",
    "Dispute",
    "DisputeRuling",
    "Down",
    "Event",
    "Hand",
    "HealthCheck",
    "IdempotencyRecord",
    "IdentityVersion",
    "LedgerEntry",
    "LiveMark",
    "Player",
    "PrintRecord",
    "Seating",
    "SignInFailure",
    "Table",
    "TableAssignment",
    "Timestamp",
    "User",
    "as_utc",
    "by_id",
    "db",
    "utcnow",
]
