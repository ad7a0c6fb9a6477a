"""Pathfinder 2e Kingmaker warfare (rules reference: shared/rules/pf2e-kingmaker-warfare.md)."""
