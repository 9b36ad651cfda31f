"""The keyed chain: chain links (append-only), the engine version of each hand, and the indexes
that let checks and reports read a window of history instead of all of it.

- ``chain_links``: one row per ledger entry, event and print, with an HMAC (key outside the
  database) over the row and the link before it. Refuses UPDATE, DELETE (and TRUNCATE on
  PostgreSQL) like the ledger (0006).
- ``hands.engine_version``: the rules engine a hand was played under; null for older hands.
- ``events.hand_status`` and ``events.hand_winner``: the hand's status and winner once the
  event was applied; null for older events.
- Indexes on ``ledger_entries.at``, ``hands.started_at`` and ``chain_links.at``.

An old ledger's rows are linked afterwards, once, by ``flask --app dealer ledger
link-unkeyed`` (it needs the key, which a migration does not have).

Revision ID: 0009_keyed_chain
Revises: 0008_report_prints
Create Date: 2026-12-08

"""

import sqlalchemy as sa
from alembic import op

revision = "0009_keyed_chain"
down_revision = "0008_report_prints"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "chain_links",
        # Assigned by dealer.ledger.links under the writers' lock, never by the database.
        sa.Column("seq", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("kind", sa.String(length=10), nullable=False),
        sa.Column("ref", sa.Integer(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("prev_hash", sa.String(length=64), nullable=False),
        sa.Column("hash", sa.String(length=64), nullable=False),
        sa.CheckConstraint("kind IN ('entry', 'event', 'print')", name=op.f("ck_chain_links_kind")),
        sa.PrimaryKeyConstraint("seq", name=op.f("pk_chain_links")),
        # A row is linked once.
        sa.UniqueConstraint("kind", "ref", name=op.f("uq_chain_links_kind")),
    )
    op.create_index(op.f("ix_chain_links_at"), "chain_links", ["at"])
    with op.batch_alter_table("hands") as batch:
        batch.add_column(sa.Column("engine_version", sa.String(length=40), nullable=True))
    with op.batch_alter_table("events") as batch:
        batch.add_column(sa.Column("hand_status", sa.String(length=10), nullable=True))
        batch.add_column(sa.Column("hand_winner", sa.Integer(), nullable=True))
    op.create_index(op.f("ix_hands_started_at"), "hands", ["started_at"])
    op.create_index(op.f("ix_ledger_entries_at"), "ledger_entries", ["at"])
    # A link, once written, stays: the same guard as the ledger's (0006).
    if op.get_bind().dialect.name == "postgresql":
        op.execute(
            "CREATE TRIGGER chain_links_append_only BEFORE UPDATE OR DELETE ON chain_links "
            "FOR EACH ROW EXECUTE FUNCTION dealer_refuse_change()"
        )
        op.execute(
            "CREATE TRIGGER chain_links_no_truncate BEFORE TRUNCATE ON chain_links "
            "FOR EACH STATEMENT EXECUTE FUNCTION dealer_refuse_change()"
        )
        return
    for change in ("UPDATE", "DELETE"):
        op.execute(
            f"CREATE TRIGGER chain_links_no_{change.lower()} BEFORE {change} ON chain_links "
            f"BEGIN SELECT RAISE(ABORT, '{change} on chain_links is refused: it is "
            "append-only'); END"
        )


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP TRIGGER chain_links_no_truncate ON chain_links")
        op.execute("DROP TRIGGER chain_links_append_only ON chain_links")
    else:
        op.execute("DROP TRIGGER chain_links_no_update")
        op.execute("DROP TRIGGER chain_links_no_delete")
    op.drop_index(op.f("ix_ledger_entries_at"), table_name="ledger_entries")
    op.drop_index(op.f("ix_hands_started_at"), table_name="hands")
    with op.batch_alter_table("events") as batch:
        batch.drop_column("hand_winner")
        batch.drop_column("hand_status")
    with op.batch_alter_table("hands") as batch:
        batch.drop_column("engine_version")
    op.drop_index(op.f("ix_chain_links_at"), table_name="chain_links")
    op.drop_table("chain_links")
