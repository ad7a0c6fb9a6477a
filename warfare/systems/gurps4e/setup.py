"""Setting up a GURPS Mass Combat 4e battle from the campaign's persistent forces.

`gurps4e_battle_create` is the one use case behind the set-up page and the API: it checks the
input against the campaign (forces, players), builds the engine setup (gurps §A.3-A.5, the
engine's `validate_setup` documents its shape) and starts the battle in one transaction.

The setup keeps, beside what the engine reads, what the Django layer needs later: each side's
`force_id`, `faction` and display `name`; each PC's `owner` (the user id of the player who
plays it) and `faction` (that player's faction; or, without an owner, a faction any of whose
players may choose for it; neither: the GM's NPC); `gm_sees_choices` when the GM sees a
players' side's pending strategy at once. The engine ignores those keys.
"""

from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from battles.holds import refuse_held
from battles.models import Battle
from battles.services import battle_start
from kingdoms.access import access_campaign
from kingdoms.models import CommandStaff, Membership, Role, RuleSystem
from kingdoms.transactions import write_transaction
from warfare.engine.systems.gurps4e import forces as engine
from warfare.engine.systems.gurps4e.battle.state import SIDE_KEYS
from warfare.messages import problem_messages
from warfare.systems.gurps4e.mapping import engine_force
from warfare.systems.gurps4e.models import Force, ForceElement

from .labels import PROBLEM_TEXTS


@dataclass(frozen=True)
class PCInput:
    """A PC or named NPC of the battle (gurps §A.6.2, §A.6.5)."""

    name: str
    side: str
    owner: int | None = None
    """The user id of the player who plays it."""
    faction: int | None = None
    """Without an owner: the faction whose players choose for it (neither: the GM's NPC)."""
    element: int | None = None
    """The id of the element row of its side's force it fights in (§A.6.2 modifiers)."""
    hp: int = 10
    skill_15: bool = False
    commands_element: bool = False
    exempt: bool = False


@dataclass(frozen=True)
class BattleInput:
    """Everything the set-up page and the API ask for."""

    name: str
    forces: dict[str, int]
    battle_type: str = "land"
    terrain: str = "plains"
    siege: bool = False
    obscured: bool = False
    extra_classes: tuple[str, ...] = ()
    recon: bool = False
    recon_conditions: dict[str, dict[str, Any]] = field(default_factory=dict)
    recon_dice: tuple[int, ...] = ()
    kind: str = "pitched"
    initiative: str | None = None
    db: dict[str, int] = field(default_factory=dict)
    neutralize: dict[str, bool] = field(default_factory=dict)
    pcs: tuple[PCInput, ...] = ()
    players_may_act: bool = True
    gm_sees_choices: bool = False
    """The GM sees a players' side's pending strategy at once (default: only once the GM's
    own side has chosen, `board.Gurps4eView`)."""


def _officer(staff: CommandStaff | None, force: Force) -> engine.CommandStaff:
    if staff is None:
        return engine.CommandStaff(commander=engine.Officer(name=force.faction.name))
    return engine.CommandStaff(
        commander=engine.Officer(
            name=staff.commander or force.faction.name,
            strategy=staff.strategy,
            tactics=staff.tactics,
            leadership=staff.leadership,
        ),
        intelligence_analysis=staff.intelligence_analysis,
        administration=staff.administration,
    )


def battle_force(force: Force) -> engine.Force:
    """The force as it goes into battle: its rows scaled by what earlier battles left of it
    (§A.7.3, `strength_percent`, as a circumstance multiplier of every row), commanded by its
    faction's command staff (§A.2.5)."""
    model = engine_force(force)
    share = Fraction(force.strength_percent, 100)
    rows = tuple(replace(row, circumstance=row.circumstance * share) for row in model.rows)
    staff = getattr(force.faction, "command_staff", None)
    return replace(model, rows=rows, staff=_officer(staff, force))


def build_setup(data: BattleInput, forces: dict[str, Force], owners: dict[int, int]) -> dict:
    """The engine setup (plain JSON) from checked input; `owners` {user id: faction id}."""
    sides: dict[str, Any] = {}
    for key in SIDE_KEYS:
        force = forces[key]
        pcs = []
        for number, pc in enumerate(data.pcs, start=1):
            if pc.side != key:
                continue
            pcs.append(
                {
                    "key": f"pc{number}",
                    "name": pc.name,
                    "hp": pc.hp,
                    "max_hp": pc.hp,
                    "skill_15": pc.skill_15,
                    "commands_element": pc.commands_element,
                    "exempt": pc.exempt,
                    "owner": pc.owner,
                    "faction": owners.get(pc.owner) if pc.owner else pc.faction,
                    **({"element": str(pc.element)} if pc.element else {}),
                }
            )
        sides[key] = {
            "force": battle_force(force).to_dict(),
            "force_id": force.pk,
            "strength_percent": force.strength_percent,  # the share of its full TS it fights at
            "faction": force.faction_id,
            "name": force.name,
            "faction_name": force.faction.name,
            "pcs": pcs,
        }
    setup: dict[str, Any] = {
        "battle_type": data.battle_type,
        "terrain": data.terrain,
        "siege": data.siege,
        "obscured": data.obscured,
        "extra_classes": list(data.extra_classes),
        "sides": sides,
    }
    if data.recon:
        setup["recon"] = {key: dict(data.recon_conditions.get(key) or {}) for key in SIDE_KEYS}
        if data.recon_dice:  # rolled at the table (§A.4.2), logged as typed
            setup["start_dice"] = list(data.recon_dice)
    else:
        setup["kind"] = data.kind
        setup["initiative"] = data.initiative
    if data.db:
        setup["db"] = dict(data.db)
    if data.neutralize:
        setup["neutralize"] = {key: bool(data.neutralize.get(key, True)) for key in SIDE_KEYS}
    if data.gm_sees_choices:
        setup["gm_sees_choices"] = True
    return setup


@write_transaction
def gurps4e_battle_create(*, user, campaign_id: int, data: BattleInput) -> Battle:
    """The GM sets two forces of the campaign against each other (gurps §A.3-A.5): the
    reconnaissance contest (or a set-piece battle), BSM, DB and round 1 are rolled at once.
    Bad input, or a setup the engine refuses, is a ValidationError with one message per
    problem; nothing is saved. A force already on an unfinished board is refused, naming the
    battle (battles.holds; the campaign's lock keeps two set-ups from taking one force)."""
    membership = access_campaign(user, campaign_id, gm=True, lock=True)
    campaign = membership.campaign
    if campaign.rule_system != RuleSystem.GURPS4E:
        raise ValidationError(_("This is not a GURPS Mass Combat campaign."))
    if set(data.forces) != set(SIDE_KEYS):
        raise ValidationError(_("Choose a force for each side."))
    if data.forces["a"] == data.forces["b"]:
        raise ValidationError(_("A force cannot fight itself."))
    rows = (
        Force.objects.filter(campaign=campaign, pk__in=set(data.forces.values()))
        .select_related("faction", "faction__command_staff")
        .prefetch_related("elements__element_type")
    )
    by_id = {force.pk: force for force in rows}
    if set(by_id) != set(data.forces.values()):
        raise ValidationError(_("Only forces of this campaign can fight."))
    forces = {key: by_id[pk] for key, pk in data.forces.items()}
    refuse_held(campaign.pk, [forces[key] for key in SIDE_KEYS])
    errors = []
    for key in SIDE_KEYS:
        force = forces[key]
        if not ForceElement.objects.filter(force=force).exists():
            errors.append(_("%(force)s has no elements.") % {"force": force.name})
        elif force.strength_percent <= 0:
            errors.append(_("Nothing is left of %(force)s.") % {"force": force.name})
    owners = dict(
        Membership.objects.filter(campaign=campaign, role=Role.PLAYER).values_list(
            "user_id", "faction_id"
        )
    )
    factions = set(campaign.factions.values_list("pk", flat=True))
    rows = {key: {row.pk for row in forces[key].elements.all()} for key in SIDE_KEYS}
    for pc in data.pcs:
        if pc.owner is not None and pc.owner not in owners:
            message = _("%(pc)s: the owner is not a player of this campaign.")
            errors.append(message % {"pc": pc.name})
        if pc.faction is not None and pc.faction not in factions:
            errors.append(_("%(pc)s: no such faction in this campaign.") % {"pc": pc.name})
        if pc.element is not None and pc.element not in rows.get(pc.side, ()):
            message = _("%(pc)s fights in an element of another force.")
            errors.append(message % {"pc": pc.name})
    if errors:
        raise ValidationError(errors)
    setup = build_setup(data, forces, owners)
    return battle_start(
        user=user,
        campaign=campaign,
        name=data.name,
        setup=setup,
        players_may_act=data.players_may_act,
        problem_messages=lambda problems: problem_messages(problems, PROBLEM_TEXTS),
    )
