"""What was paid, by whom and why, in sentences a dealer can read aloud at the table.

Payments are grouped: the seats that pay the same party the same chips for the
same reason are named together ("Seats 2, 3, 4 and 6 each pay seat 1 4 chips").
The reason is the engine's own words; where those differ only by the payer (the
conditions paid again at going out), the group says it once for all of them. A
void's returns are said as what each party gets back in all.
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
#: Payments that return earlier ones: grouped by who returns them.
RETURNS = frozenset({"void", "void_hand"})


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


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


@dataclass(slots=True)
class PaymentGroup:
    """Payments with one party in common: ``members`` are (payment number, other party, chips).

    ``returns`` false: each member pays ``party`` (the same chips). True: ``party``
    pays each member back (a void's returns).
    """

    party: str
    rule: str
    reason: str
    returns: bool = False
    members: list[tuple[int, str, int]] = field(default_factory=list)
    reasons: set[str] = field(default_factory=set)

    @property
    def others(self) -> list[str]:
        return [other for _n, other, _c in self.members]

    @property
    def chips(self) -> int:
        return self.members[0][2]

    def sentence(self) -> str:
        who = join_words(self.others)
        verb = "each pay" if len(self.members) > 1 else "pays"
        return f"{_capital(who)} {verb} {self.party} {_chips(self.chips)}. Why: {self.reason}."


def group_payments(
    payments: Sequence[rules.Payment], names: Mapping[int, str]
) -> list[PaymentGroup]:
    """The payments of one event in groups, in the order the engine made them (numbered from 1)."""
    groups: dict[tuple[object, ...], PaymentGroup] = {}
    for number, p in enumerate(payments, start=1):
        payer, payee = party_label(p.payer, names), party_label(p.payee, names)
        if p.rule in RETURNS:
            seq = p.reverses[0] if p.reverses else 0
            why = f"returned by the void of event {seq}" if p.rule == "void" else "the hand is void"
            key: tuple[object, ...] = (payer, p.rule, why)
            group = groups.setdefault(key, PaymentGroup(payer, p.rule, why, returns=True))
            group.members.append((number, payee, p.chips))
            continue
        wording = "" if p.rule in GROUP_REASONS else p.reason
        # A payer twice in one group (two equal payments) starts another group.
        round_ = 0
        while (key := (payee, p.chips, p.rule, wording, round_)) in groups and payer in groups[
            key
        ].others:
            round_ += 1
        group = groups.setdefault(key, PaymentGroup(payee, p.rule, p.reason))
        group.members.append((number, payer, p.chips))
        group.reasons.add(p.reason)
    for group in groups.values():
        if len(group.reasons) > 1:
            group.reason = GROUP_REASONS[group.rule].format(payee=group.party)
    return list(groups.values())


def _return_sentences(payments: Sequence[rules.Payment], names: Mapping[int, str]) -> list[str]:
    """What each party gets back in all: "Seat 1 returns 6 chips each to seat 2 and seat 3"."""
    owed: dict[tuple[str, str], int] = {}
    for p in payments:
        pair = (party_label(p.payer, names), party_label(p.payee, names))
        owed[pair] = owed.get(pair, 0) + p.chips
    by_amount: dict[tuple[str, int], list[str]] = {}
    for (payer, payee), chips in owed.items():
        by_amount.setdefault((payer, chips), []).append(payee)
    return [
        f"{_capital(payer)} returns {_chips(chips)} {'each ' if len(payees) > 1 else ''}"
        f"to {join_words(payees)}."
        for (payer, chips), payees in by_amount.items()
    ]


def payment_sentences(payments: Sequence[rules.Payment], names: Mapping[int, str]) -> list[str]:
    """One sentence per group of payments, ready to read aloud."""
    if payments and all(p.rule in RETURNS for p in payments):
        return _return_sentences(payments, names)
    return [group.sentence() for group in group_payments(payments, names)]


@dataclass(frozen=True, slots=True)
class Banner:
    """The words shown after an action: what happened, each payment group, and the net."""

    title: str
    sentences: list[str]
    net: list[str]


def banner(record: rules.EventRecord, names: Mapping[int, str], engine: rules.Hand) -> Banner:
    """The banner for one recorded event of ``engine``'s hand."""
    title = _capital(record.text) + "."
    action = record.action
    if isinstance(action, rules.Void):
        target = engine.event(action.event)
        title = f"Void of event {target.seq} ({target.text}). Reason: {action.reason}."
    elif isinstance(action, rules.VoidHand):
        title = f"The hand is void. Reason: {action.reason}."
    sentences = payment_sentences(record.payments, names) or ["No chips move."]
    totals = rules.total_by_party(record.payments)
    net = [
        f"{party_label(party, names)} {chips:+d}"
        for party, chips in sorted(totals.items(), key=lambda kv: -kv[1])
        if chips
    ]
    return Banner(title, sentences, net)
