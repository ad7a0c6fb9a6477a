"""House defaults: numbers the references mark [inferred], [impl], [discrepancy], [gap],
[unverified], [web] or [rp30-ru] (a partly read source).

Each rule system keeps such numbers in ONE table (a tuple of `HouseDefault`), so a GM with the
book can correct a value in one place, and the app can show next to a value that it is a house
default rather than a printed rule.
"""

from dataclasses import dataclass
from enum import StrEnum


class Tag(StrEnum):
    INFERRED = "inferred"
    IMPL = "impl"
    DISCREPANCY = "discrepancy"
    GAP = "gap"
    UNVERIFIED = "unverified"
    WEB = "web"
    RP30_RU = "rp30-ru"


@dataclass(frozen=True, slots=True)
class HouseDefault:
    key: str
    value: int
    tag: Tag
    source: str
    """Where the reference discusses it, e.g. 'pf2e §10.3'."""
    note: str


def table_lookup(table: tuple[HouseDefault, ...], key: str) -> HouseDefault:
    for entry in table:
        if entry.key == key:
            return entry
    raise KeyError(key)
