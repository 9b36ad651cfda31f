"""Every word a screen shows comes through the message catalogue: with a pseudo-language that
wraps each message in ⟦ ⟧, every screen of the knobbed hand (and the pages a person meets
before or beside them: the sign-in, the first run, a refusal, a form sent too late, the
database out of reach) is drawn, and what is left of its visible words and of the attributes a
person reads or hears (a placeholder, a title, an accessible label, an image's text, a button's
value) once the wrapped parts are taken out holds no English word. A field's label declared at
its form is marked for the catalogue's extraction (`say_later`) and said as the form is made."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from html import unescape
from pathlib import Path

import pytest
from flask import Flask, render_template
from markupsafe import escape
from sqlalchemy import select

import dealer
from dealer.extensions import db
from dealer.models import AuditRecord
from dealer.words.catalogue import use_catalogue
from tests.screens.conftest import Web, words
from tests.screens.test_no_codes import knobbed  # noqa: F401  (the fixture)
from tests.screens.test_roles import PAGES, QUERIES
from tests.words.pseudo import Pseudo, leaked, not_extracted

#: The attributes whose words a person reads or hears.
READ = re.compile(r'\s(?:placeholder|title|aria-label|alt)="([^"]*)"', re.I)
#: A button drawn as an input: its value is its words.
SHOWN_VALUE = re.compile(r'<input[^>]*type="(?:submit|button|reset)"[^>]*>', re.I)


#: An element in a language of its own (a language offered in its own name: "Español"), the
#: page's root aside: its words are that language's, not the catalogue's.
OWN_LANGUAGE = re.compile(r'<(?!html\b)([a-z]+)\b[^>]*\slang="[^"]*"[^>]*>.*?</\1>', re.I | re.S)


def read_words(html: str) -> str:
    """The page's visible words, and the words of its attributes a person reads or hears."""
    html = OWN_LANGUAGE.sub(" ", html)
    tags = re.findall(r"<[a-z][^>]*>", html, flags=re.I)
    read = [unescape(value) for tag in tags for value in READ.findall(tag)]
    shown = [
        unescape(value)
        for tag in SHOWN_VALUE.findall(html)
        for value in re.findall(r'\svalue="([^"]*)"', tag)
    ]
    return " ".join([words(html), *read, *shown])


def english_in(html: str) -> list[str]:
    return leaked(read_words(html))


def test_read_words_finds_attributes_and_buttons() -> None:
    html = (
        '<p title="Seat one">x</p><input type="submit" value="Record"><input type="hidden" '
        'value="abc"><input aria-label="⟦Cards⟧" value="5S">'
    )
    assert [w.split("'")[1] for w in english_in(html)] == ["Seat", "one", "Record"]


@pytest.fixture
def pseudo(people: Flask) -> Iterator[list[str]]:
    """The pseudo-language from before the test's world is made: the audit trail's records are
    sealed in the language chosen when they are written, so the world is made in it too. The
    words of the records already there (the users the database was copied with, added before
    any language) are given back: they were sealed in English, as the test found them."""
    with people.app_context():
        sealed = list(db.session.scalars(select(AuditRecord.words)))
    with use_catalogue(Pseudo()):
        yield sealed


def test_every_screen_word_is_in_the_catalogue(
    people: Flask,
    pseudo: list[str],
    knobbed: dict[str, int],  # noqa: F811
) -> None:
    admin = Web.sign_in(people, "admin")
    dealer_web = Web.sign_in(people, "dealer")
    leaks: dict[str, list[str]] = {}
    said = Pseudo()
    with use_catalogue(said):
        pages = [
            (admin, template.format(**knobbed) + QUERIES.get(template, "")) for template in PAGES
        ]
        pages.append((Web(people.test_client()), "/sign-in"))  # signed out
        pages.append((dealer_web, "/floor/audit"))  # forbidden to a dealer
        for web, path in pages:
            answer = web.client.get(path)
            assert answer.status_code in (200, 403, 422), (path, answer.status_code)
            html = answer.get_data(as_text=True)
            assert "⟦" in html, path
            for sealed in pseudo:
                html = html.replace(str(escape(sealed)), " ")
            if found := english_in(html):
                leaks[path] = found
    assert not leaks, "English outside the catalogue:\n" + "\n".join(
        f"{path}:\n  " + "\n  ".join(found) for path, found in leaks.items()
    )
    assert len(said.said) > 500
    assert not (missing := not_extracted(said)), "not extracted:\n" + "\n".join(missing)


def test_the_first_run_words_are_in_the_catalogue(app: Flask) -> None:
    with use_catalogue(Pseudo()):
        html = app.test_client().get("/first-run").get_data(as_text=True)
    assert "⟦" in html and not english_in(html), english_in(html)


@pytest.mark.parametrize(
    ("template", "context"),
    [
        ("screens/refused.html", {"status": 409, "code": "x", "message": "Refused."}),
        ("auth/stale_form.html", {"reason": "The form has expired."}),
        ("unavailable.html", {"message": "Refused.", "kept": [("cards", "5S")], "shown": ["5S"]}),
    ],
)
def test_the_pages_beside_the_screens_are_in_the_catalogue(
    people: Flask, template: str, context: dict[str, object]
) -> None:
    with use_catalogue(Pseudo()), people.test_request_context("/"):
        html = render_template(template, action="/", **context)
    html = html.replace("Refused.", "").replace("The form has expired.", "")
    assert "⟦" in html and not english_in(html), english_in(html)


def unmarked_labels(source: str) -> list[tuple[int, str]]:
    """Each English text given to a form's field (its label, description, a read attribute or
    a choice's words), or to the `Asked` of a declaration a form is drawn from (its label, its
    parts' labels, its choices' words), as a plain string, not marked with `say_later`."""
    found: list[tuple[int, str]] = []

    def plain(node: ast.AST | None) -> None:
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value:
            found.append((node.lineno, node.value))

    for call in ast.walk(ast.parse(source)):
        if not isinstance(call, ast.Call):
            continue
        name = call.func.id if isinstance(call.func, ast.Name) else ""
        # pydantic's own ``Field`` describes the API's document, in English
        if not (name.endswith("Field") and name != "Field") and name != "Asked":
            continue
        plain(call.args[0] if call.args else None)
        for keyword in call.keywords:
            if keyword.arg == "parts" and isinstance(keyword.value, ast.Tuple):
                for part in keyword.value.elts:
                    plain(part)
            elif keyword.arg == "choices" and isinstance(keyword.value, ast.Dict):
                for words in keyword.value.values:
                    plain(words)
            elif keyword.arg in ("label", "description"):
                plain(keyword.value)
            elif keyword.arg == "render_kw" and isinstance(keyword.value, ast.Dict):
                for key, value in zip(keyword.value.keys, keyword.value.values, strict=True):
                    if isinstance(key, ast.Constant) and key.value in (
                        "placeholder",
                        "title",
                        "aria-label",
                    ):
                        plain(value)
            elif keyword.arg == "choices":
                for choice in ast.walk(keyword.value):
                    if isinstance(choice, ast.Tuple) and len(choice.elts) > 1:
                        plain(choice.elts[1])
                    elif (
                        isinstance(choice, ast.Call)
                        and isinstance(choice.func, ast.Name)
                        and choice.func.id == "SelectChoice"
                    ):
                        label = choice.args[1] if len(choice.args) > 1 else None
                        plain(next((k.value for k in choice.keywords if k.arg == "label"), label))
    return found


def test_unmarked_labels_are_found() -> None:
    source = (
        "a = StringField('Name', render_kw={'placeholder': 'e.g. Ann'})\n"
        "b = RadioField(say_later('Kind'), choices=[('in', 'Buy-in')])\n"
        "d = SelectField(say_later('Paper'), choices=[SelectChoice('', 'This tablet')])\n"
        "c = IntegerField(label=say_later('Chips'))\n"
        "e = Annotated[int, Asked('Seat', choices={'in': 'Buy-in'}, parts=('PIN',))]\n"
        "f = Annotated[int, Asked(say_later('Seat'), how='select')]\n"
    )
    assert [text for _, text in unmarked_labels(source)] == [
        "Name",
        "e.g. Ann",
        "Buy-in",
        "This tablet",
        "Seat",
        "Buy-in",
        "PIN",
    ]


def test_every_label_is_marked_for_the_catalogue() -> None:
    package = Path(dealer.__file__).parent
    found = [
        f"{path.relative_to(package.parent)}:{line}: {text!r}"
        for folder in ("screens", "inputs")
        for path in sorted((package / folder).rglob("*.py"))
        for line, text in unmarked_labels(path.read_text())
    ]
    assert not found, "labels not marked with say_later:\n" + "\n".join(found)
