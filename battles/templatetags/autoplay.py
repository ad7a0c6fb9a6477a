"""The board's auto-play panel and odds bar, one tag every rule system's board includes:

    {% load autoplay %}{% autoplay_panel %}

It reads `membership` and `battle` from the board's context. Costs no query (the last
auto-play's batch is on the battle row); the odds come from the cache.
"""

from django import template

from battles import autoplay, forecasting, services
from battles.models import BattleStatus
from battles.visibility import battle_view, viewpoint_of
from warfare.engine.battle.registry import get_battle_system

register = template.Library()


@register.inclusion_tag("battles/_autoplay.html", takes_context=True)
def autoplay_panel(context) -> dict:
    membership, battle = context.get("membership"), context.get("battle")
    if membership is None or battle is None:
        return {"show": False}
    data: dict = {"show": True, "battle": battle, "membership": membership,
                  "csrf_token": context.get("csrf_token")}  # fmt: skip
    active = battle.status == BattleStatus.ACTIVE
    if active and (membership.is_gm or battle.players_may_act):
        system = get_battle_system(battle.system)
        state = battle.engine_state()
        waiting = system.awaiting(state)
        mine = [w for w in waiting if services.may_command(membership, battle, w.actor)]
        data["may_autoplay"] = bool(mine)
        if membership.is_gm:
            names = battle_view(battle, viewpoint_of(membership, battle)).side_names
            data["sides"] = [(key, names.get(key, key)) for key in autoplay.battle_sides(battle)]
            data["auto_sides"] = [names.get(key, key) for key in battle.auto_sides]
    if membership.is_gm and battle.status != BattleStatus.APPLIED:
        data["undo_batch"] = battle.autoplay_batch is not None
    if forecasting.may_forecast(membership, battle):
        data["may_forecast"] = True
        last = forecasting.cached(battle)
        if last is not None:
            data["odds"] = forecasting.for_member(membership, battle, last["forecast"])
    return data
