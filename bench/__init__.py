"""Benchmarks and the simulated room: run as modules (python -m bench.NAME), never as tests."""
