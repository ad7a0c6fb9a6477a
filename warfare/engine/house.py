"""House defaults: numbers the references mark [inferred], [impl], [discrepancy], [gap],
[unverified], [web] or [rp30-ru] (a partly read source).

Each rule system keeps such numbers in ONE table (a tuple of `HouseDefault`), so a GM with the
book can correct a value in one place, and the app can show next to a value that it is a house
default rather than a printed rule.
"""

from dataclasses import dataclass
from enum import StrEnum
from typing import Any


class Tag(StrEnum):
    INFERRED = "inferred"
    IMPL = "impl"
    DISCREPANCY = "discrepancy"
    GAP = "gap"
    UNVERIFIED = "unverified"
    WEB = "web"
    RP30_RU = "rp30-ru"
    ERRATA = "errata"
    SEED_READING = "seed?"


@dataclass(frozen=True, slots=True)
class HouseDefault:
    key: str
    value: Any
    """A number (most systems), or a fraction as text ("1/10") or a tuple (GURPS 4e)."""
    tag: Tag
    source: str
    """Where the reference discusses it, e.g. 'pf2e §10.3'."""
    note: str
    configurable: bool = True
    """False: a reading documented here (and shown to the GM) but fixed in the code named in
    `note`; a battle's setup may not override it."""

    def to_dict(self) -> dict[str, Any]:
        value = list(self.value) if isinstance(self.value, tuple) else self.value
        return {"key": self.key, "value": value, "tag": str(self.tag), "source": self.source,
                "note": self.note, "configurable": self.configurable}  # fmt: skip


def table_lookup(table: tuple[HouseDefault, ...], key: str) -> HouseDefault:
    for entry in table:
        if entry.key == key:
            return entry
    raise KeyError(key)
