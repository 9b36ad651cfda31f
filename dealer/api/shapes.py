"""The JSON shapes of API.md: tables, seats, hands, events, payments and ledger entries."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from dealer.floor.limits import limits_of
from dealer.floor.tables import collection_warnings, open_seatings, stacks
from dealer.floor.time_collection import time_due
from dealer.hands.reading import playing_hand
from dealer.ledger import balance, house_account, parse_account, pot_account
from dealer.ledger.replay import table_collection, table_rules
from dealer.models import LedgerEntry, Seating, Table, as_utc
from dealer.people.devices import device_claim

__all__ = [
    "balances_shape",
    "ledger_shape",
    "seat_shape",
    "seats_shape",
    "table_shape",
    "when",
]


def when(moment: datetime | None) -> str | None:
    """A time as ISO 8601 UTC with a Z."""
    if moment is None:
        return None
    return as_utc(moment).isoformat(timespec="microseconds").replace("+00:00", "Z")


def seat_shape(seating: Seating, stack: int) -> dict[str, Any]:
    """A seat: who sits there and their stack (``short`` when it is below zero)."""
    return {
        "seat": seating.seat,
        "player": seating.player,
        "stack": stack,
        "short": stack < 0,
        "paused": seating.paused,
        "seating": seating.id,
        "player_id": seating.player_id,
    }


def seats_shape(session: Session, table: Table) -> dict[str, dict[str, Any]]:
    seatings = open_seatings(session, table.id)
    stack = stacks(session, seatings)
    return {str(s.seat): seat_shape(s, stack[s.id]) for s in seatings}


def table_shape(session: Session, table: Table, *, seats: bool) -> dict[str, Any]:
    collection = table_collection(table)
    out: dict[str, Any] = {
        "id": table.id,
        "name": table.name,
        "profile": table.profile,
        "rules": table_rules(table).knobs(),
        "overrides": table.rules,
        "collection": collection.as_dict(),
        "chip_value_cents": table.chip_value_cents,
        "warnings": collection_warnings(collection),
        "limits": limits_of(table).as_dict(),
    }
    if seats:
        hand = playing_hand(session, table.id)
        out["seats"] = seats_shape(session, table)
        out["hand"] = hand.id if hand is not None else None
        due = time_due(session, table)
        if due is not None:
            out["time_collection"] = {"last": when(due.last), "due": when(due.due_at)}
    return out


def balances_shape(session: Session, table: Table) -> dict[str, Any]:
    seats = {
        key: {"player": seat["player"], "stack": seat["stack"], "short": seat["short"]}
        for key, seat in seats_shape(session, table).items()
    }
    hand = playing_hand(session, table.id)
    return {
        "seats": seats,
        "house": balance(session, house_account(table.id)),
        "pot": balance(session, pot_account(hand.id)) if hand is not None else 0,
    }


def _party(account: str, seat_of: Mapping[int, int]) -> str:
    """An account as the API names a party: the seat number, pot, house or cage."""
    parsed = parse_account(account)
    if parsed is None:
        return account
    if parsed.kind == "seating" and parsed.id is not None:
        return str(seat_of.get(parsed.id, account))
    return parsed.kind


def ledger_shape(
    session: Session, table: Table, after: int = 0, limit: int | None = None
) -> dict[str, Any]:
    query = (
        select(LedgerEntry)
        .where(LedgerEntry.table_id == table.id, LedgerEntry.seq > after)
        .order_by(LedgerEntry.seq)
        .limit(limit)
    )
    entries = list(session.scalars(query))
    seatings = session.scalars(select(Seating).where(Seating.table_id == table.id))
    seat_of = {s.id: s.seat for s in seatings}
    return {
        "entries": [
            {
                "seq": e.seq,
                "at": when(e.at),
                "from": _party(e.from_account, seat_of),
                "to": _party(e.to_account, seat_of),
                "chips": e.chips,
                "reason": e.reason,
                "rule": e.reason_code,
                "hand": e.hand_id,
                "event": e.event_id,
                "reverses": e.reverses,
                "from_account": e.from_account,
                "to_account": e.to_account,
                "device": e.device,
                "device_claim": device_claim(e.device),
                "hash": e.hash,
            }
            for e in entries
        ]
    }
