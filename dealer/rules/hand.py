"""A hand of Pan as a state machine (PAN_RULES.md sections 4, 5 and 7).

Each action has a check that raises (``check``), a boolean for enabling buttons
(``can``) and the action itself (``apply``), which returns a frozen record of
what happened, its payments included. The hand's history is its list of events.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from .actions import Action, Add, Borrow, Drop, Foul, GoOut, Meld, Penalty, Split, Void, VoidHand
from .cards import Card, parse_card
from .corrections import plan_foul, plan_penalty, plan_void, plan_void_hand
from .errors import (
    IllegalMeldError,
    InvalidActionError,
    NotAllowedNowError,
    RulesError,
)
from .melds import check_growth
from .payments import HOUSE, REASONS, Payment
from .play import (
    others_in_play,
    plan_add,
    plan_borrow,
    plan_drop,
    plan_go_out,
    plan_meld,
    plan_split,
)
from .profiles import Collection
from .records import EventRecord, Fit, Plan
from .state import HandState

__all__ = ["Hand", "time_collection"]


class Hand(HandState):
    """One hand at a table, from the deal to settlement (or void)."""

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


def time_collection(seats: Iterable[int], collection: Collection) -> list[Payment]:
    """The time collection: each seated, unpaused seat pays the house ``chips``."""
    if collection.kind != "time":
        raise NotAllowedNowError("This table has no time collection.", code="not_a_time_table")
    chips = collection.chips
    text = REASONS["time"].format(chips=chips, minutes=collection.minutes)
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
