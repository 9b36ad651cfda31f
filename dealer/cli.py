"""Command-line set-up and checks (flask --app dealer ...).

- ``users add`` — a user who signs in with a name and PIN;
- ``ledger verify [--full] [--json]`` — the checks, from the last good checkpoint forward;
- ``ledger checkpoint`` — check what is new, then file the head, signed, outside the database;
- ``ledger link-unkeyed`` — once, for a ledger written before the keyed chain;
- ``backup PATH`` — a consistent copy of an SQLite database while the app runs.

What a command prints goes through the catalogue; the help texts click reads at import stay
in English (the language is chosen when the app is made, after).
"""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path

import click
from flask import Flask
from flask.cli import AppGroup, with_appcontext

from dealer.errors import DealerError
from dealer.extensions import current_session
from dealer.ledger import Report, verify
from dealer.ledger.backup import backup
from dealer.ledger.checkpoints import Checkpoint
from dealer.ledger.checks import Refused
from dealer.ledger.links import link_unkeyed, record_filed
from dealer.ledger.verification import checkpoint_report
from dealer.models import ROLES
from dealer.people.users import add_user
from dealer.transactions import snapshot, writing
from dealer.views.ledger import verification_answer
from dealer.words.catalogue import say
from dealer.words.ledger import engine_change_words, problem_words

users = AppGroup("users", help="Manage the people who sign in.")
ledger = AppGroup("ledger", help="Check the chip ledger and file its checkpoints.")
#: What a check counted, as its report names it and its printed line says it.
COUNTED = ("entries", "head", "links", "hands_checked", "hands", "checkpoints")


@users.command("add")
@click.argument("name")
@click.option("--role", type=click.Choice(ROLES), required=True, help="What the user may do.")
@click.option("--pin", required=True, help="4 to 8 digits.")
def users_add(name: str, role: str, pin: str) -> None:
    """Add a user who signs in with NAME and PIN."""
    try:
        with writing(current_session()) as session:
            user = add_user(session, name, role, pin)
            click.echo(say("Added {role} {name}.", role=user.role, name=user.name))
    except DealerError as exc:
        raise click.ClickException(exc.message) from exc


def _echo_report(report: Report) -> None:
    for problem in report.problems:
        where = say(" (entry {seq})", seq=problem.seq) if problem.seq is not None else ""
        click.echo(
            say(
                "{check}{where}: {message}",
                check=problem.check,
                where=where,
                message=problem_words(problem),
            )
        )
    for change in report.engine_changed:
        click.echo(
            say(
                "engine changed (hand {hand}): {message}",
                hand=change.hand,
                message=engine_change_words(change),
            )
        )
    start = report.checkpoint
    since = (
        say(
            "from the checkpoint of {at} UTC (link {seq})",
            at=f"{start.at:%Y-%m-%d %H:%M:%S}",
            seq=start.seq,
        )
        if start is not None
        else say("from the start")
    )
    verdict = say("OK") if report.ok else say("{n} problem(s)", n=len(report.problems))
    click.echo(
        say(
            "{entries} entries, head {head}; keyed chain to link {link}, checked {since}: "
            "{links} links, {hands_checked} hands ({hands} replayed), {checkpoints} "
            "checkpoint(s) held: {verdict}",
            link=report.chain.seq,
            since=since,
            verdict=verdict,
            **{name: getattr(report, name) for name in COUNTED},
        )
    )


def _echo_checkpoint(checkpoint: Checkpoint) -> None:
    state = say("checked") if checkpoint.checked else say("not checked")
    click.echo(
        say(
            "Checkpoint filed ({state}): link {seq} {hash}, entry {entries}, {at} UTC, "
            "signature {signature}",
            state=state,
            seq=checkpoint.seq,
            hash=checkpoint.hash,
            entries=checkpoint.entries,
            at=f"{checkpoint.at:%Y-%m-%d %H:%M:%S}",
            signature=checkpoint.signature,
        )
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
        click.echo(json.dumps(verification_answer(report), indent=2))
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
        click.echo(say("Nothing is recorded yet: no checkpoint filed."))
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
            raise click.ClickException(say("The old ledger has problems: nothing was linked."))
        linked = link_unkeyed(session)
    click.echo(
        say(
            "Linked {entries} entries, {events} events, {prints} prints, {disputes} disputes "
            "and rulings and {audits} audit records into the keyed chain.",
            **asdict(linked),
        )
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
    except Refused as exc:
        raise click.ClickException(problem_words(exc)) from exc
    if checkpoint is not None:
        _echo_checkpoint(checkpoint)
    click.echo(say("Backed up to {path}.", path=path))


def register(app: Flask) -> None:
    app.cli.add_command(users)
    app.cli.add_command(ledger)
    app.cli.add_command(backup_command)
