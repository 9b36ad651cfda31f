"""The language chosen on screen: by a person for themself (on every page), by an admin for a
person (People), by a supervisor for a tablet (the devices screen) and for a player (their
record). Each language is offered in its own name ("Español"); the decision is
`dealer.people.languages`', the choice each request then speaks is `dealer.web.language`'s."""

from __future__ import annotations

from typing import Any, Literal

from flask import flash, redirect, url_for
from werkzeug.wrappers import Response
from wtforms import HiddenField, SelectChoice, SelectField

from dealer.errors import DealerError
from dealer.extensions import current_session
from dealer.people.languages import choose_language as keep_language
from dealer.screens.auth.guard import local_path, page, page_address, who
from dealer.screens.blueprint import SCREEN_ID, bp
from dealer.screens.said_form import SaidForm
from dealer.transactions import writing
from dealer.web.language import requested_language
from dealer.web.refusals import refusal
from dealer.words.catalogue import choose_language, language_name, languages, say, say_later
from dealer.words.people import form_expired


class LanguageForm(SaidForm):
    """One language, or none (the next choice speaks: the tablet's, the browser's, the
    floor's); sent back to the page it was on."""

    language = SelectField(say_later("Language"), choices=[], validate_choice=False)
    page = HiddenField()

    def __init__(self, *args: Any, chosen: str | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Each language in its own name, as its speakers look for it.
        self.language.choices = [SelectChoice("", say("Not chosen"))] + [
            SelectChoice(code, language_name(code)) for code in languages()
        ]
        if chosen is not None and not self.is_submitted():
            self.language.data = chosen
        self.page.data = self.page.data or page_address()


def _chosen(
    whose: Literal["user", "device", "player"], ref: int, back: str
) -> Response | tuple[str, int]:
    form = LanguageForm()
    answer = redirect(local_path(form.page.data, back), 303)
    if not form.validate_on_submit():
        flash(form_expired(), "warning")
        return answer
    try:
        with writing(current_session()) as session:
            code = keep_language(session, whose, ref, form.language.data).language
    except DealerError as refused:
        flash(refusal(refused)[2], "warning")
        return answer
    # The rest of this request speaks as the next page will (the choice just made, when it is
    # this person's own); the request's end forgets it as it forgets the first choice.
    choose_language(requested_language())
    flash(say("Language: {name}.", name=language_name(code) if code else say("Not chosen")))
    return answer


@bp.post("/prefs/language")
@page()
def my_language() -> Response | tuple[str, int]:
    """The signed-in person's own language."""
    return _chosen("user", who().user.id, url_for("main.index"))


@bp.post(f"/floor/people/<{SCREEN_ID}:user_id>/language")
@page("admin")
def person_language(user_id: int) -> Response | tuple[str, int]:
    return _chosen("user", user_id, url_for("screens.people"))


@bp.post(f"/floor/devices/<{SCREEN_ID}:device_id>/language")
@page("supervisor")
def device_language(device_id: int) -> Response | tuple[str, int]:
    return _chosen("device", device_id, url_for("screens.device_list"))


@bp.post(f"/players/<{SCREEN_ID}:player_id>/language")
@page("supervisor")
def player_language(player_id: int) -> Response | tuple[str, int]:
    return _chosen("player", player_id, url_for("screens.player", player_id=player_id))
