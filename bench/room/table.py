"""A dealer at one table: what the players do, entered into the JSON API as a dealer would.

`TableDealer.entries()` is a generator of `Entry` values (a request, and how long after the
previous one a dealer would send it); whoever drives it sends each entry and sends the answer
back in. So the same table plays in-process or over HTTP, at a human pace or compressed.

What a dealer enters (API.md): the table and its seats, the dealer's down (a table session),
each hand's deal with the drops, then every meld, add, borrow, split, drop, foul and going out;
now and then a mis-entry voided at once, a discard penalty, a going out voided by the floor,
a misdeal voided by the floor; between hands, rebuys for short stacks, the time collection
when due, a player leaving and another sitting down. The table's engine hand mirrors the
app's: every answer's payments must be the ones the rules engine computes, and every hand's
net must sum to zero, or the table stops with `Refused`.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass, field
from typing import Any

from dealer import rules
from dealer.rules import Action, Card, Drop, Foul, GoOut, Meld, Penalty, Void

from .players import Seat, Stock, best_play, discard_choice, drops, melds_in_hand, new_shoe

__all__ = ["Answer", "Entry", "Mishaps", "Pace", "Refused", "TableDealer"]

#: What came back: the HTTP status and the JSON body (None when there is none).
Answer = tuple[int, Any]
NAMES = ("Ana", "Bea", "Cruz", "Dev", "Eli", "Fay", "Gil", "Hal", "Ida", "Jon", "Kai", "Lou")
COLLECTIONS: tuple[dict[str, Any], ...] = (
    {"kind": "none"},
    {"kind": "per_hand", "chips": 1},
    {"kind": "time", "chips": 2, "minutes": 30},
    {"kind": "rake_percent", "percent": 5, "cap": 10},
)
#: A hand no one has gone out of after this many turns is called a misdeal by the floor.
MAX_TURNS = 800
BUY_IN = 300
REBUY_BELOW = 20


@dataclass(frozen=True)
class Entry:
    """One request a dealer (or, with ``who="supervisor"``, the floor) sends."""

    method: str
    path: str
    body: dict[str, Any] | None
    #: What it is, for the figures: setup, deal, event, chips, read, session.
    kind: str
    #: Simulated seconds after the previous entry at this table.
    after: float
    who: str = "dealer"


class Refused(RuntimeError):
    """The app answered what a dealer did not expect, or what the rules engine disagrees with."""


@dataclass(frozen=True)
class Pace:
    """How fast a table goes: a dealer enters an event every few seconds.

    ``entry``: seconds between a table's entries during a hand (uniform; mean 5 s).
    ``deal``: seconds from the end of a hand to the next deal (shuffle and deal).
    """

    entry: tuple[float, float] = (2.0, 8.0)
    deal: tuple[float, float] = (20.0, 40.0)
    setup: float = 1.0


@dataclass(frozen=True)
class Mishaps:
    """How often things go wrong or need the floor (probabilities)."""

    foul: float = 1 / 40  # per hand: a seat found with the wrong number of cards
    mis_entry: float = 1 / 40  # per meld: entered for the wrong seat, voided at once
    penalty: float = 0.3  # per going out on the previous seat's discard
    void_going_out: float = 1 / 100  # per hand: the floor voids the going out; entered again
    misdeal: float = 1 / 150  # per hand: the floor voids the hand at once
    seat_change: float = 1 / 25  # per hand: a player leaves and another sits down


@dataclass
class Tally:
    """What one table did."""

    hands: int = 0
    events: Counter[str] = field(default_factory=Counter)
    bought: int = 0
    cashed: int = 0


class TableDealer:
    """One table's dealer, players and shoe. ``more()`` is asked between hands."""

    def __init__(
        self,
        name: str,
        profile: str,
        rng: random.Random,
        *,
        dealer: dict[str, str],
        seats: int = 6,
        pace: Pace | None = None,
        mishaps: Mishaps | None = None,
        supervisor: dict[str, str] | None = None,
        more: Callable[[TableDealer], bool] = lambda dealer: True,
    ) -> None:
        self.name, self.profile, self.rng = name, profile, rng
        #: The dealer in the box ({"name", "pin"}): a dealer holds one table at a time.
        self.dealer = dealer
        self.seat_count = seats
        self.pace, self.mishaps = pace or Pace(), mishaps or Mishaps()
        self.supervisor = supervisor
        self.more = more
        self.tally = Tally()
        #: Simulated seconds since the table opened.
        self.clock = 0.0
        self.table_id = 0
        self.players: dict[int, str] = {}
        self.collection = rng.choice(COLLECTIONS)
        self._last_collection = 0.0
        self._down: int | None = None
        self._newcomers = 0

    # ------------------------------------------------------------- sending

    def send(self, entry: Entry) -> Generator[Entry, Answer, Any]:
        self.clock += entry.after
        status, payload = yield entry
        if status not in (200, 201):
            raise Refused(
                f"{self.name}: {entry.method} {entry.path} {entry.body} -> {status} {payload}"
            )
        return payload

    def gap(self) -> float:
        return self.rng.uniform(*self.pace.entry)

    # --------------------------------------------------------------- table

    def entries(self) -> Generator[Entry, Answer, None]:
        """Open the table, then play hands while ``more(self)``; the answers come back in."""
        yield from self._open()
        while self.more(self):
            yield from self._between_hands()
            yield from self._hand()

    def _open(self) -> Generator[Entry, Answer, None]:
        setup = self.pace.setup
        # Stacks grow over a long simulated evening: no cash-out waits for the floor here.
        body = {
            "name": self.name,
            "profile": self.profile,
            "collection": self.collection,
            "approval_above": 1_000_000,
        }
        table = yield from self.send(Entry("POST", "/tables", body, "setup", setup, "supervisor"))
        self.table_id = table["id"]
        # The dealer pushes in first: a dealer records only at the table they hold.
        yield from self._open_down(setup)
        for seat in range(1, self.seat_count + 1):
            yield from self._sit(seat, f"{NAMES[seat - 1]} {self.name}", setup)

    def _sit(self, seat: int, player: str, after: float) -> Generator[Entry, Answer, None]:
        body = {"seat": seat, "player": player, "buy_in": BUY_IN}
        path = f"/tables/{self.table_id}/seats"
        yield from self.send(Entry("POST", path, body, "setup", after))
        self.players[seat] = player
        self.tally.bought += BUY_IN

    def _open_down(self, after: float) -> Generator[Entry, Answer, None]:
        path = f"/tables/{self.table_id}/sessions"
        opened = yield from self.send(Entry("POST", path, {}, "session", after))
        self._down = opened["id"]

    def _between_hands(self) -> Generator[Entry, Answer, None]:
        path = f"/tables/{self.table_id}"
        balances = yield from self.send(Entry("GET", path + "/balances", None, "read", 1.0))
        for seat, shown in sorted(balances["seats"].items()):
            if shown["stack"] < REBUY_BELOW:
                body = {"kind": "buy_in", "amount": BUY_IN}
                yield from self.send(
                    Entry("POST", f"{path}/seats/{seat}/chips", body, "chips", 2.0)
                )
                self.tally.bought += BUY_IN
        minutes = self.collection.get("minutes")
        if minutes is not None and self.clock - self._last_collection >= minutes * 60:
            # The simulated clock runs ahead of the app's, which would find it not due yet
            # (409 not_due): the floor takes it, as a supervisor's override.
            yield from self.send(
                Entry("POST", path + "/collections", {}, "chips", 2.0, "supervisor")
            )
            self._last_collection = self.clock
        if self.tally.hands and self.rng.random() < self.mishaps.seat_change:
            yield from self._seat_change(balances)
        if self.tally.hands and self.tally.hands % 20 == 0:  # a new dealer's down
            close = f"/sessions/{self._down}/close"
            yield from self.send(Entry("POST", close, {}, "session", 5.0))
            yield from self._open_down(10.0)

    def _seat_change(self, balances: dict[str, Any]) -> Generator[Entry, Answer, None]:
        seat = self.rng.choice(sorted(self.players))
        if balances["seats"][str(seat)]["stack"] < REBUY_BELOW:
            return  # it was bought in above; it leaves another time
        path = f"/tables/{self.table_id}/seats/{seat}"
        left = yield from self.send(Entry("DELETE", path, None, "chips", 3.0))
        self.tally.cashed += left["stack"]
        self._newcomers += 1
        yield from self._sit(
            seat, f"{NAMES[(seat + self._newcomers) % len(NAMES)]} {self.name}", 20.0
        )

    def audit(self) -> Generator[Entry, Answer, None]:
        """Every chip is somewhere: the stacks, the house and the pot hold what was bought in
        and not cashed out (read after the last hand)."""
        path = f"/tables/{self.table_id}/balances"
        shown = yield from self.send(Entry("GET", path, None, "read", 0.0))
        held = sum(s["stack"] for s in shown["seats"].values()) + shown["house"] + shown["pot"]
        if held != self.tally.bought - self.tally.cashed:
            raise Refused(
                f"{self.name}: {held} chips on the table, but {self.tally.bought} were bought "
                f"in and {self.tally.cashed} cashed out"
            )

    # ---------------------------------------------------------------- hand

    def _hand(self) -> Generator[Entry, Answer, None]:
        hand = _Hand(self)
        yield from hand.play()
        self.tally.hands += 1


class _Hand:
    """One hand at the table: the shoe, the hidden hands, the engine mirror and the entries."""

    def __init__(self, dealer: TableDealer) -> None:
        self.dealer, self.rng = dealer, dealer.rng
        self.hand_id = 0
        self.engine: rules.Hand | None = None
        self.seats: dict[int, Seat] = {}
        self.stock: Stock | None = None
        self.event_ids: dict[int, int] = {}

    @property
    def mirror(self) -> rules.Hand:
        assert self.engine is not None
        return self.engine

    def play(self) -> Generator[Entry, Answer, None]:
        dealer = self.dealer
        table_rules = rules.make_rules(dealer.profile)
        shoe = new_shoe(table_rules, self.rng)
        for seat in sorted(dealer.players):
            self.seats[seat] = Seat(seat, [shoe.pop() for _ in range(table_rules.hand_size)])
        self.stock = Stock(shoe, self.rng)
        dropping = drops(list(self.seats.values()), self.rng)
        in_the_deal = [s for s in dropping if self.rng.random() < 0.7]
        path = f"/tables/{dealer.table_id}/hands"
        body = {"dropped": in_the_deal} if in_the_deal else {}
        # The first hand is dealt at once: a table joins the floor already playing.
        after = self.rng.uniform(*dealer.pace.deal if dealer.tally.hands else dealer.pace.entry)
        shown = yield from dealer.send(Entry("POST", path, body, "deal", after))
        self._mirror_deal(shown, in_the_deal)
        if self.rng.random() < dealer.mishaps.misdeal:
            yield from self._void_hand("misdeal: a card was exposed in the deal")
            return
        for seat in dropping:
            if seat not in in_the_deal:
                yield from self._event(Drop(seat))
        yield from self._turns()

    def _mirror_deal(self, shown: dict[str, Any], dropped: Sequence[int]) -> None:
        knobs = {k: v for k, v in shown["rules"].items() if k != "profile"}
        self.engine = rules.Hand(
            rules.make_rules(shown["rules"]["profile"], knobs),
            [int(s) for s in shown["seats"]],
            rules.make_collection(shown["collection"]),
        )
        for seat in dropped:
            self.engine.apply(Drop(seat))
        self.hand_id = shown["id"]
        for event in shown["events"]:
            self.event_ids[event["seq"]] = event["id"]
        self._check_net(shown)

    def _check_net(self, shown: dict[str, Any]) -> None:
        mine = {rules.party_name(p): chips for p, chips in self.mirror.net.items()}
        if shown["net"] != mine or sum(shown["net"].values()) != 0:
            raise Refused(f"hand {self.hand_id}: the app's net {shown['net']} is not {mine}")

    def _event(
        self, action: Action, *, body: dict[str, Any] | None = None, floor: bool = False
    ) -> Generator[Entry, Answer, int]:
        """Enter one event; check the app's payments against the engine's; return its id."""
        body = dict(body or rules.action_to_dict(action))
        if floor:
            body["supervisor"] = self.dealer.supervisor
        path = f"/hands/{self.hand_id}/events"
        answer = yield from self.dealer.send(Entry("POST", path, body, "event", self.dealer.gap()))
        record = self.mirror.apply(action)
        theirs = [(p["from"], p["to"], p["chips"]) for p in answer["payments"]]
        mine = [
            (rules.party_name(p.payer), rules.party_name(p.payee), p.chips) for p in record.payments
        ]
        if theirs != mine:
            raise Refused(f"hand {self.hand_id}: {body} paid {theirs}, the engine says {mine}")
        self._check_net(answer["hand"])
        self.dealer.tally.events[action.type] += 1
        self.event_ids[record.seq] = answer["event"]["id"]
        return record.seq

    def _void(self, seq: int, reason: str, floor: bool = False) -> Generator[Entry, Answer, None]:
        body = {"type": "void", "event": self.event_ids[seq], "reason": reason}
        yield from self._event(Void(seq, reason), body=body, floor=floor)

    def _void_hand(self, reason: str) -> Generator[Entry, Answer, None]:
        yield from self._event(rules.VoidHand(reason), floor=True)

    # -------------------------------------------------------------- turns

    def _turns(self) -> Generator[Entry, Answer, None]:
        engine, stock = self.mirror, self.stock
        assert stock is not None
        order = sorted(self.seats)
        foul_at = self.rng.randrange(4, 60) if self.rng.random() < self.dealer.mishaps.foul else -1
        last_discarder: int | None = None
        for turn in range(MAX_TURNS):
            if engine.status != "playing":
                return
            seat = order[turn % len(order)]
            if engine.seat_status[seat] != "in":
                continue
            if turn == foul_at and engine.can(Foul(seat)):
                yield from self._event(Foul(seat))
                continue
            took_discard, card, play = False, None, None
            top = stock.top
            if top is not None:
                play = best_play(engine, seat, top, self.seats[seat].hand, self.rng)
                if play is not None and self.rng.random() < 0.8:
                    took_discard, card = True, stock.take_top()
                else:
                    play = None
            if card is None:
                card = stock.draw()
                if card is None:
                    yield from self._void_hand("the stock ran out")
                    return
                play = best_play(engine, seat, card, self.seats[seat].hand, self.rng)
            yield from self._lay(seat, card, play)
            if engine.cards_down[seat] == engine.limit:
                yield from self._going_out(seat, last_discarder if took_discard else None)
                return
            hand = self.seats[seat].hand
            if play is None:
                stock.discards.append(card)
            else:
                discard = discard_choice(hand, self.rng)
                hand.remove(discard)
                stock.discards.append(discard)
            last_discarder = seat
        yield from self._void_hand("no one could go out")

    def _lay(self, seat: int, card: Card, play: Action | None) -> Generator[Entry, Answer, None]:
        """Play the drawn card (if it plays), then any melds and adds from the hand."""
        hidden = self.seats[seat]
        if play is not None:
            yield from self._enter_play(play)
            used = list(play.cards)
            used.remove(card)
            hidden.remove(used)
        engine = self.mirror
        while self.rng.random() < 0.9:
            found = next((m for m in melds_in_hand(hidden.hand) if engine.can(Meld(seat, m))), None)
            if found is None:
                break
            yield from self._enter_play(Meld(seat, found))
            hidden.remove(found)

    def _enter_play(self, play: Action) -> Generator[Entry, Answer, None]:
        """Enter a play; now and then first for the wrong seat, voided at once."""
        if isinstance(play, Meld) and self.rng.random() < self.dealer.mishaps.mis_entry:
            engine = self.mirror
            wrong = [
                s
                for s in engine.seats
                if s != play.seat
                and engine.seat_status[s] == "in"
                and engine.can(Meld(s, play.cards))
            ]
            if wrong:
                seq = yield from self._event(Meld(self.rng.choice(wrong), play.cards))
                yield from self._void(seq, "mis-entry: the meld was entered for the wrong seat")
        yield from self._event(play)

    def _going_out(self, seat: int, on_discard_of: int | None) -> Generator[Entry, Answer, None]:
        seq = yield from self._event(GoOut(seat))
        mishaps = self.dealer.mishaps
        if self.rng.random() < mishaps.void_going_out:
            yield from self._void(seq, "the floor checks the going out again", floor=True)
            yield from self._event(GoOut(seat))
        if (
            on_discard_of is not None
            and self.rng.random() < mishaps.penalty
            and self.mirror.can(Penalty(on_discard_of))
        ):
            yield from self._event(Penalty(on_discard_of))
