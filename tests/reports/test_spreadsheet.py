"""Both CSV exports as a spreadsheet or pandas reads them, with no hint of types: whole numbers
stay whole (an id that is not there is 0, not a blank), one type per column (``player_id`` is
the player record's id, the seating's own is ``seating``), a name a spreadsheet would read as
a number kept as written, Excel's byte-order mark on asking, and totals that reconcile with
the ledger."""

from __future__ import annotations

import io

import pandas as pd

from tests.helpers import Api
from tests.reports.evening import Evening
from tests.reports.test_routes import fetch

WHOLE = "int64"


def _read(floor: Api, path: str, **options: str) -> pd.DataFrame:
    return pd.read_csv(io.BytesIO(fetch(floor, path).get_data()), **options)


def _more_players(evening: Evening, api: Api, floor: Api) -> int:
    """A walk-in named "-2" at table 7, and a registered player with accents and a Chinese
    name at table 9 (seat 7 at each is free); the registered player's id."""
    api.seat(evening.table7, 7, "-2", 30)
    player = floor.post("/players", {"name": "José Ñ 李"}, status=201)["id"]
    body = {"seat": 7, "player_id": player, "buy_in": 40}
    floor.post(f"/tables/{evening.table9}/seats", body, status=201)
    return int(player)


def test_pandas_reads_whole_numbers_and_the_totals_reconcile(
    evening: Evening, api: Api, floor: Api
) -> None:
    player = _more_players(evening, api, floor)
    ledger = _read(floor, "/exports/ledger.csv")
    players = _read(floor, "/exports/players.csv")

    for column in ("seq", "table", "chips", "hand", "event", "reverses"):
        assert ledger[column].dtype == WHOLE, column
    for column in ("player_id", "buy_in", "buy_out", "stack", "net", "seating"):
        assert players[column].dtype == WHOLE, column
    # 0 where there is none: a buy-in is of no hand, an entry that reverses nothing.
    assert (ledger.loc[ledger["reason_code"] == "buy_in", ["hand", "event"]] == 0).all().all()
    assert (ledger["reverses"] > 0).any() and (ledger["reverses"] == 0).any()

    names = dict(zip(players["player_nickname"], players["player_id"], strict=True))
    assert names["-2"] == 0 and names["José Ñ 李"] == player
    assert set(players["player_nickname"]) >= {"Ana", "Fay", "Dev 9", "-2", "José Ñ 李"}

    # The cage's chips: what came in and went out of it, from either export.
    assert players["buy_in"].sum() == ledger.loc[ledger["from"] == "cage", "chips"].sum()
    assert players["buy_out"].sum() == ledger.loc[ledger["to"] == "cage", "chips"].sum()
    assert (players["net"] == players["buy_out"] + players["stack"] - players["buy_in"]).all()
    # Each seating's stack is what its ledger account holds.
    into = ledger.groupby("to_account")["chips"].sum()
    out = ledger.groupby("from_account")["chips"].sum()
    for seating, stack in zip(players["seating"], players["stack"], strict=True):
        account = f"seating:{seating}"
        assert into.get(account, 0) - out.get(account, 0) == stack, account


def test_an_export_for_excel_begins_with_a_byte_order_mark(
    evening: Evening, api: Api, floor: Api
) -> None:
    _more_players(evening, api, floor)
    plain = fetch(floor, "/exports/players.csv").get_data()
    excel = fetch(floor, "/exports/players.csv?bom=true").get_data()
    assert not plain.startswith(b"\xef\xbb\xbf")
    assert excel == b"\xef\xbb\xbf" + plain
    assert "José Ñ 李" in excel.decode("utf-8-sig")
    read = pd.read_csv(io.BytesIO(excel), encoding="utf-8-sig")
    assert read.columns[0] == "player_nickname"
    ledger = fetch(floor, "/exports/ledger.csv?bom=true&to=2001-01-01T00:00:00Z").get_data()
    assert ledger.decode("utf-8").startswith("\ufeffseq,at,")
    refused = fetch(floor, "/exports/ledger.csv?bom=yes", status=422).get_json()
    assert refused["error"]["code"] == "invalid_query"
