"""Hands: dealt, recorded event by event, read back by replay, and moved to another seat."""
