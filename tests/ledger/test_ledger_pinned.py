"""dealer/ledger through its own functions, where the other tests leave it unsaid: a table's
rules as its hands are replayed are its profile with the table's own overrides."""

from __future__ import annotations

from dealer.ledger.replay import table_rules
from dealer.models import Table
from dealer.rules import make_rules


def test_a_tables_rules_are_its_profile_with_its_overrides() -> None:
    plain = Table(profile="classic", rules={})
    changed = Table(profile="classic", rules={"packs": 6})
    assert table_rules(plain) == make_rules("classic")
    assert table_rules(changed).packs == 6 != make_rules("classic").packs
