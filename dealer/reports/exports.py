"""CSV exports: every ledger entry, and players' sessions in PokerNow's ledger layout.

Rows are plain data; the writers stream, so a route can send a long export as it is written
(``Response(iter_ledger_csv(rows), mimetype="text/csv")``). A spreadsheet reads them right:

- **One type per column, whole numbers whole**: an id that is not there (an entry of no hand,
  a seating of no player record) is written 0, never left blank: ids start at 1, so 0 names
  nothing, and a column with a blank cell would be read as fractions (pandas reads 12 as
  12.0). ``player_id`` is the player record's id only; the seating's own is ``seating``.
- **Formulas never run**: every text cell a person typed (names, reasons, devices) that a
  spreadsheet would run (one starting with = + - @, a tab or a carriage return) gets a
  leading ``'``; a text that is a plain whole number (a player named "-2") is left as
  written, as a spreadsheet reads it as that number and runs nothing. Numbers are written as
  numbers and never guarded: -11 stays -11.
- **Excel** on Windows reads a CSV as its own code page unless the file begins with a UTF-8
  byte-order mark: ``?bom=true`` adds one (`BOM`). It is not the default, since a program
  reading the file as UTF-8 would then find it in the first column's name.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable, Iterator, Sequence

from dealer.reports.figures import iso_utc
from dealer.views.documents.exports import PlayerSessionRow
from dealer.views.ledger import EntryView

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
    "seating",
)

#: What an export written for Excel begins with (``?bom=true``): UTF-8's byte-order mark.
BOM = "\ufeff"
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_WHOLE_NUMBER = re.compile(r"-?[0-9]+")


def safe_cell(text: str) -> str:
    """``text`` as a spreadsheet shows it, never runs it: ``=SUM(A1)`` becomes ``'=SUM(A1)``;
    a plain whole number (``-2``) stays as it is, which no spreadsheet runs."""
    if text.startswith(_FORMULA_START) and not _WHOLE_NUMBER.fullmatch(text):
        return "'" + text
    return text


def _optional(number: int | None) -> int:
    """An id that may not be there: 0 when it is not (ids start at 1)."""
    return 0 if number is None else number


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


def iter_ledger_csv(rows: Iterable[EntryView]) -> Iterator[str]:
    """The ledger export in pieces, header first."""
    return _lines(
        LEDGER_HEADER,
        (
            (
                r.seq,
                iso_utc(r.at),
                r.table,
                safe_cell(r.table_name),
                safe_cell(r.from_),
                safe_cell(r.to),
                r.chips,
                safe_cell(r.rule),
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
                _optional(r.player_id),
                iso_utc(r.session_start_at),
                iso_utc(r.session_end_at),
                r.buy_in,
                r.buy_out,
                r.stack,
                r.net,
                r.seating,
            )
            for r in rows
        ),
    )


def ledger_csv(rows: Iterable[EntryView]) -> str:
    return "".join(iter_ledger_csv(rows))


def players_csv(rows: Iterable[PlayerSessionRow]) -> str:
    return "".join(iter_players_csv(rows))
