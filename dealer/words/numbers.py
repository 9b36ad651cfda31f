"""Counts, chips, money and lists in words, with their plurals right."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal

from dealer.words.catalogue import number, say, say_n


def chips_words(chips: int) -> str:
    """``1 chip``, ``8 chips``, ``1,200 chips``."""
    return say_n("{count} chip", "{count} chips", abs(chips), count=number(chips))


def balance_words(figure: int) -> str:
    """``+5``, ``-5``, and ``0`` with no sign: a balance or a net."""
    return number(figure, signed=True)


def money_words(cents: int, currency: str = "$", signed: bool = False) -> str:
    """``$1,234.50``; ``-$5.50`` below zero; ``+$23.00`` above it when ``signed``."""
    sign = "-" if cents < 0 else ("+" if signed and cents > 0 else "")
    return f"{sign}{currency}{number(Decimal(abs(cents)) / 100, places=2)}"


def join_words(words: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    if len(words) <= 1:
        return "".join(words)
    return say("{most} and {last}", most=", ".join(words[:-1]), last=words[-1])


def seats_words(seats: Sequence[int]) -> str:
    """``seat 3``, ``seats 2, 3, 4 and 6``."""
    listed = join_words([str(s) for s in seats])
    return say_n("seat {listed}", "seats {listed}", len(seats), listed=listed)


def capital(text: str) -> str:
    """The sentence with its first letter capital (the rest as it is)."""
    return text[:1].upper() + text[1:]
