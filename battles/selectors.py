"""What the board shows a viewer: cards, the initiative strip, buttons, the log.

Visibility: the GM and an army's own side see its numbers; everyone else sees its name,
position and visible conditions, never its HP or modifiers (DESIGN.md "Visibility").
"""

import json
from dataclasses import dataclass

from django.db.models import QuerySet
from django.utils.translation import gettext_lazy as _

from kingdoms.models import Membership
from warfare import labels
from warfare.engine.battle.registry import get_battle_system
from warfare.engine.systems.pf2e.battle.engine import GM_CONDITIONS
from warfare.engine.systems.pf2e.conditions import CONDITIONS
from warfare.selectors import working

from .models import Battle
from .services import army_factions, may_command
from .visibility import Viewer, live_events, viewer_for, visible_event


def battle_list(*, membership: Membership) -> QuerySet[Battle]:
    return Battle.objects.filter(campaign_id=membership.campaign_id).only(
        "pk", "name", "status", "created_at", "seq", "campaign_id"
    )


@dataclass(frozen=True)
class Card:
    key: str
    name: str
    side: str
    full: bool
    hp: int | None
    max_hp: int | None
    rout_threshold: int | None
    hp_percent: int
    rt_percent: int
    position: str
    conditions: list[tuple[str, int]]
    effects: list[tuple[str, int]]
    engaged_with: list[str]
    shots: int | None
    potions: int | None
    fortification: str | None
    acting: bool
    out: bool


GM_CONDITION_CHOICES = [
    (key, labels.condition_name(key)) for key in GM_CONDITIONS if key in CONDITIONS
]

POSITION_LABELS = {"near": _("near"), "distant": _("distant"), "fled": _("fled")}


def _card(army: dict, state, names: dict, full: bool) -> Card:
    spec_conditions = army["army"]["spec"].get("conditions", {})
    block = state.army(army["key"]).army.block()
    max_hp = block.max_hp.value
    hp = army["army"]["hp"]
    rt = block.rout_threshold.value if block.rout_threshold else None
    return Card(
        key=army["key"],
        name=names.get(army["key"], army["key"]),
        side=army["side"],
        full=full,
        hp=hp if full else None,
        max_hp=max_hp if full else None,
        rout_threshold=rt if full else None,
        hp_percent=round(100 * hp / max_hp) if full and max_hp else 0,
        rt_percent=round(100 * rt / max_hp) if full and rt and max_hp else 0,
        position=str(POSITION_LABELS.get(army.get("position", "near"), army.get("position"))),
        conditions=[
            (labels.condition_name(key), value)
            for key, value in sorted(dict(spec_conditions).items())
            if key in CONDITIONS
        ],
        effects=[
            (labels.condition_name(effect.condition), effect.value)
            for effect in state.effects
            if effect.army == army["key"] and effect.condition in CONDITIONS
        ],
        engaged_with=[names.get(k, k) for k in state.engaged_with(army["key"])],
        shots=army.get("shots") if full and block.ranged is not None else None,
        potions=army["army"].get("potion_doses") if full else None,
        fortification=army.get("fortification"),
        acting=state.current == army["key"],
        out=state.army(army["key"]).out_of_fight,
    )


def army_names(battle: Battle) -> dict[str, str]:
    return {
        str(entry["army"]["key"]): entry.get("name") or entry["army"].get("name") or ""
        for side in battle.setup["sides"]
        for entry in side["armies"]
    }


def board_context(*, membership: Membership, battle: Battle) -> dict:
    system = get_battle_system(battle.system)
    state = system.state_from_dict(battle.snapshot)
    names = army_names(battle)
    factions = army_factions(battle)
    snapshot_armies = battle.snapshot["armies"]
    sides = {side["key"]: side.get("name") or side["key"] for side in battle.setup["sides"]}
    cards = {key: [] for key in sides}
    for army in snapshot_armies:
        full = membership.is_gm or factions.get(army["key"]) == membership.faction_id
        cards[army["side"]].append(_card(army, state, names, full))
    current = state.current
    actions = []
    if current and may_command(membership, battle, current):
        for spec in system.legal_actions(state, current):
            for option in spec.options:
                actions.append(
                    {
                        "key": spec.key,
                        "actor": current,
                        "label": labels.war_action_name(spec.key)
                        if spec.key != "end_turn"
                        else None,
                        "cost": spec.cost,
                        "target": names.get(option.params.get("target"), ""),
                        "params": json.dumps(dict(option.params), sort_keys=True),
                        "checks": [
                            {
                                "stat": str(labels.STAT_LABELS.get(check.stat, check.stat)),
                                "modifier": check.modifier,
                                "dc": check.dc,
                                "working": working_terms(check.modifier_breakdown),
                                "dc_working": working_terms(check.dc_breakdown),
                            }
                            for check in option.checks
                        ],
                    }
                )
    return {
        "battle": battle,
        "membership": membership,
        "sides": [(key, sides[key], cards[key]) for key in sides],
        "round": state.round,
        "actions_left": state.actions_left,
        "current": names.get(current, current) if current else None,
        "order": [(names.get(key, key), key == current) for key in state.order],
        "actions": actions,
        "log": battle_log(
            battle=battle, names=names, viewer=viewer_for(membership, battle), limit=40
        ),
        "outcome": battle.outcome,
        "correction_armies": [(army["key"], names.get(army["key"])) for army in snapshot_armies]
        if membership.is_gm
        else [],
        "correction_conditions": GM_CONDITION_CHOICES,
    }


def working_terms(terms) -> str:
    from warfare.engine.systems.pf2e.modifiers import Stat

    terms = tuple((str(code), int(value)) for code, value in terms)
    return working(Stat(sum(value for _code, value in terms), terms)) if terms else ""


def battle_log(
    *, battle: Battle, names: dict[str, str], viewer: Viewer, limit: int | None = None
) -> list:
    """(round, sentence) of the live events, newest first, as `viewer` may see them."""
    events = live_events(battle).order_by("-pk")
    if limit:
        events = events[:limit]
    lines = [
        (event.round, visible_event(event.code, event.params, names, viewer)[1]) for event in events
    ]
    return [(round_, text) for round_, text in lines if text]
