"""What the quick `ledger verify` sees without `--full`: a deletion anywhere behind a checkpoint
(each checkpoint counts the rows of each kind it covers), and a checkpoint file deleted, emptied
or replaced by an older copy (every ledger files one with its first link, and the database keeps
its own record of the last one filed)."""

from __future__ import annotations

from pathlib import Path

import pytest
from flask import Flask

from dealer.ledger.checkpoints import Checkpoint
from tests.conftest import Database
from tests.helpers import Api
from tests.ledger.test_tampering import played, verdict  # noqa: F401  (a fixture)
from tests.ledger.test_verify import without_triggers

DROP = {"type": "drop", "seat": 3}


def file_of(app: Flask) -> Path:
    return Path(app.config["CHECKPOINT_FILE"])


def checkpoint(app: Flask) -> None:
    result = app.test_cli_runner().invoke(args=["ledger", "checkpoint"])
    assert result.exit_code == 0, result.output
    assert "Checkpoint filed (checked)" in result.output


@pytest.mark.parametrize(
    ("statements", "said"),
    [
        (["DELETE FROM ledger_entries WHERE seq = 5"], "1 was deleted"),
        (
            ["DELETE FROM audit_records WHERE id = (SELECT min(id) FROM audit_records)"],
            "audit records",
        ),
        (
            [
                "DELETE FROM chain_links WHERE kind = 'entry' AND ref = 5",
                "DELETE FROM ledger_entries WHERE seq = 5",
            ],
            "links of the keyed chain",
        ),
    ],
    ids=["an old entry", "an old audit record", "an old entry and its link"],
)
def test_a_deletion_behind_a_checkpoint_is_found_by_the_quick_verify(
    played: Flask,  # noqa: F811
    floor: Api,
    database: Database,
    statements: list[str],
    said: str,
) -> None:
    checkpoint(played)
    without_triggers(played, database, *statements)
    code, output, report = verdict(played, floor)
    assert code == 1, output
    assert report["full"] is False and report["checked_from"] > 0  # not a full check
    assert "checkpoint" in {p["check"] for p in report["problems"]}  # type: ignore[union-attr]
    assert said in output


def test_the_first_link_files_the_empty_chain(played: Flask) -> None:  # noqa: F811
    first = Checkpoint.parse(file_of(played).read_text().splitlines()[0])
    assert (first.seq, first.reason, first.counts) == (0, "the keyed chain begins", first.counts)
    assert first.counts is not None and not any(first.counts.values())


@pytest.mark.parametrize("how", ["deleted", "emptied"])
def test_a_missing_checkpoint_file_fails_verify(
    played: Flask,  # noqa: F811
    floor: Api,
    database: Database,
    how: str,
) -> None:
    checkpoint(played)
    if how == "deleted":
        file_of(played).unlink()
    else:
        file_of(played).write_text("")
    code, output, report = verdict(played, floor)
    assert code == 1
    assert "No checkpoint is filed" in output
    assert [p["check"] for p in report["problems"]] == ["checkpoint"]  # type: ignore[union-attr]
    # The newest rows deleted too (an entry and its link): still no file, still a failure.
    without_triggers(
        played,
        database,
        "DELETE FROM chain_links WHERE seq = (SELECT max(seq) FROM chain_links)",
        "DELETE FROM ledger_entries WHERE seq = 15",
    )
    code, output, _ = verdict(played, floor)
    assert code == 1 and "No checkpoint is filed" in output


def test_a_checkpoint_file_older_than_the_databases_record_fails_verify(
    played: Flask,  # noqa: F811
    api: Api,
    floor: Api,
) -> None:
    checkpoint(played)
    older = file_of(played).read_bytes()
    table = 1
    api.post(f"/tables/{table}/seats/4/chips", {"kind": "buy_in", "amount": 20}, status=201)
    checkpoint(played)  # recorded in the database at once, with no write after it
    code, output, _ = verdict(played, floor)
    assert code == 0, output
    file_of(played).write_bytes(older)  # the copy taken before the last checkpoint
    code, output, report = verdict(played, floor)
    assert code == 1
    assert "no longer holds the checkpoint of" in output
    assert "replaced by an older copy" in output
    assert {p["check"] for p in report["problems"]} == {"checkpoint"}  # type: ignore[union-attr]
