"""The D&D 5e board plugin (battles.plugins), registered when the battles app is ready."""

from rest_framework import serializers

from battles.plugins import BoardPlugin, register
from battles.schema import state_output

from . import board, board_views
from .log import COMMAND_PROBLEMS, EVENT_TEXTS


def _objects(help_text: str = "") -> serializers.ListField:
    return serializers.ListField(child=serializers.DictField(), help_text=help_text)


class Dnd5eBoardOutput(serializers.Serializer):
    """The engine's board (`warfare.engine.systems.dnd5e.state.BattleState.to_dict()`); the
    pieces of a side the reader does not play have `hp`, `max_hp`, `stealth` (and a solo's
    death saves) null, an engine of theirs its `hp`."""

    grid = serializers.DictField(help_text="{width, height, squares: [{x, y, terrain, …}]}.")
    sides = serializers.ListField(child=serializers.CharField())
    units = _objects("key, side, kind, configuration, …")
    stands = _objects("key, unit, creature, pos, hp, …")
    solos = _objects("key, side, creature, pos, hp, …")
    objectives = _objects()
    engines = _objects("Siege engines (§8).")
    order = serializers.ListField(child=serializers.CharField(), help_text="Initiative order.")
    phase = serializers.CharField(help_text="deploy, round, casualties, draw or ended.")
    round = serializers.IntegerField()
    turn = serializers.DictField(allow_null=True, help_text="{actor, …}: whose turn it is.")
    vp = serializers.DictField(child=serializers.IntegerField(), help_text="{side: VP}.")
    pending = serializers.ListField(
        child=serializers.CharField(), help_text="In casualties: who still has to say done."
    )
    result = serializers.DictField(allow_null=True)


STATE_OUTPUT = state_output(
    "Dnd5eBattleStateOutput", "dnd5e",
    "A D&D 5e battle's board (When Armies Clash) as the reader sees it.",
    names=serializers.DictField(
        child=serializers.CharField(),
        help_text="{key: name} of the sides (side:a), units (u12), stands (u12.1), solos "
        "(s3) and objectives (objective:<key>).",
    ),
    state=Dnd5eBoardOutput(),
)  # fmt: skip

PLUGIN = register(
    BoardPlugin(
        key="dnd5e",
        board_template="battles/dnd5e/board.html",
        board_context=board.board_context,
        create_view=board_views.create_view,
        api_create=board_views.api_create,
        api_create_input=board_views.create_input(),
        actor_factions=board.actor_factions,
        api_state=board.api_state,
        api_state_output=STATE_OUTPUT,
        apply_results=board.apply_results,
        event_texts=EVENT_TEXTS,
        viewpoint=board.viewpoint,
        view=board.Dnd5eView,
        problem_texts=COMMAND_PROBLEMS,
        act_form=lambda data, battle: board_views.DndActForm(data),
        held_rows=board.held_rows,
    )
)
