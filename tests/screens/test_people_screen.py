"""People on screen: an admin adds, re-PINs and deactivates users with the command line's
rules (name and PIN rules, the last admin kept, the audit trail); seating by name finds or
makes the player."""

from __future__ import annotations

import re

from flask import Flask
from sqlalchemy import select

from dealer.extensions import db
from dealer.models import AuditRecord, User
from tests.helpers import Api
from tests.screens.conftest import Web, words


def new(name: str, role: str = "dealer", pin: str = "4321", again: str | None = None) -> dict:
    return {"name": name, "role": role, "pin": pin, "pin_again": pin if again is None else again}


def user_id(app: Flask, name: str) -> int:
    with app.app_context():
        return int(db.session.scalars(select(User.id).where(User.name == name)).one())


def audit_words(app: Flask) -> list[str]:
    with app.app_context():
        return list(db.session.scalars(select(AuditRecord.words).order_by(AuditRecord.id)))


def test_an_admin_adds_a_dealer_who_then_signs_in(people: Flask) -> None:
    admin = Web.sign_in(people, "admin")
    assert "People" in words(admin.get("/floor"))
    page = words(admin.follow(admin.post("/floor/people", new("Rosa"))))
    assert "Rosa is added as dealer" in page
    signed = people.test_client().post("/sign-in", data={"name": "Rosa", "pin": "4321"})
    assert signed.status_code == 303
    assert "Rosa added as dealer by Ada." in audit_words(people)


def test_the_pin_rules_and_a_lookalike_name_are_refused_in_words(people: Flask) -> None:
    admin = Web.sign_in(people, "admin")
    short = words(admin.post("/floor/people", new("Rosa", pin="12"), status=422).get_data(True))
    assert "Not done." in short and "PIN" in short
    differ = admin.post("/floor/people", new("Rosa", again="9999"), status=422)
    assert "Not done." in words(differ.get_data(True))
    dup = admin.post("/floor/people", new("DEE"), status=409)
    assert "“DEE” looks like the existing user Dee: choose another name." in words(
        dup.get_data(True)
    )
    assert "Rosa" not in [u for u in audit_words(people) if "added" in u]


def test_a_new_pin_ends_the_old_one(people: Flask) -> None:
    admin = Web.sign_in(people, "admin")
    dee = user_id(people, "Dee")
    done = admin.post(f"/floor/people/{dee}/pin", {"pin": "2468", "pin_again": "2468"})
    assert "Dee has a new PIN" in words(admin.follow(done))
    old = people.test_client().post("/sign-in", data={"name": "Dee", "pin": "1111"})
    assert old.status_code != 303
    assert (
        people.test_client().post("/sign-in", data={"name": "Dee", "pin": "2468"}).status_code
        == 303
    )
    assert "Dee's PIN changed by Ada." in audit_words(people)


def test_deactivating_keeps_the_last_admin(people: Flask) -> None:
    admin = Web.sign_in(people, "admin")
    ada = user_id(people, "Ada")
    kept = admin.post(f"/floor/people/{ada}/deactivate", {}, status=409)
    assert "This is the last active admin: add another first." in words(kept.get_data(True))
    dee = user_id(people, "Dee")
    page = words(admin.follow(admin.post(f"/floor/people/{dee}/deactivate", {})))
    assert "Dee is deactivated" in page
    assert (
        people.test_client().post("/sign-in", data={"name": "Dee", "pin": "1111"}).status_code
        != 303
    )


def test_only_an_admin_sees_people(people: Flask) -> None:
    supervisor = Web.sign_in(people, "supervisor")
    supervisor.get("/floor/people", status=403)
    assert not re.search(r'href="/floor/people"', supervisor.get("/floor"))


def test_a_name_two_players_share_asks_which(people: Flask, floor_api: Api) -> None:
    """Seating by a name two players have is refused with a sentence: choose from the list."""
    for _ in range(2):
        floor_api.post("/players", {"name": "Sam Wu"}, status=201)
    table = floor_api.table("classic")["id"]
    dealer = Web.sign_in(people, "dealer")
    page = dealer.get(f"/tables/{table}/seats/1")
    form = re.search(r'<form[^>]*action="/tables/\d+/seats".*?</form>', page, re.S)
    assert form
    fields = dict(
        re.findall(
            r'<input[^>]*name="(csrf_token|key|page|seat)"[^>]*value="([^"]*)"', form.group(0)
        )
    )
    answer = dealer.post(
        f"/tables/{table}/seats", {**fields, "player": "sam wu", "buy_in": "100"}, status=None
    )
    assert answer.status_code == 409
    assert "Several players are called sam wu: choose one from the list." in words(
        answer.get_data(True)
    )
