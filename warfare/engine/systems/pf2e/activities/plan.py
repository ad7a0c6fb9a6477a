"""Planning an Army activity (§4): is it allowed, and which check does it need?

`plan_activity(activity, army, kingdom, skill=..., options=...)` returns an `ActivityPlan`
(the skill, the modifier and the DC, each with a breakdown, plus the normalised options that
`resolve_activity` applies) or a list of `Problem`s. Nothing is rolled and nothing changes here.

Options by activity (all optional unless marked *):

- recruit_army: army_type* or specialized*, hex*, key, tactics, faction_specialized_keys,
  deferred (the wizard chooses starting tactics after the check, §3.1 step 4).
- deploy_army: destination*, hexes* (hexes moved), two_hex_costs (hexes that count as two:
  roadless swamp/mountain, crossing a river or lake without a bridge; Exploration only), road,
  forced_march, border (None / "own" / "enemy"), water_route (Boating).
- disband_army: transfer_to (an ArmyState in the same hex), gear (slot keys to hand over;
  default all).
- garrison_army: location* ("refuge" / "settlement" / "work_site"), territory ("own" default,
  "outside", "enemy").
- offensive_gambit: enemy_armies* (keys of enemy armies in the hex), own_armies (keys; the
  acting army is always included), enemy_scouting_dc (None: no check), shaken_target.
- outfit_army: gear* (a GearChoice or its dict; `doses` = doses bought for Healing Potions),
  source ("purchased" default / "spoils"), spoils_level (spoils: highest defeated enemy level).
- recover_army: affliction* (damaged, defeated, lost, mired, pinned, shaken, weary), new_hex
  (lost: where the GM places the army).
- train_army: tactic*, replace (the tactic it replaces when at max tactics).
"""

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from warfare.engine.problems import Problem
from warfare.engine.systems.pf2e.activities.state import (
    NO_GARRISON_TIMER,
    ArmyState,
    KingdomState,
)
from warfare.engine.systems.pf2e.activities.structures import (
    DEPLOY,
    DISBAND,
    GAMBIT,
    GARRISON,
    OUTFIT,
    RECOVER,
    RECRUIT,
    TRAIN,
)
from warfare.engine.systems.pf2e.armies import (
    ArmySpec,
    army_weapons,
    new_basic_spec,
    new_specialized_spec,
    spec_to_dict,
    stat_block,
)
from warfare.engine.systems.pf2e.gear import GEAR, MAX_POTION_DOSES, GearChoice, GearSource, Weapon
from warfare.engine.systems.pf2e.house_rules import house_value
from warfare.engine.systems.pf2e.kingdom import Proficiency, at_least
from warfare.engine.systems.pf2e.modifiers import BonusType, Modifier, Stat, combine
from warfare.engine.systems.pf2e.specialized import SPECIALIZED_ARMIES
from warfare.engine.systems.pf2e.tables import ArmyType, level_row
from warfare.engine.systems.pf2e.tactics import TACTICS
from warfare.engine.systems.pf2e.validation import (
    counted_tactics,
    learnable_tactics,
    validate_army,
    validate_gear,
    validate_tactic_change,
)

ACTIVITIES = (RECRUIT, DEPLOY, DISBAND, GARRISON, GAMBIT, OUTFIT, RECOVER, TRAIN)
ARMY_ACTIVITIES = ACTIVITIES[1:]
"""Recruit Army is a Leadership activity; the other seven are Army activities (§4)."""

SECOND_ACTIVITY_PENALTY = -5  # §9 Efficient
DEFEATED_ALLOWED = (DEPLOY, DISBAND, RECOVER)  # §4, §9 Defeated
FORCED_MARCH_BONUS = 4  # §4.2
OWN_BORDER_DC, ENEMY_BORDER_DC = 5, 10  # §4.2
OUTSIDE_KINGDOM_DC, ENEMY_KINGDOM_DC = 5, 10  # §4.4
DEFEATED_RECOVER_DC = 5  # §4.7

EXPERT, MASTER = Proficiency.EXPERT, Proficiency.MASTER
SkillOption = tuple[str, Proficiency | None]

DEPLOY_SKILLS: tuple[SkillOption, ...] = (
    ("exploration", None),
    ("boating", None),
    ("magic", MASTER),
)
DEPLOY_RANGE = {"exploration": 20, "boating": 20, "magic": 30}  # §4.2
GARRISON_SKILL = {"refuge": "defense", "settlement": "politics", "work_site": "engineering"}
TERRITORY_DC = {"own": 0, "outside": OUTSIDE_KINGDOM_DC, "enemy": ENEMY_KINGDOM_DC}
GAMBIT_SKILLS: tuple[SkillOption, ...] = (("intrigue", None), ("warfare", None))
TRAIN_SKILLS: tuple[SkillOption, ...] = (("scholarship", None), ("warfare", None))

# §4.7: skill options by affliction; the first option has no minimum listed.
RECOVER_SKILLS: dict[str, tuple[SkillOption, ...]] = {
    "damaged": (("defense", None), ("folklore", EXPERT)),
    "defeated": (("politics", MASTER), ("warfare", EXPERT)),
    "lost": (("exploration", None), ("wilderness", EXPERT)),
    "mired": (("engineering", None), ("magic", EXPERT)),
    "pinned": (("engineering", None), ("magic", EXPERT)),
    "shaken": (("arts", None), ("warfare", EXPERT)),
    "weary": (("defense", None), ("arts", EXPERT)),
}

Term = tuple[str, int]


@dataclass(frozen=True)
class ActivityPlan:
    """What `resolve_activity` needs: the check (or none) and the normalised options."""

    activity: str
    army: Any
    """Key of the acting army (None for Recruit Army)."""
    skill: str | None
    modifier: Stat | None
    dc: Stat | None
    second_activity: bool = False
    """Taken thanks to efficient (at -5; efficient is used up; cannot grant efficient)."""
    improve: tuple[Term, ...] = ()
    """Degree improvements applied after the natural 20/1 (e.g. ("deploy.road", 1))."""
    cost_rp: int = 0
    options: Mapping[str, Any] = field(default_factory=dict)

    @property
    def needs_check(self) -> bool:
        return self.modifier is not None

    def to_dict(self) -> dict[str, Any]:
        return {
            "activity": self.activity,
            "army": self.army,
            "skill": self.skill,
            "modifier": self.modifier.to_dict() if self.modifier else None,
            "dc": self.dc.to_dict() if self.dc else None,
            "second_activity": self.second_activity,
            "improve": [list(term) for term in self.improve],
            "cost_rp": self.cost_rp,
            "options": dict(self.options),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "ActivityPlan":
        return cls(
            activity=data["activity"],
            army=data.get("army"),
            skill=data.get("skill"),
            modifier=stat_from_dict(data.get("modifier")),
            dc=stat_from_dict(data.get("dc")),
            second_activity=bool(data.get("second_activity", False)),
            improve=tuple((str(code), int(value)) for code, value in data.get("improve", ())),
            cost_rp=int(data.get("cost_rp", 0)),
            options=dict(data.get("options", {})),
        )


def stat_from_dict(data: Mapping[str, Any] | None) -> Stat | None:
    if data is None:
        return None
    return Stat(
        int(data["value"]),
        tuple((str(code), int(value)) for code, value in data.get("breakdown", ())),
        tuple((str(code), int(value)) for code, value in data.get("ignored", ())),
    )


@dataclass
class _Draft:
    """What an activity's planner found: the rest (skill checks, modifiers) is shared."""

    skill: str | None = None
    skill_options: tuple[SkillOption, ...] = ()
    modifiers: list[Modifier] = field(default_factory=list)
    dc_terms: list[Term] = field(default_factory=list)
    improve: tuple[Term, ...] = ()
    cost_rp: int = 0
    options: dict[str, Any] = field(default_factory=dict)
    check: bool = True
    army_penalty: str = "activity"
    """Which of the army's condition penalties apply: "activity", "deploy" or "none"."""


def plan_activity(
    activity: str,
    army: ArmyState | None,
    kingdom: KingdomState,
    *,
    skill: str | None = None,
    options: Mapping[str, Any] | None = None,
) -> ActivityPlan | list[Problem]:
    """Check that `army` may take `activity` now, and work out its check (§4.1-§4.8)."""
    options = dict(options or {})
    if activity not in ACTIVITIES:
        return [Problem("activity.unknown", {"activity": activity})]
    if activity != RECRUIT:
        if army is None:
            return [Problem("activity.army_required", {"activity": activity})]
        problems = _may_act(activity, army, options)
        if problems:
            return problems
    second = army is not None and army.activities_this_turn >= 1
    try:
        if activity == RECRUIT:
            draft = _plan_recruit(kingdom, skill, options)
        else:
            draft = _PLANNERS[activity](army, kingdom, skill, options)
    except (KeyError, TypeError, ValueError) as error:
        return [Problem("activity.bad_options", {"activity": activity, "error": str(error)})]
    if isinstance(draft, list):
        return draft
    if not draft.check:
        return ActivityPlan(
            activity,
            army.key if army else None,
            None,
            None,
            None,
            second,
            cost_rp=draft.cost_rp,
            options=draft.options,
        )
    problems = _skill_problems(activity, kingdom, draft)
    if problems:
        return problems
    assert draft.skill is not None
    modifiers = [Modifier(f"skill.{draft.skill}", kingdom.skill_modifier(draft.skill) or 0)]
    bonus = kingdom.item_bonuses.get(activity, 0)
    if bonus:
        modifiers.append(Modifier("structure.item_bonus", bonus, BonusType.ITEM))
    if army is not None and draft.army_penalty != "none":
        block = army.block()
        stat = block.deploy_check if draft.army_penalty == "deploy" else block.activity_check
        for code, value in stat.breakdown + stat.ignored:
            modifiers.append(Modifier(code, value, BonusType.CIRCUMSTANCE))
    modifiers += draft.modifiers
    if second:
        modifiers.append(Modifier("efficient.second_activity", SECOND_ACTIVITY_PENALTY))
    dc_terms = [term for term in draft.dc_terms if term[1] or term[0] == "control_dc"]
    return ActivityPlan(
        activity=activity,
        army=army.key if army else None,
        skill=draft.skill,
        modifier=combine(modifiers),
        dc=Stat(sum(value for _, value in dc_terms), tuple(dc_terms)),
        second_activity=second,
        improve=draft.improve,
        cost_rp=draft.cost_rp,
        options=draft.options,
    )


# --- shared checks ------------------------------------------------------------------------------


def _may_act(activity: str, army: ArmyState, options: Mapping[str, Any]) -> list[Problem]:
    """Status, lost/defeated limits (§4, §9) and one activity per turn (efficient: two)."""
    if not army.active:
        return [Problem("army.not_active", {"army": army.key, "status": army.status})]
    conditions = army.conditions
    if "lost" in conditions and (activity != RECOVER or options.get("affliction") != "lost"):
        return [Problem("army.lost_only_recover", {"army": army.key})]
    if army.defeated:
        if activity not in DEFEATED_ALLOWED:
            return [Problem("army.defeated_limited", {"army": army.key, "activity": activity})]
        if activity == RECOVER and options.get("affliction") != "defeated":
            return [Problem("army.defeated_recover_first", {"army": army.key})]
    second_allowed = army.activities_this_turn == 1 and "efficient" in conditions
    if army.activities_this_turn >= 1 and not second_allowed:
        return [
            Problem(
                "activity.already_acted",
                {"army": army.key, "activities": army.activities_this_turn},
            )
        ]
    return []


def _skill_problems(activity: str, kingdom: KingdomState, draft: _Draft) -> list[Problem]:
    allowed = dict(draft.skill_options)
    if draft.skill is None:
        draft.skill = draft.skill_options[0][0]
    skill = draft.skill
    if skill not in allowed:
        return [
            Problem(
                "activity.skill_not_allowed",
                {"activity": activity, "skill": skill, "allowed": list(allowed)},
            )
        ]
    rank = kingdom.skill_rank(skill)
    if rank is None:
        return [Problem("kingdom.skill_missing", {"skill": skill})]
    minimum = allowed[skill]
    try:
        enough = minimum is None or at_least(rank, minimum)
    except ValueError:
        return [Problem("kingdom.bad_rank", {"skill": skill, "rank": rank})]
    if not enough:
        return [
            Problem(
                "activity.skill_rank_too_low",
                {"activity": activity, "skill": skill, "rank": rank, "minimum": str(minimum)},
            )
        ]
    return []


def _control(kingdom: KingdomState) -> list[Term]:
    return [("control_dc", kingdom.control_dc)]


def _int_option(options: Mapping[str, Any], name: str, default: int | None = None) -> int | None:
    value = options.get(name, default)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{name} must be a whole number")
    return value


# --- 4.1 Recruit Army ---------------------------------------------------------------------------


def _plan_recruit(
    kingdom: KingdomState, skill: str | None, options: dict[str, Any]
) -> _Draft | list[Problem]:
    until = kingdom.recruit_blocked_until_turn
    if until is not None and kingdom.turn < until:
        return [Problem("recruit.blocked", {"until_turn": until})]
    army_type, specialized = options.get("army_type"), options.get("specialized")
    if (army_type is None) == (specialized is None):
        return [Problem("recruit.choose_army", {})]
    hex_ = options.get("hex")
    if not isinstance(hex_, str) or not hex_:
        return [Problem("recruit.hex_required", {})]
    if specialized is not None:
        if specialized not in SPECIALIZED_ARMIES:
            return [Problem("army.unknown_specialized", {"army": specialized})]
        spec = new_specialized_spec(specialized, kingdom.level)
        skill_options: tuple[SkillOption, ...] = (("statecraft", None),)
    else:
        try:
            army_type = ArmyType(army_type)
        except ValueError:
            return [Problem("army.unknown_type", {"type": army_type})]
        spec = new_basic_spec(army_type, kingdom.level, tuple(options.get("tactics", ())))
        skill_options = (("warfare", None),)
    problems = validate_army(
        spec,
        kingdom_level=kingdom.level,
        magic_rank=kingdom.skill_rank("magic"),
        faction_specialized_keys=tuple(options.get("faction_specialized_keys", ())),
    )
    if options.get("deferred"):
        # §3.1: starting tactics are chosen after the check (step 4), so none yet is fine.
        problems = [problem for problem in problems if problem.code != "tactic.none_known"]
    if problems:
        return problems
    recruitment_dc = stat_block(spec).recruitment_dc
    if recruitment_dc is None:
        return [Problem("recruit.not_recruitable", {"army": specialized})]
    return _Draft(
        skill=skill,
        skill_options=skill_options,
        dc_terms=[(f"recruitment_dc.{code}", value) for code, value in recruitment_dc.breakdown],
        options={"spec": spec_to_dict(spec), "hex": hex_, "key": options.get("key")},
        army_penalty="none",
    )


# --- 4.2 Deploy Army ----------------------------------------------------------------------------


def _plan_deploy(
    army: ArmyState, kingdom: KingdomState, skill: str | None, options: dict[str, Any]
) -> _Draft | list[Problem]:
    if "pinned" in army.conditions:
        return [Problem("deploy.pinned", {"army": army.key})]
    destination = options.get("destination")
    if not isinstance(destination, str) or not destination:
        return [Problem("deploy.destination_required", {})]
    hexes = _int_option(options, "hexes")
    two_hex_costs = _int_option(options, "two_hex_costs", 0)
    assert two_hex_costs is not None
    if hexes is None or hexes < 1:
        return [Problem("deploy.bad_distance", {"hexes": hexes})]
    if not 0 <= two_hex_costs <= hexes:
        return [Problem("deploy.bad_two_hex_costs", {"two_hex_costs": two_hex_costs})]
    skill = skill or "exploration"
    if skill not in DEPLOY_RANGE:
        return [
            Problem(
                "activity.skill_not_allowed",
                {"activity": DEPLOY, "skill": skill, "allowed": list(DEPLOY_RANGE)},
            )
        ]
    problems = []
    road, forced = bool(options.get("road")), bool(options.get("forced_march"))
    if skill != "exploration":
        if road:
            problems.append(Problem("deploy.road_needs_exploration", {}))
        if forced:
            problems.append(Problem("deploy.forced_march_needs_exploration", {}))
        if two_hex_costs:
            problems.append(Problem("deploy.two_hex_costs_need_exploration", {}))
    if skill == "boating" and not options.get("water_route"):
        problems.append(Problem("deploy.needs_water_route", {}))
    distance = hexes + two_hex_costs
    if distance > DEPLOY_RANGE[skill]:
        problems.append(
            Problem(
                "deploy.too_far",
                {"skill": skill, "distance": distance, "max": DEPLOY_RANGE[skill]},
            )
        )
    if army.defeated and hexes != 1:
        problems.append(Problem("deploy.defeated_one_hex", {"hexes": hexes}))
    border = options.get("border")
    if border not in (None, "own", "enemy"):
        problems.append(Problem("deploy.bad_border", {"border": border}))
    if problems:
        return problems
    dc_terms = _control(kingdom) + [("house.deploy_dc", house_value("deploy_army.dc_adjustment"))]
    if border and (skill == "magic" or house_value("deploy_army.border_dc_all_skills")):
        if border == "own":
            dc_terms.append(("deploy.own_border", OWN_BORDER_DC))
        else:
            dc_terms.append(("deploy.enemy_border", ENEMY_BORDER_DC))
    modifiers = []
    if forced:
        modifiers.append(
            Modifier("deploy.forced_march", FORCED_MARCH_BONUS, BonusType.CIRCUMSTANCE)
        )
    return _Draft(
        skill=skill,
        skill_options=DEPLOY_SKILLS,
        modifiers=modifiers,
        dc_terms=dc_terms,
        improve=(("deploy.road", 1),) if road else (),
        options={
            "destination": destination,
            "hexes": hexes,
            "two_hex_costs": two_hex_costs,
            "distance": distance,
            "road": road,
            "forced_march": forced,
            "border": border,
        },
        army_penalty="deploy",
    )


# --- 4.3 Disband Army ---------------------------------------------------------------------------


def _plan_disband(
    army: ArmyState, kingdom: KingdomState, skill: str | None, options: dict[str, Any]
) -> _Draft | list[Problem]:
    recipient = options.get("transfer_to")
    if recipient is None:
        return _Draft(check=False, options={"transfer_to": None, "gear": []})
    if not isinstance(recipient, ArmyState):
        return [Problem("disband.bad_recipient", {})]
    slots = options.get("gear")
    chosen = list(army.spec.gear) if slots is None else []
    for slot in slots or ():
        choice = find_gear(army, slot)
        if choice is None:
            return [Problem("gear.not_carried", {"army": army.key, "gear": slot})]
        chosen.append(choice)
    chosen = [_with_live_doses(army, choice) for choice in chosen]
    problems = gear_receive_problems(army, recipient, chosen)
    if problems:
        return problems
    return _Draft(
        check=False,
        options={"transfer_to": recipient.key, "gear": [gear_to_dict(c) for c in chosen]},
    )


# --- 4.4 Garrison Army --------------------------------------------------------------------------


def _plan_garrison(
    army: ArmyState, kingdom: KingdomState, skill: str | None, options: dict[str, Any]
) -> _Draft | list[Problem]:
    location = options.get("location")
    if location not in GARRISON_SKILL:
        return [Problem("garrison.location_required", {"allowed": list(GARRISON_SKILL)})]
    territory = options.get("territory", "own")
    if territory not in TERRITORY_DC:
        return [Problem("garrison.bad_territory", {"territory": territory})]
    until = army.timer_values.get(NO_GARRISON_TIMER + army.hex)
    if until is not None and kingdom.turn < until:
        return [Problem("garrison.locked", {"hex": army.hex, "until_turn": until})]
    terms = _control(kingdom)
    if territory == "outside":
        terms.append(("garrison.outside_kingdom", OUTSIDE_KINGDOM_DC))
    elif territory == "enemy":
        terms.append(("garrison.enemy_kingdom", ENEMY_KINGDOM_DC))
    return _Draft(
        skill=skill,
        skill_options=((GARRISON_SKILL[location], None),),
        dc_terms=terms,
        options={"location": location, "territory": territory},
    )


# --- 4.5 Offensive Gambit -----------------------------------------------------------------------


def _plan_gambit(
    army: ArmyState, kingdom: KingdomState, skill: str | None, options: dict[str, Any]
) -> _Draft | list[Problem]:
    enemies = list(options.get("enemy_armies") or ())
    if not enemies:
        return [Problem("gambit.no_enemy_in_hex", {"hex": army.hex})]
    own = list(options.get("own_armies") or ())
    if army.key not in own:
        own.insert(0, army.key)
    target = options.get("shaken_target", enemies[0])
    if target not in enemies:
        return [Problem("gambit.target_not_in_hex", {"army": target})]
    scouting_dc = _int_option(options, "enemy_scouting_dc")
    normalised = {
        "enemy_armies": enemies,
        "own_armies": own,
        "shaken_target": target,
        "hex": army.hex,
        "enemy_scouting_dc": scouting_dc,
    }
    if scouting_dc is None:
        if skill is not None:
            return [Problem("gambit.scouting_dc_required", {})]
        return _Draft(check=False, options=normalised)
    return _Draft(
        skill=skill,
        skill_options=GAMBIT_SKILLS,
        dc_terms=[("enemy.scouting_dc", scouting_dc)],
        options=normalised,
    )


# --- 4.6 Outfit Army ----------------------------------------------------------------------------


def gear_from_dict(data: Mapping[str, Any] | GearChoice) -> GearChoice:
    if isinstance(data, GearChoice):
        return data
    weapon = data.get("weapon")
    return GearChoice(
        key=str(data["key"]),
        tier=int(data.get("tier", 1)),
        weapon=Weapon(weapon) if weapon else None,
        doses=int(data.get("doses", 0)),
        source=GearSource(data.get("source", GearSource.PURCHASED)),
    )


def gear_to_dict(choice: GearChoice) -> dict[str, Any]:
    return {
        "key": choice.key,
        "tier": choice.tier,
        "weapon": choice.weapon.value if choice.weapon else None,
        "doses": choice.doses,
        "source": choice.source.value,
    }


def slot_key(choice: GearChoice) -> str:
    """'magic_armor', 'magic_weapons:melee'…: how a slot is named in options."""
    return f"{choice.key}:{choice.weapon.value}" if choice.weapon else choice.key


def _resolved_weapon(spec: ArmySpec, choice: GearChoice) -> GearChoice:
    """Magic weapons bought without naming the weapon go to the army's only weapon."""
    if GEAR[choice.key].per_weapon and choice.weapon is None:
        weapons = army_weapons(spec)
        if len(weapons) == 1:
            return replace(choice, weapon=next(iter(weapons)))
    return choice


def find_gear(army: ArmyState, slot: str) -> GearChoice | None:
    for choice in army.spec.gear:
        if slot_key(_resolved_weapon(army.spec, choice)) == slot or slot_key(choice) == slot:
            return choice
    return None


def _with_live_doses(army: ArmyState, choice: GearChoice) -> GearChoice:
    """Healing potions carry the army's current doses (they are used up in battle)."""
    if choice.key == "healing_potions":
        return replace(choice, doses=army.potion_doses)
    return choice


def _plan_outfit(
    army: ArmyState, kingdom: KingdomState, skill: str | None, options: dict[str, Any]
) -> _Draft | list[Problem]:
    raw = options.get("gear")
    if raw is None:
        return [Problem("outfit.gear_required", {})]
    source = GearSource(options.get("source", GearSource.PURCHASED))
    if source is GearSource.PRINTED:
        return [Problem("outfit.bad_source", {"source": source.value})]
    choice = replace(gear_from_dict(raw), source=source)
    gear = GEAR.get(choice.key)
    if gear is None:
        return [Problem("gear.unknown", {"gear": choice.key})]
    try:
        tier = gear.tier(choice.tier)
    except ValueError:
        return [Problem("gear.bad_tier", {"gear": choice.key, "tier": choice.tier})]
    choice = _resolved_weapon(army.spec, choice)
    problems: list[Problem] = []
    old = next(
        (c for c in army.spec.gear if _resolved_weapon(army.spec, c).slot == choice.slot), None
    )
    cost = 0
    if gear.per_dose:
        bought = choice.doses
        held = army.potion_doses if old is not None else 0
        if bought < 1 or held + bought > MAX_POTION_DOSES:
            return [
                Problem(
                    "gear.bad_doses",
                    {"gear": choice.key, "doses": held + bought, "max": MAX_POTION_DOSES},
                )
            ]
        cost = tier.price * bought
        new_choice = replace(choice, doses=held + bought)
    else:
        new_choice = replace(choice, doses=0)
        if old is not None:
            if old.tier >= choice.tier:
                return [Problem("outfit.already_has", {"gear": slot_key(old), "tier": old.tier})]
            if old.source is GearSource.PURCHASED:
                cost = -GEAR[old.key].tier(old.tier).price
        cost += tier.price
    if source is GearSource.SPOILS:
        cost = 0
        spoils_level = _int_option(options, "spoils_level")
        if spoils_level is None:
            return [Problem("outfit.spoils_level_required", {})]
        if tier.level > spoils_level:
            problems.append(
                Problem(
                    "outfit.above_spoils_level",
                    {"gear": choice.key, "level": tier.level, "spoils_level": spoils_level},
                )
            )
    gear_list = [c for c in army.spec.gear if c is not old] + [new_choice]
    problems += validate_gear(
        replace(army.spec, gear=tuple(gear_list)),
        kingdom_level=kingdom.level,
        magic_rank=kingdom.skill_rank("magic"),
    )
    if cost > kingdom.rp:
        problems.append(Problem("kingdom.not_enough_rp", {"needed": cost, "rp": kingdom.rp}))
    if problems:
        return problems
    return _Draft(
        skill=skill,
        skill_options=(("warfare" if source is GearSource.SPOILS else "trade", None),),
        dc_terms=_control(kingdom),
        cost_rp=cost,
        options={
            "gear": gear_to_dict(new_choice),
            "replaces": gear_to_dict(old) if old is not None else None,
            "source": source.value,
        },
    )


# --- 4.7 Recover Army ---------------------------------------------------------------------------


def _plan_recover(
    army: ArmyState, kingdom: KingdomState, skill: str | None, options: dict[str, Any]
) -> _Draft | list[Problem]:
    affliction = options.get("affliction")
    if affliction not in RECOVER_SKILLS:
        return [Problem("recover.affliction_required", {"allowed": list(RECOVER_SKILLS)})]
    conditions = army.conditions
    explicit = army.spec.condition_values
    if affliction == "damaged":
        afflicted = not army.defeated and army.hp < army.max_hp
    elif affliction == "pinned":
        if "pinned" in conditions and "pinned" not in explicit:
            return [Problem("recover.pinned_by_mired", {"mired": conditions.get("mired", 0)})]
        afflicted = "pinned" in explicit
    else:
        afflicted = affliction in conditions
    if not afflicted:
        return [Problem("recover.not_afflicted", {"army": army.key, "affliction": affliction})]
    terms = _control(kingdom)
    if affliction == "defeated":
        terms.append(("recover.defeated", DEFEATED_RECOVER_DC))
    new_hex = options.get("new_hex")
    return _Draft(
        skill=skill,
        skill_options=RECOVER_SKILLS[affliction],
        dc_terms=terms,
        options={"affliction": affliction, "new_hex": new_hex if affliction == "lost" else None},
    )


# --- 4.8 Train Army -----------------------------------------------------------------------------


def _plan_train(
    army: ArmyState, kingdom: KingdomState, skill: str | None, options: dict[str, Any]
) -> _Draft | list[Problem]:
    key = options.get("tactic")
    if key not in TACTICS:
        return [Problem("tactic.unknown", {"tactic": key})]
    spec = army.spec
    known = list(spec.tactics)
    maximum = level_row(spec.level).max_tactics
    replaced = options.get("replace")
    at_max = counted_tactics(spec) >= maximum
    if replaced is None and at_max:
        return [Problem("train.replace_required", {"max": maximum})]
    if replaced is not None:
        if not at_max:
            return [Problem("train.replace_not_needed", {"max": maximum})]
        if replaced not in known:
            return [Problem("train.replace_unknown", {"tactic": replaced})]
        known.remove(replaced)
    problems = validate_tactic_change(
        spec.tactics,
        [*known, key],
        army_type=spec.type,
        level=spec.level,
        specialized=spec.specialized,
    )
    if not problems and key not in {tactic.key for tactic in learnable_tactics(spec)}:
        problems = [Problem("train.not_learnable", {"tactic": key})]
    if problems:
        return problems
    return _Draft(
        skill=skill,
        skill_options=TRAIN_SKILLS,
        dc_terms=_control(kingdom) + [("house.train_dc", house_value("train_army.dc_adjustment"))],
        options={"tactic": key, "replace": replaced},
    )


# --- gear hand-over (Disband Army, transfers) ---------------------------------------------------


def gear_receive_problems(
    giver: ArmyState, recipient: ArmyState, gear: list[GearChoice]
) -> list[Problem]:
    """Can `recipient` take `gear` from `giver`? Same hex, both active, level high enough,
    slot free (potions merge up to 3 doses), and the recipient may carry gear (§5)."""
    if recipient.key == giver.key:
        return [Problem("gear.same_army", {"army": giver.key})]
    if not recipient.active:
        return [Problem("army.not_active", {"army": recipient.key, "status": recipient.status})]
    if recipient.hex != giver.hex:
        return [Problem("gear.not_same_hex", {"from": giver.hex, "to": recipient.hex})]
    merged, problems = merge_gear(recipient, gear)
    if problems:
        return problems
    return validate_gear(replace(recipient.spec, gear=merged), kingdom_level=None, magic_rank=None)


def merge_gear(
    recipient: ArmyState, gear: list[GearChoice]
) -> tuple[tuple[GearChoice, ...], list[Problem]]:
    """`recipient`'s gear with `gear` added: potions merge (max 3), other slots must be free."""
    result = list(recipient.spec.gear)
    problems = []
    for choice in gear:
        choice = _resolved_weapon(recipient.spec, choice)
        same = next(
            (c for c in result if _resolved_weapon(recipient.spec, c).slot == choice.slot), None
        )
        if same is None:
            result.append(choice)
        elif choice.key == "healing_potions":
            doses = recipient.potion_doses + choice.doses
            if doses > MAX_POTION_DOSES:
                problems.append(
                    Problem(
                        "gear.bad_doses",
                        {"gear": choice.key, "doses": doses, "max": MAX_POTION_DOSES},
                    )
                )
            result[result.index(same)] = replace(same, doses=doses)
        else:
            problems.append(
                Problem("gear.slot_taken", {"army": recipient.key, "gear": slot_key(choice)})
            )
    return tuple(result), problems


_PLANNERS: dict[str, Callable[..., _Draft | list[Problem]]] = {
    DEPLOY: _plan_deploy,
    DISBAND: _plan_disband,
    GARRISON: _plan_garrison,
    GAMBIT: _plan_gambit,
    OUTFIT: _plan_outfit,
    RECOVER: _plan_recover,
    TRAIN: _plan_train,
}
