"""Live marks: one counter per thing a screen shows, bumped by every write that changes it.

Revision ID: 0013_live
Revises: 0012_devices
Create Date: 2026-12-01

"""

import sqlalchemy as sa
from alembic import op

revision = "0013_live"
down_revision = "0012_devices"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Not append-only (no triggers): a mark is updated in place; it only tells a screen that
    # it must be drawn again, and the history it points at stays in the ledger and events.
    op.create_table(
        "live_marks",
        sa.Column("scope", sa.String(length=40), nullable=False),
        sa.Column("version", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("scope", name=op.f("pk_live_marks")),
    )


def downgrade() -> None:
    op.drop_table("live_marks")
