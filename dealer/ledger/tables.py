"""Tables and seats: set up a table, seat players, buy in, cash out, leave, time collection."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal

from sqlalchemy import select
from sqlalchemy.orm import Session

from dealer import rules
from dealer.errors import Conflict, Invalid, NotFound
from dealer.models import Hand, LedgerEntry, Seating, Table, User, utcnow

from .accounts import CAGE, house_account, seating_account
from .balances import balance, balances
from .hands import MAX_ID, playing_hand, table_collection
from .post import Posting, Recorder, post

__all__ = [
    "create_table",
    "get_table",
    "leave_seat",
    "move_chips",
    "open_seat",
    "open_seatings",
    "seat_player",
    "stacks",
    "take_time_collection",
]


def create_table(
    session: Session,
    name: str,
    profile: str,
    overrides: Mapping[str, Any],
    collection: Mapping[str, Any] | None,
    chip_value_cents: int,
    user: User,
) -> Table:
    """A new table; the engine checks the profile, every knob and the collection."""
    rules.make_rules(profile, overrides)
    model = rules.make_collection(collection)
    table = Table(
        name=name,
        profile=profile,
        rules=dict(overrides),
        collection=model.as_dict(),
        chip_value_cents=chip_value_cents,
        created_by=user.id,
    )
    session.add(table)
    session.flush()
    return table


def get_table(session: Session, table_id: int) -> Table:
    table = session.get(Table, table_id) if 1 <= table_id <= MAX_ID else None
    if table is None:
        raise NotFound(f"There is no table {table_id}.", "unknown_table")
    return table


def open_seatings(session: Session, table_id: int) -> list[Seating]:
    """The players seated at a table now, by seat."""
    return list(
        session.scalars(
            select(Seating)
            .where(Seating.table_id == table_id, Seating.left_at.is_(None))
            .order_by(Seating.seat)
        )
    )


def open_seat(session: Session, table: Table, seat: int) -> Seating:
    found = session.scalars(
        select(Seating).where(
            Seating.table_id == table.id, Seating.seat == seat, Seating.left_at.is_(None)
        )
    ).first()
    if found is None:
        raise NotFound(f"Nobody is sitting in seat {seat}.", "seat_empty")
    return found


def stacks(session: Session, seatings: Sequence[Seating]) -> dict[int, int]:
    """Each seating's stack (by seating id): the sum of its account's entries."""
    sums = balances(session, [seating_account(s.id) for s in seatings])
    return {s.id: sums[seating_account(s.id)] for s in seatings}


def seat_player(
    session: Session, table: Table, seat: int, player: str, buy_in: int, recorder: Recorder
) -> Seating:
    """Seat ``player`` in an empty seat with ``buy_in`` chips from the cage."""
    taken = session.scalars(
        select(Seating).where(
            Seating.table_id == table.id, Seating.seat == seat, Seating.left_at.is_(None)
        )
    ).first()
    if taken is not None:
        raise Conflict(f"Seat {seat} is taken by {taken.player}.", "seat_taken")
    seating = Seating(table_id=table.id, seat=seat, player=player)
    session.add(seating)
    session.flush()
    if buy_in:
        post(
            session,
            table.id,
            [
                Posting(
                    CAGE,
                    seating_account(seating.id),
                    buy_in,
                    "buy_in",
                    f"{player} sits in seat {seat} and buys in for {buy_in}",
                )
            ],
            recorder,
        )
    return seating


def _in_hand_in_play(session: Session, table: Table, seating: Seating) -> Hand | None:
    hand = playing_hand(session, table.id)
    if hand is not None and hand.seats.get(str(seating.seat)) == seating.id:
        return hand
    return None


def move_chips(
    session: Session,
    table: Table,
    seating: Seating,
    kind: Literal["buy_in", "cash_out"],
    amount: int,
    recorder: Recorder,
) -> None:
    """A rebuy from the cage, or chips back to it (never more than the stack holds)."""
    account = seating_account(seating.id)
    who = f"{seating.player} in seat {seating.seat}"
    if kind == "buy_in":
        posting = Posting(CAGE, account, amount, "buy_in", f"{who} buys in for {amount}")
    else:
        if _in_hand_in_play(session, table, seating) is not None:
            raise Conflict(
                f"Seat {seating.seat} is in the hand in play: cash out after it is settled.",
                "seat_in_hand",
            )
        stack = balance(session, account)
        if amount > stack:
            raise Invalid(
                f"Seat {seating.seat} has {stack} chips: it cannot cash out {amount}.",
                "not_enough_chips",
            )
        posting = Posting(account, CAGE, amount, "cash_out", f"{who} cashes out {amount}")
    post(session, table.id, [posting], recorder)


def leave_seat(session: Session, table: Table, seating: Seating, recorder: Recorder) -> int:
    """Cash out the whole stack and free the seat; return the stack it left with."""
    if _in_hand_in_play(session, table, seating) is not None:
        raise Conflict(
            f"Seat {seating.seat} is in the hand in play: it can leave once the hand is settled.",
            "seat_in_hand",
        )
    account = seating_account(seating.id)
    stack = balance(session, account)
    if stack < 0:
        raise Conflict(
            f"Seat {seating.seat} is short by {-stack} chips: buy in to cover it before leaving.",
            "seat_short",
        )
    if stack:
        who = f"{seating.player} leaves seat {seating.seat}"
        post(
            session,
            table.id,
            [Posting(account, CAGE, stack, "cash_out", f"{who} and cashes out {stack}")],
            recorder,
        )
    seating.left_at = utcnow()
    session.flush()
    return stack


def take_time_collection(
    session: Session, table: Table, recorder: Recorder
) -> tuple[list[rules.Payment], list[LedgerEntry]]:
    """Each seated, unpaused player pays the time collection to the house."""
    seatings = {s.seat: s for s in open_seatings(session, table.id) if not s.paused}
    payments = rules.time_collection(seatings, table_collection(table))
    postings = [
        Posting(
            seating_account(seatings[int(p.payer)].id),
            house_account(table.id),
            p.chips,
            p.rule,
            p.reason,
        )
        for p in payments
    ]
    return payments, post(session, table.id, postings, recorder)
