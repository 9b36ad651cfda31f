"""Payments: every chip that moves in a hand, with the rule behind it."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from .cards import Card
from .errors import Phrase

__all__ = ["HOUSE", "POT", "REASONS", "Party", "Payment", "party_name", "total_by_party"]

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


#: The English each payment's reason is written in (a ledger entry keeps it as written), as
#: ``str.format`` templates: a door says a stored reason in the reader's language by reading it
#: back against them (`dealer.words.reasons`). ``{seats}`` is "1 seat" or "n seats"; ``{reason}``
#: the reason of the payment a void returns; ``{text}`` and ``{why}`` the voided event's text
#: and the void's reason.
REASONS = {
    "per_hand": Phrase("per-hand collection: {chips} to the house"),
    "time": Phrase("time collection: {chips} to the house every {minutes} minutes"),
    "ante": Phrase("tops ante: {chips} into the pot"),
    "condition": Phrase("{condition} ({cards}): {chips} from each of {seats}"),
    "grown": Phrase(
        "{condition} grown to {size} cards ({cards}): {chips} more from each of {seats}"
    ),
    "going_out": Phrase("going out: {chips} from each of {seats}"),
    "conditions_again": Phrase(
        "conditions paid again at going out: {chips}, what seat {payer} paid seat {seat} for "
        "conditions this hand"
    ),
    "pot": Phrase("takes the pot of {chips}"),
    "last_seat": Phrase("last seat left in: takes the pot of {chips}"),
    "rake": Phrase("rake: {percent} of {collected} collected, at most {cap}: {chips} to the house"),
    "drop_forfeit": Phrase("dropped: {chips} into the pot (tops)"),
    "foul_refund": Phrase(
        "fouled: seat {seat} pays back the {chips} seat {payer} paid it for conditions"
    ),
    "penalty": Phrase(
        "discard penalty: seat {seat} pays seat {other}'s loss of {chips} for the hand"
    ),
    "void": Phrase("void of event {seq} ({text}; {why}): returns {chips} ({reason})"),
    "void_hand": Phrase("hand void: returns {chips} ({reason})"),
}


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

    @classmethod
    def said(
        cls, payer: Party, payee: Party, chips: int, rule: PaymentRule, /, **fields: int
    ) -> Payment:
        """A payment whose reason is its rule's sentence (`REASONS`), told its ``chips``."""
        return cls(payer, payee, chips, rule, REASONS[rule].format(chips=chips, **fields))

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
