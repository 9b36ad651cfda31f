"""Registered devices (the floor's names for its tablets), and the payment search's indexes.

Revision ID: 0012_devices
Revises: 0011_limits
Create Date: 2026-12-01

"""

import sqlalchemy as sa
from alembic import op

revision = "0012_devices"
down_revision = "0011_limits"
branch_labels = None
depends_on = None

#: Find a payment (`dealer.disputes.search`): by either account, rule or amount, in a window.
INDEXES = {
    "ix_ledger_entries_from_account": ["from_account", "at"],
    "ix_ledger_entries_to_account": ["to_account", "at"],
    "ix_ledger_entries_reason_code": ["reason_code", "at"],
    "ix_ledger_entries_chips": ["chips", "at"],
}


def upgrade() -> None:
    op.create_table(
        "devices",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("registered_by", sa.Integer(), nullable=False),
        sa.Column("registered_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("retired_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["registered_by"], ["users.id"], name=op.f("fk_devices_registered_by_users")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_devices")),
        sa.UniqueConstraint("token_hash", name=op.f("uq_devices_token_hash")),
    )
    for name, columns in INDEXES.items():
        op.create_index(name, "ledger_entries", columns)


def downgrade() -> None:
    for name in INDEXES:
        op.drop_index(name, table_name="ledger_entries")
    op.drop_table("devices")
