"""Command-line set-up and checks: `users add` and `ledger verify` (flask --app dealer)."""

from __future__ import annotations

import json

import click
from flask import Flask
from flask.cli import AppGroup

from dealer.errors import DealerError
from dealer.extensions import current_session
from dealer.ledger import verify
from dealer.models import ROLES
from dealer.people import add_user
from dealer.transactions import writing

users = AppGroup("users", help="Manage the people who sign in.")
ledger = AppGroup("ledger", help="Check the chip ledger.")


@users.command("add")
@click.argument("name")
@click.option("--role", type=click.Choice(ROLES), required=True, help="What the user may do.")
@click.option("--pin", required=True, help="4 to 8 digits.")
def users_add(name: str, role: str, pin: str) -> None:
    """Add a user who signs in with NAME and PIN."""
    try:
        with writing(current_session()) as session:
            user = add_user(session, name, role, pin)
            click.echo(f"Added {user.role} {user.name}.")
    except DealerError as exc:
        raise click.ClickException(exc.message) from exc


@ledger.command("verify")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
def ledger_verify(as_json: bool) -> None:
    """Run every ledger check; exit 1 if any finds a problem."""
    report = verify(current_session())
    current_session().rollback()
    if as_json:
        click.echo(json.dumps(report.as_dict(), indent=2))
    else:
        for problem in report.problems:
            where = f" (entry {problem.seq})" if problem.seq is not None else ""
            click.echo(f"{problem.check}{where}: {problem.message}")
        verdict = "OK" if report.ok else f"{len(report.problems)} problem(s)"
        click.echo(f"{report.entries} entries, head {report.head}: {verdict}")
    if not report.ok:
        raise SystemExit(1)


def register(app: Flask) -> None:
    app.cli.add_command(users)
    app.cli.add_command(ledger)
