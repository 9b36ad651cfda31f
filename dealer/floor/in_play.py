"""The hands at the floor's tables: one by its id, and the hand in play at each table."""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import select
from sqlalchemy.orm import Session

from dealer.models import Hand, by_id
from dealer.words.catalogue import say


def get_hand(session: Session, hand_id: int) -> Hand:
    unknown = say("There is no hand {hand_id}.", hand_id=hand_id)
    return by_id(session, Hand, hand_id, unknown, "unknown_hand")


def hands_in_play(
    session: Session, tables: Iterable[int] | None = None, down: int | None = None
) -> dict[int, Hand]:
    """The hand in play at each table that has one: of ``tables`` (None: every table), dealt
    in the table session ``down`` if given. The one query of "the hand in play"."""
    query = select(Hand).where(Hand.status == "playing").order_by(Hand.id)
    if tables is not None:
        query = query.where(Hand.table_id.in_(list(tables)))
    if down is not None:
        query = query.where(Hand.down_id == down)
    return {hand.table_id: hand for hand in session.scalars(query)}
