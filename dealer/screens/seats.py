"""A table: its seats around the oval, seating and chips, the time collection, dealing a hand."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from flask import current_app, render_template, request, url_for
from sqlalchemy.orm import Session
from werkzeug.wrappers import Response
from wtforms import SelectChoice

from dealer.clock import this_shift_start
from dealer.disputes.players import NEW_PLAYER, chosen_player
from dealer.extensions import current_session
from dealer.floor import downs as down_service
from dealer.floor import tables as service
from dealer.floor.assignments import assigned_dealers
from dealer.floor.figures import cheapest_hand, recent_hands
from dealer.floor.in_play import hands_in_play
from dealer.floor.time_collection import take_time_collection, time_due
from dealer.hands import record as hand_service
from dealer.ledger.accounts import pot_account
from dealer.ledger.balances import balance
from dealer.ledger.replay import table_collection, table_rules
from dealer.models import Down, Table, User
from dealer.people.users import list_users
from dealer.screens.auth.guard import kept_form, local_path, page, who
from dealer.screens.blueprint import TABLE, bp
from dealer.screens.close_step import close_step_context
from dealer.screens.forms import (
    AssignForm,
    ChipsForm,
    CollectForm,
    DealForm,
    LeaveForm,
    OpenDownForm,
    SeatForm,
    UnassignForm,
    stay_at,
)
from dealer.screens.live import live_context, live_page
from dealer.screens.paper import PaperForm
from dealer.screens.screen import posted_at_table
from dealer.screens.sent import record_approved, record_or_redraw
from dealer.views.chairs import SEATS, chairs
from dealer.views.shift_hands import shift_hands
from dealer.web.contract import SEAT as SEAT_NUMBER
from dealer.web.paper import PAPER_COOKIE
from dealer.web.signin import recorder
from dealer.words.catalogue import say
from dealer.words.rules import collection_words, game_words, profile_words
from dealer.words.tables import acting_seat_words, california_warning

SEAT = TABLE + f"/seats/<{SEAT_NUMBER}:seat>"


def current_down(session: Session, table_id: int) -> Down | None:
    """The session the table screen shows: the open one, else the last awaiting the floor."""
    found = down_service.open_down_at(session, table_id)
    if found is not None:
        return found
    latest = down_service.downs_at(session, table_id)
    if latest and latest[0].close_confirmed_by is None:
        return latest[0]
    return None


def dealer_choices(session: Session) -> list[SelectChoice]:
    """The dealers a supervisor may send to a table (signed in or not: by name)."""
    dealers = [u for u in list_users(session) if u.role == "dealer" and u.active]
    return [SelectChoice(u.name, u.name) for u in dealers]


def _floor_controls(session: Session, table: Table, here: str) -> dict[str, object]:
    """What a supervisor sees of a table's dealers: who is assigned, and the forms."""
    if not who().user.can("supervisor"):
        return {"assigned": None}
    assign_form = AssignForm(formdata=None).stamp(here)
    assign_form.dealer.choices = dealer_choices(session)
    return {
        "assigned": assigned_dealers(session, table.id),
        "assign_form": assign_form,
        "unassign_form": UnassignForm(formdata=None).stamp(here),
    }


def _table_page(
    table: Table, status: int = 200, error: str | None = None
) -> tuple[str | Response, int]:
    session = current_session()
    hand = hands_in_play(session, [table.id]).get(table.id)
    seated = chairs(session, table, hand)
    collect = CollectForm().stamp(url_for("screens.table", table_id=table.id))
    model = table_collection(table)
    here = url_for("screens.table", table_id=table.id)
    return live_page(
        "screens/table.html",
        **live_context(f"table:{table.id}"),
        table=table,
        game=game_words(table_rules(table)),
        profile=profile_words(table.profile),
        collection=model,
        collection_words=collection_words(model),
        acting_seat=acting_seat_words(table.acting_seat),
        california=california_warning() if model.banned_in_california else None,
        chairs=seated,
        filled=sum(1 for c in seated if c.seating),
        hand=hand,
        hands=recent_hands(session, table.id, 1),
        shift=shift_hands(session, this_shift_start(current_app.config), table.id, limit=10),
        due=time_due(session, table),
        least=cheapest_hand(table),
        collect_form=collect,
        error=error,
        opened=request.args.get("opened"),
        pot=balance(session, pot_account(hand.id)) if hand is not None else None,
        down=current_down(session, table.id),
        elsewhere=down_service.dealer_down_elsewhere(session, who().user.id, table.id),
        open_down_form=OpenDownForm(formdata=None).stamp(here),
        **close_step_context(session, table, here),
        paper_form=PaperForm(formdata=None, paper=request.cookies.get(PAPER_COOKIE, "page")),
        **_floor_controls(session, table, here),
    ), status


@bp.get(TABLE)
@page(at="read")
def table(table_id: int) -> tuple[str | Response, int]:
    return _table_page(service.get_table(current_session(), table_id))


def _seat_choices() -> list[SelectChoice]:
    return [SelectChoice(s, say("Seat {seat}", seat=s)) for s in SEATS]


def _seat_page(
    table: Table,
    seat: int,
    status: int = 200,
    error: str | None = None,
    seat_form: SeatForm | None = None,
    chips_form: ChipsForm | None = None,
    leave_form: LeaveForm | None = None,
) -> tuple[str, int]:
    session = current_session()
    hand = hands_in_play(session, [table.id]).get(table.id)
    chair = chairs(session, table, hand)[seat - 1]
    here = url_for("screens.seat", table_id=table.id, seat=seat)
    if seat_form is None:
        seat_form = kept_form(
            SeatForm, url_for("screens.seat_player", table_id=table.id), seat=seat
        )
    seat_form.seat.choices = _seat_choices()
    if chips_form is None:
        chips_form = kept_form(ChipsForm, url_for("screens.chips", table_id=table.id, seat=seat))
    if leave_form is None:
        leave_form = LeaveForm()
    stay = chair.seating.id if chair.seating else None
    return render_template(
        "screens/seat.html",
        table=table,
        chair=chair,
        hand=hand,
        least=cheapest_hand(table),
        seat_form=seat_form.stamp(here),
        chips_form=stay_at(chips_form, stay).stamp(here),
        leave_form=stay_at(leave_form, stay).stamp(here),
        error=error,
        new_player=NEW_PLAYER,
    ), status


@bp.get(SEAT)
@page(at="read")
def seat(table_id: int, seat: int) -> tuple[str, int]:
    return _seat_page(service.get_table(current_session(), table_id), seat)


@bp.post(TABLE + "/seats")
@page(at="record")
def seat_player(table_id: int) -> Response | tuple[str | Response, int]:
    form = SeatForm()
    form.seat.choices = _seat_choices()
    table, form, body = posted_at_table(table_id, form)
    number = form.seat.data if isinstance(form.seat.data, int) and form.seat.data in SEATS else 1
    if body is None:  # the seat is the page's, not a field: a refused seat is in the banner
        seat_refused = form.seat.errors[0] if form.seat.errors else None
        return _seat_page(table, number, 422, seat_refused, seat_form=form)
    chosen = (form.player_id.data or "").strip()
    fields = {"seat": body.seat, "player": body.player, "buy_in": body.buy_in, "player_id": chosen}

    def seat_them(session: Session, live: Table, supervisor: User | None) -> None:
        player_id = chosen_player(session, chosen, fields["player"], who().user)
        service.seat_player(
            session,
            live,
            body.seat,
            fields["player"],
            fields["buy_in"],
            recorder(),
            who().user,
            supervisor,
            player_id=player_id,
        )

    return _record_at_seat(table, number, form, body, fields, seat_them, seat_form=form)


@bp.post(SEAT + "/chips")
@page(at="record")
def chips(table_id: int, seat: int) -> Response | tuple[str | Response, int]:
    table, form, body = posted_at_table(table_id, ChipsForm())
    if body is None:
        return _seat_page(table, seat, 422, chips_form=form)
    fields = {"seat": seat, "kind": body.kind, "amount": body.amount, "seating": body.seating}

    def move(session: Session, live: Table, supervisor: User | None) -> None:
        seating = service.open_seat(session, live, seat, fields["seating"])
        kind, amount = fields["kind"], fields["amount"]
        service.move_chips(session, live, seating, kind, amount, recorder(), who().user, supervisor)

    back = local_path(form.back.data, url_for("screens.table", table_id=table_id))
    return _record_at_seat(table, seat, form, body, fields, move, back=back, chips_form=form)


@bp.post(SEAT + "/leave")
@page(at="record")
def leave(table_id: int, seat: int) -> Response | tuple[str | Response, int]:
    table, form, body = posted_at_table(table_id, LeaveForm())
    stay = body.seating if body is not None else None

    def free(session: Session, live: Table, supervisor: User | None) -> None:
        seating = service.open_seat(session, live, seat, stay)
        service.leave_seat(session, live, seating, recorder(), who().user, supervisor)

    fields = {"seat": seat, "leave": True, "seating": stay}
    return _record_at_seat(table, seat, form, body, fields, free, leave_form=form)


def _record_at_seat(
    table: Table,
    seat: int,
    form: Any,
    body: Any,
    fields: Mapping[str, Any],
    change: Callable[[Session, Table, User | None], None],
    back: str | None = None,
    **drawn: Any,
) -> Response | tuple[str | Response, int]:
    """Record ``change`` to the live table (`record_approved`), then back to the table (or
    ``back``); refused, the seat's page again with ``drawn``'s forms as they were typed."""

    def work(session: Session, approver: User | None) -> str:
        change(session, service.get_table(session, table.id), approver)
        return back or url_for("screens.table", table_id=table.id)

    def redraw(status: int, message: str | None) -> tuple[str | Response, int]:
        return _seat_page(table, seat, status, message, **drawn)

    return record_approved(form, body, fields, work, redraw)


@bp.post(TABLE + "/collections")
@page(at="record")
def collect(table_id: int) -> Response | tuple[str | Response, int]:
    table, form, body = posted_at_table(table_id, CollectForm())

    def work(session: Session, supervisor: User | None) -> str:
        live = service.get_table(session, table_id)
        take_time_collection(session, live, recorder(), who().user, supervisor)
        return url_for("screens.table", table_id=table_id, collected=1)

    return record_at_table(table, form, body, {"collect": table_id}, work)


def record_at_table(
    table: Table,
    form: Any,
    body: Any,
    fields: Mapping[str, Any],
    work: Callable[[Session, User | None], str],
) -> Response | tuple[str | Response, int]:
    """`record_approved` at the table; refused, the table's page again."""

    def redraw(status: int, message: str | None) -> tuple[str | Response, int]:
        return _table_page(table, status, message)

    return record_approved(form, body, fields, work, redraw)


def _collection_taken(table: Table) -> str | None:
    """The house's collection at ``table`` in words, or None where it takes none."""
    model = table_collection(table)
    return None if model.kind == "none" else collection_words(model)


def _deal_page(
    table: Table, form: DealForm | None = None, status: int = 200, error: str | None = None
) -> tuple[str, int]:
    session = current_session()
    hand = hands_in_play(session, [table.id]).get(table.id)
    seated = [c for c in chairs(session, table, hand) if c.seating and not c.seating.paused]
    if form is None:
        form = kept_form(DealForm, url_for("screens.start_hand", table_id=table.id))
    form.stamp(url_for("screens.deal", table_id=table.id))
    return render_template(
        "screens/deal.html",
        table=table,
        knobs=table_rules(table),
        collection_words=_collection_taken(table),
        seated=seated,
        hand=hand,
        form=form,
        dropped=set(form.dropped.data or []),
        error=error,
    ), status


@bp.get(TABLE + "/deal")
@page(at="deal")
def deal(table_id: int) -> tuple[str, int]:
    return _deal_page(service.get_table(current_session(), table_id))


@bp.post(TABLE + "/hands")
@page(at="deal")
def start_hand(table_id: int) -> Response | tuple[str | Response, int]:
    table, form, body = posted_at_table(table_id, DealForm())
    if body is None:
        return _deal_page(table, form, 422, form.first_refusal())
    dropped = sorted(body.dropped or [])

    def work(session: Session) -> str:
        live = service.get_table(session, table_id)
        replayed = hand_service.start_hand(session, live, dropped, recorder())
        done = ",".join(str(e.id) for e in replayed.events)
        return url_for("screens.hand", hand_id=replayed.row.id, done=done)

    return record_or_redraw(
        form.key.data,
        {"dropped": dropped},
        work,
        lambda status, message: _deal_page(table, form, status, message),
    )
