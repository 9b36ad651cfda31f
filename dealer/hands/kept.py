"""Each hand's engine kept between its events, in this process: an event is judged on the
engine the hand's last event left, not on its whole hand replayed again.

A write of a hand's play (`replayed`, `load`) reads the hand's events under its table's lock,
as it always did, and takes the engine kept for the hand only if that engine was left by
exactly the last of them (its seq and its id); else it replays the hand from its events, as
every write did before. So whatever this process did not see (another app server's write,
a restart, a write of this process that failed) shows as a seq or an id that does not
match, and the hand is replayed.

An engine taken leaves the store: the write applies its event to it, and it goes back only
when the write commits (`_kept_on_commit`), as of the write's last event. A write rolled back
(refused, failed, its commit refused) leaves nothing behind, so the store never holds an
event that was not committed. Only hands in play are kept, at most `KEPT_HANDS` of them for
each database (the least recently written go first; a store for each engine, so that two
databases never share one), each of at most `KEPT_EVENTS` events. An engine holds about
1.5 KiB an event (47 KiB for a hand of 31, measured with tracemalloc): a store holds some
10 MiB on a busy floor, never more than about 40. Each process keeps its own (each gunicorn
worker); the seq check is what makes one worker's store safe beside another's writes.
With its engine, a hand keeps the names its answers give (its seatings' players and its
recorders': `dealer.views.hand.players_and_recorders`), which the app never changes.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from weakref import WeakKeyDictionary

from sqlalchemy import Engine, event
from sqlalchemy.orm import Session, SessionTransaction

from dealer import rules
from dealer.hands.reading import Replayed, read_hand, replay
from dealer.models import Event, Hand
from dealer.settings import engine_of
from dealer.transactions import in_write

#: The most hands kept for each database.
KEPT_HANDS = 256
#: A hand of more events than this is replayed for each of its events, as every hand was.
KEPT_EVENTS = 100
#: The session's note of the hands its write transaction replayed, to keep once it commits.
PENDING = "dealer_hands_kept"


@dataclass(frozen=True, slots=True)
class _Kept:
    """An engine, the seq and id of the stored event it was left by, and the hand's names."""

    seq: int
    event_id: int
    engine: rules.Hand
    #: Its players and recorders, by id, as its last answer named them (`Replayed.names`).
    names: tuple[dict[int, str], dict[int, str]] | None


_stores: WeakKeyDictionary[Engine, OrderedDict[int, _Kept]] = WeakKeyDictionary()
_guard = threading.Lock()


def _store(session: Session) -> OrderedDict[int, _Kept]:
    """The kept engines of the session's database (its engine's: a test's own app's own)."""
    with _guard:
        return _stores.setdefault(engine_of(session), OrderedDict())


def replayed(session: Session, hand: Hand, events: Sequence[Event]) -> Replayed:
    """``hand`` with its stored ``events`` (read in this write, in seq order) replayed: the
    engine kept for it when that engine is of exactly these events, else replayed afresh.

    Outside a write transaction the hand is simply replayed (a read holds no table's lock)."""
    if not in_write(session):
        return replay(hand, events)
    store = _store(session)
    with _guard:
        kept = store.pop(hand.id, None)
    last = events[-1] if events else None
    if kept is not None and last is not None and (kept.seq, kept.event_id) == (last.seq, last.id):
        found = Replayed(hand, kept.engine, list(events), kept.names)
    else:
        found = replay(hand, events)
    written(session, found)
    return found


def load(session: Session, hand: Hand) -> Replayed:
    """The stored ``hand`` replayed for a write of its play (`replayed`)."""
    return replayed(session, hand, read_hand(session, hand.id)[1])


def written(session: Session, hand: Replayed) -> None:
    """Keep ``hand``'s engine once this write commits (a hand just dealt, or replayed here):
    the last of a hand's replays noted in one write is the one kept."""
    session.info.setdefault(PENDING, {})[hand.row.id] = hand


@event.listens_for(Session, "after_commit")
def _kept_on_commit(session: Session) -> None:
    """Keep the engines of the hands this write replayed, as of their last events: only those
    whose engine and stored events agree (an engine that judged an event that was then not
    stored is not kept)."""
    if session.in_nested_transaction():
        return  # a savepoint's commit: the write's own is still to come
    pending: dict[int, Replayed] = session.info.pop(PENDING, {})
    if not pending:
        return
    store = _store(session)
    for hand_id, hand in pending.items():
        engine, events = hand.engine, hand.events
        if (
            engine.status != "playing"
            or not events
            or len(events) > KEPT_EVENTS
            or len(engine.events) != len(events)
            or engine.events[-1].seq != events[-1].seq
        ):
            continue
        with _guard:
            store[hand_id] = _Kept(events[-1].seq, events[-1].id, engine, hand.names)
            store.move_to_end(hand_id)
            while len(store) > KEPT_HANDS:
                store.popitem(last=False)


@event.listens_for(Session, "after_rollback")
def _rolled_back(session: Session) -> None:
    """A rollback, even a savepoint's, keeps nothing noted so far: what it undid may be in it."""
    session.info.pop(PENDING, None)


@event.listens_for(Session, "after_transaction_end")
def _ended(session: Session, transaction: SessionTransaction) -> None:
    """A write that ends without its commit (closed) keeps nothing."""
    if transaction.parent is None:
        session.info.pop(PENDING, None)
