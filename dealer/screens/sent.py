"""Forms recorded at most once (`dealer.web.once`), answered with the page to show next.

Each form carries a key made when the form is drawn (`dealer.web.once.new_page_key`).
The first successful send records, and stores where it sent the dealer next (a 303 to
the page that shows the result). A repeat of the key (a double tap, or a resend after a
dropped connection) gets the same answer and records nothing; the same key with other
content is a conflict. A refused send stores nothing, so the kept entry can be fixed and
sent again with its key.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from flask import g, redirect, request
from sqlalchemy.orm import Session
from werkzeug.wrappers import Response

from dealer import rules
from dealer.bounds import MAX_ID
from dealer.errors import DealerError, Invalid
from dealer.floor.approvals import approving_user
from dealer.floor.authority import authorise_address
from dealer.models import User
from dealer.people.typists import record_typist, typist_of
from dealer.web.once import REPLAYED_HEADER, Answer, checked_key, digest, run_once
from dealer.web.refusals import refusal
from dealer.web.signin import approving, principal
from dealer.words.catalogue import say

Page = TypeVar("Page")


def _damaged() -> Invalid:
    return Invalid(say("The form's key is damaged: reload the page and enter it again."))


#: Who typed an entry kept on the tablet before it was sent (a user's id), and whom the person
#: signed in confirmed it was typed by, recording it as theirs (`dealer.people.typists`).
TYPED_BY = "typed_by"
CONFIRMED = "typed_by_confirmed"


def _typed(name: str) -> int | None:
    """The user id a form's field ``name`` names, or None when it is not sent."""
    value = request.form.get(name, "")
    if not value:
        return None
    if not (value.isascii() and value.isdigit() and 1 <= int(value) <= MAX_ID):
        raise Invalid(say("The form is damaged: reload the page and enter it again."))
    return int(value)


def _sent_before() -> str:
    return say(
        "This form was already sent with other content: check the hand below, then enter it again."
    )


def record_once(
    key: str | None,
    fields: Mapping[str, Any],
    work: Callable[[Session], str],
    *,
    hand: int | None = None,
) -> Response:
    """Run ``work`` once per key in one write transaction; redirect to the page it names.

    ``work(session)`` records and returns the address of the page to show next;
    ``fields`` are what the form asked for, parsed (never a PIN). An entry the tablet kept
    names who typed it (``typed_by``): sent by someone else, it records only once they confirm
    it as theirs (``typed_by_confirmed``, `dealer.people.typists`). ``hand``: it records that
    hand's play alone (`dealer.web.once.run_once`); a form posted to a table's address writes
    at that table alone.
    """

    typed_by, confirmed = _typed(TYPED_BY), _typed(CONFIRMED)

    def answer(session: Session) -> Answer:
        # The table's authority again, inside the write: a session closed or an assignment
        # ended since the screen's check (`guard.page`) is seen before anything records.
        asked = g.get("at_table")
        ids = asked[1] if asked is not None else {}
        if asked is not None:
            authorise_address(session, principal().user, asked[0], **ids)
        # An entry kept on the tablet, typed by someone who has since signed out: not theirs
        # to record without their word (`dealer.people.typists`).
        typist = typist_of(session, principal().user, typed_by, confirmed)
        location = work(session)
        if typist is not None:
            record_typist(session, typist, principal().user, shown_at=location, **ids)
        return Answer(303, json.dumps({"location": location}))

    content = json.dumps(fields, sort_keys=True, separators=(",", ":"), default=str)
    # A screen of one table's address (`guard.page`) writes at that table alone.
    at = g.get("at_table")
    table = at[1].get("table_id") if at is not None and hand is None else None
    done = run_once(
        checked_key(key or None, _damaged()),
        digest(content),
        answer,
        per_user=False,
        reused=_sent_before(),
        hand=hand,
        table=table,
    )
    response = redirect(json.loads(done.body)["location"], 303)
    if done.replayed:
        response.headers[REPLAYED_HEADER] = "true"
    return response


def record_or_redraw(
    key: str | None,
    fields: Mapping[str, Any],
    work: Callable[[Session], str],
    redraw: Callable[[int, str], Page],
    *,
    hand: int | None = None,
) -> Response | Page:
    """`record_once`, or, when the rules or the service refuse it, ``redraw(status,
    message)``: the screen drawn again with the refusal in words and the entry kept."""
    try:
        return record_once(key, fields, work, hand=hand)
    except (rules.RulesError, DealerError) as exc:
        status, _code, message = refusal(exc)
        return redraw(status, message)


def record_approved(
    form: Any,
    body: Any,
    fields: Mapping[str, Any],
    work: Callable[[Session, User | None], str],
    redraw: Callable[[int, str | None], Page],
) -> Response | Page:
    """`record_or_redraw` for a write the floor may have to approve: the supervisor's name
    and PIN brought with the form (in ``body``, as the form judged it) are checked before the
    write begins (`approving`), and ``work(session, supervisor)`` gets that supervisor read
    again inside it (None if none came; who then approves is `dealer.floor.approvals`'s). A
    form refused (``body`` None) is drawn again with its first refusal."""
    if body is None:
        return redraw(422, form.first_refusal())
    try:
        approved = approving(body.supervisor)
    except DealerError as exc:
        status, _code, message = refusal(exc)
        return redraw(status, message)

    def inside(session: Session) -> str:
        return work(session, approving_user(session, approved))

    return record_or_redraw(form.key.data, {**fields, "approved": approved}, inside, redraw)
