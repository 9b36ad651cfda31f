"""CSV exports: every ledger entry, and players' sessions in PokerNow's ledger layout.

Rows are plain data; the writers stream, so a route can send a long export as it is written
(``Response(iter_ledger_csv(rows), mimetype="text/csv")``). Every text cell a person typed
(names, reasons, devices) is guarded against formula injection: a spreadsheet runs a cell that
starts with = + - @ (or a tab or carriage return), so such a cell gets a leading ``'``.
Numbers are written as numbers and never guarded: -11 stays -11.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Iterator, Sequence

from dealer.reports.figures import iso_utc
from dealer.views.documents.exports import LedgerRow, PlayerSessionRow

__all__ = [
    "LEDGER_HEADER",
    "PLAYERS_HEADER",
    "LedgerRow",
    "PlayerSessionRow",
    "iter_ledger_csv",
    "iter_players_csv",
    "ledger_csv",
    "players_csv",
    "safe_cell",
]

LEDGER_HEADER = (
    "seq",
    "at",
    "table",
    "table_name",
    "from",
    "to",
    "chips",
    "reason_code",
    "reason",
    "hand",
    "event",
    "reverses",
    "user",
    "device",
    "from_account",
    "to_account",
    "hash",
)
PLAYERS_HEADER = (
    "player_nickname",
    "player_id",
    "session_start_at",
    "session_end_at",
    "buy_in",
    "buy_out",
    "stack",
    "net",
)

_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(text: str) -> str:
    """``text`` as a spreadsheet shows it, never runs it: ``=SUM(A1)`` becomes ``'=SUM(A1)``."""
    return "'" + text if text.startswith(_FORMULA_START) else text


def _optional(number: int | None) -> str | int:
    return "" if number is None else number


def _lines(header: Sequence[str], rows: Iterable[Sequence[object]]) -> Iterator[str]:
    """The CSV text in pieces of about 64 KiB, header first, lines ending ``\\r\\n`` (RFC 4180)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow(header)
    for row in rows:
        writer.writerow(row)
        if buffer.tell() > 64 * 1024:  # stream in pieces, not a string per line
            yield buffer.getvalue()
            buffer.seek(0)
            buffer.truncate()
    yield buffer.getvalue()


def iter_ledger_csv(rows: Iterable[LedgerRow]) -> Iterator[str]:
    """The ledger export in pieces, header first."""
    return _lines(
        LEDGER_HEADER,
        (
            (
                r.seq,
                iso_utc(r.at),
                r.table,
                safe_cell(r.table_name),
                safe_cell(r.payer),
                safe_cell(r.payee),
                r.chips,
                safe_cell(r.reason_code),
                safe_cell(r.reason),
                _optional(r.hand),
                _optional(r.event),
                _optional(r.reverses),
                safe_cell(r.user),
                safe_cell(r.device),
                r.from_account,
                r.to_account,
                r.hash,
            )
            for r in rows
        ),
    )


def iter_players_csv(rows: Iterable[PlayerSessionRow]) -> Iterator[str]:
    """The players export in PokerNow's ledger layout, in pieces, header first."""
    return _lines(
        PLAYERS_HEADER,
        (
            (
                safe_cell(r.player_nickname),
                safe_cell(r.player_id),
                iso_utc(r.session_start_at),
                iso_utc(r.session_end_at),
                r.buy_in,
                r.buy_out,
                r.stack,
                r.net,
            )
            for r in rows
        ),
    )


def ledger_csv(rows: Iterable[LedgerRow]) -> str:
    return "".join(iter_ledger_csv(rows))


def players_csv(rows: Iterable[PlayerSessionRow]) -> str:
    return "".join(iter_players_csv(rows))
