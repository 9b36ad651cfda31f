"""What was paid, by whom and why, in sentences a dealer can read aloud at the table.

Each payment has its reason in words (`payment_reason`): the rule, and the meld or event
behind it. The payments of one event are said in groups: the seats that pay the same party
the same chips for the same reason are named together ("Seats 2, 3, 4 and 6 each pay seat 1
(Rosa) 4 chips: valle set in spades (5♠ 5♠ 5♠)"); a void's returns are said as what each
party gets back in all. The banner, the history, the hand slip and the statement read these.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from dealer import rules
from dealer.words.catalogue import say
from dealer.words.numbers import balance_words, capital, chips_words, join_words, seats_words
from dealer.words.parties import party_words
from dealer.words.rules import condition_words, meld_words, rule

#: Payments that return earlier ones: grouped by who returns them.
RETURNS = frozenset({"void", "void_hand"})


def payment_reason(payment: rules.Payment, played: rules.Rules | None = None) -> str:
    """Why ``payment`` was made, in words: ``valle set in spades (5♠ 5♠ 5♠)``, ``going out``,
    ``returned by the void of #3``. ``played``: the rules of its hand, which name conditions."""
    if payment.rule == "condition" and payment.cards:
        found = condition_words(payment.cards, played) if played is not None else None
        named = found or rule("condition").name
        return say("{condition} ({cards})", condition=named, cards=meld_words(payment.cards))
    if payment.rule == "void" and payment.reverses is not None:
        return say("returned by the void of #{seq}", seq=payment.reverses[0])
    if payment.rule == "void_hand":
        return say("returned: the hand is void")
    return rule(payment.rule).name


@dataclass(frozen=True, slots=True)
class Member:
    """One party of a group: the payment's number in its event (the first, for a void's
    returns summed), the party (a seat number, "pot", "house"), in words, and its chips."""

    number: int
    party: rules.Party
    words: str
    chips: int


@dataclass(slots=True)
class PaymentGroup:
    """Payments of one event with one party in common.

    ``returns`` false: each member pays ``party`` (the same chips). True: ``party`` pays
    each member back what the void returns to it, in all.
    """

    party: str
    rule: str
    reason: str
    returns: bool = False
    members: list[Member] = field(default_factory=list)

    @property
    def others(self) -> list[str]:
        return [m.words for m in self.members]

    @property
    def chips(self) -> int:
        return self.members[0].chips

    def _who(self) -> str:
        """The members: one in words (``seat 3 (Cy)``); ``seats 2, 3 and 4`` when they are all
        seats; else each in words."""
        seats = [m.party for m in self.members]
        if len(seats) > 1 and all(isinstance(s, int) for s in seats):
            return seats_words([int(s) for s in seats])
        return join_words(self.others)

    def sentence(self) -> str:
        """``Seats 2, 3 and 4 each pay seat 1 (Rosa) 4 chips: going out.``"""
        fields = {"party": self.party, "chips": chips_words(self.chips), "why": self.reason}
        many = len(self.members) > 1
        if self.returns and many:
            said = say("{party} returns {chips} each to {whom}: {why}.", whom=self._who(), **fields)
        elif self.returns:
            said = say("{party} returns {chips} to {whom}: {why}.", whom=self._who(), **fields)
        elif many:
            said = say("{who} each pay {party} {chips}: {why}.", who=self._who(), **fields)
        else:
            said = say("{who} pays {party} {chips}: {why}.", who=self._who(), **fields)
        return capital(said)


def group_payments(
    payments: Sequence[rules.Payment], names: Mapping[int, str], played: rules.Rules
) -> list[PaymentGroup]:
    """The payments of one event in groups, in the order the engine made them (numbered from
    1): one group per party paid, chips and reason; a void's returns summed per party, then
    grouped by who returns them and how much."""
    groups: dict[tuple[object, ...], PaymentGroup] = {}
    key: tuple[object, ...]
    returned: dict[tuple[rules.Party, rules.Party], list[int]] = {}
    for number, p in enumerate(payments, start=1):
        if p.rule in RETURNS:
            returned.setdefault((p.payer, p.payee), []).append(number)
            continue
        payee = party_words(p.payee, names)
        why = payment_reason(p, played)
        # A payer twice in one group (two equal payments) starts another group.
        round_ = 0
        while (key := (payee, p.chips, p.rule, why, round_)) in groups and any(
            m.party == p.payer for m in groups[key].members
        ):
            round_ += 1
        group = groups.setdefault(key, PaymentGroup(payee, p.rule, why))
        group.members.append(Member(number, p.payer, party_words(p.payer, names), p.chips))
    for (giver, taker), numbers in returned.items():
        first = payments[numbers[0] - 1]
        chips = sum(payments[n - 1].chips for n in numbers)
        why = payment_reason(first, played)
        key = ("returns", giver, chips, why)
        group = groups.setdefault(
            key, PaymentGroup(party_words(giver, names), first.rule, why, returns=True)
        )
        group.members.append(Member(numbers[0], taker, party_words(taker, names), chips))
    return list(groups.values())


def payment_sentences(
    payments: Sequence[rules.Payment], names: Mapping[int, str], played: rules.Rules
) -> list[str]:
    """One sentence per group of payments, ready to read aloud; "No chips move." for none."""
    if not payments:
        return [say("No chips move.")]
    return [g.sentence() for g in group_payments(payments, names, played)]


def net_words(payments: Sequence[rules.Payment], names: Mapping[int, str]) -> list[str]:
    """Each party's net over ``payments``, largest gain first: ``seat 1 (Rosa) +12``."""
    totals = rules.total_by_party(payments)
    return [
        f"{party_words(party, names)} {balance_words(chips)}"
        for party, chips in sorted(totals.items(), key=lambda kv: -kv[1])
        if chips
    ]
