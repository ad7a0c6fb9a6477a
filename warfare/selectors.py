"""Reads for army pages: stat blocks with their working shown, lists with totals."""

from dataclasses import dataclass

from django.db.models import QuerySet

from kingdoms.models import Faction

from . import labels
from .engine.systems.pf2e.armies import StatBlock, stat_block
from .engine.systems.pf2e.conditions import CONDITIONS
from .engine.systems.pf2e.modifiers import Stat
from .mapping import army_spec, army_stat_block
from .models import Army, ArmyStatus, LogEntry

SHEET_STATS = (
    "ac", "maneuver", "morale", "melee", "ranged", "scouting", "max_hp", "rout_threshold",
    "shots", "consumption", "recruitment_dc", "max_tactics", "activity_check", "deploy_check",
)  # fmt: skip


@dataclass(frozen=True)
class StatRow:
    key: str
    label: str
    value: int
    working: str
    ignored: str


def signed(value: int) -> str:
    return f"+{value}" if value >= 0 else f"−{-value}"


def working(stat: Stat) -> str:
    """'22 level + 1 Magic Armor − 1 weary' (the first term unsigned when positive)."""
    parts = []
    for index, (term, value) in enumerate(stat.breakdown):
        label = labels.term_label(term)
        if index == 0:
            parts.append(f"{value} {label}" if value >= 0 else f"−{-value} {label}")
        else:
            parts.append(f"{'+' if value >= 0 else '−'} {abs(value)} {label}")
    return " ".join(parts)


def stat_rows(block: StatBlock) -> list[StatRow]:
    rows = []
    for key in SHEET_STATS:
        stat = getattr(block, key)
        if stat is None or (key == "shots" and block.ranged is None):
            continue
        if key in {"activity_check", "deploy_check"} and not stat.breakdown:
            continue
        ignored = ", ".join(
            f"{labels.term_label(term)} {signed(value)}" for term, value in stat.ignored
        )
        rows.append(StatRow(key, str(labels.STAT_LABELS[key]), stat.value, working(stat), ignored))
    return rows


def army_list(*, faction: Faction) -> QuerySet[Army]:
    return Army.objects.filter(faction=faction).select_related("faction__kingdom")


@dataclass(frozen=True)
class ArmyLine:
    army: Army
    block: StatBlock | None


def army_lines(*, faction: Faction) -> dict:
    """The faction's armies with their stat blocks, and total consumption of the active ones."""
    lines = []
    consumption = 0
    for army in army_list(faction=faction):
        block = army_stat_block(army) if army.status == ArmyStatus.ACTIVE else None
        if block is not None and block.consumption is not None:
            consumption += block.consumption.value
        lines.append(ArmyLine(army, block))
    return {"lines": lines, "consumption": consumption}


def army_sheet(*, army: Army) -> dict:
    spec = army_spec(army)
    block = stat_block(spec)
    return {
        "stats": block,
        "rows": stat_rows(block),
        "tactics": [
            {"key": key, "name": labels.tactic_name(key), "effect": labels.tactic_effect(key)}
            for key in army.tactics
        ],
        "conditions": [
            {
                "key": key,
                "value": value,
                "name": labels.condition_name(key),
                "effect": labels.condition_effect(key),
            }
            for key, value in block.conditions
        ],
        "gear": [{"name": labels.gear_name(choice.key), "choice": choice} for choice in spec.gear],
        "war_actions": [labels.war_action_name(key) for key in block.war_actions],
        "condition_choices": [(key, labels.condition_name(key)) for key in CONDITIONS],
        "log": list(LogEntry.objects.filter(army=army).select_related("actor")[:50]),
    }
