"""The message catalogue: every sentence passes through `say` (or `say_n` for a plural).

Messages are looked up in a gettext catalogue (``dealer/words/locale/<language>/LC_MESSAGES/
dealer.mo``), the format Babel and Flask-Babel read and write, chosen by ``DEALER_LANGUAGE``;
with none (English, the only language shipped), the English source is the message. The
standard library's `gettext` is used rather than Flask-Babel because the words are also made
where no request is (a document built on a worker thread, the command line) and no date or
number needs a locale's format yet; moving to Flask-Babel later changes this module only.

The source strings are ``str.format`` templates with named fields, so a translation may put
the fields in its own order: ``say("{who} pays {whom} {chips}", who=..., whom=..., chips=...)``.
A message that must be declared before it can be said (a form's label, written where its class
is declared, when no language is chosen yet) is marked with `say_later`, which returns it as it
is, and is said when it is shown (`dealer.screens.said_form`). The templates say theirs with the
same `say` and `say_n`, and `say_html` or `say_n_html` where a message holds markup.

Extract them with ``pybabel extract -F pyproject.toml -o dealer.pot .`` (the code's and the
templates' calls by these names, as ``[tool.babel]`` in pyproject.toml maps them).
"""

from __future__ import annotations

import gettext
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from markupsafe import Markup

__all__ = [
    "LOCALE_DIR",
    "language",
    "say",
    "say_html",
    "say_in",
    "say_later",
    "say_n",
    "say_n_html",
    "say_of",
    "use_catalogue",
    "use_language",
]

LOCALE_DIR = Path(__file__).with_name("locale")

_catalogue: gettext.NullTranslations = gettext.NullTranslations()
_language = "en"


def use_language(name: str | None, directory: Path = LOCALE_DIR) -> None:
    """Read every later sentence from the catalogue of ``name`` (None or "en": English)."""
    global _catalogue, _language
    name = (name or "en").strip() or "en"
    _catalogue = gettext.translation("dealer", directory, languages=[name], fallback=True)
    _language = name


@contextmanager
def use_catalogue(translations: gettext.NullTranslations) -> Iterator[None]:
    """While inside, every sentence is read from ``translations`` (a test's pseudo-language);
    the catalogue in use before comes back after."""
    global _catalogue
    before, _catalogue = _catalogue, translations
    try:
        yield
    finally:
        _catalogue = before


def language() -> str:
    return _language


def say(message: str, /, **fields: Any) -> str:
    """``message`` in the catalogue's language, its ``{fields}`` filled in."""
    found = _catalogue.gettext(message)
    return found.format(**fields) if fields else found


def say_n(singular: str, plural: str, count: int, /, **fields: Any) -> str:
    """The singular or plural form for ``count`` (the catalogue's own plural rule); ``count``
    is also a field of the message as ``{n}``."""
    return _catalogue.ngettext(singular, plural, count).format(n=count, **fields)


def say_later(message: str, /) -> str:
    """``message`` as it is: marks a message declared before it can be said (a form's label at
    its class), for the catalogue's extraction; whoever shows it says it then."""
    return message


def say_html(message: str, /, **fields: Any) -> Markup:
    """For a template: ``message`` in the catalogue's language as markup (the message's own tags
    kept), each field escaped unless it is markup itself."""
    return Markup(_catalogue.gettext(message)).format(**fields)


def say_n_html(singular: str, plural: str, count: int, /, **fields: Any) -> Markup:
    """`say_html` for a count: the singular or plural message as markup, ``{n}`` the count,
    each field escaped unless it is markup itself."""
    return Markup(_catalogue.ngettext(singular, plural, count)).format(n=count, **fields)


def say_in(context: str, message: str, /, **fields: Any) -> str:
    """`say` for a message whose words mean something else elsewhere (the app's name "dealer"
    and the role): ``context`` tells them apart in the catalogue (gettext's msgctxt)."""
    found = _catalogue.pgettext(context, message)
    return found.format(**fields) if fields else found


def say_of(table: Mapping[str, str], key: str, otherwise: str | None = None) -> str:
    """The message ``table`` names ``key`` by (a table of `say_later` messages, as a code's
    words: a status, a role, a check), said; ``otherwise`` (a message too) for a key the table
    lacks, or KeyError when there is none."""
    message = table.get(key, otherwise)
    if message is None:
        raise KeyError(key)
    return say(message)
