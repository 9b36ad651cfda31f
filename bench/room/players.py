"""Players who play Pan from a real shuffled shoe, keeping their hands to themselves.

The app sees only what is laid down; each seat here holds its hidden cards, and the table's
engine hand (`dealer.rules.Hand`, fed the same events as the app) says what is legal. A turn,
as at a real table: draw from the stock, or take the discard when it plays at once; play that
card if it can be played (added to a meld, laid in a new one, or used in a borrow or a split);
lay any further melds that lie in the hand; then go out with every card down, or discard. The
drawn card is never kept: in Pan it is played or discarded.

Nothing here talks to the app: `bench.room.table` turns these plays into a dealer's entries.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from dealer import rules
from dealer.rules import Action, Add, Borrow, Card, Meld, Split

__all__ = ["Seat", "Stock", "best_play", "discard_choice", "drops", "melds_in_hand", "new_shoe"]


def new_shoe(table_rules: rules.Rules, rng: random.Random) -> list[Card]:
    """Every card of the shoe the rules describe (packs, spade sets removed), shuffled."""
    shoe = [card for card in rules.ALL_CARDS for _ in range(table_rules.copies(card.suit))]
    rng.shuffle(shoe)
    return shoe


@dataclass
class Stock:
    """The stock and the discard pile; when the stock runs out the discards are reshuffled."""

    cards: list[Card]
    rng: random.Random
    discards: list[Card] = field(default_factory=list)

    def draw(self) -> Card | None:
        if not self.cards and len(self.discards) > 1:
            top = self.discards.pop()
            self.cards, self.discards = self.discards, [top]
            self.rng.shuffle(self.cards)
        return self.cards.pop() if self.cards else None

    @property
    def top(self) -> Card | None:
        return self.discards[-1] if self.discards else None

    def take_top(self) -> Card:
        return self.discards.pop()


@dataclass
class Seat:
    """A player's hidden hand."""

    number: int
    hand: list[Card]

    def remove(self, cards: Iterable[Card]) -> None:
        for card in cards:
            self.hand.remove(card)


def _valid(cards: Sequence[Card]) -> bool:
    return rules.is_valid_meld(cards)


def _sets_with(card: Card, hand: Sequence[Card]) -> list[tuple[Card, ...]]:
    """Sets of ``card``'s rank made with cards from ``hand``: one suit first (a condition)."""
    same = [c for c in hand if c.rank == card.rank]
    found: list[tuple[Card, ...]] = []
    twins = [c for c in same if c == card]
    if len(twins) >= 2:
        found.append((card, *twins))
    by_suit = {c.suit: c for c in same if c.suit != card.suit}
    if len(by_suit) >= 2:
        found.append((card, *by_suit.values()))
    if card.rank in (0, len(rules.RANKS) - 1) and len(same) >= 2:
        found.append((card, *same))
    return [s for s in found if _valid(s)]


def _runs_with(card: Card, hand: Sequence[Card]) -> list[tuple[Card, ...]]:
    """The longest run through ``card`` that cards of its suit in ``hand`` make."""
    ranks = {c.rank for c in hand if c.suit == card.suit} | {card.rank}
    low = high = card.rank
    while low - 1 in ranks:
        low -= 1
    while high + 1 in ranks:
        high += 1
    if high - low < 2:
        return []
    return [tuple(Card(r, card.suit) for r in range(low, high + 1))]


def melds_in_hand(hand: Sequence[Card]) -> list[tuple[Card, ...]]:
    """Melds lying wholly in ``hand`` (sets and runs), largest first."""
    found: set[tuple[Card, ...]] = set()
    for card in set(hand):
        rest = list(hand)
        rest.remove(card)
        for meld in (*_sets_with(card, rest), *_runs_with(card, rest)):
            found.add(tuple(sorted(meld)))
    return sorted(found, key=lambda m: (-len(m), m))


def _adds(engine: rules.Hand, seat: int, card: Card, hand: Sequence[Card]) -> list[Action]:
    """``card`` added to one of the seat's melds, with any hand cards that then also fit."""
    plays: list[Action] = []
    for meld in engine.melds_of(seat):
        added = [card]
        if not _grows(meld, added):
            continue
        for extra in sorted(hand):
            if _grows(meld, [*added, extra]):
                added.append(extra)
        plays.append(Add(seat, meld.id, tuple(added)))
    return plays


def _grows(meld: rules.TableMeld, added: Sequence[Card]) -> bool:
    try:
        rules.check_growth(meld.cards, meld.shape, added)
    except rules.IllegalMeldError:
        return False
    return True


def _borrows(engine: rules.Hand, seat: int, card: Card, hand: Sequence[Card]) -> list[Action]:
    """A new meld of ``card``, card(s) borrowed from a meld of four or more, and the hand."""
    plays: list[Action] = []
    for meld in engine.melds_of(seat):
        cards = sorted(meld.cards)
        if len(cards) < 4:
            continue
        takes: list[tuple[Card, ...]] = [(c,) for c in set(cards)]
        if meld.kind == "run" and len(cards) >= 5:
            takes += [tuple(cards[:2]), tuple(cards[-2:])]
        for take in takes:
            if len(take) == 2 and _valid((*take, card)):
                plays.append(Borrow(seat, meld.id, take, (card,)))
            for extra in set(hand):
                if len(take) == 1 and _valid((*take, card, extra)):
                    plays.append(Borrow(seat, meld.id, take, (card, extra)))
    return plays


def _splits(engine: rules.Hand, seat: int, card: Card) -> list[Action]:
    """``card`` added to a meld that then divides into two."""
    plays: list[Action] = []
    for meld in engine.melds_of(seat):
        if not _grows(meld, [card]):
            continue
        cards = sorted((*meld.cards, card))
        if len(cards) < 6:
            continue
        if meld.kind == "run":
            cuts = [(cards[:k], cards[k:]) for k in range(3, len(cards) - 2)]
        else:
            by_suit = sorted(cards, key=lambda c: (c.suit, c.rank))
            cuts = [(cards[:3], cards[3:]), (by_suit[0::2], by_suit[1::2])]
        for first, second in cuts:
            if _valid(first) and _valid(second):
                plays.append(Split(seat, meld.id, (card,), (tuple(first), tuple(second))))
    return plays


def plays_of(engine: rules.Hand, seat: int, card: Card, hand: Sequence[Card]) -> list[Action]:
    """Every play of ``card`` (just drawn) with cards from ``hand`` that the rules allow now."""
    candidates: list[Action] = [
        *_adds(engine, seat, card, hand),
        *(Meld(seat, m) for m in (*_sets_with(card, hand), *_runs_with(card, hand))),
        *_borrows(engine, seat, card, hand),
        *_splits(engine, seat, card),
    ]
    return [play for play in candidates if engine.can(play)]


def best_play(
    engine: rules.Hand, seat: int, card: Card, hand: Sequence[Card], rng: random.Random
) -> Action | None:
    """The play a fair player makes of ``card``: now and then a borrow or a split, else the play
    that lays most cards down (going out sooner)."""
    plays = plays_of(engine, seat, card, hand)
    if not plays:
        return None
    clever = [p for p in plays if isinstance(p, Borrow | Split)]
    if clever and rng.random() < 0.4:
        return rng.choice(clever)
    plain = [p for p in plays if isinstance(p, Add | Meld)] or plays
    most = max(len(p.cards) for p in plain)  # type: ignore[union-attr]
    return rng.choice([p for p in plain if len(p.cards) == most])  # type: ignore[union-attr]


def _keeps(card: Card, others: Iterable[Card]) -> int:
    """How much ``card`` is worth keeping: how many of ``others`` it could meld with."""
    return sum(
        1
        for c in others
        if c.rank == card.rank or (c.suit == card.suit and abs(c.rank - card.rank) <= 2)
    )


def _worth(hand: Sequence[Card]) -> list[int]:
    return [_keeps(card, (*hand[:i], *hand[i + 1 :])) for i, card in enumerate(hand)]


def discard_choice(hand: Sequence[Card], rng: random.Random) -> Card:
    """The card a player lets go: one that goes with the fewest others."""
    worth = _worth(hand)
    least = min(worth)
    return rng.choice([c for c, w in zip(hand, worth, strict=True) if w == least])


def drops(seats: Sequence[Seat], rng: random.Random) -> list[int]:
    """The seats that drop before the first meld: mostly weak hands; at least two stay."""
    strength = {s.number: sum(_worth(s.hand)) for s in seats}
    # A ten-card hand scores about 16 (the median); about a quarter of seats drop.
    chance = {
        s.number: 0.6 if strength[s.number] < 12 else 0.25 if strength[s.number] < 16 else 0.05
        for s in seats
    }
    out = [s.number for s in seats if rng.random() < chance[s.number]]
    staying = [s for s in strength if s not in out]
    while len(staying) < 2:
        back = max(out, key=lambda n: strength[n])
        out.remove(back)
        staying.append(back)
    return sorted(out)
