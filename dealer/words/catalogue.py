"""The message catalogue: every sentence passes through `say` (or `say_n` for a plural).

Messages are looked up in a gettext catalogue (``dealer/words/locale/<language>/LC_MESSAGES/
dealer.mo``), the format Babel reads and writes; with none for a language (English is the
source), the English source is the message. The language is chosen per context, not per
process: a `contextvars.ContextVar` holds it, so each request (the web layer's selector,
`dealer.web.language`) and each thread speaks its own, and the floor's default
(``DEALER_LANGUAGE``, `use_language`) is what a context that chose none speaks. Work made off a
request (a document built on a worker thread, the command line) speaks the language of who asked
for it: its caller passes the language and the work runs inside `speaking`.

Babel (its locale data, plural rules and number formats) with this selector of our own, rather
than Flask-Babel: Flask-Babel keeps its locale on the request and the app context, and the words
are also made where no request is (a document's thread, the command line, the engine's refusals
said at the door); a context variable works in all of them alike, and the stdlib's `gettext`
reads Babel's compiled catalogues as they are. Numbers are written by Babel for the language
(`number`), and so is a whole number a message groups (``{amount:,}``, ``{variance:+,}``: `say`
hands each plain int field over as a `Figure`); each language is named in its own words
(`language_name`).

The source strings are ``str.format`` templates with named fields, so a translation may put
the fields in its own order: ``say("{who} pays {whom} {chips}", who=..., whom=..., chips=...)``.
A message that must be declared before it can be said (a form's label, written where its class
is declared, when no language is chosen yet) is marked with `say_later`, which returns it as it
is, and is said when it is shown (`dealer.screens.said_form`). The templates say theirs with the
same `say` and `say_n`, and `say_html` or `say_n_html` where a message holds markup.

``make translations`` extracts them (``pybabel extract -F pyproject.toml``: the code's and the
templates' calls by these names, as ``[tool.babel]`` in pyproject.toml maps them), updates every
language's catalogue and compiles it.
"""

from __future__ import annotations

import gettext
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar, Token
from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache
from pathlib import Path
from typing import Any

from babel import Locale, UnknownLocaleError
from babel.numbers import format_decimal
from markupsafe import Markup

LOCALE_DIR = Path(__file__).with_name("locale")

#: The language messages are written in, in the code and the templates.
SOURCE = "en"


@dataclass(frozen=True, slots=True)
class Spoken:
    """A language and its catalogue."""

    name: str
    catalogue: gettext.NullTranslations


@lru_cache(maxsize=16)
def _spoken(name: str, directory: Path) -> Spoken:
    found = gettext.translation("dealer", directory, languages=[name], fallback=True)
    return Spoken(name, found)


def spoken(name: str | None) -> Spoken:
    """The language ``name`` (None or empty: English) and its catalogue, read once."""
    return _spoken((name or SOURCE).strip() or SOURCE, LOCALE_DIR)


#: The floor's default (``DEALER_LANGUAGE``): what a context that chose none speaks.
_floor = Spoken(SOURCE, gettext.NullTranslations())
#: This context's choice (a request's, a document's thread's), if it made one.
_chosen: ContextVar[Spoken | None] = ContextVar("dealer_language", default=None)
#: A test's catalogue (the pseudo-language), above every choice while it is in use.
_forced: Spoken | None = None


def _now() -> Spoken:
    return _forced or _chosen.get() or _floor


def use_language(name: str | None) -> None:
    """The floor's default: every context that chooses none reads from the catalogue of
    ``name`` (None or "en": English)."""
    global _floor
    _floor = spoken(name)


def choose_language(name: str | None) -> Token[Spoken | None]:
    """From now on this context speaks ``name`` (None: the floor's default); the token gives
    back the language spoken before (`forget_language`)."""
    return _chosen.set(spoken(name) if name else None)


def forget_language(token: Token[Spoken | None]) -> None:
    """This context speaks again what it spoke before `choose_language` gave ``token``."""
    _chosen.reset(token)


@contextmanager
def speaking(name: str | None) -> Iterator[None]:
    """While inside, this context (a request, a thread, a command) speaks ``name`` (None: the
    language it speaks now); the language spoken before comes back after."""
    token = _chosen.set(spoken(name) if name else _chosen.get())
    try:
        yield
    finally:
        forget_language(token)


@contextmanager
def use_catalogue(translations: gettext.NullTranslations) -> Iterator[None]:
    """While inside, every sentence is read from ``translations`` (a test's pseudo-language),
    whatever a request chooses; the catalogue in use before comes back after."""
    global _forced
    before, _forced = _forced, Spoken(_now().name, translations)
    try:
        yield
    finally:
        _forced = before


def language() -> str:
    """The language this context speaks (its code: ``en``, ``es``, ``fil``)."""
    return _now().name


def languages() -> list[str]:
    """The languages shipped: English and each one with a compiled catalogue."""
    return _languages(LOCALE_DIR)


@lru_cache(maxsize=4)
def _languages(directory: Path) -> list[str]:
    found = {p.parent.parent.name for p in directory.glob("*/LC_MESSAGES/dealer.mo")}
    return sorted(found | {SOURCE})


def language_name(code: str) -> str:
    """A language named in its own words, from Babel's locale data: ``Español``, ``Filipino``,
    ``English``; the code itself for one Babel does not know."""
    try:
        own = Locale.parse(code).get_display_name(code) or code
    except (ValueError, UnknownLocaleError):
        return code
    return own[:1].upper() + own[1:]


def number(value: int | Decimal, signed: bool = False, places: int = 0) -> str:
    """``value`` written as the language writes numbers (``1,200`` in English), with ``places``
    decimals and a sign when ``signed`` and not zero."""
    pattern = None if not places else "#,##0." + "0" * places
    written = format_decimal(-value if value < 0 else value, pattern, locale=locale())
    if value < 0:
        return "-" + written
    return "+" + written if signed and value else written


def locale() -> Locale:
    """Babel's data (numbers, dates) for the language this context speaks."""
    return _locale(language())


@lru_cache(maxsize=16)
def _locale(code: str) -> Locale:
    try:
        return Locale.parse(code)
    except (ValueError, UnknownLocaleError):
        return Locale.parse(SOURCE)


class Figure(int):
    """A whole number in a message: grouped (``{amount:,}``, signed ``{variance:+,}``) as the
    language groups digits (``12,000`` in English, ``12.000`` in Spanish); any other way
    (``{id}``, ``{chips:+}``) as Python writes it. The English message and its translations
    carry the same fields, so neither names the language's separator."""

    __slots__ = ()

    def __format__(self, spec: str) -> str:
        if spec in (",", "+,"):
            return number(int(self), signed=spec == "+,")
        return int.__format__(self, spec)


def _figures(fields: Mapping[str, Any]) -> dict[str, Any]:
    # Only a plain int: a bool or an enum keeps its own way of being written.
    return {k: Figure(v) if type(v) is int else v for k, v in fields.items()}


def say(message: str, /, **fields: Any) -> str:
    """``message`` in the catalogue's language, its ``{fields}`` filled in."""
    found = _now().catalogue.gettext(message)
    return found.format(**_figures(fields)) if fields else found


def say_n(singular: str, plural: str, count: int, /, **fields: Any) -> str:
    """The singular or plural form for ``count`` (the catalogue's own plural rule); ``count``
    is also a field of the message as ``{n}``."""
    said = _now().catalogue.ngettext(singular, plural, count)
    return said.format(**_figures({"n": count, **fields}))


def say_later(message: str, /) -> str:
    """``message`` as it is: marks a message declared before it can be said (a form's label at
    its class), for the catalogue's extraction; whoever shows it says it then."""
    return message


def say_html(message: str, /, **fields: Any) -> Markup:
    """For a template: ``message`` in the catalogue's language as markup (the message's own tags
    kept), each field escaped unless it is markup itself."""
    return Markup(_now().catalogue.gettext(message)).format(**_figures(fields))


def say_n_html(singular: str, plural: str, count: int, /, **fields: Any) -> Markup:
    """`say_html` for a count: the singular or plural message as markup, ``{n}`` the count,
    each field escaped unless it is markup itself."""
    said = Markup(_now().catalogue.ngettext(singular, plural, count))
    return said.format(**_figures({"n": count, **fields}))


def say_in(context: str, message: str, /, **fields: Any) -> str:
    """`say` for a message whose words mean something else elsewhere (the app's name "dealer"
    and the role): ``context`` tells them apart in the catalogue (gettext's msgctxt)."""
    found = _now().catalogue.pgettext(context, message)
    return found.format(**_figures(fields)) if fields else found


def say_of(table: Mapping[str, str], key: str, otherwise: str | None = None) -> str:
    """The message ``table`` names ``key`` by (a table of `say_later` messages, as a code's
    words: a status, a role, a check), said; ``otherwise`` (a message too) for a key the table
    lacks, or KeyError when there is none."""
    message = table.get(key, otherwise)
    if message is None:
        raise KeyError(key)
    return say(message)
