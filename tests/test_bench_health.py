"""bench/health.py, short: buy-ins from three writers beside health checks (once a second,
then a flood) against gunicorn on each database: no answer is a 500; then checks alone leave
the database its size.

Issue 41: a check's zero busy timeout left on a pooled SQLite connection failed buy-ins with
500 "database is locked" (27 of 100 under a flood of checks); each check added a 9 KB row
(20,000 grew a PostgreSQL database by 200 MB).
"""

from __future__ import annotations

from pathlib import Path

from bench.health import FLAT_BYTES, add_floor, measure
from tests import conftest
from tests.conftest import Database


def test_writes_beside_health_checks_no_500_and_no_growth(
    database: Database, tmp_path: Path
) -> None:
    app = conftest.test_app(database.uri, tmp_path)  # the quick PIN hash: a quick sign-in
    add_floor(app)
    result = measure(
        database.uri,
        f"test-{database.kind}",
        seconds=3,
        flood_seconds=3,
        checks=200,
        writers=3,
        checkers=4,
        ledger_key=app.config["LEDGER_KEY"],
        checkpoint_file=tmp_path / "checkpoints.jsonl",
    )
    answers = {name: (phase.writes, phase.checks) for name, phase in result.phases.items()}
    assert result.server_errors == 0, answers
    assert all(phase.writes[201] for phase in list(result.phases.values())[:2]), answers
    assert result.phases["checks"].checks == {200: 200}, answers
    if database.kind == "sqlite":
        assert result.grew == 0, (result.size_before, result.size_after)
    else:
        assert result.grew <= FLAT_BYTES, (result.size_before, result.size_after)
