"""Army activities through the service and the page (§4): dice typed in for exact outcomes."""

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse

from warfare.systems.pf2e import services
from warfare.systems.pf2e.models import Army, Kingdom, LogEntry


def act(user, army, activity, **kwargs):
    army.refresh_from_db()
    return services.army_activity(
        user=user,
        campaign_id=army.faction.campaign_id,
        army_id=army.pk,
        activity=activity,
        version=army.version,
        **kwargs,
    )


def test_garrison_natural_20_is_a_critical_success(world, player, militia, kingdom):
    """§4.4 Garrison: Politics +5, die 20 -> 25 vs Control DC 17: success, nat 20 -> crit."""
    outcome = act(player, militia, "garrison_army", skill=None,
                  options={"location": "settlement", "territory": "own"}, typed_die=20)  # fmt: skip
    assert outcome.check.total == 25
    assert outcome.check.dc.value == 17
    assert outcome.degree.code == "critical_success"
    militia.refresh_from_db()
    assert militia.garrison == "until_deployed"
    assert militia.garrison_consumption_cut is True
    assert militia.conditions.get("fortified") == 1 or "fortified" in str(militia.conditions)
    entry = LogEntry.objects.filter(army=militia).exclude(code="army.placed").first()
    assert entry is not None


def test_garrison_critical_failure_adds_unrest_and_a_lockout(world, player, militia, kingdom):
    """§4.4: crit failure -> not fortified, Unrest +1, no garrison here for 4 turns."""
    act(player, militia, "garrison_army",
        options={"location": "settlement", "territory": "own"}, typed_die=1)  # fmt: skip
    kingdom.refresh_from_db()
    militia.refresh_from_db()
    assert kingdom.unrest == 1
    assert militia.garrison == ""
    assert any(key.startswith("no_garrison") for key in militia.timers)


def test_outfit_without_enough_rp_changes_nothing(world, gm, militia, kingdom):
    """§4.6/§5: Magic Armor costs RP; with 0 RP the purchase is refused and nothing moves."""
    Kingdom.objects.filter(pk=kingdom.pk).update(resource_points=0)
    before = Army.objects.get(pk=militia.pk)
    with pytest.raises(ValidationError):
        act(gm, militia, "outfit_army", skill="trade",
            options={"gear": {"key": "healing_potions", "tier": 1, "doses": 1},
                     "source": "purchased"}, typed_die=15)  # fmt: skip
    after = Army.objects.get(pk=militia.pk)
    assert (after.gear, after.version, after.activities_this_turn) == (
        before.gear,
        before.version,
        before.activities_this_turn,
    )
    assert Kingdom.objects.get(pk=kingdom.pk).resource_points == 0


def test_a_second_activity_needs_efficient(world, gm, militia, kingdom):
    """§4: one Army activity per army per turn; a second only when efficient (at -5)."""
    act(gm, militia, "train_army", skill="warfare", options={"tactic": "keen_eyed",
        "replace": "toughened_soldiers"}, typed_die=10)  # fmt: skip
    with pytest.raises(ValidationError):
        act(gm, militia, "train_army", skill="warfare", options={"tactic": "hold_the_line",
            "replace": "toughened_soldiers"}, typed_die=10)  # fmt: skip


def test_train_refuses_an_ineligible_tactic(world, gm, militia, kingdom):
    """§4.8: tactic level <= army level; Sharpshooter-like tactics for other types are refused."""
    with pytest.raises(ValidationError):
        act(gm, militia, "train_army", skill="warfare", options={"tactic": "overrun"},
            typed_die=10)  # fmt: skip
    militia.refresh_from_db()
    assert militia.tactics == ["toughened_soldiers"]


def test_disband_hands_gear_only_to_an_army_in_the_same_hex(world, gm, militia, kingdom):
    elsewhere = services.army_create(
        user=gm, campaign_id=world.pk, faction_id=kingdom.faction_id, name="Far Guard",
        army_type="infantry", tactics=("keen_eyed",), hex="Z9",
    )  # fmt: skip
    with pytest.raises(ValidationError):
        act(gm, militia, "disband_army", options={"transfer_to": elsewhere.pk})
    assert Army.objects.get(pk=militia.pk).status == "active"
    act(gm, militia, "disband_army", options={})
    assert Army.objects.get(pk=militia.pk).status == "disbanded"


def test_players_command_only_their_own_armies(world, other_player, militia):
    with pytest.raises(PermissionDenied):
        act(other_player, militia, "deploy_army", skill="exploration",
            options={"destination": "D8", "hexes": 2}, typed_die=10)  # fmt: skip


def test_activity_page_flow(client, world, player, militia, kingdom):
    client.force_login(player)
    url = reverse("pf2e:army-activity", args=[world.pk, militia.pk])
    form = client.get(url, {"activity": "deploy_army"}, HTTP_HX_REQUEST="true")
    assert form.status_code == 200
    assert "Destination hex" in form.content.decode()
    bad = client.post(url, {"activity": "deploy_army", "version": militia.version,
                            "skill": "exploration", "destination": "", "hexes": "0"},
                      HTTP_HX_REQUEST="true")  # fmt: skip
    assert bad.status_code == 400
    response = client.post(
        url,
        {"activity": "deploy_army", "version": militia.version, "skill": "exploration",
         "destination": "D8", "hexes": "3", "two_hex_costs": "0", "typed_die": "12"},
        HTTP_HX_REQUEST="true",
    )  # fmt: skip
    assert response.status_code == 200, response.content.decode()[:2000]
    body = response.content.decode()
    # §4.2 Deploy: Exploration +6, die 12 -> 18 vs Control DC 17: success, the army arrives.
    assert "18" in body and "17" in body and "Success" in body
    militia.refresh_from_db()
    assert militia.hex == "D8"
    stale = client.post(
        url,
        {"activity": "deploy_army", "version": militia.version - 1, "skill": "exploration",
         "destination": "E8", "hexes": "1", "two_hex_costs": "0"},
        HTTP_HX_REQUEST="true",
    )  # fmt: skip
    assert stale.status_code == 409
    militia.refresh_from_db()
    assert militia.hex == "D8"


def test_structure_item_bonuses_do_not_stack(world, player, militia, kingdom):
    """§4.9: Barracks +1 and Castle +2 to Garrison Army: item bonuses, the best (+2) counts."""
    Kingdom.objects.filter(pk=kingdom.pk).update(structures=["barracks", "castle"])
    outcome = act(player, militia, "garrison_army",
                  options={"location": "settlement", "territory": "own"}, typed_die=10)  # fmt: skip
    # Politics +5, structures +2, die 10 -> 17 vs Control DC 17: success.
    assert outcome.check.modifier.value == 7
    assert ("structure.item_bonus", 2) in outcome.check.modifier.breakdown
    assert outcome.check.total == 17
    assert outcome.degree.code == "success"


def test_gear_passes_between_armies_in_the_same_hex_only(client, world, gm, militia, kingdom):
    """§5: gear may be transferred between armies in the same hex (Magic Armor is level 5)."""
    Kingdom.objects.filter(pk=kingdom.pk).update(level=5)
    Army.objects.filter(pk=militia.pk).update(
        gear=[{"key": "magic_armor", "tier": 1, "weapon": None, "doses": 0, "source": "spoils"}]
    )
    neighbour = services.army_create(
        user=gm, campaign_id=world.pk, faction_id=kingdom.faction_id, name="Second Company",
        army_type="infantry", tactics=("keen_eyed",), hex="C7",
    )  # fmt: skip
    militia.refresh_from_db()
    client.force_login(gm)
    url = reverse("pf2e:army-gear-transfer", args=[world.pk, militia.pk])
    page = client.get(reverse("pf2e:army-detail", args=[world.pk, militia.pk]))
    assert "Second Company" in page.content.decode()
    response = client.post(
        url, {"gear": "magic_armor", "to_army": neighbour.pk, "version": militia.version}
    )
    assert response.status_code == 302
    neighbour.refresh_from_db()
    militia.refresh_from_db()
    assert [g["key"] for g in neighbour.gear] == ["magic_armor"]
    assert militia.gear == []
    # Nothing left to give: refused with a message, nothing changed.
    again = client.post(
        url, {"gear": "magic_armor", "to_army": neighbour.pk, "version": militia.version}
    )
    assert again.status_code == 400
    assert [g["key"] for g in Army.objects.get(pk=neighbour.pk).gear] == ["magic_armor"]


@pytest.fixture
def raiders(world, gm, enemy_faction):
    """An enemy infantry army (level 1, Scouting +7: Scouting DC 17, §1.2) in the same hex."""
    return services.army_create(
        user=gm, campaign_id=world.pk, faction_id=enemy_faction.pk, name="Raiders",
        army_type="infantry", tactics=("keen_eyed",), hex="C7",
    )  # fmt: skip


def test_offensive_gambit_critical_success(world, player, militia, kingdom, raiders):
    """§4.5: Intrigue +3, die 20 vs the enemy's Scouting DC: +2 initiative, enemy shaken 1."""
    outcome = act(player, militia, "offensive_gambit", skill="intrigue",
                  options={"seek_advantage": True, "target": raiders.pk}, typed_die=20)  # fmt: skip
    assert outcome.check.dc.value == 17
    assert outcome.degree.code == "critical_success"
    militia.refresh_from_db()
    raiders.refresh_from_db()
    assert militia.initiative_bonus == 2
    assert raiders.conditions.get("shaken") == 1
    texts = [e.code for e in LogEntry.objects.filter(faction=kingdom.faction)]
    assert "gambit.enemy_shaken" in texts


def test_offensive_gambit_critical_failure_helps_the_enemy(world, player, militia, kingdom,
                                                          raiders):  # fmt: skip
    """§4.5: critical failure -> the enemy armies get +4 to initiative."""
    act(player, militia, "offensive_gambit", skill="warfare",
        options={"seek_advantage": True, "target": raiders.pk}, typed_die=1)  # fmt: skip
    raiders.refresh_from_db()
    assert raiders.initiative_bonus == 4
    assert Army.objects.get(pk=militia.pk).initiative_bonus == 0


def test_offensive_gambit_needs_an_enemy_in_the_hex(world, player, militia, kingdom):
    with pytest.raises(ValidationError):
        act(player, militia, "offensive_gambit", options={})


def test_recover_weary_success_and_bad_skill(world, gm, militia, kingdom):
    """§4.7: Weary -> Defense (or Arts expert); success reduces weary by 1."""
    Army.objects.filter(pk=militia.pk).update(conditions={"weary": 2})
    with pytest.raises(ValidationError):  # Arts needs expert; the kingdom is trained
        act(gm, militia, "recover_army", skill="arts", options={"affliction": "weary"},
            typed_die=15)  # fmt: skip
    assert Army.objects.get(pk=militia.pk).conditions == {"weary": 2}
    # Defense +7, weary 2 (-2 to Army activity checks, §9), die 12 -> 17 vs 17: success.
    outcome = act(gm, militia, "recover_army", skill="defense", options={"affliction": "weary"},
                  typed_die=12)  # fmt: skip
    assert outcome.check.total == 17
    assert outcome.degree.code == "success"
    assert Army.objects.get(pk=militia.pk).conditions == {"weary": 1}
