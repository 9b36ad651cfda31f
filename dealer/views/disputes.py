"""Disputes as a client reads them: a dispute on the record with its ruling, and what the
desk's search found (`dealer.disputes.search`): payments, or the seats of hands that fit a
search in words, each naming its hand, table, time and seat, and why it fits.

The API dumps these and its document is made from them. A person reads a dispute in words
(`DisputeLine`): the documents and the open disputes' list.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict
from typing import Literal

from pydantic import Field
from sqlalchemy import select
from sqlalchemy.orm import Session

from dealer.disputes.found import Found, FoundPayment, FoundSeat, SeatsFound
from dealer.disputes.record import OnRecord, disputes_of_hands
from dealer.disputes.said import DisputeSaid, disputes_said
from dealer.models import Event, Hand, Table
from dealer.people.users import names_of
from dealer.views.base import SEAT_KEY, Time, View, row_columns, screen
from dealer.views.statement import RuleNamed, rule_named
from dealer.words.catalogue import say, say_n


# Read from its row (`DisputeRuling`): a field whose column is named otherwise names it.
class RulingView(View):
    outcome: Literal["upheld", "denied"]
    reason: str
    void_event: int | None = Field(
        validation_alias="void_event_id", description="The void event it led to (upheld)."
    )
    correction: int | None = Field(
        validation_alias="correction_seq",
        description="The correcting ledger entry's seq (upheld).",
    )
    ruled_by: int = Field(validation_alias="user_id", description="The supervisor's user id.")
    device: str
    at: Time = Field(validation_alias="ruled_at")


# Read from its row (`Dispute`) as `RulingView` is, with its hand's table, its status and ruling.
class DisputeView(View):
    id: int
    hand: int = Field(validation_alias="hand_id")
    table: int
    status: Literal["open", "ruled"]
    raised_by: Literal["seat", "dealer"]
    seat: int | None
    claim: str
    entry: int | None = Field(
        validation_alias="entry_seq", description="The ledger entry the claim is about, if any."
    )
    opened_by: int = Field(
        validation_alias="user_id", description="The user id of whoever put it on the record."
    )
    device: str
    at: Time = Field(validation_alias="opened_at")
    ruling: RulingView | None


class DisputeList(View):
    disputes: list[DisputeView]


def dispute_view(found: OnRecord) -> DisputeView:
    on_record = {"table": found.table_id, "status": found.status, "ruling": found.ruling}
    # from_attributes: the ruling is read from its row too.
    return DisputeView.model_validate(row_columns(found.dispute) | on_record, from_attributes=True)


class SideView(View):
    party: str = Field(description='A seat ("3"), "pot", "house" or "cage".')
    words: str


class FoundPaymentView(View):
    entry: int
    at: Time
    table: int
    table_name: str
    hand: int
    hand_number: int
    event: int
    payment: int = Field(description="The payment's number within its event (from 1).")
    from_: SideView = Field(alias="from")
    to: SideView
    chips: int
    rule: RuleNamed
    reason: str
    reverses: int | None
    dispute: str = Field(description="The payment's dispute view (a screen).")
    statements: dict[str, str] = Field(
        description="Each seat's statement for the hand (API), by seat.",
        json_schema_extra=SEAT_KEY,
    )


class PaymentsFound(View):
    payments: list[FoundPaymentView] = Field(description="The newest first.")
    more: bool = Field(description="More payments match than this page holds.")


def payments_found(found: Found) -> PaymentsFound:
    return PaymentsFound(payments=[_found_payment(p) for p in found.payments], more=found.more)


def _found_payment(p: FoundPayment) -> FoundPaymentView:
    """A found payment holds the view's fields by the view's names; its sides, its rule and its
    links are said here (``number`` is the view's ``payment``)."""
    seats = [side.party for side in (p.payer, p.payee) if isinstance(side.party, int)]
    return FoundPaymentView.model_validate(
        {
            **asdict(p),
            "payment": p.number,
            "from": SideView(party=str(p.payer.party), words=p.payer.words),
            "to": SideView(party=str(p.payee.party), words=p.payee.words),
            "rule": rule_named(p.rule.code),
            "dispute": f"/hands/{p.hand}/events/{p.event}/payments/{p.number}",
            "statements": {str(s): f"/api/v1/hands/{p.hand}/seats/{s}/statement" for s in seats},
        }
    )


def dispute_list(found: Iterable[OnRecord]) -> DisputeList:
    return DisputeList(disputes=[dispute_view(f) for f in found])


class MatchedPaymentView(View):
    entry: int = Field(description="The ledger entry's seq.")
    event: int = Field(description="The event's id.")
    event_seq: int
    number: int = Field(description="The payment's number within its event.")
    chips: int
    paid: bool = Field(description="true: the seat paid it; false: the seat received it.")


class FoundSeatView(View):
    """A seat of a hand that fits the search."""

    hand: int
    hand_number: int
    table: int
    table_name: str
    at: Time = Field(description="When the hand was dealt.")
    seat: int
    player: str
    paid: int = Field(description="The chips the seat paid in the hand, in all.")
    received: int = Field(description="The chips the seat received in the hand, in all.")
    matched: Literal["paid", "received", "payment", "event", ""] = Field(
        description="How the amount shows: paid or received in all, one payment, or the "
        "seat's total for one event (16 chips from four payers of 4); empty when no amount "
        "was asked about."
    )
    why: str = Field(description="Why it fits, in words.")
    payments: list[MatchedPaymentView] = Field(
        description="The seat's payments the amount is made of (all of them: no amount)."
    )


class SeatsFoundView(View):
    seats: list[FoundSeatView] = Field(description="The newest hand first.")
    more: bool = Field(description="More seats may fit than these: say more.")
    said: str = Field(description="What was looked for, in words.")
    stopped: Time | None = Field(
        description="An amount alone (no player, seat, table or time) read the hands dealt "
        "since then only (a busy shift's newest): a seat, a player, a table or a time looks "
        "further back. null: it read the whole shift."
    )


def _why(s: FoundSeat) -> str:
    who = say("Seat {seat} ({player})", seat=s.seat, player=s.player)
    if s.matched == "paid" and s.paid != s.amount:
        return say_n(
            "{who} is down {n} chip for the hand",
            "{who} is down {n} chips for the hand",
            -s.net,
            who=who,
        )
    if s.matched == "received" and s.received != s.amount:
        return say_n(
            "{who} is up {n} chip for the hand",
            "{who} is up {n} chips for the hand",
            s.net,
            who=who,
        )
    if s.matched == "paid":
        return say_n("{who} paid {n} chip in all", "{who} paid {n} chips in all", s.paid, who=who)
    if s.matched == "received":
        return say_n(
            "{who} received {n} chip in all", "{who} received {n} chips in all", s.received, who=who
        )
    if s.matched == "payment":
        chips = s.payments[0].chips
        return say_n(
            "{who}: one payment of {n} chip", "{who}: one payment of {n} chips", chips, who=who
        )
    if s.matched == "event":
        return _event_why(s, who)
    return say(
        "{who} paid {paid} and received {received}", who=who, paid=s.paid, received=s.received
    )


def _event_why(s: FoundSeat, who: str) -> str:
    """The seat's total for one event, and the payments it is made of."""
    first = s.payments[0]
    group = [p for p in s.payments if (p.event, p.paid) == (first.event, first.paid)]
    total = sum(p.chips for p in group)
    if first.paid:
        return say_n(
            "{who} paid {total} chips in one event, in {n} payment",
            "{who} paid {total} chips in one event, in {n} payments",
            len(group),
            who=who,
            total=total,
        )
    return say_n(
        "{who} received {total} chips in one event, from {n} payment",
        "{who} received {total} chips in one event, from {n} payments",
        len(group),
        who=who,
        total=total,
    )


def _said(found: SeatsFound) -> str:
    q = found.query
    parts = []
    if q.player is not None:
        parts.append(say("player {name}", name=q.player))
    if q.seat is not None:
        parts.append(say("seat {seat}", seat=q.seat))
    if found.tables:
        parts.append(", ".join(found.tables))
    if q.near is not None:
        parts.append(say("around the time asked (a quarter hour either way)"))
    if q.amount is not None:
        parts.append(say_n("{n} chip", "{n} chips", q.amount))
    parts.append(say("this shift"))
    return ", ".join(parts)


def seats_found(found: SeatsFound) -> SeatsFoundView:
    # A found seat and its payments hold the view's fields by the view's names (and a few the
    # search kept for itself, which the view leaves out); only why it fits is said here.
    return SeatsFoundView(
        seats=[FoundSeatView(**asdict(s), why=_why(s)) for s in found.seats],
        more=found.more,
        said=_said(found),
        stopped=found.stopped,
    )


class DisputeLine(DisputeView):
    """A dispute as the documents and the open disputes' list say it: its view, with its hand's
    table and number, and its people and its ruling in words."""

    table_name: str = screen("")
    hand_number: int = screen(0)
    #: Who raised it and the payment it is about (`dealer.disputes.said`).
    said: DisputeSaid = screen(None)
    opener: str = screen("")
    ruler: str | None = screen(None)
    #: open, upheld or denied, in words.
    outcome: str = screen("")
    #: What the ruling led to: "void of #12", "correction".
    led_to: str | None = screen(None)

    @property
    def is_open(self) -> bool:
        return self.status == "open"


def dispute_lines(
    session: Session, hand_ids: Iterable[int], also: Iterable[OnRecord] = ()
) -> tuple[DisputeLine, ...]:
    """The disputes on ``hand_ids`` (and ``also``), oldest first, ready to print."""
    found = {f.dispute.id: f for f in disputes_of_hands(session, hand_ids)}
    found.update({f.dispute.id: f for f in also})
    if not found:
        return ()
    records = [found[i] for i in sorted(found)]
    people = names_of(
        session,
        [f.dispute.user_id for f in records] + [f.ruling.user_id for f in records if f.ruling],
    )
    hands = {
        h.id: (h.number, name)
        for h, name in session.execute(
            select(Hand, Table.name)
            .join(Table, Table.id == Hand.table_id)
            .where(Hand.id.in_({f.dispute.hand_id for f in records}))
        )
    }
    said = disputes_said(session, [f.dispute for f in records])
    voids = [f.ruling.void_event_id for f in records if f.ruling and f.ruling.void_event_id]
    # A void by its number in its hand (#3), as the hand's screen numbers its events.
    numbered = dict(session.execute(select(Event.id, Event.seq).where(Event.id.in_(voids))).all())
    return tuple(
        _line(f, people, said[f.dispute.id], numbered, *hands[f.dispute.hand_id]) for f in records
    )


def _line(
    found: OnRecord,
    people: dict[int, str],
    said: DisputeSaid,
    numbered: dict[int, int],
    number: int,
    table: str,
) -> DisputeLine:
    r = found.ruling
    led_to = []
    if r is not None and r.void_event_id is not None:
        led_to.append(say("void of #{seq}", seq=numbered.get(r.void_event_id, "?")))
    if r is not None and r.correction_seq is not None:
        led_to.append(say("correction"))
    return DisputeLine(
        **dict(dispute_view(found)),
        table_name=table,
        hand_number=number,
        said=said,
        opener=people.get(found.dispute.user_id, "?"),
        ruler=people.get(r.user_id, "?") if r else None,
        outcome=found.outcome_words,
        led_to=", ".join(led_to) or None,
    )
