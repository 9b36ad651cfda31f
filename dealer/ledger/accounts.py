"""Ledger accounts: stable names for where chips can be.

- ``seating:<id>`` — a player's stack during one stay in a seat;
- ``hand:<id>:pot`` — a hand's pot (antes, drop forfeits);
- ``table:<id>:house`` — the house's take at a table (collections, rake);
- ``cage`` — chips out of play: buy-ins come from it, cash-outs go back to it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

CAGE = "cage"

AccountKind = Literal["seating", "pot", "house", "cage"]

_PATTERNS: tuple[tuple[AccountKind, re.Pattern[str]], ...] = (
    ("seating", re.compile(r"seating:([1-9][0-9]*)")),
    ("pot", re.compile(r"hand:([1-9][0-9]*):pot")),
    ("house", re.compile(r"table:([1-9][0-9]*):house")),
)


@dataclass(frozen=True, slots=True)
class Account:
    """A parsed account name: its kind and the id it belongs to (None for the cage)."""

    kind: AccountKind
    id: int | None


def seating_account(seating_id: int) -> str:
    return f"seating:{seating_id}"


def pot_account(hand_id: int) -> str:
    return f"hand:{hand_id}:pot"


def house_account(table_id: int) -> str:
    return f"table:{table_id}:house"


# The checks parse every entry's two accounts; a shift has some ten thousand distinct names
# (a pot per hand).
@lru_cache(maxsize=65536)
def parse_account(name: str) -> Account | None:
    """The account ``name`` stands for, or None if it is not a well-formed account name."""
    if name == CAGE:
        return Account("cage", None)
    for kind, pattern in _PATTERNS:
        match = pattern.fullmatch(name)
        if match:
            return Account(kind, int(match.group(1)))
    return None
