"""Names compared by what a person sees (`dealer.bounds.skeleton`), on SQLite and PostgreSQL:
a user's among users, a table's among tables, a tablet's among the tablets in use; two players
may share a name, and a name typed alone finds the player it reads as."""

from __future__ import annotations

import pytest
from flask import Flask
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from dealer.disputes.players import add_player, chosen_player
from dealer.errors import Conflict
from dealer.extensions import db
from dealer.models import Player, User
from dealer.people.devices import register_device, rename_device, retire_device
from dealer.transactions import writing
from tests.helpers import Api

LOOK_ALIKES_OF_SAM = ["S\u0430m", "\u0405am", "Sarn", "\uff33\uff41\uff4d", "SAM"]


@pytest.mark.parametrize("name", LOOK_ALIKES_OF_SAM)
def test_a_user_whose_name_reads_as_an_existing_one_is_refused_naming_it(
    admin: Api, name: str
) -> None:
    refused = admin.post("/users", {"name": name, "role": "admin", "pin": "5555"}, status=409)
    said = refused["error"]
    assert said["code"] == "user_exists"
    assert said["message"] == f"“{name}” looks like the existing user Sam: choose another name."
    assert [u["name"] for u in admin.get("/users")["users"]] == ["Ada", "Dee", "Sam"]
    signing_in = admin.client.post("/api/v1/session", json={"name": name, "pin": "5555"})
    assert signing_in.status_code == 401


def test_a_run_of_spaces_does_not_make_a_second_name(admin: Api) -> None:
    admin.post("/users", {"name": "Mae Lee", "role": "dealer", "pin": "5555"}, status=201)
    refused = admin.post(
        "/users", {"name": "Mae  Lee", "role": "dealer", "pin": "5555"}, status=409
    )
    assert refused["error"]["message"] == (
        "“Mae  Lee” looks like the existing user Mae Lee: choose another name."
    )


def test_a_table_whose_name_reads_as_an_existing_tables_is_refused(floor: Api) -> None:
    first = floor.table(name="Table 1")
    again = floor.post("/tables", {"name": "Table 1", "profile": "classic"}, status=409)
    assert again["error"] == {
        "code": "table_exists",
        "message": "There is already a table called Table 1.",
    }
    for name in ("\uff34\uff41\uff42\uff4c\uff45 1", "Table  1", "table l", "T\u0430ble 1"):
        refused = floor.post("/tables", {"name": name, "profile": "classic"}, status=409)
        assert refused["error"]["message"] == (
            f"“{name}” looks like the existing table Table 1: choose another name."
        )
    floor.post("/tables", {"name": "Table 2", "profile": "classic"}, status=201)
    names = [t["name"] for t in floor.get("/tables")["tables"]]
    assert sorted(names) == ["Table 1", "Table 2"] and first["name"] == "Table 1"


def _sam(session: Session) -> User:
    return session.scalars(select(User).where(User.name == "Sam")).one()


def test_a_tablet_in_use_keeps_its_name_and_a_retired_ones_is_free(people: Flask) -> None:
    with people.app_context(), writing(db.session()) as session:
        _token, first = register_device(session, "Cage tablet", _sam(session), None)
        first_id = first.id
    for name in ("\uff23age tablet", "Cage  tablet", "C\u0430ge tablet"):
        with (
            people.app_context(),
            writing(db.session()) as session,
            pytest.raises(Conflict) as refused,
        ):
            register_device(session, name, _sam(session), None)
        assert refused.value.code == "device_exists"
        assert refused.value.message == (
            f"“{name}” looks like the tablet in use Cage tablet: choose another name."
        )
    with people.app_context(), writing(db.session()) as session:
        _token, other = register_device(session, "Table 4 tablet", _sam(session), None)
        with pytest.raises(Conflict, match="already called Cage tablet"):
            rename_device(session, other.id, "Cage tablet", _sam(session))
    with people.app_context(), writing(db.session()) as session:
        # Its own name in another case is no other tablet's.
        assert rename_device(session, first_id, "CAGE tablet", _sam(session)).name == "CAGE tablet"
        retire_device(session, first_id, _sam(session))
    with people.app_context(), writing(db.session()) as session:
        _token, again = register_device(session, "Cage tablet", _sam(session), None)
        assert again.id != first_id


def test_two_players_may_share_a_name_and_a_look_alike_typed_alone_finds_the_known_one(
    people: Flask,
) -> None:
    """Two real players called Rosa are two players, told apart by their player number and card;
    "R\u043esa" (a Cyrillic o) typed alone at a seat is Rosa, not a third who looks the same."""
    with people.app_context(), writing(db.session()) as session:
        rosa = add_player(session, "Rosa", None, None, _sam(session)).id
        assert chosen_player(session, "", "R\u043esa", _sam(session)) == rosa
        assert chosen_player(session, "", "ROSA ", _sam(session)) == rosa
        add_player(session, "Rosa", "C-2", None, _sam(session))
        with pytest.raises(Conflict, match="Several players are called"):
            chosen_player(session, "", "R\u043esa", _sam(session))
        assert session.scalar(select(func.count()).select_from(Player)) == 2
