"""The simulated room: players who play Pan (players.py), a dealer who enters what they do
(table.py), and the ways the entries reach the app (transport.py)."""
