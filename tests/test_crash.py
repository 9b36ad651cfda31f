"""Issue 10: the server SIGKILLed twice under tablets that retry (bench/crash.py, short): is
every acknowledged buy-in recorded exactly once, and does the ledger verify after each?"""

from __future__ import annotations

from bench import crash


def test_two_kills_on_sqlite_lose_and_duplicate_nothing() -> None:
    outcome = crash.main(["--kills", "2", "--every", "1", "--tablets", "2", "--database", "sqlite"])
    assert outcome.kills == 2
    assert outcome.acked > 0
    assert outcome.errors == []
    assert (outcome.lost, outcome.duplicated, outcome.verified) == (0, 0, True)
