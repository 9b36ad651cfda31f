"""Cards as the screens draw them: rank, suit symbol, suit colour class and a spoken label."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from dealer import rules
from dealer.rules.cards import SUIT_SYMBOLS

__all__ = ["FACES", "PAD_RANKS", "PAD_SUITS", "SCRIPT_CARDS", "Face", "face", "faces"]

_RANK_WORDS = {"A": "ace", "J": "jack", "Q": "queen", "K": "king"}
_SUIT_WORDS = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}


@dataclass(frozen=True, slots=True)
class Face:
    """One card on screen: ``5S`` drawn as a 5 and a spade, read out as "5 of spades"."""

    code: str
    rank: str
    suit: str
    symbol: str
    label: str


def _make(card: rules.Card) -> Face:
    rank = card.rank_symbol
    word = _RANK_WORDS.get(rank, rank)
    return Face(
        str(card), rank, card.suit, SUIT_SYMBOLS[card.suit], f"{word} of {_SUIT_WORDS[card.suit]}"
    )


#: Every card's face, made once.
FACES: dict[rules.Card, Face] = {card: _make(card) for card in rules.ALL_CARDS}
#: The card pad: a row per suit (spades first, as dealers call them), a column per rank.
PAD_SUITS = "SHDC"
PAD_RANKS = rules.RANKS
#: What static/dealer.js needs to draw a typed card, handed over by the page (base.html).
SCRIPT_CARDS = {
    "suits": SUIT_SYMBOLS,
    "suit_words": _SUIT_WORDS,
    "rank_words": _RANK_WORDS,
    "ranks": "".join(rules.RANKS),
}


def face(card: rules.Card | str) -> Face:
    return FACES[rules.parse_card(card) if isinstance(card, str) else card]


def faces(cards: Iterable[rules.Card | str]) -> list[Face]:
    return [face(c) for c in cards]
