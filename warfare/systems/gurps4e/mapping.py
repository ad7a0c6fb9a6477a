"""Between the force rows in the database and the pure GURPS Mass Combat engine.

The engine (warfare.engine.systems.gurps4e.forces) does every calculation and returns its
working as codes and numbers; this module builds its input from the models and turns its
working into the lines a page shows, in the page's language.
"""

import functools
from dataclasses import dataclass
from fractions import Fraction
from math import floor

from django.utils.translation import gettext as _

from warfare.engine.systems.gurps4e import forces as engine
from warfare.engine.systems.gurps4e.house_rules import house_rule

from .models import ElementClass, EquipmentQuality, Force, ForceElement, TroopQuality

CLASS_LABELS = dict(ElementClass.choices)


def display(value: Fraction | int | float) -> str:
    """A TS or a ratio for people: whole numbers bare, others to two decimals ROUNDED DOWN
    (2.5, 0.33, 1.497 -> 1.49; toward zero below 0), the one rounding of every TS shown: a
    number shown never reaches a threshold (1.5 : 1) that the exact one does not."""
    value = Fraction(value).limit_denominator(10_000)
    if value.denominator == 1:
        return str(value.numerator)
    sign, hundredths = "−" if value < 0 else "", floor(abs(value) * 100)
    return f"{sign}{hundredths // 100}.{hundredths % 100:02d}".rstrip("0").rstrip(".")


def ts_text(value: Fraction | int | float | str) -> str:
    """`display` of a TS read from its text (`str(value)`: a Fraction, a stored text or a
    number), shown once per text (a board shows each side's TS on every render)."""
    return _ts_text(str(value))


@functools.lru_cache(maxsize=1024)
def _ts_text(text: str) -> str:
    return display(Fraction(text))


def row_tl(row: ForceElement) -> int:
    return row.tl if row.tl is not None else row.element_type.tl


def engine_row(row: ForceElement) -> engine.ElementRow:
    """One element row as the engine sees it (key = the row's id, unique in its force)."""
    element = row.element_type
    return engine.ElementRow(
        type=engine.ElementType(
            key=str(row.pk),
            name=element.name,
            ts=Fraction(element.base_ts),
            doubles_per_tl=element.ts_doubles_per_tl,
            support=element.is_support,
            classes=tuple(element.classes),
            neutralizes=tuple(element.neutralizes),
            mobility=element.mobility or "foot",
            raise_cost=element.raise_cost,
            monthly_cost=element.monthly_cost,
            tl=element.tl,
        ),
        tl=row_tl(row),
        count=row.count,
        troop_quality=row.troop_quality,
        equipment_quality=row.equipment_quality,
    )


def engine_force(force: Force) -> engine.Force:
    """The force at full strength (its rows must be prefetched: `force.elements.all()`)."""
    return engine.Force(
        name=force.name,
        rows=tuple(engine_row(row) for row in force.elements.all()),
        mobile=force.mobile,
        posture=force.posture,
    )


@dataclass(frozen=True)
class TroopStrength:
    full: Fraction
    total: Fraction
    """After the losses of earlier battles (§A.7.3): full × strength share."""


def troop_strength(force: Force) -> TroopStrength:
    full = engine.force_ts(engine_force(force))
    return TroopStrength(full, full * Fraction(force.strength_percent, 100))


def _house_note(key: str) -> str:
    rule = house_rule(key)
    return f"[{rule.tag}] {rule.source}: {rule.note}"


def force_sheet(force: Force) -> dict:
    """The rows with their TS, the working of the total, and the class TS (§A.2.4)."""
    model = engine_force(force)
    working = engine.ts_working(model)
    rows = list(force.elements.all())
    lines, steps = [], []
    troop_labels, equipment_labels = dict(TroopQuality.choices), dict(EquipmentQuality.choices)
    for row, term in zip(rows, working["terms"], strict=True):
        each = Fraction(term["ts"]) / row.count if row.count else Fraction(0)
        quality = (
            f"× {display(term['troop_quality'])} ({troop_labels[row.troop_quality]}) "
            f"× {display(term['equipment_quality'])} ({equipment_labels[row.equipment_quality]})"
        )
        share = ""
        if term["support"]:
            share = " × " + (_("%(share)s support share") % {"share": display(term["share"])})
        text = (
            f"{row.element_type.name}: {row.count} × {display(term['base_ts'])} {quality}{share} ="
        )
        steps.append(
            {
                "text": text,
                "value": display(term["ts"]),
                "house": (
                    _house_note(f"troop_quality.{row.troop_quality}")
                    if row.troop_quality != "average" or row.equipment_quality != "average"
                    else ""
                ),
            }
        )
        lines.append(
            {
                "row": row,
                "tl": row_tl(row),
                "each": display(each),
                "each_working": text,
                "counted": display(term["ts"]),
                "counted_working": text,
            }
        )
    full = Fraction(working["value"]).limit_denominator(10_000)
    steps.append({"text": _("Troop Strength at full strength ="), "value": display(full)})
    strength = troop_strength(force)
    if force.strength_percent < 100:
        steps.append(
            {
                "text": _("× %(pct)s%% left after earlier battles (§A.7.3) =")
                % {"pct": force.strength_percent},
                "value": display(strength.total),
            }
        )
    classes = [
        {
            "code": code,
            "label": CLASS_LABELS.get(code, code),
            "ts": display(engine.class_ts(model, code)),
        }
        for code in engine.CLASSES
        if engine.class_ts(model, code)
    ]
    return {"rows": lines, "working": steps, "ts": display(strength.total), "classes": classes}


def _superiority_text(line: dict, names: tuple[str, str]) -> str:
    code = line["code"].removeprefix("superiority.")
    holder = names[line["holder"]] if line["holder"] is not None else ""
    params = {"side": holder, "bonus": line["bonus"], "ratio": display(line["ratio"] or 0)}
    if code == "none":
        return _("neither side has it")
    if code == "equal":
        return _("equal: no bonus")
    if code == "one_percent":
        return _("%(side)s has more, but under 1%% of the enemy's TS: no bonus") % params
    if code == "neutralized":
        return _("neutralized: no bonus") % params
    if code.startswith("only_side"):
        return _("only %(side)s has it: +%(bonus)s") % params
    return _("%(side)s at %(ratio)s : 1 → +%(bonus)s") % params


def comparison(force: Force, enemy: Force) -> dict:
    """The TS calculator of §A.5.2-A.5.3 between `force` and `enemy`, as page lines."""
    ours, theirs = engine_force(force), engine_force(enemy)
    result = engine.calculator(ours, theirs)
    names = (force.name, enemy.name)
    ts = (troop_strength(force).full, troop_strength(enemy).full)
    relative = result["relative_ts"]
    steps = [
        {
            "text": _("Ratio of the larger TS to the smaller ="),
            "value": f"{display(relative['ratio'])} : 1" if relative["ratio"] else "—",
        },
        {
            "text": _("Relative TS bonus of %(side)s (§A.5.2) =")
            % {"side": names[relative["holder"]] if relative["holder"] is not None else "—"},
            "value": f"+{relative['bonus']}",
        },
    ]
    superiority = []
    for line in result["superiority"]:
        superiority.append(
            {
                "label": CLASS_LABELS.get(line["cls"], line["cls"]),
                "ours": display(line["first_ts"]),
                "theirs": display(line["second_ts"]),
                "text": _superiority_text(line, names),
            }
        )
    return {
        "enemy": enemy,
        "enemy_ts": display(ts[1]),
        "working": steps,
        "superiority": superiority,
        "bsm": "{:+d}".format(result["bsm_before_casualties"][0]),
    }
