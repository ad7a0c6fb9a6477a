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

from . import board_fragments

register = template.Library()


#: The panel's template (`autoplay_panel`).
PANEL = "battles/_autoplay.html"


class _PanelNode(template.Node):
    """`{% autoplay_panel %}`: what an inclusion tag of `panel` and `PANEL` draws (the same
    new context, the CSRF token copied across), kept once per content as the board's
    fragments are (`board_fragments.drawn_template`): it stands outside them, so every render
    of a board draws it, and its URLs and words cost more than what it shows."""

    def render(self, context) -> str:
        loaded = context.template.engine.get_template(PANEL)
        new_context = context.new(panel(context))
        csrf_token = context.get("csrf_token")
        if csrf_token is not None:
            new_context["csrf_token"] = csrf_token
        return board_fragments.drawn_template(loaded, new_context)


@register.tag
def autoplay_panel(parser, token) -> _PanelNode:
    if len(token.split_contents()) != 1:
        raise template.TemplateSyntaxError("{% autoplay_panel %} takes no arguments")
    return _PanelNode()


def panel(context) -> dict:
    """The auto-play panel's values, from the board's `membership` and `battle`."""
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
