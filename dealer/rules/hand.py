"""A hand of Pan as a state machine (PAN_RULES.md sections 4, 5 and 7).

Each action has a check that raises (``check``), a boolean for enabling buttons
(``can``) and the action itself (``apply``), which returns a frozen record of
what happened, its payments included. The hand's history is its list of events.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Literal

from .actions import (
    Action,
    Add,
    Borrow,
    Drop,
    Foul,
    GoOut,
    Meld,
    Penalty,
    Split,
    Void,
    VoidHand,
)
from .cards import ACE, KING, Card, format_cards, parse_card
from .errors import (
    IllegalActionError,
    IllegalMeldError,
    InvalidActionError,
    NotAllowedNowError,
    RulesError,
    ShoeExceededError,
)
from .melds import check_growth, multiset_minus
from .payments import HOUSE, POT, Party, Payment
from .profiles import NO_COLLECTION, Collection, Rules
from .table import TableMeld, lay

__all__ = ["EventRecord", "Fit", "Hand", "HandStatus", "SeatStatus", "time_collection"]

HandStatus = Literal["playing", "settled", "void"]
SeatStatus = Literal["in", "dropped", "fouled"]
_KEEP: object = object()  # "this plan leaves the field as it is"


@dataclass(frozen=True, slots=True)
class EventRecord:
    """One event of a hand, as it happened: the action and the payments it made."""

    seq: int
    type: str
    seat: int | None
    action: Action | None
    payments: tuple[Payment, ...]
    #: Melds this event created or changed, in the order they were collected for.
    melds: tuple[int, ...]
    text: str


@dataclass(frozen=True, slots=True)
class Fit:
    """A meld a card could be added to, and whether that would take its seat out."""

    seat: int
    meld: int
    goes_out: bool


@dataclass(slots=True)
class _Plan:
    """What an action would change, worked out before anything changes."""

    seat: int | None = None
    changes: dict[int, TableMeld | None] = field(default_factory=dict)
    added: tuple[Card, ...] = ()
    removed: tuple[Card, ...] = ()
    statuses: dict[int, SeatStatus] = field(default_factory=dict)
    payments: list[Payment] = field(default_factory=list)
    hand_status: object = _KEEP
    winner: object = _KEEP
    penalty_taken: object = _KEEP
    voids: int | None = None
    next_meld: int = 0


@dataclass(slots=True)
class _Undo:
    """How to put the hand back as it was before an event (for a void)."""

    before: dict[int, TableMeld | None]
    added: tuple[Card, ...]
    removed: tuple[Card, ...]
    statuses: dict[int, SeatStatus]
    hand_status: object
    winner: object
    penalty_taken: object


def _seats_text(n: int) -> str:
    return "1 seat" if n == 1 else f"{n} seats"


class Hand:
    """One hand at a table, from the deal to settlement (or void)."""

    def __init__(
        self,
        rules: Rules,
        seats: Iterable[int],
        collection: Collection = NO_COLLECTION,
    ) -> None:
        dealt = sorted(seats)
        if len(dealt) < 2:
            raise IllegalActionError(
                "A hand needs at least two seated players.", code="not_enough_players"
            )
        if len(set(dealt)) != len(dealt) or any(
            isinstance(s, bool) or not isinstance(s, int) or not 1 <= s <= 8 for s in dealt
        ):
            raise InvalidActionError("Seats must be distinct numbers from 1 to 8.")
        self.rules = rules
        self.collection = collection
        self.seats: tuple[int, ...] = tuple(dealt)
        self.status: HandStatus = "playing"
        self.winner: int | None = None
        self.penalty_taken = False
        self.seat_status: dict[int, SeatStatus] = dict.fromkeys(dealt, "in")
        self.cards_down: dict[int, int] = dict.fromkeys(dealt, 0)
        self.melds: dict[int, TableMeld] = {}
        self.events: list[EventRecord] = []
        #: Event seq -> seq of the void that reversed it.
        self.voided: dict[int, int] = {}
        self.net: dict[Party, int] = {**dict.fromkeys(dealt, 0), POT: 0, HOUSE: 0}
        self._shoe: Counter[Card] = Counter()
        self._condition_paid: dict[tuple[int, int], int] = {}
        self._fees: dict[int, int] = dict.fromkeys(dealt, 0)
        self._undo: dict[int, _Undo] = {}
        self._next_meld = 1
        self._commit(None, self._plan_deal(), "deal", "the deal")

    # ----------------------------------------------------------- queries

    @property
    def limit(self) -> int:
        """The most cards a seat may have down, and exactly what going out takes."""
        return self.rules.hand_size + 1

    def payers(self, seat: int) -> list[int]:
        """The seats that pay ``seat``: every other seat dealt in that has not dropped."""
        return [s for s in self.seats if s != seat and self.seat_status[s] != "dropped"]

    def melds_of(self, seat: int) -> list[TableMeld]:
        return [m for m in self.melds.values() if m.seat == seat]

    def event(self, seq: int) -> EventRecord:
        if not 1 <= seq <= len(self.events):
            raise InvalidActionError(f"There is no event {seq} in this hand.", code="unknown_event")
        return self.events[seq - 1]

    def is_active(self, seq: int) -> bool:
        """Whether event ``seq`` still stands: neither voided nor itself a void."""
        return seq not in self.voided and self.events[seq - 1].type not in ("void", "void_hand")

    @property
    def payments(self) -> list[Payment]:
        return [p for e in self.events for p in e.payments]

    def condition_paid(self, payer: int, payee: int) -> int:
        """What ``payer`` has paid ``payee`` for conditions this hand, net of returns."""
        return self._condition_paid.get((payer, payee), 0)

    def game_net(self, seat: int) -> int:
        """A seat's net for the hand at play, leaving out fees paid to the house."""
        return self.net[seat] + self._fees[seat]

    def shoe_count(self, card: Card) -> int:
        """Copies of ``card`` in melds on the table."""
        return self._shoe[card]

    def needs_supervisor(self, action: Action) -> bool:
        """Whether the floor must approve ``action``: voids after settlement, void hand."""
        if isinstance(action, VoidHand):
            return True
        return isinstance(action, Void) and self.status == "settled"

    # ------------------------------------------------- verify / can / do

    def check(self, action: Action) -> None:
        """Raise a ``RulesError`` unless ``action`` may be applied now."""
        self._plan(action)

    def can(self, action: Action) -> bool:
        try:
            self._plan(action)
        except RulesError:
            return False
        return True

    def apply(self, action: Action) -> EventRecord:
        """Apply ``action``; return the event with its payments. Bad actions change nothing."""
        plan = self._plan(action)
        seat = getattr(action, "seat", None)
        return self._commit(action, plan, action.type, action.describe(), seat)

    def allowed(self, seat: int) -> frozenset[str]:
        """The action types that may be open to ``seat`` now (for enabling buttons)."""
        if seat not in self.seat_status:
            return frozenset()
        out: set[str] = set()
        status = self.seat_status[seat]
        if self.status == "playing" and status == "in":
            out.add("foul")
            if not self.melds:
                out.add("drop")
            mine = self.melds_of(seat)
            down = self.cards_down[seat]
            if down < self.limit:
                out.add("meld")
                if mine:
                    out.update(("add", "split"))
            if any(m.shape.size >= 4 for m in mine):
                out.add("borrow")
            if down == self.limit:
                out.add("go_out")
        if self.can(Penalty(seat)):
            out.add("penalty")
        return frozenset(out)

    def voidable(self, seq: int) -> bool:
        return self.can(Void(seq, "check"))

    def fits(self, card: Card | str) -> list[Fit]:
        """The melds ``card`` could be added to, seat by seat, and whether it takes a seat out."""
        if isinstance(card, str):
            card = parse_card(card)
        found: list[Fit] = []
        if self.status != "playing":
            return found
        for meld in self.melds.values():
            seat = meld.seat
            if self.seat_status[seat] != "in" or self.cards_down[seat] >= self.limit:
                continue
            try:
                check_growth(meld.cards, meld.shape, (card,))
            except IllegalMeldError:
                continue
            found.append(Fit(seat, meld.id, self.cards_down[seat] + 1 == self.limit))
        return found

    # --------------------------------------------------------- planning

    def _plan(self, action: Action) -> _Plan:
        if isinstance(action, Meld):
            return self._plan_meld(action)
        if isinstance(action, Add):
            return self._plan_add(action)
        if isinstance(action, Borrow):
            return self._plan_borrow(action)
        if isinstance(action, Split):
            return self._plan_split(action)
        if isinstance(action, GoOut):
            return self._plan_go_out(action)
        if isinstance(action, Drop):
            return self._plan_drop(action)
        if isinstance(action, Foul):
            return self._plan_foul(action)
        if isinstance(action, Penalty):
            return self._plan_penalty(action)
        if isinstance(action, Void):
            return self._plan_void(action)
        if isinstance(action, VoidHand):
            return self._plan_void_hand()
        raise InvalidActionError("That is not an action the hand knows.")

    def _plan_deal(self) -> _Plan:
        plan = _Plan()
        if self.collection.kind == "per_hand":
            chips = self.collection.chips
            for s in self.seats:
                plan.payments.append(
                    Payment(
                        s, HOUSE, chips, "collection", f"per-hand collection: {chips} to the house"
                    )
                )
        ante = self.rules.tops_ante
        if ante:
            for s in self.seats:
                plan.payments.append(
                    Payment(s, POT, ante, "ante", f"tops ante: {ante} into the pot")
                )
        return plan

    def _require_playing(self) -> None:
        if self.status == "settled":
            raise NotAllowedNowError("The hand is settled: nothing more can be played in it.")
        if self.status == "void":
            raise NotAllowedNowError("The hand is void: nothing more can be recorded in it.")

    def _require_in(self, seat: int) -> None:
        status = self.seat_status.get(seat)
        if status is None:
            raise InvalidActionError(
                f"Seat {seat} is not dealt into this hand.", code="unknown_seat"
            )
        if status == "dropped":
            raise NotAllowedNowError(
                f"Seat {seat} dropped and takes no further part in the hand.", code="seat_not_in"
            )
        if status == "fouled":
            raise NotAllowedNowError(
                f"Seat {seat} fouled and is out of the hand.", code="seat_not_in"
            )

    def _own_meld(self, seat: int, meld_id: int) -> TableMeld:
        meld = self.melds.get(meld_id)
        if meld is None:
            raise InvalidActionError(
                f"There is no meld {meld_id} in this hand.", code="unknown_meld"
            )
        if meld.seat != seat:
            raise IllegalActionError(
                f"Meld {meld_id} is seat {meld.seat}'s: a seat adds only to its own melds.",
                code="not_your_meld",
            )
        return meld

    def _check_cards_down(self, seat: int, cards: Sequence[Card]) -> None:
        after = self.cards_down[seat] + len(cards)
        if after > self.limit:
            raise IllegalActionError(
                f"Seat {seat} would have {after} cards down: a seat never has more than "
                f"{self.limit}.",
                code="too_many_cards",
            )
        for card, count in Counter(cards).items():
            copies = self.rules.copies(card.suit)
            if self._shoe[card] + count > copies:
                raise ShoeExceededError(
                    f"That would put {self._shoe[card] + count} copies of {card} on the table, "
                    f"but the shoe holds only {copies}: check the cards entered."
                )

    def _collect(self, plan: _Plan, seat: int, ids: Iterable[int]) -> None:
        """Raise each changed meld's paid level to its value; the paying seats pay the rise."""
        payers = self.payers(seat)
        for mid in ids:
            meld = plan.changes[mid]
            assert meld is not None
            value = meld.value
            if value <= meld.paid:
                continue
            rise = value - meld.paid
            cond = meld.condition
            assert cond is not None
            cards = format_cards(meld.cards)
            if meld.paid:
                text = (
                    f"{cond.name} grown to {meld.shape.size} cards ({cards}): "
                    f"{rise} more from each of {_seats_text(len(payers))}"
                )
            else:
                text = f"{cond.name} ({cards}): {rise} from each of {_seats_text(len(payers))}"
            for payer in payers:
                plan.payments.append(
                    Payment(payer, seat, rise, "condition", text, meld.id, meld.cards)
                )
            plan.changes[mid] = replace(meld, paid=value)

    def _plan_meld(self, action: Meld) -> _Plan:
        self._require_playing()
        self._require_in(action.seat)
        new = lay(self._next_meld, action.seat, action.cards, self.rules)
        self._check_cards_down(action.seat, action.cards)
        plan = _Plan(seat=action.seat, changes={new.id: new}, added=new.cards, next_meld=1)
        self._collect(plan, action.seat, plan.changes)
        return plan

    def _plan_add(self, action: Add) -> _Plan:
        self._require_playing()
        self._require_in(action.seat)
        meld = self._own_meld(action.seat, action.meld)
        if not action.cards:
            raise IllegalMeldError("No cards were given to add.")
        check_growth(meld.cards, meld.shape, action.cards)
        self._check_cards_down(action.seat, action.cards)
        grown = meld.with_cards((*meld.cards, *action.cards), self.rules)
        plan = _Plan(seat=action.seat, changes={meld.id: grown}, added=action.cards)
        self._collect(plan, action.seat, plan.changes)
        return plan

    def _plan_borrow(self, action: Borrow) -> _Plan:
        self._require_playing()
        self._require_in(action.seat)
        source = self._own_meld(action.seat, action.meld)
        if not action.take:
            raise IllegalMeldError("Say which cards are borrowed from the meld.")
        left = multiset_minus(source.cards, action.take)
        if left is None:
            raise IllegalMeldError(
                f"Meld {source.id} ({source}) does not hold {format_cards(sorted(action.take))}."
            )
        try:
            kept = source.with_cards(left, self.rules)
        except IllegalMeldError as exc:
            raise IllegalMeldError(
                f"Borrowing {format_cards(sorted(action.take))} would leave "
                f"{format_cards(left)}, which is not a meld: every meld left on the table "
                "must stay valid."
            ) from exc
        new = lay(self._next_meld, action.seat, (*action.take, *action.cards), self.rules)
        self._check_cards_down(action.seat, action.cards)
        plan = _Plan(
            seat=action.seat,
            changes={source.id: kept, new.id: new},
            added=tuple(action.cards),
            next_meld=1,
        )
        self._collect(plan, action.seat, [source.id, new.id])
        return plan

    def _plan_split(self, action: Split) -> _Plan:
        self._require_playing()
        self._require_in(action.seat)
        source = self._own_meld(action.seat, action.meld)
        first, second = action.into
        if Counter((*source.cards, *action.cards)) != Counter((*first, *second)):
            raise IllegalMeldError(
                f"The two melds must hold exactly meld {source.id}'s cards ({source}) "
                f"and the cards added ({format_cards(sorted(action.cards)) or 'none'})."
            )
        parts = [lay(0, action.seat, part, self.rules) for part in (first, second)]
        keep = next((i for i, p in enumerate(parts) if _same_condition(source, p)), 0)
        kept = replace(parts[keep], id=source.id, paid=source.paid)
        new = replace(parts[1 - keep], id=self._next_meld)
        self._check_cards_down(action.seat, action.cards)
        plan = _Plan(
            seat=action.seat,
            changes={kept.id: kept, new.id: new},
            added=tuple(action.cards),
            next_meld=1,
        )
        self._collect(plan, action.seat, [kept.id, new.id] if keep == 0 else [new.id, kept.id])
        return plan

    def _plan_go_out(self, action: GoOut) -> _Plan:
        self._require_playing()
        seat = action.seat
        self._require_in(seat)
        down = self.cards_down[seat]
        if down != self.limit:
            raise IllegalActionError(
                f"Seat {seat} has {down} cards down: going out needs exactly {self.limit}.",
                code="cannot_go_out",
            )
        plan = _Plan(seat=seat, hand_status="settled", winner=seat)
        chips = self.rules.going_out_chips
        collected = 0
        payers = self.payers(seat)
        going_out_text = f"going out: {chips} from each of {_seats_text(len(payers))}"
        for payer in payers:
            if chips:
                plan.payments.append(Payment(payer, seat, chips, "going_out", going_out_text))
                collected += chips
            again = self.condition_paid(payer, seat)
            if again:
                plan.payments.append(
                    Payment(
                        payer,
                        seat,
                        again,
                        "conditions_again",
                        f"conditions paid again at going out: {again}, what seat {payer} "
                        f"paid seat {seat} for conditions this hand",
                    )
                )
                collected += again
        pot = self.net[POT]
        if pot > 0:
            plan.payments.append(Payment(POT, seat, pot, "pot", f"takes the pot of {pot}"))
            collected += pot
        rake = self.collection.rake(collected)
        if rake:
            c = self.collection
            plan.payments.append(
                Payment(
                    seat,
                    HOUSE,
                    rake,
                    "rake",
                    f"rake: {c.percent}% of {collected} collected, at most {c.cap}: "
                    f"{rake} to the house",
                )
            )
        return plan

    def _plan_drop(self, action: Drop) -> _Plan:
        self._require_playing()
        seat = action.seat
        self._require_in(seat)
        if self.melds:
            raise NotAllowedNowError(
                "A seat can drop only before the first meld of the hand.", code="too_late_to_drop"
            )
        plan = _Plan(seat=seat, statuses={seat: "dropped"})
        forfeit = self.rules.drop_forfeit
        if forfeit:
            plan.payments.append(
                Payment(
                    seat, POT, forfeit, "drop_forfeit", f"dropped: {forfeit} into the pot (tops)"
                )
            )
        left = [s for s in self.seats if s != seat and self.seat_status[s] != "dropped"]
        if len(left) == 1:
            (last,) = left
            pot = self.net[POT] + forfeit
            if pot > 0:
                plan.payments.append(
                    Payment(POT, last, pot, "pot", f"last seat left in: takes the pot of {pot}")
                )
            plan.hand_status = "settled"
            plan.winner = last
        return plan

    def _plan_foul(self, action: Foul) -> _Plan:
        self._require_playing()
        seat = action.seat
        self._require_in(seat)
        plan = _Plan(seat=seat, statuses={seat: "fouled"})
        for payer in self.seats:
            back = self.condition_paid(payer, seat) if payer != seat else 0
            if back > 0:
                plan.payments.append(
                    Payment(
                        seat,
                        payer,
                        back,
                        "foul_refund",
                        f"fouled: seat {seat} pays back the {back} seat {payer} paid it "
                        "for conditions",
                    )
                )
        return plan

    def _plan_penalty(self, action: Penalty) -> _Plan:
        seat = action.seat
        if self.status != "settled" or not any(
            e.type == "go_out" and self.is_active(e.seq) for e in self.events
        ):
            raise NotAllowedNowError(
                "The discard penalty is taken only after a seat has gone out.", code="not_settled"
            )
        if self.penalty_taken:
            raise NotAllowedNowError(
                "The discard penalty was already taken in this hand.", code="penalty_taken"
            )
        self._require_in(seat)
        if seat == self.winner:
            raise IllegalActionError("The seat that went out cannot owe the discard penalty.")
        plan = _Plan(seat=seat, penalty_taken=True)
        for other in self.seats:
            if other in (seat, self.winner):
                continue
            loss = -self.game_net(other)
            if loss > 0:
                plan.payments.append(
                    Payment(
                        seat,
                        other,
                        loss,
                        "penalty",
                        f"discard penalty: seat {seat} pays seat {other}'s loss of {loss} "
                        "for the hand",
                    )
                )
        return plan

    def _depends(self, later: EventRecord, target: EventRecord) -> bool:
        if target.type in ("drop", "foul", "go_out", "penalty"):
            return True
        if later.type in ("go_out", "penalty"):
            return True  # settlement reads the whole hand
        if later.type == "foul" and later.seat == target.seat:
            return True  # the foul paid back what this event collected
        return not set(later.melds).isdisjoint(target.melds)

    def _plan_void(self, action: Void) -> _Plan:
        if self.status == "void":
            raise NotAllowedNowError("The hand is void: nothing more can be recorded in it.")
        target = self.event(action.event)
        if target.type == "deal":
            raise IllegalActionError(
                "The deal cannot be voided: a supervisor voids the whole hand instead.",
                code="cannot_void",
            )
        if target.type in ("void", "void_hand"):
            raise IllegalActionError(
                "A void cannot itself be voided: record the event again instead.",
                code="cannot_void",
            )
        if target.seq in self.voided:
            raise NotAllowedNowError(f"Event {target.seq} is already void.", code="already_void")
        for later in self.events[target.seq :]:
            if self.is_active(later.seq) and self._depends(later, target):
                raise NotAllowedNowError(
                    f"Event {target.seq} cannot be voided: event {later.seq} ({later.text}) "
                    "depends on it; void that first.",
                    code="event_depended_on",
                )
        undo = self._undo[target.seq]
        plan = _Plan(
            changes=dict(undo.before),
            added=undo.removed,
            removed=undo.added,
            statuses=dict(undo.statuses),
            hand_status=undo.hand_status,
            winner=undo.winner,
            penalty_taken=undo.penalty_taken,
            voids=target.seq,
        )
        for i, paid in enumerate(target.payments):
            plan.payments.append(
                Payment(
                    paid.payee,
                    paid.payer,
                    paid.chips,
                    "void",
                    f"void of event {target.seq} ({target.text}; {action.reason}): "
                    f"returns {paid.chips} ({paid.reason})",
                    paid.meld,
                    paid.cards,
                    (target.seq, i),
                )
            )
        return plan

    def _plan_void_hand(self) -> _Plan:
        if self.status == "void":
            raise NotAllowedNowError("The hand is already void.", code="already_void")
        plan = _Plan(hand_status="void", winner=None)
        for event in self.events:
            if not self.is_active(event.seq):
                continue
            for i, paid in enumerate(event.payments):
                plan.payments.append(
                    Payment(
                        paid.payee,
                        paid.payer,
                        paid.chips,
                        "void_hand",
                        f"hand void: returns {paid.chips} ({paid.reason})",
                        paid.meld,
                        paid.cards,
                        (event.seq, i),
                    )
                )
        return plan

    # ---------------------------------------------------------- applying

    def _commit(
        self,
        action: Action | None,
        plan: _Plan,
        kind: str,
        text: str,
        seat: int | None = None,
    ) -> EventRecord:
        seq = len(self.events) + 1
        undo = _Undo(
            before={mid: self.melds.get(mid) for mid in plan.changes},
            added=plan.added,
            removed=plan.removed,
            statuses={s: self.seat_status[s] for s in plan.statuses},
            hand_status=self.status if plan.hand_status is not _KEEP else _KEEP,
            winner=self.winner if plan.winner is not _KEEP else _KEEP,
            penalty_taken=self.penalty_taken if plan.penalty_taken is not _KEEP else _KEEP,
        )
        for mid, meld in plan.changes.items():
            old = self.melds.get(mid)
            if old is not None:
                self.cards_down[old.seat] -= old.shape.size
            if meld is None:
                del self.melds[mid]
            else:
                self.melds[mid] = meld
                self.cards_down[meld.seat] += meld.shape.size
        self._shoe.update(plan.added)
        self._shoe.subtract(plan.removed)
        self.seat_status.update(plan.statuses)
        if plan.hand_status is not _KEEP:
            self.status = plan.hand_status  # type: ignore[assignment]
        if plan.winner is not _KEEP:
            self.winner = plan.winner  # type: ignore[assignment]
        if plan.penalty_taken is not _KEEP:
            self.penalty_taken = plan.penalty_taken  # type: ignore[assignment]
        self._next_meld += plan.next_meld
        for payment in plan.payments:
            self._post(payment)
        if plan.voids is not None:
            self.voided[plan.voids] = seq
        record = EventRecord(
            seq, kind, seat, action, tuple(plan.payments), tuple(plan.changes), text
        )
        self.events.append(record)
        self._undo[seq] = undo
        return record

    def _post(self, payment: Payment) -> None:
        chips = payment.chips
        self.net[payment.payer] -= chips
        self.net[payment.payee] += chips
        if payment.reverses is None:
            self._tally(payment, 1)
        else:
            seq, index = payment.reverses
            self._tally(self.events[seq - 1].payments[index], -1)

    def _tally(self, payment: Payment, sign: int) -> None:
        """Keep the per-pair condition totals and house fees that later rules read."""
        payer, payee, chips = payment.payer, payment.payee, payment.chips
        if payment.rule == "collection" and isinstance(payer, int):
            self._fees[payer] += sign * chips
            return
        if not (isinstance(payer, int) and isinstance(payee, int)):
            return
        if payment.rule == "condition":
            key = (payer, payee)
        elif payment.rule == "foul_refund":
            key, sign = (payee, payer), -sign
        else:
            return
        self._condition_paid[key] = self._condition_paid.get(key, 0) + sign * chips


def _same_condition(original: TableMeld, part: TableMeld) -> bool:
    """Whether ``part`` is still a condition of the same kind as ``original`` (section 4)."""
    if original.condition is None or part.condition is None:
        return False
    if original.condition.code != part.condition.code:
        return False
    a, b = original.shape, part.shape
    if a.kind == "set":
        return a.rank == b.rank and a.suits == b.suits if a.one_suit else a.rank == b.rank
    if a.suits != b.suits:
        return False
    return (a.rank == ACE and b.rank == ACE) or (a.high == KING and b.high == KING)


def time_collection(seats: Iterable[int], collection: Collection) -> list[Payment]:
    """The time collection: each seated, unpaused seat pays the house ``chips``."""
    if collection.kind != "time":
        raise NotAllowedNowError("This table has no time collection.", code="not_a_time_table")
    chips = collection.chips
    text = f"time collection: {chips} to the house every {collection.minutes} minutes"
    return [Payment(s, HOUSE, chips, "collection", text) for s in sorted(seats)]
