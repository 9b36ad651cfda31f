"""A hand as everyone reads it: its seats and melds, its events each in its one sentence, the
payments of each in words, and its net.

Built once from the stored hand and its replay (`dealer.hands.reading`); the API dumps it
(API.md's hand), the hand screen, the banner and the history render it, the hand slip prints
it, the statement and the dispute view take their sentences from it. ``board=True`` adds what
the dealer's screen shows beside the hand (each seat's stack now, short stacks, the table):
fields left out of the API's answer.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Literal, TypeAlias

from pydantic import Field
from sqlalchemy import bindparam, select, text
from sqlalchemy.orm import Session

from dealer import rules
from dealer.floor.figures import cheapest_hand
from dealer.floor.tables import stacks
from dealer.hands.reading import Replayed, load_hand
from dealer.inputs import Collection, Ruled
from dealer.ledger.replay import hand_collection, hand_rules
from dealer.models import Hand, Seating, Table, User
from dealer.rules import Party as EngineParty
from dealer.views.base import SEAT_KEY, SeatNumber, Time, View, screen
from dealer.views.events import ActionType, Cards, EventView, event_views
from dealer.words.catalogue import say
from dealer.words.parties import party_words
from dealer.words.rules import condition_words, meld_words, rules_in_force
from dealer.words.status import status_words

SeatStatus: TypeAlias = Literal["in", "dropped", "fouled"]
HandStatus: TypeAlias = Literal["playing", "settled", "void"]


# What a view of one hand (its replay, a seat's statement) names it by, first: the hand's id and
# number, and its table's id and name.
class OneHand(View):
    hand: int
    number: int
    table: int
    table_name: str


def one_hand(session: Session, hand: Hand) -> dict[str, Any]:
    name = session.scalar(select(Table.name).where(Table.id == hand.table_id)) or ""
    return {"hand": hand.id, "number": hand.number, "table": hand.table_id, "table_name": name}


class ConditionView(View):
    """The condition a meld meets, in words, and what it is worth per paying seat."""

    name: str
    value: int


class MeldView(View):
    id: int
    cards: Cards
    kind: Literal["set", "run"]
    condition: ConditionView | None
    paid: int
    seat: int = screen(0)
    #: The meld's cards in words (``5♠ 5♠ 5♠``).
    words: str = screen("")
    #: The discard being checked fits here (and whether it takes the seat out).
    fits: bool = screen(False)
    goes_out: bool = screen(False)


class HandSeatView(View):
    player: str
    status: SeatStatus
    cards_down: int
    melds: list[MeldView]
    allowed: list[ActionType] = Field(description="The events this seat may record now.")
    seat: int = screen(0)
    #: ``in``, ``dropped``, ``fouled`` or ``went out``, in words.
    status_words: str = screen("")
    went_out: bool = screen(False)
    limit: int = screen(0)
    net: int = screen(0)
    #: The seat's stack now, and whether it is short (the board only).
    stack: int = screen(0)
    short: bool = screen(False)
    #: The stay in the seat this hand dealt in (an entry made for it names it, the board only).
    seating: int | None = screen(None)
    #: The seat after this one in play order still in the hand ("Next seat").
    next_seat: int | None = screen(None)

    @property
    def shown_status(self) -> str:
        """The seat's status as the screens mark it: ``out`` for the seat that went out."""
        return "out" if self.went_out else self.status


class PlaceView(View):
    """A meld a card could be added to, and whether it takes the seat out."""

    seat: SeatNumber
    meld: int
    goes_out: bool


class FitsView(View):
    fits: list[PlaceView]


def fits_view(found: list[rules.Fit]) -> FitsView:
    return FitsView(fits=[PlaceView(seat=f.seat, meld=f.meld, goes_out=f.goes_out) for f in found])


class TableBrief(View):
    id: int
    name: str
    chip_value_cents: int


class HandView(View):
    """A hand as API.md draws it, and as the screens and the hand slip read it."""

    id: int
    table: int
    number: int
    status: Literal["playing", "settled", "void"]
    rules: Ruled = Field(description="The profile and every knob, as dealt.")
    collection: Collection
    winner: SeatNumber | None
    seats: dict[str, HandSeatView] = Field(json_schema_extra=SEAT_KEY)
    net: dict[str, int] = Field(
        description="Each account's change over the hand (seats, pot, house): sums to zero."
    )
    events: list[EventView]
    started_at: Time
    ended_at: Time | None
    #: The board only: the table, and the least one hand costs a seat (short stacks).
    on_table: TableBrief | None = screen(None)
    pot: int = screen(0)
    #: Each seat's player, by seat number.
    names: dict[int, str] = screen({})
    #: Whether the whole hand may still be voided (a supervisor's call).
    voidable: bool = screen(False)
    #: The rule profile, every knob and the house's collection, as (label, value) in words.
    rules_words: list[tuple[str, str]] = screen([])

    @property
    def seat_list(self) -> list[HandSeatView]:
        return list(self.seats.values())

    def seat(self, number: int | None) -> HandSeatView | None:
        return self.seats.get(str(number)) if number is not None else None

    @property
    def fitting(self) -> list[MeldView]:
        """The melds the discard being checked fits."""
        return [m for s in self.seats.values() for m in s.melds if m.fits]

    def meld(self, meld_id: int | None) -> MeldView | None:
        return next((m for s in self.seats.values() for m in s.melds if m.id == meld_id), None)

    def event_by_id(self, event_id: int) -> EventView | None:
        return next((e for e in self.events if e.id == event_id), None)

    def label(self, party: EngineParty | str) -> str:
        return party_words(party, self.names)


def hand_view(
    session: Session,
    hand: int | Replayed,
    *,
    board: bool = False,
    fits: rules.Card | None = None,
    named: HandNames | None = None,
) -> HandView:
    """The hand ``hand`` (an id, or already replayed); ``board``: with the table and stacks;
    ``fits``: a discard whose places the melds are marked with; ``named``: its players and
    recorders as `players_and_recorders` read them already."""
    replayed = load_hand(session, hand) if isinstance(hand, int) else hand
    row, engine = replayed.row, replayed.engine
    players, names = named if named is not None else players_and_recorders(session, replayed)
    by_seat = {int(seat): players.get(seating, "") for seat, seating in row.seats.items()}
    played = hand_rules(row)
    found = {f.meld: f for f in engine.fits(fits)} if fits is not None else {}
    seats = {str(seat): _seat(engine, seat, by_seat[seat], played, found) for seat in engine.seats}
    table = None
    if board:
        table, seats = _on_board(session, replayed, seats)
    return HandView(
        id=row.id,
        table=row.table_id,
        number=row.number,
        status=engine.status,
        rules=row.rules,
        collection=row.collection,
        winner=engine.winner,
        seats=seats,
        net={rules.party_name(p): chips for p, chips in engine.net.items()},
        events=event_views(replayed, by_seat, names, played),
        started_at=row.started_at,
        ended_at=row.ended_at,
        on_table=table,
        pot=engine.net[rules.POT],
        names=by_seat,
        voidable=engine.can(rules.VoidHand("check")),
        rules_words=rules_in_force(played, hand_collection(row)),
    )


def _seat(
    engine: rules.Hand,
    seat: int,
    player: str,
    played: rules.Rules,
    found: Mapping[int, rules.Fit],
) -> HandSeatView:
    status = engine.seat_status[seat]
    went_out = engine.winner == seat and engine.status == "settled"
    return HandSeatView(
        player=player,
        status=status,
        cards_down=engine.cards_down[seat],
        melds=[_meld(m, played, found.get(m.id)) for m in engine.melds_of(seat)],
        allowed=sorted(engine.allowed(seat)),
        seat=seat,
        status_words=say("went out") if went_out else status_words(status),
        went_out=went_out,
        limit=engine.limit,
        net=engine.net[seat],
        next_seat=engine.next_in_play(seat),
    )


def _meld(meld: rules.TableMeld, played: rules.Rules, fit: rules.Fit | None) -> MeldView:
    condition = meld.condition
    return MeldView(
        id=meld.id,
        cards=[str(c) for c in meld.cards],
        kind=meld.shape.kind,
        condition=ConditionView(
            name=condition_words(meld.cards, played) or condition.name, value=meld.value
        )
        if condition is not None
        else None,
        paid=meld.paid,
        seat=meld.seat,
        words=meld_words(meld.cards),
        fits=fit is not None,
        goes_out=fit is not None and fit.goes_out,
    )


def _on_board(
    session: Session, replayed: Replayed, seats: dict[str, HandSeatView]
) -> tuple[TableBrief, dict[str, HandSeatView]]:
    """The table, and each seat's stack now (short: below what one more hand costs it)."""
    row = replayed.row
    table = session.get_one(Table, row.table_id)
    seatings = list(
        session.scalars(select(Seating).where(Seating.id.in_(list(row.seats.values()))))
    )
    stack_of = stacks(session, seatings)
    least = cheapest_hand(table)
    by_id = {s.id: s for s in seatings}
    out = {}
    for key, seat in seats.items():
        seating = by_id[row.seats[key]]
        stack = stack_of[seating.id]
        short = stack < 0 or (seating.left_at is None and stack < least)
        out[key] = seat.model_copy(update={"stack": stack, "short": short, "seating": seating.id})
    brief = TableBrief(id=table.id, name=table.name, chip_value_cents=table.chip_value_cents)
    return brief, out


#: The players of some seatings and the names of some users, told apart by the first column.
#: Plain SQL, the same on both databases, built once: nothing to compile or key each time.
_PLAYERS_AND_NAMES = text(
    "SELECT 's', id, player FROM seatings WHERE id IN :seatings "
    "UNION ALL SELECT 'u', id, name FROM users WHERE id IN :users"
).bindparams(bindparam("seatings", expanding=True), bindparam("users", expanding=True))


#: The players of a hand's seatings and the names of its events' recorders, each by id.
HandNames: TypeAlias = tuple[dict[int, str], dict[int, str]]


def players_and_recorders(
    session: Session, replayed: Replayed, more: Iterable[User | None] = ()
) -> HandNames:
    """The players of the hand's seatings and the names of its events' recorders (and of the
    users ``more``, read already: an event's recorder and supervisor), by id.

    Read once for a hand replayed, and kept with it (`Replayed.names`): a write of a hand's
    play finds them kept with the hand's engine since its last event (`dealer.hands.kept`), no
    read at all when they name every recorder, as the app never renames a seating's player
    or a user (a hand dealt names its players as its seatings were read). Else one query (UNION
    ALL) instead of two: every answer about a hand asks both; a write of a hand's play reads
    them before its writers' lock, under its table's lock and the floor's, shared.
    """
    users = {i for r in replayed.events for i in (r.user_id, r.supervisor_id) if i is not None}
    given = {user.id: user.name for user in more if user is not None}
    if replayed.names is None or not users <= replayed.names[1].keys() | given.keys():
        asked = {"seatings": list(replayed.row.seats.values()), "users": sorted(users)}
        players: dict[int, str] = {}
        names: dict[int, str] = {}
        for kind, ident, name in session.connection().execute(_PLAYERS_AND_NAMES, asked):
            (players if kind == "s" else names)[ident] = name
        replayed.names = players, names
    replayed.names[1].update(given)
    return replayed.names
