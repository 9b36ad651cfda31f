"""Command-line set-up and checks (flask --app dealer ...).

- ``users add`` — a user who signs in with a name and PIN;
- ``ledger verify [--full] [--json]`` — the checks, from the last good checkpoint forward;
- ``ledger checkpoint`` — check what is new, then file the head, signed, outside the database;
- ``ledger link-unkeyed`` — once, for a ledger written before the keyed chain;
- ``backup PATH`` — a consistent copy of an SQLite database while the app runs.
"""

from __future__ import annotations

import json
from pathlib import Path

import click
from flask import Flask
from flask.cli import AppGroup, with_appcontext

from dealer.errors import DealerError
from dealer.extensions import current_session
from dealer.ledger import Report, verify
from dealer.ledger.backup import backup
from dealer.ledger.checkpoints import Checkpoint
from dealer.ledger.links import link_unkeyed, record_filed
from dealer.ledger.verification import checkpoint_report
from dealer.models import ROLES
from dealer.people.users import add_user
from dealer.transactions import snapshot, writing

users = AppGroup("users", help="Manage the people who sign in.")
ledger = AppGroup("ledger", help="Check the chip ledger and file its checkpoints.")


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


def _echo_report(report: Report) -> None:
    for problem in report.problems:
        where = f" (entry {problem.seq})" if problem.seq is not None else ""
        click.echo(f"{problem.check}{where}: {problem.message}")
    for change in report.engine_changed:
        click.echo(f"engine changed (hand {change.hand}): {change.message}")
    start = report.checkpoint
    since = (
        f"from the checkpoint of {start.at:%Y-%m-%d %H:%M:%S} UTC (link {start.seq})"
        if start is not None
        else "from the start"
    )
    verdict = "OK" if report.ok else f"{len(report.problems)} problem(s)"
    click.echo(
        f"{report.entries} entries, head {report.head}; keyed chain to link {report.chain.seq}, "
        f"checked {since}: {report.links} links, {report.hands_checked} hands "
        f"({report.hands} replayed), {report.checkpoints} checkpoint(s) held: {verdict}"
    )


def _echo_checkpoint(checkpoint: Checkpoint) -> None:
    state = "checked" if checkpoint.checked else "not checked"
    click.echo(
        f"Checkpoint filed ({state}): link {checkpoint.seq} {checkpoint.hash}, entry "
        f"{checkpoint.entries}, {checkpoint.at:%Y-%m-%d %H:%M:%S} UTC, signature "
        f"{checkpoint.signature}"
    )


@ledger.command("verify")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.option(
    "--full", is_flag=True, help="Check all of history, not only what came after a checkpoint."
)
def ledger_verify(as_json: bool, full: bool) -> None:
    """Run the ledger checks from the last good checkpoint (or all); exit 1 on any problem."""
    with snapshot(current_session()) as session:
        report = verify(session, full=full)
    if as_json:
        click.echo(json.dumps(report.as_dict(), indent=2))
    else:
        _echo_report(report)
    if not report.ok:
        raise SystemExit(1)


def _check_and_file(full: bool, reason: str) -> Report:
    """Run the checks, file the head they reached (checked when clean), and say so."""
    with snapshot(current_session()) as session:
        report = verify(session, full=full)
        checkpoint = checkpoint_report(session, report, reason)
    if checkpoint is not None:
        record_filed(current_session())
    _echo_report(report)
    if checkpoint is None:
        click.echo("Nothing is recorded yet: no checkpoint filed.")
    else:
        _echo_checkpoint(checkpoint)
    return report


@ledger.command("checkpoint")
def ledger_checkpoint() -> None:
    """Check what is new, then file the head, signed, in CHECKPOINT_FILE; exit 1 on a problem.

    The checkpoint is filed either way: it is marked checked only when the checks pass.
    """
    if not _check_and_file(False, "checkpoint command").ok:
        raise SystemExit(1)


@ledger.command("link-unkeyed")
def ledger_link_unkeyed() -> None:
    """Once, after upgrading an old ledger: check its own chain, link every row into the keyed
    chain, and file a checked checkpoint. Refuses if the old ledger has any problem."""
    with writing(current_session()) as session:
        found = verify(session, full=True)
        wrong = [p for p in found.problems if p.check != "unkeyed"]
        if wrong:
            _echo_report(found)
            raise click.ClickException("The old ledger has problems: nothing was linked.")
        linked = link_unkeyed(session)
    click.echo(
        f"Linked {linked.entries} entries, {linked.events} events, {linked.prints} prints, "
        f"{linked.disputes} disputes and rulings and {linked.audits} audit records "
        "into the keyed chain."
    )
    if not _check_and_file(True, "link-unkeyed").ok:
        raise SystemExit(1)


@click.command("backup")
@with_appcontext
@click.argument("path", type=click.Path(dir_okay=False, path_type=Path))
def backup_command(path: Path) -> None:
    """Copy the SQLite database to PATH while the app runs (PostgreSQL: pg_dump)."""
    try:
        with snapshot(current_session()) as session:
            checkpoint = backup(session, path)
    except DealerError as exc:
        raise click.ClickException(exc.message) from exc
    if checkpoint is not None:
        _echo_checkpoint(checkpoint)
    click.echo(f"Backed up to {path}.")


def register(app: Flask) -> None:
    app.cli.add_command(users)
    app.cli.add_command(ledger)
    app.cli.add_command(backup_command)
