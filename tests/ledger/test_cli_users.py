"""`flask --app dealer users add`: PINs of 4 to 8 digits, stored only as slow salted hashes."""

from __future__ import annotations

from flask import Flask
from sqlalchemy import select

from dealer.extensions import db
from dealer.models import User


def test_users_add_stores_a_scrypt_hash_not_the_pin(app: Flask) -> None:
    result = app.test_cli_runner().invoke(
        args=["users", "add", "Maria", "--role", "supervisor", "--pin", "482913"]
    )
    assert result.exit_code == 0, result.output
    assert "Added supervisor Maria." in result.output
    with app.app_context():
        user = db.session.scalars(select(User).where(User.name == "Maria")).one()
        assert user.role == "supervisor"
        assert user.pin_hash.startswith("scrypt:")
        assert "482913" not in user.pin_hash
    answer = app.test_client().post("/api/v1/session", json={"name": "Maria", "pin": "482913"})
    assert answer.status_code == 200


def test_users_add_refuses_bad_pins_roles_and_duplicates(app: Flask) -> None:
    runner = app.test_cli_runner()
    for args in (
        ["users", "add", "A", "--role", "dealer", "--pin", "123"],
        ["users", "add", "A", "--role", "dealer", "--pin", "123456789"],
        ["users", "add", "A", "--role", "dealer", "--pin", "12a4"],
        ["users", "add", "A", "--role", "boss", "--pin", "1234"],
        ["users", "add", " ", "--role", "dealer", "--pin", "1234"],
    ):
        assert runner.invoke(args=args).exit_code != 0, args
    assert (
        runner.invoke(args=["users", "add", "A", "--role", "dealer", "--pin", "1234"]).exit_code
        == 0
    )
    again = runner.invoke(args=["users", "add", "A", "--role", "admin", "--pin", "1234"])
    assert again.exit_code != 0
    assert "already a user called A" in again.output
