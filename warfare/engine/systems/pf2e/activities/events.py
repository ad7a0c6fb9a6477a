"""Events: what an activity or a kingdom turn changed, as codes with params (never prose).

A log page renders each event from its code (translated on the Django side) and its params.
"""

from warfare.engine.events import Event

__all__ = ["Event"]
