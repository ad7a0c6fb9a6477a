"""The D&D 5e board plugin (battles.plugins), registered when the battles app is ready."""

from battles.plugins import BoardPlugin, register

from . import board, views
from .texts import COMMAND_PROBLEMS, EVENT_TEXTS

PLUGIN = register(
    BoardPlugin(
        key="dnd5e",
        board_template="battles/dnd5e/board.html",
        board_context=board.board_context,
        create_view=views.create_view,
        api_create=views.api_create,
        api_create_input=views.create_input(),
        actor_factions=board.actor_factions,
        api_state=board.api_state,
        apply_results=board.apply_results,
        event_texts=EVENT_TEXTS,
        event_view=board.event_view,
        problem_texts=COMMAND_PROBLEMS,
        act_form=lambda data, battle: views.DndActForm(data),
        held_rows=board.held_rows,
    )
)
