"""Disputes as a client reads them: a dispute on the record with its ruling, and the
payments a search found (`dealer.disputes`).

The API dumps these and its document is made from them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict
from typing import Literal

from pydantic import Field

from dealer.disputes.record import OnRecord
from dealer.disputes.search import Found, FoundPayment
from dealer.views.base import Time, View, row_columns
from dealer.views.statement import RuleNamed, rule_named

__all__ = [
    "DisputeList",
    "DisputeView",
    "FoundPaymentView",
    "PaymentsFound",
    "dispute_list",
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
