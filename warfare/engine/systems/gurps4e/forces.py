"""Elements, forces, command staff, and the TS calculator (§A.2, §A.5.2, §A.5.3).

TS values are exact `Fraction`s (quality ×1.5, support ×1/10 …) so the table boundaries
(1.5:1, 1 %) compare exactly; `num` turns one into a JSON number. Every calculation returns a
*working*: plain JSON terms with codes and numbers that a page can show step by step.
"""

import functools
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from warfare.engine.problems import Problem
from warfare.engine.systems.gurps4e.house_rules import house_value
from warfare.engine.systems.gurps4e.tables import (
    CLASSES,
    LAND_CLASSES,
    ONE_PERCENT,
    RELATIVE_TS,
    SUPERIORITY,
    SUPERIORITY_ONLY_SIDE,
)

TROOP_QUALITIES = ("inferior", "average", "good", "elite")
EQUIPMENT_QUALITIES = ("poor", "average", "good", "fine")
POSTURES = ("marching", "patrol", "entrenched", "lax")


def num(value: Fraction | int) -> int | float:
    """A JSON number: an int when whole, else a float rounded to 4 places."""
    value = Fraction(value)
    return int(value) if value.denominator == 1 else round(float(value), 4)


def _fraction(value: Any) -> Fraction:
    return parsed_fraction(str(value)) if not isinstance(value, Fraction) else value


@functools.lru_cache(maxsize=1024)
def parsed_fraction(text: str) -> Fraction:
    """`Fraction(text)`, parsed once per text (a battle's snapshot, read on every action,
    holds a few dozen; a `Fraction` never changes, so one may serve them all)."""
    return Fraction(text)


@dataclass(frozen=True)
class ElementType:
    """An element line (§A.2.1): TS (support TS if printed in parentheses), its classes, the
    classes it neutralizes, mobility, features (fanatic, impetuous, terrain specialities…),
    raise and monthly cost per element, its listed TL and whether its TS doubles for each TL
    above that (`*` in the element tables)."""

    key: str
    name: str = ""
    ts: Fraction = Fraction(1)
    support: bool = False
    classes: tuple[str, ...] = ()
    neutralizes: tuple[str, ...] = ()
    mobility: str = "foot"
    features: tuple[str, ...] = ()
    raise_cost: int = 0
    monthly_cost: int = 0
    tl: int | None = None
    doubles_per_tl: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "name": self.name,
            "ts": str(self.ts),
            "support": self.support,
            "classes": list(self.classes),
            "neutralizes": list(self.neutralizes),
            "mobility": self.mobility,
            "features": list(self.features),
            "raise_cost": self.raise_cost,
            "monthly_cost": self.monthly_cost,
            "tl": self.tl,
            "doubles_per_tl": self.doubles_per_tl,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "ElementType":
        return cls(
            key=str(data["key"]),
            name=str(data.get("name", "")),
            ts=_fraction(data.get("ts", 1)),
            support=bool(data.get("support", False)),
            classes=tuple(data.get("classes") or ()),
            neutralizes=tuple(data.get("neutralizes") or ()),
            mobility=str(data.get("mobility", "foot")),
            features=tuple(data.get("features") or ()),
            raise_cost=int(data.get("raise_cost", 0)),
            monthly_cost=int(data.get("monthly_cost", 0)),
            tl=int(data["tl"]) if data.get("tl") is not None else None,
            doubles_per_tl=bool(data.get("doubles_per_tl", False)),
        )

    @property
    def fanatic_or_impetuous(self) -> bool:
        return "fanatic" in self.features or "impetuous" in self.features


@dataclass(frozen=True)
class ElementRow:
    """A row of a force: `count` elements of one type, their qualities and the GM's per-battle
    circumstance multiplier (×2 / ×½, §A.2.4); `logistics` marks logistics troops; `tl` the
    TL it is fielded at (None: the type's)."""

    type: ElementType
    count: int = 1
    troop_quality: str = "average"
    equipment_quality: str = "average"
    circumstance: Fraction = Fraction(1)
    logistics: bool = False
    tl: int | None = None

    @property
    def base_ts(self) -> Fraction:
        """§A.2.1: the type's TS, doubled for each TL above its listed one when marked `*`
        (Light Artillery (1) at TL2: (2) at TL3, (4) at TL4, (8) at TL5)."""
        listed, fielded = self.type.tl, self.tl
        if self.type.doubles_per_tl and listed is not None and fielded is not None:
            return self.type.ts * 2 ** max(0, fielded - listed)
        return self.type.ts

    @property
    def key(self) -> str:
        return self.type.key

    def to_dict(self) -> dict[str, Any]:
        return {
            "type": self.type.to_dict(),
            "count": self.count,
            "troop_quality": self.troop_quality,
            "equipment_quality": self.equipment_quality,
            "circumstance": str(self.circumstance),
            "logistics": self.logistics,
            "tl": self.tl,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "ElementRow":
        return cls(
            type=ElementType.from_dict(data["type"]),
            count=int(data.get("count", 1)),
            troop_quality=str(data.get("troop_quality", "average")),
            equipment_quality=str(data.get("equipment_quality", "average")),
            circumstance=_fraction(data.get("circumstance", 1)),
            logistics=bool(data.get("logistics", False)),
            tl=int(data["tl"]) if data.get("tl") is not None else None,
        )


@dataclass(frozen=True)
class Officer:
    """A commander or a successor in the chain of command (§A.2.5)."""

    name: str = ""
    strategy: int = 10
    tactics: int = 10
    leadership: int = 10
    pc: str | None = None
    """The PC key when a PC holds this post."""

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "strategy": self.strategy, "tactics": self.tactics,
                "leadership": self.leadership, "pc": self.pc}  # fmt: skip

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Officer":
        return cls(str(data.get("name", "")), int(data.get("strategy", 10)),
                   int(data.get("tactics", 10)), int(data.get("leadership", 10)),
                   data.get("pc"))  # fmt: skip


@dataclass(frozen=True)
class CommandStaff:
    """§A.2.5: the commander, the intelligence chief's Intelligence Analysis, the logistics
    chief's Administration, and the chain of command (successors, in order)."""

    commander: Officer = field(default_factory=Officer)
    intelligence_analysis: int = 10
    administration: int = 10
    chain: tuple[Officer, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "commander": self.commander.to_dict(),
            "intelligence_analysis": self.intelligence_analysis,
            "administration": self.administration,
            "chain": [officer.to_dict() for officer in self.chain],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "CommandStaff":
        return cls(
            commander=Officer.from_dict(data.get("commander") or {}),
            intelligence_analysis=int(data.get("intelligence_analysis", 10)),
            administration=int(data.get("administration", 10)),
            chain=tuple(Officer.from_dict(o) for o in data.get("chain") or ()),
        )


@dataclass(frozen=True)
class Force:
    """§A.2, §A.3.2: element rows, command staff, mobile or in camp, posture, speed, relations
    with the locals."""

    name: str
    rows: tuple[ElementRow, ...]
    staff: CommandStaff = field(default_factory=CommandStaff)
    mobile: bool = True
    posture: str = "marching"
    speed: Fraction = Fraction(0)
    relations: str = "neutral"

    @property
    def elements(self) -> int:
        """The number of elements (Σ count), for round length and Strategy vs Tactics."""
        return sum([row.count for row in self.rows])

    @property
    def raise_cost(self) -> int:
        return sum(row.count * row.type.raise_cost for row in self.rows)

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "rows": [row.to_dict() for row in self.rows],
            "staff": self.staff.to_dict(),
            "mobile": self.mobile,
            "posture": self.posture,
            "speed": str(self.speed),
            "relations": self.relations,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Force":
        return cls(
            name=str(data.get("name", "")),
            rows=tuple(ElementRow.from_dict(row) for row in data.get("rows") or ()),
            staff=CommandStaff.from_dict(data.get("staff") or {}),
            mobile=bool(data.get("mobile", True)),
            posture=str(data.get("posture", "marching")),
            speed=_fraction(data.get("speed", 0)),
            relations=str(data.get("relations", "neutral")),
        )


def force_problems(data: Any, where: str) -> list[Problem]:
    """Problems with a force given as plain JSON (`where` names it in the problems)."""
    if not isinstance(data, Mapping):
        return [Problem("gurps4e.setup.bad_force", {"force": where})]
    try:
        force = Force.from_dict(data)
    except (KeyError, TypeError, ValueError, ZeroDivisionError) as error:
        return [Problem("gurps4e.setup.bad_force", {"force": where, "error": type(error).__name__})]
    problems: list[Problem] = []
    if not force.rows or force.elements <= 0:
        problems.append(Problem("gurps4e.setup.force_without_elements", {"force": where}))
    keys = [row.key for row in force.rows]
    if len(set(keys)) != len(keys):
        problems.append(Problem("gurps4e.setup.duplicate_element", {"force": where}))
    for row in force.rows:
        params = {"force": where, "element": row.key}
        if row.count < 0 or row.type.ts < 0 or row.circumstance <= 0:
            problems.append(Problem("gurps4e.setup.bad_element", params))
        if row.troop_quality not in TROOP_QUALITIES:
            problems.append(Problem("gurps4e.setup.bad_troop_quality", params))
        if row.equipment_quality not in EQUIPMENT_QUALITIES:
            problems.append(Problem("gurps4e.setup.bad_equipment_quality", params))
        for cls in (*row.type.classes, *row.type.neutralizes):
            if cls not in CLASSES:
                problems.append(Problem("gurps4e.setup.unknown_class", {**params, "cls": cls}))
    if force.posture not in POSTURES:
        problems.append(Problem("gurps4e.setup.bad_posture", {"force": where}))
    if force.relations not in ("good", "neutral", "hostile"):
        problems.append(Problem("gurps4e.setup.bad_relations", {"force": where}))
    return problems


# --- TS ------------------------------------------------------------------------------------------


def row_ts(row: ElementRow, overrides: Mapping[str, Any] | None = None) -> Fraction:
    """§A.2.4: count × base TS (§A.2.1, TL doubling) × troop quality × equipment quality ×
    circumstance."""
    troop = Fraction(house_value(f"troop_quality.{row.troop_quality}", overrides))
    equipment = Fraction(house_value(f"equipment_quality.{row.equipment_quality}", overrides))
    return row.count * row.base_ts * troop * equipment * row.circumstance


def support_share(row: ElementRow, overrides: Mapping[str, Any] | None = None) -> Fraction:
    """§A.2.4 [errata p. 26]: the share of a row's TS in the force total: 1, or 10 % for
    support TS, or 0 for a support element whose only class is C3I."""
    if not row.type.support:
        return Fraction(1)
    if row.type.classes == ("C3I",):
        return Fraction(house_value("support_c3i_only_in_total", overrides))
    return Fraction(house_value("support_ts_in_total", overrides))


def ts_working(force: Force, overrides: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """§A.2.4: the force's TS with one term per element row."""
    terms = []
    total = Fraction(0)
    for row in force.rows:
        full = row_ts(row, overrides)
        share = support_share(row, overrides)
        total += full * share
        terms.append({
            "code": "ts.row",
            "element": row.key,
            "count": row.count,
            "base_ts": num(row.base_ts),
            "troop_quality": num(Fraction(house_value(f"troop_quality.{row.troop_quality}",
                                                      overrides))),
            "equipment_quality": num(Fraction(house_value(
                f"equipment_quality.{row.equipment_quality}", overrides))),
            "circumstance": num(row.circumstance),
            "support": row.type.support,
            "share": num(share),
            "ts": num(full * share),
        })  # fmt: skip
    return {"code": "ts.force", "value": num(total), "terms": terms}


def force_ts(force: Force, overrides: Mapping[str, Any] | None = None) -> Fraction:
    """§A.2.4: Σ row TS × its share (support TS at 10 %, C3I-only support at 0)."""
    return sum((row_ts(r, overrides) * support_share(r, overrides) for r in force.rows),
               Fraction(0))  # fmt: skip


def class_ts(force: Force, cls: str, overrides: Mapping[str, Any] | None = None) -> Fraction:
    """§A.2.4 [errata p. 21]: TS of the rows having class `cls`, support TS at full value."""
    return sum((row_ts(r, overrides) for r in force.rows if cls in r.type.classes), Fraction(0))


def neutralizer_ts(force: Force, cls: str, overrides: Mapping[str, Any] | None = None) -> Fraction:
    """§A.5.3 item 6: TS of the rows that neutralize class `cls`."""
    return sum((row_ts(r, overrides) for r in force.rows if cls in r.type.neutralizes),
               Fraction(0))  # fmt: skip


# --- relative TS and superiority -----------------------------------------------------------------


def relative_ts_bonus(larger: Fraction, smaller: Fraction, overrides: Mapping | None = None) -> int:
    """§A.5.2: the bonus of the larger force by the ratio larger : smaller (the smaller gets no
    penalty); 0 below 1.5:1; above 50:1 it stays at the 50:1 value [inferred]."""
    if larger <= 0:
        return 0
    if smaller <= 0:
        return int(house_value("relative_ts.above_50", overrides))
    ratio = Fraction(larger) / Fraction(smaller)
    if ratio > RELATIVE_TS[0][0]:
        return int(house_value("relative_ts.above_50", overrides))
    for at_least, bonus in RELATIVE_TS:
        if ratio >= at_least:
            return bonus
    return 0


def superiority_step(ratio: Fraction) -> int:
    """§A.5.3 item 2: +1 at 2:1, +2 at 3:1, +3 at 5:1, else 0."""
    for at_least, bonus in SUPERIORITY:
        if ratio >= at_least:
            return bonus
    return 0


@dataclass(frozen=True)
class Superiority:
    """One class's superiority between two forces: who gets `bonus` and why (`code`)."""

    cls: str
    holder: int | None
    """The side with more class TS, 0 (first force) or 1 (second); None when equal. The bonus,
    if any, is its."""
    bonus: int
    code: str
    first_ts: Fraction
    second_ts: Fraction
    neutralizer_ts: Fraction = Fraction(0)
    ratio: Fraction | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "code": f"superiority.{self.code}",
            "cls": self.cls,
            "holder": self.holder,
            "bonus": self.bonus,
            "first_ts": num(self.first_ts),
            "second_ts": num(self.second_ts),
            "neutralizer_ts": num(self.neutralizer_ts),
            "ratio": num(self.ratio) if self.ratio is not None else None,
        }


def class_superiority(
    cls: str,
    first: Force,
    second: Force,
    *,
    encounter: bool = False,
    neutralize: tuple[bool, bool] = (True, True),
    overrides: Mapping[str, Any] | None = None,
) -> Superiority:
    """§A.5.3: the superiority bonus in class `cls` between two forces.

    The side with more class TS may get a bonus: +3 if the other side has none (nor any
    neutralizer), else by the ratio (2:1 +1, 3:1 +2, 5:1 +3); the weaker side's neutralizers
    (if `neutralize` allows, a GM decision) add to its class TS for the ratio, which can deny
    but never give a bonus; a class TS under 1 % of the enemy's total TS gives nothing;
    in an encounter battle Air, Art and C3I bonuses drop by 1 [impl]."""
    a, b = class_ts(first, cls, overrides), class_ts(second, cls, overrides)
    if a == b:
        return Superiority(cls, None, 0, "none" if a == 0 else "equal", a, b)
    holder = 0 if a > b else 1
    strong, weak = (a, b) if holder == 0 else (b, a)
    weak_force = second if holder == 0 else first
    neutral = neutralizer_ts(weak_force, cls, overrides) if neutralize[1 - holder] else Fraction(0)
    effective = weak + neutral
    if strong < force_ts(weak_force, overrides) * ONE_PERCENT:
        return Superiority(cls, holder, 0, "one_percent", a, b, neutral)
    if effective == 0:
        bonus, code, ratio = SUPERIORITY_ONLY_SIDE, "only_side", None
    elif strong <= effective:
        return Superiority(cls, holder, 0, "neutralized", a, b, neutral, strong / effective)
    else:
        ratio = strong / effective
        bonus, code = superiority_step(ratio), "ratio"
    if encounter and cls in house_value("superiority.encounter_reduced", overrides) and bonus:
        bonus, code = bonus - 1, f"{code}_encounter"
    return Superiority(cls, holder, bonus, code, a, b, neutral, ratio)


def element_kind(element: ElementType, overrides: Mapping[str, Any] | None = None) -> str:
    """ "air", "naval" or "land": air if its mobility is an air one (or it has the Air class),
    naval if its mobility is a naval one (or it has the Nav class), else land [inferred]."""
    if element.mobility in house_value("mobility.air", overrides) or "Air" in element.classes:
        return "air"
    if element.mobility in house_value("mobility.naval", overrides) or "Nav" in element.classes:
        return "naval"
    return "land"


def takes_part(
    element: ElementType, battle_type: str, overrides: Mapping[str, Any] | None = None
) -> bool:
    """§A.3.1 who takes part: land battle -> land and air elements; naval -> naval elements,
    elements that neutralize Nav, air elements; air -> air elements and elements that
    neutralize Air; amphibious -> any."""
    kind = element_kind(element, overrides)
    if battle_type == "land":
        return kind in ("land", "air")
    if battle_type == "naval":
        return kind in ("naval", "air") or "Nav" in element.neutralizes
    if battle_type == "air":
        return kind == "air" or "Air" in element.neutralizes
    return True


def applicable_classes(
    battle_type: str, extra: Iterable[str] = (), overrides: Mapping[str, Any] | None = None
) -> tuple[str, ...]:
    """§A.2.2: the superiority classes of a battle: land ones always (Eng, Nav, Rec if the GM
    adds them); naval, air and amphibious defaults [inferred]."""
    base = LAND_CLASSES if battle_type == "land" else house_value(f"classes.{battle_type}",
                                                                 overrides)  # fmt: skip
    return tuple(dict.fromkeys((*base, *extra)))


def calculator(
    first: Force,
    second: Force,
    *,
    classes: Iterable[str] = LAND_CLASSES,
    encounter: bool = False,
    neutralize: tuple[bool, bool] = (True, True),
    overrides: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The TS calculator (§A.2.4, §A.5.2, §A.5.3): both forces' TS and class TS, the relative
    TS bonus and every class superiority, as a working a page can show step by step.
    `first` is the force looked at, `second` the chosen enemy."""
    ts = (force_ts(first, overrides), force_ts(second, overrides))
    larger = 0 if ts[0] >= ts[1] else 1
    rel = relative_ts_bonus(ts[larger], ts[1 - larger], overrides)
    ratio = ts[larger] / ts[1 - larger] if ts[1 - larger] else None
    sups = [class_superiority(c, first, second, encounter=encounter, neutralize=neutralize,
                              overrides=overrides) for c in classes]  # fmt: skip
    totals = [rel * (larger == i) + sum(s.bonus for s in sups if s.holder == i) for i in (0, 1)]
    return {
        "forces": [ts_working(first, overrides), ts_working(second, overrides)],
        "class_ts": [
            {c: num(v) for c in CLASSES if (v := class_ts(force, c, overrides))}
            for force in (first, second)
        ],
        "relative_ts": {
            "code": "relative_ts",
            "holder": larger if rel else None,
            "ratio": num(ratio) if ratio is not None else None,
            "bonus": rel,
        },
        "superiority": [s.to_dict() for s in sups],
        "bsm_before_casualties": totals,
    }
