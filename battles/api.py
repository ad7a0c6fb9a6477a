"""The battles' JSON API (mounted under /api/v1/ by warfare.api_urls), in the style of
warfare.api.base: an access helper, then a selector or a service, then an output shape.

A battle's state (the detail, and the answer of create, action, undo and apply) is one
envelope every rule system shares (`id`, `name`, `system`, `status`, `status_label`, `seq`,
`players_may_act`) around the board the system draws (`BoardPlugin.api_state`); the schema
documents it as one of every system's (`BattleStateOutput`, told apart by `system`). A
created battle answers 201 with its URL in `Location`.

Errors: a non-member 404, a member without the role 403 (anonymous 403 too), bad input or a
rule problem 400 `{"errors": [...]}` (nothing changed), a stale `seq` 409
`{"errors": [...], "battle": <the board as it is now>}`.

What a viewer sees is the board's, from the same viewpoint filter (battles.visibility): an
army's numbers (hp, max_hp, rout_threshold, shots, potions) only for the GM and the army's own
side — the keys are absent otherwise; the log drops the HP-revealing params and the enemy's
check numbers of the armies the viewer does not see in full. Legal actions are listed only to
a viewer who may act for the army whose turn it is.
"""

from typing import Any

import django_filters
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    PolymorphicProxySerializer,
    extend_schema,
    extend_schema_field,
    extend_schema_view,
)
from rest_framework import exceptions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from kingdoms.access import access_campaign
from kingdoms.models import Membership, RuleSystem
from warfare.api.base import DENIED, LIST_ERRORS, WRITE_ERRORS, ApiListView, ApiView
from warfare.api.filters import IntegerFilter
from warfare.engine.battle.registry import get_battle_system
from warfare.engine.systems.pf2e.battle.aftermath import CONDITION_CHOICES, DEFEAT
from warfare.engine.systems.pf2e.battle.rules import FORTIFICATIONS, TERRAIN
from warfare.engine.systems.pf2e.conditions import CONDITIONS
from warfare.systems.pf2e import labels

from . import selectors, services
from .models import Battle, BattleEvent, BattleStatus
from .plugins import create_inputs, plugin_for, state_outputs
from .schema import BattleEnvelopeOutput, CheckOutput, system_field
from .visibility import Pf2eView, live_events, member_view, viewpoint_of

# --- Output ---------------------------------------------------------------------------------


def envelope(battle: Battle) -> dict[str, Any]:
    """What every rule system's battle state has at its top level (`BattleEnvelopeOutput`)."""
    return {
        "id": battle.pk,
        "name": battle.name,
        "system": battle.system,
        "status": battle.status,
        "status_label": str(battle.get_status_display()),
        "seq": battle.seq,
        "players_may_act": battle.players_may_act,
    }


def battle_state(membership: Membership, battle: Battle) -> dict[str, Any]:
    """The board as `membership` sees it (plain JSON): the envelope, then the board drawn by
    the battle's rule system (`BattleStateOutput`, one of the systems')."""
    plugin = plugin_for(battle.system)
    board = plugin.api_state if plugin is not None else _pf2e_state
    return {**envelope(battle), **board(membership, battle)}


def _pf2e_state(membership: Membership, battle: Battle) -> dict[str, Any]:
    """A Pathfinder 2e battle's board (`Pf2eBattleStateOutput`)."""
    system = get_battle_system(battle.system)
    state = system.state_from_dict(battle.snapshot)
    view = Pf2eView(battle, viewpoint_of(membership, battle))
    names = view.names
    factions = services.army_factions(battle)
    current = state.current
    to_act = state.to_act  # the reacting or start-choosing army, else the one whose turn it is
    snapshot = {entry["key"]: entry for entry in battle.snapshot["armies"]}
    sides = []
    for side in battle.setup["sides"]:
        armies = []
        for setup_entry in side["armies"]:
            key = str(setup_entry["army"]["key"])
            armies.append(_army(key, snapshot[key], state, names, factions, view.sees(key)))
        sides.append(
            {
                "key": side["key"],
                "name": view.side_names[side["key"]],
                "pcs_side": bool(side.get("pcs_side")),
                "armies": armies,
            }
        )
    may_act = (
        battle.status == BattleStatus.ACTIVE
        and to_act is not None
        and services.may_command(membership, battle, to_act)
    )
    return {
        "terrain": list(battle.setup.get("terrain", ())),
        "round": state.round,
        "actions_left": state.actions_left,
        "current": {"key": current, "name": names.get(current, current)} if current else None,
        "order": [
            {"key": key, "name": names.get(key, key), "acting": key == current}
            for key in state.order
        ],
        "sides": sides,
        "outcome": view.outcome(),
        "may_act": may_act,
        "actions": _actions(system, state, to_act, view) if may_act else [],
        "reaction": _reaction(state, names),
        "start_choice": _start_choice(state, names),
    }


def _start_choice(state, names: dict[str, str]) -> dict[str, Any] | None:
    """The army choosing its starting position before round 1 (§7.3; None: none)."""
    if not state.positions:
        return None
    key = state.to_act
    return {"army": {"key": key, "name": names.get(key, key)}}


def _reaction(state, names: dict[str, str]) -> dict[str, Any] | None:
    """The reaction offered and waiting for its answer (None: none)."""
    pending = state.pending
    if pending is None:
        return None

    def named(key):
        return {"key": key, "name": names.get(key, key)} if key is not None else None

    return {
        "army": named(pending.army),
        "reaction": pending.reaction,
        "label": labels.war_action_name(pending.reaction),
        "trigger": pending.trigger,
        "by": named(pending.by),
        "target": named(pending.target),
    }


def _army(key: str, entry: dict, state, names, factions, full: bool) -> dict[str, Any]:
    battle_army = state.army(key)
    data: dict[str, Any] = {
        "key": key,
        "army_id": int(key) if key.isdigit() else None,
        "name": names.get(key, key),
        "faction": factions.get(key),
        "side": entry["side"],
        "position": entry.get("position", "near"),
        "position_label": str(
            selectors.POSITION_LABELS.get(entry.get("position", "near"), entry.get("position"))
        ),
        "conditions": {
            condition: value
            for condition, value in sorted(entry["army"]["spec"].get("conditions", {}).items())
            if condition in CONDITIONS
        },
        "effects": [
            {"condition": effect.condition, "value": effect.value}
            for effect in state.effects
            if effect.army == key and effect.condition in CONDITIONS
        ],
        "engaged_with": list(state.engaged_with(key)),
        "fortification": entry.get("fortification"),
        "acting": state.current == key,
        "out": battle_army.out_of_fight,
        "full": full,
    }
    if full:
        block = battle_army.army.block()
        data["hp"] = entry["army"]["hp"]
        data["max_hp"] = block.max_hp.value
        data["rout_threshold"] = block.rout_threshold.value if block.rout_threshold else None
        data["shots"] = entry.get("shots") if block.ranged is not None else None
        data["potions"] = entry["army"].get("potion_doses")
    return data


ANSWER_LABELS = {
    "use_reaction": gettext_lazy("Use the reaction"),
    "decline_reaction": gettext_lazy("Decline the reaction"),
    "choose_start": gettext_lazy("Choose the starting position"),
}


def _actions(system, state, current: str, view: Pf2eView) -> list[dict[str, Any]]:
    names = view.names
    actions = []
    for spec in system.legal_actions(state, current):
        if spec.key in ANSWER_LABELS:
            label = ANSWER_LABELS[spec.key]
        else:
            label = labels.war_action_name(spec.key) if spec.key != "end_turn" else _("End turn")
        actions.append(
            {
                "key": spec.key,
                "label": str(label),
                "actor": current,
                "cost": spec.cost,
                "traits": list(spec.traits),
                "optional_params": list(spec.optional_params),
                "options": [
                    {
                        "params": dict(option.params),
                        "target_name": names.get(option.params.get("target"))
                        if isinstance(option.params.get("target"), str)
                        else None,
                        "checks": [
                            {
                                **view.check_preview(check),
                                "stat_label": str(labels.STAT_LABELS.get(check.stat, check.stat)),
                            }
                            for check in option.checks
                        ],
                    }
                    for option in spec.options
                ],
            }
        )
    return actions


# --- Shapes (input, and output for the schema) -----------------------------------------------


class BattleListOutput(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    system = serializers.CharField()
    status = serializers.CharField()
    seq = serializers.IntegerField()
    created_at = serializers.DateTimeField()


class _Named(serializers.Serializer):
    key = serializers.CharField()
    name = serializers.CharField()


class _OrderEntry(_Named):
    acting = serializers.BooleanField()


class _Effect(serializers.Serializer):
    condition = serializers.CharField()
    value = serializers.IntegerField()


class BattleArmyOutput(serializers.Serializer):
    """An army on the board. `hp`, `max_hp`, `rout_threshold`, `shots` and `potions` only for
    the GM and the army's own side (`full`)."""

    key = serializers.CharField()
    army_id = serializers.IntegerField(allow_null=True)
    name = serializers.CharField()
    faction = serializers.IntegerField(allow_null=True)
    side = serializers.CharField()
    position = serializers.ChoiceField(choices=["near", "distant", "fled"])
    position_label = serializers.CharField()
    conditions = serializers.DictField(child=serializers.IntegerField())
    effects = _Effect(many=True)
    engaged_with = serializers.ListField(child=serializers.CharField())
    fortification = serializers.CharField(allow_null=True)
    acting = serializers.BooleanField()
    out = serializers.BooleanField()
    full = serializers.BooleanField()
    hp = serializers.IntegerField(required=False)
    max_hp = serializers.IntegerField(required=False)
    rout_threshold = serializers.IntegerField(required=False, allow_null=True)
    shots = serializers.IntegerField(required=False, allow_null=True)
    potions = serializers.IntegerField(required=False, allow_null=True)


class BattleSideOutput(serializers.Serializer):
    key = serializers.CharField()
    name = serializers.CharField()
    pcs_side = serializers.BooleanField()
    armies = BattleArmyOutput(many=True)


class CheckPreviewOutput(CheckOutput):
    stat_label = serializers.CharField()


class ActionOptionOutput(serializers.Serializer):
    params = serializers.DictField(help_text="Send these as `params` to take this option.")
    target_name = serializers.CharField(allow_null=True)
    checks = CheckPreviewOutput(many=True)


class LegalActionOutput(serializers.Serializer):
    key = serializers.CharField(help_text="Send it as `kind`.")
    label = serializers.CharField()
    actor = serializers.CharField(help_text="Send it as `actor`.")
    cost = serializers.IntegerField()
    traits = serializers.ListField(child=serializers.CharField())
    optional_params = serializers.ListField(child=serializers.CharField())
    options = ActionOptionOutput(many=True)


class Pf2eBattleStateOutput(BattleEnvelopeOutput):
    """A Pathfinder 2e battle's board as the reader sees it."""

    system = system_field("pf2e")
    terrain = serializers.ListField(child=serializers.CharField())
    round = serializers.IntegerField()
    actions_left = serializers.IntegerField()
    current = _Named(allow_null=True)
    order = _OrderEntry(many=True)
    sides = BattleSideOutput(many=True)
    outcome = serializers.DictField(
        allow_null=True,
        help_text="In full for the GM; players get the winner, rounds, destroyed, fled and "
        "their own side's kingdom check and XP.",
    )
    may_act = serializers.BooleanField()
    actions = LegalActionOutput(
        many=True,
        help_text="The legal actions, if the reader may act for the army the board waits for "
        "(the reacting army while a reaction is offered: use_reaction / decline_reaction; the "
        "army choosing its starting position before round 1: choose_start).",
    )
    reaction = serializers.DictField(
        allow_null=True,
        help_text="The reaction offered to its army's commander and waiting for the answer: "
        "army, reaction, label, trigger, by, target (None: none).",
    )
    start_choice = serializers.DictField(
        allow_null=True,
        help_text="Before round 1, the army whose commander chooses its starting position "
        "(§7.3): {army: {key, name}}; its `choose_start` actions are the options (None: none).",
    )


#: A battle's state in the schema: one of every rule system's, told apart by `system`.
BattleStateOutput = PolymorphicProxySerializer(
    component_name="BattleStateOutput",
    serializers=lambda: {"pf2e": Pf2eBattleStateOutput, **state_outputs()},
    resource_type_field_name="system",
)


@extend_schema_field(BattleStateOutput)
class _BattleStateField(serializers.DictField):
    """A battle's state inside another answer."""


class BattleStaleOutput(serializers.Serializer):
    """The board changed since the `seq` sent: here it is now; nothing changed."""

    errors = serializers.ListField(child=serializers.CharField())
    battle = _BattleStateField()


class BattleEventOutput(serializers.Serializer):
    id = serializers.IntegerField()
    round = serializers.IntegerField()
    code = serializers.CharField()
    params = serializers.DictField(
        help_text="Dice and degrees are public; the HP left, potion doses, the GM's "
        "corrections and (unless the battle's `reveal_checks`) the check modifiers, totals and "
        "DCs of armies the reader does not see in full are left out."
    )
    text = serializers.CharField()


class _SidesInput(serializers.Serializer):
    a = serializers.ListField(child=serializers.IntegerField(min_value=1), max_length=50)
    b = serializers.ListField(child=serializers.IntegerField(min_value=1), max_length=50)


#: The largest database id (a 64-bit key): a bigger "army id" is bad input, not a query.
MAX_ID = 2**63 - 1


def _army_ids(mapping: dict) -> dict[int, Any]:
    """`mapping` keyed by army ids as JSON object keys ("12") -> keyed by int."""
    ids = {}
    for key, value in mapping.items():
        text = str(key)
        if not text.isascii() or not text.isdigit() or not 1 <= int(text) <= MAX_ID:
            raise serializers.ValidationError(_("%(key)s is not an army id.") % {"key": text[:40]})
        ids[int(text)] = value
    return ids


class _StartInput(serializers.Serializer):
    start = serializers.ChoiceField(
        choices=["near", "distant", "engaged"],
        help_text="near, distant (Opening Salvo) or engaged with `target` (Ambush, Swamp Charge).",
    )
    target = serializers.IntegerField(
        min_value=1, max_value=MAX_ID, required=False, allow_null=True, default=None,
        help_text="The enemy army id it starts engaged with (only with `engaged`).",
    )  # fmt: skip

    def validate(self, data):
        if (data["start"] == "engaged") != (data["target"] is not None):
            raise serializers.ValidationError(
                _("An army starts distant, or engaged with an enemy army.")
            )
        return data


class BattleCreateInput(serializers.Serializer):
    """Everything the set-up form asks (§7.1-§7.5, §7.7). The armies named in `inside`,
    `starts` and `initiative_dice` must fight on a side (the service checks it)."""

    name = serializers.CharField(max_length=120)
    sides = _SidesInput(help_text="Army ids on each side.")
    pcs_side = serializers.ChoiceField(
        choices=["a", "b"], required=False, allow_null=True, allow_blank=True, default=None,
        help_text="The side the PCs fight alongside (+1 status to its Morale checks, §7.7).",
    )  # fmt: skip
    terrain = serializers.ListField(
        child=serializers.ChoiceField(choices=list(TERRAIN)), required=False, default=list,
        max_length=len(TERRAIN), help_text="Terrain and weather features (§7.4).",
    )  # fmt: skip
    players_may_act = serializers.BooleanField(required=False, default=True)
    reveal_checks = serializers.BooleanField(
        required=False, default=False,
        help_text="Players see the enemy's check modifiers and DCs (on the board's actions "
        "and in the log); default: only their own armies' modifiers and every check's degree.",
    )  # fmt: skip
    fortifications = serializers.DictField(
        child=serializers.ChoiceField(choices=list(FORTIFICATIONS), allow_null=True),
        required=False, default=dict,
        help_text="{side (a, b): kind} a fortification per side (§7.5); absent or null: none.",
    )  # fmt: skip
    inside = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=MAX_ID), required=False,
        default=list, max_length=100,
        help_text="Army ids inside their side's fortification (garrisoned: fortified, §7.5).",
    )  # fmt: skip
    starts = serializers.DictField(
        child=_StartInput(), required=False, default=dict,
        help_text="{army id: starting position} chosen in advance for armies with Opening "
        "Salvo, Ambush or Swamp Charge (§7.3). The others that may choose (by the initiative "
        "order and the terrain) are asked after initiative: `start_choice` on the board, "
        "`choose_start` actions. A start the initiative order does not allow is refused in "
        "the log (`battle.start_refused`).",
    )  # fmt: skip
    initiative_dice = serializers.DictField(
        child=serializers.IntegerField(min_value=1, max_value=20), required=False,
        default=dict,
        help_text="{army id: d20} initiative dice rolled at the table (§7.3 Scouting); the "
        "server rolls for the others. Logged with source `typed`.",
    )  # fmt: skip
    auto_reactions = serializers.DictField(
        child=serializers.BooleanField(allow_null=True), required=False, default=dict,
        help_text="{side (a, b): true (reactions used automatically) | false (offered to "
        "whoever commands the reacting army) | null (default: offered to a players' "
        "faction's side when players act, automatic otherwise)} (§0.5).",
    )  # fmt: skip

    def validate_auto_reactions(self, chosen):
        if set(chosen) - {"a", "b"}:
            raise serializers.ValidationError(_("Sides are a and b."))
        return chosen

    def validate_sides(self, sides):
        armies = [*sides["a"], *sides["b"]]
        if len(armies) != len(set(armies)):
            raise serializers.ValidationError(_("An army can fight on one side only, once."))
        return sides

    def validate_fortifications(self, fortifications):
        if set(fortifications) - {"a", "b"}:
            raise serializers.ValidationError(_("The sides are a and b."))
        return {side: kind for side, kind in fortifications.items() if kind}

    def validate_starts(self, starts):
        return {pk: (start["start"], start["target"]) for pk, start in _army_ids(starts).items()}

    def validate_initiative_dice(self, dice):
        return _army_ids(dice)


class BattleActionInput(serializers.Serializer):
    seq = serializers.IntegerField(min_value=0, help_text="The board's `seq` as you saw it.")
    actor = serializers.CharField(
        max_length=40, required=False, allow_null=True, default=None,
        help_text="The army key acting (null for a GM correction).",
    )  # fmt: skip
    kind = serializers.CharField(max_length=40, help_text="A legal action's `key`.")
    params = serializers.DictField(required=False, default=dict)
    typed_dice = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=100),
        required=False, allow_null=True, default=None, max_length=20,
        help_text="Dice rolled at the table, used before any server die.",
    )  # fmt: skip


class SeqInput(serializers.Serializer):
    seq = serializers.IntegerField(min_value=0, help_text="The board's `seq` as you saw it.")


class _KingdomDiceInput(serializers.Serializer):
    d20 = serializers.IntegerField(
        min_value=1, max_value=20, required=False, allow_null=True, default=None,
        help_text="The d20 of the kingdom check; null: the server rolls.",
    )  # fmt: skip
    d4 = serializers.IntegerField(
        min_value=1, max_value=4, required=False, allow_null=True, default=None,
        help_text="On a defeat: the d4 of Unrest on a critical failure.",
    )  # fmt: skip


class BattleApplyInput(SeqInput):
    """The apply form's choices (§7.6, §7.7), keyed by the side keys (`a`, `b`) of the sides
    that roll the kingdom check (their armies all belong to one kingdom) and by army keys.
    All optional: the server rolls, nobody fought the PCs' fight, everyone gets weary."""

    pc_encounter = serializers.DictField(
        child=serializers.ChoiceField(choices=["won", "lost"], allow_null=True),
        required=False, default=dict,
        help_text="{side: won | lost | null} the PCs' own fight (§7.7): won improves the "
        "kingdom check one degree, lost worsens it.",
    )  # fmt: skip
    typed_dice = serializers.DictField(
        child=_KingdomDiceInput(), required=False, default=dict,
        help_text="{side: {d20, d4}} dice rolled at the table.",
    )  # fmt: skip
    choices = serializers.DictField(
        child=serializers.ChoiceField(choices=list(CONDITION_CHOICES)), required=False,
        default=dict,
        help_text="{army key: weary | shaken} the players' choice for each army the check "
        "afflicts (default weary).",
    )  # fmt: skip
    regain = serializers.DictField(
        child=serializers.CharField(max_length=40, allow_null=True), required=False,
        default=dict,
        help_text="On a defeat, {side: army key} the damaged army that regains 1 HP (null: "
        "the one with the fewest HP).",
    )  # fmt: skip


def apply_problems(data: dict[str, Any], sides: list[dict]) -> list[str]:
    """What in `data` (a `BattleApplyInput`) the apply form would not offer for `sides`
    (`selectors.aftermath_sides`)."""
    by_key = {side["key"]: side for side in sides}
    errors = []
    for name in ("pc_encounter", "typed_dice", "regain"):
        for key in data[name]:
            if key not in by_key:
                errors.append(_("Side %(side)s rolls no kingdom check.") % {"side": key[:40]})
    for key, dice in data["typed_dice"].items():
        if key in by_key and dice["d4"] is not None and by_key[key]["result"] != DEFEAT:
            errors.append(_("A d4 is rolled only by a side that lost."))
    for key, army in data["regain"].items():
        side = by_key.get(key)
        if side is None or army is None:
            continue
        if side["result"] != DEFEAT or army not in dict(side["regain"]):
            errors.append(_("Only a damaged army of a side that lost regains 1 HP."))
    choosers = {army for side in sides for army, _name in side["choosers"]}
    for army in data["choices"]:
        if army not in choosers:
            errors.append(_("%(army)s has no choice of weary or shaken.") % {"army": army[:40]})
    return list(dict.fromkeys(errors))


class BattleFilter(django_filters.FilterSet):
    status = django_filters.ChoiceFilter(choices=BattleStatus.choices)

    class Meta:
        model = Battle
        fields = ["status"]


class BattleEventFilter(django_filters.FilterSet):
    after = IntegerFilter(
        field_name="pk", lookup_expr="gt", min_value=0,
        help_text="Only events after this event id (poll for news).",
    )  # fmt: skip
    round = IntegerFilter(min_value=1, max_value=2**31 - 1)

    class Meta:
        model = BattleEvent
        fields = ["after", "round"]


# --- Views ----------------------------------------------------------------------------------


def _input(serializer_class, request: Request) -> dict[str, Any]:
    if not isinstance(request.data, dict):
        raise exceptions.ParseError(_("Send a JSON object."))
    serializer = serializer_class(data=request.data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


class _StaleBoard:
    """A stale `seq`: 409 with the board as it is now, for this reader."""

    membership: Membership | None = None

    def handle_exception(self, exc):
        if isinstance(exc, services.StaleBoard) and self.membership is not None:
            body = {
                "errors": [_("The board changed meanwhile: here it is now.")],
                "battle": battle_state(self.membership, exc.battle),
            }
            return Response(body, status=status.HTTP_409_CONFLICT)
        return super().handle_exception(exc)


class BattleApiView(_StaleBoard, ApiView):
    def battle(self, request: Request, campaign_id: int, battle_id: int, *, gm=False) -> Battle:
        self.membership = access_campaign(request.user, campaign_id, gm=gm)
        return get_object_or_404(Battle, campaign=self.membership.campaign, pk=battle_id)


#: The 201 of a created battle names its URL (the battle's state: GET it again, poll it).
CREATED_LOCATION = OpenApiParameter(
    "Location", OpenApiTypes.URI, OpenApiParameter.HEADER, required=True, response=[201],
    description="The new battle's URL in the API (`GET` it for its state).",
)  # fmt: skip


class BattleListApi(ApiListView):
    queryset = Battle.objects.none()
    filterset_class = BattleFilter

    @extend_schema(tags=["battles"], responses={200: BattleListOutput(many=True), **LIST_ERRORS})
    def get(self, request: Request, campaign_id: int) -> Response:
        """The campaign's battles, newest first (any member)."""
        membership = access_campaign(request.user, campaign_id)
        battles = self.page(selectors.battle_list(membership=membership))
        return self.get_paginated_response(BattleListOutput(battles, many=True).data)

    @extend_schema(
        tags=["battles"],
        request=PolymorphicProxySerializer(
            component_name="BattleCreateBody",
            serializers=lambda: [BattleCreateInput, *create_inputs()],
            resource_type_field_name=None,
        ),
        responses={201: BattleStateOutput, **WRITE_ERRORS},
        parameters=[CREATED_LOCATION],
    )
    def post(self, request: Request, campaign_id: int) -> Response:
        """The GM sets forces of the campaign against each other; initiative is rolled at
        once. The body is the campaign's rule system's (one of the schemas): Pathfinder
        2e `BattleCreateInput`, D&D 5e `Dnd5eBattleCreateInput`, GURPS 4e
        `Gurps4eBattleCreateInput`, GURPS 3e `Gurps3eBattleCreateInput`; a campaign whose
        system has no board is a 404."""
        membership = access_campaign(request.user, campaign_id, gm=True)
        plugin = plugin_for(membership.campaign.rule_system)
        if plugin is not None and plugin.api_create is not None:
            battle = plugin.api_create(request.user, campaign_id, request.data)
        elif membership.campaign.rule_system == RuleSystem.PF2E:
            battle = self._create_pf2e(request, campaign_id)
        else:
            raise Http404
        location = reverse("api:battle-detail", args=[campaign_id, battle.pk])
        return Response(
            battle_state(membership, battle),
            status=status.HTTP_201_CREATED,
            headers={"Location": request.build_absolute_uri(location)},
        )

    def _create_pf2e(self, request: Request, campaign_id: int) -> Battle:
        data = _input(BattleCreateInput, request)
        return services.battle_create(
            user=request.user,
            campaign_id=campaign_id,
            name=data["name"],
            sides={"a": data["sides"]["a"], "b": data["sides"]["b"]},
            pcs_side=data["pcs_side"] or None,
            terrain=tuple(data["terrain"]),
            players_may_act=data["players_may_act"],
            reveal_checks=data["reveal_checks"],
            fortifications=data["fortifications"],
            inside=data["inside"],
            starts=data["starts"],
            initiative_dice=data["initiative_dice"],
            auto_reactions=data["auto_reactions"],
        )


class BattleDetailApi(BattleApiView):
    @extend_schema(tags=["battles"], responses={200: BattleStateOutput, **DENIED})
    def get(self, request: Request, campaign_id: int, battle_id: int) -> Response:
        """The board as I see it, with my legal actions when it is my army's turn."""
        battle = self.battle(request, campaign_id, battle_id)
        return Response(battle_state(self.membership, battle))


class BattleLogApi(ApiListView):
    queryset = BattleEvent.objects.none()
    filterset_class = BattleEventFilter

    @extend_schema(tags=["battles"], responses={200: BattleEventOutput(many=True), **LIST_ERRORS})
    def get(self, request: Request, campaign_id: int, battle_id: int) -> Response:
        """The battle's events, oldest first (undone actions left out), each with its
        sentence. Enemy HP, potion doses and the GM's corrections of armies I don't see in
        full are left out of their params and texts."""
        membership = access_campaign(request.user, campaign_id)
        battle = get_object_or_404(Battle, campaign=membership.campaign, pk=battle_id)
        view = member_view(membership, battle)
        data = []
        for event in self.page(live_events(battle)):
            params, text = view.event(event.code, event.params)
            data.append(
                {"id": event.pk, "round": event.round, "code": event.code, "params": params,
                 "text": text}
            )  # fmt: skip
        return self.get_paginated_response(data)


class BattleActionApi(BattleApiView):
    @extend_schema(
        tags=["battles"],
        request=BattleActionInput,
        responses={200: BattleStateOutput, **WRITE_ERRORS, 409: BattleStaleOutput},
    )
    def post(self, request: Request, campaign_id: int, battle_id: int) -> Response:
        """Take one action on the board (a war action, the end of a turn; the GM's
        `gm_correction`). Players act only for their own armies, if the battle lets them."""
        self.battle(request, campaign_id, battle_id)
        data = _input(BattleActionInput, request)
        battle, _events = services.battle_act(
            user=request.user,
            campaign_id=campaign_id,
            battle_id=battle_id,
            expected_seq=data["seq"],
            command={
                "actor": data["actor"],
                "kind": data["kind"],
                "params": data["params"],
                "typed_dice": data["typed_dice"],
            },
        )
        return Response(battle_state(self.membership, battle))


class _BattleGmWriteApi(BattleApiView):
    """A GM's board-wide write: the seq the client saw (`input_class`, a `SeqInput`), and
    whatever else `arguments` makes of the input for the service."""

    service = None  # a battles.services function taking user, ids and expected_seq
    input_class = SeqInput

    def arguments(self, battle: Battle, data: dict[str, Any]) -> dict[str, Any]:
        return {}

    def post(self, request: Request, campaign_id: int, battle_id: int) -> Response:
        battle = self.battle(request, campaign_id, battle_id, gm=True)
        data = _input(self.input_class, request)
        battle = type(self).service(
            user=request.user, campaign_id=campaign_id, battle_id=battle_id,
            expected_seq=data["seq"], **self.arguments(battle, data),
        )  # fmt: skip
        return Response(battle_state(self.membership, battle))


_GM_WRITE_SCHEMA = {
    "tags": ["battles"],
    "responses": {200: BattleStateOutput, **WRITE_ERRORS, 409: BattleStaleOutput},
}


@extend_schema_view(post=extend_schema(
    description="The GM takes back the last action (it stays in the log, marked undone), "
    "with the end of turn the board took by itself after it (Pathfinder: no action left).",
    request=SeqInput, **_GM_WRITE_SCHEMA))  # fmt: skip
class BattleUndoApi(_BattleGmWriteApi):
    service = staticmethod(services.battle_undo)


@extend_schema_view(post=extend_schema(
    description="The GM writes a finished battle's results to the armies and kingdoms: each "
    "side's §7.6 kingdom check (with the PCs' own fight, §7.7, dice typed in, the players' "
    "weary-or-shaken choices), the armies as the board left them, the XP. The choices are "
    "those the board's apply form offers; anything else is a 400.",
    request=BattleApplyInput, **_GM_WRITE_SCHEMA))  # fmt: skip
class BattleApplyApi(_BattleGmWriteApi):
    service = staticmethod(services.battle_apply_results)
    input_class = BattleApplyInput

    def post(self, request: Request, campaign_id: int, battle_id: int) -> Response:
        battle = self.battle(request, campaign_id, battle_id, gm=True)
        plugin = plugin_for(battle.system)
        if plugin is None or plugin.apply_results is None:
            return super().post(request, campaign_id, battle_id)
        data = _input(SeqInput, request)
        battle = plugin.apply_results(
            user=request.user, campaign_id=campaign_id, battle_id=battle_id,
            expected_seq=data["seq"], data=request.data,
        )  # fmt: skip
        return Response(battle_state(self.membership, battle))

    def arguments(self, battle: Battle, data: dict[str, Any]) -> dict[str, Any]:
        # Checked against the battle as read; a changed one is the service's 409 or 400.
        if battle.status == BattleStatus.FINISHED and battle.seq == data["seq"]:
            errors = apply_problems(data, selectors.aftermath_sides(battle))
            if errors:
                raise exceptions.ValidationError(errors)
        return {
            "pc_encounter": data["pc_encounter"],
            "choices": data["choices"],
            "regain": data["regain"],
            "typed_dice": {
                side: (dice["d20"], dice["d4"]) for side, dice in data["typed_dice"].items()
            },
        }
