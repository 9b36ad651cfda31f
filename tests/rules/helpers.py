"""Small builders for engine tests: hands in a line, payments as plain tuples."""

from dealer.rules import Hand, action_from_dict, make_collection, make_rules


def new_hand(profile="classic", seats=(1, 2, 3, 4), collection=None, **knobs):
    return Hand(make_rules(profile, knobs), seats, make_collection(collection))


def act(hand, type_, **body):
    """Apply one action given as the API's JSON body; return the event."""
    return hand.apply(action_from_dict({"type": type_, **body}))


def paid(event):
    """An event's payments as sorted (from, to, chips, rule) tuples."""
    return sorted((str(p.payer), str(p.payee), p.chips, p.rule) for p in event.payments)


def each(payers, payee, chips, rule="condition"):
    return [(str(s), str(payee), chips, rule) for s in payers]
