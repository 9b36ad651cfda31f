"""Hands read back: a stored hand and its events, replayed (`dealer.ledger.replay`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import bindparam, select
from sqlalchemy.orm import Session

from dealer import rules
from dealer.bounds import MAX_ID
from dealer.errors import Conflict, NotFound
from dealer.ledger.replay import ReplayError, replay_engine
from dealer.models import Event, Hand
from dealer.words.catalogue import say
from dealer.words.ledger import problem_words


@dataclass(slots=True)
class Replayed:
    """A stored hand and the engine hand rebuilt from its events (``events[i].seq == i + 1``)."""

    row: Hand
    engine: rules.Hand
    events: list[Event]
    #: The players of its seatings and the names of its events' recorders, by id, once read
    #: (`dealer.views.hand.players_and_recorders`; kept with its engine, `dealer.hands.kept`).
    names: tuple[dict[int, str], dict[int, str]] | None = None


def replay(hand: Hand, events: Sequence[Event]) -> Replayed:
    """Rebuild ``hand`` from its stored ``events`` (in seq order, the deal first); a hand the
    engine installed no longer replays is refused (409), in words."""
    try:
        return Replayed(hand, replay_engine(hand, events), list(events))
    except ReplayError as exc:
        raise Conflict(problem_words(exc), "hand_does_not_replay") from exc


def _events(session: Session, hand: Hand) -> list[Event]:
    """The stored hand's events, in seq order."""
    return list(session.scalars(select(Event).where(Event.hand_id == hand.id).order_by(Event.seq)))


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
    events = _events(session, hand)
    try:
        return Recorded(hand, events, replay_engine(hand, events))
    except ReplayError as exc:
        return Recorded(hand, events, None, problem_words(exc))


def load_hand(session: Session, hand_id: int) -> Replayed:
    """Replay the stored hand ``hand_id``, read with its events in one query.

    Every event and every read of a hand starts here; on PostgreSQL a query is a round trip
    made while the table's lock is held, so the hand does not come in one of its own.
    """
    return replay(*read_hand(session, hand_id))


def read_hand(session: Session, hand_id: int) -> tuple[Hand, list[Event]]:
    """The stored hand ``hand_id`` and its events (in seq order), in one query, not replayed.

    Once read, the hand is in the session's identity map: `get_hand` (and so
    `dealer.floor.authority.authorise_hand`) finds it there without another query.
    """
    rows = (
        session.execute(_HAND_AND_EVENTS, {"hand_id": hand_id}).all()
        if 1 <= hand_id <= MAX_ID
        else []
    )
    if not rows:
        raise NotFound(say("There is no hand {hand_id}.", hand_id=hand_id), "unknown_hand")
    return rows[0][0], [event for _, event in rows if event is not None]


#: Built once: every event and every read of a hand asks it.
_HAND_AND_EVENTS = (
    select(Hand, Event)
    .outerjoin(Event, Event.hand_id == Hand.id)
    .where(Hand.id == bindparam("hand_id"))
    .order_by(Event.seq)
)
