"""A going out, seat by seat: what each pays or receives in each column, the hand's net and
the stack after it; for a hand settled by one, and as a dry run before it is confirmed."""

from __future__ import annotations

from collections.abc import Mapping

from sqlalchemy.orm import Session

from dealer import rules
from dealer.hands.reading import Replayed, load_hand
from dealer.ledger.replay import hand_rules
from dealer.views.base import View
from dealer.views.hand import HandView, hand_view
from dealer.words.payments import payment_sentences
from dealer.words.rules import condition_words, meld_words

#: The rules whose payments a going out shows in a column of their own, by name.
COLUMNS = ("going_out", "conditions_again", "pot")


class SettlementLine(View):
    """One seat's part in the going out: each column in chips, + received, - paid."""

    seat: int
    player: str
    status: str
    going_out: int
    conditions_again: int
    pot: int
    rake: int
    #: The seat's net over the whole hand once settled, and its stack then.
    hand_net: int
    stack_after: int

    @property
    def total(self) -> int:
        return self.going_out + self.conditions_again + self.pot + self.rake


class WinnerCondition(View):
    name: str
    cards: str
    value: int


class Settlement(View):
    winner: int
    winner_name: str
    lines: list[SettlementLine]
    pot: int
    rake: int
    sentences: list[str]
    #: The winner's conditions on the table.
    conditions: list[WinnerCondition]

    @property
    def collected(self) -> int:
        line = next(x for x in self.lines if x.seat == self.winner)
        return line.total - line.rake


def _settlement(
    engine: rules.Hand,
    record: rules.EventRecord,
    names: Mapping[int, str],
    stacks_before: Mapping[int, int],
    played: rules.Rules,
) -> Settlement:
    """The breakdown of a going out from its event (``engine`` is the hand after it)."""
    winner = record.seat
    assert winner is not None
    columns: dict[int, dict[str, int]] = {
        s: dict.fromkeys((*COLUMNS, "rake"), 0) for s in engine.seats
    }
    pot = rake = 0
    for p in record.payments:
        if p.rule in COLUMNS:
            for party, sign in ((p.payer, -1), (p.payee, 1)):
                if isinstance(party, int):
                    columns[party][p.rule] += sign * p.chips
            if p.rule == "pot":
                pot += p.chips
        elif p.rule == "rake" and isinstance(p.payer, int):
            columns[p.payer]["rake"] -= p.chips
            rake += p.chips
    lines = [
        SettlementLine(
            seat=s,
            player=names.get(s, ""),
            status=engine.seat_status[s],
            **columns[s],
            hand_net=engine.net[s],
            stack_after=stacks_before[s] + sum(columns[s].values()),
        )
        for s in engine.seats
    ]
    conditions = [
        WinnerCondition(
            name=condition_words(m.cards, played) or "", cards=meld_words(m.cards), value=m.value
        )
        for m in engine.melds_of(winner)
        if m.condition
    ]
    return Settlement(
        winner=winner,
        winner_name=names.get(winner, ""),
        lines=lines,
        pot=pot,
        rake=rake,
        sentences=payment_sentences(record.payments, names, played),
        conditions=conditions,
    )


def settled(replayed: Replayed, view: HandView) -> Settlement | None:
    """The going out that settled this hand, if it stands (``view``: its board, for stacks)."""
    engine = replayed.engine
    if engine.status != "settled" or engine.winner is None:
        return None
    record = next(
        (e for e in reversed(engine.events) if e.type == "go_out" and engine.is_active(e.seq)),
        None,
    )
    if record is None:
        return None
    paid_in = rules.total_by_party(record.payments)
    stacks = {s.seat: s.stack - paid_in.get(s.seat, 0) for s in view.seat_list}
    return _settlement(engine, record, view.names, stacks, hand_rules(replayed.row))


def going_out_preview(
    session: Session, hand_id: int, seat: int
) -> tuple[HandView, Settlement | rules.RulesError]:
    """The hand's board, and what ``seat`` going out now would record (a dry run: applied to a
    fresh replay, never stored), or why it may not go out."""
    replayed = load_hand(session, hand_id)
    view = hand_view(session, replayed, board=True)
    try:
        record = replayed.engine.apply(rules.GoOut(seat))
    except rules.RulesError as refused:
        return view, refused
    stacks = {s.seat: s.stack for s in view.seat_list}
    return view, _settlement(replayed.engine, record, view.names, stacks, hand_rules(replayed.row))
