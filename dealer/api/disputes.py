"""Disputes on the record: open one on a hand, rule on it, list them (`dealer.disputes.record`).

A dealer or above opens a dispute; only a supervisor rules (the service refuses anyone else
with a 403 in words).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from flask import Response
from pydantic import BaseModel, Field
from sqlalchemy.orm import Session

from dealer.api import bp
from dealer.api.hands import HAND
from dealer.api.shapes import when
from dealer.api.writes import write
from dealer.disputes import record as service
from dealer.extensions import current_session
from dealer.inputs import DisputeFilter, NewDispute, Ruling
from dealer.people.authority import authorise_hand, tables_held
from dealer.web.contract import ID, asked, declare, given
from dealer.web.refusals import json_response
from dealer.web.signin import principal, recorder, signed_in

DISPUTE = f"/disputes/<{ID}:dispute_id>"


class RulingAnswer(BaseModel):
    outcome: Literal["upheld", "denied"]
    reason: str
    void_event: int | None = Field(description="The void event it led to (upheld).")
    correction: int | None = Field(description="The correcting ledger entry's seq (upheld).")
    ruled_by: int = Field(description="The supervisor's user id.")
    device: str
    at: datetime


class DisputeAnswer(BaseModel):
    id: int
    hand: int
    table: int
    status: Literal["open", "ruled"]
    raised_by: Literal["seat", "dealer"]
    seat: int | None
    claim: str
    entry: int | None = Field(description="The ledger entry the claim is about, if any.")
    opened_by: int = Field(description="The user id of whoever put it on the record.")
    device: str
    at: datetime
    ruling: RulingAnswer | None


class DisputeList(BaseModel):
    disputes: list[DisputeAnswer]


def dispute_shape(found: service.OnRecord) -> dict[str, Any]:
    d, r = found.dispute, found.ruling
    return {
        "id": d.id,
        "hand": d.hand_id,
        "table": found.table_id,
        "status": found.status,
        "raised_by": d.raised_by,
        "seat": d.seat,
        "claim": d.claim,
        "entry": d.entry_seq,
        "opened_by": d.user_id,
        "device": d.device,
        "at": when(d.opened_at),
        "ruling": None
        if r is None
        else {
            "outcome": r.outcome,
            "reason": r.reason,
            "void_event": r.void_event_id,
            "correction": r.correction_seq,
            "ruled_by": r.user_id,
            "device": r.device,
            "at": when(r.ruled_at),
        },
    }


@bp.post(HAND + "/disputes")
@signed_in()
@declare({201: (DisputeAnswer, "The dispute, open.")}, [404], json=NewDispute, write=True)
def open_dispute(hand_id: int) -> Response:
    """Put a dispute on the record for a hand: who raised it, the claim, the payment if one.

    Role: dealer or above.
    """
    body = given(NewDispute)

    def work(session: Session) -> tuple[Any, int]:
        authorise_hand(session, principal().user, hand_id, "record")
        dispute = service.open_dispute(
            session, hand_id, body.raised_by, body.seat, body.claim, body.entry, recorder()
        )
        return dispute_shape(service.get_dispute(session, dispute.id)), 201

    return write(work)


@bp.post(DISPUTE + "/ruling")
@signed_in()
@declare({201: (DisputeAnswer, "The dispute, ruled.")}, [404], json=Ruling, write=True)
def rule_on_dispute(dispute_id: int) -> Response:
    """Close a dispute: upheld (with the void or correction it led to, of the same hand) or
    denied, and why. A dispute is ruled on once (409 after).

    Role: supervisor or above.
    """
    body = given(Ruling)

    def work(session: Session) -> tuple[Any, int]:
        ruled = service.rule_on_dispute(
            session,
            dispute_id,
            body.outcome,
            body.reason,
            body.void_event,
            body.correction,
            principal().user,
            recorder(),
        )
        return dispute_shape(ruled), 201

    return write(work)


@bp.get(HAND + "/disputes")
@signed_in()
# 405: werkzeug answers an id beyond 32 bits so when the address also has a POST.
@declare({200: (DisputeList, "The hand's disputes, oldest first.")}, [404, 405])
def hand_disputes(hand_id: int) -> Response:
    """The disputes on a hand, open and ruled."""
    authorise_hand(current_session(), principal().user, hand_id)
    found = service.hand_disputes(current_session(), hand_id)
    return json_response({"disputes": [dispute_shape(f) for f in found]}, 200)


@bp.get("/disputes")
@signed_in()
@declare({200: (DisputeList, "The disputes, oldest first.")}, [422], query=DisputeFilter)
def list_disputes() -> Response:
    """Every dispute on the record (a dealer: those at the tables they hold); ``status=open``
    for those awaiting a ruling."""
    status = asked(DisputeFilter).get("status")
    user = principal().user
    held = None if user.can("supervisor") else tables_held(current_session(), user.id)
    found = service.listed_disputes(current_session(), status, held)
    return json_response({"disputes": [dispute_shape(f) for f in found]}, 200)
