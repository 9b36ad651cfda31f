"""A seat's statement for a hand: every chip in and out, by the other party and by rule.

Computed once here, from the hand's ledger entries (the chips) and its replay (the rule, the
meld and the cards behind each entry); the screen, the API and the printed slip show this
one statement. Its net is held to the ledger's own sum for the seat's account, read apart
(``ledger_net``): a statement that does not add up says so instead of hiding it.

"seat 3 paid seat 1 8 = 2 going out + 6 conditions paid again (4 for 5S 5S 5S, 2 for KS KS KS)"
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy import case, func, select
from sqlalchemy.orm import Session

from dealer import rules
from dealer.bounds import SEATS
from dealer.errors import NotFound
from dealer.hands.reading import Replayed, load_hand
from dealer.ledger.accounts import seating_account
from dealer.models import LedgerEntry, Seating, Table
from dealer.rulebook import Rule, rule

__all__ = [
    "PartyGroup",
    "RuleGroup",
    "Statement",
    "StatementLine",
    "party_words",
    "seat_statement",
]

#: Payments that a going out's "conditions paid again" repeats, net (as the dispute view).
PAID_AGAIN = frozenset({"condition", "foul_refund", "void", "void_hand"})


def party_words(party: rules.Party) -> str:
    """``seat 3``, ``the pot`` or ``the house``: how a statement names the other party."""
    if party == rules.POT:
        return "the pot"
    if party == rules.HOUSE:
        return "the house"
    return f"seat {party}"


@dataclass(frozen=True, slots=True)
class StatementLine:
    """One payment to or from the seat: ``chips`` is signed as the seat sees it (+ in)."""

    event_id: int
    event_seq: int
    #: The payment's number within its event (from 1): the dispute view's address.
    number: int
    entry_seq: int
    at: datetime
    other: rules.Party
    rule: Rule
    chips: int
    #: What it was for: "5S 5S 5S", or the breakdown of conditions paid again.
    detail: str
    reason: str
    event_text: str
    #: The seq of the void that stands against this line's event, if any.
    voided_by: int | None
    #: The seat's net after this line, in the order the ledger recorded them.
    running: int = 0


@dataclass(slots=True)
class RuleGroup:
    """What went one way between the seat and one party under one rule."""

    rule: Rule
    #: "paid" (the seat paid the party) or "received".
    direction: str
    lines: list[StatementLine] = field(default_factory=list)

    @property
    def chips(self) -> int:
        return sum(abs(line.chips) for line in self.lines)

    @property
    def detail(self) -> str:
        """Each line's what-for: ``4 for 5S 5S 5S, 1 for JH QH KH``."""
        details = [line for line in self.lines if line.detail]
        if len(self.lines) == 1 or self.rule.code == "conditions_again":
            return "; ".join(line.detail for line in details)
        return ", ".join(f"{abs(line.chips)} {line.detail}" for line in details)

    def words(self) -> str:
        """``6 conditions paid again (4 for 5S 5S 5S, 2 for KS KS KS)``."""
        detail = self.detail
        return f"{self.chips} {self.rule.name}" + (f" ({detail})" if detail else "")


@dataclass(slots=True)
class PartyGroup:
    """Everything between the seat and one other party, and the seat's running total after."""

    party: rules.Party
    #: "seat 1 (Ann)", "the pot", "the house".
    label: str
    paid: list[RuleGroup] = field(default_factory=list)
    received: list[RuleGroup] = field(default_factory=list)
    running: int = 0

    @property
    def paid_chips(self) -> int:
        return sum(g.chips for g in self.paid)

    @property
    def received_chips(self) -> int:
        return sum(g.chips for g in self.received)

    @property
    def net(self) -> int:
        return self.received_chips - self.paid_chips

    @property
    def lines(self) -> list[StatementLine]:
        return sorted(
            (line for g in (*self.paid, *self.received) for line in g.lines),
            key=lambda line: line.entry_seq,
        )


@dataclass(slots=True)
class Statement:
    """Seat ``seat``'s chips in and out over hand ``hand_id``."""

    hand_id: int
    hand_number: int
    table_id: int
    table_name: str
    status: str
    seat: int
    player: str
    seating_id: int
    account: str
    lines: list[StatementLine]
    parties: list[PartyGroup]
    #: The seat's net from the ledger's own sum over its account, read apart from the lines.
    ledger_net: int

    @property
    def net(self) -> int:
        return sum(line.chips for line in self.lines)

    @property
    def paid(self) -> int:
        return -sum(line.chips for line in self.lines if line.chips < 0)

    @property
    def received(self) -> int:
        return sum(line.chips for line in self.lines if line.chips > 0)

    @property
    def balanced(self) -> bool:
        return self.net == self.ledger_net

    def sentences(self) -> list[str]:
        """One sentence for each way chips went between the seat and a party."""
        me = f"seat {self.seat}"
        out = []
        for party in self.parties:
            other = party_words(party.party)
            for who, whom, groups in ((me, other, party.paid), (other, me, party.received)):
                if groups:
                    total = sum(g.chips for g in groups)
                    parts = " + ".join(g.words() for g in groups)
                    out.append(f"{who} paid {whom} {total} = {parts}")
        return out


def seat_statement(session: Session, hand_id: int, seat: int) -> Statement:
    """Seat ``seat``'s statement for hand ``hand_id`` (404 for a seat not dealt in)."""
    replayed = load_hand(session, hand_id)
    return statement_of(session, replayed, seat)


def statement_of(session: Session, replayed: Replayed, seat: int) -> Statement:
    """The statement of ``seat`` in a hand already replayed."""
    hand = replayed.row
    if not SEATS[0] <= seat <= SEATS[1] or str(seat) not in hand.seats:
        raise NotFound(f"Seat {seat} was not dealt into hand {hand.number}.", "unknown_seat")
    seating_ids = {int(s): i for s, i in hand.seats.items()}
    names = dict(
        session.execute(
            select(Seating.id, Seating.player).where(Seating.id.in_(seating_ids.values()))
        ).all()
    )
    table_name = session.scalar(select(Table.name).where(Table.id == hand.table_id)) or ""
    account = seating_account(seating_ids[seat])
    entries: dict[int, list[LedgerEntry]] = {}
    for entry in session.scalars(
        select(LedgerEntry).where(LedgerEntry.hand_id == hand.id).order_by(LedgerEntry.seq)
    ):
        if entry.event_id is not None:
            entries.setdefault(entry.event_id, []).append(entry)
    engine = replayed.engine
    lines: list[StatementLine] = []
    for row, record in zip(replayed.events, engine.events, strict=True):
        for number, (paid, entry) in enumerate(
            zip(record.payments, entries.get(row.id, []), strict=False), start=1
        ):
            if seat not in (paid.payer, paid.payee):
                continue
            outgoing = paid.payer == seat
            lines.append(
                StatementLine(
                    event_id=row.id,
                    event_seq=row.seq,
                    number=number,
                    entry_seq=entry.seq,
                    at=entry.at,
                    other=paid.payee if outgoing else paid.payer,
                    rule=rule(paid.rule),
                    chips=-entry.chips if outgoing else entry.chips,
                    detail=_detail(replayed, record, paid),
                    reason=paid.reason,
                    event_text=record.text,
                    voided_by=engine.voided.get(row.seq),
                )
            )
    lines.sort(key=lambda line: line.entry_seq)
    running = 0
    for i, line in enumerate(lines):
        running += line.chips
        lines[i] = _with_running(line, running)
    parties = _parties(lines, {s: names.get(i, "") for s, i in seating_ids.items()})
    return Statement(
        hand_id=hand.id,
        hand_number=hand.number,
        table_id=hand.table_id,
        table_name=table_name,
        status=engine.status,
        seat=seat,
        player=names.get(seating_ids[seat], ""),
        seating_id=seating_ids[seat],
        account=account,
        lines=lines,
        parties=parties,
        ledger_net=ledger_net(session, hand.id, account),
    )


def ledger_net(session: Session, hand_id: int, account: str) -> int:
    """What ``account`` gained over hand ``hand_id``, summed by the database."""
    signed = case((LedgerEntry.to_account == account, LedgerEntry.chips), else_=-LedgerEntry.chips)
    total = session.scalar(
        select(func.coalesce(func.sum(signed), 0)).where(
            LedgerEntry.hand_id == hand_id,
            (LedgerEntry.from_account == account) | (LedgerEntry.to_account == account),
        )
    )
    return int(total or 0)


def _with_running(line: StatementLine, running: int) -> StatementLine:
    return StatementLine(**{**{f: getattr(line, f) for f in line.__slots__}, "running": running})


def _parties(lines: Iterable[StatementLine], names: Mapping[int, str]) -> list[PartyGroup]:
    """The lines by party (seats in order, then the pot and the house), then by rule."""
    groups: dict[rules.Party, PartyGroup] = {}
    for line in lines:
        party = groups.get(line.other)
        if party is None:
            label = party_words(line.other)
            if isinstance(line.other, int) and names.get(line.other):
                label = f"{label} ({names[line.other]})"
            party = groups[line.other] = PartyGroup(line.other, label)
        side = party.paid if line.chips < 0 else party.received
        direction = "paid" if line.chips < 0 else "received"
        group = next((g for g in side if g.rule.code == line.rule.code), None)
        if group is None:
            group = RuleGroup(line.rule, direction)
            side.append(group)
        group.lines.append(line)
    ordered = sorted(groups.values(), key=_party_order)
    running = 0
    for party in ordered:
        running += party.net
        party.running = running
    return ordered


def _party_order(group: PartyGroup) -> tuple[int, int]:
    party = group.party
    if isinstance(party, int):
        return (0, party)
    return (1, 0) if party == rules.POT else (2, 0)


def _detail(replayed: Replayed, record: rules.EventRecord, paid: rules.Payment) -> str:
    """What a payment was for, in cards: the meld, or what conditions paid again repeat."""
    cards = rules.format_cards(paid.cards)
    if paid.rule == "conditions_again":
        return _paid_again(replayed, record, paid)
    if paid.rule in ("void", "void_hand") and paid.reverses is not None:
        return f"of event {paid.reverses[0]}" + (f", for {cards}" if cards else "")
    return f"for {cards}" if cards else ""


def _paid_again(replayed: Replayed, record: rules.EventRecord, paid: rules.Payment) -> str:
    """``4 for 5S 5S 5S, 2 for KS KS KS``: the conditions that payer paid payee, by meld."""
    by_meld: dict[int | None, int] = {}
    cards: dict[int | None, str] = {}
    for earlier in replayed.engine.events[: record.seq - 1]:
        for p in earlier.payments:
            if p.rule not in PAID_AGAIN or {p.payer, p.payee} != {paid.payer, paid.payee}:
                continue
            sign = 1 if p.payer == paid.payer else -1
            # A foul's refund names no meld: it returns the seat's conditions in one sum.
            key = p.meld if p.rule != "foul_refund" else None
            by_meld[key] = by_meld.get(key, 0) + sign * p.chips
            if p.cards:
                cards[key] = rules.format_cards(p.cards)
    parts = []
    for key, chips in by_meld.items():
        if chips and key is None:
            parts.append(f"{chips} returned at the foul")
        elif chips:
            parts.append(f"{chips} for {cards.get(key, 'a meld')}")
    return ", ".join(parts)
