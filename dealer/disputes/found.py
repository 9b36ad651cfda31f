"""What the dispute desk's search (`dealer.disputes.search`) found: payments, each with its
two sides in words, or seats of hands, each with what is filled in once found (whether the
amount asked about shows in its chips, the payments that make it up); and each payment's number
within its event, which is the address of its dispute view."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import or_, select
from sqlalchemy.orm import Session

from dealer.disputes.asking import Question
from dealer.disputes.payment import payment_numbers
from dealer.ledger.accounts import parse_account, seating_account
from dealer.models import Event, LedgerEntry, Seating, Table
from dealer.words.catalogue import say
from dealer.words.parties import party_words, seat_words
from dealer.words.rules import Rule, rule


@dataclass(frozen=True, slots=True)
class Side:
    """One side of a payment: ``seat 3 (Cy)``, the pot or the house."""

    #: A seat number, "pot", "house" or "cage".
    party: int | str
    words: str


@dataclass(frozen=True, slots=True)
class FoundPayment:
    #: Its ledger entry's seq.
    entry: int
    at: datetime
    table: int
    table_name: str
    hand: int
    hand_number: int
    event: int
    #: The payment's number in its event (from 1): its dispute view is
    #: /hands/<hand>/events/<event>/payments/<number>.
    number: int
    payer: Side
    payee: Side
    chips: int
    rule: Rule
    reason: str
    reverses: int | None


@dataclass(frozen=True, slots=True)
class Found:
    payments: list[FoundPayment]
    #: More payments match than the page holds: narrow the search.
    more: bool


def described(session: Session, rows: list[Any]) -> list[FoundPayment]:
    """The page of payments found (each entry with its hand's number and table), with their
    seats, players, tables and each payment's number."""
    entries = [row[0] for row in rows]
    seating_ids = {
        account.id
        for e in entries
        for account in (parse_account(e.from_account), parse_account(e.to_account))
        if account is not None and account.kind == "seating" and account.id is not None
    }
    seatings = {
        s.id: (s.seat, s.player)
        for s in session.execute(
            select(Seating.id, Seating.seat, Seating.player).where(Seating.id.in_(seating_ids))
        )
    }
    tables = dict(
        session.execute(
            select(Table.id, Table.name).where(Table.id.in_({row[2] for row in rows}))
        ).all()
    )
    numbers = payment_numbers(session, (e.event_id for e in entries if e.event_id is not None))
    return [
        FoundPayment(
            entry=e.seq,
            at=e.at,
            table=table_id,
            table_name=tables.get(table_id, ""),
            hand=e.hand_id or 0,
            hand_number=number,
            event=e.event_id or 0,
            number=numbers.get(e.seq, 1),
            payer=_side(e.from_account, seatings),
            payee=_side(e.to_account, seatings),
            chips=e.chips,
            rule=rule(e.reason_code),
            reason=e.reason,
            reverses=e.reverses,
        )
        for e, number, table_id in rows
    ]


def _side(account: str, seatings: Mapping[int, tuple[int, str]]) -> Side:
    parsed = parse_account(account)
    if parsed is None:
        return Side(account, account)
    if parsed.kind == "seating" and parsed.id is not None and parsed.id in seatings:
        seat, player = seatings[parsed.id]
        return Side(seat, seat_words(seat, player))
    if parsed.kind in ("pot", "house"):
        return Side(parsed.kind, party_words(parsed.kind))
    return Side(parsed.kind, say("cage") if parsed.kind == "cage" else say("seating"))


@dataclass(slots=True)
class MatchedPayment:
    """A payment of the seat that is the amount asked about."""

    entry: int
    event: int
    event_seq: int
    #: Its number within its event (the dispute view's address).
    number: int
    chips: int
    paid: bool


@dataclass(slots=True)
class FoundSeat:
    """A seat of a hand that fits what was asked: the seat's chips in that hand."""

    hand: int
    hand_number: int
    table: int
    table_name: str
    #: When the hand was dealt.
    at: datetime
    seat: int
    player: str
    seating: int
    paid: int = 0
    received: int = 0
    #: How the amount asked about shows: "paid", "received" (in all), "payment" (one), or
    #: "event" (the seat's total for one event: 16 from four payers of 4).
    matched: str = ""
    #: The seat's payments of exactly the amount asked about, and that amount.
    same: int = 0
    amount: int = 0
    #: The seat's events whose chips (paid, or received) total the amount asked about.
    events: int = 0
    payments: list[MatchedPayment] = field(default_factory=list)

    @property
    def net(self) -> int:
        return self.received - self.paid


@dataclass(frozen=True, slots=True)
class SeatsFound:
    query: Question
    seats: list[FoundSeat]
    #: More seats fit than the page holds: say more.
    more: bool
    #: The hands looked through (of the window), for the sentence that says so.
    tables: list[str]
    #: An amount alone stopped at the hands dealt since then (READ_AT_MOST read): a player, a
    #: seat, a table or a time looks further back. None: the whole window was read.
    stopped: datetime | None = None


def matches(seat: FoundSeat, amount: int) -> bool:
    """Whether ``amount`` shows in the seat's chips: in all (paid, received, or its net), as
    one payment, or as its total for one event (what a player remembers of a condition: the
    chips from every payer)."""
    if amount in (seat.paid, -seat.net):
        seat.matched = "paid"
    elif amount in (seat.received, seat.net):
        seat.matched = "received"
    elif seat.same:
        seat.matched = "payment"
    elif seat.events:
        seat.matched = "event"
    return bool(seat.matched)


def add_payments(session: Session, page: list[FoundSeat]) -> None:
    """The payments of the seats found: those the amount is made of (every one when no amount
    was asked about), in the ledger's order."""
    if not page:
        return
    by_key = {(s.hand, seating_account(s.seating)): s for s in page}
    accounts = sorted({account for _, account in by_key})
    wanted = select(
        LedgerEntry.seq,
        LedgerEntry.hand_id,
        LedgerEntry.event_id,
        LedgerEntry.from_account,
        LedgerEntry.to_account,
        LedgerEntry.chips,
    ).where(
        LedgerEntry.hand_id.in_({s.hand for s in page}),
        or_(LedgerEntry.from_account.in_(accounts), LedgerEntry.to_account.in_(accounts)),
    )
    for seq, hand_id, event_id, source, target, chips in session.execute(
        wanted.order_by(LedgerEntry.seq)
    ):
        for account, paid in ((source, True), (target, False)):
            seat = by_key.get((hand_id or 0, account))
            if seat is None or not _kept(seat, paid, chips):
                continue
            seat.payments.append(MatchedPayment(seq, event_id or 0, 0, 0, chips, paid))
    for seat in page:
        if seat.matched == "event":
            seat.payments = _of_events(seat.payments, seat.amount)


def _kept(seat: FoundSeat, paid: bool, chips: int) -> bool:
    if seat.matched == "paid":
        return paid
    if seat.matched == "received":
        return not paid
    if seat.matched == "payment":
        return chips == seat.amount
    return True


def _of_events(payments: list[MatchedPayment], amount: int) -> list[MatchedPayment]:
    """The payments of the events whose chips, paid or received, total ``amount``."""
    totals: dict[tuple[int, bool], int] = {}
    for p in payments:
        totals[p.event, p.paid] = totals.get((p.event, p.paid), 0) + p.chips
    return [p for p in payments if totals[p.event, p.paid] == amount]


def number_payments(session: Session, payments: list[MatchedPayment]) -> None:
    """Each payment's event seq and its number within its event (the dispute view's address)."""
    events = {p.event for p in payments if p.event}
    if not events:
        return
    seqs = dict(session.execute(select(Event.id, Event.seq).where(Event.id.in_(events))).all())
    numbers = payment_numbers(session, events)
    for p in payments:
        p.event_seq = seqs.get(p.event, 0)
        p.number = numbers.get(p.entry, 1)
