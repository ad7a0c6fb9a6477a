"""Pathfinder 2e (Kingmaker warfare): armies of a kingdom, their activities and battles."""
