"""Table sessions (a dealer's down): open, close, show, and list a table's."""

from __future__ import annotations

from typing import Any

from flask import Response
from sqlalchemy.orm import Session

from dealer.api.at_table import read_at_table, write_at_table
from dealer.api.blueprint import bp, door
from dealer.api.tables import TABLE
from dealer.api.writes import write
from dealer.extensions import current_session
from dealer.floor import counts
from dealer.floor import downs as service
from dealer.floor.approvals import approving_user
from dealer.floor.authority import authorise_down
from dealer.inputs import CloseDown, DownCount, Nothing
from dealer.models import Table, User
from dealer.views.downs import (
    CountView,
    DownsView,
    DownView,
    count_view,
    down_view,
    downs_view,
)
from dealer.web.contract import ID, given
from dealer.web.refusals import json_response
from dealer.web.signin import approving, confirming, principal

DOWN = f"/sessions/<{ID}:session_id>"


@bp.post(TABLE + "/sessions")
@door({201: (DownView, "The session.")}, [404, 409], json=Nothing, write=True, name="open_session")
def open_down(table_id: int) -> Response:
    """The caller pushes into the table: their session (down) opens.

    409 while another session is open at the table.
    """

    def work(session: Session, table: Table) -> tuple[Any, int]:
        opened = service.open_down(session, table, principal().user.id)
        return down_view(session, opened).answer(), 201

    return write_at_table(table_id, "open_down", work)


@bp.get(TABLE + "/sessions")
# 405: werkzeug answers an id beyond 32 bits so when the address also has a POST.
@door({200: (DownsView, "The sessions.")}, [403, 404, 405], name="list_sessions")
def list_downs(table_id: int) -> Response:
    """Every session at a table, the latest first (a dealer: at their own table)."""
    return read_at_table(
        table_id,
        lambda session, table: downs_view(session, service.downs_at(session, table.id)),
    )


@bp.get(DOWN)
@door({200: (DownView, "The session.")}, [403, 404], name="read_session")
def read_down(session_id: int) -> Response:
    """A table session: its dealer, times, state and hands (a dealer: their own, or one at
    their table)."""
    found = authorise_down(current_session(), principal().user, session_id)
    return json_response(down_view(current_session(), found).answer(), 200)


@bp.post(DOWN + "/close")
@door(
    {200: (DownView, "The session.")},
    [403, 404, 409, 429],
    json=CloseDown,
    write=True,
    name="close_session",
)
def close_down(session_id: int) -> Response:
    """End the down.

    A supervisor calling, or a dealer bringing a supervisor's name and PIN, confirms the
    close; otherwise it waits for the floor. 409 while the session's hand is in play, or
    once the close is confirmed.
    """
    approver = approving(given(CloseDown).supervisor)

    def work(session: Session) -> tuple[Any, int]:
        found = authorise_down(session, principal().user, session_id, "record")
        supervisor = approving_user(session, approver)
        closed = service.close_down(session, found, principal().user, supervisor)
        return down_view(session, closed).answer(), 200

    return write(work)


@bp.post(DOWN + "/count")
@door(
    {201: (CountView, "The count.")},
    [403, 404, 409, 429],
    json=DownCount,
    write=True,
    name="count_session",
)
def count_down(session_id: int) -> Response:
    """The count at the session's close: the tray's chips (and the drop box's cash where the
    table sells chips for cash), confirmed by a second person's name and PIN.

    The answer compares it with the ledger. A variance over the table's ``count_tolerance``
    needs a reason and the name and PIN of a supervisor who neither counted nor confirmed (the
    caller's own sign-in does not approve it: 403 ``needs_supervisor``, 422
    ``reason_missing``). 409 while the down is open, once counted, or when the table's
    settings were changed outside the app (``settings_changed``: no linked version of them
    holds).
    """
    body = given(DownCount)
    approver = approving(body.supervisor)
    witness_id = confirming(body.witness)

    def work(session: Session) -> tuple[Any, int]:
        found = authorise_down(session, principal().user, session_id, "record")
        witness = session.get_one(User, witness_id)
        supervisor = approving_user(session, approver)
        counts.record_count(
            session,
            found,
            principal().user,
            body.tray_chips,
            body.drop_box_cents,
            witness,
            supervisor,
            body.reason,
        )
        view = count_view(session, found.id)
        assert view is not None
        return view.answer(), 201

    return write(work)
