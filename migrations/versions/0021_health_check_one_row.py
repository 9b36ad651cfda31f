"""The health check writes one row again in place instead of adding a page-sized row a check.

- ``health_checks``: its ``pad`` (more than a page of random bytes) dropped and its rows
  deleted; the first check after makes the one row (id 1) and every check after writes it
  again, so 20,000 checks leave the database the size they found it (each check had added
  9 KB of dead rows on PostgreSQL: 20,000 grew one from 21 to 219 MB).

Revision ID: 0021_health_check_one_row
Revises: 0020_acting_seat
Create Date: 2026-12-07

"""

import sqlalchemy as sa
from alembic import op

revision = "0021_health_check_one_row"
down_revision = "0020_acting_seat"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute("DELETE FROM health_checks")
    # ALTER TABLE ... DROP COLUMN (SQLite 3.35 and later): no other table refers to this one.
    op.drop_column("health_checks", "pad")


def downgrade() -> None:
    op.execute("DELETE FROM health_checks")
    op.add_column(
        "health_checks",
        sa.Column("pad", sa.LargeBinary(), nullable=False, server_default=sa.text("''")),
    )
