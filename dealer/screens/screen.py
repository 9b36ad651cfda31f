"""What every screen shares: the page frame's figures, refusals as pages, suit colours.

A refusal has the same status, code and sentence as at every front door
(`dealer.web.refusals`). A screen shows the sentence and keeps what was entered.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from flask import current_app, redirect, render_template, request, url_for
from flask_login import current_user
from werkzeug.wrappers import Response

from dealer.auth.guard import local_path, page, page_address, who
from dealer.errors import DealerError
from dealer.models import as_utc, utcnow
from dealer.web.refusals import refusal
from dealer.wording import claimed_device, local_time, money_text, zone

from . import bp
from .faces import PAD_RANKS, PAD_SUITS, SCRIPT_CARDS, face
from .forms import PrefsForm

__all__ = ["four_colour", "show_refusal"]

#: A cookie of the tablet, not of the sign-in: the suits stay as this tablet's dealers like
#: them across sign-outs and restarts.
FOUR_COLOUR = "four_colour"
A_YEAR = 365 * 24 * 3600


def show_refusal(error: DealerError) -> tuple[str, int]:
    """A whole page for a refusal with nothing to keep (an unknown table or hand)."""
    status, code, message = refusal(error)
    return render_template(
        "screens/refused.html", status=status, code=code, message=message
    ), status


bp.register_error_handler(DealerError, show_refusal)


def four_colour() -> bool:
    return request.cookies.get(FOUR_COLOUR) == "on"


def clock(moment: datetime | None, style: str = "hour") -> str:
    """A time on the floor's clock."""
    return local_time(moment, zone(current_app.config.get("TIMEZONE", "UTC")), style)


def ago(moment: datetime | None) -> str:
    if moment is None:
        return ""
    seconds = int((utcnow() - as_utc(moment)).total_seconds())
    if seconds < 60:
        return "just now"
    if seconds < 3600:
        return f"{seconds // 60} min ago"
    return f"{seconds // 3600} h {seconds % 3600 // 60} min ago"


def money(chips: int, cents_per_chip: int) -> str:
    return money_text(chips * cents_per_chip)


def chips(n: int) -> str:
    """``1 chip``, ``-3 chips``: the word after the number."""
    return "chip" if abs(n) == 1 else "chips"


@bp.app_template_filter("capitalize_first")
def capitalize_first(text: str) -> str:
    """Only the first letter up: Jinja's ``capitalize`` would lower "(Player 1)" too."""
    return text[:1].upper() + text[1:]


@bp.app_context_processor
def frame() -> dict[str, Any]:
    """What base.html and every screen may use."""
    signed_in = current_user.is_authenticated
    return {
        "me": who().user if signed_in else None,
        "four_colour": four_colour(),
        "idle_seconds": current_app.config.get("IDLE_SECONDS", 900),
        "clock": clock,
        "claimed_device": claimed_device,
        "ago": ago,
        "money": money,
        "chips": chips,
        "face": face,
        "pad_ranks": PAD_RANKS,
        "pad_suits": PAD_SUITS,
        "script_cards": SCRIPT_CARDS,
        "prefs_form": PrefsForm(),
        "here": page_address(),
    }


@bp.post("/prefs")
@page()
def prefs() -> Response:
    """Two- or four-colour suits, remembered by this tablet."""
    form = PrefsForm()
    answer = redirect(local_path(form.page.data, url_for("main.index")), 303)
    if form.validate_on_submit():
        on = "on" if form.four_colour.data == "on" else "off"
        answer.set_cookie(FOUR_COLOUR, on, max_age=A_YEAR, httponly=True, samesite="Lax")
    return answer
