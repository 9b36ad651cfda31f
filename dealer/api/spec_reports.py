"""The OpenAPI paths of table sessions, and of the printed reports and exports (issue 5).

Merged into the document by `spec.document`. The reports and exports live outside /api/v1
(their addresses are the ones a browser prints from) but take the same sign-in and answer
refusals with the same error shape, so they are documented here too.
"""

from __future__ import annotations

from .spec import (
    BOOL,
    ID_PARAM,
    INT,
    STR,
    SUPERVISOR,
    TABLE_ID,
    TIME,
    Schema,
    nullable,
    obj,
    operation,
    path_param,
    ref,
)

__all__ = ["SCHEMAS", "paths"]

SESSION = obj(
    [
        "id",
        "table",
        "dealer",
        "status",
        "implicit",
        "opened_at",
        "closed_at",
        "close_requested_by",
        "close_confirmed_by",
        "close_confirmed_at",
        "hands",
    ],
    {
        "id": INT,
        "table": INT,
        "dealer": STR,
        "status": {
            "enum": ["open", "awaiting_confirmation", "closed"],
            "description": "awaiting_confirmation: the down has ended; the floor has not yet "
            "confirmed the close.",
        },
        "implicit": {**BOOL, "description": "Opened by dealing a hand while none was open."},
        "opened_at": TIME,
        "closed_at": {**nullable(TIME), "description": "When the down ended."},
        "close_requested_by": nullable(STR),
        "close_confirmed_by": {**nullable(STR), "description": "The supervisor who confirmed."},
        "close_confirmed_at": nullable(TIME),
        "hands": {"type": "array", "items": INT, "description": "The hands dealt in it."},
    },
)

SCHEMAS: dict[str, Schema] = {"Session": SESSION}

SESSION_ID = path_param("session_id", ID_PARAM, "The table session's id.")
HAND_ID = path_param("hand_id", ID_PARAM, "The hand's id.")


def moment(name: str, required: bool) -> Schema:
    """A window's end as a query parameter."""
    return {
        "name": name,
        "in": "query",
        "required": required,
        "schema": {"type": "string", "maxLength": 64},
        "description": "An ISO 8601 time such as 2024-05-03T18:00:00Z; without a zone it is "
        "read on the floor's clock (REPORT_TIMEZONE). The window is [from, to).",
        "example": "2024-05-03T18:00:00Z" if name == "from" else "2024-05-04T02:00:00Z",
    }


def document(
    summary: str, media: str, errors: list[int], role: str, params: list[Schema]
) -> Schema:
    """A GET that answers with a file: a PDF to print, or a CSV export."""
    out = operation(summary, {200: ("The document.", None)}, errors, params=params, role=role)
    kind = "inline" if media == "application/pdf" else "attachment"
    out["responses"]["200"] = {
        "description": f"The document ({media}).",
        "headers": {
            "Content-Disposition": {
                "schema": {"type": "string"},
                "description": f'{kind}; filename="..."',
            }
        },
        "content": {media: {"schema": {"type": "string", "format": "binary"}}},
    }
    return out


def paths() -> dict[str, Schema]:
    """Table sessions under /api/v1; the reports under /reports and the exports under /exports."""
    sessions = obj(["sessions"], {"sessions": {"type": "array", "items": ref("Session")}})
    window = [moment("from", False), moment("to", False)]
    return {
        "/api/v1/tables/{table_id}/sessions": {
            "post": operation(
                "The caller pushes into the table: their session (down) opens. 409 while "
                "another session is open at the table.",
                {201: ("The session.", ref("Session"))},
                [404, 409],
                body=obj([], {}, closed=True),
                body_required=False,
                params=[TABLE_ID],
                write=True,
            ),
            "get": operation(
                "Every session at the table, the latest first.",
                {200: ("The sessions.", sessions)},
                # 405: werkzeug answers an id beyond 32 bits so when the address also has a POST.
                [404, 405],
                params=[TABLE_ID],
            ),
        },
        "/api/v1/sessions/{session_id}": {
            "get": operation(
                "A table session: its dealer, times, state and hands.",
                {200: ("The session.", ref("Session"))},
                [404],
                params=[SESSION_ID],
            ),
        },
        "/api/v1/sessions/{session_id}/close": {
            "post": operation(
                "End the down. A supervisor calling, or a dealer bringing a supervisor's name "
                "and PIN, confirms the close; otherwise it waits for the floor. 409 while the "
                "session's hand is in play, or once the close is confirmed.",
                {200: ("The session.", ref("Session"))},
                [403, 404, 409, 429],
                body=obj([], {"supervisor": nullable(SUPERVISOR)}, closed=True),
                body_required=False,
                params=[SESSION_ID],
                write=True,
            ),
        },
        "/reports/hands/{hand_id}.pdf": {
            "get": document(
                "The hand slip: every event with its payments and rule, the settlement, each "
                "seat's net, the ledger range and its hash. Stamped REPRINT n after the first.",
                "application/pdf",
                [404],
                "dealer",
                [HAND_ID],
            ),
        },
        "/reports/sessions/{session_id}.pdf": {
            "get": document(
                "A table session: seats, hands, the drop, voids and corrections. A dealer may "
                "print only their own sessions.",
                "application/pdf",
                [404],
                "dealer",
                [SESSION_ID],
            ),
        },
        "/reports/shift.pdf": {
            "get": document(
                "The shift ledger over [from, to) (at most 31 days): every table, the players, "
                "the drop by hour and by table, the trial balance and the chain check; a red "
                "banner lists any check that failed.",
                "application/pdf",
                [422],
                "supervisor",
                [moment("from", True), moment("to", True)],
            ),
        },
        "/exports/ledger.csv": {
            "get": document(
                "Every ledger entry made in the window, one line each, streamed.",
                "text/csv",
                [422],
                "supervisor",
                window,
            ),
        },
        "/exports/players.csv": {
            "get": document(
                "One line per player session (seating) in the window, PokerNow's layout: "
                "player_nickname,player_id,session_start_at,session_end_at,buy_in,buy_out,"
                "stack,net.",
                "text/csv",
                [422],
                "supervisor",
                window,
            ),
        },
    }
