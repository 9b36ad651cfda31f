"""The texts the app cites its rules from: its own copy of PAN_RULES.md's sections.

The app carries its own copy of sections 1 to 8 (``pan_rules.md``, read once, never from
outside the package) and serves them (``/rules/<n>``), so a rule named on a screen links to
its text. Each rule's name and explanation in words, and its section, are the vocabulary's
(`dealer.words.rules`). On the screens each section's title, and each paragraph, list item and
table cell of its text, is a message of the catalogue (`dealer.screens.desk`), so a language's
catalogue translates the rules too (they are not in the code: extracting the messages must
read this file as well).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from dealer.errors import NotFound
from dealer.words.catalogue import say

__all__ = ["RuleSection", "rule_section", "rule_sections"]

TEXT = Path(__file__).with_name("pan_rules.md")


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
        raise NotFound(say("The rules have no section {number}.", number=number), "unknown_section")
    return section
