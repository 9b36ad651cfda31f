"""What every screen shares: the page frame's figures, refusals as pages, suit colours.

A refusal has the same status, code and sentence as at every front door
(`dealer.web.refusals`). A screen shows the sentence and keeps what was entered.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime
from typing import Any, TypeVar

from flask import current_app, flash, redirect, render_template, request, url_for
from flask_login import current_user
from markupsafe import Markup
from sqlalchemy.orm import Session
from werkzeug.wrappers import Response

from dealer.clock import floor_clock
from dealer.config import key_beside_database
from dealer.errors import DealerError
from dealer.extensions import current_session
from dealer.floor.tables import get_table
from dealer.models import Table, as_utc, utcnow
from dealer.screens.auth.guard import local_path, page, page_address, who
from dealer.screens.blueprint import bp
from dealer.screens.declared import Declared
from dealer.screens.forms import PrefsForm
from dealer.transactions import writing
from dealer.web.refusals import refusal
from dealer.words.cards import PAD_RANKS, PAD_SUITS, face, faces, script_cards
from dealer.words.catalogue import (
    language,
    language_name,
    languages,
    number,
    say,
    say_html,
    say_in,
    say_n,
    say_n_html,
)
from dealer.words.numbers import capital, chips_words, money_words
from dealer.words.page import script_words
from dealer.words.people import role_name
from dealer.words.times import ago_words, day_words

Posted = TypeVar("Posted", bound=Declared)
Page = TypeVar("Page")

#: A cookie of the tablet, not of the sign-in: the suits stay as this tablet's dealers like
#: them across sign-outs and restarts.
FOUR_COLOUR = "four_colour"
#: The theme: "dark", "light", or (none) the device's own setting.
THEME = "theme"
A_YEAR = 365 * 24 * 3600


def show_refusal(error: DealerError) -> tuple[str, int]:
    """A whole page for a refusal with nothing to keep (an unknown table or hand)."""
    status, _code, message = refusal(error)
    return render_template("screens/refused.html", status=status, message=message), status


bp.register_error_handler(DealerError, show_refusal)


def changed(
    change: Callable[[Session], str], back: str, redraw: Callable[[int, str], Page]
) -> Response | Page:
    """Make ``change`` in one write and show the notice it returns on the screen ``back``;
    refused, ``redraw(status, message)``: the screen again with the refusal in words."""
    try:
        with writing(current_session()) as session:
            notice = change(session)
    except DealerError as refused:
        status, _code, message = refusal(refused)
        return redraw(status, message)
    flash(notice, "notice")
    return redirect(back, 303)


def keep_on_tablet(answer: Response, name: str, value: str, seconds: int) -> Response:
    """``answer``, setting the cookie ``name`` that keeps a choice of this tablet's (whoever
    signs in) for ``seconds``; no script reads it."""
    secure = request.is_secure
    answer.set_cookie(name, value, max_age=seconds, httponly=True, samesite="Lax", secure=secure)
    return answer


def posted_at_table(table_id: int, form: Posted) -> tuple[Table, Posted, Any]:
    """The table a form was posted to, the form, and the body it judged: None when refused,
    each refusal then beside its field for the page drawn again."""
    return get_table(current_session(), table_id), form, form.judged()


def filled_args() -> dict[str, str]:
    """The request's query parameters, those left blank left out (a screen's GET form)."""
    return {k: v for k, v in request.args.items() if v.strip()}


def four_colour() -> bool:
    """Four-colour suits unless this tablet switched them off (on by default: a dim room)."""
    return request.cookies.get(FOUR_COLOUR) != "off"


def theme() -> str:
    """``dark``, ``light`` or ``""`` (follow the device's setting), as this tablet chose."""
    chosen = request.cookies.get(THEME, "")
    return chosen if chosen in ("dark", "light") else ""


def clock(moment: datetime | None, style: str = "hour") -> str:
    """A time on the floor's clock."""
    return floor_clock(current_app.config).words(moment, style)


def ago(moment: datetime | None) -> str:
    if moment is None:
        return ""
    return ago_words(int((utcnow() - as_utc(moment)).total_seconds()))


def money(chips: int, cents_per_chip: int) -> str:
    return money_words(chips * cents_per_chip)


def chips(n: int) -> str:
    """``1 chip``, ``-3 chips``: the word after the number."""
    return chips_words(n).split(" ", 1)[1]


#: Characters HTML forbids in a page (C0 controls but tab and newlines, DEL, the C1 controls,
#: noncharacters): typed into a form they are refused, and the redrawn form must not carry
#: them back.
FORBIDDEN_IN_HTML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ufdd0-\ufdef\ufffe\uffff]")


def drawable(value: Any) -> Any:
    """Jinja's finalize: every value drawn on a screen, with any character HTML forbids
    shown as the replacement character (what was typed stays visible, the page valid)."""
    if isinstance(value, str) and FORBIDDEN_IN_HTML.search(value):
        cleaned = FORBIDDEN_IN_HTML.sub("\ufffd", value)
        return Markup(cleaned) if isinstance(value, Markup) else cleaned
    return value


@bp.record_once
def _finalize(state: Any) -> None:
    state.app.jinja_env.finalize = drawable
    # Every word a template writes is said through the message catalogue, by the same names
    # as in the code (so one extraction finds both).
    words = (say, say_n, say_html, say_n_html, say_in, language, languages, language_name)
    for word in (*words, number, day_words):
        state.app.jinja_env.globals[word.__name__] = word


# Only the first letter up: Jinja's ``capitalize`` would lower "(Player 1)" too.
bp.app_template_filter("capitalize_first")(capital)


#: Vowels of the names a floor seats (Spanish, English and their accents): a syllable starts
#: at a consonant before one of them.
VOWELS = frozenset("aeiouáéíóúàèìòùäëïöüâêîôûãõ")
#: Two consonants that start a syllable together (Pe-dro, Chris-to-pher, Gui-ller-mo).
ONSETS = frozenset(
    (
        "bl",
        "br",
        "ch",
        "cl",
        "cr",
        "dr",
        "fl",
        "fr",
        "gl",
        "gr",
        "ll",
        "ph",
        "pl",
        "pr",
        "rr",
        "sh",
        "th",
        "tr",
    )
)
SOFT_HYPHEN = "\u00ad"


@bp.app_template_filter("breakable")
def breakable(name: str) -> str:
    """``name`` with a soft hyphen between its syllables (Es-pe-ran-za): where a seat's chip is
    too narrow for it, the name breaks there, with a hyphen, on a second line (no hyphen is
    seen while it fits). Two letters at least on each side of a break."""

    def word(found: re.Match[str]) -> str:
        letters = found.group()
        low = letters.lower()
        breaks = set()
        for i in range(2, len(low) - 1):
            if low[i] in VOWELS or low[i + 1] not in VOWELS:
                continue
            at = i - 1 if low[i - 1 : i + 1] in ONSETS else i
            if at >= 2 and any(c in VOWELS for c in low[:at]):
                breaks.add(at)
        return "".join(SOFT_HYPHEN + c if i in breaks else c for i, c in enumerate(letters))

    return re.sub(r"[^\W\d_]+", word, name)


@bp.app_context_processor
def frame() -> dict[str, Any]:
    """What base.html and every screen may use."""
    signed_in = current_user.is_authenticated
    me = who().user if signed_in else None
    return {
        "me": me,
        "key_warning": key_warning() if me is not None and me.can("admin") else None,
        "four_colour": four_colour(),
        "theme": theme(),
        "idle_seconds": current_app.config.get("IDLE_SECONDS", 900),
        "clock": clock,
        "ago": ago,
        "money": money,
        "chips": chips,
        "face": face,
        "faces": faces,
        "pad_ranks": PAD_RANKS,
        "pad_suits": PAD_SUITS,
        "script_cards": script_cards(),
        "script_words": script_words(),
        "here": page_address(),
        "role_name": role_name,
    }


def key_warning() -> str | None:
    """What an admin reads on every screen while the ledger's key sits beside the database
    (`make run` on the defaults: production serving refuses to start so)."""
    if not key_beside_database(current_app.config):
        return None
    return say(
        "The ledger's key is kept in the same folder as the database: whoever can change the "
        "database file can read the key there and sign a changed history as if it were the "
        "floor's. Before serving a floor, keep the key apart from the database (the README's "
        "Running a floor says how)."
    )


@bp.post("/prefs")
@page()
def prefs() -> Response:
    """This tablet's ways: two- or four-colour suits and the theme; each remembered by the
    tablet (a cookie), whoever signs in. Where the acting seat goes after a drop is the
    table's setting (`dealer.floor.acting_seat.change_acting_seat`), the same on every tablet."""
    form = PrefsForm()
    answer = redirect(local_path(form.page.data, url_for("main.index")), 303)
    if not form.validate_on_submit():
        return answer
    chosen = {
        FOUR_COLOUR: {"on": "on", "off": "off"}.get(form.four_colour.data or ""),
        THEME: {"dark": "dark", "light": "light", "device": ""}.get(form.theme.data or ""),
    }
    for name, value in chosen.items():
        if value is not None:
            keep_on_tablet(answer, name, value, A_YEAR)
    return answer
