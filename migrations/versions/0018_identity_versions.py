"""Who is inside the chain: a linked version of every user, table, seating, player and dealer's
session.

- ``identity_versions``: one row per version of such a row (its kind, its id, when, and the
  fields that say whose the chips are and under what rules), append-only like the ledger
  (0006). The app writes one, and links it into the keyed chain, whenever it adds or changes
  such a row; ``chain_links.kind`` takes ``version``.
- The rows already there get their first version here, linked under the app's ledger key
  (``flask --app dealer db upgrade`` runs with the app's configuration). Run without it, they
  are left to ``flask --app dealer ledger link-unkeyed``, and `verify` names them until then.

Revision ID: 0018_identity_versions
Revises: 0016_checkpoint_records
Create Date: 2026-12-01

"""

import sqlalchemy as sa
from alembic import op

revision = "0018_identity_versions"
down_revision = "0017_health_checks"
branch_labels = None
depends_on = None

KINDS_BEFORE = "kind IN ('entry', 'event', 'print', 'dispute', 'ruling', 'audit', 'checkpoint')"
KINDS_AFTER = (
    "kind IN ('entry', 'event', 'print', 'dispute', 'ruling', 'audit', 'checkpoint', 'version')"
)
#: Each kind's table, as this revision found them.
TABLES = {
    "user": "users",
    "table": "card_tables",
    "seating": "seatings",
    "player": "players",
    "session": "table_sessions",
}


def upgrade() -> None:
    op.create_table(
        "identity_versions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=10), nullable=False),
        sa.Column("ref", sa.Integer(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("fields", sa.JSON(), nullable=False),
        sa.CheckConstraint(
            "kind IN ('user', 'table', 'seating', 'player', 'session')",
            name=op.f("ck_identity_versions_kind"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_identity_versions")),
    )
    op.create_index("ix_identity_versions_kind_ref", "identity_versions", ["kind", "ref", "id"])
    if op.get_bind().dialect.name == "postgresql":
        op.execute(
            "CREATE TRIGGER identity_versions_append_only BEFORE UPDATE OR DELETE ON "
            "identity_versions FOR EACH ROW EXECUTE FUNCTION dealer_refuse_change()"
        )
        op.execute(
            "CREATE TRIGGER identity_versions_no_truncate BEFORE TRUNCATE ON identity_versions "
            "FOR EACH STATEMENT EXECUTE FUNCTION dealer_refuse_change()"
        )
    else:
        _sqlite_guards("identity_versions")
    _chain_kinds(KINDS_AFTER)
    _link_the_rows_there()


def _link_the_rows_there() -> None:
    """A first version of every row there, linked under the app's key (none: left unlinked)."""
    from flask import current_app, has_app_context

    from dealer.ledger.chain import (
        GENESIS,
        IDENTITY,
        VERSION_COLUMNS,
        identity_fields,
        link_message,
        version_link_fields,
    )
    from dealer.ledger.keys import LedgerKey
    from dealer.models import utcnow

    bind = op.get_bind()
    meta = sa.MetaData()
    versions = sa.Table("identity_versions", meta, autoload_with=bind)
    links = sa.Table("chain_links", meta, autoload_with=bind)
    now = utcnow()
    made = []
    for kind, name in TABLES.items():
        table = sa.Table(name, meta, autoload_with=bind)
        # Fields a later revision added (a table's settings, 0022) are not there yet: kept as
        # null here, and that revision versions every table again with them.
        columns = [table.c.id, *(table.c[n] for n in IDENTITY[kind] if n in table.c)]
        for row in bind.execute(sa.select(*columns).order_by(table.c.id)).mappings():
            value = {"kind": kind, "ref": row["id"], "at": now}
            value["fields"] = identity_fields(kind, row)
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
        fields = version_link_fields([version[c] for c in VERSION_COLUMNS])
        record = {"seq": seq, "kind": "version", "ref": version["id"], "at": now}
        record["prev_hash"] = prev
        record["hash"] = prev = key.mac(link_message(_Link(**record), fields))
        rows.append(record)
    bind.execute(links.insert(), rows)


class _Link:
    """What `link_message` reads of a link."""

    def __init__(self, seq: int, kind: str, ref: int, at: object, prev_hash: str) -> None:
        self.seq, self.kind, self.ref, self.prev_hash = seq, kind, ref, prev_hash


def _sqlite_guards(table: str) -> None:
    for change in ("UPDATE", "DELETE"):
        op.execute(
            f"CREATE TRIGGER {table}_no_{change.lower()} BEFORE {change} ON {table} "
            f"BEGIN SELECT RAISE(ABORT, '{change} on {table} is refused: it is append-only'); "
            "END"
        )


def _chain_kinds(check: str) -> None:
    """Let ``chain_links.kind`` take the kinds ``check`` names (as 0014 did)."""
    name = op.f("ck_chain_links_kind")
    if op.get_bind().dialect.name != "sqlite":
        op.drop_constraint(name, "chain_links", type_="check")
        op.create_check_constraint(name, "chain_links", check)
        return
    op.execute("DROP TRIGGER IF EXISTS chain_links_no_update")
    op.execute("DROP TRIGGER IF EXISTS chain_links_no_delete")
    with op.batch_alter_table("chain_links", recreate="always") as batch:
        batch.drop_constraint(name, type_="check")
        batch.create_check_constraint(name, check)
    _sqlite_guards("chain_links")


def downgrade() -> None:
    linked = op.get_bind().scalar(
        sa.text("SELECT count(*) FROM chain_links WHERE kind = 'version'")
    )
    if linked:
        # Their links are in the keyed chain: taking the rows away would break it.
        raise RuntimeError(
            "Versions of people, tables and seats are linked into the keyed chain: this "
            "database cannot go back before 0018_identity_versions."
        )
    _chain_kinds(KINDS_BEFORE)
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP TRIGGER identity_versions_no_truncate ON identity_versions")
        op.execute("DROP TRIGGER identity_versions_append_only ON identity_versions")
    else:
        op.execute("DROP TRIGGER identity_versions_no_update")
        op.execute("DROP TRIGGER identity_versions_no_delete")
    op.drop_index("ix_identity_versions_kind_ref", table_name="identity_versions")
    op.drop_table("identity_versions")
