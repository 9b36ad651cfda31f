"""Hands: start one, list a table's, read one, record its events, and ask where a card fits."""

from __future__ import annotations

from typing import Any

from flask import Response, request
from sqlalchemy.orm import Session

from dealer import rules
from dealer.api.at_table import read_at_table, write_at_table
from dealer.api.blueprint import bp, door
from dealer.api.tables import TABLE
from dealer.api.writes import KEY_HEADER, write
from dealer.extensions import current_session
from dealer.floor.approvals import approving_user
from dealer.floor.authority import authorise_hand
from dealer.hands import kept, reading, record
from dealer.inputs import Fit, HandsPage, NewEvent, NewHand
from dealer.models import Table
from dealer.views.floor import HandList, hands_page
from dealer.views.hand import FitsView, HandView, fits_view, hand_view, players_and_recorders
from dealer.views.recorded import Late, Recorded, recorded
from dealer.web.contract import ID, asked, given
from dealer.web.refusals import json_response
from dealer.web.signin import approving, principal, recorder

HAND = f"/hands/<{ID}:hand_id>"


@bp.post(TABLE + "/hands")
@door({201: (HandView, "The hand.")}, [403, 404, 409], json=NewHand, write=True)
def start_hand(table_id: int) -> Response:
    """Deal a hand to every seated player; antes, collection, then the drops.

    A dealer deals at their own table, or at one with no session open while they hold none
    (dealing opens their session there).
    """
    dropped = given(NewHand).dropped or []

    def work(session: Session, table: Table) -> tuple[Any, int]:
        replayed = record.start_hand(session, table, dropped, recorder())
        named = players_and_recorders(session, replayed, [principal().user])
        return hand_view(session, replayed, named=named).answer(), 201

    return write_at_table(table_id, "deal", work)


@bp.get(TABLE + "/hands")
# 405: the address also takes a POST.
@door({200: (HandList, "The hands, the newest first.")}, [403, 404, 405, 422], query=HandsPage)
def list_hands(table_id: int) -> Response:
    """A table's hands, the newest first: ``limit`` of them (25 unless told), older than hand
    ``before`` when given; ``next`` is the ``before`` of the next page (a dealer: their own
    table)."""
    page = asked(HandsPage)
    return read_at_table(
        table_id,
        lambda session, table: hands_page(
            session, table.id, page.get("before"), page.get("limit", 25)
        ),
    )


@bp.get(HAND)
@door({200: (HandView, "The hand.")}, [403, 404])
def read_hand(hand_id: int) -> Response:
    """A hand: rules, seats and melds, net and events (a dealer: at their own table)."""
    authorise_hand(current_session(), principal().user, hand_id)
    return json_response(hand_view(current_session(), hand_id).answer(), 200)


@bp.post(HAND + "/events")
@door(
    {201: (Recorded, "The event, its payments and the hand after it.")},
    [404, 409, 429],
    json=NewEvent,
    write=True,
)
def record_event(hand_id: int) -> Response:
    """Record one event of the hand: the engine decides, the ledger records."""
    body = given(NewEvent)
    approver = approving(body.root.supervisor)
    action = body.action()

    def work(session: Session) -> tuple[Any, int]:
        # The hand and its events in one read, then the check (which finds the hand read), then
        # the replay (the engine kept since its last event, when it is: `dealer.hands.kept`): one
        # query instead of two, nothing replayed for a dealer refused. All under the table's
        # lock, and the event judged and its answer drawn there too: the writers' lock comes
        # when it is stored, for its place in the chains (`dealer.hands.rows`).
        hand, events = reading.read_hand(session, hand_id)
        authorise_hand(session, principal().user, hand.id, "record")
        supervisor = approving_user(session, approver)
        replayed = kept.replayed(session, hand, events)
        user = principal().user
        judged = record.judge_event(session, replayed, action, recorder(), user, supervisor)
        named = players_and_recorders(session, replayed, (user, judged.supervisor))
        answer = Late(recorded(session, replayed, judged.entries, named).answer())
        record.store_event(session, judged)
        return answer.filled(judged.late()), 201

    return write(work, hand=hand_id)


@bp.post(HAND + "/fits")
@door({200: (FitsView, "The melds it fits.")}, [403, 404], json=Fit, write=True)
def find_fits(hand_id: int) -> Response:
    """Where a card could be added, and whether it takes the seat out."""
    card = rules.parse_card(given(Fit).card)

    def work(session: Session) -> tuple[Any, int]:
        authorise_hand(session, principal().user, hand_id)
        replayed = reading.load_hand(session, hand_id)
        return fits_view(replayed.engine.fits(card)).answer(), 200

    # Asking records nothing: it queues at its table, and takes the writers' lock only to keep
    # a key's answer (`dealer.transactions.writing`'s ``hand``).
    if KEY_HEADER in request.headers:
        return write(work, hand=hand_id)
    return json_response(*work(current_session()))
