"""Melds: set and run validity (PAN_RULES.md section 2) and condition values (section 3)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from .cards import ACE, KING, RANK_NAMES, RANKS, SUIT_NAMES, VALLE_RANKS, Card, format_cards
from .errors import IllegalMeldError, Phrase
from .profiles import Rules

__all__ = [
    "Condition",
    "MeldShape",
    "check_growth",
    "classify",
    "condition_of",
    "is_valid_meld",
    "meld_value",
    "sort_cards",
]

MeldKind = Literal["set", "run"]


@dataclass(frozen=True, slots=True)
class MeldShape:
    """What a valid meld is, judged by its cards alone."""

    kind: MeldKind
    #: For a set, its rank; for a run, its lowest rank.
    rank: int
    #: For a run, its highest rank; for a set, equal to ``rank``.
    high: int
    #: The suits in the meld (one for a run or a one-suit set).
    suits: frozenset[str]
    size: int

    @property
    def one_suit(self) -> bool:
        return len(self.suits) == 1

    @property
    def all_spades(self) -> bool:
        return self.suits == _SPADES_ONLY


_SPADES_ONLY = frozenset("S")


@dataclass(frozen=True, slots=True)
class Condition:
    """A condition a meld meets, and how much it is worth per paying seat.

    A condition meld of ``n`` cards is worth ``base + extra * (n - 3)``.
    """

    code: str
    name: str
    base: int
    extra: int

    def value(self, size: int) -> int:
        return self.base + self.extra * (size - 3)


def sort_cards(cards: Sequence[Card]) -> tuple[Card, ...]:
    """The canonical order of a meld's cards: by rank, then suit."""
    return tuple(sorted(cards))


def _not_meld(cards: Sequence[Card], why: Phrase) -> IllegalMeldError:
    return IllegalMeldError(
        "{cards} is not a meld: {why}", cards=format_cards(sort_cards(cards)), why=why
    )


def classify(cards: Sequence[Card]) -> MeldShape:
    """Judge ``cards`` as a meld; raise ``IllegalMeldError`` saying why it is not one."""
    n = len(cards)
    if n < 3:
        if n == 0:
            raise IllegalMeldError("No cards were given: a meld needs at least three cards.")
        raise _not_meld(cards, Phrase("a meld needs at least three cards."))
    ranks = {c.rank for c in cards}
    suits = frozenset(c.suit for c in cards)
    if len(ranks) == 1:
        rank = cards[0].rank
        if len(suits) == 2 and rank != ACE and rank != KING:
            raise _not_meld(
                cards,
                Phrase(
                    "a set must be all one suit or show at least three different suits "
                    "(only aces and kings may mix suits freely)."
                ),
            )
        return MeldShape("set", rank, rank, suits, n)
    if len(suits) != 1:
        raise _not_meld(
            cards, Phrase("a set is cards of one rank and a run is cards of one suit in sequence.")
        )
    if len(ranks) != n:
        raise _not_meld(cards, Phrase("a run cannot hold the same rank twice."))
    low = min(ranks)
    high = max(ranks)
    if high - low != n - 1:
        if low == ACE and high == KING:
            raise _not_meld(
                cards, Phrase("the ace is low only, so a run cannot go round from K to A.")
            )
        raise _not_meld(
            cards, Phrase("a run must be consecutive (7 and J are next to each other).")
        )
    return MeldShape("run", low, high, suits, n)


def is_valid_meld(cards: Sequence[Card]) -> bool:
    """Whether ``cards`` form a valid set or run."""
    try:
        classify(cards)
    except IllegalMeldError:
        return False
    return True


def condition_of(shape: MeldShape, rules: Rules) -> Condition | None:
    """The condition ``shape`` meets under ``rules``, or None when it is not a condition."""
    doubled = rules.spades_double and shape.all_spades
    mult = 2 if doubled else 1
    in_suit = ""
    if shape.one_suit:
        (suit,) = shape.suits
        in_suit = " in " + SUIT_NAMES[suit]
    unit = rules.addition_pay == "unit"
    if shape.kind == "set":
        valle = shape.rank in VALLE_RANKS
        if shape.one_suit:
            base = (2 if valle else 1) * mult
            extra = mult if unit else base
            if valle:
                return Condition("valle_set", f"valle set{in_suit}", base, extra)
            return Condition(
                "one_suit_set", f"set of {RANK_NAMES[RANKS[shape.rank]]}{in_suit}", base, extra
            )
        if valle and rules.mixed_valle_condition:
            return Condition("mixed_valle_set", "mixed valle set", 1, 1)
        return None
    has_ace = shape.rank == ACE
    has_king = shape.high == KING
    if not (has_ace or has_king):
        return None
    ends = "ace and king" if has_ace and has_king else ("ace" if has_ace else "king")
    return Condition("ace_king_run", f"run with the {ends}{in_suit}", mult, 0 if unit else mult)


def meld_value(cards: Sequence[Card], rules: Rules) -> int:
    """The value ``V`` of a meld: what each paying seat owes for it in all (0 if no condition)."""
    shape = classify(cards)
    condition = condition_of(shape, rules)
    return condition.value(shape.size) if condition else 0


def check_growth(old: Sequence[Card], old_shape: MeldShape, added: Sequence[Card]) -> None:
    """Raise unless ``added`` may grow the meld ``old`` (section 2's "increase")."""
    new = [*old, *added]
    shape = classify(new)
    if shape.kind != old_shape.kind:
        why = (
            Phrase("the meld would stop being a set.")
            if old_shape.kind == "set"
            else Phrase("the meld would stop being a run.")
        )
        raise IllegalMeldError(
            "{added} cannot be added to {old}: {why}", why=why, **_both(added, old)
        )
    if old_shape.kind == "set" and old_shape.one_suit and shape.suits != old_shape.suits:
        (suit,) = old_shape.suits
        raise IllegalMeldError(
            "{added} cannot be added to {old}: a one-suit set grows only by {rank} in {suit}.",
            rank=RANK_NAMES[RANKS[old_shape.rank]],
            suit=SUIT_NAMES[suit],
            **_both(added, old),
        )


def _both(added: Sequence[Card], old: Sequence[Card]) -> dict[str, str]:
    """The cards added and the meld they were added to, as a refusal names them."""
    return {"added": format_cards(sort_cards(added)), "old": format_cards(sort_cards(old))}


def multiset_minus(cards: Sequence[Card], take: Sequence[Card]) -> list[Card] | None:
    """``cards`` without ``take`` (as multisets), or None if ``take`` is not all there."""
    left = Counter(cards)
    left.subtract(take)
    if any(v < 0 for v in left.values()):
        return None
    return sorted(left.elements())
