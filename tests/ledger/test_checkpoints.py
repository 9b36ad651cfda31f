"""Checkpoints: filed outside the database, signed, chained line to line; verify starts at the
last good one, so what it reads is what is new."""

from __future__ import annotations

import json
import stat
from datetime import timedelta
from pathlib import Path

import pytest
from flask import Flask

from dealer.ledger import checkpoints
from dealer.ledger.checkpoints import Checkpoint, line_digest
from dealer.models import utcnow
from tests.conftest import Database
from tests.helpers import Api
from tests.ledger.test_verify import without_triggers
from tests.reports.evening import one_line, pdf_text
from tests.reports.test_routes import fetch, window

MELD = {"type": "meld", "seat": 1, "cards": ["5S", "5S", "5S"]}


@pytest.fixture
def hand(api: Api, floor: Api) -> int:
    table = floor.table()
    for seat in (1, 2, 3):
        api.seat(table["id"], seat, f"P{seat}")
    hand_id: int = api.hand(table["id"])["id"]
    return hand_id


def file_of(app: Flask) -> Path:
    return Path(app.config["CHECKPOINT_FILE"])


def filed(app: Flask) -> list[Checkpoint]:
    """The checkpoints filed after the first, which every ledger files with its first link."""
    genesis, *rest = [Checkpoint.parse(line) for line in file_of(app).read_text().splitlines()]
    assert (genesis.seq, genesis.reason, genesis.prev) == (0, "the keyed chain begins", "")
    return rest


def checkpoint(app: Flask) -> None:
    result = app.test_cli_runner().invoke(args=["ledger", "checkpoint"])
    assert result.exit_code == 0, result.output


def test_a_checkpoint_is_a_signed_line_in_a_file_only_its_owner_reads(
    hand: int, floor: Api, app: Flask
) -> None:
    checkpoint(app)
    assert stat.S_IMODE(file_of(app).stat().st_mode) == 0o600
    [line] = filed(app)
    report = floor.get("/ledger/verify")
    assert line.seq + 1 == report["chain"]["seq"]  # the database's record of it, linked next
    assert report["ok"] is True and report["checkpoint"]["hash"] == line.hash
    assert (line.entries, line.entry_hash) == (report["entries"], report["head"])
    assert line.checked and line.prev == line_digest(file_of(app).read_text().splitlines()[0])
    assert line.signed_by(line.key)
    assert not Checkpoint.parse(line.line().replace(line.hash, "0" * 64)).signed_by(line.key)


def test_verify_reads_only_what_came_after_the_last_good_checkpoint(
    hand: int, api: Api, floor: Api, app: Flask
) -> None:
    checkpoint(app)
    [line] = filed(app)
    # The database's record of the checkpoint, the event and its 2 entries: 4 links.
    api.event(hand, MELD)
    report = floor.get("/ledger/verify")
    assert report["ok"] is True
    assert report["checked_from"] == line.seq
    assert report["checkpoint"]["seq"] == line.seq
    assert (report["links_checked"], report["hands_checked"], report["hands_replayed"]) == (4, 1, 0)
    assert report["checkpoints"] == 2  # it, and the line before it (its ``prev`` is checked)
    full = app.test_cli_runner().invoke(args=["ledger", "verify", "--full", "--json"])
    assert full.exit_code == 0, full.output
    assert json.loads(full.output)["links_checked"] == report["chain"]["seq"]


def test_an_edit_behind_a_checked_checkpoint_is_found_by_the_full_check(
    hand: int, floor: Api, app: Flask, database: Database
) -> None:
    """Row by row, only a full check reads old history again (run it on a schedule)."""
    checkpoint(app)
    without_triggers(app, database, "UPDATE ledger_entries SET chips = 99 WHERE seq = 1")
    assert floor.get("/ledger/verify")["ok"] is True
    full = app.test_cli_runner().invoke(args=["ledger", "verify", "--full"])
    assert full.exit_code == 1
    assert "chain (entry 1)" in full.output


@pytest.mark.parametrize("change", ["taken out", "forged", "garbled"])
def test_a_changed_checkpoint_file_is_found(
    hand: int, api: Api, floor: Api, app: Flask, change: str
) -> None:
    checkpoint(app)
    api.event(hand, {"type": "drop", "seat": 3})
    checkpoint(app)
    checkpoint(app)
    lines = file_of(app).read_text().splitlines()  # the empty chain's, then the three
    if change == "taken out":
        del lines[2]
    elif change == "forged":
        lines[-1] = lines[-1].replace('"checked":true', '"checked":false')
    else:
        lines.insert(3, "not a checkpoint")
    file_of(app).write_text("\n".join(lines) + "\n")
    problems = floor.get("/ledger/verify")["problems"]
    assert problems and {p["check"] for p in problems} == {"checkpoint"}


def test_the_first_write_of_a_shift_files_the_head_the_last_shift_left(
    hand: int, api: Api, floor: Api, app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = floor.get("/ledger/verify")["chain"]
    later = utcnow() + timedelta(hours=8, minutes=1)  # the next shift, whenever shifts start
    monkeypatch.setattr(checkpoints, "utcnow", lambda: later)
    api.event(hand, {"type": "drop", "seat": 3})
    [line] = filed(app)
    assert line.reason.startswith("shift end")
    assert (line.seq, line.hash, line.checked) == (before["seq"], before["hash"], False)
    api.event(hand, MELD)
    assert len(filed(app)) == 1  # once a shift
    # The next shift's first write files again (each shift is a day at most).
    monkeypatch.setattr(checkpoints, "utcnow", lambda: later + timedelta(days=1))
    api.event(hand, {"type": "meld", "seat": 2, "cards": ["7H", "7H", "7H"]})
    assert [line.reason[:9] for line in filed(app)] == ["shift end", "shift end"]


def test_reports_print_the_checkpoint_they_file(
    hand: int, api: Api, floor: Api, app: Flask
) -> None:
    text = one_line(pdf_text(fetch(floor, f"/reports/shift.pdf?{window()}").data))
    [shift] = filed(app)
    assert shift.checked and shift.reason.startswith("shift report")
    assert "Ledger checkpoint" in text
    flat = "".join(text.split())
    assert shift.hash in flat and shift.signature in flat
    sessions = api.get("/tables/1/sessions")["sessions"]
    text = pdf_text(fetch(floor, f"/reports/sessions/{sessions[0]['id']}.pdf").data)
    last = filed(app)[-1]
    assert last.checked and last.reason.startswith("session report")
    assert last.hash in "".join(text.split())
