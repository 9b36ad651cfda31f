"""Pan cards: ranks A-7 and J-K in four suits, their notation, and parsing."""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from .errors import InvalidCardError, Phrase

__all__ = [
    "ALL_CARDS",
    "CARD_PATTERN",
    "RANKS",
    "SUITS",
    "SUIT_NAMES",
    "VALLE_RANKS",
    "Card",
    "format_cards",
    "parse_card",
    "parse_cards",
]

#: Ranks low to high; there are no 8s, 9s or 10s, so 7 and J are adjacent.
RANKS = "A234567JQK"
SUITS = "CDHS"
SUIT_NAMES = {
    "C": Phrase("clubs"),
    "D": Phrase("diamonds"),
    "H": Phrase("hearts"),
    "S": Phrase("spades"),
}
SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
RANK_NAMES = {
    "A": Phrase("aces"),
    "2": Phrase("twos"),
    "3": Phrase("threes"),
    "4": Phrase("fours"),
    "5": Phrase("fives"),
    "6": Phrase("sixes"),
    "7": Phrase("sevens"),
    "J": Phrase("jacks"),
    "Q": Phrase("queens"),
    "K": Phrase("kings"),
}
ACE = 0
KING = len(RANKS) - 1
VALLE_RANKS = frozenset(RANKS.index(r) for r in "357")


class Card(NamedTuple):
    """One card: ``rank`` is the index into ``RANKS`` (A=0 ... K=9), ``suit`` a letter."""

    rank: int
    suit: str

    def __str__(self) -> str:
        return RANKS[self.rank] + self.suit

    @property
    def rank_symbol(self) -> str:
        return RANKS[self.rank]

    @property
    def is_valle(self) -> bool:
        return self.rank in VALLE_RANKS


#: The 40 distinct cards, in (rank, suit) order.
ALL_CARDS: tuple[Card, ...] = tuple(Card(r, s) for r in range(len(RANKS)) for s in SUITS)

_SYMBOL_TO_SUIT = {
    "♣": "C",
    "♧": "C",
    "♦": "D",
    "♢": "D",
    "♥": "H",
    "♡": "H",
    "♠": "S",
    "♤": "S",
}
# Every accepted spelling, spelled out: str.upper() would let non-ASCII letters through
# ("\u017f".upper() == "S"), so input is matched against this table and nothing else.
_LOOKUP: dict[str, Card] = {}
for _card in ALL_CARDS:
    _rank = RANKS[_card.rank]
    _suits = {_card.suit, _card.suit.lower()}
    _suits.update(sym for sym, suit in _SYMBOL_TO_SUIT.items() if suit == _card.suit)
    for _r in {_rank, _rank.lower()}:
        for _s in _suits:
            _LOOKUP[_r + _s] = _card

#: Every spelling `parse_card` reads, as one regular expression (JSON Schema's dialect too),
#: for the front doors' declarations; `parse_card` also trims the spaces around a card.
CARD_PATTERN = "^[{}][{}]$".format(
    "".join(sorted({t[:-1] for t in _LOOKUP})), "".join(sorted({t[-1] for t in _LOOKUP}))
)


def _not_a_card(token: str) -> InvalidCardError:
    """The refusal of a token that is not a card: it says what is wrong with it."""
    shown = repr(token)
    body = token.strip().upper()
    if not body:
        return InvalidCardError(
            "An empty card was given ({token}): write each card as rank then suit, e.g. 5S.",
            token=shown,
        )
    rank, suit = body[:-1], body[-1:]
    if rank in {"8", "9", "10", "T"}:
        return InvalidCardError(
            "{token} is not a Pan card: there are no 8s, 9s or 10s in the shoe.", token=shown
        )
    if "JOKER" in body or body in {"JK", "X", "JO"}:
        return InvalidCardError(
            "{token} is not a Pan card: there are no jokers in the shoe.", token=shown
        )
    if suit not in SUITS and suit not in _SYMBOL_TO_SUIT:
        return InvalidCardError(
            "{token} is not a card: it must end in a suit, C, D, H or S.", token=shown
        )
    return InvalidCardError(
        "{token} is not a card: the rank must be one of A 2 3 4 5 6 7 J Q K.", token=shown
    )


def parse_card(token: str) -> Card:
    """Parse one card such as ``5S``, ``jh``, ``5♠``; raise ``InvalidCardError`` naming it."""
    if not isinstance(token, str):
        raise InvalidCardError(
            "{token} is not a card: cards are written as text, e.g. 5S.", token=repr(token)
        )
    card = _LOOKUP.get(token)
    if card is None:
        card = _LOOKUP.get(token.strip())
    if card is None:
        raise _not_a_card(token)
    return card


def parse_cards(cards: str | Iterable[str]) -> tuple[Card, ...]:
    """Parse a list of card tokens, or one string of them separated by spaces or commas."""
    if isinstance(cards, str):
        tokens: Iterable[str] = cards.replace(",", " ").split()
    else:
        tokens = cards
    try:
        return tuple(parse_card(t) for t in tokens)
    except TypeError:
        raise InvalidCardError("The cards must be a list of cards such as 5S.") from None


def format_cards(cards: Iterable[Card]) -> str:
    """Cards in canonical notation separated by spaces: ``5S 5S 5S``."""
    return " ".join(RANKS[c.rank] + c.suit for c in cards)
