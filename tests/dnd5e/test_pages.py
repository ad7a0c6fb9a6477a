"""D&D 5e creature library and army pages: the SRD library, stat blocks entered once
(dnd5e §4.1), armies of units and solos (§4.2, §4.4), who sees what, fixed query counts."""

import pytest
from django.urls import reverse

from warfare.systems.dnd5e.models import Army, Creature, Solo, Unit

pytestmark = pytest.mark.django_db


def _url(name, *args):
    return reverse(f"dnd5e:{name}", args=args)


def test_the_srd_library_loads_once_with_the_engine_numbers(client, gm, dnd_world):
    """§4.1 worked example: the SRD orc is AC 13, HP 15, walk 30 ft, greataxe +5 1d12+3."""
    orc = Creature.objects.get(campaign=dnd_world, key="orc")
    assert (orc.ac, orc.hp, orc.speeds, orc.abilities["dex"]) == (13, 15, {"walk": 30}, 1)
    assert orc.attacks[0] == {"key": "greataxe", "to_hit": 5, "damage": "1d12+3",
                              "damage_type": "slashing", "reach_ft": 5, "range_ft": None,
                              "long_ft": None, "count": 1}  # fmt: skip
    client.force_login(gm)
    assert client.post(_url("library-load", dnd_world.pk)).status_code == 302
    assert Creature.objects.filter(campaign=dnd_world).count() == 9  # nothing twice
    page = client.get(_url("creatures", dnd_world.pk)).content.decode()
    assert "greataxe +5, 1d12+3 slashing, reach 5 ft" in page


def test_gm_enters_a_stat_block_and_bad_attack_lines_are_a_400(client, gm, dnd_world):
    client.force_login(gm)
    url = _url("creatures", dnd_world.pk)
    data = {"name": "Bugbear", "size": "medium", "ac": 16, "hp": 27, "speeds_text": "walk 30",
            "saves_text": "", "str": 2, "dex": 2, "con": 1, "int": -1, "wis": 0, "cha": -1,
            "attacks_text": "Morningstar | +4 | 2d8+2 | piercing | 5 | -\n"
                            "Javelin | +4 | 2d6+2 | piercing | 5 | 30/120"}  # fmt: skip
    assert client.post(url, data).status_code == 302
    bugbear = Creature.objects.get(campaign=dnd_world, key="bugbear")
    assert bugbear.attacks[1]["range_ft"] == 30 and bugbear.attacks[1]["long_ft"] == 120
    assert bugbear.abilities == {"str": 2, "dex": 2, "con": 1, "int": -1, "wis": 0, "cha": -1}
    bad = client.post(url, {**data, "name": "Worg", "attacks_text": "Bite | +5 | two dice"})
    assert bad.status_code == 400
    assert "is not a dice expression" in bad.content.decode()
    clash = client.post(url, data)
    assert clash.status_code == 400 and "already has a creature with that key" in (
        clash.content.decode())  # fmt: skip


def test_gm_edits_a_stat_block_and_a_stale_form_is_a_409(client, gm, dnd_world):
    client.force_login(gm)
    orc = Creature.objects.get(campaign=dnd_world, key="orc")
    url = _url("creature-edit", dnd_world.pk, orc.pk)
    data = {"name": "Orc veteran", "size": "medium", "ac": 14, "hp": 20,
            "speeds_text": "walk 30", "saves_text": "con +5", "str": 3, "dex": 1, "con": 3,
            "int": -2, "wis": 0, "cha": 0, "attacks_text": "Greataxe | +5 | 1d12+3 | slashing",
            "version": orc.version}  # fmt: skip
    bad = client.post(url, {**data, "attacks_text": "Greataxe | +5 | 1d12+3 | slashing | - | -"})
    assert bad.status_code == 400  # neither reach nor range
    assert client.post(url, data).status_code == 302
    orc.refresh_from_db()
    assert (orc.key, orc.ac, orc.saves) == ("orc", 14, {"con": 5})
    assert client.post(url, data).status_code == 409


def test_players_read_the_library_but_only_the_gm_writes(client, player, dnd_world):
    client.force_login(player)
    page = client.get(_url("creatures", dnd_world.pk)).content.decode()
    assert "Hill Giant" in page and "New creature" not in page
    assert client.post(_url("creatures", dnd_world.pk), {"name": "x"}).status_code == 403
    assert client.post(_url("library-load", dnd_world.pk)).status_code == 403


def test_pages_are_404_in_a_campaign_of_another_rule_system(client, gm, world):
    client.force_login(gm)
    assert client.get(_url("creatures", world.pk)).status_code == 404
    assert client.get(_url("army-list", world.pk)).status_code == 404


def test_player_sees_own_army_in_full_and_the_enemys_name_only(client, player, wardens, horde):
    client.force_login(player)
    listing = client.get(_url("army-list", wardens.campaign_id)).content.decode()
    assert "Wardens" in listing and "Horde" in listing
    assert '<td class="num">4</td>' in listing  # the Wardens' 4 stands; the Horde's hidden
    own = client.get(_url("army-detail", wardens.campaign_id, wardens.pk)).content.decode()
    assert "Sir Aldric" in own and "Knights" in own and "Add a unit" not in own
    enemy = client.get(_url("army-detail", horde.campaign_id, horde.pk)).content.decode()
    assert "Orcs" not in enemy and "Only its own side and the GM know" in enemy


def test_an_army_of_a_hidden_faction_is_404_for_players(client, player, dnd_world,
                                                       hidden_faction):  # fmt: skip
    army = Army.objects.create(campaign=dnd_world, faction=hidden_faction, name="Shadows")
    client.force_login(player)
    assert client.get(_url("army-detail", dnd_world.pk, army.pk)).status_code == 404
    assert "Shadows" not in client.get(_url("army-list", dnd_world.pk)).content.decode()


def test_gm_builds_an_army_of_units_and_solos(client, gm, dnd_world, kingdom_faction):
    client.force_login(gm)
    response = client.post(_url("army-create", dnd_world.pk),
                           {"name": "Riders", "faction": kingdom_faction.pk})  # fmt: skip
    army = Army.objects.get(name="Riders")
    assert response.status_code == 302
    knight = Creature.objects.get(campaign=dnd_world, key="knight")
    giant = Creature.objects.get(campaign=dnd_world, key="hill_giant")
    add_solo = _url("solo-add", dnd_world.pk, army.pk)
    assert client.post(add_solo, {"solo-name": "Dame Wen", "solo-creature": knight.pk,
                                  "solo-pc": "on"}).status_code == 302  # fmt: skip
    solo = Solo.objects.get(army=army)
    assert solo.current_hp == 52 and solo.pc
    add_unit = _url("unit-add", dnd_world.pk, army.pk)
    data = {"unit-name": "Lances", "unit-kind": "regiment", "unit-configuration": "defend",
            "unit-creature": knight.pk, "unit-stands": 3, "unit-commander": solo.pk}  # fmt: skip
    assert client.post(add_unit, data).status_code == 302
    unit = Unit.objects.get(army=army)
    assert (unit.stands, unit.configuration, unit.commander) == (3, "defend", solo)
    no_stands = client.post(add_unit, {**data, "unit-stands": 0, "unit-commander": ""})
    assert no_stands.status_code == 400 and "greater than or equal to 1" in (
        no_stands.content.decode())  # fmt: skip
    # A solo commands one unit at most.
    assert client.post(add_unit, {**data, "unit-name": "More"}).status_code == 400
    skirmishers = {**data, "unit-name": "Giants", "unit-kind": "skirmisher",
                   "unit-creature": giant.pk, "unit-commander": ""}  # fmt: skip
    assert client.post(add_unit, skirmishers).status_code == 302
    assert Unit.objects.get(name="Giants").configuration == "march"
    page = client.get(_url("army-detail", dnd_world.pk, army.pk)).content.decode()
    assert "Lances" in page and "Dame Wen" in page and "52/52" in page


def test_army_pages_keep_a_fixed_query_count(client, gm, wardens, horde,
                                             django_assert_max_num_queries):  # fmt: skip
    client.force_login(gm)
    list_url = _url("army-list", wardens.campaign_id)
    detail_url = _url("army-detail", wardens.campaign_id, wardens.pk)

    def count(url):
        with django_assert_max_num_queries(20) as captured:
            assert client.get(url).status_code == 200
        return len(captured.captured_queries)

    few_list, few_detail = count(list_url), count(detail_url)
    orc = Creature.objects.get(campaign=wardens.campaign_id, key="orc")
    for n in range(3):
        Unit.objects.create(army=wardens, name=f"Extra {n}", creature=orc, stands=2)
        Solo.objects.create(army=horde, name=f"Hero {n}", creature=orc)
    assert count(list_url) == few_list
    assert count(detail_url) == few_detail


def test_gm_edits_a_unit(client, gm, player, wardens):
    knights = Unit.objects.get(army=wardens, name="Knights")
    url = _url("unit-edit", wardens.campaign_id, wardens.pk, knights.pk)
    client.force_login(player)
    assert client.get(url).status_code == 403
    client.force_login(gm)
    page = client.get(url).content.decode()
    assert "Sir Aldric" in page  # its own commander stays on offer
    data = {"unit-name": "Knights", "unit-kind": "regiment", "unit-configuration": "aid",
            "unit-creature": knights.creature_id, "unit-stands": 4,
            "unit-commander": knights.commander_id}  # fmt: skip
    assert client.post(url, data).status_code == 302
    knights.refresh_from_db()
    assert (knights.stands, knights.configuration) == (4, "aid")
    assert client.post(url, {**data, "unit-stands": 0}).status_code == 400


@pytest.mark.parametrize(
    ("language", "markers"),
    [("en", ("Creatures", "Battlefield", "Knights #1 · HP 52/52")),
     ("ru", ("Существа", "Поле боя", "Knights #1 · хиты 52/52"))],
)  # fmt: skip
def test_dnd5e_pages_render_in_both_languages(client, gm, dnd_battle, wardens, language,
                                              markers):  # fmt: skip
    from django.conf import settings

    client.force_login(gm)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    campaign = wardens.campaign_id
    knights = Unit.objects.get(name="Knights")
    pages = [
        _url("creatures", campaign), _url("army-list", campaign),
        _url("army-detail", campaign, wardens.pk), _url("army-edit", campaign, wardens.pk),
        _url("army-create", campaign), _url("unit-edit", campaign, wardens.pk, knights.pk),
        _url("creature-edit", campaign, knights.creature_id),
        reverse("battles:create", args=[campaign]), dnd_battle.get_absolute_url(),
        reverse("battles:report", args=[campaign, dnd_battle.pk]),
    ]  # fmt: skip
    html = ""
    for url in pages:
        response = client.get(url)
        assert response.status_code == 200, url
        assert f'<html lang="{language}">' in response.content.decode(), url
        html += response.content.decode()
    assert all(marker in html for marker in markers)


def test_library_and_set_up_pages_keep_a_fixed_query_count(
    client, gm, wardens, horde, django_assert_max_num_queries
):
    client.force_login(gm)
    urls = [_url("creatures", wardens.campaign_id),
            reverse("battles:create", args=[wardens.campaign_id])]  # fmt: skip

    def count(url):
        with django_assert_max_num_queries(12) as captured:
            assert client.get(url).status_code == 200
        return len(captured.captured_queries)

    few = [count(url) for url in urls]
    for n in range(3):
        Creature.objects.create(campaign_id=wardens.campaign_id, key=f"extra{n}",
                                name=f"Extra {n}", ac=10, hp=5)  # fmt: skip
        Army.objects.create(campaign_id=wardens.campaign_id, faction=horde.faction,
                            name=f"Band {n}")  # fmt: skip
    assert [count(url) for url in urls] == few
