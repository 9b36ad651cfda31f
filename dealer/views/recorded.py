"""The answer to an event just recorded: the event, its payments with their ledger entries,
and the hand after it."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy.orm import Session

from dealer.hands.reading import Replayed
from dealer.models import LedgerEntry
from dealer.views.base import View
from dealer.views.events import EventView, Posted, posted
from dealer.views.hand import HandNames, HandView, hand_view

__all__ = ["Recorded", "recorded"]


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
