"""The JSON API of auto-play and the forecast (issue 14), in the style of `battles.api`:

* ``POST …/battles/<id>/autoplay/`` {seq, until: turn | round | battle, sides: [a] | [b] |
  null}: the policies' commands applied one by one in one transaction (the GM, or a player
  for the actors they command); 409 on a stale seq with the board as it is now.
* ``POST …/battles/<id>/autoplay/undo/`` {seq}: the GM takes the last auto-play back at once.
* ``GET …/battles/<id>/forecast/?simulations=500&seed=0``: the odds from the board as it is
  (the GM's, or every member's once the GM shares the battle's forecasts).
* ``POST …/campaigns/<id>/battles/forecast/``: the odds of a set-up before the battle exists:
  the body of ``POST …/battles/`` (the campaign's rule system's), with `simulations` and
  `seed`; nothing is saved (the GM).
"""

from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from kingdoms.access import access_campaign
from warfare.api.base import DENIED, WRITE_ERRORS, ApiView

from . import autoplay, forecasting, services
from .api import (
    BattleApiView,
    BattleListApi,
    BattleStaleOutput,
    BattleStateOutput,
    SeqInput,
    _BattleStateField,
    _input,
    battle_state,
)


class AutoplayInput(SeqInput):
    until = serializers.ChoiceField(
        choices=list(autoplay.UNTIL),
        help_text="turn: this army's / unit's turn (GURPS: the round's choices); round: the "
        "rest of the round (GURPS 3e: the day); battle: to its end (at most "
        f"{autoplay.MAX_ROUNDS} rounds more).",
    )
    sides = serializers.ListField(
        child=serializers.ChoiceField(choices=list(autoplay.SIDE_KEYS)),
        required=False, allow_null=True, default=None, min_length=1, max_length=2,
        help_text="The sides to play for (null: both, and the GM's own steps for the GM). A "
        "player's auto-play plays only the actors they command and stops where the board "
        "waits for somebody else.",
    )  # fmt: skip


class AutoplayOutput(serializers.Serializer):
    played = serializers.IntegerField(help_text="How many commands it applied (each logged).")
    batch = serializers.UUIDField(help_text="Their batch: undo it at once with autoplay/undo/.")
    capped = serializers.BooleanField(help_text="It stopped at the rounds cap; the battle goes on.")
    battle = _BattleStateField()


class BattleAutoplayApi(BattleApiView):
    @extend_schema(
        tags=["battles"],
        request=AutoplayInput,
        responses={200: AutoplayOutput, **WRITE_ERRORS, 409: BattleStaleOutput},
    )
    def post(self, request: Request, campaign_id: int, battle_id: int) -> Response:
        """Auto-play this turn, resolve the round or resolve the battle: what the rule
        system's policy proposes, applied as ordinary commands one by one (every die in the
        log, undone one at a time or as a batch), in one transaction. Then the sides set to
        auto play their turns when reached."""
        self.battle(request, campaign_id, battle_id)
        data = _input(AutoplayInput, request)
        played = autoplay.battle_autoplay(
            user=request.user, campaign_id=campaign_id, battle_id=battle_id,
            expected_seq=data["seq"], until=data["until"], sides=data["sides"],
        )  # fmt: skip
        return Response({
            "played": played.count, "batch": str(played.batch), "capped": played.capped,
            "battle": battle_state(self.membership, played.battle),
        })  # fmt: skip


class BattleUndoAutoplayApi(BattleApiView):
    @extend_schema(
        tags=["battles"],
        request=SeqInput,
        responses={200: BattleStateOutput, **WRITE_ERRORS, 409: BattleStaleOutput},
    )
    def post(self, request: Request, campaign_id: int, battle_id: int) -> Response:
        """The GM takes the last auto-play back at once (its commands stay in the log, marked
        undone); `undo/` takes them back one at a time."""
        self.battle(request, campaign_id, battle_id, gm=True)
        data = _input(SeqInput, request)
        battle = autoplay.battle_undo_autoplay(
            user=request.user, campaign_id=campaign_id, battle_id=battle_id,
            expected_seq=data["seq"],
        )  # fmt: skip
        return Response(battle_state(self.membership, battle))


# --- forecast ---------------------------------------------------------------------------------


class _Interval(serializers.Serializer):
    low = serializers.FloatField()
    high = serializers.FloatField()


class _SideOdds(serializers.Serializer):
    side = serializers.CharField()
    name = serializers.CharField()
    win = serializers.FloatField(help_text="0..1")
    interval = _Interval(help_text="95 % Wilson interval of `win`.")
    loss = serializers.FloatField()
    loss_interval = _Interval()
    score = serializers.FloatField(allow_null=True, help_text="Mean VP (D&D 5e), else null.")


class _ForceOdds(serializers.Serializer):
    key = serializers.CharField()
    name = serializers.CharField()
    side = serializers.CharField()
    kind = serializers.CharField(help_text="army, force, unit, solo, pc…")
    measure = serializers.CharField(help_text="What start and left count: hp, ts, stands.")
    start = serializers.FloatField(
        allow_null=True, help_text="null for a force whose numbers the reader does not see."
    )
    left = serializers.FloatField(allow_null=True, help_text="The mean left at the end.")
    chances = serializers.DictField(
        child=serializers.FloatField(), help_text="{routed | destroyed | …: 0..1}"
    )
    values = serializers.DictField(
        child=serializers.FloatField(), help_text="Means of other numbers (casualties…)."
    )
    histogram = serializers.ListField(
        child=serializers.DictField(), help_text="[{low, high, count}]"
    )


class ForecastOutput(serializers.Serializer):
    """A forecast: `simulations` battles played to their end by the policies from the set-up
    or the board as it is; the same `seed` gives the same numbers."""

    system = serializers.CharField()
    simulations = serializers.IntegerField()
    seed = serializers.IntegerField()
    sides = _SideOdds(many=True)
    draw = serializers.FloatField()
    draw_interval = _Interval()
    unfinished = serializers.IntegerField(help_text="Still running after max_rounds (draws).")
    rounds = serializers.FloatField(help_text="The expected length, in `rounds_unit`.")
    rounds_unit = serializers.ChoiceField(choices=["rounds", "days"])
    max_rounds = serializers.IntegerField()
    lengths = serializers.ListField(
        child=serializers.DictField(), help_text="[{rounds, counts: {side | draw: n}}]"
    )
    forces = _ForceOdds(many=True)
    seq = serializers.IntegerField(
        allow_null=True, help_text="The board's seq it was run from (null: a set-up)."
    )


def forecast_body(job: forecasting.Job, sees=None) -> dict[str, Any]:
    """The finished forecast of `job` with names; `sees(force)`: whether the reader sees a
    force's numbers (their HP, TS… are null otherwise; None: all)."""
    result = job.step(None).to_dict()
    if sees is not None:
        result = forecasting.hide_unseen(result, sees)
    for odds in result["sides"]:
        odds["name"] = job.side_names.get(odds["side"], odds["side"])
    for force in result["forces"]:
        force["name"] = job.names.get(force["key"], force["key"])
    result["seq"] = job.seq
    return result


OPTIONS = [
    OpenApiParameter("simulations", OpenApiTypes.INT, description="1..2000 (default 500)."),
    OpenApiParameter("seed", OpenApiTypes.INT, description="The forecast seed (default 0)."),
]


class BattleForecastApi(BattleApiView):
    @extend_schema(tags=["battles"], parameters=OPTIONS,
                   responses={200: ForecastOutput, 400: WRITE_ERRORS[400], **DENIED})  # fmt: skip
    def get(self, request: Request, campaign_id: int, battle_id: int) -> Response:
        """The odds from the board as it is now, never touching it: the GM's (it reads every
        hidden number), or every member's once the GM shares the battle's forecasts."""
        battle = self.battle(request, campaign_id, battle_id)
        simulations, seed = forecasting.parse_options(request.query_params)
        job = forecasting.battle_job(self.membership, battle, simulations=simulations, seed=seed)
        _names, _sides, sees = forecasting.seen_by(self.membership, battle)
        return Response(forecast_body(job, sees))


class SetupForecastInput(serializers.Serializer):
    """The body of `POST …/battles/` (the campaign's rule system's set-up) with these two."""

    simulations = serializers.IntegerField(min_value=1, max_value=2000, required=False)
    seed = serializers.IntegerField(min_value=0, required=False)


class SetupForecastApi(ApiView):
    @extend_schema(tags=["battles"], request=SetupForecastInput,
                   responses={200: ForecastOutput, **WRITE_ERRORS})  # fmt: skip
    def post(self, request: Request, campaign_id: int) -> Response:
        """The odds of a set-up before the battle exists (the GM): the body of
        `POST …/battles/` for the campaign's rule system, with `simulations` and `seed`.
        The set-up is checked as for a real battle (400 with its problems); nothing is
        saved, no force is held."""
        membership = access_campaign(request.user, campaign_id, gm=True)
        if not isinstance(request.data, dict):
            raise ValidationError(_("Send a JSON object."))
        simulations, seed = forecasting.parse_options(request.data)
        create = BattleListApi()
        create.request, create.args, create.kwargs = request, (), {"campaign_id": campaign_id}
        create.format_kwarg = None
        try:
            with services.capturing_setup():
                create.post(request, campaign_id)
        except services.SetupCaptured as captured:
            job = forecasting.setup_job(membership, captured.campaign, captured.setup,
                                        simulations=simulations, seed=seed)  # fmt: skip
            return Response(forecast_body(job))
        raise AssertionError("the set-up saved a battle")  # pragma: no cover
