"""Clients generated from the served document, with no generator configuration: they play a
hand with typed models only, and type-check strictly.

openapi-python-client (offline: it reads the document from a file) generates a client into a
temporary folder, with no configuration and no warning; ``mypy --strict`` checks it with a
program written against it (tests/api/client/plays_a_hand.py), which then plays a hand on the
app. openapi-typescript generates the TypeScript types and ``tsc --strict`` checks the same
program in TypeScript (tests/api/client/plays_a_hand.ts); Redocly CLI lints the document.
Those three come from npm (tests/api/client/package.json, installed by ``make install-test``).

The seed hand: the client, against the app on a real port, opens a table, seats seed
000's six players, plays its hand (tests/data/hands/01_seed000_example_classic.json, the
accepted events), then reads the hand, a seat's statement, the floor's tables, the table's
hands, the ledger export (text/csv) and the hand slip (application/pdf). Every answer is one
of the generated models, read by attribute: a seat map by its typed ``additional_properties``,
every time a datetime with its zone.
"""

from __future__ import annotations

import importlib
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tests.helpers import PEOPLE, add_people
from tests.screens.browser.conftest import LiveServer

SEED_HAND = (
    Path(__file__).resolve().parent.parent / "data" / "hands" / "01_seed000_example_classic.json"
)
#: The package the client is generated as.
PACKAGE = "dealer_client"
#: The programs written against the generated clients, and the npm tools.
PROGRAMS = Path(__file__).resolve().parent / "client"
NODE_BIN = PROGRAMS / "node_modules" / ".bin"
VENV_BIN = Path(sys.executable).parent
#: The only warning Redocly's recommended rules give, a choice: the project names no licence
#: (it is not published). Every operation, the document's own included, declares a 4xx: 414.
REDOCLY_WARNINGS = {"info-license": 1}


#: The generator's only warnings: its two formatting hooks (``ruff check --fix``, ``ruff format``)
#: are skipped, as no ruff is on its PATH. They change no type, and ruff 0.17's fixes would
#: rewrite the client's ``__exit__(*args: Any)`` as ``*args: object``, which its own body then
#: fails ``mypy --strict`` on: a clash of the generator's template with ruff, not the document's.
HOOKS_SKIPPED = ["Skipping Integration", "ruff is not in PATH"] * 2


def _generate(document: dict[str, Any], folder: Path) -> Path:
    """The Python client generated from ``document`` into ``folder``, with no configuration;
    no warning but `HOOKS_SKIPPED`."""
    (folder / "openapi.json").write_text(json.dumps(document))
    (folder / "no-tools").mkdir()
    made = subprocess.run(
        [
            str(VENV_BIN / "openapi-python-client"),
            "generate",
            "--path",
            str(folder / "openapi.json"),
            "--output-path",
            str(folder / PACKAGE),
            "--meta",
            "none",
        ],
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "PATH": str(folder / "no-tools")},
    )
    said = made.stdout + made.stderr
    assert made.returncode == 0, said
    # Every operation became a function, none left out (a PDF's, a CSV's), nothing skipped.
    lines = [line for line in said.splitlines() if line.strip()]
    warned = lines[lines.index(next(x for x in lines if x.startswith("Warning(s)"))) + 1 : -1]
    assert warned == HOOKS_SKIPPED, said
    return folder / PACKAGE


@pytest.fixture
def served(sqlite_template: Path, tmp_path: Path) -> Iterator[LiveServer]:
    path = tmp_path / "client.sqlite3"
    shutil.copyfile(sqlite_template, path)
    server = LiveServer.over(path)
    add_people(server.app)
    yield server
    server.stop()


@pytest.fixture
def client_package(served: LiveServer, tmp_path: Path) -> Iterator[ModuleType]:
    """The client generated from the document the app serves, imported."""
    document = served.app.test_client().get("/api/v1/openapi.json").get_json()
    _generate(document, tmp_path)
    sys.path.insert(0, str(tmp_path))
    try:
        yield importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(tmp_path))
        for name in [m for m in sys.modules if m == PACKAGE or m.startswith(PACKAGE + ".")]:
            del sys.modules[name]


def _op(area: str, name: str) -> Any:
    return importlib.import_module(f"{PACKAGE}.api.{area}.{name}")


def _model(name: str) -> Any:
    return getattr(importlib.import_module(f"{PACKAGE}.models"), name)


def _event(action: dict[str, Any], ids: dict[int, int]) -> Any:
    """An action of the seed hand as the generated model of its type (a void names the event
    by its id, the file by its seq)."""
    fields = {k: v for k, v in action.items() if k != "type"}
    if action["type"] == "void":
        fields["event"] = ids[fields["event"]]
    model = "".join(part.title() for part in action["type"].split("_")) + "Event"
    return _model(model)(type_=action["type"], **fields)


def test_a_generated_client_plays_the_seed_hand_with_typed_models(
    served: LiveServer, client_package: ModuleType
) -> None:
    seed = json.loads(SEED_HAND.read_text())
    anonymous = client_package.Client(base_url=served.url, raise_on_unexpected_status=True)
    name, pin = PEOPLE["supervisor"]
    signed = _op("sign_in", "sign_in").sync(
        client=anonymous, body=_model("SignIn")(name=name, pin=pin)
    )
    assert isinstance(signed, _model("SignedIn"))
    assert signed.user.role.value == "supervisor"
    floor = client_package.AuthenticatedClient(
        base_url=served.url, token=signed.token, raise_on_unexpected_status=True
    )

    # Nothing on the floor yet; then a table, seated as seed 000's hand is.
    assert _op("tables", "list_tables").sync(client=floor).tables == []
    table = _op("tables", "create_table").sync(
        client=floor,
        body=_model("NewTable")(name="Table 1", profile=_model("NewTableProfile")("classic")),
    )
    assert isinstance(table, _model("TableView"))
    for seat in seed["seats"]:
        seated = _op("tables", "seat_player").sync(
            table.id, client=floor, body=_model("NewSeat")(seat=seat, player=f"P{seat}", buy_in=100)
        )
        assert isinstance(seated, _model("SeatView"))
        assert seated.stack == 100

    hand = _op("hands", "start_hand").sync(table.id, client=floor, body=_model("NewHand")())
    assert isinstance(hand, _model("HandView"))
    ids = {e.seq: e.id for e in hand.events}
    for step in seed["events"]:
        body = _event(step["action"], ids)
        if "error" in step:
            refused = _op("hands", "record_event").sync(hand.id, client=floor, body=body)
            assert isinstance(refused, _model("Refused"))
            assert refused.error.code == step["error"]
            continue
        recorded = _op("hands", "record_event").sync(hand.id, client=floor, body=body)
        assert isinstance(recorded, _model("Recorded"))
        ids = {e.seq: e.id for e in recorded.hand.events}
        assert recorded.event.type_.value == step["action"]["type"]
        assert sum(p.chips for p in recorded.payments) == sum(p[2] for p in step["payments"])

    # The hand, read: its seats and nets typed, every time with its zone.
    final = seed["final"]
    read = _op("hands", "read_hand").sync(hand.id, client=floor)
    assert isinstance(read, _model("HandView"))
    assert read.status.value == final["status"]
    assert read.winner == final["winner"]
    seats = read.seats.additional_properties
    assert sorted(seats) == [str(s) for s in seed["seats"]]
    for key, seat in seats.items():
        assert isinstance(seat, _model("HandSeatView"))
        assert seat.player == f"P{key}"
        if key in final["seats"]:
            assert seat.status.value == final["seats"][key]["status"]
            assert seat.cards_down == final["seats"][key]["cards_down"]
    assert [m.cards for m in seats["1"].melds] == [
        cards.split() for cards, _ in final["melds"]["1"]
    ]
    assert read.net.additional_properties == final["net"]
    assert read.rules.profile.value == "classic"
    assert read.started_at.utcoffset() == timedelta(0)
    assert read.ended_at is not None and read.ended_at.utcoffset() == timedelta(0)
    assert all(e.at.utcoffset() == timedelta(0) for e in read.events)

    # Seat 2's statement: every line with its rule, summing to the seat's net.
    statement = _op("disputes", "read_seat_statement").sync(hand.id, 2, client=floor)
    assert isinstance(statement, _model("Statement"))
    assert statement.net == final["net"]["2"] == statement.ledger_net
    assert statement.balanced
    assert sum(line.chips for line in statement.lines) == statement.net
    assert all(line.at.utcoffset() == timedelta(0) for line in statement.lines)
    assert {line.rule.code for line in statement.lines} >= {"condition", "going_out"}

    # The floor and the table's hands, as a client starting from nothing finds them.
    tables = _op("tables", "list_tables").sync(client=floor).tables
    assert [(t.id, t.name, t.mine) for t in tables] == [(table.id, "Table 1", True)]
    stacks = {k: s.stack for k, s in tables[0].seats.additional_properties.items()}
    assert stacks == {str(s): 100 + final["net"][str(s)] for s in seed["seats"]}
    hands = _op("hands", "list_hands").sync(table.id, client=floor)
    assert [(h.id, h.status.value) for h in hands.hands] == [(hand.id, "settled")]
    assert hands.next_ is None

    # The exports and the documents, as what they are: text and bytes.
    ledger_csv = _op("exports", "export_ledger").sync(client=floor)
    assert isinstance(ledger_csv, str)
    assert len(ledger_csv.strip().splitlines()) > len(seed["seats"])
    slip = _op("reports", "print_hand_slip").sync(hand.id, client=floor)
    assert isinstance(slip, client_package.types.File)
    assert slip.payload.read().startswith(b"%PDF")


def test_a_program_against_the_python_client_passes_mypy_strict_and_plays_a_hand(
    served: LiveServer, tmp_path: Path
) -> None:
    """The generated client and a program using it pass ``mypy --strict`` (the hand's, the
    replay's and the statements' statuses and rules are enums, a PDF is a File); the program
    then plays its hand on the app and reads what it should."""
    document = served.app.test_client().get("/api/v1/openapi.json").get_json()
    package = _generate(document, tmp_path)
    shutil.copy(PROGRAMS / "plays_a_hand.py", tmp_path)
    checked = subprocess.run(
        [str(VENV_BIN / "mypy"), "--strict", "--no-incremental", str(package), "plays_a_hand.py"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
    name, pin = PEOPLE["supervisor"]
    played = subprocess.run(
        [sys.executable, "plays_a_hand.py", served.url, name, pin],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert played.returncode == 0, played.stdout + played.stderr
    read = json.loads(played.stdout)
    # Seats 2 and 3 drop (the tops into the pot, 2 each); seat 1 takes the pot.
    assert read["status"] == "settled" and read["winner"] == 1
    assert read["rules"] == ["drop_forfeit", "drop_forfeit", "pot"]
    assert read["replay"] == [2, True] and read["seat_2_after_its_drop"]
    assert sum(read["statements"].values()) == 0 and read["statements"]["1"] > 0
    assert read["pdf"] == "%PDF-"


def _node(tool: str, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(NODE_BIN / tool), *args], cwd=cwd, capture_output=True, text=True, check=False
    )


def test_the_typescript_types_pass_tsc_strict_and_redocly_finds_no_error(
    served: LiveServer, tmp_path: Path
) -> None:
    """openapi-typescript's types of the document, with no option, and a program using them
    pass ``tsc --strict``: a status is its union of strings, a body's optional field may be
    left out. Redocly CLI's recommended rules find no error and only the warnings named."""
    document = served.app.test_client().get("/api/v1/openapi.json").get_data(as_text=True)
    (tmp_path / "openapi.json").write_text(document)
    made = _node("openapi-typescript", "openapi.json", "-o", "dealer.d.ts", cwd=tmp_path)
    assert made.returncode == 0, made.stdout + made.stderr
    assert "warn" not in (made.stdout + made.stderr).lower(), made.stdout + made.stderr
    shutil.copy(PROGRAMS / "plays_a_hand.ts", tmp_path)
    strict = ["--strict", "--noUncheckedIndexedAccess", "--noEmit", "--target", "ES2022"]
    more = ["--module", "ES2022", "--moduleResolution", "bundler", "--lib", "ES2022,DOM"]
    checked = _node("tsc", *strict, *more, "plays_a_hand.ts", cwd=tmp_path)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    linted = _node("redocly", "lint", "openapi.json", "--format", "json", cwd=tmp_path)
    assert linted.returncode == 0, linted.stdout + linted.stderr
    found: dict[str, int] = {}
    for problem in json.loads(linted.stdout)["problems"]:
        assert problem["severity"] == "warn", problem
        found[problem["ruleId"]] = found.get(problem["ruleId"], 0) + 1
    assert found == REDOCLY_WARNINGS
