"""The floor's shift ledger built in the background: asked twice, built once and counted once;
a build that fails counts nothing and says so in words; the API still gets its PDF at once.
The table screen's session report the same way, for its own dealer or a supervisor."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import text

from dealer.extensions import db
from dealer.reports import build_routes
from dealer.reports.builds import builds
from tests.helpers import Api
from tests.reports.evening import Evening, pdf_text, play_evening
from tests.reports.test_routes import fetch, window


def signed_in(app: Flask, name: str = "Sam", pin: str = "2222") -> FlaskClient:
    browser = app.test_client()
    answer = browser.post("/sign-in", data={"name": name, "pin": pin})
    assert answer.status_code == 303
    return browser


def ask(browser: FlaskClient, query: str) -> dict[str, Any]:
    answer = browser.post(f"/print/builds/shift?{query}")
    assert answer.status_code == 202, answer.get_data(as_text=True)[:300]
    return dict(answer.get_json())


def finished(app: Flask, browser: FlaskClient, asked: dict[str, Any]) -> dict[str, Any]:
    assert builds(app).wait_all()
    return dict(browser.get(asked["status"]).get_json())


def prints(app: Flask) -> list[tuple[Any, ...]]:
    with app.app_context():
        rows = db.session.execute(text("SELECT kind, reprint FROM report_prints")).all()
    return [tuple(r) for r in rows]


def test_two_asks_join_one_build_counted_once(api: Api, floor: Api, people: Flask) -> None:
    """Asked twice before it is taken, the shift ledger is one build, one copy, one count."""
    play_evening(api, floor)
    browser, query = signed_in(people), window()
    first, second = ask(browser, query), ask(browser, query)
    assert first["status"] == second["status"]
    assert first["words"].startswith("Building the shift ledger")
    done = finished(people, browser, first)
    assert done["state"] == "ready", done
    assert done["words"] == "The shift ledger is ready: download it."
    assert done["pages"] >= 2  # each page laid out was told, for the words while it builds
    pdf = browser.get(done["download"])
    assert pdf.status_code == 200 and pdf.mimetype == "application/pdf"
    assert "REPRINT" not in pdf_text(pdf.data)
    assert prints(people) == [("shift", 0)]
    # Offered once: the link does not hand over a second copy, and counts nothing more.
    again = browser.get(done["download"])
    assert again.status_code == 409
    assert "was downloaded" in again.get_json()["error"]["message"]
    assert prints(people) == [("shift", 0)]
    # Asked again once taken: a new copy, and that one is a REPRINT.
    third = finished(people, browser, ask(browser, query))
    assert third["status"] != first["status"] and third["filename"].endswith("-reprint-1.pdf")


def test_a_failed_build_counts_nothing_and_says_so(
    people: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*_: Any) -> bytes:
        raise RuntimeError("the layout broke")

    monkeypatch.setattr(build_routes, "shift_pdf", broken)
    browser = signed_in(people)
    done = finished(people, browser, ask(browser, window()))
    assert done["state"] == "failed" and done["download"] is None
    assert done["words"].startswith("The shift ledger could not be built, and nothing was counted")
    assert "layout broke" not in done["words"]
    assert prints(people) == []
    refused = browser.get(done["status"] + ".pdf")
    assert refused.status_code == 409 and refused.get_json()["error"]["message"] == done["words"]


def test_only_the_asker_reads_a_build_and_the_api_still_gets_its_pdf(
    evening: Evening, floor: Api, people: Flask
) -> None:
    browser = signed_in(people)
    asked = ask(browser, window())
    ada = people.test_client()
    assert ada.post("/sign-in", data={"name": "Ada", "pin": "3333"}).status_code == 303
    assert ada.get(asked["status"]).status_code == 404
    answer = fetch(floor, f"/reports/shift.pdf?{window()}")
    assert answer.mimetype == "application/pdf"
    assert builds(people).wait_all()


def _ended(registry: Any, state: str = "failed") -> Any:
    """A start that ends its build at once, in ``state``, as the build's thread would."""

    def start(build: Any) -> None:
        build.state = state
        if state == "ready":
            build.data = b"%PDF-1.4 a document"
        registry.save(build)
        build.finished.set()

    return start


def test_finished_builds_are_forgotten_after_a_while(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A PDF nobody took does not stay on disk for ever; one still building is kept."""
    from dealer.reports import builds as module

    registry = module.Builds(tmp_path)
    done, _ = registry.ask("a", 1, "the shift ledger", "shift", _ended(registry, "ready"))
    running, _ = registry.ask("b", 1, "the shift ledger", "shift", lambda b: None)
    monkeypatch.setattr(module, "KEPT_SECONDS", -1.0)
    registry.ask("c", 1, "the shift ledger", "shift", _ended(registry))
    assert registry.find(done.token, 1) is None
    assert not list(tmp_path.glob(f"{done.token}*"))  # its PDF went with it
    found = registry.find(running.token, 1)
    assert found is not None and found.token == running.token and found.state == "building"
    assert registry.find(running.token, 2) is None  # only the asker reads it


def test_every_worker_reads_joins_and_hands_over_one_build(tmp_path: Path) -> None:
    """Two workers of the app (two registries on one folder): the one not building answers
    where the build is, joins it when asked again, and the PDF is handed over once, by
    whichever worker is asked first."""
    from dealer.reports import builds as module

    building, other = module.Builds(tmp_path), module.Builds(tmp_path)
    held: list[Any] = []
    build, new = building.ask("shift", 7, "the shift ledger", "shift", held.append)
    assert new
    build.pages = 3
    building.save(build)
    seen = other.find(build.token, 7)
    assert seen is not None and seen.state == "building" and seen.pages == 3
    assert seen.words() == "Building the shift ledger: page 3 laid out…"
    joined, new = other.ask("shift", 7, "the shift ledger", "shift", held.append)
    assert not new and joined.token == build.token and held == [build]
    assert other.find(build.token, 8) is None  # another person's
    build.data, build.reprint, build.state = b"%PDF-1.4 the ledger", 0, "ready"
    building.save(build)
    ready = other.find(build.token, 7)
    assert ready is not None and ready.state == "ready"
    assert other.take(ready) == b"%PDF-1.4 the ledger"
    assert building.take(build) is None  # once, whoever asks
    taken = building.find(build.token, 7)
    assert taken is not None and taken.state == "taken"
    assert taken.words() == "The shift ledger was downloaded; print it again for another copy."
    again, new = building.ask("shift", 7, "the shift ledger", "shift", held.append)
    assert new and again.token != build.token


def test_a_build_whose_worker_ended_reads_as_failed(tmp_path: Path) -> None:
    """A worker recycled or stopped mid-build: the build reads as failed, in words, and asking
    again starts a new one instead of joining one that will never end."""
    from dealer.reports import builds as module

    registry = module.Builds(tmp_path)
    build, _ = registry.ask("shift", 7, "the shift ledger", "shift", lambda b: None)
    state = tmp_path / f"{build.token}.json"
    written = json.loads(state.read_text())
    state.write_text(json.dumps({**written, "pid": _ended_pid()}))
    seen = registry.find(build.token, 7)
    assert seen is not None and seen.state == "failed"
    assert seen.words().startswith("The shift ledger could not be built, and nothing was counted")
    again, new = registry.ask("shift", 7, "the shift ledger", "shift", lambda b: None)
    assert new and again.token != build.token


def _ended_pid() -> int:
    """A pid no process has now (the highest the kernel would give is never reached here)."""
    highest = int(Path("/proc/sys/kernel/pid_max").read_text())
    for pid in range(highest - 1, 1, -1):
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return pid
        except PermissionError:
            continue
    raise AssertionError("no free pid")


def test_a_down_report_is_built_in_the_background_for_its_dealer_once(
    evening: Evening, people: Flask
) -> None:
    """The session's own dealer asks twice: one build, one copy, counted once when built."""
    browser = signed_in(people, "Dee", "1111")
    address = f"/print/builds/sessions/{evening.session7}"
    first, second = browser.post(address), browser.post(address)
    assert first.status_code == second.status_code == 202
    assert first.get_json()["status"] == second.get_json()["status"]
    assert first.get_json()["words"].startswith("Building the session report")
    done = finished(people, browser, first.get_json())
    assert done["state"] == "ready", done
    assert done["words"] == "The session report is ready: download it."
    assert done["filename"] == f"session-{evening.session7}.pdf"
    pdf = browser.get(done["download"])
    assert pdf.status_code == 200 and pdf.mimetype == "application/pdf"
    text = pdf_text(pdf.data)
    assert "REPRINT" not in text and "Table 7" in text
    assert prints(people) == [("session", 0)]
    # The same document printed at once afterwards is its second copy.
    again = browser.post(f"/print/sessions/{evening.session7}.pdf")
    assert again.status_code == 200 and "REPRINT" in pdf_text(again.data)


def test_a_down_report_build_is_refused_as_its_print_is(evening: Evening, people: Flask) -> None:
    """An unknown session is not found, and nothing is built or counted."""
    browser = signed_in(people, "Dee", "1111")
    missing = browser.post("/print/builds/sessions/999999")
    assert missing.status_code == 404
    assert builds(people).wait_all()
    assert prints(people) == []
    supervisor = signed_in(people)
    asked = supervisor.post(f"/print/builds/sessions/{evening.session9}")
    assert asked.status_code == 202
    assert finished(people, supervisor, asked.get_json())["state"] == "ready"
