"""What was paid, by whom and why, in sentences a dealer can read aloud at the table.

Payments are grouped: the seats that pay the same party the same chips for the
same rule are named together ("Seats 2, 3, 4 and 6 each pay seat 1 4 chips").
The reason is the engine's own words; where those differ only by the payer (the
conditions paid again at going out), the group says it once for all of them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from dealer import rules

__all__ = [
    "Banner",
    "PaymentGroup",
    "banner",
    "group_payments",
    "join_words",
    "party_label",
    "payment_sentences",
]

#: Rules whose reason the engine words per payer; a group of them says it once for all.
GROUP_REASONS = {
    "conditions_again": "conditions paid again at going out: what each paid {payee} "
    "for conditions this hand",
}


def party_label(party: rules.Party | str, names: Mapping[int, str]) -> str:
    """``seat 3 (Cy)``, ``the pot`` or ``the house``."""
    if party in (rules.POT, "pot"):
        return "the pot"
    if party in (rules.HOUSE, "house"):
        return "the house"
    seat = int(party)
    name = names.get(seat)
    return f"seat {seat} ({name})" if name else f"seat {seat}"


def join_words(words: Sequence[str]) -> str:
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def _chips(n: int) -> str:
    return "1 chip" if n == 1 else f"{n} chips"


@dataclass(slots=True)
class PaymentGroup:
    """Payments of one rule, the same chips, to one party: ``members`` are (index, payer)."""

    payee: str
    chips: int
    rule: str
    reason: str
    members: list[tuple[int, str]] = field(default_factory=list)
    reasons: set[str] = field(default_factory=set)

    @property
    def payers(self) -> list[str]:
        return [payer for _index, payer in self.members]

    def sentence(self) -> str:
        who = join_words(self.payers)
        verb = "each pay" if len(self.members) > 1 else "pays"
        said = f"{verb} {self.payee} {_chips(self.chips)}. Why: {self.reason}."
        return f"{who[:1].upper()}{who[1:]} {said}"


def group_payments(
    payments: Sequence[rules.Payment], names: Mapping[int, str]
) -> list[PaymentGroup]:
    """The payments of one event in groups, in the order the engine made them (1-based index)."""
    groups: dict[tuple[str, int, str, str, int], PaymentGroup] = {}
    for index, p in enumerate(payments, start=1):
        payee = party_label(p.payee, names)
        payer = party_label(p.payer, names)
        wording = "" if p.rule in GROUP_REASONS else p.reason
        # A payer twice in one group (two equal payments) starts another group.
        round_ = 0
        while (key := (payee, p.chips, p.rule, wording, round_)) in groups and payer in groups[
            key
        ].payers:
            round_ += 1
        group = groups.get(key)
        if group is None:
            group = groups[key] = PaymentGroup(payee, p.chips, p.rule, p.reason)
        group.members.append((index, payer))
        group.reasons.add(p.reason)
    for group in groups.values():
        if len(group.reasons) > 1:
            group.reason = GROUP_REASONS[group.rule].format(payee=group.payee)
    return list(groups.values())


def payment_sentences(payments: Sequence[rules.Payment], names: Mapping[int, str]) -> list[str]:
    """One sentence per group of payments, ready to read aloud."""
    return [group.sentence() for group in group_payments(payments, names)]


@dataclass(frozen=True, slots=True)
class Banner:
    """The words shown after an action: what happened, each payment group, and the net."""

    title: str
    sentences: list[str]
    net: list[str]


def banner(record: rules.EventRecord, names: Mapping[int, str]) -> Banner:
    """The banner for one recorded event."""
    text = record.text
    title = f"{text[:1].upper()}{text[1:]}."
    sentences = payment_sentences(record.payments, names) or ["No chips move."]
    totals = rules.total_by_party(record.payments)
    net = [
        f"{party_label(party, names)} {chips:+d}"
        for party, chips in sorted(totals.items(), key=lambda kv: -kv[1])
        if chips
    ]
    return Banner(title, sentences, net)
