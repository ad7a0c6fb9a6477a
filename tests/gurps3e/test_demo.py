"""The demo loads a GURPS 3e campaign with a battle ready to play, once."""

import pytest

from battles.models import Battle
from kingdoms.demo import load_demo
from kingdoms.models import Campaign
from warfare.systems.gurps3e.demo import DEMO_3E_CAMPAIGN

pytestmark = pytest.mark.django_db


def test_demo_has_a_ready_3e_battle_and_loads_once():
    load_demo()
    load_demo()
    campaign = Campaign.objects.get(name=DEMO_3E_CAMPAIGN)
    battle = Battle.objects.get(campaign=campaign)
    assert battle.system == "gurps3e" and battle.seq == 0
    assert [pc["name"] for pc in battle.setup["pcs"]] == ["Mira the Bold", "Sir Edric", "Gorsk"]
    assert battle.setup["sides"][0]["defensive"] == [{"code": "narrow_passage", "value": 4}]
