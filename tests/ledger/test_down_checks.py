"""The floor checks itself as it goes: each table session's report runs the quick checks over
what was written since the last checked checkpoint and files the head it reached, checked when
they found nothing; the next check (a session's report, the shift ledger) starts from there."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from flask import Flask
from sqlalchemy import func, select

from dealer.extensions import db
from dealer.ledger.checkpoints import Checkpoint
from dealer.models import AuditRecord, ChainLink
from tests.conftest import Database
from tests.helpers import Api
from tests.ledger.test_checkpoints import filed
from tests.ledger.test_tampering import banner, played, rehash_entries  # noqa: F401
from tests.ledger.test_verify import without_triggers
from tests.reports.evening import one_line, pdf_text
from tests.reports.test_routes import fetch
from tests.screens.test_no_codes import CODE


def down_text(floor: Api, table: int = 1) -> str:
    """The table's first session's report, as text on one line."""
    (down, *_) = floor.get(f"/tables/{table}/sessions")["sessions"]
    return one_line(pdf_text(fetch(floor, f"/reports/sessions/{down['id']}.pdf").data))


def head(app: Flask) -> int:
    with app.app_context():
        return db.session().scalar(select(func.max(ChainLink.seq))) or 0


def last_filed(app: Flask) -> Checkpoint:
    return filed(app)[-1]


def test_a_down_report_after_writes_files_a_checked_checkpoint_and_says_so(
    played: Flask,  # noqa: F811
    floor: Api,
) -> None:
    links = head(played)
    text = down_text(floor)
    line = last_filed(played)
    assert line.checked and line.reason.startswith("session report")
    assert line.seq == links  # the head as the report found it
    assert f"The ledger checked clean up to this report's checkpoint (link {line.seq})" in text
    # Nothing was checked before: every link was recomputed, and the report says how many.
    assert f"Checked from the start of the ledger: all {links} links were recomputed" in text
    assert "CHECK(S) FAILED" not in text and "CHECKS FAILED" not in text
    assert not CODE.findall(text), CODE.findall(text)


def test_the_next_down_report_checks_only_what_was_written_since(
    played: Flask,  # noqa: F811
    api: Api,
    floor: Api,
) -> None:
    down_text(floor)
    first = last_filed(played)
    api.post("/tables/1/seats/4/chips", {"kind": "buy_in", "amount": 50}, status=201)
    text = down_text(floor)
    second = last_filed(played)
    assert second.checked and second.seq > first.seq
    scope = re.search(
        r"Checked from the signed checkpoint of .+? \(link (\d+)\): the (\d+) link", text
    )
    assert scope is not None, text
    # From the first report's checkpoint: its links are vouched for, those after recomputed.
    assert int(scope[1]) == first.seq
    assert int(scope[2]) == second.seq - first.seq


def test_a_link_tampered_after_the_last_checked_checkpoint_fails_the_down_report(
    played: Flask,  # noqa: F811
    api: Api,
    floor: Api,
    database: Database,
) -> None:
    assert "CHECK(S) FAILED" not in down_text(floor)
    assert last_filed(played).checked
    api.post("/tables/1/seats/4/chips", {"kind": "buy_in", "amount": 50}, status=201)
    without_triggers(played, database, "UPDATE ledger_entries SET chips = 999 WHERE seq = 16")
    rehash_entries(played)  # its sha256 chain recomputed: only the keyed chain sees it
    text = down_text(floor)
    assert "CHECK(S) FAILED: read these before signing this report" in text
    assert "Entry 16 was changed after it was written" in text
    assert "CHECKS FAILED" in text  # every page's header says so too
    assert "checked clean" not in text
    line = last_filed(played)
    assert not line.checked and line.reason.startswith("session report")
    # Unchecked, it vouches for nothing: the shift ledger still finds the change.
    assert "Entry 16 was changed after it was written" in banner(floor)


def test_the_shift_ledger_after_a_down_report_checks_only_the_links_after_it(
    played: Flask,  # noqa: F811
    api: Api,
    floor: Api,
) -> None:
    down_text(floor)
    report = last_filed(played)
    api.post("/tables/1/seats/4/chips", {"kind": "buy_in", "amount": 50}, status=201)
    links = head(played)
    text = banner(floor)
    assert "CHECK(S) FAILED" not in text
    scope = re.search(
        r"Checked from the signed checkpoint of .+? \(link (\d+)\): the (\d+) link", text
    )
    assert scope is not None, text
    assert int(scope[1]) == report.seq
    assert int(scope[2]) == links - report.seq < links


def test_a_checkpoint_filed_while_a_check_reads_is_not_taken_for_history_deleted(
    played: Flask,  # noqa: F811
    api: Api,
) -> None:
    """Two reports at once: one's snapshot is taken, then more is written and the other files
    a checkpoint of it. The first check's snapshot ends before that checkpoint's link: it is
    newer than what the check read, not history deleted."""
    from dealer.ledger import verify
    from dealer.ledger.checkpoints import checkpoint_head
    from dealer.transactions import snapshot

    with played.app_context(), snapshot(db.session()) as reading:
        before = reading.scalar(select(func.max(ChainLink.seq))) or 0  # the snapshot is taken
        with played.app_context():  # a tablet's buy-in, on a session of its own
            api.post("/tables/1/seats/4/chips", {"kind": "buy_in", "amount": 50}, status=201)
        with played.app_context():  # another report, on its own session: it sees the buy-in
            other = checkpoint_head(db.session(), "session report elsewhere")
            db.session.rollback()
        assert other is not None and other.seq > before
        report = verify(reading)
        assert report.chain.seq == before
        assert report.ok, report.problems
    with played.app_context(), snapshot(db.session()) as later:
        assert verify(later).ok  # the next check reads the checkpoint, and it holds


@pytest.fixture
def at_downs(played: Flask) -> Callable[[], bool]:  # noqa: F811
    """``played`` with the checks at each down's end on (the tests' app has them off): what
    waits for them."""
    from dealer.floor.down_checks import wait_for_checks

    played.config["LEDGER_CHECK_AT_DOWNS"] = True
    return wait_for_checks


def _open_a_down(api: Api, floor: Api) -> tuple[int, int]:
    """A new table's down, opened by the floor (the dealer holds table 1): the table's id and
    its session's."""
    from tests.api.test_downs import seated_table

    table = seated_table(api, floor)
    return table, int(floor.post(f"/tables/{table}/sessions", status=201)["id"])


def _close_a_down(api: Api, floor: Api) -> int:
    """A new table's down, opened and closed by the floor: its session's id."""
    _, down = _open_a_down(api, floor)
    floor.post(f"/sessions/{down}/close", status=200)
    return down


def test_a_down_that_ends_checks_the_ledger_and_files_a_checked_checkpoint(
    played: Flask,  # noqa: F811
    api: Api,
    floor: Api,
    at_downs: Callable[[], bool],
) -> None:
    """No report printed: the down's end alone sets off the checks, off the request."""
    before = len(filed(played))
    down = _close_a_down(api, floor)
    assert at_downs()
    line = last_filed(played)
    assert len(filed(played)) == before + 1
    assert line.checked and line.reason == f"session {down} closed"
    assert line.seq == head(played)
    # The next check starts there: the shift ledger recomputes nothing written before it.
    text = banner(floor)
    assert "CHECK(S) FAILED" not in text
    assert f"(link {line.seq}): nothing was written after it" in text


def test_a_down_that_ends_after_a_change_tells_the_floor(
    played: Flask,  # noqa: F811
    api: Api,
    floor: Api,
    database: Database,
    at_downs: Callable[[], bool],
) -> None:
    """A link changed since the last checked checkpoint: the down's checks file an unchecked
    checkpoint and put what they found on the audit trail, in words."""
    without_triggers(played, database, "UPDATE ledger_entries SET chips = 999 WHERE seq = 12")
    rehash_entries(played)
    down = _close_a_down(api, floor)
    assert at_downs()
    line = last_filed(played)
    assert not line.checked and line.reason == f"session {down} closed"
    with played.app_context():
        trail = db.session.scalars(
            select(AuditRecord.words).where(AuditRecord.kind == "ledger_check_failed")
        ).all()
    assert len(trail) == 1
    assert trail[0].startswith(f"The ledger's checks after session {down} closed found")
    assert not CODE.findall(trail[0])


def test_a_down_whose_close_is_refused_checks_nothing(
    played: Flask,  # noqa: F811
    api: Api,
    floor: Api,
    at_downs: Callable[[], bool],
) -> None:
    before = len(filed(played))
    table, down = _open_a_down(api, floor)
    floor.post(f"/tables/{table}/hands", status=201)
    refused = floor.call("POST", f"/sessions/{down}/close", {})
    assert refused.status_code == 409  # its hand is in play: nothing committed
    assert at_downs()
    assert len(filed(played)) == before
