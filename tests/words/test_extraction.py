"""The catalogue's extraction finds the messages of the code, the forms and the templates, so a
translator is given every one (the screens' and documents' catalogue tests also hold every
message they said to it)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from babel.messages.catalog import Message
from babel.messages.pofile import read_po

from dealer.words.catalogue import LOCALE_DIR
from tests.words.extraction import ROOT, extracted
from tests.words.languages import SHIPPED
from tests.words.untranslated import broken_translations, kept_as_english, translated_pct


def test_the_extraction_finds_every_kind_of_message() -> None:
    found = extracted()
    assert "Seat the player" in found  # a template's
    assert "Chips in the tray" in found  # a form's label, marked say_later
    assert "Packs in the shoe" in found  # the vocabulary's knob names, marked say_later
    assert {"{count} chip", "{count} chips"} <= found  # a plural, both forms
    assert "Page {page} of {pages}" in found  # a document's


def said_in_f_strings(source: str) -> list[int]:
    """The lines where a message is said inside an f-string's braces: the extraction cannot
    read it there."""
    return [
        node.lineno
        for string in ast.walk(ast.parse(source))
        if isinstance(string, ast.JoinedStr)
        for node in ast.walk(string)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in ("say", "say_n", "say_html", "say_later")
    ]


def test_said_in_f_strings_are_found() -> None:
    assert said_in_f_strings("a = f'<b>{say(\"VOIDED\")}</b>'\nb = say('OPEN')\n") == [1]


def test_no_message_is_said_inside_an_f_string() -> None:
    package = ROOT / "dealer"
    found = [
        f"{path.relative_to(ROOT)}:{line}"
        for path in sorted(package.rglob("*.py"))
        for line in said_in_f_strings(path.read_text())
    ]
    assert not found, "said inside an f-string (not extracted):\n" + "\n".join(found)


def test_no_message_reads_as_a_percent_format() -> None:
    """Every message is a ``str.format`` template: one Babel reads as a %-format too ("{n}% of"
    has "% o") is checked as one at compile time, and a translation's "% de" is refused."""
    assert Message("{n}% of").python_format  # what the test looks for
    assert not [m for m in extracted() if Message(m).python_format]


def test_the_shipped_catalogues_compile_without_errors() -> None:
    """What ``pybabel compile`` checks of each translation (its placeholders, its plurals)."""
    for language in SHIPPED:
        with (LOCALE_DIR / language / "LC_MESSAGES" / "dealer.po").open("rb") as file:
            catalogue = read_po(file, locale=language)
        assert not [(m.id, e) for m, e in catalogue.check() if e], language


@pytest.mark.parametrize("language", SHIPPED)
def test_the_shipped_catalogues_are_whole(language: str) -> None:
    """Every message translated, none fuzzy, each with its fields and tags as they are; one
    translated as its English words only where its language keeps each of them, or listed."""
    path = LOCALE_DIR / language / "LC_MESSAGES" / "dealer.po"
    assert translated_pct(language) == 100
    assert not (broken := broken_translations(path, language)), "\n".join(broken)
    assert not (same := kept_as_english(language)), same


#: Ways a translator breaks a message, each as the catalogue's text before and after.
BROKEN = {
    "a field left out": ('msgstr "el asiento {seat} sale"', 'msgstr "el asiento sale"'),
    "a field renamed": ('msgstr "el asiento {seat} sale"', 'msgstr "el asiento {asiento} sale"'),
    "a field's format lost": (
        'msgstr "{limit} {old:,} -> {new:,}"',
        'msgstr "{limit} {old} -> {new:,}"',
    ),
    "a tag left out": ('msgstr "<b>Total {total}</b>"', 'msgstr "Total {total}</b>"'),
    "untranslated": ('msgstr "el asiento {seat} sale"', 'msgstr ""'),
    "fuzzy": ('msgid "seat {seat} goes out"', '#, fuzzy\nmsgid "seat {seat} goes out"'),
}


@pytest.mark.parametrize("case", list(BROKEN))
def test_a_broken_catalogue_fails(case: str, tmp_path: Path) -> None:
    shipped = (LOCALE_DIR / "es" / "LC_MESSAGES" / "dealer.po").read_text()
    before, after = BROKEN[case]
    assert shipped.count(before) == 1
    broken = tmp_path / "dealer.po"
    broken.write_text(shipped.replace(before, after))
    assert len(broken_translations(broken, "es")) == 1
