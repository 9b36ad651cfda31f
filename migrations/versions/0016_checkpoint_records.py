"""The database's own record of the checkpoints filed outside it.

- ``checkpoint_records``: one row per checkpoint the app saw filed (its link, its time and the
  sha256 of its line in the checkpoint file), append-only like the ledger (0006), each linked
  into the keyed chain: ``chain_links.kind`` takes ``checkpoint``. `verify` fails when the
  file no longer holds the newest record's line: deleted, emptied or replaced by an older copy.

Revision ID: 0016_checkpoint_records
Revises: 0015_sign_ins
Create Date: 2026-12-01

"""

import sqlalchemy as sa
from alembic import op

revision = "0016_checkpoint_records"
down_revision = "0015_sign_ins"
branch_labels = None
depends_on = None

KINDS_BEFORE = "kind IN ('entry', 'event', 'print', 'dispute', 'ruling', 'audit')"
KINDS_AFTER = "kind IN ('entry', 'event', 'print', 'dispute', 'ruling', 'audit', 'checkpoint')"


def upgrade() -> None:
    op.create_table(
        "checkpoint_records",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("digest", sa.String(length=64), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_checkpoint_records")),
        sa.UniqueConstraint("digest", name=op.f("uq_checkpoint_records_digest")),
    )
    if op.get_bind().dialect.name == "postgresql":
        op.execute(
            "CREATE TRIGGER checkpoint_records_append_only BEFORE UPDATE OR DELETE ON "
            "checkpoint_records FOR EACH ROW EXECUTE FUNCTION dealer_refuse_change()"
        )
        op.execute(
            "CREATE TRIGGER checkpoint_records_no_truncate BEFORE TRUNCATE ON checkpoint_records "
            "FOR EACH STATEMENT EXECUTE FUNCTION dealer_refuse_change()"
        )
    else:
        _sqlite_guards("checkpoint_records")
    _chain_kinds(KINDS_AFTER)


def _sqlite_guards(table: str) -> None:
    for change in ("UPDATE", "DELETE"):
        op.execute(
            f"CREATE TRIGGER {table}_no_{change.lower()} BEFORE {change} ON {table} "
            f"BEGIN SELECT RAISE(ABORT, '{change} on {table} is refused: it is append-only'); "
            "END"
        )


def _chain_kinds(check: str) -> None:
    """Let ``chain_links.kind`` take the kinds ``check`` names (as 0014 did: SQLite copies the
    table under the new check, and the copy gets 0009's guards again)."""
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
        sa.text("SELECT count(*) FROM chain_links WHERE kind = 'checkpoint'")
    )
    if linked:
        # Their links are in the keyed chain: taking the rows away would break it.
        raise RuntimeError(
            "Checkpoints are recorded in the keyed chain: this database cannot go back before "
            "0016_checkpoint_records."
        )
    _chain_kinds(KINDS_BEFORE)
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP TRIGGER checkpoint_records_no_truncate ON checkpoint_records")
        op.execute("DROP TRIGGER checkpoint_records_append_only ON checkpoint_records")
    else:
        op.execute("DROP TRIGGER checkpoint_records_no_update")
        op.execute("DROP TRIGGER checkpoint_records_no_delete")
    op.drop_table("checkpoint_records")
