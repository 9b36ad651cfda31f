"""The JSON shapes of API.md: tables, seats, hands, events, payments and ledger entries."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import bindparam, select, text
from sqlalchemy.orm import Session

from dealer import rules
from dealer.floor.limits import limits_of
from dealer.floor.tables import collection_warnings, open_seatings, stacks
from dealer.floor.time_collection import time_due
from dealer.hands.reading import Replayed, playing_hand
from dealer.ledger import balance, house_account, parse_account, pot_account
from dealer.ledger.replay import table_collection, table_rules
from dealer.models import LedgerEntry, Seating, Table, as_utc
from dealer.people.devices import device_claim
from dealer.people.users import names_of

__all__ = [
    "balances_shape",
    "event_shapes",
    "hand_shape",
    "ledger_shape",
    "payments_shape",
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


def payment_shape(payment: rules.Payment, entry: LedgerEntry | None) -> dict[str, Any]:
    return {**payment.as_dict(), "entry": entry.seq if entry is not None else None}


def payments_shape(
    payments: Sequence[rules.Payment], entries: Sequence[LedgerEntry]
) -> list[dict[str, Any]]:
    return [payment_shape(p, e) for p, e in zip(payments, entries, strict=True)]


def _recorders(replayed: Replayed) -> set[int]:
    """The users who recorded or approved the hand's events."""
    return {i for r in replayed.events for i in (r.user_id, r.supervisor_id) if i is not None}


def event_shapes(
    session: Session, replayed: Replayed, names: Mapping[int, str] | None = None
) -> list[dict[str, Any]]:
    """Every event of a hand, oldest first, with its payments and whether it stands.

    ``names``: the recorders' names by user id, if already read (else read here)."""
    engine, rows = replayed.engine, replayed.events
    if names is None:
        names = names_of(session, _recorders(replayed))
    id_of = {row.seq: row.id for row in rows}
    out = []
    for row, record in zip(rows, engine.events, strict=True):
        shape: dict[str, Any] = {"id": row.id, "seq": row.seq, "type": row.type, "seat": row.seat}
        for name, value in (row.action or {}).items():
            if name not in ("type", "seat"):
                shape[name] = value
        if row.type == "void":
            target = int(shape["event"])
            shape["event"] = id_of[target]
            shape["event_seq"] = target
        voided_by = engine.voided.get(row.seq)
        shape.update(
            text=record.text,
            melds=list(record.melds),
            voided=voided_by is not None,
            voided_by=id_of[voided_by] if voided_by is not None else None,
            payments=[p.as_dict() for p in record.payments],
            user=names.get(row.user_id),
            supervisor=names.get(row.supervisor_id) if row.supervisor_id else None,
            device=row.device,
            device_claim=device_claim(row.device),
            at=when(row.created_at),
        )
        out.append(shape)
    return out


def hand_shape(session: Session, replayed: Replayed) -> dict[str, Any]:
    """A hand as API.md draws it: rules, seats with melds, net, events."""
    hand, engine = replayed.row, replayed.engine
    players, names = _players_and_recorders(session, replayed)
    seats: dict[str, Any] = {}
    for seat in engine.seats:
        seats[str(seat)] = {
            "player": players[hand.seats[str(seat)]],
            "status": engine.seat_status[seat],
            "cards_down": engine.cards_down[seat],
            "melds": [m.as_dict() for m in engine.melds_of(seat)],
            "allowed": sorted(engine.allowed(seat)),
        }
    return {
        "id": hand.id,
        "table": hand.table_id,
        "number": hand.number,
        "status": engine.status,
        "rules": hand.rules,
        "collection": hand.collection,
        "winner": engine.winner,
        "seats": seats,
        "net": {rules.party_name(p): chips for p, chips in engine.net.items()},
        "events": event_shapes(session, replayed, names),
        "started_at": when(hand.started_at),
        "ended_at": when(hand.ended_at),
    }


#: The players of some seatings and the names of some users, told apart by the first column.
#: Plain SQL, the same on both databases, built once: nothing to compile or key each time.
_PLAYERS_AND_NAMES = text(
    "SELECT 's', id, player FROM seatings WHERE id IN :seatings "
    "UNION ALL SELECT 'u', id, name FROM users WHERE id IN :users"
).bindparams(bindparam("seatings", expanding=True), bindparam("users", expanding=True))


def _players_and_recorders(
    session: Session, replayed: Replayed
) -> tuple[dict[int, str], dict[int, str]]:
    """The players of the hand's seatings and the names of its events' recorders, by id.

    One query (UNION ALL) instead of two: every answer about a hand asks both, and each query
    is a round trip made under the writers' lock when the answer is a write's.
    """
    asked = {"seatings": list(replayed.row.seats.values()), "users": sorted(_recorders(replayed))}
    players: dict[int, str] = {}
    names: dict[int, str] = {}
    for kind, ident, name in session.connection().execute(_PLAYERS_AND_NAMES, asked):
        (players if kind == "s" else names)[ident] = name
    return players, names


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
