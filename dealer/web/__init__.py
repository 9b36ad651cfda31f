"""What the front doors share, beneath them all: who is signed in and who may act at which
table (`authority`), sending a write once, how a refusal is answered, and what the JSON doors
promise (`contract`: their inputs validated and documented from one declaration).

The JSON API (`dealer.api`), the dealer's screens (`dealer.screens`) and the printed
reports (`dealer.reports`) are peers: each imports this package and the services below
it (`dealer.ledger`, `dealer.people.users`, `dealer.inputs`), never one another.
"""
