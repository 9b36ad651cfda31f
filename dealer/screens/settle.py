"""Settlement: going out, shown in full (a dry run through the engine) before it is recorded."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from flask import render_template, request, url_for
from sqlalchemy.orm import Session
from werkzeug.wrappers import Response

from dealer import rules
from dealer.errors import DealerError, Invalid
from dealer.extensions import current_session
from dealer.hands.reading import get_hand
from dealer.hands.record import record_event
from dealer.screens import bp
from dealer.screens.auth.guard import page, who
from dealer.screens.board import Board, build_board
from dealer.screens.forms import SettleForm
from dealer.screens.screen import at_table
from dealer.screens.sent import record_once
from dealer.screens.spoken import payment_sentences
from dealer.web.refusals import refusal
from dealer.web.signin import recorder

__all__ = ["Settlement", "SettlementLine", "settlement"]

HAND = "/hands/<int(max=2147483647):hand_id>"
COLUMNS = {"going_out": "going_out", "conditions_again": "conditions_again", "pot": "pot"}


@dataclass(slots=True)
class SettlementLine:
    """One seat's part in the going out: each column in chips, + received, - paid."""

    seat: int
    player: str
    status: str
    going_out: int = 0
    conditions_again: int = 0
    pot: int = 0
    rake: int = 0
    #: The seat's net over the whole hand once settled, and its stack then.
    hand_net: int = 0
    stack_after: int = 0

    @property
    def total(self) -> int:
        return self.going_out + self.conditions_again + self.pot + self.rake


@dataclass(slots=True)
class Settlement:
    winner: int
    lines: list[SettlementLine]
    pot: int
    rake: int
    sentences: list[str]
    #: The winner's conditions on the table: (name, cards, value).
    conditions: list[tuple[str, str, int]] = field(default_factory=list)

    @property
    def collected(self) -> int:
        line = next(x for x in self.lines if x.seat == self.winner)
        return line.total - line.rake


def settlement(
    engine: rules.Hand,
    record: rules.EventRecord,
    names: Mapping[int, str],
    stacks_before: Mapping[int, int],
) -> Settlement:
    """The breakdown of a going out from its event (``engine`` is the hand after it)."""
    winner = record.seat
    assert winner is not None
    lines = {
        s: SettlementLine(s, names.get(s, ""), engine.seat_status[s], stack_after=stacks_before[s])
        for s in engine.seats
    }
    pot = rake = 0
    for p in record.payments:
        column = COLUMNS.get(p.rule)
        if column is not None:
            for party, sign in ((p.payer, -1), (p.payee, 1)):
                if isinstance(party, int):
                    line = lines[party]
                    setattr(line, column, getattr(line, column) + sign * p.chips)
            if p.rule == "pot":
                pot += p.chips
        elif p.rule == "rake" and isinstance(p.payer, int):
            lines[p.payer].rake -= p.chips
            rake += p.chips
    for seat, line in lines.items():
        line.hand_net = engine.net[seat]
        line.stack_after += line.total
    conditions = [
        (m.condition.name, str(m), m.value) for m in engine.melds_of(winner) if m.condition
    ]
    return Settlement(
        winner,
        list(lines.values()),
        pot,
        rake,
        payment_sentences(record.payments, names),
        conditions,
    )


def settled_view(board: Board) -> Settlement | None:
    """The going out that settled this hand, if it stands."""
    engine = board.engine
    if engine.status != "settled" or engine.winner is None:
        return None
    record = next(
        (e for e in reversed(engine.events) if e.type == "go_out" and engine.is_active(e.seq)),
        None,
    )
    if record is None:
        return None
    stacks = {s.seat: s.stack - _paid_in(record, s.seat) for s in board.seats}
    return settlement(engine, record, board.names, stacks)


def _paid_in(record: rules.EventRecord, seat: int) -> int:
    return rules.total_by_party(record.payments).get(seat, 0)


def _preview(hand_id: int, seat: int, form: SettleForm, status: int = 200) -> tuple[str, int]:
    session = current_session()
    hand = get_hand(session, hand_id)
    board = build_board(session, hand)
    error = None
    result = None
    # A dry run: the board's engine is a fresh replay, never stored; applying
    # the going out to it shows exactly what confirming will record.
    try:
        record = board.engine.apply(rules.GoOut(seat))
        stacks = {s.seat: s.stack for s in board.seats}
        result = settlement(board.engine, record, board.names, stacks)
    except rules.RulesError as exc:
        status, _code, error = refusal(exc)
    form.seat.data = seat
    form.stamp(url_for("screens.settle", hand_id=hand_id, seat=seat))
    return (
        render_template(
            "screens/settle.html", board=board, seat=seat, result=result, error=error, form=form
        ),
        status,
    )


def _seat_arg() -> int:
    raw = request.args.get("seat", "")
    if not (raw.isascii() and raw.isdigit()) or not 1 <= int(raw) <= 8:
        raise Invalid("Choose the seat that goes out.", "invalid_seat")
    return int(raw)


@bp.get(HAND + "/settle")
@page()
@at_table("read")
def settle(hand_id: int) -> tuple[str, int]:
    return _preview(hand_id, _seat_arg(), SettleForm())


@bp.post(HAND + "/settle")
@page()
@at_table("record")
def confirm_settle(hand_id: int) -> Response | tuple[str, int]:
    form = SettleForm()
    if not form.validate_on_submit():
        raise Invalid("Choose the seat that goes out.", "invalid_seat")
    seat = form.seat.data
    body = {"type": "go_out", "seat": seat}

    def work(session: Session) -> str:
        hand = get_hand(session, hand_id)
        _replayed, event, _entries = record_event(session, hand, body, recorder(), who().user, None)
        return url_for("screens.hand", hand_id=hand_id, done=event.id)

    try:
        return record_once(form.key.data, body, work)
    except (rules.RulesError, DealerError) as exc:
        status, _code, _message = refusal(exc)
        return _preview(hand_id, seat, form, status)
