"""The GURPS Mass Combat 4e board plugin (imported by `battles.apps.BattlesConfig.ready`)."""

from rest_framework import serializers

from battles.plugins import BoardPlugin, register
from battles.schema import CheckOutput, state_output

from . import board, board_views
from .board_forms import BattleCreateInput, GurpsActForm
from .labels import PROBLEM_TEXTS
from .log import EVENT_TEXTS
from .results import gurps4e_apply_results, held_rows

#: The API's create body in the OpenAPI schema (a component name apart from Pathfinder's).
CREATE_INPUT = type(
    "Gurps4eBattleCreateInput",
    (BattleCreateInput,),
    {"__doc__": "A GURPS Mass Combat 4e battle (gurps §A.3-A.5), as the set-up page asks it."},
)


class Gurps4eTermOutput(serializers.Serializer):
    code = serializers.CharField()
    label = serializers.CharField()
    value = serializers.IntegerField()


class Gurps4eSideOutput(serializers.Serializer):
    """A side as the reader sees it; the numbers and the choice of a side they do not play
    (`full` false) are null (its BSM empty), the intelligence of it their side has listed."""

    key = serializers.CharField()
    name = serializers.CharField()
    faction = serializers.CharField()
    full = serializers.BooleanField()
    casualties = serializers.IntegerField(help_text="Casualties in % (gurps §A.6.3).")
    bar = serializers.IntegerField()
    pb = serializers.IntegerField(help_text="Position Bonus (§A.6.4).")
    confused = serializers.BooleanField()
    left = serializers.BooleanField()
    chosen = serializers.BooleanField(help_text="Its commander has chosen this round.")
    choice = serializers.CharField(allow_null=True)
    ts = serializers.CharField(allow_null=True, help_text="Troop Strength.")
    elements = serializers.IntegerField(allow_null=True)
    db = serializers.IntegerField(allow_null=True, help_text="Defense Bonus.")
    bsm = Gurps4eTermOutput(many=True, help_text="Battle Strength Modifiers, every addend.")
    bsm_total = serializers.IntegerField(allow_null=True)
    commander = serializers.CharField(allow_null=True)
    logistics = serializers.IntegerField(allow_null=True)
    intelligence = serializers.ListField(child=serializers.CharField())


class Gurps4eChecklistOutput(serializers.Serializer):
    text = serializers.CharField()
    done = serializers.BooleanField()


class Gurps4eOptionOutput(serializers.Serializer):
    params = serializers.DictField(help_text="Send these as `params` to take this option.")
    checks = CheckOutput(many=True)
    effects = serializers.ListField(child=serializers.CharField())


class Gurps4eActionOutput(serializers.Serializer):
    key = serializers.CharField(help_text="Send it as `kind`.")
    actor = serializers.CharField(help_text="Send it as `actor`.")
    optional_params = serializers.ListField(child=serializers.CharField())
    options = Gurps4eOptionOutput(many=True)


#: The API's battle state in the OpenAPI schema.
STATE_OUTPUT = state_output(
    "Gurps4eBattleStateOutput", "gurps4e",
    "A GURPS Mass Combat 4e battle's board as the reader sees it: the other side's secret "
    "choices and exact numbers left out.",
    round=serializers.IntegerField(),
    phase=serializers.CharField(),
    names=serializers.DictField(child=serializers.CharField(), help_text="{key: name}."),
    sides=Gurps4eSideOutput(many=True),
    checklist=Gurps4eChecklistOutput(many=True, help_text="Who still has to choose this round."),
    state=serializers.DictField(
        help_text="The engine's state as the reader may see it "
        "(`warfare.engine.systems.gurps4e.battle.engine.public_state`)."
    ),
    outcome=serializers.DictField(allow_null=True, help_text="The end (§A.7); null before."),
    may_act=serializers.BooleanField(),
    actions=Gurps4eActionOutput(many=True, help_text="What the reader may choose now."),
)  # fmt: skip

PLUGIN = register(
    BoardPlugin(
        key="gurps4e",
        board_template="battles/gurps4e/board.html",
        board_context=board.board_context,
        create_view=board_views.create_view,
        actor_factions=board.actor_factions,
        api_state=board.api_state,
        api_state_output=STATE_OUTPUT,
        api_create=board_views.api_create,
        api_create_input=CREATE_INPUT,
        apply_results=gurps4e_apply_results,
        event_texts=EVENT_TEXTS,
        may_command=board.may_command,
        act_form=lambda data, battle: GurpsActForm(data),
        viewpoint=board.viewpoint,
        view=board.Gurps4eView,
        report_context=board_views.report_context,
        problem_texts=PROBLEM_TEXTS,
        held_rows=held_rows,
    )
)
