"""The rules engines: pure Python, no Django (an import-linter contract keeps it so).

Everything here is data and functions over plain values, so a rule can be tested without a
database and a battle can be replayed from its setup, seed and commands.
"""
