"""Idempotency records: the first answer to each Idempotency-Key, per user.

Revision ID: 0005_idempotency_records
Revises: 0004_ledger_entries
Create Date: 2026-11-29

"""

import sqlalchemy as sa
from alembic import op

revision = "0005_idempotency_records"
down_revision = "0004_ledger_entries"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "idempotency_records",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("key", sa.String(length=255), nullable=False),
        sa.Column("method", sa.String(length=10), nullable=False),
        sa.Column("path", sa.String(length=500), nullable=False),
        sa.Column("request_hash", sa.String(length=64), nullable=False),
        sa.Column("status_code", sa.Integer(), nullable=False),
        sa.Column("response_body", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_idempotency_records_user_id_users")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_idempotency_records")),
        sa.UniqueConstraint("user_id", "key", name=op.f("uq_idempotency_records_user_id")),
    )


def downgrade() -> None:
    op.drop_table("idempotency_records")
