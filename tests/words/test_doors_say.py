"""No front door writes a sentence of its own: every sentence a person reads from the API, the
screens or the documents goes through the message catalogue (`dealer.words.catalogue.say`),
so one event has one sentence and a second language can be added without touching the doors.

Read from the source: a string that reads as a sentence (a capital, a space, a full stop,
question mark or colon at the end), outside `say`/`say_n`, is a sentence written in a door.
What is not read by a person on the floor is left out: docstrings, log lines, and the
OpenAPI document's descriptions (``description=``, `declare`, a map of answers by status).

Beneath the doors the same holds for every module but the rules engine (`dealer.rules`, which
cannot import the catalogue: its refusals' messages, extracted by the names of its errors, are
said at the front door, `dealer.web.refusals`) and the vocabulary itself (`dealer.words`, whose
tables of texts are said where they are used), with the few sentences in `ALLOWED` left as
they are. In the doors
an f-string that puts two words together is a sentence made outside the catalogue too; below
them the audit trail's records and the ledger entries' reasons are still written that way
(stored in the words they were written in), so there only whole sentences are looked for.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from dealer import rules

PACKAGE = Path(__file__).resolve().parents[2] / "dealer"
DOORS = ("api", "screens", "reports")
SENTENCE = re.compile(r"[A-Z][^\n]* [^\n]*[.!?:]", re.S)
#: Calls whose strings are the catalogue's, a log's, or the API document's.
NOT_FOR_PEOPLE = {
    "say",
    "say_n",
    "say_later",
    "declare",
    "door",  # the API's declare with its role (dealer.api.blueprint): the document's words
    "debug",
    "info",
    "warning",
    "error",
    "exception",
    # The engine's refusals: their messages are the catalogue's (extracted by these names).
    *(error.__name__ for error in rules.RulesError.__subclasses__()),
}

#: The answers by status the OpenAPI document describes (`dealer.web.contract.ERRORS`, a
#: report's answer): read by a program's author, never said to the floor. Named one by one: a
#: table of sentences keyed by status that a person reads (the API's routing errors) is read.
DOCUMENT_ONLY = {"ERRORS", "PDF", "CSV"}


def _for_the_document(node: ast.AST) -> bool:
    """A description in the OpenAPI document: a ``description=`` or a `DOCUMENT_ONLY` table."""
    if isinstance(node, ast.keyword):
        return node.arg == "description"
    names = {getattr(t, "id", "") for t in node.targets} if isinstance(node, ast.Assign) else set()
    return bool(names & DOCUMENT_ONLY)


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
        elif _for_the_document(node):
            inside = getattr(node, "value", None)
        if inside is not None:
            skip.update(id(n) for n in ast.walk(inside))
    return skip


#: Two words running in the text of an f-string (its markup aside): words put together in
#: code, the way a sentence is made outside the catalogue.
WORDS = re.compile(r"[A-Za-z]{2,} [A-Za-z]{2,}")
MARKUP = re.compile(r"<[^<>]*>")
#: A programming error, never shown as a refusal: its words are for developers.
BUGS = {"ValueError", "LookupError", "KeyError", "TypeError", "RuntimeError", "AssertionError"}


def _bugs(tree: ast.AST) -> set[int]:
    """The ids of every string node inside ``raise`` of a programming error."""
    skip: set[int] = set()
    for node in ast.walk(tree):
        call = node.exc if isinstance(node, ast.Raise) else None
        if isinstance(call, ast.Call) and getattr(call.func, "id", None) in BUGS:
            skip.update(id(n) for n in ast.walk(node))
    return skip


def _template(node: ast.JoinedStr) -> str:
    """An f-string's text with each value as ``{}``."""
    return "".join(part.value if isinstance(part, ast.Constant) else "{}" for part in node.values)


def sentences(
    source: str, also: Callable[[ast.AST], set[int]] | None = None, made: bool = True
) -> Iterator[tuple[int, str]]:
    """Each sentence ``source`` writes outside the catalogue, with its line (``also``: more
    string nodes nobody on the floor reads; ``made``: f-strings that put words together too)."""
    tree = ast.parse(source)
    unread = _unread(tree) | _bugs(tree) | (also(tree) if also is not None else set())
    for node in ast.walk(tree):
        if id(node) in unread:
            continue
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            if SENTENCE.fullmatch(node.value.strip()):
                yield node.lineno, node.value
        elif made and isinstance(node, ast.JoinedStr):
            text = _template(node)
            if WORDS.search(MARKUP.sub(" ", text)):
                yield node.lineno, text


def test_the_scan_finds_a_sentence_and_passes_the_catalogue_by() -> None:
    source = '''
def page():
    """A docstring. It is for developers."""
    log.warning("The log is for developers.")
    flash(say("Signed out: sign in again."))
    declare({200: (View, "The answer.")}, description="The operation.")
    flash(f"{name} is retired.")
    note(f'<font color="{ALARM}"><b>{off}</b></font>')
    raise ValueError(f"Unknown page size {size!r}: use letter or A4.")
    return render("page.html", error="Choose a seat.")
ERRORS = {401: "Not signed in, or the token was revoked."}
API_ERRORS = {404: ("not_found", "There is nothing at this address.")}
'''
    assert sorted(text for _, text in sentences(source)) == [
        "Choose a seat.",
        "There is nothing at this address.",
        "{} is retired.",
    ]


@pytest.mark.parametrize("door", DOORS)
def test_no_door_writes_a_sentence_itself(door: str) -> None:
    found = [
        f"{path.relative_to(PACKAGE.parent)}:{line}: {text!r}"
        for path in sorted((PACKAGE / door).rglob("*.py"))
        for line, text in sentences(path.read_text())
    ]
    assert not found, "sentences outside the catalogue:\n" + "\n".join(found)


#: Below the doors, besides the doors' own exceptions: the API document's descriptions as
#: `dealer.inputs.params`, `dealer.inputs.windows` and `dealer.web.contract` write them (a
#: query parameter's helper, a ``description`` key, the tables of path parameters and areas,
#: the description of a window's ends), and click's help texts,
#: which it reads at import, before the app chooses a language.
DESCRIBING_CALLS = {"_id", "_number", "_one_of"}
DESCRIBING_TABLES = {"PATH_WORDS", "AREA_WORDS", "MOMENT", "ROLE_DESCRIBED"}
#: Sentences below the doors left outside the catalogue, by file and how each begins: nobody on
#: the floor reads them.
ALLOWED = {
    # Why the app refuses to start: read by the operator in the server's log, before any
    # language is chosen (the configuration chooses it).
    "dealer/config.py": {
        "No SECRET_KEY is set.",
        "SECRET_KEY is a well-known value.",
        "No LEDGER_KEY is set.",
        "LEDGER_KEY is a well-known value.",
        "Set SECRET_KEY to a long random value, e.g.",
        "Set LEDGER_KEY to a long random value, e.g.",
    },
}
BELOW = [
    path
    for path in sorted(PACKAGE.rglob("*.py"))
    if path.relative_to(PACKAGE).parts[0] not in (*DOORS, "rules", "words")
]


def _described(tree: ast.AST) -> set[int]:
    """The ids of the strings that describe the API or a command's option, not for the floor."""
    skip: set[int] = set()
    for node in ast.walk(tree):
        inside: list[ast.AST] = []
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) in DESCRIBING_CALLS:
            inside = [node]
        elif isinstance(node, ast.keyword) and node.arg == "help":
            inside = [node.value]
        elif isinstance(node, ast.Dict):
            inside = [
                v
                for k, v in zip(node.keys, node.values, strict=True)
                if isinstance(k, ast.Constant) and k.value == "description"
            ]
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(getattr(t, "id", None) in DESCRIBING_TABLES for t in targets) and node.value:
                inside = [node.value]
        for part in inside:
            skip.update(id(n) for n in ast.walk(part))
    return skip


def _written_below(path: Path, source: str) -> list[str]:
    where = path.relative_to(PACKAGE.parent).as_posix()
    allowed = ALLOWED.get(where, set())
    return [
        f"{where}:{line}: {text!r}"
        for line, text in sentences(source, _described, made=False)
        if not text.strip().startswith(tuple(allowed))
    ]


def test_nothing_below_the_doors_writes_a_sentence_itself() -> None:
    """The services, views, inputs and the command line say every sentence a person reads
    through the catalogue too, made when said (never a module's English constant)."""
    found = [row for path in BELOW for row in _written_below(path, path.read_text())]
    assert not found, "sentences outside the catalogue:\n" + "\n".join(found)


def test_the_allowance_names_only_sentences_still_there() -> None:
    """Each allowed sentence is still written where it is allowed: an allowance outlives
    nothing it was made for."""
    for where, allowed in ALLOWED.items():
        source = (PACKAGE.parent / where).read_text()
        written = [text.strip() for _, text in sentences(source, made=False)]
        gone = [a for a in allowed if not any(w.startswith(a) for w in written)]
        assert not gone, f"{where}: {gone}"


def test_the_scan_below_the_doors_finds_a_refusal() -> None:
    source = """
@click.option("--full", is_flag=True, help="Check all of history, not the new only.")
def refuse(limit):
    return Invalid("The limit is too high.")
"""
    assert _written_below(PACKAGE / "floor" / "limits.py", source) == [
        "dealer/floor/limits.py:4: 'The limit is too high.'"
    ]


def said_at_import(source: str) -> Iterator[tuple[int, str]]:
    """Each call of the vocabulary (``say``, ``say_n`` or a function of `dealer.words`) made as
    the module is imported or a class is declared: a sentence said then stays in the language
    of the import, whatever `DEALER_LANGUAGE` chooses at start."""
    tree = ast.parse(source)
    names: set[str] = set()  # functions and modules of the vocabulary, as this module names them
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("dealer.words"):
            # `say_later` only marks a message, to be said when it is shown; a table of such
            # messages (`words.rules.KNOB_NAMES`) is read, not said
            names.update(
                alias.asname or alias.name
                for alias in node.names
                if alias.name != "say_later" and not alias.name.isupper()
            )
        elif isinstance(node, ast.ImportFrom) and node.module == "dealer":
            names.update(a.asname or a.name for a in node.names if a.name == "words")

    def calls(node: ast.AST) -> Iterator[ast.Call]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
                continue  # said when called
            if isinstance(child, ast.Call):
                yield child
            yield from calls(child)

    for call in calls(tree):
        func = call.func
        while isinstance(func, ast.Attribute):
            func = func.value
        if isinstance(func, ast.Name) and func.id in names:
            yield call.lineno, ast.unparse(call.func)


def test_said_at_import_finds_a_label() -> None:
    source = """
from dealer.words import people as said
from dealer.words.catalogue import say
LABEL = said.pin_field(4, 8)
class Form:
    pin = PasswordField(say("PIN"))
    def __init__(self):
        self.pin.label.text = say("PIN")
ANSWER = lambda: say("later")
from dealer.words.catalogue import say_later
NAME = StringField(say_later("Name"))
"""
    assert [name for _, name in said_at_import(source)] == ["said.pin_field", "say"]


def test_nothing_is_said_at_import() -> None:
    found = [
        f"{path.relative_to(PACKAGE.parent)}:{line}: {name}"
        for path in sorted(PACKAGE.rglob("*.py"))
        if path.relative_to(PACKAGE).parts[0] != "words"
        for line, name in said_at_import(path.read_text())
    ]
    assert not found, "said at import:\n" + "\n".join(found)
