"""The rule-system registry as the campaign file and the demo see it: each system registers
itself, and a system registered by a test joins both without a line of the core knowing."""

import copy

import pytest
from django.apps import apps
from django.core.management import call_command
from django.utils import translation

from kingdoms import portability, rulesystems
from kingdoms.demo import load_demo
from kingdoms.fileschema import Name, Row
from kingdoms.models import Campaign, RuleSystem
from kingdoms.portability import ImportRefused, campaign_export, campaign_import


@pytest.fixture(autouse=True)
def _english():
    """The messages below are the English ones (a page test before may leave Russian on)."""
    with translation.override("en"):
        yield


def test_the_four_systems_register_in_the_order_of_the_file():
    # (the test settings add a fifth, the toy system of tests/toysystem)
    plugins = [p for p in rulesystems.all() if p.key in RuleSystem.values]
    assert [p.key for p in plugins] == ["pf2e", "gurps4e", "gurps3e", "dnd5e"]
    assert all(p.has_battles and p.campaign_file and p.demo for p in plugins)
    assert [p.key for p in plugins if p.uses_command_staff] == ["gurps4e", "gurps3e"]
    assert rulesystems.get("dnd5e") is plugins[-1]
    assert rulesystems.get("chess") is None


class ChessSection(portability.SystemSection):
    """A test system's section: a list of named openings, each name once."""

    key = "chess"
    keys = ("chess",)
    optional = True  # files written before it was installed have no "chess"

    def empty(self):
        return {"chess": []}

    def fields(self):
        return {"chess": portability.system_rows(Row({"name": Name()}))}

    def export(self, campaign, context):
        return {"chess": [{"name": "Ruy Lopez"}]}, {}

    def check(self, document, context):
        portability.unique(document["chess"], "name", "chess")


@pytest.fixture
def chess():
    plugin = rulesystems.register(
        rulesystems.RuleSystemPlugin(key="chess", label="Chess", campaign_file=ChessSection())
    )
    yield plugin
    rulesystems.unregister("chess")


def test_a_registered_system_has_its_section_in_the_file(campaign, gm, chess):
    document = campaign_export(campaign)
    keys = list(document)
    assert keys.index("dnd5e") < keys.index("chess") < keys.index("battles")
    assert document["chess"] == [{"name": "Ruy Lopez"}]
    campaign_import(user=gm, data=copy.deepcopy(document))

    document["chess"].append({"name": "Ruy Lopez"})
    with pytest.raises(ImportRefused, match="chess\\[1\\]: “Ruy Lopez” appears twice"):
        campaign_import(user=gm, data=document)
    document["chess"] = [{"name": 3}]
    with pytest.raises(ImportRefused, match="chess\\[0\\].name: expected text"):
        campaign_import(user=gm, data=document)
    del document["chess"]  # written before the system was installed: an empty section
    assert campaign_import(user=gm, data=document).name == campaign.name


def test_without_the_system_its_section_is_an_unexpected_field(campaign, gm, chess):
    document = campaign_export(campaign)
    rulesystems.unregister("chess")
    with pytest.raises(ImportRefused, match="file: unexpected field “chess”"):
        campaign_import(user=gm, data=document)


def test_every_column_of_every_app_is_in_a_section_of_the_file():
    """Each row type a section owns (or the core) carries every column of its model, as a
    field of the file or a reference; and every model of those apps is owned by one of them
    (or is named as never exported): a new column or model must join the format."""
    owners = [portability.CORE_ROWS, *(s.owns for s in portability.sections())]
    owned = [model for rows in owners for model in rows]
    assert len(owned) == len(set(owned))
    for rows in owners:
        for model, (fields, references) in rows.items():
            columns = {f.name for f in model._meta.concrete_fields}
            assert columns == {"id", *fields, *references}, model.__name__
            assert not set(fields) & set(references), model.__name__
    labels = {model._meta.app_label for model in owned}
    assert {"kingdoms", "battles", "gurps4e", "gurps3e", "dnd5e"} <= labels
    for label in labels:
        for model in apps.get_app_config(label).get_models():
            assert model in owned or model in portability.NOT_EXPORTED, model.__name__


def test_every_bad_value_is_named_with_its_path(world, gm):
    """The serializers report each bad value of the file at once, each with its path."""
    document = campaign_export(world)
    document["campaign"]["version"] = True
    document["factions"][0]["known_to_players"] = "yes"
    del document["factions"][1]["description"]
    document["battles"] = "none"
    with pytest.raises(ImportRefused) as refused:
        campaign_import(user=gm, data=document)
    assert refused.value.messages == [
        "campaign.version: expected a whole number.",
        "factions[0].known_to_players: expected true or false.",
        "factions[1]: missing field “description”.",
        "battles: expected a list.",
    ]


def test_a_file_wrong_everywhere_is_answered_with_its_first_problems(campaign, gm):
    document = campaign_export(campaign)
    document["members"] = [{"username": n} for n in range(30)]
    with pytest.raises(ImportRefused) as refused:
        campaign_import(user=gm, data=document)
    messages = refused.value.messages
    assert len(messages) == portability.MAX_MESSAGES + 1
    assert messages[:2] == ["members[0].username: expected text.",
                            "members[0]: missing field “faction”."]  # fmt: skip
    assert messages[-1] == "… and 20 more problems."  # 10 entries of 4 problems are read


def test_the_demo_asks_every_system_once(db):
    results = load_demo()
    assert [r.campaign.rule_system for r in results] == ["pf2e", "gurps4e", "gurps3e", "dnd5e"]
    assert all(r.created for r in results)
    assert not any(r.created for r in load_demo())
    assert Campaign.objects.count() == 4
    call_command("load_demo", stdout=open("/dev/null", "w"))  # noqa: SIM115
    assert Campaign.objects.count() == 4
