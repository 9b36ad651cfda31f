"""Cards in words: ``6♥`` wherever a person reads one, "six of hearts" when it is read out.

The engine writes cards with letter suits (``6H``), which the API and the CSV keep as the
canonical form for machines; a person always sees the suit's symbol.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from dealer import rules
from dealer.rules.cards import SUIT_SYMBOLS
from dealer.words.catalogue import say


def _rank_word(rank: str) -> str:
    return {"A": say("ace"), "J": say("jack"), "Q": say("queen"), "K": say("king")}.get(rank, rank)


def _suit_word(suit: str) -> str:
    return {"C": say("clubs"), "D": say("diamonds"), "H": say("hearts"), "S": say("spades")}[suit]


@dataclass(frozen=True, slots=True)
class Face:
    """One card as a person sees it: ``5S`` drawn as a 5 and a spade, read out as "5 of
    spades"; ``code`` is the canonical notation (what a form sends back). Its words are said
    each time they are read, in the catalogue in use then."""

    code: str
    rank: str
    suit: str
    symbol: str

    @property
    def text(self) -> str:
        return self.rank + self.symbol

    @property
    def label(self) -> str:
        """The card read out: "5 of spades"."""
        return say("{rank} of {suit}", rank=_rank_word(self.rank), suit=self.suit_words)

    @property
    def suit_words(self) -> str:
        """Its suit read out: "spades"."""
        return _suit_word(self.suit)


def _make(card: rules.Card) -> Face:
    return Face(str(card), card.rank_symbol, card.suit, SUIT_SYMBOLS[card.suit])


@lru_cache(maxsize=1)
def _faces() -> dict[rules.Card, Face]:
    """Every card's face, made once."""
    return {card: _make(card) for card in rules.ALL_CARDS}


#: The card pad: a row per suit (spades first, as dealers call them), a column per rank.
PAD_SUITS = "SHDC"
PAD_RANKS = rules.RANKS


def face(card: rules.Card | str) -> Face:
    return _faces()[rules.parse_card(card) if isinstance(card, str) else card]


def faces(cards: Iterable[rules.Card | str]) -> list[Face]:
    return [face(c) for c in cards]


def cards_words(cards: Iterable[rules.Card | str]) -> str:
    """``6♥ 6♥ 6♥``: the cards in the order given."""
    return " ".join(face(c).text for c in cards)


def script_cards() -> dict[str, object]:
    """What the page's script needs to draw a typed card (handed over by base.html)."""
    return {
        "suits": SUIT_SYMBOLS,
        "suit_words": {s: _suit_word(s) for s in rules.SUITS},
        "rank_words": {r: _rank_word(r) for r in "AJQK"},
        "ranks": "".join(rules.RANKS),
    }
