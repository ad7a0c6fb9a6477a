"""Reads for army pages: stat blocks with their working shown, lists with totals."""

from dataclasses import dataclass

from django.db.models import QuerySet
from django.utils.translation import gettext_lazy as _

from kingdoms.models import Faction
from warfare.engine.systems.pf2e import kingdom as pf2e_kingdom
from warfare.engine.systems.pf2e.activities.plan import slot_key, stat_from_dict
from warfare.engine.systems.pf2e.armies import (
    StatBlock,
    new_basic_spec,
    new_specialized_spec,
    stat_block,
)
from warfare.engine.systems.pf2e.conditions import CONDITIONS
from warfare.engine.systems.pf2e.modifiers import Stat

from . import labels
from .events import army_refs, log_text, with_army_names
from .labels import PROFICIENCY_LABELS, RUIN_LABELS, SKILL_LABELS
from .mapping import army_spec, army_stat_block
from .models import Army, ArmyStatus, Kingdom, LogEntry

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


def faction_log(*, faction: Faction, limit: int = 30) -> list[LogEntry]:
    return list(LogEntry.objects.filter(faction=faction).select_related("actor", "army")[:limit])


def _neighbours(army: Army) -> list[Army]:
    """Other active armies of the kingdom in the same hex (they may swap gear, §5)."""
    return list(
        Army.objects.active()
        .filter(faction_id=army.faction_id, hex=army.hex)
        .exclude(pk=army.pk)
        .only("pk", "name")
    )


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
        "gear": [
            {"name": labels.gear_name(choice.key), "choice": choice, "slot": slot_key(choice)}
            for choice in spec.gear
        ],
        "neighbours": _neighbours(army) if army.hex and spec.gear else [],
        "war_actions": [labels.war_action_name(key) for key in block.war_actions],
        "condition_choices": [(key, labels.condition_name(key)) for key in CONDITIONS],
        "log": list(LogEntry.objects.filter(army=army).select_related("actor")[:50]),
    }


DEGREE_LABELS = {
    "critical_success": _("Critical success"),
    "success": _("Success"),
    "failure": _("Failure"),
    "critical_failure": _("Critical failure"),
}


def check_view(check: dict | None) -> dict | None:
    """A stored check (ActivityCheck.to_dict) as words: die, modifier and DC with working."""
    if not check:
        return None
    modifier, dc = stat_from_dict(check["modifier"]), stat_from_dict(check["dc"])
    return {
        "skill": SKILL_LABELS.get(check["skill"], check["skill"]) if check["skill"] else "",
        "die": check["die"],
        "typed": check["source"] == "typed",
        "modifier": modifier.value,
        "modifier_working": working(modifier),
        "total": check["total"],
        "dc": dc.value,
        "dc_working": working(dc),
        "degree": check["degree"],
        "degree_label": DEGREE_LABELS.get(check["degree"], check["degree"]),
        "adjusted": check["rolled"] != check["degree"],
    }


def activity_preview(*, army: Army, form) -> dict:
    """What taking the activity as the form stands would check, before it is taken (§4): the
    skill, modifier and DC with their working, the RP it costs, or why it cannot be taken."""
    from warfare.messages import problem_messages

    from .services import activity_plan

    kwargs = form.preview_kwargs()
    if kwargs is None:
        return {"incomplete": True}
    plan, _recipient = activity_plan(army, army.faction.kingdom, kwargs["activity"],
                                     kwargs["skill"], kwargs["options"])  # fmt: skip
    if isinstance(plan, list):
        return {"problems": problem_messages(plan)}
    check = None
    if plan.needs_check:
        check = {
            "skill": SKILL_LABELS.get(plan.skill, plan.skill),
            "modifier": plan.modifier.value,
            "modifier_working": working(plan.modifier),
            "dc": plan.dc.value,
            "dc_working": working(plan.dc),
        }
    return {"check": check, "cost_rp": plan.cost_rp, "rp": army.faction.kingdom.resource_points,
            "second": plan.second_activity}  # fmt: skip


def activity_outcome_view(outcome) -> dict:
    """An activity's result as the page shows it: the check, then each event as a sentence
    naming the armies it speaks of (one query for their names)."""
    data = outcome.to_dict()
    events = data["events"][1:]
    ids = {pk for e in events for pk in army_refs(e["code"], e["params"]).values()}
    names = dict(Army.objects.filter(pk__in=ids).values_list("pk", "name")) if ids else {}
    return {
        "check": check_view(data["check"]),
        "events": [
            log_text(e["code"], with_army_names(e["code"], e["params"], names)) for e in events
        ],  # fmt: skip
        "degree_label": DEGREE_LABELS.get(data["degree"], "") if data["degree"] else "",
    }


def _recruit_plan(kingdom, *, army_type: str = "", specialized: str = "") -> dict | None:
    """The Recruit Army check for one army (§4.1) as the wizard shows it: skill, modifier and
    DC with their working (the check a critical failure blocks is shown all the same)."""
    from dataclasses import replace

    from warfare.engine.systems.pf2e.activities.plan import plan_activity

    from .mapping import kingdom_state

    options: dict = {"hex": "-", "deferred": True}
    if specialized:
        options["specialized"] = specialized
    else:
        options["army_type"] = army_type
    state = replace(kingdom_state(kingdom), recruit_blocked_until_turn=None)
    plan = plan_activity("recruit_army", None, state, options=options)
    if isinstance(plan, list):
        return None
    return {
        "skill": SKILL_LABELS.get(plan.skill, plan.skill),
        "modifier": plan.modifier.value,
        "modifier_working": working(plan.modifier),
        "dc": plan.dc.value,
        "dc_working": working(plan.dc),
    }


def recruit_choices(*, faction: Faction) -> list[dict]:
    """Step 1 (§3.1): every basic type and specialized army, with why it cannot be chosen, and
    before any roll its level, the Recruit Army check (§4.1) and its Consumption."""
    from warfare.engine.systems.pf2e.specialized import SPECIALIZED_ARMIES
    from warfare.engine.systems.pf2e.tables import ArmyType as EngineType
    from warfare.engine.systems.pf2e.validation import validate_army
    from warfare.messages import problem_messages

    from .models import ArmyType
    from .services import DEFERRED_PROBLEMS

    kingdom = faction.kingdom
    level = kingdom.level
    taken = set(
        Army.objects.active().filter(faction=faction).exclude(specialized="")
        .values_list("specialized", flat=True)
    )  # fmt: skip

    def numbers(spec, **army) -> dict:
        block = stat_block(spec)
        consumption = block.consumption.value if block.consumption is not None else None
        return {"level": spec.level, "consumption": consumption,
                "check": _recruit_plan(kingdom, **army)}  # fmt: skip

    choices = []
    for value, label in ArmyType.choices:
        spec = new_basic_spec(EngineType(value), level)
        problems = [
            p for p in validate_army(spec, kingdom_level=level, magic_rank=None)
            if p.code not in DEFERRED_PROBLEMS
        ]  # fmt: skip
        choices.append({"field": "army_type", "value": value, "label": label,
                        "reasons": problem_messages(problems), "specialized": False,
                        **numbers(spec, army_type=value)})  # fmt: skip
    for key, army in SPECIALIZED_ARMIES.items():
        if not army.recruitable:
            continue
        spec = new_specialized_spec(key, max(level, army.level))
        problems = validate_army(
            spec, kingdom_level=level, magic_rank=None, faction_specialized_keys=tuple(taken)
        )
        if army.level > level:
            problems = [p for p in problems if p.code != "army.level_below_minimum"]
        choices.append({"field": "specialized", "value": key,
                        "label": labels.specialized_name(key),
                        "reasons": problem_messages(problems), "specialized": True,
                        **numbers(spec, specialized=key)})  # fmt: skip
    return choices


def recruitment_label(recruitment) -> str:
    if recruitment.specialized:
        return str(labels.specialized_name(recruitment.specialized))
    return str(recruitment.get_army_type_display())


def open_recruitments(*, faction: Faction) -> list:
    """The faction's recruitments in progress, each with what it is and where it stands."""
    from .models import Recruitment

    rows = list(Recruitment.objects.open().filter(faction=faction).order_by("created_at"))
    for recruitment in rows:
        recruitment.faction = faction
        recruitment.label = recruitment_label(recruitment)
        check = recruitment.check_result or {}
        recruitment.degree_label = DEGREE_LABELS.get(check.get("degree"), "")
    return rows


def recruit_start_view(*, faction: Faction) -> dict:
    """Step 1 of the wizard: the choices, what is in progress, and what stops a recruitment
    before any roll: a critical failure this turn (§4.1), a rolled recruitment still open,
    no settlement with a hex to place a basic army in (§3.1 step 5)."""
    from warfare.messages import problem_messages

    from .services import recruit_blocked_problems

    in_progress = open_recruitments(faction=faction)
    rolled = [r for r in in_progress if r.step != "roll"]
    blocked = problem_messages(recruit_blocked_problems(faction.kingdom))
    if rolled and not blocked:
        blocked = [str(_("Finish the recruitment in progress before starting another."))]
    return {
        "choices": recruit_choices(faction=faction),
        "in_progress": in_progress,
        "blocked": blocked,
        "no_settlement_hex": not faction.settlements.exclude(hex="").exists(),
    }


def recruitment_view(recruitment, *, ticked: list[str] | None = None) -> dict:
    """What each wizard step shows: the check to come or made, the stat block, tactics…

    `ticked`: the starting tactics just posted and refused, shown ticked again."""
    from warfare.engine.systems.pf2e.tactics import TACTICS
    from warfare.engine.systems.pf2e.validation import learnable_tactics
    from warfare.messages import problem_messages

    from .services import recruit_blocked_problems, recruit_spec

    faction = recruitment.faction
    kingdom = faction.kingdom
    spec = recruit_spec(recruitment, level=kingdom.level)
    block = stat_block(spec)
    view: dict = {
        "recruitment": recruitment,
        "kingdom": kingdom,
        "stats": block,
        "rows": stat_rows(block),
        "check": check_view(recruitment.check_result),
        "army_label": recruitment_label(recruitment),
    }
    if recruitment.step == "roll":
        view["plan"] = _recruit_plan(
            kingdom, army_type=recruitment.army_type, specialized=recruitment.specialized
        )
        view["blocked"] = problem_messages(recruit_blocked_problems(kingdom))
    if not recruitment.specialized:
        base = new_basic_spec(spec.type, kingdom.level)
        mandatory = set(base.tactics)
        chosen = set(spec.tactics if ticked is None else ticked)
        view["tactic_options"] = [
            {"key": key, "name": labels.tactic_name(key), "effect": labels.tactic_effect(key),
             "mandatory": key in mandatory, "chosen": key in chosen}
            for key in [*base.tactics, *(t.key for t in learnable_tactics(base))]
            if key in TACTICS
        ]  # fmt: skip
        view["max_tactics"] = block.max_tactics.value
    view["settlements"] = list(faction.settlements.exclude(hex=""))
    current = army_lines(faction=faction)["consumption"]
    added = block.consumption.value if block.consumption else 0
    view["consumption"] = {"now": current, "added": added, "after": current + added,
                           "food": kingdom.food}  # fmt: skip
    return view


def kingdom_sheet(kingdom: Kingdom) -> dict:
    """The kingdom's ruins and skills as labelled rows, and which values are house defaults."""
    house = {entry.key: entry for entry in pf2e_kingdom.HOUSE_DEFAULTS}
    skills = kingdom.skills or {}
    return {
        "ruins": [
            (RUIN_LABELS[ruin], value, threshold) for ruin, value, threshold in kingdom.ruins()
        ],
        "skills": [
            (
                SKILL_LABELS[name],
                skills.get(name, {}).get("modifier", 0),
                PROFICIENCY_LABELS.get(skills.get(name, {}).get("rank"), "—"),
            )
            for name in pf2e_kingdom.WARFARE_SKILLS
        ],
        "house_ruin_threshold": house["ruin_threshold"],
        "ruin_threshold_is_house_default": any(
            threshold == house["ruin_threshold"].value
            for _ruin, _value, threshold in kingdom.ruins()
        ),
    }
