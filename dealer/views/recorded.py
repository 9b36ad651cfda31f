"""The answer to an event just recorded: the event, its payments with their ledger entries,
and the hand after it."""

from __future__ import annotations

import json
import re
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
    (`dealer.hands.rows.Judged`): written out as JSON and cut at their places once, beside
    other tables' writes, so that under the lock `filled` only joins the pieces with what they
    turned out to be."""

    def __init__(self, answer: dict[str, Any]) -> None:
        self.answer = answer
        self.places = list(_late_places(answer))
        text = json.dumps(answer, separators=(",", ":"))
        #: The text between the late values, and each late value as written (one fewer).
        self.pieces = _LATE_TEXT.split(text)
        self.late = _LATE_TEXT.findall(text)
        self.cut = sorted(self.late) == sorted(json.dumps(n[k]) for n, k in self.places)

    def filled(self, late: Mapping[object, object]) -> str:
        """The answer as JSON, each late number and time as ``late`` maps it."""
        at = when(cast(datetime, late[LATE_AT]))
        if not self.cut:
            # Text of the answer reads as a late value (a name typed as one): each late place
            # filled in, and the answer written out again.
            for node, key in self.places:
                node[key] = at if key in _TIMES else late[node[key]]
            return json.dumps(self.answer, separators=(",", ":"))
        values = [json.dumps(at) if v == _LATE_AT_TEXT else str(late[int(v)]) for v in self.late]
        joined = [self.pieces[0]]
        for value, piece in zip(values, self.pieces[1:], strict=True):
            joined += (value, piece)
        return "".join(joined)


#: The fields of an answer that hold a time.
_TIMES = frozenset(("at", "ended_at"))
_LATE_AT = when(LATE_AT)
_LATE_AT_TEXT = json.dumps(_LATE_AT)
#: A late number or the late time as the answer's JSON writes it: the late numbers run down
#: from `LATE_ID` (less one an entry), so they share all but their last few digits.
_LATE_TEXT = re.compile(rf"{str(LATE_ID)[:-4]}\d{{4}}(?!\d)|{re.escape(_LATE_AT_TEXT)}")


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
