"""The shipped catalogues (Spanish, Filipino) compiled from their ``.po`` files for a test, in
memory, so a test reads a screen's or a sentence's words as a reader of that language does."""

from __future__ import annotations

import gettext
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from io import BytesIO

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from dealer.words.catalogue import LOCALE_DIR, use_catalogue

#: The languages shipped besides English.
SHIPPED = ("es", "fil")


@cache
def compiled(language: str) -> gettext.GNUTranslations:
    """``language``'s catalogue as ``pybabel compile`` makes it (fuzzy entries left out)."""
    with (LOCALE_DIR / language / "LC_MESSAGES" / "dealer.po").open("rb") as file:
        catalogue = read_po(file, locale=language)
    mo = BytesIO()
    write_mo(mo, catalogue)
    mo.seek(0)
    return gettext.GNUTranslations(mo)


@contextmanager
def speaking(language: str) -> Iterator[None]:
    """While inside, every sentence is said in ``language`` ("en": the English source)."""
    translations = gettext.NullTranslations() if language == "en" else compiled(language)
    with use_catalogue(translations):
        yield
