"""The answer to an event just recorded: the event, its payments with their ledger entries,
and the hand after it."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from datetime import datetime
from typing import Any, cast

from sqlalchemy.orm import Session

from dealer.hands.reading import Replayed
from dealer.hands.rows import LATE_AT, LATE_ID
from dealer.models import LedgerEntry
from dealer.views.base import View, when
from dealer.views.events import EventView, Posted, posted
from dealer.views.hand import HandNames, HandView, hand_view


class Recorded(View):
    """An event recorded: the event, its payments (with their ledger seqs) and the hand."""

    event: EventView
    payments: list[Posted]
    hand: HandView


def recorded(
    session: Session,
    replayed: Replayed,
    entries: Sequence[LedgerEntry],
    named: HandNames | None = None,
) -> Recorded:
    """The answer to an event just recorded: the last event of ``replayed`` (``named``: its
    players and recorders, read already: `players_and_recorders`)."""
    view = hand_view(session, replayed, named=named)
    last = view.events[-1]
    return Recorded(event=last, payments=posted(last.payments, entries), hand=view)


class Late:
    """An answer drawn before the writers' lock, its event's late numbers and time in it
    (`dealer.hands.rows.Judged`): their places found once, beside other tables' writes, so
    that under the lock `filled` only puts in what they turned out to be and writes it out."""

    def __init__(self, answer: dict[str, Any]) -> None:
        self.answer = answer
        self.places = list(_late_places(answer))

    def filled(self, late: Mapping[object, object]) -> str:
        """The answer as JSON, each late number and time as ``late`` maps it."""
        for node, key in self.places:
            if key in _TIMES:
                node[key] = when(cast(datetime, late[LATE_AT]))
            else:
                node[key] = late[node[key]]
        return json.dumps(self.answer, separators=(",", ":"))


#: The fields of an answer that hold a time.
_TIMES = frozenset(("at", "ended_at"))
_LATE_AT = when(LATE_AT)


def _late_places(answer: dict[str, Any]) -> Iterator[tuple[Any, Any]]:
    """Where ``answer`` holds a late number (an id or seq no row has) or the late time."""
    nodes: list[Any] = [answer]
    while nodes:
        node = nodes.pop()
        for key, value in node.items() if isinstance(node, dict) else enumerate(node):
            if isinstance(value, dict | list):
                nodes.append(value)
            elif (type(value) is int and value <= LATE_ID) or (key in _TIMES and value == _LATE_AT):
                yield node, key
