"""Who may act where, and what a count needs, inside the chain: tables' settings and dealers'
assignments, versioned and linked like the other identity rows (0018).

- A table's version keeps its count settings (``count_tolerance``, ``sells_for_cash``, 0019)
  and where its acting seat goes (``acting_seat``, 0020) besides its limits: every table
  there gets a new version with them.
- ``identity_versions.kind`` takes ``assignment``: each row of ``table_assignments`` (a dealer
  sent to a table, or taken off it) is versioned as it is written; the rows there get their
  first version here.
- The new versions are linked under the app's ledger key (``flask --app dealer db upgrade``
  runs with the app's configuration). Run without it, they are left to ``flask --app dealer
  ledger link-unkeyed``, and `verify` names them until then.

The fields are this revision's own (a later revision that versions more fields writes its own
versions), so that the revision runs the same on a database made before it however the app's
list of fields grows.

Revision ID: 0022_settings_in_the_chain
Revises: 0021_health_check_one_row
Create Date: 2026-12-07

"""

from datetime import datetime
from types import SimpleNamespace
from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0022_settings_in_the_chain"
down_revision = "0021_health_check_one_row"
branch_labels = None
depends_on = None

KINDS_BEFORE = "kind IN ('user', 'table', 'seating', 'player', 'session')"
KINDS_AFTER = "kind IN ('user', 'table', 'seating', 'player', 'session', 'assignment')"
#: Each kind versioned here: its table, and the fields a version of it keeps at this revision
#: (`dealer.ledger.chain.IDENTITY`).
VERSIONED = {
    "table": (
        "card_tables",
        (
            "name",
            "profile",
            "rules",
            "collection",
            "chip_value_cents",
            "created_by",
            "min_buy_in",
            "max_buy_in",
            "approval_above",
            "count_tolerance",
            "sells_for_cash",
            "acting_seat",
        ),
    ),
    "assignment": ("table_assignments", ("table_id", "dealer_id", "assigned", "by_id", "at")),
}


def upgrade() -> None:
    _identity_kinds(KINDS_AFTER)
    _version_the_rows_there()


def _version_the_rows_there() -> None:
    """A version of every table and assignment there, linked under the app's key (none: left
    unlinked)."""
    from flask import current_app, has_app_context

    from dealer.ledger.chain import GENESIS, link_message, moment, version_link_fields
    from dealer.ledger.keys import LedgerKey
    from dealer.models import utcnow

    bind = op.get_bind()
    meta = sa.MetaData()
    versions = sa.Table("identity_versions", meta, autoload_with=bind)
    links = sa.Table("chain_links", meta, autoload_with=bind)
    now = utcnow()
    made = []
    for kind, (name, fields) in VERSIONED.items():
        table = sa.Table(name, meta, autoload_with=bind)
        columns = [table.c.id, *(table.c[n] for n in fields)]
        for row in bind.execute(sa.select(*columns).order_by(table.c.id)).mappings():
            kept = {n: _kept(row[n], moment) for n in fields}
            value = {"kind": kind, "ref": row["id"], "at": now, "fields": kept}
            ident = bind.execute(versions.insert().returning(versions.c.id), value).scalar_one()
            made.append({**value, "id": ident})
    if not made or not has_app_context():
        return
    key = LedgerKey(str(current_app.config["LEDGER_KEY"]).encode())
    last = bind.execute(
        sa.select(links.c.seq, links.c.hash).order_by(links.c.seq.desc()).limit(1)
    ).first()
    seq, prev = (last.seq, last.hash) if last is not None else (0, GENESIS)
    rows = []
    for version in made:
        seq += 1
        covered = version_link_fields([version[c] for c in ("id", "kind", "ref", "at", "fields")])
        record = {"seq": seq, "kind": "version", "ref": version["id"], "at": now}
        record["prev_hash"] = prev
        record["hash"] = prev = key.mac(link_message(SimpleNamespace(**record), covered))
        rows.append(record)
    bind.execute(links.insert(), rows)


def _kept(value: Any, moment: Any) -> Any:
    """A field as a version keeps it: a time in the chain's one UTC form."""
    return moment(value) if isinstance(value, datetime) else value


def _sqlite_guards(table: str) -> None:
    for change in ("UPDATE", "DELETE"):
        op.execute(
            f"CREATE TRIGGER {table}_no_{change.lower()} BEFORE {change} ON {table} "
            f"BEGIN SELECT RAISE(ABORT, '{change} on {table} is refused: it is append-only'); "
            "END"
        )


def _identity_kinds(check: str) -> None:
    """Let ``identity_versions.kind`` take the kinds ``check`` names (as 0018 did the chain's)."""
    name = op.f("ck_identity_versions_kind")
    if op.get_bind().dialect.name != "sqlite":
        op.drop_constraint(name, "identity_versions", type_="check")
        op.create_check_constraint(name, "identity_versions", check)
        return
    op.execute("DROP TRIGGER IF EXISTS identity_versions_no_update")
    op.execute("DROP TRIGGER IF EXISTS identity_versions_no_delete")
    with op.batch_alter_table("identity_versions", recreate="always") as batch:
        batch.drop_constraint(name, type_="check")
        batch.create_check_constraint(name, check)
    _sqlite_guards("identity_versions")


def downgrade() -> None:
    versioned = op.get_bind().scalar(
        sa.text("SELECT count(*) FROM identity_versions WHERE kind IN ('table', 'assignment')")
    )
    if versioned:
        # Their versions are in the keyed chain with this revision's fields: the app before it
        # would find every table changed.
        raise RuntimeError(
            "Versions of tables' settings and dealers' assignments are in the keyed chain: "
            "this database cannot go back before 0022_settings_in_the_chain."
        )
    _identity_kinds(KINDS_BEFORE)
