"""The close of a down on the table screen, as one guided step: the close and who confirmed
it, the count against what the ledger expects, and the session's report, one tap away.

A refused close or count draws the table again with everything typed kept (the PINs are
never written into a page: the tablet's script puts back the ones it still holds)."""

from __future__ import annotations

from typing import Any

from flask import request
from sqlalchemy.orm import Session

from dealer.models import Table
from dealer.screens.forms import CloseDownForm, CountForm
from dealer.views.downs import close_step

#: The writes of this step: a refusal of one draws the table with its form as it was sent.
CLOSE, COUNT = "screens.close_down", "screens.count_down"


def close_step_context(session: Session, table: Table, here: str) -> dict[str, Any]:
    """What the table screen draws of the close: the step, its forms (as sent, when one was
    refused), and whether the refusal shown is this step's."""
    sent = request.endpoint if request.method == "POST" else None
    count_form = CountForm() if sent == COUNT else CountForm(formdata=None)
    close_form = CloseDownForm() if sent == CLOSE else CloseDownForm(formdata=None)
    for pin in (count_form.witness_pin, count_form.supervisor_pin, close_form.supervisor_pin):
        pin.data = ""
    return {
        "close_step": close_step(session, table.id),
        "count_form": count_form.stamp(here),
        "close_down_form": close_form.stamp(here),
        "step_sent": sent if sent in (CLOSE, COUNT) else None,
        "step_done": request.args.get("done") if request.method == "GET" else None,
    }
