"""Disputes as a client reads them: a dispute on the record with its ruling, and the
payments a search found (`dealer.disputes`).

The API dumps these and its document is made from them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import asdict
from typing import Literal

from pydantic import Field

from dealer.disputes.record import OnRecord
from dealer.disputes.search import Found, FoundPayment
from dealer.views.base import Time, View, row_columns
from dealer.views.events import PaymentView
from dealer.views.hand import HandView
from dealer.views.statement import RuleNamed, rule_named
from dealer.words.catalogue import say, say_n

__all__ = [
    "DisputeList",
    "DisputeSaid",
    "DisputeView",
    "FoundPaymentView",
    "PaymentsFound",
    "dispute_list",
    "dispute_said",
    "dispute_view",
    "payments_found",
]


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
        json_schema_extra={"propertyNames": {"pattern": "^[1-8]$"}},
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


class DisputeSaid(View):
    """A dispute as the floor says it: who raised it, by name and seat, and the payment it is
    about in words ("Rosa, seat 3" / "the 4 chips from seat 2 (Bea) for valle set ...")."""

    who: str
    about: str | None


def dispute_said(
    found: OnRecord, board: HandView, entries_by_event: Mapping[int, list[int]]
) -> DisputeSaid:
    """``found`` in words, from its hand's view (the players' names, each event's payments in
    words) and the ledger entries of each event, in order (an event's n-th is its n-th
    payment)."""
    dispute = found.dispute
    seat = dispute.seat if dispute.raised_by == "seat" else None
    if seat is None:
        who = say("the dealer")
    elif board.names.get(seat):
        who = say("{player}, seat {seat}", player=board.names[seat], seat=seat)
    else:
        who = say("seat {seat}", seat=seat)
    about = None
    if dispute.entry_seq is not None:
        paid = _payment_of(board, entries_by_event, dispute.entry_seq)
        about = _payment_said(paid, seat) if paid is not None else None
        if about is None:
            about = say("ledger entry {entry}", entry=dispute.entry_seq)
    return DisputeSaid(who=who, about=about)


def _payment_of(
    board: HandView, entries_by_event: Mapping[int, list[int]], seq: int
) -> PaymentView | None:
    for event in board.events:
        seqs = entries_by_event.get(event.id, [])
        if seq in seqs and seqs.index(seq) < len(event.payments):
            return event.payments[seqs.index(seq)]
    return None


def _payment_said(paid: PaymentView, seat: int | None) -> str:
    """The payment as the seat that raised the dispute says it: the chips it received (from
    whom) or paid (to whom), and why."""
    if seat is not None and paid.to == str(seat):
        return say_n(
            "the {n} chip from {payer} for {reason}",
            "the {n} chips from {payer} for {reason}",
            paid.chips,
            payer=paid.payer,
            reason=paid.reason,
        )
    if seat is not None and paid.from_ == str(seat):
        return say_n(
            "the {n} chip paid to {payee} for {reason}",
            "the {n} chips paid to {payee} for {reason}",
            paid.chips,
            payee=paid.payee,
            reason=paid.reason,
        )
    return say_n(
        "the {n} chip {payer} paid {payee} for {reason}",
        "the {n} chips {payer} paid {payee} for {reason}",
        paid.chips,
        payer=paid.payer,
        payee=paid.payee,
        reason=paid.reason,
    )
