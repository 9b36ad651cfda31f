"""Table sessions (a dealer's down): open, close, show, and list a table's."""

from __future__ import annotations

from typing import Any

from flask import Response
from sqlalchemy import select
from sqlalchemy.orm import Session

from dealer.api import answers, bp
from dealer.api.shapes import when
from dealer.api.tables import TABLE
from dealer.api.writes import write
from dealer.extensions import current_session
from dealer.floor import table_sessions as service
from dealer.inputs import CloseSession, Nothing
from dealer.models import Hand, TableSession, User
from dealer.people.authority import authorise_session, authorise_table
from dealer.people.users import names_of
from dealer.web.contract import ID, declare, given
from dealer.web.refusals import json_response
from dealer.web.signin import approving, principal, signed_in

SESSION = f"/sessions/<{ID}:session_id>"


def session_shape(session: Session, table_session: TableSession) -> dict[str, Any]:
    """A session as the API shows it: who, when, its state and its hands (ids, in order)."""
    ids = [
        table_session.dealer_id,
        table_session.close_requested_by,
        table_session.close_confirmed_by,
    ]
    names = names_of(session, ids)
    hands = session.scalars(
        select(Hand.id).where(Hand.session_id == table_session.id).order_by(Hand.number)
    ).all()
    requested, confirmed = table_session.close_requested_by, table_session.close_confirmed_by
    return {
        "id": table_session.id,
        "table": table_session.table_id,
        "dealer": names[table_session.dealer_id],
        "status": table_session.status,
        "implicit": table_session.implicit,
        "opened_at": when(table_session.opened_at),
        "closed_at": when(table_session.closed_at),
        "close_requested_by": names.get(requested) if requested is not None else None,
        "close_confirmed_by": names.get(confirmed) if confirmed is not None else None,
        "close_confirmed_at": when(table_session.close_confirmed_at),
        "hands": list(hands),
    }


@bp.post(TABLE + "/sessions")
@signed_in()
@declare({201: (answers.Session, "The session.")}, [404, 409], json=Nothing, write=True)
def open_session(table_id: int) -> Response:
    """The caller pushes into the table: their session (down) opens.

    409 while another session is open at the table.
    """

    def work(session: Session) -> tuple[Any, int]:
        table = authorise_table(session, principal().user, table_id, "open_session")
        opened = service.open_session(session, table, principal().user.id)
        return session_shape(session, opened), 201

    return write(work)


@bp.get(TABLE + "/sessions")
@signed_in()
# 405: werkzeug answers an id beyond 32 bits so when the address also has a POST.
@declare({200: (answers.Sessions, "The sessions.")}, [403, 404, 405])
def table_sessions(table_id: int) -> Response:
    """Every session at a table, the latest first (a dealer: at their own table)."""
    table = authorise_table(current_session(), principal().user, table_id)
    found = service.sessions_at(current_session(), table.id)
    return json_response({"sessions": [session_shape(current_session(), s) for s in found]}, 200)


@bp.get(SESSION)
@signed_in()
@declare({200: (answers.Session, "The session.")}, [403, 404])
def get_session(session_id: int) -> Response:
    """A table session: its dealer, times, state and hands (a dealer: their own, or one at
    their table)."""
    found = authorise_session(current_session(), principal().user, session_id)
    return json_response(session_shape(current_session(), found), 200)


@bp.post(SESSION + "/close")
@signed_in()
@declare(
    {200: (answers.Session, "The session.")}, [403, 404, 409, 429], json=CloseSession, write=True
)
def close_session(session_id: int) -> Response:
    """End the down.

    A supervisor calling, or a dealer bringing a supervisor's name and PIN, confirms the
    close; otherwise it waits for the floor. 409 while the session's hand is in play, or
    once the close is confirmed.
    """
    approver = approving(given(CloseSession).supervisor)

    def work(session: Session) -> tuple[Any, int]:
        found = authorise_session(session, principal().user, session_id, "record")
        supervisor = session.get(User, approver) if approver is not None else None
        closed = service.close_session(session, found, principal().user, supervisor)
        return session_shape(session, closed), 200

    return write(work)
