"""A fifth, test-only rule system (issue 12): two sides, one "attack" command, a d6 (a hit on
4+), first to 3 hits wins. It proves the board core is generic: it is registered only in the
test settings (`warfare.settings.test`), and no line of the core names it.

Its words are plain English, not translated: it is never shown to a user.
"""
