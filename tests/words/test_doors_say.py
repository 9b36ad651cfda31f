"""No front door writes a sentence of its own: every sentence a person reads from the API, the
screens or the documents goes through the message catalogue (`dealer.words.catalogue.say`),
so one event has one sentence and a second language can be added without touching the doors.

Read from the source: a string that reads as a sentence (a capital, a space, a full stop,
question mark or colon at the end), outside `say`/`say_n`, is a sentence written in a door.
What is not read by a person on the floor is left out: docstrings, log lines, and the
OpenAPI document's descriptions (``description=``, `declare`, a map of answers by status).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "dealer"
DOORS = ("api", "screens", "reports")
SENTENCE = re.compile(r"[A-Z][^\n]* [^\n]*[.!?:]", re.S)
#: Calls whose strings are the catalogue's, a log's, or the API document's.
NOT_FOR_PEOPLE = {"say", "say_n", "declare", "debug", "info", "warning", "error", "exception"}


def _unread(tree: ast.AST) -> set[int]:
    """The ids of every string node no person on the floor reads."""
    skip: set[int] = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(node, ast.Module | ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            first = body[0] if body else None
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                skip.add(id(first.value))
        inside: ast.AST | None = None
        if isinstance(node, ast.Call):
            func = node.func
            name = getattr(func, "id", None) or getattr(func, "attr", "")
            inside = node if name in NOT_FOR_PEOPLE else None
        elif isinstance(node, ast.keyword) and node.arg == "description":
            inside = node.value
        elif (
            isinstance(node, ast.Dict)
            and node.keys
            and all(isinstance(k, ast.Constant) and isinstance(k.value, int) for k in node.keys)
        ):
            inside = node  # answers by status, for the OpenAPI document
        if inside is not None:
            skip.update(id(n) for n in ast.walk(inside))
    return skip


def sentences(source: str) -> Iterator[tuple[int, str]]:
    """Each sentence ``source`` writes outside the catalogue, with its line."""
    tree = ast.parse(source)
    unread = _unread(tree)
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and id(node) not in unread
            and SENTENCE.fullmatch(node.value.strip())
        ):
            yield node.lineno, node.value


def test_the_scan_finds_a_sentence_and_passes_the_catalogue_by() -> None:
    source = '''
def page():
    """A docstring. It is for developers."""
    log.warning("The log is for developers.")
    flash(say("Signed out: sign in again."))
    declare({200: (View, "The answer.")}, description="The operation.")
    return render("page.html", error="Choose a seat.")
'''
    assert [text for _, text in sentences(source)] == ["Choose a seat."]


@pytest.mark.parametrize("door", DOORS)
def test_no_door_writes_a_sentence_itself(door: str) -> None:
    found = [
        f"{path.relative_to(PACKAGE.parent)}:{line}: {text!r}"
        for path in sorted((PACKAGE / door).rglob("*.py"))
        for line, text in sentences(path.read_text())
    ]
    assert not found, "sentences outside the catalogue:\n" + "\n".join(found)
