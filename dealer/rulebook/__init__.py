"""The texts the app cites its rules from: its own copy of PAN_RULES.md's sections.

The app carries its own copy of sections 1 to 8 (``pan_rules.md``, read once, never from
outside the package) and serves them (``/rules/<n>``), so a rule named on a screen links to
its text. Each rule's name and explanation in words, and its section, are the vocabulary's
(`dealer.words.rules`). On the screens each section's title, and each paragraph, list item and
table cell of its text, is a message of the catalogue (`dealer.screens.desk`), so a language's
catalogue translates the rules too: they are not in the code, so the catalogue's extraction
reads this file with `extract_messages` (``[tool.babel]`` in pyproject.toml maps it).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import IO, Any, Literal

from dealer.errors import NotFound
from dealer.words.catalogue import say

__all__ = [
    "Block",
    "RuleSection",
    "block",
    "extract_messages",
    "rule_section",
    "rule_sections",
    "said_piece",
]

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


@dataclass(frozen=True, slots=True)
class Block:
    """One block of the rules' markdown, in pieces: a ``table`` (its header's cells, then each
    row's), a ``list`` (each item's number, blank for a bullet, and its text) or a
    ``paragraph`` (one piece). Each piece is one message of the catalogue."""

    kind: Literal["table", "list", "paragraph"]
    rows: tuple[tuple[str, ...], ...] = ()
    items: tuple[tuple[str, str], ...] = ()
    text: str = ""

    def pieces(self) -> Iterator[str]:
        """Every piece of text this block says, in order."""
        for row in self.rows:
            yield from row
        for _number, text in self.items:
            yield text
        if self.text:
            yield self.text


def block(text: str) -> Block:
    """A markdown block of the rules in its pieces (`Block`)."""
    lines = text.splitlines()
    if lines[0].startswith("|"):
        rows = [
            tuple(c.strip() for c in ln.strip("|").split("|")) for ln in lines if "---" not in ln
        ]
        return Block("table", rows=tuple(rows))
    items: list[tuple[str, list[str]]] = []
    for line in lines:
        numbered = re.match(r"^(\d+)\. (.*)$", line)
        if numbered or line.startswith("- "):
            items.append((numbered[1] if numbered else "", [numbered[2] if numbered else line[2:]]))
        elif items and line.startswith(" "):
            items[-1][1].append(line.strip())
        else:
            items.append(("text", [line]))
    if all(kind != "text" for kind, _ in items):
        return Block("list", items=tuple((kind, " ".join(words)) for kind, words in items))
    return Block("paragraph", text=" ".join(line.strip() for line in lines))


def extract_messages(
    fileobj: IO[bytes], keywords: Any, comment_tags: Any, options: Any
) -> Iterator[tuple[int, None, str, list[str]]]:
    """Babel's extraction method for the rules' text: each section's title and each piece of
    its blocks, as the rules' screen says them, each at its block's line (``fileobj`` is this
    package's pan_rules.md)."""
    del fileobj, keywords, comment_tags, options  # the text is the package's own copy
    whole = TEXT.read_text(encoding="utf-8")

    def line_of(text: str) -> int:
        return whole.count("\n", 0, max(whole.find(text), 0)) + 1

    for section in rule_sections().values():
        yield line_of(f"## {section.number}. {section.title}"), None, section.title, []
        for text in section.blocks:
            line = line_of(text)
            for piece in block(text).pieces():
                if said_piece(piece):
                    yield line, None, piece, []


def said_piece(piece: str) -> bool:
    """Whether a piece of the rules' text is words to say (a figure alone, ``320``, is not)."""
    return any(c.isalpha() for c in piece)
