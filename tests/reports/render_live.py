"""Render the real documents, served by the app from a played database, to look at them.

    python -m tests.reports.render_live [--shift-db bench/out/shift.sqlite3]

Plays tests/reports/evening.py into a fresh SQLite file, then a long session (a hundred hands
at one table) and a long hand (every seat melding and growing, a void, a discard penalty);
fetches every document over HTTP as the floor prints it (REPRINT and a failed check
included) and writes PDFs and PNGs (``pdftoppm -r 60``) to ``screenshots/reports/live/``
(git-ignored). With ``--shift-db`` it also prints the shift ledger of the benchmark's 9,600
hands (the first pages and the last are rendered).
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path

from sqlalchemy import select, text

from dealer import create_app
from dealer.extensions import db
from dealer.models import User
from dealer.people.users import add_user
from dealer.transactions import writing
from tests.conftest import migrate
from tests.helpers import Api, add_people
from tests.reports.evening import SUPERVISOR, play_evening, play_rotated

OUT = Path("screenshots/reports/live")


def long_hand(api: Api, table: int) -> int:
    """Every seat melds and grows conditions; a mis-entry voided; a discard penalty at the end."""
    hand = api.hand(table)["id"]
    plays = [
        (2, ["7H", "7H", "7H"]),
        (3, ["KD", "KD", "KD"]),
        (4, ["AS", "2S", "3S"]),
        (5, ["5C", "5D", "5H"]),
        (6, ["QC", "QC", "QC"]),
    ]
    for seat, cards in plays:
        api.event(hand, {"type": "meld", "seat": seat, "cards": cards})
    mistake = api.event(hand, {"type": "meld", "seat": 3, "cards": ["3H", "3H", "3H"]})
    undone = api.event(hand, {"type": "void", "event": mistake["event"]["id"], "reason": "Wrong."})
    melds = {
        s: info["melds"][0]["id"] for s, info in undone["hand"]["seats"].items() if info["melds"]
    }
    api.event(hand, {"type": "add", "seat": 2, "meld": melds["2"], "cards": ["7H"]})
    api.event(hand, {"type": "add", "seat": 4, "meld": melds["4"], "cards": ["4S"]})
    api.event(hand, {"type": "add", "seat": 3, "meld": melds["3"], "cards": ["KD"]})
    for cards in (["5S", "5S", "5S"], ["JH", "QH", "KH"], ["2C", "3C", "4C", "5C", "6C"]):
        api.event(hand, {"type": "meld", "seat": 1, "cards": cards})
    api.event(hand, {"type": "go_out", "seat": 1})
    api.event(hand, {"type": "penalty", "seat": 6, "supervisor": SUPERVISOR})
    return int(hand)


def save(name: str, data: bytes) -> Path:
    pdf = OUT / f"{name}.pdf"
    pdf.write_bytes(data)
    return pdf


def render(pdf: Path, first: int | None = None, last: int | None = None) -> None:
    if not shutil.which("pdftoppm"):
        return
    pages = [] if first is None else ["-f", str(first), "-l", str(last or first)]
    subprocess.run(["pdftoppm", "-r", "60", *pages, "-png", pdf, pdf.with_suffix("")], check=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--shift-db", help="also print the shift of this (benchmark) database")
    args = parser.parse_args()
    if OUT.exists():
        shutil.rmtree(OUT)
    OUT.mkdir(parents=True)
    with tempfile.TemporaryDirectory() as tmp:
        uri = f"sqlite:///{Path(tmp) / 'live.sqlite3'}"
        migrate(uri)
        app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": uri})
        app.config["TIMEZONE"] = "America/Los_Angeles"
        add_people(app)
        api, floor = Api.sign_in(app, "dealer"), Api.sign_in(app, "supervisor")
        evening = play_evening(api, floor)
        for n in range(100):
            play_rotated(api, evening.table9, winner=n % 6 + 1, dropper=(n + 3) % 6 + 1)
        big = long_hand(api, evening.table9)
        headers = floor.headers(None)
        documents = {
            "slip-seed-000": f"/reports/hands/{evening.hands7[0]}.pdf",
            "slip-seed-000-reprint": f"/reports/hands/{evening.hands7[0]}.pdf",
            "slip-voids": f"/reports/hands/{evening.hands7[1]}.pdf",
            "slip-long": f"/reports/hands/{big}.pdf",
            "session-7": f"/reports/sessions/{evening.session7}.pdf",
            "session-9-long": f"/reports/sessions/{evening.session9}.pdf",
        }
        now = datetime.now(UTC)
        window = f"from={(now - timedelta(hours=3)):%Y-%m-%dT%H:%M:%SZ}"
        window += f"&to={(now + timedelta(hours=1)):%Y-%m-%dT%H:%M:%SZ}"
        documents["shift"] = f"/reports/shift.pdf?{window}"
        for name, path in documents.items():
            answer = floor.client.get(path, headers=headers)
            assert answer.status_code == 200, (name, answer.get_data(as_text=True)[:300])
            render(save(name, answer.data))
        with app.app_context(), db.engine.begin() as connection:
            connection.execute(text("DROP TRIGGER ledger_entries_no_update"))
            connection.execute(text("UPDATE ledger_entries SET chips = chips + 1 WHERE seq = 40"))
        answer = floor.client.get(f"/reports/shift.pdf?{window}", headers=headers)
        render(save("shift-tampered", answer.data), 1, 1)
    if args.shift_db:
        path = Path(args.shift_db).resolve()
        app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": f"sqlite:///{path}"})
        with app.app_context(), writing(db.session()) as session:
            if session.scalars(select(User).where(User.name == "Printer")).first() is None:
                add_user(session, "Printer", "supervisor", "2222")
        client = app.test_client()
        token = client.post("/api/v1/session", json={"name": "Printer", "pin": "2222"})
        bearer = {"Authorization": f"Bearer {token.get_json()['token']}"}
        window = "from=2024-05-03T17:30:00Z&to=2024-05-04T02:30:00Z"
        answer = client.get(f"/reports/shift.pdf?{window}", headers=bearer)
        assert answer.status_code == 200
        pdf = save("shift-9600", answer.data)
        render(pdf, 1, 4)
        pages = int(
            next(
                line.split()[-1]
                for line in subprocess.run(
                    ["pdfinfo", pdf], capture_output=True, text=True, check=True
                ).stdout.splitlines()
                if line.startswith("Pages:")
            )
        )
        render(pdf, pages - 1, pages)
    print(f"wrote {OUT}/", file=sys.stderr)


if __name__ == "__main__":
    main()
