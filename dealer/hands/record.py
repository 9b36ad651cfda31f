"""Hands recorded: dealt, then event by event, each in the caller's one write transaction.

The engine decides every rule; this module stores what it decided: the event row, its ledger
entries and the hand's status all go into the caller's one write transaction."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from dealer import rules
from dealer.errors import Conflict, Forbidden, Invalid
from dealer.floor.approvals import approval
from dealer.floor.downs import open_down, open_down_at
from dealer.hands.kept import load, written
from dealer.hands.reading import Replayed
from dealer.hands.rows import Judged, judged, stored
from dealer.ledger.engine import engine_version
from dealer.ledger.post import Recorder
from dealer.ledger.replay import table_collection, table_rules
from dealer.models import Event, Hand, LedgerEntry, Seating, Table, User
from dealer.people.audit import record_hand_audit
from dealer.rules.melds import multiset_minus
from dealer.words.catalogue import say
from dealer.words.events import action_words


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
    down = open_down_at(session, table.id) or open_down(
        session, table, recorder.user_id, implicit=True
    )
    hand = Hand(
        table_id=table.id,
        down_id=down.id,
        number=(number or 0) + 1,
        status=engine.status,
        rules={"profile": effective.profile, **effective.knobs()},
        collection=collection.as_dict(),
        seats={str(s.seat): s.id for s in seatings},
        engine_version=engine_version(),
    )
    session.add(hand)
    session.flush()
    # Its players read with its seatings; its recorder's name is the caller's to add.
    replayed = Replayed(hand, engine, [], ({s.id: s.player for s in seatings}, {}))
    _store(session, replayed, engine.events[0], recorder)
    for seat in dropped:
        _store(session, replayed, engine.apply(rules.Drop(seat)), recorder)
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
    """Parse, authorise and apply one event of the API to a stored hand, and store it
    (`judge_event`, then `store_event`)."""
    return store_event(session, judge_event(session, hand, body, recorder, user, supervisor))


def judge_event(
    session: Session,
    hand: Hand | Replayed,
    body: Mapping[str, Any],
    recorder: Recorder,
    user: User,
    supervisor: User | None,
) -> Judged:
    """Parse, authorise and apply one event of the API to a stored hand: the event judged and
    its rows made, to be stored (`store_event`); nothing written, no writers' lock taken.

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
    return judged(session, replayed, replayed.engine.apply(action), recorder, supervisor, user)


def store_event(session: Session, judged: Judged) -> tuple[Replayed, Event, list[LedgerEntry]]:
    """Store an event judged (`judge_event`) under the writers' lock, and audit it."""
    event, entries = stored(session, judged)
    if judged.user is not None:
        audit = (judged.recorder, judged.user, judged.supervisor)
        _audit_event(session, judged.replayed, event, *audit)
    return judged.replayed, event, entries


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


def _store(
    session: Session, replayed: Replayed, record: rules.EventRecord, recorder: Recorder
) -> None:
    """Store an event of the deal (the deal, a drop): no one but the dealer to audit."""
    stored(session, judged(session, replayed, record, recorder, None, None))
