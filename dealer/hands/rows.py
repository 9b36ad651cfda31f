"""An engine event's rows: made before the writers' lock, put in their place in the chains
under it.

Everything of an event that does not depend on the chains' heads (the judging, the rows'
contents, the seats' check, the answer drawn from them) is done before the writers' lock
(`judged`), beside other tables' writes; under it (`stored`) only the event's id and time,
its entries' seqs and hashes, the links' HMACs that chain on the heads, and the rows sent
(`dealer.write_locks`): on PostgreSQL two round trips, the lock with the heads read after it,
then every row with the commit.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import cast

import sqlalchemy as sa
from sqlalchemy import insert, select
from sqlalchemy.orm import Session
from sqlalchemy.orm.attributes import set_committed_value

from dealer import live, rules, write_behind
from dealer.errors import Conflict
from dealer.hands.reading import Replayed
from dealer.ledger.checkpoints import seal_shift_end
from dealer.ledger.links import link_event
from dealer.ledger.post import Posting, Recorder, chain, keep_heads, unchained
from dealer.ledger.replay import account_of
from dealer.models import Event, Hand, LedgerEntry, Seating, User, utcnow
from dealer.transactions import require_writing, writers_first
from dealer.words.catalogue import say
from dealer.words.parties import seat_words

#: What an event judged holds until the writers' lock gives it its place (`Judged`): its id,
#: and each of its entries' seq (this, less one a payment). No row has a key below 1.
LATE_ID = -(2**62)
#: And its time (the hand's end's, when it settles the hand).
LATE_AT = datetime(1, 1, 1, tzinfo=UTC)


@dataclass(slots=True)
class Judged:
    """An engine event judged, its rows made, all but their place in the chains: its id,
    time and seqs are `LATE_ID` and `LATE_AT` until `stored` gives them under the writers'
    lock. Its answer may be drawn meanwhile, and its late numbers filled in (`late`)."""

    replayed: Replayed
    event: Event
    entries: list[LedgerEntry]
    recorder: Recorder
    supervisor: User | None
    #: Who entered it, for the audit trail; None when the deal records it (`start_hand`).
    user: User | None
    #: Whether the event moves the hand's status (a going out settles it).
    moves_hand: bool

    def late(self) -> dict[object, object]:
        """Each late number and time of its answer, and what it turned out to be (once
        stored)."""
        event = self.event
        found: dict[object, object] = {LATE_ID: event.id, LATE_AT: event.created_at}
        found.update((LATE_ID - n, e.seq) for n, e in enumerate(self.entries, start=1))
        return found


def judged(
    session: Session,
    replayed: Replayed,
    record: rules.EventRecord,
    recorder: Recorder,
    supervisor: User | None,
    user: User | None,
) -> Judged:
    """One engine event's rows, made before the writers' lock (`Judged`); the seats' check
    and a reversal's entries are read under the table's lock, which holds them still."""
    hand, engine = replayed.row, replayed.engine
    if _seat_may_have_left(replayed):
        _check_seats_still_seated(session, hand, record.payments)
    event = Event(
        id=LATE_ID,
        hand_id=hand.id,
        seq=record.seq,
        type=record.type,
        action=rules.action_to_dict(record.action) if record.action is not None else None,
        seat=record.seat,
        user_id=recorder.user_id,
        supervisor_id=supervisor.id if supervisor is not None else None,
        device=recorder.device[:200],
        created_at=LATE_AT,
        hand_status=engine.status,
        hand_winner=engine.winner,
    )
    postings = [
        Posting(
            account_of(hand, p.payer),
            account_of(hand, p.payee),
            p.chips,
            p.rule,
            p.reason,
            hand_id=hand.id,
            reverses=_entry_reversed(session, replayed, p.reverses),
        )
        for p in record.payments
    ]
    entries = unchained(hand.table_id, postings, recorder)
    for n, entry in enumerate(entries, start=1):
        entry.seq = LATE_ID - n
    replayed.events.append(event)
    moves_hand = hand.status != engine.status or hand.winner != engine.winner
    if moves_hand:  # written with the event's rows (`stored`), as the answer shows it now
        ended = None if engine.status == "playing" else LATE_AT
        moved = {"status": engine.status, "winner": engine.winner, "ended_at": ended}
        for name, value in moved.items():
            set_committed_value(hand, name, value)
    return Judged(replayed, event, entries, recorder, supervisor, user, moves_hand)


def stored(session: Session, judged: Judged) -> tuple[Event, list[LedgerEntry]]:
    """Write an event judged: under the writers' lock, its row, its ledger entries and their
    links, each in its place in the chains, and the hand's new status."""
    hand, event, entries = judged.replayed.row, judged.event, judged.entries
    _insert_event(session, judged)
    live.touch(session, event)
    seal_shift_end(session)  # before its entries are posted, as linking the event first did
    for entry in entries:
        entry.event_id = event.id
    chain(session, entries, event.created_at)
    # The event's link, then its entries' links, as linking each when written would give them.
    link_event(session, event, hand if event.seq == 1 else None, entries)
    if judged.moves_hand:
        if hand.ended_at is not None:
            set_committed_value(hand, "ended_at", event.created_at)
        write_behind.add_statement(
            session, _MOVE_HAND, _MOVE_HAND_SQL, [hand.status, hand.winner, hand.ended_at, hand.id]
        )
    return event, entries


#: The hand's status after an event that moves it (its live marks move with the event's).
_HANDS = cast(sa.Table, Hand.__table__)
_MOVE_HAND = (
    sa.update(_HANDS)
    .where(_HANDS.c.id == sa.bindparam("s3"))
    .values(status=sa.bindparam("s0"), winner=sa.bindparam("s1"), ended_at=sa.bindparam("s2"))
)
_MOVE_HAND_SQL = "UPDATE hands SET status = %s, winner = %s, ended_at = %s WHERE id = %s"


def _insert_event(session: Session, judged: Judged) -> None:
    """The event's row, under the writers' lock, with the hand's status after it: its id and
    its time given, and both chains' heads kept for the rows that follow (`keep_heads`)."""
    # A write of a hand's play takes the writers' lock here, before its first row
    # (`transactions.writing`): what came before (the hand read, replayed and judged) is
    # done beside another table's write.
    event = judged.event
    if session.get_bind().dialect.name != "postgresql":
        require_writing(session, "hands.record")
        event.created_at = utcnow()  # under the lock: the chain's links are in time order
        # Inserted on the connection (one INSERT .. RETURNING its id and both chains' heads),
        # not through the unit of work, whose flush cost more than the statement
        # (bench/api.py's profile). The event object is not in the session: nothing reads it
        # back through the session in this transaction (a later query reads the row), and its
        # live marks are counted by hand.
        made = session.connection().execute(_INSERT_EVENT, _values(event)).one()
        event.id, *heads = made
    else:
        # One round trip: the writers' lock taken, then (a statement of its own, which sees
        # what the writer before committed) the event's id and both chains' heads. The row
        # goes with the event's other rows and the commit (`write_behind`), in the second.
        taking: list[tuple[str, list[object]]] = [
            (sql, []) for sql in writers_first(session, "hands.record")
        ]
        *_, placed = write_behind.fetch(session, [*taking, (_PLACE_SQL, [])])
        event.id, *heads = placed[0]
        event.created_at = utcnow()  # the lock held: the chain's links are in time order
        write_behind.add_rows(session, _EVENTS, [{"id": event.id, **_values(event)}])
    entry_seq, entry_hash, link_seq, link_hash = heads
    named = [("ledger_head", entry_seq, entry_hash), ("links_head", link_seq, link_hash)]
    keep_heads(session, [head for head in named if head[1] is not None])


_EVENTS = cast(sa.Table, Event.__table__)
#: The event's columns written (all but its id, which the database gives).
_EVENT_VALUES = tuple(c.name for c in _EVENTS.columns if c.name != "id")


def _values(event: Event) -> dict[str, object]:
    return {name: getattr(event, name) for name in _EVENT_VALUES}


#: The seq and hash of each chain's head (NULL for a chain still empty).
_HEADS = [
    f"(SELECT {column} FROM {table} ORDER BY seq DESC LIMIT 1)"
    for table in ("ledger_entries", "chain_links")
    for column in ("seq", "hash")
]
#: What inserting an event returns on SQLite: its id, then the heads.
_INSERT_EVENT = insert(_EVENTS).returning(_EVENTS.c.id, *map(sa.literal_column, _HEADS))
#: The event's place on PostgreSQL, under the writers' lock: its id, then the heads.
_PLACE_SQL = "SELECT nextval(pg_get_serial_sequence('events', 'id')), " + ", ".join(_HEADS)


def _entry_reversed(
    session: Session, replayed: Replayed, reverses: tuple[int, int] | None
) -> int | None:
    """The ledger seq of the payment ``(event seq, index)`` that a payment reverses."""
    if reverses is None:
        return None
    seq, index = reverses
    event = replayed.events[seq - 1]
    entries = session.scalars(
        select(LedgerEntry.seq).where(LedgerEntry.event_id == event.id).order_by(LedgerEntry.seq)
    ).all()
    return entries[index]


def _seat_may_have_left(replayed: Replayed) -> bool:
    """Whether a seat dealt into this hand may have left the table since the deal.

    A seat dealt into the hand in play cannot leave (`tables.leave_seat`, a write at the
    table, under the same table's lock), and only a void can put a settled hand back in play.
    So a hand in play with no void in its history has been in play since its deal, every seat
    still seated: the check's query is spared on almost every event.
    """
    return replayed.row.status != "playing" or any(e.type == "void" for e in replayed.events)


def _check_seats_still_seated(
    session: Session, hand: Hand, payments: Iterable[rules.Payment]
) -> None:
    """Refuse to move chips of a player who has left: their stack was cashed out."""
    seats = {p for pay in payments for p in (pay.payer, pay.payee) if isinstance(p, int)}
    if not seats:
        return
    ids = [hand.seats[str(s)] for s in seats]
    left = session.scalars(
        select(Seating).where(Seating.id.in_(ids), Seating.left_at.is_not(None))
    ).all()
    if left:
        names = ", ".join(seat_words(s.seat, s.player) for s in sorted(left, key=lambda s: s.seat))
        raise Conflict(
            say(
                "This would move chips of {names}, who left the table and was cashed out.",
                names=names,
            ),
            "seat_left",
        )
