"""What was paid, by whom and why, in sentences a dealer can read aloud at the table."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from dealer import rules

__all__ = ["Banner", "banner", "join_words", "party_label", "payment_sentences"]


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


def payment_sentences(payments: Sequence[rules.Payment], names: Mapping[int, str]) -> list[str]:
    """One sentence per group of payers paying the same chips to the same party for one reason."""
    groups: dict[tuple[str, int, str], list[str]] = {}
    for p in payments:
        groups.setdefault((party_label(p.payee, names), p.chips, p.reason), []).append(
            party_label(p.payer, names)
        )
    out = []
    for (payee, chips, reason), payers in groups.items():
        verb = "each pay" if len(payers) > 1 else "pays"
        who = join_words(payers)
        out.append(f"{who[:1].upper()}{who[1:]} {verb} {payee} {_chips(chips)}. Why: {reason}.")
    return out


@dataclass(frozen=True, slots=True)
class Banner:
    """The words shown after an action: what happened, each payment group, and the net."""

    title: str
    sentences: list[str]
    net: list[str]
    tone: str = "done"


def banner(record: rules.EventRecord, names: Mapping[int, str]) -> Banner:
    """The banner for one recorded event."""
    text = record.text
    title = f"{text[:1].upper()}{text[1:]}."
    sentences = payment_sentences(record.payments, names)
    if not sentences:
        sentences = ["No chips move."]
    totals = rules.total_by_party(record.payments)
    net = [
        f"{party_label(party, names)} {chips:+d}"
        for party, chips in sorted(totals.items(), key=lambda kv: -kv[1])
        if chips
    ]
    return Banner(title, sentences, net)
