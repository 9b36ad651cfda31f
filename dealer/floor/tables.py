"""Tables and seats: set up a table, seat players, buy in, cash out, sit out, leave, and the
time collection (taking it, and when it is due).

Each service checks its own inputs against `dealer.bounds`, whichever front door called.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any, Literal, get_args

from sqlalchemy import select
from sqlalchemy.orm import Session

from dealer import rules
from dealer.bounds import (
    CHIP_VALUE_CENTS,
    MAX_CHIPS,
    MAX_ID,
    PLAYER_NAME,
    SEATS,
    TABLE_NAME,
    check_name_text,
    check_one_of,
    check_whole,
    refuse_lookalike,
)
from dealer.errors import Conflict, Forbidden, Invalid, NotFound
from dealer.floor.approvals import (
    approval,
    approve_chips,
    approved_reason,
    chips_need_floor,
    record_approval,
)
from dealer.floor.in_play import hands_in_play
from dealer.floor.limits import check_buy_in, check_limits
from dealer.ledger.accounts import CAGE, seating_account
from dealer.ledger.balances import balance, balances
from dealer.ledger.post import Posting, Recorder, post
from dealer.models import Player, Seating, Table, User, by_id, utcnow
from dealer.people.audit import record_audit
from dealer.words import inputs as said
from dealer.words import tables as table_words
from dealer.words.catalogue import say, say_later
from dealer.words.reasons import FLOOR_REASONS

ChipMoveKind = Literal["buy_in", "cash_out"]
#: The ways chips move between a seat and the cage.
CHIP_MOVES: tuple[ChipMoveKind, ...] = get_args(ChipMoveKind)


def check_chip_move(kind: object) -> ChipMoveKind:
    """``kind`` if it is a way chips move between a seat and the cage."""
    return check_one_of(kind, CHIP_MOVES, said.chip_move)


def check_paused(paused: object) -> bool:
    if not isinstance(paused, bool):
        raise Invalid(say("Say whether the seat sits out: paused true or false (paused)."))
    return paused


def collection_warnings(collection: rules.Collection) -> list[str]:
    """What the floor should be told about a table's collection before choosing it."""
    return [table_words.california_warning()] if collection.banned_in_california else []


def create_table(
    session: Session,
    name: str,
    profile: str,
    overrides: Mapping[str, Any],
    collection: Mapping[str, Any] | None,
    chip_value_cents: int,
    user: User,
    limits: Mapping[str, object | None] | None = None,
) -> Table:
    """A new table; the engine checks the profile, every knob and the collection.

    ``limits``: its money limits (`dealer.floor.limits`); those not given are the defaults.
    """
    name = check_name_text(name, TABLE_NAME, "table's name", "name")
    chip_value_cents = check_whole(
        chip_value_cents, CHIP_VALUE_CENTS, say_later("chip value in cents"), "chip_value_cents"
    )
    rules.make_rules(profile, overrides)
    model = rules.make_collection(collection)
    money = check_limits(limits or {})
    # Among every table: a table is never closed, and the floor picks tables by name (the
    # payment search's "table 1", the lists of the screens).
    refuse_lookalike(
        name, session.scalars(select(Table.name).order_by(Table.id)), "table", "table_exists"
    )
    table = Table(
        name=name,
        profile=profile,
        rules=dict(overrides),
        collection=model.as_dict(),
        chip_value_cents=chip_value_cents,
        created_by=user.id,
        **money.as_dict(),
    )
    session.add(table)
    session.flush()
    record_audit(
        session,
        "table_created",
        words=table_words.table_opened(user.name, table.id, name, profile),
        user_id=user.id,
        table_id=table.id,
        details={"rules": dict(overrides), "collection": table.collection},
    )
    return table


def all_tables(session: Session) -> list[Table]:
    """Every table, in the order a person reads names: "Table 2" before "Table 10"."""
    tables = session.scalars(select(Table).order_by(Table.id))
    return sorted(
        tables,
        key=lambda t: [int(x) if x.isdecimal() else x.lower() for x in re.split(r"(\d+)", t.name)],
    )


def get_table(session: Session, table_id: int) -> Table:
    unknown = say("There is no table {table_id}.", table_id=table_id)
    return by_id(session, Table, table_id, unknown, "unknown_table")


def open_seatings(session: Session, table_id: int) -> list[Seating]:
    """The players seated at a table now, by seat."""
    return list(
        session.scalars(
            select(Seating)
            .where(Seating.table_id == table_id, Seating.left_at.is_(None))
            .order_by(Seating.seat)
        )
    )


def open_seat(session: Session, table: Table, seat: int, seating: int | None = None) -> Seating:
    """Who sits in ``seat`` now. With ``seating``, the stay an entry was made for: only that
    stay, never whoever sits there by the time the entry arrives (an entry kept on a tablet
    while the connection was down, sent after the player left): its end is a conflict."""
    found = _sitting(session, table, seat)
    if seating is not None:
        seating = check_whole(seating, (1, MAX_ID), say_later("seating"), "seating")
        if found is None or found.id != seating:
            made_for = session.get(Seating, seating)
            raise Conflict(_stay_ended(table, seat, made_for, found), "seating_ended")
    if found is None:
        raise NotFound(say("Nobody is sitting in seat {seat}.", seat=seat), "seat_empty")
    return found


def _sitting(session: Session, table: Table, seat: int) -> Seating | None:
    return session.scalars(
        select(Seating).where(
            Seating.table_id == table.id, Seating.seat == seat, Seating.left_at.is_(None)
        )
    ).first()


def _stay_ended(table: Table, seat: int, made_for: Seating | None, now: Seating | None) -> str:
    """Why an entry made for the stay ``made_for`` in ``seat`` is refused, ``now`` there."""
    here = made_for is not None and (made_for.table_id, made_for.seat) == (table.id, seat)
    player = made_for.player if here and made_for is not None else None
    return table_words.stay_ended(seat, player, now.player if now is not None else None)


def stacks(session: Session, seatings: Sequence[Seating]) -> dict[int, int]:
    """Each seating's stack (by seating id): the sum of its account's entries."""
    sums = balances(session, [seating_account(s.id) for s in seatings])
    return {s.id: sums[seating_account(s.id)] for s in seatings}


def seat_player(
    session: Session,
    table: Table,
    seat: int,
    player: str | None,
    buy_in: int,
    recorder: Recorder,
    user: User,
    supervisor: User | None = None,
    player_id: int | None = None,
) -> Seating:
    """Seat ``player`` in an empty seat with ``buy_in`` chips from the cage.

    A buy-in of 0 seats the player with no chips yet; any other is held to the table's
    limits (`dealer.floor.limits`). With ``player_id`` the seating belongs to that player
    record; the name shown for the seat is ``player`` if given, else the record's name.
    """
    seat = check_whole(seat, SEATS, say_later("seat"), "seat")
    player, known = _player_named(session, player, player_id)
    buy_in = check_whole(buy_in, (0, MAX_CHIPS), say_later("buy-in"), "buy_in")
    approved = None
    if buy_in:
        check_buy_in(table, buy_in)
        approved = approve_chips(table, "buy_in", buy_in, user, supervisor)
    taken = _sitting(session, table, seat)
    if taken is not None:
        raise Conflict(
            say("Seat {seat} is taken by {player}.", seat=seat, player=taken.player), "seat_taken"
        )
    seating = Seating(
        table_id=table.id, seat=seat, player=player, player_id=known.id if known else None
    )
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
                    approved_reason(
                        FLOOR_REASONS["seated"].format(player=player, seat=seat, chips=buy_in),
                        approved,
                        user,
                    ),
                )
            ],
            recorder,
        )
        record_approval(session, table, "buy_in", buy_in, approved, user)
    return seating


def _player_named(
    session: Session, player: str | None, player_id: int | None
) -> tuple[str, Player | None]:
    """The name a seat shows and the player record it belongs to: ``player`` if given, else
    the record ``player_id``'s name."""
    known = None
    if player_id is not None:
        check_whole(player_id, (1, MAX_ID), say_later("player's id"), "player_id")
        known = session.get(Player, player_id)
        if known is None:
            raise NotFound(
                say("There is no player {player_id}.", player_id=player_id), "unknown_player"
            )
        if player is None or not str(player).strip():
            player = known.name
    if player is None:
        raise Invalid(
            say("Name the player, or choose one (player or player_id)."), "player_missing"
        )
    return check_name_text(player, PLAYER_NAME, "player's name", "player"), known


def _refuse_in_play(session: Session, table: Table, seating: Seating, wait: str) -> None:
    """Refuse a seat's chips leaving while it is in the hand in play: ``wait`` says until when."""
    hand = hands_in_play(session, [table.id]).get(table.id)
    if hand is not None and hand.seats.get(str(seating.seat)) == seating.id:
        raise Conflict(wait, "seat_in_hand")


def move_chips(
    session: Session,
    table: Table,
    seating: Seating,
    kind: ChipMoveKind,
    amount: int,
    recorder: Recorder,
    user: User,
    supervisor: User | None = None,
) -> None:
    """A rebuy from the cage, or chips back to it (never more than the stack holds), within
    the table's limits."""
    kind = check_chip_move(kind)
    amount = check_whole(amount, (1, MAX_CHIPS), say_later("number of chips"), "amount")
    account = seating_account(seating.id)
    who = {"player": seating.player, "seat": seating.seat, "chips": amount}
    if kind == "buy_in":
        check_buy_in(table, amount)
        approved = approve_chips(table, "buy_in", amount, user, supervisor)
        noted = approved_reason(FLOOR_REASONS["buy_in"].format(**who), approved, user)
        posting = Posting(CAGE, account, amount, "buy_in", noted)
    else:
        wait = say(
            "Seat {seat} is in the hand in play: cash out after it is settled.", seat=seating.seat
        )
        _refuse_in_play(session, table, seating, wait)
        stack = balance(session, account)
        if amount > stack:
            raise Invalid(
                say(
                    "Seat {seat} has {stack} chips: it cannot cash out {amount}.",
                    seat=seating.seat,
                    stack=stack,
                    amount=amount,
                ),
                "not_enough_chips",
            )
        approved = approve_chips(table, "cash_out", amount, user, supervisor)
        noted = approved_reason(FLOOR_REASONS["cash_out"].format(**who), approved, user)
        posting = Posting(account, CAGE, amount, "cash_out", noted)
    post(session, table.id, [posting], recorder)
    record_approval(session, table, kind, amount, approved, user)


def pause_seat(session: Session, seating: Seating, paused: object) -> None:
    """Sit a player out (not dealt in, no time collection) or back in."""
    seating.paused = check_paused(paused)
    session.flush()


def leave_seat(
    session: Session,
    table: Table,
    seating: Seating,
    recorder: Recorder,
    user: User,
    supervisor: User | None = None,
) -> int:
    """Cash out the whole stack and free the seat; return the stack it left with.

    Leaving is a cash-out: above the table's approval threshold it needs a supervisor too.
    """
    wait = say(
        "Seat {seat} is in the hand in play: it can leave once the hand is settled.",
        seat=seating.seat,
    )
    _refuse_in_play(session, table, seating, wait)
    account = seating_account(seating.id)
    stack = balance(session, account)
    if stack < 0:
        raise Conflict(
            say(
                "Seat {seat} is short by {value} chips: buy in to cover it before leaving.",
                seat=seating.seat,
                value=-stack,
            ),
            "seat_short",
        )
    needed = chips_need_floor(table, stack)
    approved = approval(
        needed,
        user,
        supervisor,
        Forbidden(
            say(
                "Seat {seat} would leave with {stack:,} chips, above this table's "
                "{approval_above:,}: a supervisor's name and PIN must approve the cash-out.",
                seat=seating.seat,
                stack=stack,
                approval_above=table.approval_above,
            ),
            "needs_supervisor",
        ),
    )
    if not needed:
        approved = None  # a cash-out within the threshold is nobody's approval
    if stack:
        left = FLOOR_REASONS["leaving"].format(
            player=seating.player, seat=seating.seat, chips=stack
        )
        noted = approved_reason(left, approved, user)
        post(session, table.id, [Posting(account, CAGE, stack, "cash_out", noted)], recorder)
        record_approval(session, table, "leaving", stack, approved, user)
    seating.left_at = utcnow()
    session.flush()
    return stack
