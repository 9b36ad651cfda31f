"""A table the health check writes to, so it says whether the database takes a real write.

- ``health_checks``: each ``GET /healthz`` commits one row (a time and a page-sized pad of
  random bytes, so the write needs fresh room as a floor's writes do) and deletes the rows
  before it. Not history: it holds at most a row or two.

Revision ID: 0017_health_checks
Revises: 0016_checkpoint_records
Create Date: 2026-12-01

"""

import sqlalchemy as sa
from alembic import op

revision = "0017_health_checks"
down_revision = "0016_checkpoint_records"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "health_checks",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("pad", sa.LargeBinary(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_health_checks")),
    )


def downgrade() -> None:
    op.drop_table("health_checks")
