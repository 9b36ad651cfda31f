"""The chip ledger: entries with a gapless seq and a hash chain.

Revision ID: 0004_ledger_entries
Revises: 0003_hands_and_events
Create Date: 2026-11-29

"""

import sqlalchemy as sa
from alembic import op

revision = "0004_ledger_entries"
down_revision = "0003_hands_and_events"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "ledger_entries",
        # Assigned by dealer.ledger.post, never by the database: it must have no gaps.
        sa.Column("seq", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("from_account", sa.String(length=40), nullable=False),
        sa.Column("to_account", sa.String(length=40), nullable=False),
        sa.Column("chips", sa.Integer(), nullable=False),
        sa.Column("reason_code", sa.String(length=30), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("hand_id", sa.Integer(), nullable=True),
        sa.Column("event_id", sa.Integer(), nullable=True),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("device", sa.String(length=200), nullable=False),
        sa.Column("reverses", sa.Integer(), nullable=True),
        sa.Column("prev_hash", sa.String(length=64), nullable=False),
        sa.Column("hash", sa.String(length=64), nullable=False),
        sa.CheckConstraint("chips > 0", name=op.f("ck_ledger_entries_chips_positive")),
        sa.CheckConstraint(
            "from_account <> to_account", name=op.f("ck_ledger_entries_two_accounts")
        ),
        sa.ForeignKeyConstraint(
            ["event_id"], ["events.id"], name=op.f("fk_ledger_entries_event_id_events")
        ),
        sa.ForeignKeyConstraint(
            ["hand_id"], ["hands.id"], name=op.f("fk_ledger_entries_hand_id_hands")
        ),
        sa.ForeignKeyConstraint(
            ["reverses"],
            ["ledger_entries.seq"],
            name=op.f("fk_ledger_entries_reverses_ledger_entries"),
        ),
        sa.ForeignKeyConstraint(
            ["table_id"], ["card_tables.id"], name=op.f("fk_ledger_entries_table_id_card_tables")
        ),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_ledger_entries_user_id_users")
        ),
        sa.PrimaryKeyConstraint("seq", name=op.f("pk_ledger_entries")),
        sa.UniqueConstraint("hash", name=op.f("uq_ledger_entries_hash")),
        # An entry is corrected at most once.
        sa.UniqueConstraint("reverses", name=op.f("uq_ledger_entries_reverses")),
    )
    op.create_index(op.f("ix_ledger_entries_event_id"), "ledger_entries", ["event_id"])
    op.create_index(op.f("ix_ledger_entries_hand_id"), "ledger_entries", ["hand_id"])
    op.create_index(op.f("ix_ledger_entries_table_id"), "ledger_entries", ["table_id"])


def downgrade() -> None:
    op.drop_index(op.f("ix_ledger_entries_table_id"), table_name="ledger_entries")
    op.drop_index(op.f("ix_ledger_entries_hand_id"), table_name="ledger_entries")
    op.drop_index(op.f("ix_ledger_entries_event_id"), table_name="ledger_entries")
    op.drop_table("ledger_entries")
