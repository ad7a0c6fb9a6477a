"""The GURPS Mass Combat 4e board plugin (imported by `battles.apps.BattlesConfig.ready`)."""

from battles.plugins import BoardPlugin, register

from . import board, views
from .forms import BattleCreateInput, GurpsActForm
from .log import EVENT_TEXTS
from .services import gurps4e_apply_results, held_rows
from .texts import PROBLEM_TEXTS

#: The API's create body in the OpenAPI schema (a component name apart from Pathfinder's).
CREATE_INPUT = type(
    "Gurps4eBattleCreateInput",
    (BattleCreateInput,),
    {"__doc__": "A GURPS Mass Combat 4e battle (gurps §A.3-A.5), as the set-up page asks it."},
)

PLUGIN = register(
    BoardPlugin(
        key="gurps4e",
        board_template="battles/gurps4e/board.html",
        board_context=board.board_context,
        create_view=views.create_view,
        actor_factions=board.actor_factions,
        api_state=board.api_state,
        api_create=views.api_create,
        api_create_input=CREATE_INPUT,
        apply_results=gurps4e_apply_results,
        event_texts=EVENT_TEXTS,
        may_command=board.may_command,
        act_form=lambda data, battle: GurpsActForm(data),
        event_view=views.event_view,
        report_context=views.report_context,
        problem_texts=PROBLEM_TEXTS,
        held_rows=held_rows,
    )
)
