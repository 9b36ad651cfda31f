"""CSV exports: exact headers and rows, and no cell a spreadsheet would run as a formula."""

import csv
import io
from datetime import UTC, datetime, timedelta, timezone

from dealer.reports import iter_ledger_csv, ledger_csv, players_csv
from dealer.reports.exports import safe_cell
from dealer.views.documents.exports import PlayerSessionRow
from dealer.views.ledger import EntryView

AT = datetime(2024, 5, 3, 21, 14, 5, 311000, tzinfo=UTC)


def entry(seq, **changes):
    row = dict(
        seq=seq,
        at=AT,
        table=7,
        table_name="Table 7",
        from_="2",
        to="1",
        chips=4,
        rule="condition",
        reason="valle set in spades (5S 5S 5S): 4 from each of 4 seats",
        hand=1234,
        event=5,
        reverses=None,
        user="Dana",
        device="tablet-7",
        device_claim="claimed: tablet-7",
        from_account="seating:12",
        to_account="seating:11",
        hash="ab" * 32,
    )
    row.update(changes)
    return EntryView(**row)


def test_ledger_header_and_rows_exact():
    text = ledger_csv(
        [
            entry(101),
            entry(
                102,
                from_="1",
                to="2",
                rule="void",
                reason='void, said "Flo"',
                reverses=101,
                at=AT.astimezone(timezone(timedelta(hours=-7))),
            ),
            entry(103, from_="5", to="pot", hand=None, event=None, chips=2),
        ]
    )
    accounts = "seating:12,seating:11,"
    assert text.splitlines() == [
        "seq,at,table,table_name,from,to,chips,reason_code,reason,hand,event,reverses,user,"
        "device,from_account,to_account,hash",
        "101,2024-05-03T21:14:05.311Z,7,Table 7,2,1,4,condition,"
        "valle set in spades (5S 5S 5S): 4 from each of 4 seats,1234,5,0,Dana,tablet-7,"
        + accounts
        + "ab" * 32,
        '102,2024-05-03T21:14:05.311Z,7,Table 7,1,2,4,void,"void, said ""Flo""",1234,5,101,'
        "Dana,tablet-7," + accounts + "ab" * 32,
        "103,2024-05-03T21:14:05.311Z,7,Table 7,5,pot,2,condition,"
        "valle set in spades (5S 5S 5S): 4 from each of 4 seats,0,0,0,Dana,tablet-7,"
        + accounts
        + "ab" * 32,
    ]
    assert text.endswith("\r\n")


def test_players_in_the_pokernow_layout():
    rows = [
        PlayerSessionRow("Ana", 1, AT, AT + timedelta(hours=2), 500, 546, 0, 31),
        PlayerSessionRow("Bea", None, AT, None, 500, 0, 489, 32),
    ]
    assert players_csv(rows).splitlines() == [
        "player_nickname,player_id,session_start_at,session_end_at,buy_in,buy_out,stack,net,"
        "seating",
        "Ana,1,2024-05-03T21:14:05.311Z,2024-05-03T23:14:05.311Z,500,546,0,46,31",
        "Bea,0,2024-05-03T21:14:05.311Z,,500,0,489,-11,32",
    ]


def test_formula_injection_is_neutralised():
    names = ['=HYPERLINK("http://x")', "+1+1", "-2+3", "@SUM(A1)", "\tTab", "Ana", "José"]
    rows = [PlayerSessionRow(n, None, AT, None, 10, 0, 0, 1) for n in names]
    parsed = list(csv.reader(io.StringIO(players_csv(rows))))[1:]
    assert [r[0] for r in parsed] == [
        '\'=HYPERLINK("http://x")',
        "'+1+1",
        "'-2+3",
        "'@SUM(A1)",
        "'\tTab",
        "Ana",
        "José",
    ]
    assert {r[7] for r in parsed} == {"-10"}  # numbers stay numbers


def test_a_name_that_is_a_whole_number_reads_back_as_written():
    """A spreadsheet reads "-2" as the number it looks like and runs nothing: not guarded."""
    rows = [PlayerSessionRow(n, None, AT, None, 10, 0, 0, 1) for n in ("-2", "-0", "2", "-2.5")]
    parsed = list(csv.reader(io.StringIO(players_csv(rows))))[1:]
    assert [r[0] for r in parsed] == ["-2", "-0", "2", "'-2.5"]
    assert safe_cell("-") == "'-" and safe_cell("-2 ") == "'-2 "


def test_ledger_text_cells_are_guarded_too():
    row = entry(1, reason="=cmd|' /C calc'!A0", user="@admin", device="-tablet")
    parsed = list(csv.reader(io.StringIO(ledger_csv([row]))))[1]
    assert parsed[8] == "'=cmd|' /C calc'!A0"
    assert parsed[12:14] == ["'@admin", "'-tablet"]
    assert safe_cell("seat 3") == "seat 3"


def test_a_long_export_streams_in_pieces():
    pieces = list(iter_ledger_csv(entry(n) for n in range(1, 5001)))
    assert len(pieces) > 5
    assert "".join(pieces).count("\r\n") == 5001
