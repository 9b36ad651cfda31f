"""The floor: tables, who is assigned to them, players, seats and dealers' sessions."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa
from sqlalchemy.orm import Mapped, mapped_column, relationship

from dealer.bounds import APPROVAL_ABOVE, MAX_BUY_IN, MIN_BUY_IN, SEATS
from dealer.extensions import Base
from dealer.models.base import Timestamp, unique_where, utcnow

if TYPE_CHECKING:
    from dealer.models.people import User


class Table(Base):
    """A card table: its rule profile, the knobs it overrides and its house collection."""

    __tablename__ = "card_tables"
    __table_args__ = (sa.CheckConstraint("chip_value_cents >= 0", name="chip_value"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(sa.String(100))
    profile: Mapped[str] = mapped_column(sa.String(20))
    #: Only the knobs the table overrides; the profile supplies the rest.
    rules: Mapped[dict[str, Any]] = mapped_column(sa.JSON)
    #: The collection model in its API form: {"kind": "time", "chips": 1, "minutes": 30}.
    collection: Mapped[dict[str, Any]] = mapped_column(sa.JSON)
    chip_value_cents: Mapped[int] = mapped_column()
    created_at: Mapped[datetime] = mapped_column(Timestamp, default=utcnow)
    created_by: Mapped[int] = mapped_column(sa.ForeignKey("users.id"))
    #: The money limits (`dealer.floor.limits`): the least and the most one buy-in may be,
    #: and above how many chips a buy-in or a cash-out needs a supervisor's name and PIN.
    min_buy_in: Mapped[int] = mapped_column(default=MIN_BUY_IN)
    max_buy_in: Mapped[int] = mapped_column(default=MAX_BUY_IN)
    approval_above: Mapped[int] = mapped_column(default=APPROVAL_ABOVE)
    #: The variance (chips) a count at a session's close may show without a supervisor.
    count_tolerance: Mapped[int] = mapped_column(default=0, server_default="0")
    #: Chips are sold for cash into the table's drop box: a count counts its cash too.
    sells_for_cash: Mapped[bool] = mapped_column(default=False, server_default=sa.false())
    #: Where the hand screen's acting seat goes after a drop or a foul: ``stays`` with the seat
    #: that acted, or ``moves_on`` to the next seat in play (`dealer.floor.acting_seat.ActingSeat`).
    acting_seat: Mapped[str] = mapped_column(sa.String(10), default="stays", server_default="stays")


class TableAssignment(Base):
    """A supervisor sending a dealer to a table (``assigned``) or taking them off it.

    Never updated or deleted: the latest row for a (table, dealer) says whether the dealer
    is assigned there now, and the rows before it are the floor's history.
    """

    __tablename__ = "table_assignments"

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[int] = mapped_column(sa.ForeignKey("card_tables.id"), index=True)
    dealer_id: Mapped[int] = mapped_column(sa.ForeignKey("users.id"), index=True)
    assigned: Mapped[bool] = mapped_column()
    by_id: Mapped[int] = mapped_column(sa.ForeignKey("users.id"))
    at: Mapped[datetime] = mapped_column(Timestamp, default=utcnow)


class Player(Base):
    """A player known across sessions and days: what seatings belong to."""

    __tablename__ = "players"

    id: Mapped[int] = mapped_column(primary_key=True)
    #: A name or a nickname, as the floor knows the player.
    name: Mapped[str] = mapped_column(sa.String(60), index=True)
    #: The card room's player card, when the player has one: one player per card.
    card_number: Mapped[str | None] = mapped_column(sa.String(30), unique=True)
    notes: Mapped[str | None] = mapped_column(sa.Text)
    created_at: Mapped[datetime] = mapped_column(Timestamp, default=utcnow)
    created_by: Mapped[int] = mapped_column(sa.ForeignKey("users.id"))
    #: The language the player's statement and slips are printed in (``es``); null: the asker's.
    language: Mapped[str | None] = mapped_column(sa.String(12))


class Seating(Base):
    """A player's stay in one seat, from sitting down to leaving.

    Seat numbers are reused over an evening; the seating is what the ledger's
    stack account (``seating:<id>``) belongs to.
    """

    __tablename__ = "seatings"
    __table_args__ = (
        sa.CheckConstraint(f"seat BETWEEN {SEATS[0]} AND {SEATS[1]}", name="seat"),
        # At most one player in a seat at a time: a second sitting down is a conflict.
        unique_where("uq_seatings_open_seat", "table_id", "seat", where="left_at IS NULL"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[int] = mapped_column(sa.ForeignKey("card_tables.id"), index=True)
    seat: Mapped[int] = mapped_column()
    #: The name shown for the seat (the player's name when it was taken).
    player: Mapped[str] = mapped_column(sa.String(60))
    #: The player record; null for seatings from before players were kept (0014).
    player_id: Mapped[int | None] = mapped_column(sa.ForeignKey("players.id"), index=True)
    seated_at: Mapped[datetime] = mapped_column(Timestamp, default=utcnow)
    left_at: Mapped[datetime | None] = mapped_column(Timestamp)
    #: A paused player sits out: not dealt in, not charged the time collection.
    paused: Mapped[bool] = mapped_column(default=False)


class Down(Base):
    """A dealer's down at one table: opened, then closed, and the close confirmed by the floor.

    The down ends when its close is requested (``closed_at``): from then on no hand joins
    it and the next dealer may open one. The floor's confirmation comes with or after it.
    """

    __tablename__ = "table_sessions"
    __table_args__ = (
        # One open session per table, even when two tablets open one at once.
        unique_where("uq_table_sessions_one_open", "table_id", where="closed_at IS NULL"),
        sa.CheckConstraint(
            "close_confirmed_by IS NULL OR closed_at IS NOT NULL", name="confirmed_after_close"
        ),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[int] = mapped_column(sa.ForeignKey("card_tables.id"), index=True)
    dealer_id: Mapped[int] = mapped_column(sa.ForeignKey("users.id"))
    opened_at: Mapped[datetime] = mapped_column(Timestamp, default=utcnow)
    #: Opened by dealing a hand while no session was open, not by an explicit open.
    implicit: Mapped[bool] = mapped_column(default=False)
    closed_at: Mapped[datetime | None] = mapped_column(Timestamp)
    close_requested_by: Mapped[int | None] = mapped_column(sa.ForeignKey("users.id"))
    close_confirmed_by: Mapped[int | None] = mapped_column(sa.ForeignKey("users.id"))
    close_confirmed_at: Mapped[datetime | None] = mapped_column(Timestamp)

    dealer: Mapped[User] = relationship(foreign_keys=[dealer_id])

    @property
    def status(self) -> str:
        """open; awaiting_confirmation (the down has ended); closed (the floor confirmed)."""
        if self.closed_at is None:
            return "open"
        return "closed" if self.close_confirmed_by is not None else "awaiting_confirmation"
