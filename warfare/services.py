"""Use cases for armies: one user action, one transaction, every change in the kingdom log."""

from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.shortcuts import get_object_or_404

from kingdoms.access import access_campaign
from kingdoms.models import Faction

from .access import access_army
from .engine.problems import Problem
from .engine.systems.pf2e.armies import new_basic_spec, new_specialized_spec, stat_block
from .engine.systems.pf2e.conditions import CONDITIONS
from .engine.systems.pf2e.validation import validate_army
from .mapping import army_spec
from .messages import problem_messages
from .models import Army, LogEntry


class StaleEdit(Exception):
    """The army changed since the form was loaded (HTTP 409)."""

    def __init__(self, army: Army):
        super().__init__("stale")
        self.army = army


def _refuse(problems: list[Problem]) -> None:
    if problems:
        raise ValidationError(problem_messages(problems), code="rules")


def _log(army: Army | None, faction: Faction, code: str, actor, **data: Any) -> LogEntry:
    turn = faction.kingdom.turn if hasattr(faction, "kingdom") else 0
    return LogEntry.objects.create(
        faction=faction, army=army, turn=turn, code=code, data=data, actor=actor
    )


@transaction.atomic
def army_create(
    *,
    user,
    campaign_id: int,
    faction_id: int,
    name: str,
    army_type: str,
    specialized: str = "",
    level_override: int | None = None,
    tactics: tuple[str, ...] = (),
    hex: str = "",
    notes: str = "",
) -> Army:
    """A GM places an army directly (an enemy force, or a correction): no Recruit check."""
    membership = access_campaign(user, campaign_id, gm=True, lock=True)
    faction = get_object_or_404(
        Faction.objects.select_related("kingdom"), campaign=membership.campaign, pk=faction_id
    )
    level = level_override or faction.kingdom.level
    if specialized:
        spec = new_specialized_spec(specialized, level)
    else:
        spec = new_basic_spec(army_type, level, tactics=tuple(tactics))
    others = Army.objects.active().filter(faction=faction).exclude(specialized="")
    _refuse(
        validate_army(
            spec,
            kingdom_level=None,
            magic_rank=None,
            faction_specialized_keys=tuple(others.values_list("specialized", flat=True)),
        )
    )
    block = stat_block(spec)
    army = Army(
        faction=faction,
        name=name,
        army_type=spec.type.value,
        specialized=specialized,
        level_override=level_override,
        hp=block.max_hp.value,
        tactics=list(spec.tactics),
        gear=[_gear_dict(choice) for choice in spec.gear],
        hex=hex,
        notes=notes,
    )
    army.full_clean()
    army.save()
    _log(army, faction, "army.placed", user, name=name, type=army.army_type, level=level)
    return army


def _gear_dict(choice) -> dict[str, Any]:
    return {
        "key": choice.key,
        "tier": choice.tier,
        "weapon": choice.weapon.value if choice.weapon else None,
        "doses": choice.doses,
        "source": choice.source.value,
    }


@transaction.atomic
def army_adjust_condition(
    *, user, campaign_id: int, army_id: int, condition: str, delta: int, version: int
) -> Army:
    """The GM raises or lowers a condition by one (valued) or toggles it (unvalued)."""
    _membership, army = access_army(user, campaign_id, army_id, gm=True, lock=True)
    if army.version != version:
        raise StaleEdit(army)
    if condition not in CONDITIONS or delta not in (-1, 1):
        raise ValidationError("Unknown condition or change.", code="bad_condition")
    current = dict(army.conditions)
    info = CONDITIONS[condition]
    value = current.get(condition, 0) + delta
    if not info.valued:
        value = 1 if delta > 0 else 0
    if value <= 0:
        current.pop(condition, None)
    else:
        current[condition] = value
    army.conditions = current
    _refuse(validate_army(army_spec(army), kingdom_level=None, magic_rank=None))
    army.version += 1
    army.save(update_fields=["conditions", "version", "updated_at"])
    _log(army, army.faction, "army.condition_set", user, condition=condition, value=max(value, 0))
    return army


@transaction.atomic
def army_update(*, user, campaign_id: int, army_id: int, version: int, **fields: Any) -> Army:
    _membership, army = access_army(user, campaign_id, army_id, gm=True, lock=True)
    if army.version != version:
        raise StaleEdit(army)
    for name, value in fields.items():
        setattr(army, name, value)
    army.full_clean()
    army.version += 1
    army.save()
    return army
