"""The hand screen: the seats' melds, the card pad, the actions, fits and the history."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flask import redirect, request, url_for
from sqlalchemy.orm import Session
from werkzeug.wrappers import Response

from dealer import rules
from dealer.errors import DealerError, Invalid
from dealer.extensions import current_session
from dealer.floor.acting_seat import acting_seat_after, acting_seat_of
from dealer.floor.in_play import get_hand
from dealer.hands import kept, moves
from dealer.hands.reading import Replayed, load_hand, read_hand
from dealer.hands.record import record_event, split_rest
from dealer.inputs import Fit, NewEvent, judge
from dealer.screens.auth.guard import kept_form, page, page_address, who
from dealer.screens.blueprint import HAND, SCREEN_ID, bp
from dealer.screens.declared import MISSING, arrived, sent
from dealer.screens.forms import ActionForm, ChipsForm, FitsForm, MoveForm, stay_at
from dealer.screens.hand_disputes import disputes_panel
from dealer.screens.live import live_context, live_page
from dealer.screens.next_hand import next_deal
from dealer.screens.sent import record_once, record_or_redraw
from dealer.views.events import EventView
from dealer.views.hand import HandSeatView, HandView, hand_view
from dealer.views.settlement import settled
from dealer.web.refusals import refusal
from dealer.web.signin import recorder
from dealer.words.catalogue import say
from dealer.words.tables import acting_seat_words, buy_in_label, buy_in_pending


@dataclass(frozen=True, slots=True)
class ActionButton:
    """One action button of the hand screen."""

    type: str
    label: str
    #: The button's word where space is short; ``label`` is read out.
    short: str
    #: Needs one of the seat's melds chosen first (tap the meld).
    needs_meld: bool = False
    #: Needs cards entered on the pad or typed.
    needs_cards: bool = False
    #: Its key on a hardware keyboard (static/dealer.js reads ``aria-keyshortcuts``).
    key: str = ""


def actions() -> tuple[ActionButton, ...]:
    """The hand screen's action buttons, in the dealer's words."""
    return (
        ActionButton("meld", say("Meld"), say("Meld"), needs_cards=True, key="M"),
        ActionButton(
            "add", say("Add to the meld"), say("Add"), needs_meld=True, needs_cards=True, key="A"
        ),
        ActionButton(
            "borrow",
            say("Borrow from the meld"),
            say("Borrow"),
            needs_meld=True,
            needs_cards=True,
            key="B",
        ),
        ActionButton("split", say("Split the meld"), say("Split"), needs_meld=True, key="S"),
        ActionButton("go_out", say("Go out: show the settlement"), say("Go out"), key="G"),
        ActionButton("drop", say("Drop"), say("Drop"), key="D"),
        ActionButton("foul", say("Foul"), say("Foul"), key="F"),
        ActionButton("penalty", say("Discard penalty"), say("Penalty"), key="P"),
    )


ACTIONS = actions()
#: Actions that need the seat's meld chosen; every action of the screen's form.
NEEDS_MELD = frozenset(a.type for a in ACTIONS if a.needs_meld)
SEAT_ACTIONS = frozenset(a.type for a in ACTIONS)


@dataclass(frozen=True, slots=True)
class MoveOffer:
    """ "Wrong seat? Move #7 to seat N": the entry just recorded, and the seats it may go to."""

    event_id: int
    seq: int
    seats: list[int]


def _int_arg(name: str) -> int | None:
    raw = request.args.get(name, "")
    return int(raw) if raw.isascii() and raw.isdigit() and len(raw) < 10 else None


def _done_ids() -> set[int]:
    given = request.args.get("done", "").split(",")[:10]
    return {int(x) for x in given if x.isascii() and x.isdigit() and len(x) < 10}


def _move_offer(replayed: Replayed, view: HandView) -> MoveOffer | None:
    """The last entry just recorded, when the ledger says it can still move seat."""
    done = [row for row in replayed.events if row.id in _done_ids()]
    if not done or not moves.movable(replayed, done[-1]):
        return None
    row = done[-1]
    seats = [s.seat for s in view.seat_list if s.status == "in" and s.seat != row.seat]
    return MoveOffer(row.id, row.seq, seats) if seats else None


def _done(view: HandView) -> list[EventView]:
    """The events just recorded (``?done=7``, or ``?done=1,2`` for a deal), for the banner."""
    wanted = _done_ids()
    return [event for event in view.events if event.id in wanted]


def _undo(board: HandView, banners: list[EventView], error: str | None) -> EventView | None:
    """Undo: the entry just recorded, voided with a ready reason while nothing depends on it;
    after a refusal, the hand's last good entry (the way back stays one tap away)."""
    if error is None:
        return banners[-1] if banners and banners[-1].voidable else None
    if banners:
        return None
    last = next((e for e in reversed(board.events) if not e.voided and not e.correction), None)
    return last if last is not None and last.voidable else None


def _just_recorded(replayed: Replayed, board: HandView, error: str | None) -> dict[str, Any]:
    """The banner of the entries just recorded, the undo and the offer to move the entry to
    another seat (none after a refusal)."""
    banners = _done(board)
    move = _move_offer(replayed, board) if error is None else None
    return {
        "banners": banners,
        "undo": _undo(board, banners, error),
        "move": move,
        "move_form": MoveForm(formdata=None).stamp(page_address()) if move else None,
    }


def _fits_asked(fits_form: FitsForm) -> tuple[rules.Card | None, str | None]:
    """The card asked where it fits, if any, or why it was refused: the API's question
    (POST /hands/{id}/fits), in its words."""
    if not fits_form.fits.data:
        return None, None
    try:
        return rules.parse_card(judge(Fit, {"card": fits_form.fits.data.strip()}).card), None
    except (rules.RulesError, DealerError) as exc:
        return None, refusal(exc)[2]


def hand_page(
    hand_id: int,
    form: ActionForm | None = None,
    status: int = 200,
    error: str | None = None,
) -> tuple[str | Response, int]:
    """Draw the hand; ``form`` is an entry to keep (a refused one), ``error`` why it was refused."""
    session = current_session()
    fits_form = FitsForm(request.args, meta={"csrf": False})
    fits_card, fits_error = _fits_asked(fits_form)
    replayed = load_hand(session, hand_id)
    board = hand_view(session, replayed, board=True, fits=fits_card)
    if form is None:
        asked = {"seat": _int_arg("seat"), "meld": _int_arg("meld")}
        form = kept_form(
            ActionForm, url_for("screens.act", hand_id=hand_id), formdata=None, **asked
        )
    selected_meld = board.meld(form.meld.data) if form.meld.data else None
    if selected_meld is not None:
        form.seat.data = selected_meld.seat
    selected = board.seat(form.seat.data) if form.seat.data else None
    if selected is None or (selected_meld is not None and selected_meld.seat != selected.seat):
        selected_meld = None
    form.stamp(url_for("screens.hand", hand_id=hand_id))
    if request.method == "GET":
        form.page.data = page_address()
    entered = any((form.cards.data, form.take.data, form.into_first.data, form.into_second.data))
    acting_seat = acting_seat_of(session, board.table)
    return live_page(
        "screens/hand.html",
        **live_context(f"hand:{board.id}", f"table:{board.table}"),
        board=board,
        form=form,
        fits_form=fits_form,
        fits_card=fits_card,
        fits_error=fits_error,
        selected=selected,
        selected_meld=selected_meld,
        actions=actions(),
        **_just_recorded(replayed, board, error),
        entered=entered,
        error=error,
        moves_on=acting_seat == "moves_on",
        **_buy_in(board.table, hand_id, selected),
        acting_seat=acting_seat_words(acting_seat),
        settlement=settled(replayed, board),
        **disputes_panel(session, replayed.row, page_address()),
        **next_deal(board),
    ), status


def _buy_in(table_id: int, hand_id: int, selected: HandSeatView | None) -> dict[str, Any]:
    """The acting seat's buy-in on the hand screen, for the stay the hand dealt in, back to
    the hand (that seat acting) once recorded; the page's script follows the acting seat."""
    seat = selected.seat if selected else None
    back = url_for("screens.hand", hand_id=hand_id, seat=seat)
    form = ChipsForm(formdata=None, back=back)
    stay_at(form, selected.seating if selected else None).stamp(page_address())
    seat_chips = url_for("screens.chips", table_id=table_id, seat=1)
    return {
        "chips_form": form,
        "buy_in_action": seat_chips.replace("/seats/1/", "/seats/{seat}/"),
        "buy_in_label": buy_in_label(),
        "buy_in_summary": buy_in_pending(),
    }


bp.add_url_rule(HAND, "hand", page(at="read")(hand_page))


def _tokens(text: str | None) -> list[str]:
    return (text or "").replace(",", " ").split()


def event_body(form: ActionForm) -> dict[str, Any]:
    """The API's event body (API.md) for what the dealer entered; the engine judges it."""
    action = form.action.data
    if not action:
        raise Invalid(say("Choose an action."), "unknown_action")
    seat = sent(form.seat)  # a number, or what was typed for the engine to refuse
    if seat is MISSING:
        raise Invalid(say("Tap the seat that acts first."), "seat_missing")
    body: dict[str, Any] = {"type": action, "seat": seat}
    if action in NEEDS_MELD:
        meld = sent(form.meld)
        if meld is MISSING:
            raise Invalid(say("Tap the meld it acts on first."), "meld_missing")
        body["meld"] = meld
    if action in ("meld", "add", "borrow", "split"):
        body["cards"] = _tokens(form.cards.data)
    if action == "borrow":
        body["take"] = _tokens(form.take.data)
    if action == "split":
        body["into"] = [_tokens(form.into_first.data), _tokens(form.into_second.data)]
    if action in rules.CLAIMABLE_TYPES and form.not_claimed.data:
        body["claimed"] = False
    return body


@bp.post(HAND + "/events")
@page(at="record")
def act(hand_id: int) -> Response | tuple[str | Response, int]:
    """Record one event of the hand; a refusal redraws the hand with the entry kept."""
    form = ActionForm()
    if not arrived(form):
        return hand_page(hand_id, form, 422, form.first_refusal() or say("Check what was entered."))
    try:
        body = event_body(form)
        if body["type"] == "go_out":
            # Going out is shown in full first: the settlement screen confirms it.
            return redirect(url_for("screens.settle", hand_id=hand_id, seat=body["seat"]), 303)
        if body["type"] not in SEAT_ACTIONS:
            raise Invalid(say("Choose one of the actions on the screen."), "unknown_action")

        def work(session: Session) -> str:
            # the engine kept since the hand's last event, when it is (`dealer.hands.kept`)
            replayed = kept.replayed(session, *read_hand(session, hand_id))
            # judged as the API judges an event (`inputs.NewEvent`: the engine's words first)
            judged = judge(NewEvent, split_rest(replayed, body)).action()
            event = record_event(session, replayed, judged, recorder(), who().user, None)[1]
            seat = acting_seat_after(session, replayed.row.table_id, replayed.engine, event)
            return url_for("screens.hand", hand_id=hand_id, done=event.id, seat=seat)

        return record_once(form.key.data, body, work, hand=hand_id)
    except (rules.RulesError, DealerError) as exc:
        status, _code, message = refusal(exc)
        form.renew_if_reused(exc)
        return hand_page(hand_id, form, status, message)


@bp.post(HAND + f"/events/<{SCREEN_ID}:event_id>/move")
@page(at="record")
def move_event(hand_id: int, event_id: int) -> Response | tuple[str | Response, int]:
    """A wrong-seat entry moved in one step: its void and the entry again (`ledger.moves`)."""
    form = MoveForm()
    if not form.validate_on_submit():
        return hand_page(hand_id, None, 422, form.first_refusal() or say("Check what was entered."))
    seat = form.seat.data

    def work(session: Session) -> str:
        hand = get_hand(session, hand_id)
        voided, again = moves.move_to_seat(session, hand, event_id, seat, recorder(), who().user)
        return url_for("screens.hand", hand_id=hand_id, done=f"{voided.id},{again.id}")

    return record_or_redraw(
        form.key.data,
        {"move": event_id, "seat": seat},
        work,
        lambda status, message: hand_page(hand_id, None, status, message),
        hand=hand_id,
    )
