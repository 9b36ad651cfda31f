"""Sign-ins that end and a lockout that counts per name and per source.

- ``sign_in_failures``: one counter row per scope and key ("pair": a name at one source,
  "name": a name from anywhere, "source": one client address, "approval": a supervisor's
  name typed at one source for one signed-in user). Wrong PINs in a row, until when the next
  attempt is refused, and the attempts of the current minute (the per-source limit). Kept in
  the database so that every worker, and a restarted one, sees the same counts. Counters are
  updated in place: they are not history (the audit trail is).
- ``auth_tokens.last_seen_at``: when the sign-in was last used (written at most once a
  minute), for the idle limit; ``auth_tokens.device``: the device the sign-in says it is
  (the client's own claim); ``auth_tokens.ended_by``: the supervisor who ended it, if one did.

Revision ID: 0015_sign_ins
Revises: 0014_disputes_players
Create Date: 2026-12-01

"""

import sqlalchemy as sa
from alembic import op

revision = "0015_sign_ins"
down_revision = "0014_disputes_players"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "sign_in_failures",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("scope", sa.String(length=10), nullable=False),
        sa.Column("key", sa.String(length=300), nullable=False),
        sa.Column("failures", sa.Integer(), nullable=False),
        sa.Column("refused_until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("window_start", sa.DateTime(timezone=True), nullable=True),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint(
            "scope IN ('pair', 'name', 'source', 'approval')",
            name=op.f("ck_sign_in_failures_scope"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_sign_in_failures")),
        sa.UniqueConstraint("scope", "key", name=op.f("uq_sign_in_failures_scope")),
    )
    with op.batch_alter_table("auth_tokens") as batch:
        batch.add_column(sa.Column("last_seen_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("device", sa.String(length=200), nullable=True))
        batch.add_column(sa.Column("ended_by", sa.Integer(), nullable=True))
        batch.create_foreign_key(
            op.f("fk_auth_tokens_ended_by_users"), "users", ["ended_by"], ["id"]
        )
    op.create_index(op.f("ix_auth_tokens_revoked_at"), "auth_tokens", ["revoked_at"])


def downgrade() -> None:
    op.drop_index(op.f("ix_auth_tokens_revoked_at"), table_name="auth_tokens")
    with op.batch_alter_table("auth_tokens") as batch:
        batch.drop_constraint(op.f("fk_auth_tokens_ended_by_users"), type_="foreignkey")
        batch.drop_column("ended_by")
        batch.drop_column("device")
        batch.drop_column("last_seen_at")
    op.drop_table("sign_in_failures")
