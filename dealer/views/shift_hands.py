"""Every hand of the shift, the newest first, and the disputes still open: what the floor and
a table's screen list so that any hand, and any dispute, is one tap away. A hand's line is the
one the session report and the shift ledger list too (`hand_line`).

A page of hands is read with its tables, its winners' names, the chips that changed hands in
each (its ledger entries' net) and its open disputes: four small queries for the page, whatever
the shift's size (the hands' ``started_at`` and ``table_id`` are indexed).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from pydantic import Field
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from dealer.disputes.record import listed_disputes
from dealer.ledger.accounts import house_account, pot_account, seating_account
from dealer.ledger.balances import hands_nets
from dealer.models import Dispute, DisputeRuling, Hand, Seating, Table
from dealer.views.base import Time, View
from dealer.views.disputes import DisputeLine, dispute_lines
from dealer.words.status import status_words

#: Hands a page lists unless told.
PAGE = 25


class HandLine(View):
    """One hand: where, when, who won, the chips it moved, what its winner won and the house
    took (its own entries, all of them)."""

    id: int
    number: int
    table: int
    table_name: str
    status: str
    status_words: str
    winner: int | None
    winner_player: str
    moved: int = Field(
        description="The chips the seats and the house paid over the hand (the ledger's net of "
        "each, the pot left out): what changed hands."
    )
    started_at: Time
    open_disputes: int
    settled_at: Time | None = Field(description="None while in play, or when void.")
    seats: int = Field(description="The seats dealt in.")
    won: int = Field(description="The winner's net over the hand (0: no winner).")
    drop: int = Field(description="The house's net over the hand.")

    @property
    def winner_words(self) -> str:
        """The winner's seat and name ("3 Ana"), or nothing."""
        return f"{self.winner} {self.winner_player}" if self.winner is not None else ""


def hand_line(
    hand: Any, net: Mapping[str, int], table_name: str, winner_player: str, open_disputes: int
) -> HandLine:
    """``hand`` (a `Hand`, or a row of its columns) as a line, its figures from ``net``: each
    account's change over the hand's own entries."""
    winner = hand.seats.get(str(hand.winner)) if hand.winner is not None else None
    pot = pot_account(hand.id)
    return HandLine(
        id=hand.id,
        number=hand.number,
        table=hand.table_id,
        table_name=table_name,
        status=hand.status,
        status_words=status_words(hand.status),
        winner=hand.winner,
        winner_player=winner_player,
        moved=sum(-chips for account, chips in net.items() if chips < 0 and account != pot),
        started_at=hand.started_at,
        open_disputes=open_disputes,
        settled_at=hand.ended_at if hand.status == "settled" else None,
        seats=len(hand.seats),
        won=net.get(seating_account(winner), 0) if winner is not None else 0,
        drop=net.get(house_account(hand.table_id), 0),
    )


class ShiftHands(View):
    """A page of the shift's hands, the newest first."""

    since: Time
    table: int | None
    table_name: str | None
    hands: list[HandLine]
    #: Ask again with before=next for older hands; None: this page is the last.
    next: int | None
    #: Hands of the shift in all (at the table, when one is asked for).
    count: int


def shift_hands(
    session: Session,
    since: datetime,
    table_id: int | None = None,
    before: int | None = None,
    limit: int = PAGE,
) -> ShiftHands:
    """The hands dealt since ``since`` (at ``table_id`` when given), ``limit`` of them with
    ids below ``before``, the newest first."""
    wanted = select(Hand).where(Hand.started_at >= since)
    counted = select(func.count(Hand.id)).where(Hand.started_at >= since)
    if table_id is not None:
        wanted = wanted.where(Hand.table_id == table_id)
        counted = counted.where(Hand.table_id == table_id)
    if before is not None:
        wanted = wanted.where(Hand.id < before)
    found = list(session.scalars(wanted.order_by(Hand.id.desc()).limit(limit + 1)))
    page = found[:limit]
    nets = hands_nets(session, [h.id for h in page])
    tables = dict(session.execute(select(Table.id, Table.name)).all())
    winners = {h.seats[str(h.winner)] for h in page if h.winner is not None}
    players = dict(
        session.execute(select(Seating.id, Seating.player).where(Seating.id.in_(winners))).all()
    )
    disputed = _open_disputes(session, [h.id for h in page])
    return ShiftHands(
        since=since,
        table=table_id,
        table_name=tables.get(table_id) if table_id is not None else None,
        hands=[
            hand_line(
                h,
                nets.get(h.id, {}),
                tables.get(h.table_id, ""),
                players.get(h.seats[str(h.winner)], "") if h.winner is not None else "",
                disputed[h.id],
            )
            for h in page
        ],
        next=page[-1].id if len(found) > limit else None,
        count=session.scalar(counted) or 0,
    )


def _open_disputes(session: Session, hand_ids: list[int]) -> Counter[int]:
    ruled = select(DisputeRuling.id).where(DisputeRuling.dispute_id == Dispute.id).exists()
    rows = session.execute(select(Dispute.hand_id).where(Dispute.hand_id.in_(hand_ids), ~ruled))
    return Counter(hand for (hand,) in rows)


def open_disputes_list(session: Session, table_id: int | None = None) -> tuple[DisputeLine, ...]:
    """Every dispute still open (at ``table_id`` when given), the oldest first."""
    found = listed_disputes(session, "open", {table_id} if table_id is not None else None)
    return dispute_lines(session, (), also=found)
