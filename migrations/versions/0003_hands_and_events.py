"""Hands and their events: the rules each hand was played under and what happened in it.

Revision ID: 0003_hands_and_events
Revises: 0002_tables_and_seatings
Create Date: 2026-11-29

"""

import sqlalchemy as sa
from alembic import op

revision = "0003_hands_and_events"
down_revision = "0002_tables_and_seatings"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "hands",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(length=10), nullable=False),
        sa.Column("rules", sa.JSON(), nullable=False),
        sa.Column("collection", sa.JSON(), nullable=False),
        sa.Column("seats", sa.JSON(), nullable=False),
        sa.Column("winner", sa.Integer(), nullable=True),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ended_at", sa.DateTime(timezone=True), nullable=True),
        sa.CheckConstraint(
            "status IN ('playing', 'settled', 'void')", name=op.f("ck_hands_status")
        ),
        sa.ForeignKeyConstraint(
            ["table_id"], ["card_tables.id"], name=op.f("fk_hands_table_id_card_tables")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_hands")),
        sa.UniqueConstraint("table_id", "number", name=op.f("uq_hands_table_id")),
    )
    op.create_index(op.f("ix_hands_table_id"), "hands", ["table_id"])
    # One hand in play per table, even when two tablets start one at the same moment.
    op.create_index(
        "uq_hands_one_playing",
        "hands",
        ["table_id"],
        unique=True,
        sqlite_where=sa.text("status = 'playing'"),
        postgresql_where=sa.text("status = 'playing'"),
    )
    op.create_table(
        "events",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("hand_id", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("type", sa.String(length=20), nullable=False),
        sa.Column("action", sa.JSON(), nullable=True),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("supervisor_id", sa.Integer(), nullable=True),
        sa.Column("device", sa.String(length=200), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["hand_id"], ["hands.id"], name=op.f("fk_events_hand_id_hands")),
        sa.ForeignKeyConstraint(
            ["supervisor_id"], ["users.id"], name=op.f("fk_events_supervisor_id_users")
        ),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name=op.f("fk_events_user_id_users")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_events")),
        # Two events can never share a place in a hand's history.
        sa.UniqueConstraint("hand_id", "seq", name=op.f("uq_events_hand_id")),
    )
    op.create_index(op.f("ix_events_hand_id"), "events", ["hand_id"])


def downgrade() -> None:
    op.drop_index(op.f("ix_events_hand_id"), table_name="events")
    op.drop_table("events")
    op.drop_index("uq_hands_one_playing", table_name="hands")
    op.drop_index(op.f("ix_hands_table_id"), table_name="hands")
    op.drop_table("hands")
