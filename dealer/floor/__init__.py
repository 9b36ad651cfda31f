"""The floor: tables and seats, dealers' sessions, money limits, the time collection,
assignments, and the figures the floor reads."""
