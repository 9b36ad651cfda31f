"""A hand the engine installed can no longer replay is a 409 that says so, never a 500."""

from __future__ import annotations

import pytest

from dealer import rules
from tests.helpers import Api


def test_a_hand_that_no_longer_replays_is_refused_in_words(
    api: Api, floor: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = floor.table("classic")
    for seat in (1, 2, 3):
        api.seat(table["id"], seat, f"P{seat}")
    hand = api.hand(table["id"])["id"]
    api.event(hand, {"type": "meld", "seat": 1, "cards": ["5C", "6C", "7C"]})

    def changed_engine(self: rules.Hand, action: rules.Action) -> rules.EventRecord:
        raise rules.IllegalMeldError("5C 6C 7C is not a meld under this engine.")

    monkeypatch.setattr(rules.Hand, "apply", changed_engine)
    error = api.get(f"/hands/{hand}", status=409)["error"]
    assert error["code"] == "hand_does_not_replay"
    assert "no longer replays" in error["message"]
    assert "hand slip" in error["message"]
