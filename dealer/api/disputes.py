"""Disputes on the record: open one on a hand, rule on it, list them (`dealer.disputes.record`).

A dealer or above opens a dispute; only a supervisor rules (the service refuses anyone else
with a 403 in words).
"""

from __future__ import annotations

from typing import Any

from flask import Response
from sqlalchemy.orm import Session

from dealer.api.blueprint import bp, door
from dealer.api.hands import HAND
from dealer.api.writes import write
from dealer.disputes import record as service
from dealer.disputes import rulings
from dealer.extensions import current_session
from dealer.floor.authority import authorise_hand, tables_held
from dealer.inputs import DisputeFilter, NewDispute, Ruling
from dealer.views.disputes import DisputeList, DisputeView, dispute_list, dispute_view
from dealer.web.contract import ID, asked, given
from dealer.web.refusals import json_response
from dealer.web.signin import principal, recorder

DISPUTE = f"/disputes/<{ID}:dispute_id>"


@bp.post(HAND + "/disputes")
@door({201: (DisputeView, "The dispute, open.")}, [404], json=NewDispute, write=True)
def open_dispute(hand_id: int) -> Response:
    """Put a dispute on the record for a hand: who raised it, the claim, the payment if one.

    Role: dealer or above.
    """
    body = given(NewDispute)

    def work(session: Session) -> tuple[Any, int]:
        authorise_hand(session, principal().user, hand_id, "record")
        dispute = rulings.open_dispute(
            session, hand_id, body.raised_by, body.seat, body.claim, body.entry, recorder()
        )
        return dispute_view(service.get_dispute(session, dispute.id)).answer(), 201

    return write(work)


@bp.post(DISPUTE + "/ruling")
@door({201: (DisputeView, "The dispute, ruled.")}, [404], json=Ruling, write=True)
def rule_on_dispute(dispute_id: int) -> Response:
    """Close a dispute: upheld (with the void or correction it led to, of the same hand) or
    denied, and why. A dispute is ruled on once (409 after).

    Role: supervisor or above.
    """
    body = given(Ruling)

    def work(session: Session) -> tuple[Any, int]:
        ruled = rulings.rule_on_dispute(session, dispute_id, body, principal().user, recorder())
        return dispute_view(ruled).answer(), 201

    return write(work)


@bp.get(HAND + "/disputes")
# 405: werkzeug answers an id beyond 32 bits so when the address also has a POST.
@door({200: (DisputeList, "The hand's disputes, oldest first.")}, [404, 405])
def list_hand_disputes(hand_id: int) -> Response:
    """The disputes on a hand, open and ruled."""
    authorise_hand(current_session(), principal().user, hand_id)
    found = service.hand_disputes(current_session(), hand_id)
    return json_response(dispute_list(found).answer(), 200)


@bp.get("/disputes")
@door(
    {200: (DisputeList, "The disputes, oldest first.")},
    [422],
    query=DisputeFilter,
    open_to_all=True,
)
def list_disputes() -> Response:
    """Every dispute on the record (a dealer: those at the tables they hold); ``status=open``
    for those awaiting a ruling."""
    status = asked(DisputeFilter).get("status")
    user = principal().user
    held = None if user.can("supervisor") else tables_held(current_session(), user.id)
    found = service.listed_disputes(current_session(), status, held)
    return json_response(dispute_list(found).answer(), 200)
