"""Melds as they lie on the table during a hand: cards, condition and paid level."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .cards import Card, format_cards
from .melds import Condition, MeldShape, classify, condition_of, sort_cards
from .profiles import Rules

__all__ = ["TableMeld", "lay"]


@dataclass(frozen=True, slots=True)
class TableMeld:
    """A meld in front of a seat. ``paid`` is its paid level ``P`` (chips per paying seat)."""

    id: int
    seat: int
    cards: tuple[Card, ...]
    shape: MeldShape
    condition: Condition | None
    paid: int = 0

    @property
    def kind(self) -> str:
        return self.shape.kind

    @property
    def value(self) -> int:
        """``V``: what each paying seat owes for this meld in all."""
        return self.condition.value(self.shape.size) if self.condition else 0

    def with_paid(self, paid: int) -> TableMeld:
        """The same meld at paid level ``paid`` (built directly: this is the hot path)."""
        return TableMeld(self.id, self.seat, self.cards, self.shape, self.condition, paid)

    def __str__(self) -> str:
        return format_cards(self.cards)

    def with_cards(self, cards: Sequence[Card], rules: Rules) -> TableMeld:
        """The same meld (identity and ``P`` kept) holding ``cards`` instead."""
        shape = classify(cards)
        return TableMeld(
            self.id, self.seat, sort_cards(cards), shape, condition_of(shape, rules), self.paid
        )

    def as_dict(self) -> dict[str, object]:
        """The API form of a meld."""
        cond = self.condition
        return {
            "id": self.id,
            "cards": [str(c) for c in self.cards],
            "kind": self.shape.kind,
            "condition": {"name": cond.name, "value": self.value} if cond else None,
            "paid": self.paid,
        }


def lay(meld_id: int, seat: int, cards: Sequence[Card], rules: Rules, paid: int = 0) -> TableMeld:
    """A new meld; raise ``IllegalMeldError`` if the cards are not one."""
    shape = classify(cards)
    return TableMeld(meld_id, seat, sort_cards(cards), shape, condition_of(shape, rules), paid)
