"""A hand's events as everyone reads them: each in its one sentence (`dealer.words.events`),
with its payments, their reasons in words, and the payments said aloud in groups."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Annotated, Any, Literal, TypeAlias

from pydantic import Field

from dealer import rules
from dealer.hands.reading import Replayed
from dealer.models import Event, LedgerEntry
from dealer.people.devices import device_claim
from dealer.rules import ACTION_TYPES
from dealer.views.base import SeatNumber, Time, View, given, one_of, screen
from dealer.words.catalogue import say
from dealer.words.events import event_sentences
from dealer.words.parties import party_words
from dealer.words.payments import group_payments, net_words, payment_reason
from dealer.words.rules import HAND_RULES

Party: TypeAlias = Annotated[str, Field(description='A seat ("3"), "pot" or "house".')]


Cards: TypeAlias = list[Annotated[str, Field(examples=["5S"])]]


EventType: TypeAlias = Literal[("deal", *ACTION_TYPES)]  # type: ignore[valid-type]
#: An event a seat may record (all but the deal).
ActionType: TypeAlias = Literal[ACTION_TYPES]  # type: ignore[valid-type]


class PaymentView(View):
    """One payment of an event: who paid whom, how much, and why in words."""

    from_: Party = Field(alias="from")
    to: Party
    chips: Annotated[int, Field(ge=1)]
    reason: str = Field(description="Why, in words.")
    rule: str = one_of(
        HAND_RULES, description="The engine's code for the rule (rule names: /rules)."
    )
    #: The payment's number within its event, from 1: the dispute view's address.
    number: int = screen(0)
    payer: str = screen("")
    payee: str = screen("")


class Posted(PaymentView):
    """A payment as the ledger recorded it."""

    entry: int | None = Field(description="The ledger entry's seq.")


class Member(View):
    """One party of a payment group: its payment's number, the party in words, its chips."""

    number: int
    other: str
    chips: int
    seat: int | None


class PaymentGroupView(View):
    """Payments of one event said together (`dealer.words.payments.PaymentGroup`)."""

    party: str
    rule: str
    reason: str
    returns: bool
    members: list[Member]
    sentence: str

    @property
    def chips(self) -> int:
        return self.members[0].chips


class EventView(View):
    """An event of a hand, with what it paid and whether it stands."""

    id: int
    seq: int
    type: EventType
    seat: SeatNumber | None
    # An event answers only its own action's fields (API.md): no nulls for the others.
    cards: Cards | None = given()
    meld: int | None = given()
    take: Cards | None = given()
    into: list[Cards] | None = given()
    event: int | None = given(description="A void: the id of the event it voids.")
    event_seq: int | None = given()
    reason: str | None = given()
    claimed: bool | None = given(
        description="false: recorded unclaimed (nothing paid); left out otherwise."
    )
    text: str = Field(description="The event in one sentence, as every screen says it.")
    melds: list[int]
    voided: bool
    voided_by: int | None
    payments: list[PaymentView]
    user: str
    supervisor: str | None
    device: str
    device_claim: str = Field(description="The device in words that say what is only claimed.")
    at: Time
    voidable: bool = screen(False)
    #: The seq of the void that stands against it (``voided_by`` is that void's id).
    voided_by_seq: int | None = screen(None)
    #: Its payments said aloud, a sentence a group, and each party's net over them.
    groups: list[PaymentGroupView] = screen([])
    net_words: list[str] = screen([])

    @property
    def sentences(self) -> list[str]:
        """Its payments in sentences, ready to read aloud ("No chips move." for none)."""
        return [g.sentence for g in self.groups] or [say("No chips move.")]

    @property
    def correction(self) -> bool:
        return self.type in ("void", "void_hand")


def event_views(
    replayed: Replayed, players: Mapping[int, str], names: Mapping[int, str], played: rules.Rules
) -> list[EventView]:
    """Each event of a replayed hand: ``players`` by seat, ``names`` of its recorders by id."""
    engine, rows = replayed.engine, replayed.events
    id_of = {row.seq: row.id for row in rows}
    texts = event_sentences(engine)
    out = []
    for row, record, said in zip(rows, engine.events, texts, strict=True):
        voided_by = engine.voided.get(row.seq)
        out.append(
            EventView(
                **row_fields(row, names),
                **_action_fields(row.type, row.action, id_of),
                text=said,
                melds=list(record.melds),
                voided=voided_by is not None,
                voided_by=id_of[voided_by] if voided_by is not None else None,
                payments=[
                    payment_view(n, p, players, played)
                    for n, p in enumerate(record.payments, start=1)
                ],
                voidable=row.seq > 1 and engine.voidable(row.seq),
                voided_by_seq=voided_by,
                net_words=net_words(record.payments, players),
                groups=_groups(record.payments, players, played),
            )
        )
    return out


def row_fields(row: Event, names: Mapping[int, str]) -> dict[str, Any]:
    """An event view's fields read from its stored row: the event, and who recorded it where
    and when (``names``: the recorders' names by id)."""
    return {
        "id": row.id,
        "seq": row.seq,
        "type": row.type,
        "seat": row.seat,
        "user": names.get(row.user_id, say("someone")),
        "supervisor": names.get(row.supervisor_id) if row.supervisor_id else None,
        "device": row.device,
        "device_claim": device_claim(row.device),
        "at": row.created_at,
    }


def _action_fields(
    kind: str, action: Mapping[str, Any] | None, id_of: Mapping[int, int]
) -> dict[str, Any]:
    """A stored action's own fields (a void names the event it voids by id and by seq)."""
    fields = dict(action or {})
    fields.pop("type", None)
    fields.pop("seat", None)
    if kind == "void":
        target = int(fields["event"])
        fields["event"], fields["event_seq"] = id_of[target], target
    return fields


def _groups(
    payments: Sequence[rules.Payment], players: Mapping[int, str], played: rules.Rules
) -> list[PaymentGroupView]:
    """An event's payments said together, a sentence a group (`group_payments`)."""
    return [
        PaymentGroupView(
            party=g.party,
            rule=g.rule,
            reason=g.reason,
            returns=g.returns,
            members=[
                Member(
                    number=m.number,
                    other=m.words,
                    chips=m.chips,
                    seat=m.party if isinstance(m.party, int) else None,
                )
                for m in g.members
            ],
            sentence=g.sentence(),
        )
        for g in group_payments(payments, players, played)
    ]


def payment_view(
    number: int, p: rules.Payment, players: Mapping[int, str], played: rules.Rules | None
) -> PaymentView:
    """Payment ``number`` (from 1) of an event, with its parties and reason in words."""
    return PaymentView(
        **{"from": rules.party_name(p.payer)},
        to=rules.party_name(p.payee),
        chips=p.chips,
        reason=payment_reason(p, played),
        rule=p.rule,
        number=number,
        payer=party_words(p.payer, players),
        payee=party_words(p.payee, players),
    )


def posted(payments: Sequence[PaymentView], entries: Sequence[LedgerEntry]) -> list[Posted]:
    """Payments with the ledger entries that recorded them, in order."""
    return [
        Posted(**p.model_dump(by_alias=True), number=p.number, entry=e.seq)
        for p, e in zip(payments, entries, strict=True)
    ]
