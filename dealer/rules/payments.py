"""Payments: every chip that moves in a hand, with the rule behind it."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from .cards import Card

__all__ = ["HOUSE", "POT", "Party", "Payment", "party_name", "total_by_party"]

POT: Literal["pot"] = "pot"
HOUSE: Literal["house"] = "house"

#: A seat number (1-8), the hand's pot, or the house.
Party = int | Literal["pot", "house"]

#: Why chips moved; stable codes a ledger stores.
PaymentRule = Literal[
    "collection",  # the house's per-hand or time collection
    "ante",  # tops ante into the pot
    "drop_forfeit",  # a seat that drops pays the tops into the pot
    "condition",  # a condition laid or grown
    "going_out",  # the going-out chips
    "conditions_again",  # conditions paid again at going out
    "pot",  # the winner takes the pot
    "rake",  # the house's share of the winner's collection
    "foul_refund",  # a fouled seat pays back its condition chips
    "penalty",  # the discard penalty
    "void",  # reverses one payment of a voided event
    "void_hand",  # reverses one payment when a supervisor voids the hand
]


@dataclass(frozen=True, slots=True)
class Payment:
    """``chips`` (> 0) from ``payer`` to ``payee``, and a reason a dealer can read aloud."""

    payer: Party
    payee: Party
    chips: int
    rule: PaymentRule
    reason: str
    #: The meld this payment is for, when a meld is behind it.
    meld: int | None = None
    cards: tuple[Card, ...] = ()
    #: For a reversal: (event seq, index of the payment within that event) it reverses.
    reverses: tuple[int, int] | None = None

    def as_dict(self) -> dict[str, object]:
        """The API form: parties as strings (``"3"``, ``"pot"``, ``"house"``)."""
        return {
            "from": party_name(self.payer),
            "to": party_name(self.payee),
            "chips": self.chips,
            "reason": self.reason,
            "rule": self.rule,
        }


def party_name(party: Party) -> str:
    """A party as the API writes it: seats as strings, ``pot`` and ``house`` as is."""
    return str(party)


def total_by_party(payments: Iterable[Payment]) -> dict[Party, int]:
    """Each party's net change over ``payments``."""
    net: dict[Party, int] = {}
    for p in payments:
        net[p.payer] = net.get(p.payer, 0) - p.chips
        net[p.payee] = net.get(p.payee, 0) + p.chips
    return net
