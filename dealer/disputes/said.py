"""A dispute in words, one sentence everywhere it is shown or written (the hand's screen, the
floor's open disputes, the audit trail, the documents): who raised it, by name and seat, and
the payment it is about as the players saw it ("Rosa, seat 3: the 4 chips from seat 2 (Bea)
for valle set in spades (5♠ 5♠ 5♠)"), never a ledger entry's number."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from dealer import rules
from dealer.hands.reading import Replayed, load_hand
from dealer.ledger.replay import hand_rules
from dealer.models import Dispute, LedgerEntry, Seating
from dealer.words.catalogue import say, say_n
from dealer.words.parties import party_words
from dealer.words.payments import payment_reason


@dataclass(frozen=True, slots=True)
class DisputeSaid:
    """Who raised a dispute ("Rosa, seat 3", "the dealer") and the payment it is about, if
    any ("the 4 chips from seat 2 (Bea) for ...")."""

    who: str
    about: str | None

    @property
    def sentence(self) -> str:
        """The two as one line: "Rosa, seat 3: the 4 chips from seat 2 (Bea) for ..."."""
        if self.about is None:
            return self.who
        return say("{who}: {about}", who=self.who, about=self.about)


def dispute_sentence(session: Session, dispute: Dispute) -> str:
    """``dispute`` in one sentence, as the screens and documents say it."""
    return disputes_said(session, [dispute])[dispute.id].sentence


def disputes_said(session: Session, disputes: Iterable[Dispute]) -> dict[int, DisputeSaid]:
    """Each of ``disputes`` in words, by its id: each hand replayed once."""
    by_hand: dict[int, list[Dispute]] = {}
    for dispute in disputes:
        by_hand.setdefault(dispute.hand_id, []).append(dispute)
    said: dict[int, DisputeSaid] = {}
    for hand_id, of_hand in by_hand.items():
        replayed = load_hand(session, hand_id)
        seatings = {seating: int(seat) for seat, seating in replayed.row.seats.items()}
        players = {
            seatings[ident]: player
            for ident, player in session.execute(
                select(Seating.id, Seating.player).where(Seating.id.in_(seatings))
            )
        }
        entries = session.execute(
            select(LedgerEntry.seq, LedgerEntry.event_id)
            .where(LedgerEntry.hand_id == hand_id)
            .order_by(LedgerEntry.seq)
        )
        by_event: dict[int, list[int]] = {}
        for seq, event_id in entries:
            if event_id is not None:
                by_event.setdefault(event_id, []).append(seq)
        for dispute in of_hand:
            said[dispute.id] = dispute_said(dispute, replayed, players, by_event)
    return said


def dispute_said(
    dispute: Dispute,
    replayed: Replayed,
    players: Mapping[int, str],
    entries_by_event: Mapping[int, list[int]],
) -> DisputeSaid:
    """``dispute`` in words, from its hand replayed, its players by seat and the ledger entries
    of each event, in order (an event's n-th entry is its n-th payment)."""
    seat = dispute.seat if dispute.raised_by == "seat" else None
    if seat is None:
        who = say("the dealer")
    elif players.get(seat):
        who = say("{player}, seat {seat}", player=players[seat], seat=seat)
    else:
        who = say("seat {seat}", seat=seat)
    about = None
    if dispute.entry_seq is not None:
        paid = _payment_of(replayed, entries_by_event, dispute.entry_seq)
        if paid is not None:
            about = _payment_said(paid, seat, players, hand_rules(replayed.row))
        else:
            about = say("a payment of this hand")
    return DisputeSaid(who=who, about=about)


def _payment_of(
    replayed: Replayed, entries_by_event: Mapping[int, list[int]], seq: int
) -> rules.Payment | None:
    for row, record in zip(replayed.events, replayed.engine.events, strict=True):
        seqs = entries_by_event.get(row.id, [])
        if seq in seqs and seqs.index(seq) < len(record.payments):
            return record.payments[seqs.index(seq)]
    return None


def _payment_said(
    paid: rules.Payment, seat: int | None, players: Mapping[int, str], played: rules.Rules
) -> str:
    """The payment as the seat that raised the dispute says it: the chips it received (from
    whom) or paid (to whom), and why."""
    payer, payee = party_words(paid.payer, players), party_words(paid.payee, players)
    reason = payment_reason(paid, played)
    if seat is not None and paid.payee == seat:
        return say_n(
            "the {n} chip from {payer} for {reason}",
            "the {n} chips from {payer} for {reason}",
            paid.chips,
            payer=payer,
            reason=reason,
        )
    if seat is not None and paid.payer == seat:
        return say_n(
            "the {n} chip paid to {payee} for {reason}",
            "the {n} chips paid to {payee} for {reason}",
            paid.chips,
            payee=payee,
            reason=reason,
        )
    return say_n(
        "the {n} chip {payer} paid {payee} for {reason}",
        "the {n} chips {payer} paid {payee} for {reason}",
        paid.chips,
        payer=payer,
        payee=payee,
        reason=reason,
    )
