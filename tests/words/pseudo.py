"""A pseudo-language for the tests that look for English outside the message catalogue: every
message is its English source wrapped in ⟦ ⟧, so whatever is left outside a wrapped part once
the test's own names, figures and digests are taken out was written without the catalogue."""

from __future__ import annotations

import gettext
import re

from tests.helpers import PEOPLE
from tests.words.extraction import extracted

#: What the test's own world is called: it was typed in, not written by the documents.
NAMES = ("Table 1", "Table 2", "Ann", "Count again.", "wrong seat", "UTC")
NAMES += tuple(name for name, _ in PEOPLE.values())
#: A message, innermost first (a message's field may hold another message).
WRAPPED = re.compile(r"⟦[^⟦⟧]*⟧")
#: A message cut short by a clipped label or header: from its opening to the ellipsis (the
#: messages inside it cut short too: their closing brackets went with the rest).
CLIPPED = re.compile(r"⟦[^⟧]*?\.\.\.(?=⟧|\s|$)")
#: A hash, a key or a signature in hex (or a piece of one, wrapped in its cell): eight or
#: more hex digits, at least one of them a figure.
DIGEST = re.compile(r"(?<![0-9A-Za-z])(?=[0-9a-f]*[0-9])[0-9a-f]{8,}(?![0-9A-Za-z])")
WORD = re.compile(r"[A-Za-z]{2,}")
#: The test client's user agent, shown as the device a record came from: data, not words.
USER_AGENT = re.compile(r"Werkzeug/[\d.]+")


class Pseudo(gettext.NullTranslations):
    """A language in which every message is its English source in ⟦ ⟧, fields kept; every
    message asked for is kept in ``said`` (a plural's both forms)."""

    def __init__(self) -> None:
        super().__init__()
        self.said: set[str] = set()

    def gettext(self, message: str) -> str:
        self.said.add(message)
        return f"⟦{message}⟧"

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        self.said.update((msgid1, msgid2))
        return f"⟦{msgid1 if n == 1 else msgid2}⟧"

    def pgettext(self, context: str, message: str) -> str:
        self.said.add(message)
        return f"⟦{message}⟧"


def not_extracted(pseudo: Pseudo) -> list[str]:
    """The messages ``pseudo`` was asked for that the catalogue's extraction does not list."""
    return sorted(pseudo.said - extracted())


def left_over(text: str) -> str:
    """``text`` without its messages, the test's names and any digest, on one line."""
    while True:
        unwrapped = WRAPPED.sub(" ", CLIPPED.sub(" ", text))
        if unwrapped == text:
            break
        text = unwrapped
    text = " ".join(USER_AGENT.sub(" ", text).split())
    for name in NAMES:
        text = re.sub(rf"(?<!\w){re.escape(name)}(?!\w)", " ", text)
    return DIGEST.sub(" ", text)


def leaked(text: str) -> list[str]:
    """Each English word left over in ``text``, with what is around it."""
    rest = left_over(text)
    return [
        f"{m.group()!r} in {rest[max(0, m.start() - 25) : m.end() + 25]!r}"
        for m in WORD.finditer(rest)
    ]
