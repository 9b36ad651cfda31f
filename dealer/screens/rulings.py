"""Disputes on the hand screen: open one, and (a supervisor) rule on it (`ledger.rulings`).

The hand screen draws its disputes (`hand_disputes.disputes_panel`); these are its two forms'
addresses. A refusal redraws the hand with the service's sentence.
"""

from __future__ import annotations

from collections.abc import Callable

from flask import url_for
from sqlalchemy.orm import Session
from werkzeug.wrappers import Response

from dealer.disputes import record as service
from dealer.disputes import rulings
from dealer.errors import NotFound
from dealer.screens.auth.guard import page, who
from dealer.screens.blueprint import HAND, SCREEN_ID, bp
from dealer.screens.forms import DisputeForm, RulingForm
from dealer.screens.hands import hand_page
from dealer.screens.sent import record_or_redraw
from dealer.web.signin import recorder
from dealer.words.catalogue import say


@bp.post(HAND + "/disputes")
@page(at="record")
def open_dispute(hand_id: int) -> Response | tuple[str | Response, int]:
    """Put a dispute on the record: a seat's (its number) or the dealer's (0)."""
    form = DisputeForm()
    body = form.judged()
    if body is None:
        return hand_page(hand_id, None, 422, form.first_refusal())
    fields = {"dispute": hand_id, "seat": body.seat, "claim": body.claim, "entry": body.entry}

    def work(session: Session) -> str:
        rulings.open_dispute(
            session, hand_id, body.raised_by, body.seat, body.claim, body.entry, recorder()
        )
        return url_for("screens.hand", hand_id=hand_id) + "#disputes"

    return record_or_redraw(form.key.data, fields, work, _hand_again(hand_id))


@bp.post(HAND + f"/disputes/<{SCREEN_ID}:dispute_id>/ruling")
@page(at="record")
def rule_on_dispute(hand_id: int, dispute_id: int) -> Response | tuple[str | Response, int]:
    """A supervisor's ruling (the service refuses anyone else, in words)."""
    form = RulingForm(prefix=f"ruling-{dispute_id}")
    body = form.judged()
    if body is None:
        return hand_page(hand_id, None, 422, form.first_refusal())
    fields = {"ruling": dispute_id, **body.model_dump()}

    def work(session: Session) -> str:
        found = service.get_dispute(session, dispute_id)
        if found.dispute.hand_id != hand_id:
            raise NotFound(
                say("Dispute {dispute_id} is not on this hand.", dispute_id=dispute_id),
                "unknown_dispute",
            )
        rulings.rule_on_dispute(session, dispute_id, body, who().user, recorder())
        return url_for("screens.hand", hand_id=hand_id) + "#disputes"

    return record_or_redraw(form.key.data, fields, work, _hand_again(hand_id))


def _hand_again(hand_id: int) -> Callable[[int, str], tuple[str | Response, int]]:
    """The hand screen drawn again with a refusal in words, the entry kept."""
    return lambda status, message: hand_page(hand_id, None, status, message)
