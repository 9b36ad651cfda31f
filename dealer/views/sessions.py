"""A table session (a dealer's down) as a client reads it: who, when, its state, its hands."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

from pydantic import Field
from sqlalchemy import select
from sqlalchemy.orm import Session

from dealer.models import Hand, TableSession
from dealer.people.users import names_of
from dealer.views.base import Time, View

__all__ = ["SessionView", "SessionsView", "session_view", "sessions_view"]


class SessionView(View):
    """A table session: a dealer's down."""

    id: int
    table: int
    dealer: str
    status: Literal["open", "awaiting_confirmation", "closed"] = Field(
        description="awaiting_confirmation: the down has ended; the floor has not yet "
        "confirmed the close."
    )
    implicit: bool = Field(description="Opened by dealing a hand while none was open.")
    opened_at: Time
    closed_at: Time | None = Field(description="When the down ended.")
    close_requested_by: str | None
    close_confirmed_by: str | None = Field(description="The supervisor who confirmed.")
    close_confirmed_at: Time | None
    hands: list[int] = Field(description="The hands dealt in it.")


class SessionsView(View):
    sessions: list[SessionView]


def session_view(session: Session, table_session: TableSession) -> SessionView:
    """A session: who, when, its state and its hands (ids, in order)."""
    requested, confirmed = table_session.close_requested_by, table_session.close_confirmed_by
    names = names_of(session, [table_session.dealer_id, requested, confirmed])
    hands = session.scalars(
        select(Hand.id).where(Hand.session_id == table_session.id).order_by(Hand.number)
    ).all()
    return SessionView(
        id=table_session.id,
        table=table_session.table_id,
        dealer=names[table_session.dealer_id],
        status=table_session.status,  # type: ignore[arg-type]
        implicit=table_session.implicit,
        opened_at=table_session.opened_at,
        closed_at=table_session.closed_at,
        close_requested_by=names.get(requested) if requested is not None else None,
        close_confirmed_by=names.get(confirmed) if confirmed is not None else None,
        close_confirmed_at=table_session.close_confirmed_at,
        hands=list(hands),
    )


def sessions_view(session: Session, found: Iterable[TableSession]) -> SessionsView:
    return SessionsView(sessions=[session_view(session, s) for s in found])
