"""Hands recorded: dealt, then event by event, each in the caller's one write transaction.

The engine decides every rule; this module stores what it decided: the event row, its ledger
entries and the hand's status all go into the caller's one write transaction."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, cast

import sqlalchemy as sa
from sqlalchemy import func, insert, select
from sqlalchemy.orm import Session

from dealer import live, rules, write_behind
from dealer.errors import Conflict, Forbidden, Invalid
from dealer.floor.approvals import approval
from dealer.floor.table_sessions import open_session, open_session_at
from dealer.hands.kept import load, written
from dealer.hands.reading import Replayed
from dealer.ledger.checkpoints import seal_shift_end
from dealer.ledger.engine import engine_version
from dealer.ledger.links import link_event
from dealer.ledger.post import Posting, Recorder, keep_heads, post
from dealer.ledger.replay import account_of, table_collection, table_rules
from dealer.models import Event, Hand, LedgerEntry, Seating, Table, User, utcnow
from dealer.people.audit import record_hand_audit
from dealer.rules.melds import multiset_minus
from dealer.transactions import require_writing
from dealer.words.catalogue import say
from dealer.words.events import action_words
from dealer.words.parties import seat_words

__all__ = ["record_event", "split_rest", "start_hand"]


def start_hand(
    session: Session, table: Table, dropped: Sequence[int], recorder: Recorder
) -> Replayed:
    """Deal in every seated, unpaused player; take antes and collection; record the drops.

    The hand joins the session open at the table; with none open, dealing opens one in the
    dealer's name (see `table_sessions`).
    """
    # The table's last hand number and whether a hand is in play there, in one query.
    number, in_play = session.execute(
        select(func.max(Hand.number), func.count(Hand.id).filter(Hand.status == "playing")).where(
            Hand.table_id == table.id
        )
    ).one()
    if in_play:
        raise Conflict(
            say("A hand is still in play at this table: settle or void it first."), "hand_in_play"
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
                say("Seat {seat} is not dealt into this hand, so it cannot drop.", seat=seat),
                "not_dealt_in",
            )
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
    written(session, replayed)  # its first event then finds it kept
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
    ``hand`` may come already replayed (`load_hand`, `kept.replayed`); a stored hand is
    replayed here (its engine kept since its last event, when it is: `dealer.hands.kept`).
    """
    replayed = hand if isinstance(hand, Replayed) else load(session, hand)
    action = rules.action_from_dict(_void_by_seq(replayed, body))
    # a supervisor entering it approves it, and is recorded so (`dealer.floor.approvals`)
    supervisor = approval(
        replayed.engine.needs_supervisor(action),
        user,
        supervisor,
        Forbidden(
            say(
                "A supervisor must approve this (a void once the hand is settled, or voiding "
                "the whole hand): add the supervisor's name and PIN."
            ),
            "supervisor_required",
        ),
    )
    event, entries = _apply(session, replayed, action, recorder, supervisor)
    _audit_event(session, replayed, event, recorder, user, supervisor)
    return replayed, event, entries


def split_rest(replayed: Replayed, body: Mapping[str, Any]) -> Mapping[str, Any]:
    """A split entered with its second meld left blank (the hand screen's short way), that meld
    filled in as the rest: the meld's cards and those added, less the first meld's."""
    if body.get("type") != "split" or body["into"][1]:
        return body
    meld = replayed.engine.melds.get(body["meld"])
    if meld is None:
        return body  # the engine names the unknown meld
    first = rules.parse_cards(body["into"][0])
    rest = multiset_minus([*meld.cards, *rules.parse_cards(body["cards"])], first)
    if rest is None:
        raise rules.IllegalMeldError(
            "The first meld holds cards that are not in meld {meld} ({cards}) or among the "
            "cards added.",
            meld=meld.id,
            cards=meld,
        )
    return {**body, "into": [body["into"][0], [str(c) for c in rest]]}


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
    where = {"number": hand.number, "table": hand.table_id}

    if event.type in ("void", "void_hand") and event.action is not None:
        target = event.action.get("event")
        reason = str(event.action.get("reason") or "").strip()
        record_hand_audit(
            session,
            "void",
            hand,
            recorder,
            words=_void_words(target if isinstance(target, int) else None, reason, where),
            details={"event": event.id, "voided": target},
        )
    if supervisor is not None and supervisor.id != user.id:
        record_hand_audit(
            session,
            "supervisor_approval",
            hand,
            recorder,
            words=say(
                "{supervisor} approved {action} #{seq} of hand {number} at table {table}.",
                supervisor=supervisor.name,
                action=action_words(event.type),
                seq=event.seq,
                **where,
            ),
            details={"event": event.id, "supervisor": supervisor.id},
        )


def _void_words(target: int | None, reason: str, where: Mapping[str, int]) -> str:
    """The audit trail's sentence for a void: of one event or the whole hand, with its reason."""
    if target is not None and reason:
        return say(
            "Voided event #{target} of hand {number} at table {table}: {reason}",
            target=target,
            reason=reason,
            **where,
        )
    if target is not None:
        return say(
            "Voided event #{target} of hand {number} at table {table}.", target=target, **where
        )
    if reason:
        return say(
            "Voided the whole hand of hand {number} at table {table}: {reason}",
            reason=reason,
            **where,
        )
    return say("Voided the whole hand of hand {number} at table {table}.", **where)


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
    raise Invalid(say("There is no event {target} in this hand.", target=target), "unknown_event")


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
    event = _insert_event(session, replayed, record, recorder, supervisor)
    live.touch(session, event)
    seal_shift_end(session)  # before its entries are posted, as linking the event first did
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


def _insert_event(
    session: Session,
    replayed: Replayed,
    record: rules.EventRecord,
    recorder: Recorder,
    supervisor: User | None,
) -> Event:
    """The event's row, under the writers' lock, with the hand's status after it."""
    # A write of a hand's play takes the writers' lock here, before its first row
    # (`transactions.writing`): what came before (the hand read, replayed and judged) is
    # done beside another table's write.
    require_writing(session, "hands.record")
    values: dict[str, Any] = {
        "hand_id": replayed.row.id,
        "seq": record.seq,
        "type": record.type,
        "action": rules.action_to_dict(record.action) if record.action is not None else None,
        "seat": record.seat,
        "user_id": recorder.user_id,
        "supervisor_id": supervisor.id if supervisor is not None else None,
        "device": recorder.device[:200],
        "created_at": utcnow(),
        "hand_status": replayed.engine.status,
        "hand_winner": replayed.engine.winner,
    }
    # Inserted on the connection (one INSERT .. RETURNING its id), not through the unit of
    # work, whose flush cost more than the statement (bench/api.py's profile). The event
    # object is not in the session: nothing reads it back through the session in this
    # transaction (a later query reads the row), and its live marks are counted by hand.
    # The same statement returns both chains' heads, read under the writers' lock that
    # `require_writing` took, for the entries and links that follow (`keep_heads`).
    if session.get_bind().dialect.name != "postgresql":
        made = session.connection().execute(_INSERT_EVENT, values).one()
    else:  # sent with the rows queued before it, in one round trip
        insert_event = write_behind.insert_returning(session, _EVENTS, values, _RETURNING)
        made = write_behind.fetch(session, [insert_event])[0][0]
    event_id, entry_seq, entry_hash, link_seq, link_hash = made
    heads = [("ledger_head", entry_seq, entry_hash), ("links_head", link_seq, link_hash)]
    keep_heads(session, [head for head in heads if head[1] is not None])
    return Event(id=event_id, **values)


_EVENTS = cast(sa.Table, Event.__table__)


#: What inserting an event returns: its id, then the seq and hash of each chain's head (NULL
#: for a chain still empty).
_HEADS = [
    f"(SELECT {column} FROM {table} ORDER BY seq DESC LIMIT 1)"
    for table in ("ledger_entries", "chain_links")
    for column in ("seq", "hash")
]
_RETURNING = ", ".join(["id", *_HEADS])
_INSERT_EVENT = insert(_EVENTS).returning(_EVENTS.c.id, *map(sa.literal_column, _HEADS))


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
