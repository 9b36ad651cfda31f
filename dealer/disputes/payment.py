"""A payment in dispute: the rule behind it, its ledger entry, the entries that reverse it
(or that it reverses), and, for conditions paid again at going out, the payments behind them.

Reads only; what a screen or a document shows of a dispute is gathered here once.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from sqlalchemy import or_, select
from sqlalchemy.orm import Session

from dealer import rules
from dealer.errors import NotFound
from dealer.hands.reading import Replayed
from dealer.models import LedgerEntry
from dealer.words.catalogue import say

#: The payments that a going out's "conditions paid again" repeats, net.
PAID_AGAIN = ("condition", "foul_refund", "void")


@dataclass(frozen=True, slots=True)
class PaymentTrail:
    """Payment ``number`` (from 1) of the event at ``index`` in the hand, and its entries."""

    index: int
    record: rules.EventRecord
    payment: rules.Payment
    entry: LedgerEntry
    #: Entries that reverse this one, or that it reverses, in seq order.
    linked: list[LedgerEntry]
    #: For conditions paid again: each earlier (event, payment number, payment) between the pair.
    behind: list[tuple[rules.EventRecord, int, rules.Payment]]


def payment_trail(session: Session, replayed: Replayed, event_id: int, number: int) -> PaymentTrail:
    """The trail of payment ``number`` of event ``event_id`` in ``replayed``."""
    index = next((i for i, row in enumerate(replayed.events) if row.id == event_id), None)
    if index is None:
        raise NotFound(
            say("There is no event {event_id} in this hand.", event_id=event_id), "unknown_event"
        )
    record = replayed.engine.events[index]
    if not 1 <= number <= len(record.payments):
        raise NotFound(
            say("Event {seq} has no payment {number}.", seq=record.seq, number=number),
            "unknown_payment",
        )
    paid = record.payments[number - 1]
    entries = list(
        session.scalars(
            select(LedgerEntry).where(LedgerEntry.event_id == event_id).order_by(LedgerEntry.seq)
        )
    )
    entry = entries[number - 1]
    linked = list(
        session.scalars(
            select(LedgerEntry)
            .where(or_(LedgerEntry.reverses == entry.seq, LedgerEntry.seq == (entry.reverses or 0)))
            .order_by(LedgerEntry.seq)
        )
    )
    behind: list[tuple[rules.EventRecord, int, rules.Payment]] = []
    if paid.rule == "conditions_again":
        for earlier in replayed.engine.events:
            for i, p in enumerate(earlier.payments):
                if {p.payer, p.payee} == {paid.payer, paid.payee} and p.rule in PAID_AGAIN:
                    behind.append((earlier, i + 1, p))
    return PaymentTrail(index, record, paid, entry, linked, behind)


def payment_numbers(session: Session, event_ids: Iterable[int]) -> dict[int, int]:
    """Each ledger entry of these events (by seq), numbered from 1 within its event in the
    ledger's order: a payment's address in a dispute (event and number)."""
    events = set(event_ids)
    if not events:
        return {}
    rows = session.execute(
        select(LedgerEntry.seq, LedgerEntry.event_id)
        .where(LedgerEntry.event_id.in_(events))
        .order_by(LedgerEntry.event_id, LedgerEntry.seq)
    )
    place: dict[int, int] = {}
    numbers: dict[int, int] = {}
    for seq, event_id in rows:
        if event_id is not None:
            place[event_id] = place.get(event_id, 0) + 1
            numbers[seq] = place[event_id]
    return numbers
