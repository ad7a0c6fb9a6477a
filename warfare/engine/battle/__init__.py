"""Battles (war encounters) shared by every rule system.

`protocol` defines what a rule system's battle engine offers (start, legal_actions, apply,
outcome) and the generic `replay`/`undo`; `registry` maps a system key to its engine. This
package imports no rule system itself (the registry does, lazily importable on its own), so a
system's battle package can import the protocol without an import cycle.
"""
