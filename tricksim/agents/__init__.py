"""Agents: numba policies for the batch loop (random now; heuristic and Monte Carlo to come)."""

AGENTS = ("random",)
