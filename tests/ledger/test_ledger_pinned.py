"""dealer/ledger through its own functions, where the other tests leave it unsaid: a table's
rules as its hands are replayed are its profile with the table's own overrides, and a time
in a problem's sentence."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from dealer.ledger.checks import Problem
from dealer.ledger.replay import table_rules
from dealer.models import Table
from dealer.rules import make_rules
from dealer.words.ledger import problem_words


def test_a_tables_rules_are_its_profile_with_its_overrides() -> None:
    plain = Table(profile="classic", rules={})
    changed = Table(profile="classic", rules={"packs": 6})
    assert table_rules(plain) == make_rules("classic")
    assert table_rules(changed).packs == 6 != make_rules("classic").packs


def test_a_time_in_a_problems_sentence_is_utc_to_the_second() -> None:
    los_angeles = ZoneInfo("America/Los_Angeles")
    moment = datetime(2026, 12, 6, 22, 0, 5, 999, tzinfo=los_angeles)
    unsigned = Problem("checkpoint", "not_signed", {"at": moment, "link": 3})
    assert problem_words(unsigned).startswith("The checkpoint of 2026-12-07 06:00:05 UTC (link 3) ")
