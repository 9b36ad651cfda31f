"""The dispute desk: a seat's statement for a hand, and finding a payment.

- ``GET /api/v1/hands/{id}/seats/{seat}/statement`` (as reading a hand: a dealer or above);
- ``GET /api/v1/payments?hand=&session=&from=&to=&seat=&player=&amount=&rule=&limit=``
  (`dealer.disputes.search.SEARCH_ROLE`).
"""

from __future__ import annotations

from typing import Any

from flask import Response, request

from dealer.api import bp, desk_answers
from dealer.api.hands import HAND
from dealer.clock import floor_clock
from dealer.disputes.search import SEARCH_ROLE, FoundPayment, find_payments, query_from
from dealer.extensions import current_session
from dealer.inputs import PaymentSearch, refuse_unknown
from dealer.people.authority import authorise_hand
from dealer.views.statement import Statement, seat_statement
from dealer.web.contract import asked, declare
from dealer.web.refusals import json_response
from dealer.web.signin import principal, signed_in
from dealer.words.rules import Rule

__all__ = ["found_shape", "rule_shape"]

SEAT = "<int(min=1, max=8):seat>"


def rule_shape(rule: Rule) -> dict[str, str]:
    link = f"/rules/{rule.number}" + (f"#item-{rule.item}" if rule.item else "")
    return {"code": rule.code, "name": rule.name, "section": rule.section, "link": link}


def _dispute(hand: int, event: int, number: int) -> str:
    return f"/hands/{hand}/events/{event}/payments/{number}"


@bp.get(HAND + f"/seats/{SEAT}/statement")
@signed_in()
@declare({200: (Statement, "The seat's statement for the hand.")}, [404, 409])
def statement(hand_id: int, seat: int) -> Response:
    """A seat's statement for a hand: every chip in and out, by the other party and by rule,
    with running totals that add up to the seat's net (held to the ledger's own sum)."""
    session = current_session()
    authorise_hand(session, principal().user, hand_id)
    return json_response(seat_statement(session, hand_id, seat).answer(), 200)


def found_shape(p: FoundPayment) -> dict[str, Any]:
    seats = [side.party for side in (p.payer, p.payee) if isinstance(side.party, int)]
    return {
        "entry": p.entry_seq,
        "at": p.at.isoformat(),
        "table": p.table_id,
        "table_name": p.table_name,
        "hand": p.hand_id,
        "hand_number": p.hand_number,
        "event": p.event_id,
        "payment": p.number,
        "from": {"party": str(p.payer.party), "words": p.payer.words},
        "to": {"party": str(p.payee.party), "words": p.payee.words},
        "chips": p.chips,
        "rule": rule_shape(p.rule),
        "reason": p.reason,
        "reverses": p.reverses,
        "dispute": _dispute(p.hand_id, p.event_id, p.number),
        "statements": {str(s): f"/api/v1/hands/{p.hand_id}/seats/{s}/statement" for s in seats},
    }


@bp.get("/payments")
@signed_in(SEARCH_ROLE)
@declare(
    {200: (desk_answers.Payments, "The payments found, the newest first.")},
    [404, 422],
    query=PaymentSearch,
)
def payments() -> Response:
    """Find a payment: in a hand, a table session or a window of time (from and to, at most
    31 days), by seat, player, amount and rule. Role: supervisor or above."""
    refuse_unknown(PaymentSearch, request.args)
    query = query_from(asked(PaymentSearch), floor_clock().zone)
    found = find_payments(current_session(), query)
    return json_response(
        {"payments": [found_shape(p) for p in found.payments], "more": found.more}, 200
    )
