"""The hand screen's weight and server render time, on a realistic six-seat hand in mid-play.

Seeds a migrated SQLite database in a temporary folder: a classic table, six players, a
hand with a drop and a dozen melds, adds and a borrow spread over the seats. Then asks
for the hand page many times through Flask's test client, signed in and with CSRF on, as
a tablet would (the request's whole server side: sign-in check, queries, the replay
through the rules engine, the template). The page's weight is its HTML plus the one
stylesheet and one script it loads, each as served from the address the page links
(minified: dealer/web/assets.py). Targets (issue 4): under 150 KB, under 30 ms.

Ends with one line of key=value pairs, e.g. ``hand_page_kb=61 hand_render_ms=9.8``.
"""

from __future__ import annotations

import logging
import re
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from flask.testing import FlaskClient
from flask_migrate import upgrade

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from dealer import create_app  # noqa: E402
from dealer.extensions import db  # noqa: E402
from dealer.people.users import add_user  # noqa: E402
from dealer.transactions import writing  # noqa: E402

RUNS = 300
WARM_UP = 20
#: A hand in mid-play: every seat with something on the table, one dropped.
EVENTS = [
    {"type": "meld", "seat": 1, "cards": ["5S", "5S", "5S"]},
    {"type": "meld", "seat": 2, "cards": ["KC", "KC", "KC"]},
    {"type": "meld", "seat": 3, "cards": ["AD", "2D", "3D"]},
    {"type": "add", "seat": 1, "meld": 1, "cards": ["5S"]},
    {"type": "meld", "seat": 4, "cards": ["7H", "7D", "7C"]},
    {"type": "meld", "seat": 2, "cards": ["4H", "5H", "6H", "7H"]},
    {"type": "add", "seat": 3, "meld": 3, "cards": ["4D"]},
    {"type": "meld", "seat": 6, "cards": ["QS", "QS", "QS"]},
    {"type": "borrow", "seat": 2, "meld": 5, "take": ["7H"], "cards": ["7S", "7C"]},
    {"type": "meld", "seat": 1, "cards": ["JH", "QH", "KH"]},
    {"type": "meld", "seat": 4, "cards": ["2C", "3C", "4C"]},
    {"type": "add", "seat": 6, "meld": 6, "cards": ["QS"]},
]


def seed(app: object) -> int:
    """The hand's id, after dealing it and recording EVENTS through the JSON API."""
    client = app.test_client()  # type: ignore[attr-defined]
    token = client.post("/api/v1/session", json={"name": "Sam", "pin": "2222"}).get_json()["token"]
    headers = {"Authorization": f"Bearer {token}"}

    def post(path: str, body: dict[str, object]) -> dict[str, object]:
        answer = client.post("/api/v1" + path, json=body, headers=headers)
        assert answer.status_code == 201, answer.get_json()
        return answer.get_json()

    table = post("/tables", {"name": "Bench", "profile": "classic", "chip_value_cents": 25})
    # The dealer takes the table, as at the start of a down: a dealer sees only their own.
    dealer = client.post("/api/v1/session", json={"name": "Dee", "pin": "1111"}).get_json()
    taken = client.post(
        f"/api/v1/tables/{table['id']}/sessions",
        json={},
        headers={"Authorization": f"Bearer {dealer['token']}", "Idempotency-Key": "bench-down"},
    )
    assert taken.status_code == 201, taken.get_json()
    for seat in range(1, 7):
        post(
            f"/tables/{table['id']}/seats",
            {"seat": seat, "player": f"Player {seat}", "buy_in": 200},
        )
    hand = post(f"/tables/{table['id']}/hands", {"dropped": [5]})
    for event in EVENTS:
        post(f"/hands/{hand['id']}/events", event)
    return int(hand["id"])  # type: ignore[call-overload]


@contextmanager
def hand_page() -> Iterator[tuple[FlaskClient, str]]:
    """A tablet signed in as the dealer, in a seeded app of its own, and its hand page's path
    (the database disposed of at the end)."""
    with tempfile.TemporaryDirectory() as folder:
        uri = f"sqlite:///{folder}/bench.sqlite3"
        app = create_app(
            {"TESTING": True, "SQLALCHEMY_DATABASE_URI": uri, "WTF_CSRF_ENABLED": True}
        )
        with app.app_context():
            logging.disable(logging.INFO)  # Alembic's own log set-up would list every revision
            upgrade(directory=str(ROOT / "migrations"))
            logging.disable(logging.NOTSET)
            with writing(db.session()) as session:
                add_user(session, "Dee", "dealer", "1111")
                add_user(session, "Sam", "supervisor", "2222")
        hand = seed(app)

        tablet = app.test_client()
        page = tablet.get("/sign-in").get_data(as_text=True)
        found = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', page)
        assert found, "the sign-in page has no CSRF token"
        csrf = found.group(1)
        tablet.post("/sign-in", data={"name": "Dee", "pin": "1111", "csrf_token": csrf})
        try:
            yield tablet, f"/hands/{hand}?seat=1&meld=1&fits=5S"
        finally:
            with app.app_context():
                db.session.remove()
                for engine in db.engines.values():
                    engine.dispose()


def main() -> None:
    with hand_page() as (tablet, path):
        html = tablet.get(path).get_data()
        assert b"valle set in spades" in html, "the hand did not render"
        # The stylesheet and the script as the page links them, served as a tablet gets them.
        linked = re.findall(r'"(/static/(app\.css|dealer\.js)\?v=[0-9a-f]+)"', html.decode())
        assert len(linked) == 2, linked
        served = {}
        for address, name in linked:
            answer = tablet.get(address)
            assert answer.status_code == 200, address
            served[name] = len(answer.data)
        sources = {name: (ROOT / "static" / name).stat().st_size for name in served}
        weight = len(html) + sum(served.values())

        for _ in range(WARM_UP):
            tablet.get(path)
        times = []
        for _ in range(RUNS):
            start = time.perf_counter()
            answer = tablet.get(path)
            times.append((time.perf_counter() - start) * 1000)
            assert answer.status_code == 200

    times.sort()
    median = statistics.median(times)
    p95 = times[int(len(times) * 0.95) - 1]
    print(
        f"hand page: {len(html) / 1024:.1f} KB of HTML, {weight / 1024:.1f} KB with its CSS and JS"
    )
    print(
        "  ("
        + ", ".join(
            f"{name} {size / 1024:.1f} KB served, {sources[name] / 1024:.1f} KB in the source"
            for name, size in served.items()
        )
        + ")"
    )
    print(
        f"server render over {RUNS} runs: median {median:.2f} ms, p95 {p95:.2f} ms, "
        f"min {times[0]:.2f} ms, max {times[-1]:.2f} ms"
    )
    print(
        f"targets: under 150 KB ({'ok' if weight < 150 * 1024 else 'OVER'}), "
        f"under 30 ms ({'ok' if median < 30 else 'OVER'})"
    )
    print(
        f"name=hand_page hand_page_kb={weight / 1024:.0f} hand_html_kb={len(html) / 1024:.0f} "
        f"css_kb={served['app.css'] / 1024:.0f} js_kb={served['dealer.js'] / 1024:.0f} "
        f"hand_render_ms={median:.1f} hand_render_p95_ms={p95:.1f} runs={RUNS}"
    )


if __name__ == "__main__":
    main()
