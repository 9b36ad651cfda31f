"""dealer/ledger through its own functions, where the other tests leave it unsaid: a table's
rules as its hands are replayed are its profile with the table's own overrides, a time in a
problem's sentence, the words and the entry each check names (a count behind a checkpoint, an
entry between one account, a reversal out of place or twice, rows outside the keyed chain), a
checkpoint file short of one checkpoint, and an entry slipped in after a checkpoint checked
without reading what the checkpoint holds; a movement of chips not a whole number, the
ledger's head read once a transaction however many posts it holds, a checkpoint's rewritten
entry named by its hash's first 16 characters, a stored event the engine records as
another named as moved, the newest checkpoint missing from the file found by its time, and a
checkpoint found recorded not asked after again while its file is unchanged."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from flask import Flask
from sqlalchemy import select, update

from dealer.extensions import db
from dealer.ledger.checkpoint_checks import _rewritten, check_counts
from dealer.ledger.checkpoints import Checkpoint, note_filed
from dealer.ledger.checks import Problem, check_accounts, check_reversals
from dealer.ledger.link_checks import check_unkeyed
from dealer.ledger.post import Posting, Recorder, _check, chain, unchained
from dealer.ledger.replay import ActionRow, ReplayError, replay_engine, table_rules
from dealer.ledger.verification import verify
from dealer.models import CheckpointRecord, Event, Hand, LedgerEntry, Table
from dealer.rules import make_rules
from dealer.transactions import writing
from dealer.words.ledger import problem_words
from tests.conftest import Database
from tests.helpers import Api
from tests.ledger.test_checkpoint_file import checkpoint, file_of
from tests.ledger.test_checks import Entry
from tests.ledger.test_tampering import played, verdict  # noqa: F401  (a fixture)
from tests.ledger.test_verify import without_triggers
from tests.test_write_behind import statements


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


def filed_at_six(
    seq: int, last: str, entry_hash: str, counts: dict[str, int] | None = None
) -> Checkpoint:
    """A checkpoint filed at 06:00:05 UTC of head ``seq`` (``last``) over three entries."""
    return Checkpoint(
        seq=seq,
        hash=last,
        at=datetime(2026, 12, 7, 6, 0, 5, tzinfo=UTC),
        marks={},
        entries=3,
        entry_hash=entry_hash,
        checked=True,
        reason="test",
        prev="",
        key="",
        counts=counts,
    )


def test_a_count_changed_behind_a_checkpoint_names_the_checkpoint_and_the_change() -> None:
    filed = filed_at_six(7, "0" * 64, "0" * 64, counts={"entry": 3, "event": 2, "audit": 4})
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


@pytest.mark.parametrize("chips", [2.5, "5", True, 0])
def test_an_entry_of_chips_not_a_whole_number_above_0_is_refused(chips: object) -> None:
    posting = Posting("cage", "seating:1", chips, "buy_in", "a buy-in")  # type: ignore[arg-type]
    with pytest.raises(ValueError) as refused:
        _check(posting)
    assert str(refused.value) == (
        f"A ledger entry moves a whole number of chips above 0, not {chips!r}."
    )


def test_the_ledgers_head_is_read_once_a_transaction(played: Flask) -> None:  # noqa: F811
    """Two posts in one write: the second follows the first without reading the head again."""
    with played.app_context():
        session = db.session()
        first = session.scalars(select(LedgerEntry).order_by(LedgerEntry.seq)).first()
        assert first is not None
        recorder = Recorder(first.user_id, "pinned")
        posting = Posting(first.from_account, first.to_account, 5, "buy_in", "a buy-in")
        with statements(played) as seen, writing(session) as work:
            one = unchained(first.table_id, [posting], recorder)
            two = unchained(first.table_id, [posting, posting], recorder)
            chain(work, one)
            chain(work, two)
        heads = [s for s in seen if "FROM ledger_entries ORDER BY ledger_entries.seq DESC" in s]
        assert len(heads) == 1
        assert [e.seq for e in one + two] == [16, 17, 18]
        assert [e.prev_hash for e in two] == [one[0].hash, two[0].hash]


def test_a_checkpoints_rewritten_entry_is_named_by_its_hashs_first_16_characters() -> None:
    filed = filed_at_six(9, "a" * 64, "0123456789abcdef" + "9" * 48)
    (deleted, rewritten) = _rewritten(filed, {}, {3: "f" * 64}, 8, "")
    assert deleted.code == "link_deleted"
    assert problem_words(rewritten) == (
        "The checkpoint of 2026-12-07 06:00:05 UTC (link 9) recorded entry 3 as "
        "0123456789abcdef..., but the ledger no longer has it so: entries were rewritten or "
        "deleted."
    )
    assert rewritten.seq == 3


def test_a_stored_event_the_engine_records_as_another_is_named_as_moved(
    played: Flask,  # noqa: F811
) -> None:
    with played.app_context():
        session = db.session()
        hand = session.scalars(select(Hand)).one()
        events = [
            ActionRow(e.seq, e.type, e.action)
            for e in session.scalars(
                select(Event).where(Event.hand_id == hand.id).order_by(Event.seq)
            )
        ]
        assert [e.type for e in events] == ["deal", "meld", "meld"]
        events[2].type = "drop"
        with pytest.raises(ReplayError) as moved:
            replay_engine(hand, events)
    assert moved.value.code == "event_moved"
    assert problem_words(moved.value).startswith(f"Hand {hand.id}: event 3 replays as 3. ")


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


@SQLITE
def test_the_newest_checkpoint_missing_from_the_file_is_the_newest_by_its_time(
    played: Flask,  # noqa: F811
    api: Api,
    database: Database,
) -> None:
    """Two checkpoints gone from the file; the later filed holds the lower link (its time
    rewritten): the problem names the later filed, not the higher link."""
    older = file_of(played).read_bytes()
    checkpoint(played)
    api.post("/tables/1/seats/4/chips", {"kind": "buy_in", "amount": 20}, status=201)
    checkpoint(played)
    file_of(played).write_bytes(older)
    without_triggers(played, database)
    with played.app_context():
        session = db.session()
        records = session.execute(
            select(CheckpointRecord.id, CheckpointRecord.seq, CheckpointRecord.at).order_by(
                CheckpointRecord.id
            )
        ).all()
        first, last = records[-2], records[-1]
        assert first.seq < last.seq
        session.execute(
            update(CheckpointRecord)
            .where(CheckpointRecord.id == first.id)
            .values(at=last.at + timedelta(seconds=1))
        )
        session.commit()
        report = verify(db.session(), full=True)
    (older_file,) = [p for p in report.problems if p.code == "file_older"]
    assert (older_file.fields["link"], older_file.fields["missing"]) == (first.seq, 2)


@SQLITE
def test_a_checkpoint_found_recorded_is_not_asked_after_again(played: Flask) -> None:  # noqa: F811
    checkpoint(played)  # recorded in the database as it is filed
    with played.app_context():
        session = db.session()
        with writing(session) as work:
            assert note_filed(work) == []
            with statements(played) as seen:
                assert note_filed(work) == []
    assert seen == []
