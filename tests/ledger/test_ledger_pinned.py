"""dealer/ledger through its own functions, where the other tests leave it unsaid: a table's
rules as its hands are replayed are its profile with the table's own overrides, a time in a
problem's sentence, the words and the entry each check names (a count behind a checkpoint, an
entry between one account, a reversal out of place or twice, rows outside the keyed chain), a
checkpoint file short of one checkpoint, and an entry slipped in after a checkpoint checked
without reading what the checkpoint holds."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest
from flask import Flask

from dealer.extensions import db
from dealer.ledger.checkpoint_checks import check_counts
from dealer.ledger.checkpoints import Checkpoint
from dealer.ledger.checks import Problem, check_accounts, check_reversals
from dealer.ledger.link_checks import check_unkeyed
from dealer.ledger.post import Posting, _check
from dealer.ledger.replay import table_rules
from dealer.ledger.verification import verify
from dealer.models import Table
from dealer.rules import make_rules
from dealer.words.ledger import problem_words
from tests.conftest import Database
from tests.helpers import Api
from tests.ledger.test_checkpoint_file import checkpoint, file_of
from tests.ledger.test_checks import Entry
from tests.ledger.test_tampering import played, verdict  # noqa: F401  (a fixture)
from tests.ledger.test_verify import without_triggers


def test_a_tables_rules_are_its_profile_with_its_overrides() -> None:
    plain = Table(profile="classic", rules={})
    changed = Table(profile="classic", rules={"packs": 6})
    assert table_rules(plain) == make_rules("classic")
    assert table_rules(changed).packs == 6 != make_rules("classic").packs


def test_a_time_in_a_problems_sentence_is_utc_to_the_second() -> None:
    los_angeles = ZoneInfo("America/Los_Angeles")
    moment = datetime(2026, 12, 6, 22, 0, 5, 999, tzinfo=los_angeles)
    unsigned = Problem("checkpoint", "not_signed", {"at": moment, "link": 3})
    assert problem_words(unsigned).startswith("The checkpoint of 2026-12-07 06:00:05 UTC (link 3) ")


def test_a_count_changed_behind_a_checkpoint_names_the_checkpoint_and_the_change() -> None:
    filed = Checkpoint(
        seq=7,
        hash="0" * 64,
        at=datetime(2026, 12, 7, 6, 0, 5, tzinfo=UTC),
        marks={},
        entries=3,
        entry_hash="0" * 64,
        checked=True,
        reason="test",
        prev="",
        key="",
        counts={"entry": 3, "event": 2, "audit": 4},
    )
    problems = check_counts(filed, {"entry": 2, "event": 2, "audit": 6})
    assert [(p.check, problem_words(p)) for p in problems] == [
        (
            "checkpoint",
            "The checkpoint of 2026-12-07 06:00:05 UTC (link 7) counted 4 audit records up to "
            "it, and the database now has 6: 2 were added behind the app's back.",
        ),
        (
            "checkpoint",
            "The checkpoint of 2026-12-07 06:00:05 UTC (link 7) counted 3 ledger entries up to "
            "it, and the database now has 2: 1 was deleted.",
        ),
    ]


def test_an_unknown_account_or_one_between_one_account_is_named_by_the_accounts_check() -> None:
    problems = check_accounts([Entry(4, "cage", "cage", 5), Entry(5, "cage", "wallet", 5)])
    assert [(p.check, p.seq) for p in problems] == [("accounts", 4), ("accounts", 5)]


def test_a_reversal_out_of_place_or_of_other_chips_is_named_at_its_own_entry() -> None:
    first = Entry(1, "cage", "seating:1", 100)
    forward = check_reversals([Entry(1, "seating:1", "cage", 100, reverses=2), first])
    assert [(p.check, p.seq) for p in forward] == [("reversals", 1)]
    back = Entry(2, "seating:1", "cage", 100, reverses=1)
    twice = check_reversals([first, back, replace(back, seq=3)])
    assert [(p.check, p.seq) for p in twice] == [("reversals", 3)]
    wrong = check_reversals([first, replace(back, chips=99)])
    assert [(p.check, p.seq) for p in wrong] == [("reversals", 2)]


def test_an_entry_posted_between_one_account_is_refused_in_words() -> None:
    posting = Posting("cage", "cage", 5, "buy_in", "a buy-in")
    with pytest.raises(ValueError) as refused:
        _check(posting)
    assert str(refused.value) == "A ledger entry moves chips between two different accounts."


SQLITE = pytest.mark.parametrize("database", ["sqlite"], indirect=True)


@SQLITE
def test_a_file_short_of_one_checkpoint_names_that_one_alone(
    played: Flask,  # noqa: F811
    api: Api,
    floor: Api,
) -> None:
    checkpoint(played)
    older = file_of(played).read_bytes()
    api.post("/tables/1/seats/4/chips", {"kind": "buy_in", "amount": 20}, status=201)
    checkpoint(played)
    file_of(played).write_bytes(older)
    _code, output, _report = verdict(played, floor)
    assert "that the database recorded: the file was replaced by an older copy" in output


@SQLITE
def test_an_entry_slipped_in_after_a_checkpoint_is_checked_alone(
    played: Flask,  # noqa: F811
    database: Database,
) -> None:
    checkpoint(played)
    forged = "f" * 64
    without_triggers(
        played,
        database,
        "INSERT INTO ledger_entries (seq, at, from_account, to_account, chips, reason_code, "
        "reason, table_id, user_id, device, prev_hash, hash) SELECT seq + 1, at, 'cage', "
        f"from_account, 5, 'buy_in', 'slipped in', table_id, user_id, device, hash, '{forged}' "
        "FROM ledger_entries WHERE seq = 15",
    )
    with played.app_context():
        report = verify(db.session())
    assert report.checkpoint is not None
    assert [(p.check, p.seq) for p in report.problems] == [("unkeyed", 16), ("chain", 16)]
    assert report.hands_checked == 0  # the hand played before the checkpoint is not read


def test_rows_outside_the_keyed_chain_are_named_five_at_most() -> None:
    (entries, events) = check_unkeyed({"entry": [3, 4], "event": list(range(1, 8)), "print": []})
    assert problem_words(entries).startswith("2 entry row(s) (3, 4) are outside the keyed chain")
    assert entries.seq == 3
    assert problem_words(events).startswith("7 event row(s) (1, 2, 3, 4, 5, ...) are outside")
    assert events.seq is None
