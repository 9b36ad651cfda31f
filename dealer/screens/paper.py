"""The slips' paper, chosen per tablet: a receipt printer at the table, or pages."""

from __future__ import annotations

from flask import redirect
from werkzeug.wrappers import Response
from wtforms import RadioField, SelectChoice

from dealer.screens.auth.guard import page, page_address
from dealer.screens.blueprint import bp
from dealer.screens.said_form import SaidForm
from dealer.screens.screen import keep_on_tablet
from dealer.web.paper import PAPER_COOKIE, PAPERS
from dealer.words.catalogue import say_later

#: A tablet keeps its choice a year (it is the tablet's printer, not the person's).
KEPT = 365 * 24 * 3600


class PaperForm(SaidForm):
    """Where this tablet's hand slips and statements print."""

    paper = RadioField(
        say_later("This tablet's slips print on"),
        choices=[
            SelectChoice("page", say_later("pages (letter or A4)")),
            SelectChoice("receipt", say_later("the 80 mm receipt printer")),
        ],
        validate_choice=False,
    )


@bp.post("/tablet/paper")
@page()
def choose_paper() -> Response:
    """Keep this tablet's choice of paper for its slips, then go back where it was."""
    form = PaperForm()
    answer = redirect(page_address(), 303)
    if not form.validate_on_submit() or form.paper.data not in PAPERS:
        return answer  # nothing chosen: the tablet keeps what it had
    return keep_on_tablet(answer, PAPER_COOKIE, form.paper.data, KEPT)
