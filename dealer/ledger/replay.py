"""Stored hands replayed through the rules engine: the rules a hand was dealt under, the
account of each party to its payments, and its events applied again in order.

What the books hold of a hand is its events and their entries; its melds, stacks and net are
rebuilt here (well under a millisecond a hand). The checks replay hands to hold their entries
to what the engine says; the hand services replay one to record its next event."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Protocol

from sqlalchemy import select
from sqlalchemy.orm import Session

from dealer import rules
from dealer.ledger.accounts import house_account, pot_account, seating_account
from dealer.ledger.checks import Refused
from dealer.ledger.reading import chunks
from dealer.models import Event, Hand, Table


class ReplayError(Refused):
    """A stored hand that the engine installed can no longer replay as recorded.

    Its chips stand as its ledger entries say (`verify` tells an engine change from
    tampering); a screen or the API answers 409 with the sentence, never a 500.
    """


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
            raise ReplayError("no_deal", id=hand.id)
        for row in events[1:]:
            record = engine.apply(rules.action_from_dict(row.action))
            if record.seq != row.seq or record.type != row.type:
                raise ReplayError("event_moved", id=hand.id, seq=row.seq, seq2=record.seq)
    except rules.RulesError as exc:
        raise ReplayError("engine_refuses", id=hand.id, refused=exc) from exc
    return engine


def replay_all(
    session: Session, hands: Iterable[Hand]
) -> Iterator[tuple[Hand, rules.Hand | ReplayError]]:
    """Each hand with its replayed engine, or why it cannot be replayed (for the checks).

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
            yield hand, exc
