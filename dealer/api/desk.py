"""The dispute desk: a seat's statement for a hand, and finding a payment.

- ``GET /api/v1/hands/{id}/seats/{seat}/statement`` (as reading a hand: a dealer or above);
- ``GET /api/v1/hands/{id}/replay?at=SEQ``: the table as it stood after an event (as reading
  a hand);
- ``GET /api/v1/search?q=player Rosa, table 4, around 21:40, 8 chips`` (or in parts): the seats
  of this shift's hands that fit (`dealer.disputes.search`; a supervisor or above);
- ``GET /api/v1/payments?hand=&session=&from=&to=&seat=&player=&amount=&rule=&limit=``
  (`dealer.disputes.search.SEARCH_ROLE`).
"""

from __future__ import annotations

from flask import Response, current_app, request

from dealer import clock
from dealer.api.blueprint import bp, door
from dealer.api.hands import HAND
from dealer.clock import floor_clock, this_shift_start
from dealer.disputes.asking import query_from, read_asked
from dealer.disputes.search import SEARCH_ROLE, find_payments, find_seats
from dealer.extensions import current_session
from dealer.floor.authority import authorise_hand
from dealer.inputs import PaymentSearch, ReplayAt, SeatSearch, refuse_unknown
from dealer.views.disputes import PaymentsFound, SeatsFoundView, payments_found, seats_found
from dealer.views.replay import ReplayView, replay_view
from dealer.views.statement import Statement, seat_statement
from dealer.web.contract import SEAT, asked
from dealer.web.refusals import json_response
from dealer.web.signin import principal


@bp.get(HAND + f"/seats/<{SEAT}:seat>/statement")
@door({200: (Statement, "The seat's statement for the hand.")}, [404, 409])
def read_seat_statement(hand_id: int, seat: int) -> Response:
    """A seat's statement for a hand: every chip in and out, by the other party and by rule,
    with running totals that add up to the seat's net (held to the ledger's own sum)."""
    session = current_session()
    authorise_hand(session, principal().user, hand_id)
    return json_response(seat_statement(session, hand_id, seat).answer(), 200)


@bp.get(HAND + "/replay")
@door({200: (ReplayView, "The hand as it stood after the event.")}, [404, 409, 422], query=ReplayAt)
def replay_hand(hand_id: int) -> Response:
    """The hand replayed to event ``at`` (the last if left out): each seat's melds with their
    paid levels, stacks and status, the pot, and the event's sentence and payments."""
    refuse_unknown(ReplayAt, request.args)
    session = current_session()
    authorise_hand(session, principal().user, hand_id)
    return json_response(replay_view(session, hand_id, **asked(ReplayAt)).answer(), 200)


@bp.get("/search")
@door(
    {200: (SeatsFoundView, "The seats that fit, the newest hand first.")},
    [404, 422],
    query=SeatSearch,
    name="find_seats",
    role=SEARCH_ROLE,
)
def search_in_words() -> Response:
    """Find a seat of this shift's hands the way a player says it: a player's name (part of
    it, any case, accents ignored) or a seat, a table, around a time, and an amount that may be
    a seat's total paid or received in a hand or one payment. Role: supervisor or above."""
    refuse_unknown(SeatSearch, request.args)
    now = clock.now()
    query = read_asked(
        asked(SeatSearch),
        floor_clock(current_app.config),
        now,
        this_shift_start(current_app.config, now),
    )
    return json_response(seats_found(find_seats(current_session(), query)).answer(), 200)


@bp.get("/payments")
@door(
    {200: (PaymentsFound, "The payments found, the newest first.")},
    [404, 422],
    query=PaymentSearch,
    name="find_payments",
    role=SEARCH_ROLE,
)
def payments() -> Response:
    """Find a payment: in a hand, a table session or a window of time (from and to, at most
    31 days), by seat, player, amount and rule. Role: supervisor or above."""
    refuse_unknown(PaymentSearch, request.args)
    query = query_from(asked(PaymentSearch), floor_clock(current_app.config).zone)
    found = find_payments(current_session(), query)
    return json_response(payments_found(found).answer(), 200)
