"""What a person or a client reads: frozen views of a hand, a table, a seat's statement, a
payment, a dispute, built in one place from the ledger, with the words (`dealer.words`) and
the floor's one clock already in them.

The API dumps them (they are pydantic models, so the OpenAPI document describes exactly
what is dumped), the screens and the documents render them; no front door queries the
database for its own picture. A field a person reads but a program does not need (a seat's
stack beside the hand, a payment group's sentence) is marked ``exclude``: it is on the
view, not in the API's answer or its document.
"""
