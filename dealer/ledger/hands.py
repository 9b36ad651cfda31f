"""Hands as stored: start one, rebuild it by replaying its events, record the next event.

The engine decides every rule; this module stores what it decided. A hand's
state is never stored: it is rebuilt from the hand's events, in order, through
`dealer.rules` (well under a millisecond a hand). The event row, its ledger
entries and the hand's status all go into the caller's one write transaction.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Protocol, cast

import sqlalchemy as sa
from sqlalchemy import bindparam, func, insert, select
from sqlalchemy.orm import Session

from dealer import rules
from dealer.audit import record_audit
from dealer.bounds import MAX_ID
from dealer.errors import Conflict, Forbidden, Invalid, NotFound
from dealer.models import Event, Hand, LedgerEntry, Seating, Table, User, utcnow

from . import live
from .accounts import house_account, pot_account, seating_account
from .checkpoints import seal_shift_end
from .engine import engine_version
from .links import link_event
from .post import Posting, Recorder, post, read_heads
from .reading import chunks
from .table_sessions import open_session, open_session_at

__all__ = [
    "ActionRow",
    "Recorded",
    "ReplayError",
    "Replayed",
    "StoredAction",
    "account_of",
    "hand_collection",
    "hand_rules",
    "load_hand",
    "read_hand",
    "record_event",
    "recorded",
    "replay",
    "replay_all",
    "replay_engine",
    "start_hand",
    "table_collection",
    "table_rules",
]

#: Ids are 32-bit in both databases; a larger one names nothing.


class ReplayError(Conflict):
    """A stored hand that the engine installed can no longer replay as recorded.

    Its chips stand as its ledger entries say (`verify` tells an engine change from
    tampering); a screen or the API answers 409 with the sentence, never a 500.
    """

    code = "hand_does_not_replay"

    def __init__(self, message: str) -> None:
        super().__init__(
            f"{message} Its chips stand as the ledger records them: print its hand slip, "
            "and call a supervisor."
        )


@dataclass(slots=True)
class Replayed:
    """A stored hand and the engine hand rebuilt from its events (``events[i].seq == i + 1``)."""

    row: Hand
    engine: rules.Hand
    events: list[Event]


def table_rules(table: Table) -> rules.Rules:
    return rules.make_rules(table.profile, table.rules)


def table_collection(table: Table) -> rules.Collection:
    return rules.make_collection(table.collection)


#: Knobs added after hands were first stored, with the value that plays as the engine did
#: before the knob existed: a hand replays under the rules it was dealt under.
KNOBS_BEFORE_THEY_EXISTED: dict[str, object] = {"rearrange_needs_card": False}


def hand_rules(hand: Hand) -> rules.Rules:
    """The rules a hand was dealt under, from its stored record (every knob, as dealt)."""
    return _rules(json.dumps(hand.rules, sort_keys=True))


def hand_collection(hand: Hand) -> rules.Collection:
    return _collection(json.dumps(hand.collection, sort_keys=True))


# A shift replays ten thousand hands dealt under a handful of rule sets: each is made once
# (rules and collections are frozen values, safe to share).
@lru_cache(maxsize=256)
def _rules(spec: str) -> rules.Rules:
    knobs = json.loads(spec)
    for knob, then in KNOBS_BEFORE_THEY_EXISTED.items():
        knobs.setdefault(knob, then)
    return rules.make_rules(knobs.pop("profile"), knobs)


@lru_cache(maxsize=256)
def _collection(spec: str) -> rules.Collection:
    return rules.make_collection(json.loads(spec))


def account_of(hand: Hand, party: rules.Party) -> str:
    """The ledger account of a party to a hand's payments."""
    if party == rules.POT:
        return pot_account(hand.id)
    if party == rules.HOUSE:
        return house_account(hand.table_id)
    return seating_account(hand.seats[str(party)])


class StoredAction(Protocol):
    """What a replay reads of a stored event."""

    @property
    def seq(self) -> int: ...

    @property
    def type(self) -> str: ...

    @property
    def action(self) -> dict[str, Any] | None: ...


@dataclass(slots=True)
class ActionRow:
    """The part of an event row a replay reads, without the rest of the row."""

    seq: int
    type: str
    action: dict[str, Any] | None


def replay_engine(hand: Hand, events: Sequence[StoredAction]) -> rules.Hand:
    """The engine hand rebuilt from ``events`` (in seq order, the deal first)."""
    try:
        engine = rules.Hand(hand_rules(hand), [int(s) for s in hand.seats], hand_collection(hand))
        if not events or events[0].type != "deal" or events[0].seq != 1:
            raise ReplayError(f"Hand {hand.id} has no deal stored as its first event.")
        for row in events[1:]:
            record = engine.apply(rules.action_from_dict(row.action))
            if record.seq != row.seq or record.type != row.type:
                raise ReplayError(f"Hand {hand.id}: event {row.seq} replays as {record.seq}.")
    except rules.RulesError as exc:
        raise ReplayError(f"Hand {hand.id} no longer replays: {exc.message}") from exc
    return engine


def replay(hand: Hand, events: Sequence[Event]) -> Replayed:
    """Rebuild ``hand`` from its stored ``events`` (in seq order, the deal first)."""
    return Replayed(hand, replay_engine(hand, events), list(events))


def load(session: Session, hand: Hand) -> Replayed:
    """Replay one stored hand."""
    events = session.scalars(select(Event).where(Event.hand_id == hand.id).order_by(Event.seq))
    return replay(hand, list(events))


@dataclass(slots=True)
class Recorded:
    """A stored hand, its events, and its replay: None when the engine installed no longer
    replays it (``failure`` says why). What a document prints of any hand, replayable or not."""

    row: Hand
    events: list[Event]
    engine: rules.Hand | None
    failure: str | None = None

    def texts(self) -> list[str]:
        """Each event in words: the engine's, else the stored action's own description."""
        if self.engine is not None:
            return [record.text for record in self.engine.events]
        return [_described(row) for row in self.events]

    def voided(self) -> set[int]:
        """The seqs of the events a later void stands against."""
        if self.engine is not None:
            return set(self.engine.voided)
        return {
            int(row.action["event"])
            for row in self.events
            if row.type == "void" and row.action and isinstance(row.action.get("event"), int)
        }

    def seat_status(self) -> dict[int, str]:
        """Each seat's status: the engine's, else read from the drops and fouls that stand."""
        if self.engine is not None:
            return {seat: str(status) for seat, status in self.engine.seat_status.items()}
        out = {int(seat): "in" for seat in self.row.seats}
        voided = self.voided()
        for row in self.events:
            if row.seq not in voided and row.seat is not None and row.type in ("drop", "foul"):
                out[row.seat] = "dropped" if row.type == "drop" else "fouled"
        return out


def _described(row: Event) -> str:
    if row.action is None:
        return row.type
    try:
        return rules.action_from_dict(row.action).describe()
    except rules.RulesError:
        return f"{row.type} {row.action}"


def recorded(session: Session, hand: Hand) -> Recorded:
    """One stored hand and its events, replayed if the engine installed still can."""
    events = list(
        session.scalars(select(Event).where(Event.hand_id == hand.id).order_by(Event.seq))
    )
    try:
        return Recorded(hand, events, replay_engine(hand, events))
    except ReplayError as exc:
        return Recorded(hand, events, None, str(exc))


def load_hand(session: Session, hand_id: int) -> Replayed:
    """Replay the stored hand ``hand_id``, read with its events in one query.

    Every event and every read of a hand starts here; on PostgreSQL a query is a round trip
    made while the writers' lock is held, so the hand does not come in one of its own.
    """
    return replay(*read_hand(session, hand_id))


def read_hand(session: Session, hand_id: int) -> tuple[Hand, list[Event]]:
    """The stored hand ``hand_id`` and its events (in seq order), in one query, not replayed.

    Once read, the hand is in the session's identity map: `get_hand` (and so
    `dealer.authority.authorise_hand`) finds it there without another query.
    """
    rows = (
        session.execute(_HAND_AND_EVENTS, {"hand_id": hand_id}).all()
        if 1 <= hand_id <= MAX_ID
        else []
    )
    if not rows:
        raise NotFound(f"There is no hand {hand_id}.", "unknown_hand")
    return rows[0][0], [event for _, event in rows if event is not None]


#: Built once: every event and every read of a hand asks it.
_HAND_AND_EVENTS = (
    select(Hand, Event)
    .outerjoin(Event, Event.hand_id == Hand.id)
    .where(Hand.id == bindparam("hand_id"))
    .order_by(Event.seq)
)


def replay_all(session: Session, hands: Iterable[Hand]) -> Iterator[tuple[Hand, rules.Hand | str]]:
    """Each hand with its replayed engine, or the reason it cannot be replayed (for the checks).

    The checks replay a shift's hands at a time: only the columns a replay reads are loaded,
    not whole rows, and only those hands' events.
    """
    hands = list(hands)
    by_hand: dict[int, list[ActionRow]] = {h.id: [] for h in hands}
    for chunk in chunks(by_hand):
        rows = session.execute(
            select(Event.hand_id, Event.seq, Event.type, Event.action)
            .where(Event.hand_id.in_(chunk))
            .order_by(Event.hand_id, Event.seq)
        )
        for hand_id, seq, kind, action in rows:
            by_hand[hand_id].append(ActionRow(seq, kind, action))
    for hand in hands:
        try:
            yield hand, replay_engine(hand, by_hand[hand.id])
        except ReplayError as exc:
            yield hand, str(exc)


def playing_hand(session: Session, table_id: int) -> Hand | None:
    return session.scalars(
        select(Hand).where(Hand.table_id == table_id, Hand.status == "playing")
    ).first()


def start_hand(
    session: Session, table: Table, dropped: Sequence[int], recorder: Recorder
) -> Replayed:
    """Deal in every seated, unpaused player; take antes and collection; record the drops.

    The hand joins the session open at the table; with none open, dealing opens one in the
    dealer's name (see `table_sessions`).
    """
    if playing_hand(session, table.id) is not None:
        raise Conflict(
            "A hand is still in play at this table: settle or void it first.", "hand_in_play"
        )
    seatings = session.scalars(
        select(Seating)
        .where(Seating.table_id == table.id, Seating.left_at.is_(None), Seating.paused.is_(False))
        .order_by(Seating.seat)
    ).all()
    effective = table_rules(table)
    collection = table_collection(table)
    engine = rules.Hand(effective, [s.seat for s in seatings], collection)
    for seat in dropped:
        if seat not in engine.seat_status:
            raise Invalid(
                f"Seat {seat} is not dealt into this hand, so it cannot drop.", "not_dealt_in"
            )
    number = session.scalar(select(func.max(Hand.number)).where(Hand.table_id == table.id))
    down = open_session_at(session, table.id) or open_session(
        session, table, recorder.user_id, implicit=True
    )
    hand = Hand(
        table_id=table.id,
        session_id=down.id,
        number=(number or 0) + 1,
        status=engine.status,
        rules={"profile": effective.profile, **effective.knobs()},
        collection=collection.as_dict(),
        seats={str(s.seat): s.id for s in seatings},
        engine_version=engine_version(),
    )
    session.add(hand)
    session.flush()
    replayed = Replayed(hand, engine, [])
    _store(session, replayed, engine.events[0], recorder, None)
    for seat in dropped:
        _apply(session, replayed, rules.Drop(seat), recorder, None)
    return replayed


def record_event(
    session: Session,
    hand: Hand | Replayed,
    body: Mapping[str, Any],
    recorder: Recorder,
    user: User,
    supervisor: User | None,
) -> tuple[Replayed, Event, list[LedgerEntry]]:
    """Parse, authorise and apply one event of the API to a stored hand, and store it.

    ``supervisor`` approved it on the spot (name and PIN); when the rules ask for a
    supervisor and none approved, ``user`` must be one, and is recorded as the approver.
    ``hand`` may come already replayed (`load_hand`).
    """
    replayed = hand if isinstance(hand, Replayed) else load(session, hand)
    action = rules.action_from_dict(_void_by_seq(replayed, body))
    if replayed.engine.needs_supervisor(action) and supervisor is None:
        if not user.can("supervisor"):
            raise Forbidden(
                "A supervisor must approve this (a void once the hand is settled, or voiding "
                "the whole hand): add the supervisor's name and PIN.",
                "supervisor_required",
            )
        supervisor = user  # a supervisor entering it approves it, and is recorded so
    event, entries = _apply(session, replayed, action, recorder, supervisor)
    _audit_event(session, replayed, event, recorder, user, supervisor)
    return replayed, event, entries


def _audit_event(
    session: Session,
    replayed: Replayed,
    event: Event,
    recorder: Recorder,
    user: User,
    supervisor: User | None,
) -> None:
    """Put a void, and a supervisor's approval on the spot, on the audit trail."""
    hand = replayed.row
    where = f"hand {hand.number} at table {hand.table_id}"

    def audit(kind: str, words: str, details: dict[str, object]) -> None:
        record_audit(
            session,
            kind,
            words=words,
            user_id=recorder.user_id,
            device=recorder.device,
            table_id=hand.table_id,
            hand_id=hand.id,
            details=details,
        )

    if event.type == "void" and event.action is not None:
        target = event.action.get("event")
        what = f"event #{target}" if isinstance(target, int) else "the whole hand"
        reason = str(event.action.get("reason") or "").strip()
        said = f": {reason}" if reason else "."
        audit("void", f"Voided {what} of {where}{said}", {"event": event.id, "voided": target})
    if supervisor is not None and supervisor.id != user.id:
        audit(
            "supervisor_approval",
            f"{supervisor.name} approved {event.type} #{event.seq} of {where}.",
            {"event": event.id, "supervisor": supervisor.id},
        )


def _void_by_seq(replayed: Replayed, body: Mapping[str, Any]) -> Mapping[str, Any]:
    """A void names the event by its API id; the engine knows it by its seq in the hand."""
    if body.get("type") != "void":
        return body
    target = body.get("event")
    if isinstance(target, bool) or not isinstance(target, int):
        return body  # the engine explains what is wrong with it
    for event in replayed.events:
        if event.id == target:
            return {**body, "event": event.seq}
    raise Invalid(f"There is no event {target} in this hand.", "unknown_event")


def _apply(
    session: Session,
    replayed: Replayed,
    action: rules.Action,
    recorder: Recorder,
    supervisor: User | None,
) -> tuple[Event, list[LedgerEntry]]:
    record = replayed.engine.apply(action)
    return _store(session, replayed, record, recorder, supervisor)


def _store(
    session: Session,
    replayed: Replayed,
    record: rules.EventRecord,
    recorder: Recorder,
    supervisor: User | None,
) -> tuple[Event, list[LedgerEntry]]:
    """Write one engine event: its row, its ledger entries, and the hand's new status."""
    hand, engine = replayed.row, replayed.engine
    if _seat_may_have_left(replayed):
        _check_seats_still_seated(session, hand, record.payments)
    values: dict[str, Any] = {
        "hand_id": hand.id,
        "seq": record.seq,
        "type": record.type,
        "action": rules.action_to_dict(record.action) if record.action is not None else None,
        "seat": record.seat,
        "user_id": recorder.user_id,
        "supervisor_id": supervisor.id if supervisor is not None else None,
        "device": recorder.device[:200],
        "created_at": utcnow(),
        "hand_status": engine.status,
        "hand_winner": engine.winner,
    }
    # Inserted on the connection (one INSERT .. RETURNING its id), not through the unit of
    # work, whose flush cost more than the statement (bench/api.py's profile). The event
    # object is not in the session: nothing reads it back through the session in this
    # transaction (a later query reads the row), and its live marks are counted by hand.
    event = Event(id=session.connection().execute(_INSERT_EVENT, values).scalar_one(), **values)
    live.touch(session, event)
    seal_shift_end(session)  # before its entries are posted, as linking the event first did
    read_heads(session)
    replayed.events.append(event)
    postings = [
        Posting(
            account_of(hand, p.payer),
            account_of(hand, p.payee),
            p.chips,
            p.rule,
            p.reason,
            hand_id=hand.id,
            event_id=event.id,
            reverses=_entry_reversed(session, replayed, p.reverses),
        )
        for p in record.payments
    ]
    entries = post(session, hand.table_id, postings, recorder, link=False)
    # The event's link, then its entries' links, as linking each when written would give them.
    link_event(session, event, hand if record.seq == 1 else None, entries)
    if hand.status != engine.status or hand.winner != engine.winner:
        hand.status = engine.status
        hand.winner = engine.winner
        hand.ended_at = None if engine.status == "playing" else utcnow()
        session.flush()
    return event, entries


_EVENTS = cast(sa.Table, Event.__table__)
_INSERT_EVENT = insert(_EVENTS).returning(_EVENTS.c.id)


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

    A seat dealt into the hand in play cannot leave (`tables.leave_seat`, under the same
    writers' lock), and only a void can put a settled hand back in play. So a hand in play
    with no void in its history has been in play since its deal, every seat still seated:
    the check's query is spared on almost every event.
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
        names = ", ".join(f"seat {s.seat} ({s.player})" for s in sorted(left, key=lambda s: s.seat))
        raise Conflict(
            f"This would move chips of {names}, who left the table and was cashed out.",
            "seat_left",
        )


def get_hand(session: Session, hand_id: int) -> Hand:
    hand = session.get(Hand, hand_id) if 1 <= hand_id <= MAX_ID else None
    if hand is None:
        raise NotFound(f"There is no hand {hand_id}.", "unknown_hand")
    return hand
