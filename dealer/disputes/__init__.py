"""Disputes and players: disputes on the record and their rulings, players known across
sessions, a seat's statement, a payment in dispute, finding a payment."""
