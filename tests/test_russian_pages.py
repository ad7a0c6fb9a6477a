"""Pages in Russian say in Russian what the app writes (issue 15): GURPS 4e terrains, element
rows and class codes, the loot a battle leaves; GURPS 3e Risk limits and reputation sources;
D&D 5e abilities, speeds, damage types and the SRD's attacks; Pathfinder conditions and
specialized armies. Everything on the demo campaigns (`make run`)."""

import pytest
from django.core.management import call_command
from django.urls import reverse
from django.utils import translation

from battles.models import Battle, BattleStatus
from kingdoms.demo import DEMO_CAMPAIGN
from kingdoms.models import Campaign

pytestmark = pytest.mark.django_db


@pytest.fixture
def demo(client):
    call_command("load_demo", stdout=open("/dev/null", "w"))  # noqa: SIM115
    client.login(username="gm", password="warfare-gm")
    client.cookies["django_language"] = "ru"
    return client


def _page(client, url) -> str:
    response = client.get(url)
    assert response.status_code == 200, url
    return response.content.decode()


def _board(system):
    return Battle.objects.get(system=system)


def test_gurps4e_terrains_are_russian(demo):
    """§A.3 terrains with their Terrain Rating (plains TR 8)."""
    battle = _board("gurps4e")
    page = _page(demo, reverse("battles:create", args=[battle.campaign_id]))
    assert ">равнины (КЛ 8)</option>" in page
    assert ">plains" not in page and "(TR " not in page


def test_gurps4e_element_rows_and_class_codes_are_russian(demo):
    from warfare.systems.gurps4e.models import Force

    force = Force.objects.filter(elements__element_type__classes__contains=["Art"]).first()
    page = _page(demo, reverse("gurps4e:force-detail", args=[force.campaign_id, force.pk]))
    assert "Тип элемента" in page and "Element type" not in page
    assert '<span class="badge" title="Артиллерия">Арт</span>' in page


def test_gurps4e_loot_shows_in_the_readers_language(demo):
    """§A.7.4: the loot of a battle applied in English reads in Russian on the force page;
    the app writes nothing into the GM's notes."""
    battle = _board("gurps4e")
    battle.status = BattleStatus.FINISHED
    battle.outcome = {"winner": "a", "details": {
        "sides": {"a": {"old_ts": "60", "new_ts": 55}, "b": {"old_ts": "50", "new_ts": 20,
                                                              "loot_value": 1200}},
        "loot": {"holder": "a", "minutes": 30}}}  # fmt: skip
    battle.save()
    demo.cookies["django_language"] = "en"
    response = demo.post(reverse("battles:apply", args=[battle.campaign_id, battle.pk]),
                         {"seq": battle.seq})  # fmt: skip
    assert response.status_code == 302
    from warfare.systems.gurps4e.models import Force

    victor = Force.objects.get(pk=battle.setup["sides"]["a"]["force_id"])
    assert "1200" not in victor.notes
    url = reverse("gurps4e:force-detail", args=[victor.campaign_id, victor.pk])
    english = _page(demo, url)
    assert f"{battle.name}: loot worth $1200 (30 minutes to gather)." in english
    demo.cookies["django_language"] = "ru"
    assert f"{battle.name}: трофеи на $1200 (сбор — 30 минут)." in _page(demo, url)


def test_gurps3e_risk_limits_and_reputation_sources_are_russian(demo):
    """§B.4 Risk limits (the demo's Gorsk is berserk); §B.6 a reputation from a Glory roll."""
    from warfare.systems.gurps3e.models import Character, Reputation

    page = _page(demo, _board("gurps3e").get_absolute_url())
    assert "берсерк" in page and "berserk" not in page
    character = Character.objects.filter(campaign=_board("gurps3e").campaign).first()
    Reputation.objects.create(character=character, value=2, expires=None, source="glory")
    url = reverse("gurps3e:character-detail", args=[character.campaign_id, character.pk])
    page = _page(demo, url)
    assert "(бросок Славы)" in page and "(glory)" not in page


def test_dnd5e_stat_blocks_are_russian(demo):
    """The SRD guard: walk 30, STR +1, a spear +3, 1d6+1 piercing, reach 5 ft, range 20/60."""
    battle = _board("dnd5e")
    page = _page(demo, reverse("dnd5e:creatures", args=[battle.campaign_id]))
    assert "ходьба 30" in page
    assert "СИЛ +1" in page and "STR" not in page
    assert "копьё +3, 1d6+1 колющий, досягаемость 5 фт, дистанция 20/60 фт" in page


def test_dnd5e_board_names_the_srd_attacks_in_russian(demo):
    """The demo's Scouts shoot their SRD longbows: the squares they may attack name the weapon
    in Russian, with the check (§5.3) before the click."""
    import re

    from battles import services as battle_services
    from warfare.systems.dnd5e.labels import SRD_ATTACK_LABELS

    battle = _board("dnd5e")
    scouts = next(unit["key"] for side in battle.setup["sides"] for unit in side["units"]
                  if unit["name"] == "Scouts")  # fmt: skip
    for _turn in range(12):  # the GM ends turns until the Scouts, archers, are to act
        if battle.snapshot["turn"]["actor"] == scouts:
            break
        battle, _events = battle_services.battle_act(
            user=battle.created_by, campaign_id=battle.campaign_id, battle_id=battle.pk,
            expected_seq=battle.seq,
            command={"actor": battle.snapshot["turn"]["actor"], "kind": "end_turn"},
        )  # fmt: skip
    stand = next(row["key"] for row in battle.snapshot["stands"] if row["unit"] == scouts)
    page = _page(demo, battle.get_absolute_url() + f"?sel={stand}")
    with translation.override("ru"):
        russian = {str(label) for label in SRD_ATTACK_LABELS.values()}
    named = set(re.findall(r'aria-label="Атака: ([^,"]+),', page))
    assert "длинный лук" in named and named <= russian
    assert re.search(r'aria-label="Атака: [^"]* [+-]\d+ против КД \d+', page)


def test_pathfinder_conditions_and_specialized_armies_are_russian(demo):
    """The GM's correction names conditions (§9) and the army form specialized armies (§3.4)
    in Russian, whatever language the server started in."""
    from battles import services as battle_services
    from warfare.systems.pf2e.models import Army

    campaign = Campaign.objects.get(name=DEMO_CAMPAIGN)
    armies = {}
    for army in Army.objects.filter(faction__campaign=campaign):
        armies.setdefault(army.faction_id, []).append(army.pk)
    sides = list(armies.values())
    with translation.override("en"):
        battle = battle_services.battle_create(
            user=campaign.memberships.get(role="gm").user, campaign_id=campaign.pk,
            name="Battle of the Ford", sides={"a": sides[0], "b": sides[1]},
        )  # fmt: skip
    page = _page(demo, battle.get_absolute_url())
    assert ">Плохо видимо</option>" in page and ">Concealed</option>" not in page
    faction = campaign.factions.first()
    page = _page(demo, reverse("pf2e:army-create", args=[campaign.pk, faction.pk]))
    assert "Воины Сажечешуи" in page and "Sootscale Warriors" not in page
