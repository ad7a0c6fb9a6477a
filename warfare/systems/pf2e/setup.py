"""Setting a Pathfinder 2e battle up from the campaign's persistent armies (§7.1-7.5)."""

from collections.abc import Iterable, Mapping

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from battles.holds import refuse_held
from battles.models import Battle
from battles.services import battle_start
from kingdoms.access import access_campaign
from kingdoms.models import Controller, RuleSystem
from kingdoms.transactions import write_transaction
from warfare.systems.pf2e.mapping import army_state
from warfare.systems.pf2e.models import Army

from .board_problems import setup_problem_messages

SIDES = ("a", "b")
#: §7.3: the tactics that let an army choose its starting position (the engine then checks
#: the initiative order and the swamp); "near" needs none.
START_TACTICS = {"distant": ("opening_salvo",), "engaged": ("ambush", "swamp_charge")}


def battle_setup(
    *,
    armies_by_side: dict[str, list[Army]],
    pcs_side: str | None,
    terrain,
    fortifications: dict[str, str] | None = None,
    inside: Iterable[int] = (),
    starts: dict[int, tuple[str, int | None]] | None = None,
    initiative_dice: Mapping[int, int] | None = None,
    auto_reactions: Mapping[str, bool] | None = None,
) -> dict:
    """The engine setup of a battle between persistent armies (their current state).

    `fortifications`: {side: §7.5 kind} (one per side, key "fort_<side>"); `inside`: the ids
    of armies garrisoned inside their side's fortification (fortified, §7.5); `starts`: {army
    id: ("near", None) | ("distant", None) | ("engaged", enemy army id)}, starting positions
    of Opening Salvo, Ambush or Swamp Charge (§7.3) chosen in advance — the engine checks the
    tactic and the initiative order; an army with such a tactic and no start here is offered
    the choice after initiative (the setup's "offer_starts");
    `initiative_dice`: {army id: d20 of its §7.3 Scouting check rolled at the table} (the
    others are rolled by the server; both are logged, with their source);
    `auto_reactions`: {side: False} for a side whose reactions are offered to whoever
    commands its armies instead of used automatically (§0.5; default automatic)."""
    fortifications = {side: kind for side, kind in (fortifications or {}).items() if kind}
    inside, starts = set(inside), starts or {}
    sides = []
    for side in SIDES:
        armies = armies_by_side.get(side, [])
        entries = []
        for army in armies:
            entry = {
                "army": {**army_state(army).to_dict(), "key": str(army.pk)},
                "name": army.name,
                "faction": army.faction_id,
                "garrisoned": bool(army.garrison) or army.pk in inside,
                "initiative_bonus": army.initiative_bonus,
            }
            if army.pk in inside:
                entry["fortification"] = f"fort_{side}"
            if army.pk in starts:
                start, target = starts[army.pk]
                entry["start"] = start
                entry["start_target"] = str(target) if target is not None else None
            entries.append(entry)
        sides.append(
            {
                "key": side,
                "name": ", ".join(dict.fromkeys(army.faction.name for army in armies)),
                "pcs_side": side == pcs_side,
                "auto_reactions": bool((auto_reactions or {}).get(side, True)),
                "kingdom_level": armies[0].faction.kingdom.level if armies else None,
                "armies": entries,
            }
        )
    # Each typed die to the roll it was typed for, never to a reaction it triggers.
    setup = {"sides": sides, "terrain": list(terrain), "offer_starts": True,
             "typed_dice_by_roll": True}  # fmt: skip
    if fortifications:
        setup["fortifications"] = [
            {"key": f"fort_{side}", "kind": kind, "side": side}
            for side, kind in sorted(fortifications.items())
        ]
    if initiative_dice:
        setup["initiative_dice"] = {str(pk): die for pk, die in initiative_dice.items()}
    return setup


@write_transaction
def battle_create(
    *,
    user,
    campaign_id: int,
    name: str,
    sides: dict[str, list[int]],
    pcs_side: str | None = None,
    terrain: tuple[str, ...] = (),
    players_may_act: bool = True,
    fortifications: dict[str, str] | None = None,
    inside: Iterable[int] = (),
    starts: dict[int, tuple[str, int | None]] | None = None,
    initiative_dice: Mapping[int, int] | None = None,
    auto_reactions: Mapping[str, bool | None] | None = None,
    reveal_checks: bool = False,
) -> Battle:
    """The GM sets two sides of the campaign's armies against each other (§7.1-7.5), with a
    fortification per side and the armies garrisoned inside it, starting positions their
    tactics allow chosen in advance (the others are offered to whoever commands the army
    after initiative) and the initiative dice rolled at the table (see `battle_setup`).
    Bad input, or a setup the engine refuses, is a ValidationError with one message per
    problem; nothing is saved.

    `auto_reactions` {side: True (used automatically) | False (offered) | None}: how each
    side's reactions are taken (§0.5). None (the default) = offered when players act for
    their own armies and a players' faction fights on that side (they decide), automatic
    otherwise (the GM's armies: nobody has to stop and click).

    `reveal_checks`: players see the enemy's check modifiers and DCs (default: their own
    armies' modifiers and every check's degree, `battles.visibility`).

    Locks the campaign, then the armies (primary-key order); an army already on an
    unfinished board is refused, naming the battle (`battles.holds`)."""
    membership = access_campaign(user, campaign_id, gm=True, lock=True)
    campaign = membership.campaign
    if campaign.rule_system != RuleSystem.PF2E:
        raise ValidationError(_("Battles are available for Pathfinder campaigns so far."))
    if set(sides) - set(SIDES) or not all(sides.get(side) for side in SIDES):
        raise ValidationError(_("Put at least one army on each side."))
    everyone = [pk for side in SIDES for pk in sides[side]]
    if len(everyone) != len(set(everyone)):
        raise ValidationError(_("An army can fight on one side only."))
    wanted = set(everyone)
    armies = {
        army.pk: army
        for army in Army.objects.active()
        .filter(faction__campaign=campaign, pk__in=wanted)
        .select_related("faction__kingdom")
        .select_for_update(no_key=True, of=("self",))
        .order_by("pk")
    }
    if set(armies) != set(wanted):
        raise ValidationError(_("Only active armies of this campaign can fight."))
    refuse_held(campaign.pk, [armies[pk] for pk in everyone])
    by_side = {side: [armies[pk] for pk in sides[side]] for side in SIDES}
    inside = set(inside)
    side_of = {pk: side for side in SIDES for pk in sides[side]}
    fortifications = {side: kind for side, kind in (fortifications or {}).items() if kind}
    if any(side_of.get(pk) not in fortifications for pk in inside):
        raise ValidationError(_("Only armies of a side with a fortification can be inside it."))
    for pk, (start, target) in (starts or {}).items():
        if pk not in side_of:
            raise ValidationError(
                _("A starting position was chosen for an army that does not fight.")
            )
        if (start == "engaged") != (target is not None):
            raise ValidationError(_("An army starts distant, or engaged with an enemy army."))
        if target is not None and side_of.get(target) in (None, side_of[pk]):
            raise ValidationError(_("An army can start engaged only with an enemy army."))
        if start != "near" and not set(START_TACTICS.get(start, ())) & set(
            armies[pk].tactics or ()
        ):
            raise ValidationError(
                _("%(army)s knows no tactic that lets it start there.") % {"army": armies[pk].name}
            )
    initiative_dice = dict(initiative_dice or {})
    if any(pk not in side_of for pk in initiative_dice):
        raise ValidationError(_("An initiative die was typed in for an army that does not fight."))
    chosen = dict(auto_reactions or {})
    automatic = {
        side: chosen[side]
        if chosen.get(side) is not None
        else not (
            players_may_act
            and any(a.faction.controlled_by == Controller.PLAYERS for a in by_side[side])
        )
        for side in SIDES
    }
    setup = battle_setup(armies_by_side=by_side, pcs_side=pcs_side, terrain=terrain,
                         fortifications=fortifications, inside=inside, starts=starts,
                         initiative_dice=initiative_dice, auto_reactions=automatic)  # fmt: skip
    if reveal_checks:
        setup["reveal_checks"] = True
    names = {str(army.pk): army.name for army in armies.values()}
    kinds = {f"fort_{side}": kind for side, kind in fortifications.items()}
    battle = battle_start(
        user=user,
        campaign=campaign,
        name=name,
        setup=setup,
        players_may_act=players_may_act,
        problem_messages=lambda problems: setup_problem_messages(problems, names, kinds),
    )
    Army.objects.filter(pk__in=armies).update(initiative_bonus=0)
    return battle
