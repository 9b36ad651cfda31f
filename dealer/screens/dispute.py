"""The dispute view: one payment, the rule behind it, its cards and its ledger entries
(`dealer.views.payment`)."""

from __future__ import annotations

from flask import render_template, request, url_for

from dealer.bounds import CLAIM
from dealer.extensions import current_session
from dealer.screens.auth.guard import page
from dealer.screens.blueprint import HAND, SCREEN_ID, bp
from dealer.screens.forms import DisputeForm
from dealer.views.payment import payment_dispute

PAYMENT = HAND + f"/events/<{SCREEN_ID}:event_id>/payments/<int(min=1, max=1000):number>"


@bp.get(PAYMENT)
@page(at="read")
def payment(hand_id: int, event_id: int, number: int) -> str:
    found = payment_dispute(current_session(), hand_id, event_id, number)
    return render_template("screens/payment.html", d=found)


@bp.get(PAYMENT + "/dispute")
@page(at="read")
def dispute_payment(hand_id: int, event_id: int, number: int) -> str:
    """Open a dispute about one payment, already filled in: the payment, and who raises it
    (``seat``, else the seat that paid); only the claim is left to say."""
    found = payment_dispute(current_session(), hand_id, event_id, number)
    asked = request.args.get("seat", "")
    seat = int(asked) if asked.isdigit() and int(asked) in found.seats else None
    if seat is None:
        seat = found.seats[0] if found.seats else 0
    form = DisputeForm(formdata=None, raised_by=seat, entry=found.entries[0].seq)
    here = url_for("screens.dispute_payment", hand_id=hand_id, event_id=event_id, number=number)
    return render_template(
        "screens/dispute_new.html",
        d=found,
        form=form.stamp(here),
        seats_dealt=sorted(int(s) for s in found.hand.seats),
        raised=seat,
        claim_longest=CLAIM,
    )
