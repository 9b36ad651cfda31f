"""A seat's statement for a hand: every chip in and out, each traced to its event's one
sentence, its rule in words and its ledger entry, by the other party and by rule.

Built once here, from the hand's ledger entries (the chips) and its replay (the rule, the
meld and the cards behind each entry, and the events' sentences from the hand's view); the
screen, the API and the printed slip show this one statement. The lines run in the ledger's
order, each with the seat's running total after it, the last one the seat's net; the net is
held to the ledger's own sum for the seat's account, read apart (``ledger_net``): a
statement that does not add up says so instead of hiding it.

"Seat 3 paid seat 1 (Rosa) 8 chips: 2 for going out and 6 for conditions paid again (4 for
5♠ 5♠ 5♠, 2 for K♠ K♠ K♠)."
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Literal

from pydantic import Field
from sqlalchemy import case, func, select
from sqlalchemy.orm import Session

from dealer import rules
from dealer.bounds import SEATS
from dealer.errors import NotFound
from dealer.hands.reading import Replayed, load_hand
from dealer.ledger.accounts import seating_account
from dealer.models import LedgerEntry, Table
from dealer.views.base import SeatNumber, Time, View, one_of, screen
from dealer.views.hand import HandView, OneHand, hand_view, one_hand
from dealer.words.catalogue import say
from dealer.words.numbers import capital, chips_words, join_words
from dealer.words.parties import party_words
from dealer.words.rules import LEDGER_RULES, Rule, meld_words, rule

Party = Field(description='A seat ("3"), "pot" or "house".')
#: Payments that a going out's "conditions paid again" repeats, net (as the dispute view).
PAID_AGAIN = frozenset({"condition", "foul_refund", "void", "void_hand"})


class RuleNamed(View):
    """A rule: its code (for programs), its name in words, and where the rules say it."""

    code: str = one_of(LEDGER_RULES, description="The engine's code for the rule.")
    name: str = Field(description='In words: "conditions paid again".')
    section: str = Field(description='Where PAN_RULES.md says it: "5.4".')
    link: str = Field(description="The rule's text in the app.")

    @property
    def number(self) -> int:
        """The rule's section of PAN_RULES.md."""
        return rule(self.code).number

    @property
    def item(self) -> int | None:
        """The rule's item within its section, if it has one."""
        return rule(self.code).item


def rule_named(code: str) -> RuleNamed:
    found: Rule = rule(code)
    link = "/rules"
    if found.section:
        link = f"/rules/{found.number}" + (f"#item-{found.item}" if found.item else "")
    return RuleNamed(code=found.code, name=found.name, section=found.section, link=link)


class StatementLine(View):
    event: int = Field(description="The event's id.")
    event_seq: int
    payment: int = Field(description="The payment's number within its event (from 1).")
    entry: int = Field(description="The ledger entry's seq.")
    at: Time
    other: str = Party
    other_words: str = Field(description='The other party in words: "seat 1 (Rosa)".')
    rule: RuleNamed
    chips: int = Field(description="Signed as the seat sees it: positive in, negative out.")
    detail: str = Field(description='What it was for: "for 5♠ 5♠ 5♠".')
    reason: str = Field(description="Why, in words.")
    event_text: str = Field(description="The event's one sentence.")
    voided_by: int | None = Field(description="The seq of the void standing against the event.")
    running: int = Field(description="The seat's net after this line, in the ledger's order.")
    dispute: str = Field(description="The payment's dispute view (a screen).")


class RuleGroup(View):
    rule: RuleNamed
    direction: Literal["paid", "received"]
    chips: int
    detail: str
    words: str = Field(
        description='"6 chips for conditions paid again (4 for 5♠ 5♠ 5♠, 2 for K♠ K♠ K♠)".'
    )
    lines: list[int] = Field(description="The entries (seqs) of this group.")


class PartyGroup(View):
    party: str = Party
    label: str
    paid: int
    received: int
    net: int
    groups: list[RuleGroup]


class Statement(OneHand):
    status: Literal["playing", "settled", "void"]
    seat: SeatNumber
    player: str
    seating: int
    account: str
    paid: int
    received: int
    net: int
    ledger_net: int = Field(description="The ledger's own sum over the seat's account.")
    balanced: bool = Field(description="net == ledger_net.")
    sentences: list[str]
    parties: list[PartyGroup]
    lines: list[StatementLine]
    #: What a chip is worth at the hand's table: the printed statement gives money too.
    chip_value_cents: int = screen(0)


def seat_statement(session: Session, hand_id: int, seat: int) -> Statement:
    """Seat ``seat``'s statement for hand ``hand_id`` (404 for a seat not dealt in)."""
    replayed = load_hand(session, hand_id)
    return statement_of(session, replayed, hand_view(session, replayed), seat)


def statement_of(session: Session, replayed: Replayed, view: HandView, seat: int) -> Statement:
    """The statement of ``seat`` in a hand already replayed and viewed."""
    hand = replayed.row
    if not SEATS[0] <= seat <= SEATS[1] or str(seat) not in hand.seats:
        raise NotFound(
            say("Seat {seat} was not dealt into hand {number}.", seat=seat, number=hand.number),
            "unknown_seat",
        )
    account = seating_account(hand.seats[str(seat)])
    entries: dict[int, list[LedgerEntry]] = {}
    for entry in session.scalars(
        select(LedgerEntry).where(LedgerEntry.hand_id == hand.id).order_by(LedgerEntry.seq)
    ):
        if entry.event_id is not None:
            entries.setdefault(entry.event_id, []).append(entry)
    lines = sorted(_lines(replayed, view, entries, seat), key=lambda line: line.entry)
    running = 0
    for i, line in enumerate(lines):
        running += line.chips
        lines[i] = line.model_copy(update={"running": running})
    parties = _parties(lines, view.names)
    net = sum(line.chips for line in lines)
    ledger = ledger_net(session, hand.id, account)
    return Statement(
        **one_hand(session, hand),
        status=view.status,
        seat=seat,
        player=view.names.get(seat, ""),
        seating=hand.seats[str(seat)],
        account=account,
        paid=-sum(line.chips for line in lines if line.chips < 0),
        received=sum(line.chips for line in lines if line.chips > 0),
        net=net,
        ledger_net=ledger,
        balanced=net == ledger,
        sentences=_sentences(seat, view.names, parties),
        parties=parties,
        lines=lines,
        chip_value_cents=session.get_one(Table, hand.table_id).chip_value_cents,
    )


def _lines(
    replayed: Replayed, view: HandView, entries: Mapping[int, list[LedgerEntry]], seat: int
) -> Iterable[StatementLine]:
    engine = replayed.engine
    for row, record, told in zip(replayed.events, engine.events, view.events, strict=True):
        posted = entries.get(row.id, [])
        for number, (paid, entry) in enumerate(zip(record.payments, posted, strict=False), 1):
            if seat not in (paid.payer, paid.payee):
                continue
            outgoing = paid.payer == seat
            other = paid.payee if outgoing else paid.payer
            yield StatementLine(
                event=row.id,
                event_seq=row.seq,
                payment=number,
                entry=entry.seq,
                at=entry.at,
                other=rules.party_name(other),
                other_words=party_words(other, view.names),
                rule=rule_named(paid.rule),
                chips=-entry.chips if outgoing else entry.chips,
                detail=_detail(replayed, record, paid),
                reason=told.payments[number - 1].reason,
                event_text=told.text,
                voided_by=engine.voided.get(row.seq),
                running=0,
                dispute=f"/hands/{view.id}/events/{row.id}/payments/{number}",
            )


def ledger_net(session: Session, hand_id: int, account: str) -> int:
    """What ``account`` gained over hand ``hand_id``, summed by the database."""
    signed = case((LedgerEntry.to_account == account, LedgerEntry.chips), else_=-LedgerEntry.chips)
    total = session.scalar(
        select(func.coalesce(func.sum(signed), 0)).where(
            LedgerEntry.hand_id == hand_id,
            (LedgerEntry.from_account == account) | (LedgerEntry.to_account == account),
        )
    )
    return int(total or 0)


def _group_words(code: str, chips: int, lines: list[StatementLine]) -> tuple[str, str]:
    """A rule group's detail and words: ``4 for 5♠ 5♠ 5♠, 1 for J♥ Q♥ K♥`` and
    ``5 chips for conditions (4 for 5♠ 5♠ 5♠, 1 for J♥ Q♥ K♥)``."""
    named = [line for line in lines if line.detail]
    if len(lines) == 1 or code == "conditions_again":
        detail = "; ".join(line.detail.removeprefix(say("for") + " ") for line in named)
    else:
        detail = ", ".join(f"{abs(line.chips)} {line.detail}" for line in named)
    name = rule(code).name
    words = say("{chips} for {rule}", chips=chips_words(chips), rule=name)
    return detail, words + (f" ({detail})" if detail else "")


def _parties(lines: Iterable[StatementLine], names: Mapping[int, str]) -> list[PartyGroup]:
    """The lines by party (seats in order, then the pot and the house), then by rule."""
    by_party: dict[str, dict[tuple[str, str], list[StatementLine]]] = {}
    for line in lines:
        direction = "paid" if line.chips < 0 else "received"
        by_party.setdefault(line.other, {}).setdefault((direction, line.rule.code), []).append(line)
    out = []
    for party, groups in sorted(by_party.items(), key=lambda kv: _party_order(kv[0])):
        made = []
        for (direction, code), grouped in groups.items():
            chips = sum(abs(line.chips) for line in grouped)
            detail, words = _group_words(code, chips, grouped)
            made.append(
                RuleGroup(
                    rule=grouped[0].rule,
                    direction="paid" if direction == "paid" else "received",
                    chips=chips,
                    detail=detail,
                    words=words,
                    lines=[line.entry for line in grouped],
                )
            )
        paid = sum(g.chips for g in made if g.direction == "paid")
        received = sum(g.chips for g in made if g.direction == "received")
        label = party_words(party if party in ("pot", "house") else int(party), names)
        out.append(
            PartyGroup(
                party=party,
                label=label,
                paid=paid,
                received=received,
                net=received - paid,
                groups=made,
            )
        )
    return out


def _party_order(party: str) -> tuple[int, int]:
    if party.isdigit():
        return (0, int(party))
    return (1, 0) if party == "pot" else (2, 0)


def _sentences(seat: int, names: Mapping[int, str], parties: list[PartyGroup]) -> list[str]:
    """One sentence for each way chips went between the seat and a party."""
    me = party_words(seat, names)
    out = []
    for party in parties:
        for direction in ("paid", "received"):
            groups = [g for g in party.groups if g.direction == direction]
            if not groups:
                continue
            who, whom = (me, party.label) if direction == "paid" else (party.label, me)
            total = sum(g.chips for g in groups)
            out.append(
                capital(
                    say(
                        "{who} paid {whom} {chips}: {parts}.",
                        who=who,
                        whom=whom,
                        chips=chips_words(total),
                        parts=join_words([_part_words(g) for g in groups]),
                    )
                )
            )
    return out


def _part_words(group: RuleGroup) -> str:
    """``6 for conditions paid again (4 for 5♠ 5♠ 5♠, 2 for K♠ K♠ K♠)``: a group within a
    sentence that has said its chips in all."""
    part = say("{n} for {rule}", n=group.chips, rule=group.rule.name)
    return part + (f" ({group.detail})" if group.detail else "")


def _detail(replayed: Replayed, record: rules.EventRecord, paid: rules.Payment) -> str:
    """What a payment was for, in cards: the meld, or what conditions paid again repeat."""
    if paid.rule == "conditions_again":
        return _paid_again(replayed, record, paid)
    if paid.rule in ("void", "void_hand") and paid.reverses is not None:
        of = say("of #{seq}", seq=paid.reverses[0])
        return of + (", " + say("for {cards}", cards=meld_words(paid.cards)) if paid.cards else "")
    return say("for {cards}", cards=meld_words(paid.cards)) if paid.cards else ""


def _paid_again(replayed: Replayed, record: rules.EventRecord, paid: rules.Payment) -> str:
    """``4 for 5♠ 5♠ 5♠, 2 for K♠ K♠ K♠``: the conditions that payer paid payee, by meld."""
    by_meld: dict[int | None, int] = {}
    cards: dict[int | None, str] = {}
    for earlier in replayed.engine.events[: record.seq - 1]:
        for p in earlier.payments:
            if p.rule not in PAID_AGAIN or {p.payer, p.payee} != {paid.payer, paid.payee}:
                continue
            sign = 1 if p.payer == paid.payer else -1
            # A foul's refund names no meld: it returns the seat's conditions in one sum.
            key = p.meld if p.rule != "foul_refund" else None
            by_meld[key] = by_meld.get(key, 0) + sign * p.chips
            if p.cards:
                cards[key] = meld_words(p.cards)
    parts: list[str] = []
    less: list[str] = []
    for key, chips in by_meld.items():
        if chips and key is None:
            parts.append(say("{chips} returned at the foul", chips=chips))
        elif chips:
            # What the payee owed the payer for a meld of its own is taken off, said as such
            # (a player reads "less 1 for 7♣ 7♦ 7♥", never "-1 for").
            said = say("{chips} for {cards}", chips=abs(chips), cards=cards.get(key, say("a meld")))
            (parts if chips > 0 else less).append(said)
    return ", ".join(parts + [say("less {part}", part=part) for part in less])
