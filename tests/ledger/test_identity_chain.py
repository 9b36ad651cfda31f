"""Who is inside the chain: users, tables and their limits, seatings and their players, players,
dealers' sessions. Each is linked as a version of its fields when it is added and each time the
app changes it; the quick `ledger verify` holds every such row to its newest version and names
an edit made outside the app."""

from __future__ import annotations

import pytest
from flask import Flask
from sqlalchemy import func, select, text

from dealer.extensions import db
from dealer.floor.limits import change_limits
from dealer.ledger.chain import IDENTITY
from dealer.models import IdentityVersion, Table, User
from dealer.people.users import deactivate_user
from dealer.transactions import writing
from dealer.words.rows import IDENTITY_WORDS
from tests.helpers import Api
from tests.ledger.test_tampering import played, verdict  # noqa: F401  (a fixture)


@pytest.fixture
def known(played: Flask, api: Api, floor: Api) -> Flask:  # noqa: F811
    """`played`, a player known by card (id 1) in seat 5, and a checked checkpoint after it: the
    quick verify then starts from it."""
    player = floor.post("/players", {"name": "Pat", "card_number": "C-1"}, status=201)
    api.post("/tables/1/seats", {"seat": 5, "player_id": player["id"], "buy_in": 50}, status=201)
    filed = played.test_cli_runner().invoke(args=["ledger", "checkpoint"])
    assert filed.exit_code == 0 and "Checkpoint filed (checked)" in filed.output, filed.output
    return played


def edit(app: Flask, sql: str) -> None:
    with app.app_context(), db.engine.begin() as connection:
        connection.execute(text(sql))


@pytest.mark.parametrize(
    ("sql", "named"),
    [
        ("UPDATE seatings SET player = 'Mallory' WHERE id = 1", "player's name of seating #1"),
        ("UPDATE seatings SET player_id = 1 WHERE id = 2", "player of seating #2"),
        ("UPDATE users SET name = 'Mallory' WHERE id = 1", "name of user #1"),
        ("UPDATE users SET role = 'admin' WHERE id = 1", "role of user #1"),
        ("UPDATE users SET pin_hash = 'known' WHERE id = 2", "PIN of user #2"),
        ("UPDATE table_sessions SET dealer_id = 2 WHERE id = 1", "dealer of dealer's session #1"),
        ("UPDATE card_tables SET name = 'Elsewhere' WHERE id = 1", "name of table #1"),
        ("UPDATE card_tables SET max_buy_in = 5 WHERE id = 1", "largest buy-in of table #1"),
        (
            "UPDATE card_tables SET approval_above = 0 WHERE id = 1",
            "approval threshold of table #1",
        ),
        ("UPDATE players SET name = 'Mallory' WHERE id = 1", "name of player #1"),
        ("UPDATE players SET card_number = 'C-2' WHERE id = 1", "card number of player #1"),
    ],
)
def test_each_identity_edit_is_named_by_the_quick_verify(
    known: Flask, floor: Api, sql: str, named: str
) -> None:
    code, output, report = verdict(known, floor)
    assert code == 0, output
    edit(known, sql)
    code, output, report = verdict(known, floor)
    assert code == 1
    assert report["full"] is False and report["checked_from"] > 0
    assert f"identity: The {named} was changed outside the app." in output
    assert {p["check"] for p in report["problems"]} == {"identity"}  # type: ignore[union-attr]


def test_a_row_added_or_deleted_outside_the_app_is_named(known: Flask, floor: Api) -> None:
    edit(
        known,
        "INSERT INTO players (name, created_at, created_by) VALUES ('Ghost', '2026-01-01', 1)",
    )
    edit(known, "DELETE FROM seatings WHERE id = 5")
    _, output, _ = verdict(known, floor)
    assert "Player #2 is outside the keyed chain" in output
    assert "Seating #5 was deleted outside the app." in output


def versions(app: Flask) -> int:
    with app.app_context():
        return db.session.scalar(select(func.count()).select_from(IdentityVersion)) or 0


def test_the_apps_own_changes_are_new_linked_versions(known: Flask, api: Api, floor: Api) -> None:
    """Limits changed and a user deactivated: each a new version, linked in its own
    transaction; a seat paused and left changes no one's identity. Verify stays OK."""
    before = versions(known)
    with known.app_context(), writing(db.session()) as session:
        table = session.get(Table, 1)
        sam = session.scalars(select(User).where(User.name == "Sam")).one()
        assert table is not None
        change_limits(session, table, {"max_buy_in": 5000}, sam)
    api.post("/tables/1/seats/5/pause", {"paused": True}, status=200)
    api.call("DELETE", "/tables/1/seats/5", status=200)
    with known.app_context(), writing(db.session()) as session:
        dee = session.scalars(select(User).where(User.name == "Dee")).one()
        ada = session.scalars(select(User).where(User.name == "Ada")).one()
        deactivate_user(session, dee.id, ada)
    assert versions(known) == before + 2  # the limits, the user (a pause is not identity)
    code, output, _ = verdict(known, floor)
    assert code == 0, output
    full = known.test_cli_runner().invoke(args=["ledger", "verify", "--full"])
    assert full.exit_code == 0, full.output


def test_every_field_a_version_keeps_has_its_words() -> None:
    """A changed field is named by what a person calls it: each kind's fields have words."""
    assert {kind: list(words) for kind, words in IDENTITY_WORDS.items()} == {
        kind: list(names) for kind, names in IDENTITY.items()
    }
