"""Hands, their events, and the disputes raised on them with their rulings."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa
from sqlalchemy.orm import Mapped, mapped_column, relationship

from dealer.extensions import Base
from dealer.models.base import (
    DISPUTE_OUTCOMES,
    DISPUTE_RAISERS,
    HAND_STATUSES,
    Timestamp,
    _in,
    unique_where,
    utcnow,
)

if TYPE_CHECKING:
    from dealer.models.people import User


class Hand(Base):
    """One hand at a table, with the exact rules and collection it was played under."""

    __tablename__ = "hands"
    __table_args__ = (
        sa.CheckConstraint(_in("status", HAND_STATUSES), name="status"),
        sa.UniqueConstraint("table_id", "number"),
        # One hand in play per table, even when two tablets start one at once.
        unique_where("uq_hands_one_playing", "table_id", where="status = 'playing'"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[int] = mapped_column(sa.ForeignKey("card_tables.id"), index=True)
    #: The dealer's session open at the table when the hand was dealt.
    down_id: Mapped[int | None] = mapped_column(
        "session_id", sa.ForeignKey("table_sessions.id"), index=True
    )
    #: 1, 2, 3 ... per table.
    number: Mapped[int] = mapped_column()
    #: Kept in step with the replayed engine in the event's own transaction.
    status: Mapped[str] = mapped_column(sa.String(10))
    #: {"profile": ..., every knob: its effective value}.
    rules: Mapped[dict[str, Any]] = mapped_column(sa.JSON)
    collection: Mapped[dict[str, Any]] = mapped_column(sa.JSON)
    #: Seat number (as a string) -> seating id, for every seat dealt in.
    seats: Mapped[dict[str, int]] = mapped_column(sa.JSON)
    winner: Mapped[int | None] = mapped_column()
    #: Indexed: a shift report reads the hands dealt in its window, not every hand.
    started_at: Mapped[datetime] = mapped_column(Timestamp, default=utcnow, index=True)
    ended_at: Mapped[datetime | None] = mapped_column(Timestamp)
    #: The rules engine the hand was played under (`dealer.ledger.engine`); null before 0009.
    engine_version: Mapped[str | None] = mapped_column(sa.String(40))


class Event(Base):
    """One event of a hand, exactly as recorded: the deal, a meld, a void ..."""

    __tablename__ = "events"
    __table_args__ = (sa.UniqueConstraint("hand_id", "seq"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    hand_id: Mapped[int] = mapped_column(sa.ForeignKey("hands.id"), index=True)
    #: The engine's event number within the hand: the deal is 1.
    seq: Mapped[int] = mapped_column()
    type: Mapped[str] = mapped_column(sa.String(20))
    #: The action in canonical form (``action_to_dict``); null for the deal.
    action: Mapped[dict[str, Any] | None] = mapped_column(sa.JSON)
    seat: Mapped[int | None] = mapped_column()
    user_id: Mapped[int] = mapped_column(sa.ForeignKey("users.id"))
    #: The supervisor who approved it, when the rules ask for one.
    supervisor_id: Mapped[int | None] = mapped_column(sa.ForeignKey("users.id"))
    device: Mapped[str] = mapped_column(sa.String(200))
    created_at: Mapped[datetime] = mapped_column(Timestamp, default=utcnow)
    #: The hand's status and winner once this event was applied, as the engine said then (the
    #: keyed chain covers them: a hand's own row, updated as it is played, is held to its last
    #: event's). Null before migration 0009.
    hand_status: Mapped[str | None] = mapped_column(sa.String(10))
    hand_winner: Mapped[int | None] = mapped_column()

    user: Mapped[User] = relationship(foreign_keys=[user_id])
    supervisor: Mapped[User | None] = relationship(foreign_keys=[supervisor_id])


class Dispute(Base):
    """A question raised on a hand, on the record. Never updated or deleted: a ruling closes it.

    Linked into the keyed chain like the ledger (kind ``dispute``).
    """

    __tablename__ = "disputes"
    __table_args__ = (
        sa.CheckConstraint(_in("raised_by", DISPUTE_RAISERS), name="raised_by"),
        # A seat raises it with its number; the dealer without one.
        sa.CheckConstraint(
            "(raised_by = 'seat') = (seat IS NOT NULL)", name="seat_when_raised_by_seat"
        ),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    hand_id: Mapped[int] = mapped_column(sa.ForeignKey("hands.id"), index=True)
    raised_by: Mapped[str] = mapped_column(sa.String(10))
    seat: Mapped[int | None] = mapped_column()
    #: What was claimed, in the words it was put.
    claim: Mapped[str] = mapped_column(sa.Text)
    #: The ledger entry (a payment) the claim is about, if it is about one.
    entry_seq: Mapped[int | None] = mapped_column(sa.ForeignKey("ledger_entries.seq"))
    user_id: Mapped[int] = mapped_column(sa.ForeignKey("users.id"))
    device: Mapped[str] = mapped_column(sa.String(200))
    opened_at: Mapped[datetime] = mapped_column(Timestamp, default=utcnow, index=True)

    user: Mapped[User] = relationship()


class DisputeRuling(Base):
    """A supervisor's ruling that closes a dispute. Never updated or deleted; at most one.

    Linked into the keyed chain like the ledger (kind ``ruling``).
    """

    __tablename__ = "dispute_rulings"
    __table_args__ = (
        sa.CheckConstraint(_in("outcome", DISPUTE_OUTCOMES), name="outcome"),
        # What an upheld claim led to is linked; a denied one led to nothing.
        sa.CheckConstraint(
            "outcome = 'upheld' OR (void_event_id IS NULL AND correction_seq IS NULL)",
            name="denied_leads_to_nothing",
        ),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    dispute_id: Mapped[int] = mapped_column(sa.ForeignKey("disputes.id"), unique=True)
    outcome: Mapped[str] = mapped_column(sa.String(10))
    #: Why, in the supervisor's words.
    reason: Mapped[str] = mapped_column(sa.Text)
    #: The void event an upheld claim led to, or the correcting ledger entry.
    void_event_id: Mapped[int | None] = mapped_column(sa.ForeignKey("events.id"))
    correction_seq: Mapped[int | None] = mapped_column(sa.ForeignKey("ledger_entries.seq"))
    user_id: Mapped[int] = mapped_column(sa.ForeignKey("users.id"))
    device: Mapped[str] = mapped_column(sa.String(200))
    ruled_at: Mapped[datetime] = mapped_column(Timestamp, default=utcnow)

    user: Mapped[User] = relationship()
