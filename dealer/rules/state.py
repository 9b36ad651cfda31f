"""A hand's state: what the planning of every action reads, and how a plan is committed."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Literal

from .actions import Action, Void, VoidHand
from .cards import Card
from .errors import IllegalActionError, InvalidActionError
from .payments import HOUSE, POT, REASONS, Party, Payment
from .profiles import NO_COLLECTION, Collection, Rules
from .records import KEEP, EventRecord, Plan, SeatStatus, Undo
from .table import TableMeld

__all__ = ["HandState", "HandStatus"]

HandStatus = Literal["playing", "settled", "void"]


#: The payment rules whose totals later rules read (conditions paid, house fees).
_TALLIED = frozenset(("condition", "foul_refund", "collection"))


class HandState:
    """What a hand holds at a moment, from its deal: its seats, melds, payments and history, and
    what the rules read of them. The rules plan an action from it (`dealer.rules.play`,
    `dealer.rules.corrections`); `dealer.rules.hand.Hand` applies the plans."""

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
        self._commit(None, self._deal(), "deal", "the deal")

    def _deal(self) -> Plan:
        """The deal's payments: the per-hand collection, then the tops ante."""
        plan = Plan()
        if self.collection.kind == "per_hand":
            chips = self.collection.chips
            for s in self.seats:
                plan.payments.append(
                    Payment(s, HOUSE, chips, "collection", REASONS["per_hand"].format(chips=chips))
                )
        ante = self.rules.tops_ante
        if ante:
            for s in self.seats:
                plan.payments.append(Payment.said(s, POT, ante, "ante"))
        return plan

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
            raise InvalidActionError(
                "There is no event {seq} in this hand.", code="unknown_event", seq=seq
            )
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

    # --------------------------------------------------------- commit

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
