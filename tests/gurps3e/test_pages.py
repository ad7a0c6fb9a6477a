"""GURPS 3e force and character pages: Troop Strength and Combat Skill with their working
(gurps §B.3, §B.3a), who may see and edit what, bad input, fixed query counts."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from warfare.systems.gurps3e.models import Character, Force, Reputation, TroopType, Unit

from .conftest import troop

pytestmark = pytest.mark.django_db


def _url(name, *args):
    return reverse(f"gurps3e:{name}", args=args)


def test_force_ts_is_men_times_ts_per_man(client, gm, host):
    """§B.3a: 100 × 4 + 50 × (3 + 1 missile/armour bonus) = 600."""
    client.force_login(gm)
    page = client.get(_url("force-detail", host.campaign_id, host.pk)).content.decode()
    assert "TS 600" in page
    assert '<td class="num">400</td>' in page and '<td class="num">200</td>' in page
    # Base Morale of a veteran unit is 15 (§B.8.3) when none is entered.
    assert '<td class="num">15</td>' in page


def test_racial_penalty_never_takes_a_man_below_ts_1(client, gm, host):
    """§B.3a: racial penalties cannot lower TS below 1; equipment comes after."""
    levy = troop(host.campaign, "levy", 1)
    Unit.objects.create(force=host, name="Halfling levy", troop_type=levy, men=20, racial=-1,
                        equipment=2)  # fmt: skip
    client.force_login(gm)
    page = client.get(_url("force-detail", host.campaign_id, host.pk)).content.decode()
    assert "TS 660" in page  # 600 + 20 × (max(1, 1 - 1) + 2) = 600 + 60


def test_player_sees_own_force_in_full_but_not_the_enemys(client, player, host, horde):
    client.force_login(player)
    own = client.get(_url("force-detail", host.campaign_id, host.pk)).content.decode()
    assert "TS 600" in own and "Add a unit" not in own
    enemy = client.get(_url("force-detail", horde.campaign_id, horde.pk)).content.decode()
    assert "TS 1000" not in enemy and "Raiders" not in enemy
    listing = client.get(_url("force-list", host.campaign_id)).content.decode()
    assert "Horde" in listing and ">1000<" not in listing and ">600<" in listing


def test_force_of_a_hidden_faction_is_404_for_players(client, player, g3_world, hidden_faction):
    force = Force.objects.create(campaign=g3_world, faction=hidden_faction, name="Shadows")
    client.force_login(player)
    assert client.get(_url("force-detail", g3_world.pk, force.pk)).status_code == 404
    assert "Shadows" not in client.get(_url("force-list", g3_world.pk)).content.decode()


def test_pages_are_404_in_a_campaign_of_another_rule_system(client, gm, world):
    client.force_login(gm)
    assert client.get(_url("force-list", world.pk)).status_code == 404
    assert client.get(_url("character-list", world.pk)).status_code == 404


def test_gm_creates_force_and_unit_and_bad_input_is_a_400(client, gm, g3_world, kingdom_faction):
    client.force_login(gm)
    url = _url("force-create", g3_world.pk)
    assert client.post(url, {"name": "", "faction": kingdom_faction.pk, "tl": 3}).status_code == 400
    assert (
        client.post(url, {"name": "Guard", "faction": kingdom_faction.pk, "tl": 17}).status_code
        == 400
    )
    assert (
        client.post(url, {"name": "Guard", "faction": kingdom_faction.pk, "tl": 4}).status_code
        == 302
    )
    force = Force.objects.get(name="Guard")
    spearmen = troop(g3_world, "spearmen", 3)
    unit = {"unit-name": "Spears", "unit-troop_type": spearmen.pk, "unit-men": 80,
            "unit-racial": 0, "unit-equipment": 0,
            "unit-armour": "light", "unit-quality": "average", "unit-battles": 0}  # fmt: skip
    add = _url("unit-add", g3_world.pk, force.pk)
    assert client.post(add, {**unit, "unit-men": 0}).status_code == 400
    assert client.post(add, {**unit, "unit-men": 501}).status_code == 400
    assert client.post(add, unit).status_code == 302
    assert force.units.get().men == 80


def test_character_combat_skill_working(client, player, aldric, brenna):
    """§B.3: (Tactics 13 + weapon 14) ÷ 2 = 13; untrained Tactics defaults to IQ − 6:
    (10 − 6 + 13) ÷ 2 = 8, rounded down."""
    client.force_login(player)
    page = client.get(_url("character-detail", aldric.campaign_id, aldric.pk)).content.decode()
    assert "(Tactics 13 + weapon skill 14) ÷ 2, rounded down" in page
    assert '<span class="big-number">13</span>' in page
    page = client.get(_url("character-detail", brenna.campaign_id, brenna.pk)).content.decode()
    assert "(IQ 10 − 6 (Tactics untrained) + weapon skill 13) ÷ 2" in page
    assert '<span class="big-number">8</span>' in page
    assert "−6…0" in page  # §B.4 berserk


def test_enemy_npc_sheet_and_gm_notes_are_hidden_from_players(client, player, grask):
    client.force_login(player)
    page = client.get(_url("character-detail", grask.campaign_id, grask.pk)).content.decode()
    assert "Grask" in page and "Combat Skill" not in page and "GM-SECRET" not in page
    assert client.get(_url("character-edit", grask.campaign_id, grask.pk)).status_code == 403


def test_player_edits_only_the_sheet_fields_of_their_own_character(client, player, aldric):
    client.force_login(player)
    url = _url("character-edit", aldric.campaign_id, aldric.pk)
    page = client.get(url).content.decode()
    assert 'name="weapon_skill"' in page and 'name="rank"' not in page and 'name="ht"' not in page
    data = {"name": "Aldric", "ht_max": 12, "iq": 11, "dr": 4, "toughness": 0, "luck": 1,
            "tactics": 13, "weapon_skill": 15, "version": aldric.version,
            "rank": 9, "ht": 1}  # fmt: skip
    assert client.post(url, data).status_code == 302
    aldric.refresh_from_db()
    assert (aldric.weapon_skill, aldric.dr, aldric.rank, aldric.ht) == (15, 4, 2, 12)
    # A form drawn from an older version is refused with the current values (409).
    assert client.post(url, {**data, "version": aldric.version - 1}).status_code == 409


def test_another_player_may_not_edit_someone_elses_character(client, other_player, aldric):
    client.force_login(other_player)
    url = _url("character-edit", aldric.campaign_id, aldric.pk)
    assert client.get(url).status_code == 403
    assert client.post(url, {"name": "X"}).status_code == 403


def test_gm_creates_character_with_limits_and_reputation(client, gm, g3_world, player):
    client.force_login(gm)
    data = {"name": "Cedric", "is_pc": "on", "owner": player.pk, "ht_max": 10, "ht": 10,
            "iq": 10, "dr": 0, "toughness": 0, "luck": 0, "weapon_skill": 12,
            "limits": ["coward"], "role": "trooper", "rank": 0, "status": "fit"}  # fmt: skip
    url = _url("character-create", g3_world.pk)
    assert client.post(url, {**data, "ht": 11}).status_code == 400  # above HT
    assert client.post(url, {**data, "limits": ["brave"]}).status_code == 400
    assert client.post(url, data).status_code == 302
    cedric = Character.objects.get(name="Cedric")
    assert cedric.limits == ["coward"] and cedric.owner == player
    add = _url("reputation-add", g3_world.pk, cedric.pk)
    assert (
        client.post(add, {"rep-value": 2, "rep-expires": 7, "rep-source": "glory"}).status_code
        == 302
    )
    assert client.post(add, {"rep-value": 99}).status_code == 400
    entry = Reputation.objects.get(character=cedric)
    remove = _url("reputation-remove", g3_world.pk, cedric.pk, entry.pk)
    assert client.post(remove).status_code == 302
    assert not Reputation.objects.filter(character=cedric).exists()


def test_list_pages_keep_a_fixed_query_count(client, gm, g3_world, host, horde, aldric, brenna):
    client.force_login(gm)

    def count(url):
        with CaptureQueriesContext(connection) as captured:
            assert client.get(url).status_code == 200
        return len(captured.captured_queries)

    forces, characters = _url("force-list", g3_world.pk), _url("character-list", g3_world.pk)
    before = (count(forces), count(characters))
    for index in range(3):
        force = Force.objects.create(campaign=g3_world, faction=host.faction, name=f"F{index}")
        Unit.objects.create(force=force, name="U", troop_type=troop(g3_world, f"t{index}", 1),
                            men=10)  # fmt: skip
        character = Character.objects.create(campaign=g3_world, name=f"C{index}")
        Reputation.objects.create(character=character, value=1)
    assert (count(forces), count(characters)) == before


def test_gm_edits_a_unit_after_the_battle(client, gm, player, host):
    """The GM writes replacements in: 100 pikes back to 120 men, 3 battles fought."""
    pikes = host.units.get(name="Pikes")
    url = _url("unit-edit", host.campaign_id, host.pk, pikes.pk)
    client.force_login(player)
    assert client.get(url).status_code == 403
    client.force_login(gm)
    assert client.get(url).status_code == 200
    data = {"unit-name": "Pikes", "unit-troop_type": pikes.troop_type_id, "unit-men": 120,
            "unit-racial": 0, "unit-equipment": 0,
            "unit-armour": "heavy", "unit-quality": "veteran", "unit-battles": 3}  # fmt: skip
    assert client.post(url, {**data, "unit-men": 0}).status_code == 400
    version = Force.objects.get(pk=host.pk).version
    assert client.post(url, data).status_code == 302
    pikes.refresh_from_db()
    assert (pikes.men, pikes.battles) == (120, 3)
    assert Force.objects.get(pk=host.pk).version == version + 1
    page = client.get(_url("force-detail", host.campaign_id, host.pk)).content.decode()
    assert "TS 680" in page  # 120 × 4 + 50 × 4


def test_campaign_and_faction_pages_link_the_3e_forces(client, player, g3_world, kingdom_faction):
    client.force_login(player)
    forces = _url("force-list", g3_world.pk)
    campaign = client.get(reverse("kingdoms:campaign-detail", args=[g3_world.pk])).content.decode()
    assert forces in campaign and _url("character-list", g3_world.pk) in campaign
    faction = reverse("kingdoms:faction-detail", args=[g3_world.pk, kingdom_faction.pk])
    assert forces in client.get(faction).content.decode()


def test_troop_types_set_the_ts_of_every_unit_of_the_type(client, gm, player, host, horde):
    """§B.3a: the GM enters a troop type's TS per man once; raising the heavy infantry from
    4 to 5 raises the Host from 600 to 700."""
    client.force_login(player)
    url = _url("troop-types", host.campaign_id)
    page = client.get(url).content.decode()
    assert "heavy infantry" in page and "New troop type" not in page
    assert client.post(url, {"name": "x", "ts_per_man": 1}).status_code == 403
    client.force_login(gm)
    assert client.post(url, {"name": "Heavy Infantry", "ts_per_man": 9}).status_code == 400
    assert client.post(url, {"name": "knights", "ts_per_man": ""}).status_code == 400
    assert client.post(url, {"name": "knights", "ts_per_man": 12}).status_code == 302
    heavy = TroopType.objects.get(name="heavy infantry")
    edit = _url("troop-type-edit", host.campaign_id, heavy.pk)
    assert client.post(edit, {"name": "heavy infantry", "ts_per_man": 5}).status_code == 302
    page = client.get(_url("force-detail", host.campaign_id, host.pk)).content.decode()
    assert "TS 700" in page
    # In use: refused with a message, nothing deleted; an unused type goes.
    delete = _url("troop-type-delete", host.campaign_id, heavy.pk)
    assert client.post(delete).status_code == 302
    assert TroopType.objects.filter(pk=heavy.pk).exists()
    knights = TroopType.objects.get(name="knights")
    assert client.post(_url("troop-type-delete", host.campaign_id, knights.pk)).status_code == 302
    assert not TroopType.objects.filter(pk=knights.pk).exists()


def test_a_unit_cannot_use_another_campaigns_troop_type(client, gm, host, other_gm):
    from kingdoms.models import Campaign

    other = troop(Campaign.objects.exclude(pk=host.campaign_id).get(), "aliens", 9)
    client.force_login(gm)
    unit = {"unit-name": "X", "unit-troop_type": other.pk, "unit-men": 10, "unit-racial": 0,
            "unit-equipment": 0, "unit-armour": "none", "unit-quality": "average",
            "unit-battles": 0}  # fmt: skip
    assert client.post(_url("unit-add", host.campaign_id, host.pk), unit).status_code == 400
