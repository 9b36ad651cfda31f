"""An insider with the database rewrites history: the keyed chain and the checkpoints catch it.

Each scenario of issue 11, on SQLite and PostgreSQL: the guards dropped, a row edited and the
ledger's own sha256 chain recomputed (what used to pass), the last entry deleted, an event's
user and device rewritten, a print's reader changed. Each time `ledger verify` exits 1 with a
named problem, the API says ok false, and the next shift report prints the red banner.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from types import SimpleNamespace

import pytest
from flask import Flask
from sqlalchemy import func, select, update

from dealer.config import TESTING_LEDGER_KEY
from dealer.extensions import db
from dealer.ledger import GENESIS, entry_hash
from dealer.ledger.chain import link_message
from dealer.ledger.keys import LedgerKey
from dealer.ledger.reading import Stretch
from dealer.models import ChainLink, LedgerEntry
from tests.conftest import Database
from tests.helpers import Api
from tests.ledger.test_verify import play_two_melds, without_triggers
from tests.reports.evening import one_line, pdf_text
from tests.reports.test_routes import fetch, window

#: The testing configuration's LEDGER_KEY: an insider who has stolen the key too.
STOLEN_KEY = LedgerKey(TESTING_LEDGER_KEY.encode())


@pytest.fixture
def played(api: Api, floor: Api) -> Flask:
    """Entries 1 to 13 (`play_two_melds`); then a fourth player buys in (14) and, not being in
    the hand, cashes out 10 (15)."""
    table = play_two_melds(api, floor)
    api.seat(table, 4, "P4")
    api.post(f"/tables/{table}/seats/4/chips", {"kind": "cash_out", "amount": 10}, status=201)
    return api.client.application


def rehash_entries(app: Flask, with_key: LedgerKey | None = None) -> None:
    """Recompute every entry's sha256 chain (and, holding the key, every link of the chain)."""
    with app.app_context():
        session = db.session()
        new: dict[int, tuple[str, str]] = {}
        prev = GENESIS
        for entry in session.scalars(select(LedgerEntry).order_by(LedgerEntry.seq)):
            columns = {c.key: getattr(entry, c.key) for c in LedgerEntry.__table__.columns}
            own = entry_hash(SimpleNamespace(**{**columns, "prev_hash": prev}))  # type: ignore[arg-type]
            new[entry.seq], prev = (prev, own), own
        rewrite(LedgerEntry, new)
        if with_key is not None:
            new, prev = {}, GENESIS
            head = session.scalar(select(func.max(ChainLink.seq))) or 0
            for link in Stretch(session, 1, head).links():
                assert link.row is not None
                own = with_key.mac(link_message(link._replace(prev_hash=prev), link.row))
                new[link.seq], prev = (prev, own), own
            rewrite(ChainLink, new)


def rewrite(model: type[LedgerEntry] | type[ChainLink], new: dict[int, tuple[str, str]]) -> None:
    """Set the prev_hash and hash of each row of ``model`` by seq."""
    session = db.session()
    session.rollback()
    for seq, (before, own) in new.items():
        session.execute(update(model).where(model.seq == seq).values(prev_hash=before, hash=own))
    session.commit()


def verdict(app: Flask, floor: Api) -> tuple[int, str, dict[str, object]]:
    """`ledger verify`'s exit code and output, and the API's report."""
    result = app.test_cli_runner().invoke(args=["ledger", "verify"])
    return result.exit_code, result.output, floor.get("/ledger/verify")


def banner(floor: Api) -> str:
    return one_line(pdf_text(fetch(floor, f"/reports/shift.pdf?{window()}").data))


Tamper = Callable[[Flask, Database], None]


def buy_in_raised(app: Flask, database: Database) -> None:
    without_triggers(app, database, "UPDATE ledger_entries SET chips = 1000 WHERE seq = 1")
    rehash_entries(app)


def cash_out_lowered(app: Flask, database: Database) -> None:
    without_triggers(app, database, "UPDATE ledger_entries SET chips = 1 WHERE seq = 15")
    rehash_entries(app)


def last_entry_deleted(app: Flask, database: Database) -> None:
    without_triggers(app, database, "DELETE FROM ledger_entries WHERE seq = 15")


def event_user_and_device_rewritten(app: Flask, database: Database) -> None:
    without_triggers(
        app,
        database,
        "UPDATE events SET user_id = (SELECT id FROM users WHERE name = 'Sam'), "
        "device = 'the back office' WHERE seq = 2",
    )


@pytest.mark.parametrize(
    ("tamper", "check", "seq"),
    [
        (buy_in_raised, "chain", 1),
        (cash_out_lowered, "chain", 15),
        (last_entry_deleted, "chain", 15),
        (event_user_and_device_rewritten, "events", None),
    ],
)
def test_a_rewrite_is_named_by_verify_the_api_and_the_next_report(
    played: Flask, floor: Api, database: Database, tamper: Tamper, check: str, seq: int | None
) -> None:
    code, _, report = verdict(played, floor)
    assert code == 0 and report["ok"] is True
    tamper(played, database)
    code, output, report = verdict(played, floor)
    assert code == 1
    assert report["ok"] is False
    problems = report["problems"]
    assert isinstance(problems, list)
    assert (check, seq) in {(p["check"], p["seq"]) for p in problems}, problems
    assert f"{check}{f' (entry {seq})' if seq else ''}:" in output
    assert "CHECK(S) FAILED" in banner(floor)


def test_a_deleted_last_entry_and_its_link_are_caught_by_the_checkpoint(
    played: Flask, floor: Api, database: Database
) -> None:
    filed = played.test_cli_runner().invoke(args=["ledger", "checkpoint"])
    assert filed.exit_code == 0, filed.output
    assert "Checkpoint filed (checked)" in filed.output
    without_triggers(
        played,
        database,
        # The newest entry, its link and what came after it (the record of the checkpoint).
        "DELETE FROM chain_links WHERE seq >= "
        "(SELECT seq FROM chain_links WHERE kind = 'entry' AND ref = 15)",
        "DELETE FROM checkpoint_records WHERE id = (SELECT max(id) FROM checkpoint_records)",
        "DELETE FROM ledger_entries WHERE seq = 15",
    )
    code, output, report = verdict(played, floor)
    assert code == 1
    assert {p["check"] for p in report["problems"]} == {"checkpoint"}  # type: ignore[union-attr]
    assert "history was deleted" in output
    assert "CHECK(S) FAILED" in banner(floor)


def test_a_rewrite_with_the_stolen_key_is_caught_by_the_checkpoint(
    played: Flask, floor: Api, database: Database
) -> None:
    """The key and the database are not enough: a filed checkpoint still holds the old head."""
    assert played.test_cli_runner().invoke(args=["ledger", "checkpoint"]).exit_code == 0
    without_triggers(played, database, "UPDATE ledger_entries SET chips = 1000 WHERE seq = 1")
    rehash_entries(played, with_key=STOLEN_KEY)
    code, output, report = verdict(played, floor)
    assert code == 1
    assert {p["check"] for p in report["problems"]} == {"checkpoint"}  # type: ignore[union-attr]
    assert "history up to it was rewritten" in output


def test_a_print_given_to_someone_else_is_caught(
    played: Flask, floor: Api, database: Database
) -> None:
    fetch(floor, "/reports/hands/1.pdf")
    without_triggers(
        played,
        database,
        "UPDATE report_prints SET user_id = (SELECT id FROM users WHERE name = 'Dee')",
    )
    _, _, report = verdict(played, floor)
    assert "prints" in {p["check"] for p in report["problems"]}  # type: ignore[union-attr]


def test_a_row_added_behind_the_apps_back_is_outside_the_chain(
    played: Flask, floor: Api, database: Database
) -> None:
    with played.app_context(), db.engine.begin() as connection:
        entries = LedgerEntry.__table__
        last = connection.execute(select(entries).where(entries.c.seq == 15)).mappings().one()
        fields = {**last, "seq": 16, "prev_hash": last["hash"], "hash": "f" * 64}
        connection.execute(entries.insert(), [fields])
    _, _, report = verdict(played, floor)
    assert ("unkeyed", 16) in {(p["check"], p["seq"]) for p in report["problems"]}  # type: ignore[union-attr]


def test_the_shift_report_checks_from_its_checkpoint_and_still_catches_a_change_after_it(
    played: Flask, api: Api, floor: Api, database: Database
) -> None:
    """The shift report trusts the links up to the last checked checkpoint that holds and
    recomputes those after it: an entry rewritten after it is named in the red banner, and the
    report says from which checkpoint it checked."""
    first = banner(floor)  # checks everything, and files a checked checkpoint
    assert "CHECK(S) FAILED" not in first
    assert "Checked from the start of the ledger" in first
    api.post("/tables/1/seats/4/chips", {"kind": "buy_in", "amount": 50}, status=201)
    with played.app_context():
        newest = db.session().scalar(select(func.max(LedgerEntry.seq)))
    assert newest == 16
    code, _, _ = verdict(played, floor)
    assert code == 0
    without_triggers(played, database, "UPDATE ledger_entries SET chips = 999 WHERE seq = 16")
    rehash_entries(played)  # its sha256 chain recomputed: only the keyed chain sees it
    second = banner(floor)
    assert "CHECK(S) FAILED" in second
    assert "Entry 16 was changed after it was written" in second
    scope = re.search(
        r"Checked from the signed checkpoint of .+? \(link (\d+)\): the (\d+) links", second
    )
    assert scope is not None, second
    with played.app_context():
        links = db.session().scalar(select(func.max(ChainLink.seq)))
    # Only the links after the checkpoint were recomputed (the print of this copy came later).
    assert int(scope[1]) > 0
    assert int(scope[1]) + int(scope[2]) <= links
    assert "Checked from the start of the ledger" not in second


def test_rows_written_out_of_the_chains_order_are_read_key_by_key_the_same(
    played: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A batch's rows read by their keys (rows put in out of the chain's order, as a database
    built in bulk has them) are the rows read by their span: every link, the same fields."""
    from dealer.ledger import reading

    def read() -> list[tuple[int, str, object]]:
        with played.app_context():
            session = db.session()
            head = session.scalar(select(func.max(ChainLink.seq))) or 0
            return [(link.seq, link.kind, link.row) for link in Stretch(session, 1, head).links()]

    by_span = read()
    monkeypatch.setattr(reading, "SPAN_AT_MOST", 0)  # no span is close enough: key by key
    by_key = read()
    assert by_key == by_span
    assert {kind for _, kind, _ in by_span} >= {"entry", "event"}
    assert all(row is not None for _, _, row in by_span)
