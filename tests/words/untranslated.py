"""English left untranslated in words drawn in a shipped language: a piece of text (a page's
text node or attribute, a document's line, an API refusal's message) that is one of the
catalogue's English messages, or holds one of three words or more, where the language's
translation differs from it. A message's ``{fields}`` match anything. A message translated as
its own English words is allowed only where `SAME_WORDS` lists it, with its reason."""

from __future__ import annotations

import re
import string
from dataclasses import dataclass
from functools import cache
from html import unescape
from pathlib import Path

from babel.messages.pofile import read_po

from dealer.words.catalogue import LOCALE_DIR
from tests.words.pseudo import NAMES

#: The English words a language's catalogue keeps as they are (its GLOSSARY.md), and why: a
#: message translated as its own English words is allowed when each of its words is one of them.
KEPT_WORDS: dict[str, tuple[str, str]] = {
    "es": ("pin ok total rake ante hash id pan no", "the same word in Spanish, or the floor's"),
    "fil": (
        "pin ok total rake ante hash id pan meld set run valle tops pot drop foul void jack deal"
        " shoe profile setting settings stack rebuy down admin floor cage house tray box chips"
        " chip buy in cash out dispute ledger entry checkpoint statement slip shift tablet"
        " device audit trail misdeal suit classic card room fifteen dealer supervisor net"
        " status role override account user link signing key head trial balance csv reprint"
        " pad seed seeds",
        "the loanwords a Philippine card room and app use (fil/GLOSSARY.md)",
    ),
}
#: Messages translated as their English words for a reason of their own, per language.
SAME_WORDS: dict[str, dict[str, str]] = {
    "es": {
        "dealer": "the app's name (es/GLOSSARY.md: the app's name stays dealer)",
        "supervisor": "the same word in Spanish",
        "Cond.": "the abbreviation of condición too",
        "California:": "a place's name",
    },
    "fil": {"California:": "a place's name"},
}
#: An English word of a message: what makes a message English rather than figures or fields.
WORD = re.compile(r"[A-Za-z]{2,}")
#: The text between a page's tags, script and style aside.
TAG = re.compile(r"<[^>]+>")
HIDDEN = re.compile(r"<(script|style)[^>]*>.*?</\1>", re.S | re.I)
READ = re.compile(r'\s(?:placeholder|title|aria-label|alt)="([^"]*)"', re.I)
#: A button drawn as an input: its value is its words.
BUTTON = re.compile(r'<input[^>]*type="(?:submit|button|reset)"[^>]*>', re.I)
VALUE = re.compile(r'\svalue="([^"]*)"', re.I)
#: An element in a language of its own (a language offered in its own name), the root aside.
OWN_LANGUAGE = re.compile(r'<(?!html\b)([a-z]+)\b[^>]*\slang="[^"]*"[^>]*>.*?</\1>', re.I | re.S)


def pattern(message: str) -> str:
    """``message`` as a regex, each of its fields a wildcard."""
    parts = []
    for literal, field, _, _ in string.Formatter().parse(message):
        parts.append(re.escape(literal))
        if field is not None:
            parts.append(".+?")
    return "".join(parts)


def literal(message: str) -> str:
    """``message``'s own words: its fields, its markup and its codes in backticks left out."""
    text = "".join(part for part, _, _, _ in string.Formatter().parse(message))
    return re.sub(r"`[^`]*`", " ", TAG.sub(" ", text))


def kept_as_english(language: str) -> list[str]:
    """The messages ``language`` translates as their English words, with neither each of
    their words kept by its glossary (`KEPT_WORDS`) nor a reason of their own (`SAME_WORDS`)."""
    kept = set(KEPT_WORDS[language][0].split())
    return sorted(
        message
        for message, translations in entries(language)
        if message in translations
        and message not in SAME_WORDS[language]
        and not {word.lower() for word in WORD.findall(literal(message))} <= kept
    )


def entries(language: str) -> list[tuple[str, tuple[str, ...]]]:
    """Each English message of ``language``'s catalogue with its translations (a plural's
    forms), fuzzy or empty ones as none."""
    with (LOCALE_DIR / language / "LC_MESSAGES" / "dealer.po").open("rb") as file:
        catalogue = read_po(file, locale=language)
    found = []
    for message in catalogue:
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        kept = () if message.fuzzy else tuple(s for s in strings if s)
        found.extend((i, kept) for i in ids)
    return found


#: Every piece of text any checker found, in the order found (`bench.languages` counts them).
FOUND: list[str] = []


@dataclass(frozen=True)
class Checker:
    """The English messages a text in one language must not hold."""

    whole: re.Pattern[str]  # a piece of text that is a message
    inside: re.Pattern[str] | None  # one that holds a message of three words or more

    def untranslated(self, pieces: list[str]) -> list[str]:
        """Each piece of text that is, or holds, an English message left untranslated (the
        names the test's world was given taken out: they were typed in, not said)."""
        found = []
        for piece in pieces:
            piece = " ".join(piece.split())
            for name in NAMES:
                piece = re.sub(rf"(?<!\w){re.escape(name)}(?!\w)", " ", piece).strip()
            if not WORD.search(piece):
                continue
            if self.whole.fullmatch(piece) or (self.inside and self.inside.search(piece)):
                found.append(piece)
        FOUND.extend(found)
        return found


@cache
def checker(language: str) -> Checker:
    """The checker of text drawn in ``language``."""
    found = entries(language)
    said = {translation for _, translations in found for translation in translations}
    kept = set(KEPT_WORDS[language][0].split())

    def told_apart(message: str) -> bool:
        """A message with a word its language does not keep: one made only of kept words
        (fil: "{n} chips") reads the same as its translation's words."""
        return bool({word.lower() for word in WORD.findall(literal(message))} - kept)

    english = {
        message
        for message, translations in found
        if told_apart(message) and message not in translations and message not in said
    }
    ordered = sorted(english, key=len, reverse=True)
    whole = "|".join(pattern(m) for m in ordered)
    long = [m for m in ordered if len(WORD.findall(m)) >= 3]
    # inside a longer piece, a message's fields at either end are left to the piece
    cores = {pattern(m).removeprefix(".+?").removesuffix(".+?") for m in long}
    inside = "|".join(rf"(?<![\w]){core}(?![\w])" for core in sorted(cores, key=len, reverse=True))
    return Checker(re.compile(whole, re.S), re.compile(inside, re.S) if inside else None)


def page_pieces(html: str) -> list[str]:
    """A page's text nodes and the attributes a person reads or hears (a button's value)."""
    html = HIDDEN.sub(" ", OWN_LANGUAGE.sub(" ", html))
    texts = [unescape(text) for text in TAG.split(html)]
    read = [unescape(v) for tag in TAG.findall(html) for v in READ.findall(tag)]
    read += [unescape(v) for tag in BUTTON.findall(html) for v in VALUE.findall(tag)]
    return [t for t in texts + read if t.strip()]


def lines(text: str) -> list[str]:
    """A document's extracted text, line by line (the names the test's world was given taken
    out first: a narrow cell may break one over two lines)."""
    for name in NAMES:
        words = r"\s+".join(re.escape(word) for word in name.split())
        text = re.sub(rf"(?<!\w){words}(?!\w)", " ", text)
    return [line for line in text.splitlines() if line.strip()]


def translated_pct(language: str) -> float:
    """The share of ``language``'s messages translated (not fuzzy, not empty), in percent."""
    found = entries(language)
    done = sum(1 for _, translations in found if translations)
    return round(100 * done / len(found), 2) if found else 0.0


def fields_and_tags(message: str) -> tuple[set[str], set[str]]:
    """A message's fields (their names and formats: ``{old:,}``) and its markup's tags."""
    fields = {
        f"{name}:{spec}"
        for _, name, spec, _ in string.Formatter().parse(message)
        if name is not None
    }
    return fields, set(re.findall(r"</?[a-z]+\b", message))


def broken_translations(path: Path, language: str) -> list[str]:
    """Each message of the catalogue at ``path`` that is fuzzy, untranslated, or translated
    without its fields and tags as they are (a plural's forms: those of either English form)."""
    with path.open("rb") as file:
        catalogue = read_po(file, locale=language)
    broken = []
    for message in catalogue:
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        if message.fuzzy or not all(strings):
            broken.append(f"{ids[0]!r}: {'fuzzy' if message.fuzzy else 'untranslated'}")
            continue
        wanted = [fields_and_tags(i) for i in ids]
        for said in strings:
            try:
                found = fields_and_tags(said)
            except ValueError as error:
                broken.append(f"{ids[0]!r}: {said!r} ({error})")
                continue
            if found not in wanted:
                broken.append(f"{ids[0]!r}: {said!r}")
    return broken
