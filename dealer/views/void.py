"""Voiding an event or the whole hand, as the dealer is asked to confirm it: the event in its
one sentence with the payments that will be returned, whether the rules allow the void now
(and why not), and whether the floor must approve it."""

from __future__ import annotations

from sqlalchemy.orm import Session

from dealer import rules
from dealer.errors import NotFound
from dealer.hands.reading import load_hand
from dealer.views.base import View
from dealer.views.events import EventView
from dealer.views.hand import HandView, hand_view
from dealer.words.catalogue import say
from dealer.words.rules import refusal_words


class VoidAsked(View):
    hand: HandView
    #: The event to void; None: the whole hand.
    event: EventView | None
    #: Why the rules refuse the void now, in the engine's words; None when they allow it.
    why_not: str | None
    #: The rules ask a supervisor to approve it (after settlement, or the whole hand).
    needs_supervisor: bool


def void_asked(session: Session, hand_id: int, event_id: int | None) -> VoidAsked:
    """What voiding event ``event_id`` (None: the whole hand) of hand ``hand_id`` would do."""
    replayed = load_hand(session, hand_id)
    view = hand_view(session, replayed)
    event = view.event_by_id(event_id) if event_id is not None else None
    if event_id is not None and event is None:
        raise NotFound(say("There is no event {id} in this hand.", id=event_id), "unknown_event")
    action: rules.Action = (
        rules.Void(event.seq, "check") if event is not None else rules.VoidHand("check")
    )
    why_not = None
    try:
        replayed.engine.check(action)
    except rules.RulesError as refused:
        why_not = refusal_words(refused)
    return VoidAsked(
        hand=view,
        event=event,
        why_not=why_not,
        needs_supervisor=replayed.engine.needs_supervisor(action),
    )
