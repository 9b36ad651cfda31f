"""The dispute desk on the screens: a seat's statement one tap from the hand, finding a
payment, the rules in words with their text in the app, and the tablets the floor named."""

from __future__ import annotations

import io
import re

from flask import Flask
from pypdf import PdfReader

from tests.helpers import Api
from tests.screens.conftest import Web, words

SEED = [["5S", "5S", "5S"], ["JH", "QH", "KH"], ["2C", "3C", "4C", "5C", "6C"]]


def settle_seed(floor_api: Api, hand_id: int) -> None:
    for cards in SEED:
        floor_api.event(hand_id, {"type": "meld", "seat": 1, "cards": cards})
    floor_api.event(hand_id, {"type": "go_out", "seat": 1})


def test_every_seat_the_settlement_and_the_history_link_to_the_statement(
    dealer: Web, floor_api: Api, hand_id: int
) -> None:
    settle_seed(floor_api, hand_id)
    page = dealer.get(f"/hands/{hand_id}")
    address = f"/hands/{hand_id}/seats/3/statement"
    board, rest = page.split('id="history-h"')
    history, settlement = rest.split('id="settle-h"')
    for part in (board, settlement):
        assert all(f'href="/hands/{hand_id}/seats/{n}/statement"' in part for n in range(1, 7))
    assert f'href="/hands/{hand_id}/seats/1/statement"' in history
    assert address in page


def test_the_statement_in_words_with_each_line_opening_its_payment(
    dealer: Web, floor_api: Api, hand_id: int
) -> None:
    settle_seed(floor_api, hand_id)
    page = dealer.get(f"/hands/{hand_id}/seats/3/statement")
    text = words(page)
    assert "Seat 3 (P3): hand 1" in text
    assert "Net for the hand -11 chips: paid 11 chips, received 0 chips" in text
    assert (
        "Seat 3 (P3) paid seat 1 (P1) 11 chips: 5 for conditions (4 for 5♠ 5♠ 5♠, 1 for J♥ Q♥ K♥),"
        " 1 for going out and 5 for conditions paid again (4 for 5♠ 5♠ 5♠, 1 for J♥ Q♥ K♥)." in text
    )
    assert "The ledger agrees: seat 3's entries for this hand add up to -11." in text
    assert "With seat 1 (P1): -11" in text
    running = [words(r) for r in re.findall(r"data-running>([^<]+)<", page)]
    assert running == ["-4", "-5", "-6", "-11"]  # in the ledger's order, ending on the net
    links = re.findall(rf'href="(/hands/{hand_id}/events/\d+/payments/\d+)"', page)
    assert len(links) == 4
    for link in links:
        assert "Seat 3 (P3) pays seat 1 (P1)" in words(dealer.get(link))
    assert 'href="/rules/5#item-4"' in page and "conditions_again" not in text
    dealer.get(f"/hands/{hand_id}/seats/8/statement", status=404)


def test_the_statement_slip_reads_back(dealer: Web, floor_api: Api, hand_id: int) -> None:
    settle_seed(floor_api, hand_id)
    answer = dealer.client.post(f"/print/hands/{hand_id}/seats/3/statement.pdf")
    assert answer.status_code == 200 and answer.mimetype == "application/pdf"
    text = " ".join(
        " ".join((p.extract_text() or "").split()) for p in PdfReader(io.BytesIO(answer.data)).pages
    )
    assert "Seat 3 (P3) paid seat 1 (P1) 11 chips: 5 for conditions" in text
    assert "net for the hand -11" in text and "the ledger's sum -11" in text
    assert "With seat 1 (P1): -11 chips (-$11.00)." in text
    assert "seating:" not in text  # no account code on paper


def test_history_newest_first_melds_named_by_their_cards(
    dealer: Web, floor_api: Api, hand_id: int
) -> None:
    floor_api.event(hand_id, {"type": "meld", "seat": 1, "cards": ["2C", "3C", "4C"]})
    floor_api.event(hand_id, {"type": "add", "seat": 1, "meld": 1, "cards": ["5C"]})
    history = words(dealer.get(f"/hands/{hand_id}").split('id="history-h"')[1])
    assert "Seat 1 adds 5♣ to 2♣ 3♣ 4♣" in history
    assert "meld 1" not in history
    assert (
        history.index("#4 Seat 1 adds")
        < history.index("#3 Seat 1 melds")
        < history.index("#1 Dealt to seats")
    )


def test_the_rules_text_is_the_apps_own(dealer: Web) -> None:
    page = dealer.get("/rules/5")
    assert "5. A hand, start to finish" in words(page)
    assert re.search(r"<li id='item-4' value='4'><strong>Going out</strong>", page)
    assert "<em>Going out pays, chips + C</em>" in page  # the knob in words, not its code
    dealer.get("/rules/42", status=404)


def test_the_floor_finds_a_payment_and_a_dealer_may_not(
    supervisor: Web, dealer: Web, floor_api: Api, hand_id: int
) -> None:
    settle_seed(floor_api, hand_id)
    assert "Find a payment" in words(supervisor.get("/floor"))
    form = words(supervisor.get("/payments"))
    assert "Conditions paid again" in form and "Rule" in form
    page = supervisor.get(f"/payments?hand={hand_id}&seat=3&rule=conditions_again")
    text = words(page)
    assert "1 payment, the newest first" in text
    assert "Seat 3 (P3) paid seat 1 (P1) 5" in text
    assert f'href="/hands/{hand_id}/seats/3/statement"' in page
    assert re.search(rf'href="/hands/{hand_id}/events/\d+/payments/\d+"', page)
    refused = supervisor.client.get("/payments?seat=3")
    assert refused.status_code == 422
    assert "Say where to look: a hand, a table session, or a window of time" in words(
        refused.get_data(as_text=True)
    )
    assert supervisor.client.get(f"/payments?hand={hand_id}&seat=9").status_code == 422
    dealer.get("/payments", status=403)


def test_a_registered_tablet_is_named_and_the_browsers_claim_is_a_detail(
    people: Flask, floor_api: Api, hand_id: int
) -> None:
    tablet = Web.sign_in(people, "supervisor")
    tablet.client.environ_base["HTTP_USER_AGENT"] = "Mozilla/5.0 (Tablet; floor)"
    assert "This tablet is not registered" in words(tablet.get("/floor/devices"))
    tablet.post("/floor/devices", {"name": "Table 1 tablet"})
    assert "This tablet is Table 1 tablet (registered #1)" in words(tablet.get("/floor/devices"))
    refused = tablet.post("/floor/devices", {"name": "Again"}, status=409)
    assert "already registered as Table 1 tablet" in words(refused.get_data(as_text=True))
    sent = tablet.post(
        f"/hands/{hand_id}/events",
        {"action": "meld", "seat": "1", "cards": "5S 5S 5S", "key": "k-1", "page": "/"},
    )
    assert sent.status_code == 303
    event = floor_api.get(f"/hands/{hand_id}")["events"][-1]
    assert event["device"] == "Table 1 tablet (registered #1) · Mozilla/5.0 (Tablet; floor)"
    page = tablet.get(f"/hands/{hand_id}/events/{event['id']}/payments/1")
    recorded = page.split("Recorded by")[1].split("</dd>")[0]
    assert "Table 1 tablet" in words(recorded)
    assert re.search(
        r"<details class=\"device-claim\"><summary>The browser(?:'|&#39;)s own claim</summary>"
        r"<small>Mozilla/5.0 \(Tablet; floor\)</small></details>",
        recorded,
    )
    history = words(tablet.get(f"/hands/{hand_id}").split('id="history-h"')[1])
    assert "Sam · " in history and "Table 1 tablet" in history and "Mozilla" not in history
    tablet.post("/floor/devices/1/rename", {"name": "Table 9"})
    tablet.post("/floor/devices/1/retire", {})
    text = words(tablet.get("/floor/devices"))
    assert "Table 9 · #1" in text and "retired" in text and "This tablet is not registered" in text
    tablet.get("/floor/devices/1/rename", status=405)


def test_a_claim_can_never_pass_for_a_registered_tablet(floor_api: Api, hand_id: int) -> None:
    fake = {"X-Device": "Cage (registered #1)"}
    answer = floor_api.call(
        "POST", f"/hands/{hand_id}/events", {"type": "drop", "seat": 2}, headers=fake
    )
    assert answer.status_code == 201
    assert answer.get_json()["event"]["device"] == "claimed: Cage (registered #1)"


def test_only_the_floor_registers_tablets(dealer: Web) -> None:
    dealer.get("/floor/devices", status=403)


def test_a_tablets_name_holding_an_invisible_character_is_refused(people: Flask) -> None:
    """A tablet named "Table 1" and a zero-width space would look like Table 1: refused."""
    tablet = Web.sign_in(people, "supervisor")
    refused = tablet.post("/floor/devices", {"name": "Table 1\u200b"}, status=422)
    assert "cannot hold a character that shows nothing" in words(refused.get_data(as_text=True))
    assert "This tablet is not registered" in words(tablet.get("/floor/devices"))


def recorded_by(tablet: Web, hand_id: int, event_id: int) -> str:
    """What the payment screen says recorded the event's first payment."""
    page = tablet.get(f"/hands/{hand_id}/events/{event_id}/payments/1")
    return page.split("Recorded by")[1].split("</dd>")[0]


def test_a_claim_dressed_as_a_registered_tablet_is_shown_as_a_claim(
    people: Flask, floor_api: Api, hand_id: int
) -> None:
    """An unregistered browser saying it is "Table 4 tablet (registered #7)" (with a tablet #7
    registered) is an unregistered device whose browser claims so: no registered mark on the
    hand's history, on the payment screen or on the sign-ins screen."""
    registrar = Web.sign_in(people, "supervisor")
    for n in range(7):
        registrar.client.delete_cookie("dealer_device")
        registrar.post("/floor/devices", {"name": f"Tablet {n + 1}"})
    claims = [
        "Table 4 tablet (registered #7)",
        "Table 4 tablet (registered #7) · Mozilla",
        "Tablet 7 (REGISTERED #7)",
        "Cage (registered #7) extra",
        "claimed: Cage (registered #7)",
    ]
    bodies: list[dict[str, object]] = [
        {"type": "drop", "seat": 2},
        {"type": "drop", "seat": 3},
        {"type": "meld", "seat": 1, "cards": SEED[0]},
    ]
    for n, claim in enumerate(claims):
        dressed = {"X-Device": claim}
        if n < len(bodies):
            answer = floor_api.call("POST", f"/hands/{hand_id}/events", bodies[n], headers=dressed)
            assert answer.status_code == 201, answer.get_json()
            assert answer.get_json()["event"]["device_claim"].startswith("claimed: ")
        Api(people.test_client()).call(
            "POST", "/session", {"name": "Dee", "pin": "1111"}, headers=dressed
        )
    looker = Web.sign_in(people, "supervisor")
    history = looker.get(f"/hands/{hand_id}").split('id="history-h"')[1]
    assert "▣" not in history
    event = floor_api.get(f"/hands/{hand_id}")["events"][-1]
    payment = looker.get(f"/hands/{hand_id}/events/{event['id']}/payments/1")
    shown = payment.split("Recorded by")[1].split("</dd>")[0]
    assert "▣" not in shown and "an unregistered device" in words(shown)
    sign_ins = looker.get("/floor/sign-ins")
    assert "▣" not in sign_ins
    assert words(sign_ins).count("an unregistered device") >= len(claims)


def test_a_registered_tablet_cannot_claim_another_tablets_number(
    people: Flask, floor_api: Api, hand_id: int
) -> None:
    """Tablet #1 saying it is "Cage (registered #2)": shown as Table 1 tablet, #1, and what it
    said is only its claim."""
    registrar = Web.sign_in(people, "supervisor")
    registrar.post("/floor/devices", {"name": "Cage"})
    tablet = Web.sign_in(people, "supervisor")
    tablet.post("/floor/devices", {"name": "Table 1 tablet"})
    tablet.client.environ_base["HTTP_X_DEVICE"] = "Cage (registered #1)"
    tablet.post(
        f"/hands/{hand_id}/events",
        {"action": "meld", "seat": "1", "cards": "5S 5S 5S", "key": "k-other", "page": "/"},
    )
    event = floor_api.get(f"/hands/{hand_id}")["events"][-1]
    assert event["device_claim"] == "Table 1 tablet (registered #2); claimed: Cage (registered #1)"
    shown = recorded_by(tablet, hand_id, event["id"])
    assert words(shown.split("<details")[0]).endswith(", on ▣ Table 1 tablet")


def test_a_tablets_name_cannot_say_it_is_registered(people: Flask) -> None:
    tablet = Web.sign_in(people, "supervisor")
    for name in ("Cage (registered #9)", "claimed: Cage"):
        tablet.post("/floor/devices", {"name": name}, status=422)
    assert "This tablet is not registered" in words(tablet.get("/floor/devices"))
