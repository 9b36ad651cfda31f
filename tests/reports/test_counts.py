"""The count at a session's close: a short count is refused without a supervisor's reason,
recorded with one, and its variance is on the session report, the shift ledger, the API and
the audit trail."""

from __future__ import annotations

from flask import Flask
from sqlalchemy import select

from dealer.extensions import db
from dealer.models import AuditRecord, ChainLink
from tests.helpers import Api
from tests.reports.evening import WINNING_MELDS, one_line, pdf_text
from tests.reports.test_routes import fetch, window

SAM = {"name": "Sam", "pin": "2222"}
WITNESS = {"name": "Ada", "pin": "3333"}


def test_a_short_count_needs_a_supervisors_reason_and_shows_everywhere(
    api: Api, floor: Api, people: Flask
) -> None:
    table = floor.table(
        "classic", name="Table 4", chip_value_cents=50, collection={"kind": "per_hand", "chips": 1}
    )["id"]
    down = api.post(f"/tables/{table}/sessions", status=201)["id"]
    for seat in (1, 2, 3):
        api.seat(table, seat, f"P{seat}", 100)
    for _ in range(2):  # two hands: the house takes 3 chips each
        hand = api.hand(table)["id"]
        for cards in WINNING_MELDS:
            api.event(hand, {"type": "meld", "seat": 1, "cards": cards})
        api.event(hand, {"type": "go_out", "seat": 1})
    path = f"/sessions/{down}/count"
    short = {"tray_chips": 4, "witness": WITNESS}
    # Not before the down ends.
    assert api.post(path, short, status=409)["error"]["code"] == "session_open"
    api.post(f"/sessions/{down}/close", {})
    before = one_line(pdf_text(fetch(floor, f"/reports/sessions/{down}.pdf").data))
    assert "Not counted yet: the ledger expects 6 chips ($3.00) in the tray." in before
    # A second person confirms: not the dealer who counted.
    alone = {"tray_chips": 6, "witness": {"name": "Dee", "pin": "1111"}}
    assert api.post(path, alone, status=403)["error"]["code"] == "not_confirmed"
    refused = api.post(path, short, status=403)["error"]
    assert refused["code"] == "needs_supervisor"
    assert "-2 chips from the ledger's 6" in refused["message"]
    no_reason = api.post(path, short | {"supervisor": SAM}, status=422)["error"]
    assert no_reason["code"] == "reason_missing"
    assert api.get(f"/sessions/{down}")["count"] is None  # nothing was recorded
    reason = "Two chips fell behind the tray; found after the count."
    count = api.post(path, short | {"supervisor": SAM, "reason": reason}, status=201)
    assert (count["tray_chips"], count["expected_chips"], count["variance"]) == (4, 6, -2)
    assert (count["counted_by"], count["confirmed_by"], count["approved_by"]) == (
        "Dee",
        "Ada",
        "Sam",
    )
    assert api.post(path, short | {"supervisor": SAM, "reason": reason}, status=409)
    assert api.get(f"/sessions/{down}")["count"]["variance"] == -2

    report = one_line(pdf_text(fetch(floor, f"/reports/sessions/{down}.pdf").data))
    assert "variance -2 chips (-$1.00)" in report
    assert "variance approved by Sam" in report and reason in report
    shift = pdf_text(fetch(floor, f"/reports/shift.pdf?{window()}").data)
    first = shift.split("\nPage 1 of")[0]
    assert "counts\n1 (1 with a variance)" in first
    assert "Table 4\nDee\n" in first
    assert "4 chips ($2.00)\n6 chips ($3.00)\n-2 chips (-$1.00)\nAda" in first
    # The variance's approval and its reason, whole, on the summary's first page.
    assert f"counted by Dee, confirmed by Ada; approved by Sam. Reason: {reason}" in one_line(first)
    # On the audit trail, linked into the keyed chain, and the ledger still verifies.
    with people.app_context():
        record = db.session.scalars(select(AuditRecord).where(AuditRecord.kind == "count")).one()
        assert "counted 4 chips" in record.words and "Sam approved" in record.words
        link = select(ChainLink).where(ChainLink.kind == "audit", ChainLink.ref == record.id)
        assert db.session.scalars(link).one()
    assert floor.get("/ledger/verify")["ok"] is True


def test_a_table_selling_chips_for_cash_counts_its_drop_box(api: Api, floor: Api) -> None:
    table = floor.table("classic", name="Table 5", chip_value_cents=25)["id"]
    settings = {"tolerance": 2, "sells_for_cash": True}  # a dollar short is 4 chips
    answer = floor.call("PUT", f"/tables/{table}/count", settings, status=200).get_json()
    assert answer["count"] == {"tolerance": 2, "sells_for_cash": True}
    down = api.post(f"/tables/{table}/sessions", status=201)["id"]
    api.seat(table, 1, "P1", 100)
    api.seat(table, 2, "P2", 60)
    api.post(f"/tables/{table}/seats/2/chips", {"kind": "cash_out", "amount": 10})
    api.post(f"/sessions/{down}/close", {})
    path = f"/sessions/{down}/count"
    missing = api.post(path, {"tray_chips": 0, "witness": WITNESS}, status=422)["error"]
    assert missing["code"] == "drop_box_missing"
    # 150 chips sold at 25 cents: $37.50; a dollar short is 4 chips, over the 2 allowed.
    body = {"tray_chips": 1, "drop_box_cents": 3650, "witness": WITNESS}
    assert api.post(path, body, status=403)["error"]["code"] == "needs_supervisor"
    # A chip over in the tray and the cash right: within the table's tolerance.
    count = api.post(path, body | {"drop_box_cents": 3750}, status=201)
    assert (count["variance"], count["expected_cents"], count["cash_variance_cents"]) == (
        1,
        3750,
        0,
    )
    assert count["approved_by"] is None


def test_a_variance_is_approved_by_a_third_person_never_by_who_counted_or_confirmed(
    admin: Api, floor: Api, people: Flask
) -> None:
    """An admin counting is not their own approver, nor is the witness: another supervisor
    approves, for the API as for the screens (`approvals.approval_by_another`), and the audit
    trail names the three of them."""
    table = floor.table("classic", name="Table 8", collection={"kind": "per_hand", "chips": 1})[
        "id"
    ]
    down = admin.post(f"/tables/{table}/sessions", status=201)["id"]
    for seat in (1, 2, 3):
        admin.seat(table, seat, f"P{seat}", 100)
    hand = admin.hand(table)["id"]
    for cards in WINNING_MELDS:
        admin.event(hand, {"type": "meld", "seat": 1, "cards": cards})
    admin.event(hand, {"type": "go_out", "seat": 1})
    admin.post(f"/sessions/{down}/close", {})
    path = f"/sessions/{down}/count"
    reason = "Five chips were paid out of the tray by mistake."
    dee = {"name": "Dee", "pin": "1111"}
    over = {"tray_chips": 8, "witness": dee, "reason": reason}  # the ledger: 3
    alone = admin.post(path, over, status=403)["error"]  # the admin's own sign-in: no
    assert alone["code"] == "needs_supervisor"
    assert "a supervisor other than Ada, who counted, and Dee, who confirmed" in alone["message"]
    itself = admin.post(path, over | {"supervisor": {"name": "Ada", "pin": "3333"}}, status=403)
    assert itself["error"]["code"] == "needs_supervisor"
    witnessed = over | {"witness": SAM, "supervisor": SAM}  # the witness approving: no
    assert admin.post(path, witnessed, status=403)["error"]["code"] == "needs_supervisor"
    assert admin.get(f"/sessions/{down}")["count"] is None
    count = admin.post(path, over | {"supervisor": SAM}, status=201)
    assert (count["counted_by"], count["confirmed_by"], count["approved_by"]) == (
        "Ada",
        "Dee",
        "Sam",
    )
    with people.app_context():
        record = db.session.scalars(select(AuditRecord).where(AuditRecord.kind == "count")).one()
        assert "Ada counted 8 chips" in record.words and "confirmed by Dee" in record.words
        assert f"Sam approved the variance: {reason}" in record.words
