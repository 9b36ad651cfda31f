"""The dispute view: one payment, the rule behind it, its cards and its ledger entries
(`dealer.views.payment`)."""

from __future__ import annotations

from flask import render_template

from dealer.extensions import current_session
from dealer.screens import bp
from dealer.screens.auth.guard import page
from dealer.screens.screen import at_table
from dealer.views.payment import payment_dispute

HAND = "/hands/<int(max=2147483647):hand_id>"
PAYMENT = HAND + "/events/<int(max=2147483647):event_id>/payments/<int(min=1, max=1000):number>"


@bp.get(PAYMENT)
@page()
@at_table("read")
def payment(hand_id: int, event_id: int, number: int) -> str:
    found = payment_dispute(current_session(), hand_id, event_id, number)
    return render_template("screens/payment.html", d=found)
