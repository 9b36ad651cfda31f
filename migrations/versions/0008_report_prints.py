"""Report prints: one row per printed document, append-only, for the REPRINT stamp.

Revision ID: 0008_report_prints
Revises: 0007_table_sessions
Create Date: 2026-12-01

"""

import sqlalchemy as sa
from alembic import op

revision = "0008_report_prints"
down_revision = "0007_table_sessions"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "report_prints",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=20), nullable=False),
        sa.Column("subject", sa.String(length=100), nullable=False),
        sa.Column("reprint", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("device", sa.String(length=200), nullable=False),
        sa.Column("printed_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint(
            "kind IN ('hand_slip', 'session', 'shift')", name=op.f("ck_report_prints_kind")
        ),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_report_prints_user_id_users")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_report_prints")),
        # Two prints never carry the same stamp, even when two people print at once.
        sa.UniqueConstraint("kind", "subject", "reprint", name=op.f("uq_report_prints_kind")),
    )
    # A print, once counted, stays counted: the same guard as the ledger's (0006).
    if op.get_bind().dialect.name == "postgresql":
        op.execute(
            "CREATE TRIGGER report_prints_append_only BEFORE UPDATE OR DELETE ON report_prints "
            "FOR EACH ROW EXECUTE FUNCTION dealer_refuse_change()"
        )
        op.execute(
            "CREATE TRIGGER report_prints_no_truncate BEFORE TRUNCATE ON report_prints "
            "FOR EACH STATEMENT EXECUTE FUNCTION dealer_refuse_change()"
        )
        return
    for change in ("UPDATE", "DELETE"):
        op.execute(
            f"CREATE TRIGGER report_prints_no_{change.lower()} BEFORE {change} ON report_prints "
            f"BEGIN SELECT RAISE(ABORT, '{change} on report_prints is refused: it is "
            "append-only'); END"
        )


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP TRIGGER report_prints_no_truncate ON report_prints")
        op.execute("DROP TRIGGER report_prints_append_only ON report_prints")
    else:
        op.execute("DROP TRIGGER report_prints_no_update")
        op.execute("DROP TRIGGER report_prints_no_delete")
    op.drop_table("report_prints")
