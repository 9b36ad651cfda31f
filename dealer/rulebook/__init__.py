"""The rules the app cites, in a dealer's words, and the texts it cites them from.

Each payment rule of the engine (``collection``, ``conditions_again`` ...) has a name a
dealer says ("conditions paid again"), a sentence that explains it, and the section of
PAN_RULES.md behind it. The app carries its own copy of those sections (``pan_rules.md``,
read once, never from outside the package) and serves them (``/rules/<n>``), so a rule
named on a screen links to its text. Engine codes never reach a screen: they come here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import get_args

from dealer.errors import NotFound
from dealer.rules.payments import PaymentRule

__all__ = ["HAND_RULES", "RULES", "Rule", "RuleSection", "rule", "rule_section", "rule_sections"]

TEXT = Path(__file__).with_name("pan_rules.md")


@dataclass(frozen=True, slots=True)
class Rule:
    """A payment rule as a dealer says it, and where the rules say it."""

    code: str
    #: What it is called in a sentence: "seat 3 paid seat 1 2 going out".
    name: str
    #: The rule, explained.
    words: str
    #: Its place in PAN_RULES.md: "5.4" is section 5, item 4.
    section: str

    @property
    def number(self) -> int:
        return int(self.section.split(".")[0])

    @property
    def item(self) -> int | None:
        _, _, item = self.section.partition(".")
        return int(item) if item else None


RULES: dict[str, Rule] = {
    r.code: r
    for r in (
        Rule(
            "collection",
            "house collection",
            "The house's collection: a fixed fee per hand paid by each seat dealt in before the "
            "deal, or the time collection from each seated player.",
            "6",
        ),
        Rule("ante", "ante", "Each seat dealt in antes into the hand's pot.", "5.1"),
        Rule(
            "drop_forfeit",
            "drop forfeit",
            "A seat that drops before the first meld pays the drop forfeit (the tops) into the "
            "pot.",
            "5.2",
        ),
        Rule(
            "condition",
            "conditions",
            "When a condition is laid or grows, every paying seat pays the rise of its value "
            "above its paid level, at once.",
            "4",
        ),
        Rule(
            "going_out",
            "going out",
            "Each other paying seat pays the seat that goes out the going-out chips.",
            "5.4",
        ),
        Rule(
            "conditions_again",
            "conditions paid again",
            "At going out, each paying seat pays the winner again what it paid the winner for "
            "conditions during the hand, net of anything returned.",
            "5.4",
        ),
        Rule(
            "pot",
            "the pot",
            "The seat that goes out, or the last seat left in, takes the pot.",
            "5.4",
        ),
        Rule(
            "rake",
            "rake",
            "The house takes a percent of the winner's collection, rounded down, at most the "
            "cap. Never allowed in California card rooms.",
            "6",
        ),
        Rule(
            "foul_refund",
            "foul refund",
            "A fouled seat pays back every condition chip it collected this hand, and keeps "
            "paying the others.",
            "7",
        ),
        Rule(
            "penalty",
            "discard penalty",
            "The seat that discarded the card the winner went out on pays each other losing "
            "seat, except the winner, its loss for the hand.",
            "7",
        ),
        Rule(
            "void",
            "returned by a void",
            "A voided event's payments are returned by new entries that point at the ones they "
            "reverse; nothing is deleted.",
            "7",
        ),
        Rule(
            "void_hand",
            "returned when the hand was voided",
            "A supervisor voids the whole hand: every entry of the hand is returned, antes and "
            "collections included.",
            "7",
        ),
        Rule("buy_in", "buy-in", "Chips bought at the table.", "6"),
        Rule("cash_out", "cash-out", "Chips cashed out when the player leaves.", "6"),
    )
}


#: The rules a hand's payment is made under (the engine's codes), in the engine's order.
HAND_RULES = get_args(PaymentRule)


def rule(code: str) -> Rule:
    """The rule ``code`` in words; a code the app does not know is named as itself."""
    return RULES.get(code) or Rule(code, code.replace("_", " "), "", "")


@dataclass(frozen=True, slots=True)
class RuleSection:
    """One section of the rules: its number, title, and its text in blocks."""

    number: int
    title: str
    #: Markdown blocks, as written (paragraphs, lists, tables).
    blocks: tuple[str, ...]


@lru_cache(maxsize=1)
def rule_sections() -> dict[int, RuleSection]:
    """Every section of the app's copy of the rules, by number."""
    found: dict[int, RuleSection] = {}
    parts = re.split(r"^## (\d+)\. (.+)$", TEXT.read_text(encoding="utf-8"), flags=re.M)
    for number, title, body in zip(parts[1::3], parts[2::3], parts[3::3], strict=True):
        blocks = tuple(b.strip() for b in re.split(r"\n\s*\n", body) if b.strip())
        found[int(number)] = RuleSection(int(number), title.strip(), blocks)
    return found


def rule_section(number: int) -> RuleSection:
    section = rule_sections().get(number)
    if section is None:
        raise NotFound(f"The rules have no section {number}.", "unknown_section")
    return section
