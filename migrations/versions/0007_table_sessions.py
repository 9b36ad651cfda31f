"""Table sessions: a dealer's down at a table, and the hands dealt in it.

Revision ID: 0007_table_sessions
Revises: 0006_append_only
Create Date: 2026-12-01

"""

import sqlalchemy as sa
from alembic import op

revision = "0007_table_sessions"
down_revision = "0006_append_only"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "table_sessions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("dealer_id", sa.Integer(), nullable=False),
        sa.Column("opened_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("implicit", sa.Boolean(), nullable=False),
        sa.Column("closed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("close_requested_by", sa.Integer(), nullable=True),
        sa.Column("close_confirmed_by", sa.Integer(), nullable=True),
        sa.Column("close_confirmed_at", sa.DateTime(timezone=True), nullable=True),
        sa.CheckConstraint(
            "close_confirmed_by IS NULL OR closed_at IS NOT NULL",
            name=op.f("ck_table_sessions_confirmed_after_close"),
        ),
        sa.ForeignKeyConstraint(
            ["table_id"], ["card_tables.id"], name=op.f("fk_table_sessions_table_id_card_tables")
        ),
        sa.ForeignKeyConstraint(
            ["dealer_id"], ["users.id"], name=op.f("fk_table_sessions_dealer_id_users")
        ),
        sa.ForeignKeyConstraint(
            ["close_requested_by"],
            ["users.id"],
            name=op.f("fk_table_sessions_close_requested_by_users"),
        ),
        sa.ForeignKeyConstraint(
            ["close_confirmed_by"],
            ["users.id"],
            name=op.f("fk_table_sessions_close_confirmed_by_users"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_table_sessions")),
    )
    op.create_index(op.f("ix_table_sessions_table_id"), "table_sessions", ["table_id"])
    # One open session per table, even when two tablets open one at the same moment.
    op.create_index(
        "uq_table_sessions_one_open",
        "table_sessions",
        ["table_id"],
        unique=True,
        sqlite_where=sa.text("closed_at IS NULL"),
        postgresql_where=sa.text("closed_at IS NULL"),
    )
    # Hands dealt before sessions existed belong to none: the column stays nullable.
    fk = op.f("fk_hands_session_id_table_sessions")
    if op.get_bind().dialect.name == "sqlite":
        # SQLite adds a column with its reference in place. Batch mode would copy and drop
        # `hands`, which the events' foreign keys (enforced: foreign_keys=ON) refuse once a
        # hand exists.
        op.execute(
            f"ALTER TABLE hands ADD COLUMN session_id INTEGER CONSTRAINT {fk} "
            "REFERENCES table_sessions (id)"
        )
    else:
        op.add_column("hands", sa.Column("session_id", sa.Integer(), nullable=True))
        op.create_foreign_key(fk, "hands", "table_sessions", ["session_id"], ["id"])
    op.create_index(op.f("ix_hands_session_id"), "hands", ["session_id"])


def downgrade() -> None:
    op.drop_index(op.f("ix_hands_session_id"), table_name="hands")
    if op.get_bind().dialect.name == "sqlite":
        # SQLite (3.35+) drops a plain column in place; its reference goes with it.
        op.execute("ALTER TABLE hands DROP COLUMN session_id")
    else:
        op.drop_constraint(op.f("fk_hands_session_id_table_sessions"), "hands", type_="foreignkey")
        op.drop_column("hands", "session_id")
    op.drop_index("uq_table_sessions_one_open", table_name="table_sessions")
    op.drop_index(op.f("ix_table_sessions_table_id"), table_name="table_sessions")
    op.drop_table("table_sessions")
