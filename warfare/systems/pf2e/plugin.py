"""The Pathfinder 2e board plugin (battles.plugins), registered when its app is ready."""

from django.utils.translation import gettext_lazy as _

from battles.plugins import BoardPlugin, register
from warfare.messages import problem_message

from . import board, board_api, board_views, log, report, results, visibility


def _board_context(membership, battle) -> dict:
    return board.board_context(membership=membership, battle=battle)


PLUGIN = register(
    BoardPlugin(
        key="pf2e",
        board_template="battles/board.html",
        board_context=_board_context,
        create_view=board_views.create_view,
        actor_factions=results.army_factions,
        api_state=board_api.api_state,
        api_state_output=board_api.Pf2eBattleStateOutput,
        api_create=board_api.api_create,
        api_create_input=board_api.BattleCreateInput,
        apply_results=board_views.apply_results,
        api_apply_input=board_api.BattleApplyInput,
        results_applied_text=_("The results are written to the armies and kingdoms."),
        event_line=log.event_text,
        silent_events=frozenset(log.SILENT),
        act_form=board_views.act_form,
        viewpoint=visibility.viewpoint,
        view=visibility.Pf2eView,
        report_context=report.report_context,
        held_rows=results.held_rows,
        problem_message=problem_message,
        # A command a reaction interrupts keeps the dice typed in with it for its own rolls
        # after the answer (each typed die goes to the roll it was typed for).
        refuse_unused_dice=False,
    )
)
