"""A hand of Pan as a state machine (PAN_RULES.md sections 4, 5 and 7).

Each action has a check that raises (``check``), a boolean for enabling buttons
(``can``) and the action itself (``apply``), which returns a frozen record of
what happened, its payments included. The hand's history is its list of events.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any, Literal

from .actions import Action, Add, Borrow, Drop, Foul, GoOut, Meld, Penalty, Split, Void, VoidHand
from .cards import Card, parse_card
from .corrections import plan_foul, plan_penalty, plan_void, plan_void_hand
from .errors import (
    IllegalActionError,
    IllegalMeldError,
    InvalidActionError,
    NotAllowedNowError,
    RulesError,
)
from .melds import check_growth
from .payments import HOUSE, POT, Party, Payment
from .play import (
    others_in_play,
    plan_add,
    plan_borrow,
    plan_deal,
    plan_drop,
    plan_go_out,
    plan_meld,
    plan_split,
)
from .profiles import NO_COLLECTION, Collection, Rules
from .records import KEEP, EventRecord, Fit, Plan, SeatStatus, Undo
from .table import TableMeld

__all__ = ["EventRecord", "Fit", "Hand", "HandStatus", "SeatStatus", "time_collection"]

HandStatus = Literal["playing", "settled", "void"]


#: The payment rules whose totals later rules read (conditions paid, house fees).
_TALLIED = frozenset(("condition", "foul_refund", "collection"))


class Hand:
    """One hand at a table, from the deal to settlement (or void)."""

    def __init__(
        self,
        rules: Rules,
        seats: Iterable[int],
        collection: Collection = NO_COLLECTION,
    ) -> None:
        dealt = list(seats)
        if any(isinstance(s, bool) or not isinstance(s, int) or not 1 <= s <= 8 for s in dealt):
            raise InvalidActionError("Seats must be distinct numbers from 1 to 8.")
        dealt.sort()
        if len(dealt) < 2:
            raise IllegalActionError(
                "A hand needs at least two seated players.", code="not_enough_players"
            )
        if len(set(dealt)) != len(dealt):
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
        self.undo_notes: dict[int, Undo] = {}
        self.next_meld_id = 1
        self._commit(None, plan_deal(self), "deal", "the deal")

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

    def next_in_play(self, seat: int) -> int | None:
        """The seat after ``seat`` in play order (seat order, round the table) still in."""
        after = [s for s in self.seats if s > seat] + [s for s in self.seats if s < seat]
        return next((s for s in after if self.seat_status[s] == "in"), None)

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
            if others_in_play(self, seat):
                out.add("foul")
                if not self.melds:
                    out.add("drop")
            mine = self.melds_of(seat)
            room = self.limit - self.cards_down[seat]
            if room > 0:
                out.add("meld")
                if mine:
                    out.add("add")
            # A split needs two melds of three out of the meld and the cards added; a borrow
            # needs three for its new meld out of what the meld can spare and the hand. Where
            # a card from hand is required, there must be room for one.
            if room > 0 or not self.rules.rearrange_needs_card:
                if any(m.shape.size + room >= 6 for m in mine):
                    out.add("split")
                if any(m.shape.size >= 4 and m.shape.size - 3 + room >= 3 for m in mine):
                    out.add("borrow")
            if room == 0:
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

    def _plan(self, action: Action) -> Plan:
        planner = _PLANNERS.get(type(action))
        if planner is None:
            raise InvalidActionError("That is not an action the hand knows.")
        return planner(self, action)

    def _commit(
        self,
        action: Action | None,
        plan: Plan,
        kind: str,
        text: str,
        seat: int | None = None,
    ) -> EventRecord:
        seq = len(self.events) + 1
        undo = Undo(
            before={mid: self.melds.get(mid) for mid in plan.changes},
            added=plan.added,
            removed=plan.removed,
            statuses={s: self.seat_status[s] for s in plan.statuses},
            hand_status=self.status if plan.hand_status is not KEEP else KEEP,
            winner=self.winner if plan.winner is not KEEP else KEEP,
            penalty_taken=self.penalty_taken if plan.penalty_taken is not KEEP else KEEP,
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
        if plan.hand_status is not KEEP:
            self.status = plan.hand_status  # type: ignore[assignment]
        if plan.winner is not KEEP:
            self.winner = plan.winner  # type: ignore[assignment]
        if plan.penalty_taken is not KEEP:
            self.penalty_taken = plan.penalty_taken  # type: ignore[assignment]
        self.next_meld_id += plan.next_meld
        for payment in plan.payments:
            self._post(payment)
        if plan.voids is not None:
            self.voided[plan.voids] = seq
        record = EventRecord(
            seq, kind, seat, action, tuple(plan.payments), tuple(plan.changes), text
        )
        self.events.append(record)
        self.undo_notes[seq] = undo
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
        rule = payment.rule
        if rule not in _TALLIED:
            return
        payer, payee, chips = payment.payer, payment.payee, payment.chips
        if rule == "collection" and isinstance(payer, int):
            self._fees[payer] += sign * chips
            return
        if not (isinstance(payer, int) and isinstance(payee, int)):
            return
        if rule == "condition":
            key = (payer, payee)
        elif rule == "foul_refund":
            key, sign = (payee, payer), -sign
        else:
            return
        self._condition_paid[key] = self._condition_paid.get(key, 0) + sign * chips


def time_collection(seats: Iterable[int], collection: Collection) -> list[Payment]:
    """The time collection: each seated, unpaused seat pays the house ``chips``."""
    if collection.kind != "time":
        raise NotAllowedNowError("This table has no time collection.", code="not_a_time_table")
    chips = collection.chips
    text = f"time collection: {chips} to the house every {collection.minutes} minutes"
    return [Payment(s, HOUSE, chips, "collection", text) for s in sorted(seats)]


#: Who plans each action: the rules of sections 4 to 7, one function an action.
_PLANNERS: dict[type, Callable[[Hand, Any], Plan]] = {
    Meld: plan_meld,
    Add: plan_add,
    Borrow: plan_borrow,
    Split: plan_split,
    GoOut: plan_go_out,
    Drop: plan_drop,
    Foul: plan_foul,
    Penalty: plan_penalty,
    Void: plan_void,
    VoidHand: lambda hand, _action: plan_void_hand(hand),
}
