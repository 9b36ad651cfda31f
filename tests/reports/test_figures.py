"""How amounts and times are written: chips and money together, on the floor's clock."""

from datetime import UTC, datetime

from dealer.clock import zone
from dealer.reports.figures import amount_text, chips_text, iso_utc, local_time
from dealer.views.documents.shift_tally import Amount
from dealer.words.numbers import balance_words, money_words


def test_chips_and_money():
    assert chips_text(46, 50) == "46 chips ($23.00)"
    assert chips_text(1, 50) == "1 chip ($0.50)"
    assert chips_text(-11, 50, signed=True) == "-11 chips (-$5.50)"
    assert chips_text(46, 50, signed=True) == "+46 chips (+$23.00)"
    assert chips_text(0, 50, signed=True) == "0 chips ($0.00)"
    assert chips_text(12345, 25, "€") == "12,345 chips (€3,086.25)"
    assert money_words(-5) == "-$0.05"
    assert amount_text(Amount(36, 5100)) == "36 chips ($51.00)"
    assert balance_words(0) == "0" and balance_words(-18) == "-18" and balance_words(7) == "+7"


def test_times():
    at = datetime(2024, 5, 3, 21, 0, 5)  # naive: taken as UTC, as SQLite gives it back
    la = zone("America/Los_Angeles")
    assert local_time(at, la) == "2024-05-03 14:00:05 PDT"
    assert local_time(at, la, "short") == "05-03 14:00"
    assert local_time(None, la) == ""
    assert iso_utc(at) == "2024-05-03T21:00:05.000Z"
    assert iso_utc(at.replace(tzinfo=UTC).astimezone(la)) == "2024-05-03T21:00:05.000Z"
