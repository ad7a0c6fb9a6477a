"""§7.6 after the battle: applying the results rolls each kingdom's Warfare (victory) or Defense
(defeat) check on the server or from a typed die, §7.7 the PCs' own fight, and writes its
effects to the armies and kingdoms in one transaction, logged in the kingdom log.

Both kingdoms: level 3, 12 hexes -> Control DC 17 (§10.4), Warfare +7 and Defense +7; a typed
d20 of 20 -> 27 critical success, 10 -> 17 success, 5 -> 12 failure, a natural 1 -> 8 worsened
to a critical failure (§0.1). The militia (side A) wins having taken damage (HP one below its
maximum); side B loses: the raiders routed at 2 HP (of 4), their reserves defeated at 0 HP
(not destroyed, since not every army of the side was defeated, §9)."""

import pytest
from django.urls import reverse

from battles import services
from battles.models import Battle
from tests.conftest import KINGDOM_SKILLS
from warfare.systems.pf2e.models import Army, Kingdom, LogEntry


def _act(gm, battle, command):
    battle, _events = services.battle_act(user=gm, campaign_id=battle.campaign_id,
                                          battle_id=battle.pk, expected_seq=battle.seq,
                                          command=command)  # fmt: skip
    return battle


def _current(battle):
    return battle.snapshot["order"][battle.snapshot["turn"]]


@pytest.fixture
def enemy_kingdom(enemy_faction):
    kingdom = Kingdom.objects.get(faction=enemy_faction)
    kingdom.level, kingdom.size_hexes, kingdom.unrest = 3, 12, 1
    kingdom.skills = {k: {"modifier": v, "rank": "trained"} for k, v in KINGDOM_SKILLS.items()}
    kingdom.save()
    return kingdom


@pytest.fixture
def reserves(world, gm, enemy_faction):
    from warfare.systems.pf2e import services as army_services

    return army_services.army_create(
        user=gm, campaign_id=world.pk, faction_id=enemy_faction.pk, name="Reserves",
        army_type="infantry", tactics=("keen_eyed",), hex="C7", level_override=3,
    )  # fmt: skip


@pytest.fixture
def bloodied(gm, world, militia, raiders, reserves, kingdom, enemy_kingdom):
    """The raiders strike the militia (typed 20s: engaged, then a critical hit); the GM sets
    the militia one HP below its maximum, the raiders routed at 2 HP and the reserves to 0 HP;
    turns end until side A wins."""
    kingdom.unrest = 2
    kingdom.save()
    battle = services.battle_create(
        user=gm, campaign_id=world.pk, name="Battle of the Ford",
        sides={"a": [militia.pk], "b": [raiders.pk, reserves.pk]}, pcs_side="a",
    )  # fmt: skip
    while _current(battle) != str(raiders.pk):
        battle = _act(gm, battle, {"actor": _current(battle), "kind": "end_turn"})
    target = {"target": str(militia.pk)}
    battle = _act(gm, battle, {"actor": str(raiders.pk), "kind": "advance", "params": target,
                               "typed_dice": [20]})  # fmt: skip
    strike = {**target, "weapon": "melee"}
    battle = _act(gm, battle, {"actor": str(raiders.pk), "kind": "battle", "params": strike,
                               "typed_dice": [20]})  # fmt: skip
    entry = next(a for a in battle.snapshot["armies"] if a["key"] == str(militia.pk))
    assert entry["took_damage"] is True
    max_hp = militia.hp  # the militia was created at full HP
    corrections = [
        {"army": str(militia.pk), "hp": max_hp - 1},
        {"army": str(reserves.pk), "hp": 0},
        {"army": str(raiders.pk), "hp": 2, "conditions": {"routed": 1}},
    ]
    for params in corrections:
        battle = _act(gm, battle, {"actor": None, "kind": "gm_correction", "params": params})
    while battle.status == "active" and battle.seq < 30:
        battle = _act(gm, battle, {"actor": _current(battle), "kind": "end_turn"})
    assert battle.outcome["winner"] == "a"
    assert battle.outcome["details"]["destroyed"] == []
    return battle


def _apply(gm, battle, **kw):
    return services.battle_apply_results(
        user=gm,
        campaign_id=battle.campaign_id,
        battle_id=battle.pk,
        expected_seq=battle.seq,
        **kw,
    )


# (typed d20, militia HP change, militia conditions, raiders HP, raiders conditions, reserves
#  HP, reserves conditions, players' kingdom Unrest, enemy Unrest, next-turn entry). The
#  raiders leave the battle shaken 1 (routed at its end, §7.3 step 5).
DEGREES = {
    # Victory CS: damaged armies +1 HP; next turn Fame +1, Unrest -1 (logged, not applied).
    # Defeat CS: defeated armies back to 1 HP, and the chosen damaged army (raiders) +1 HP.
    "critical_success": (20, +1, {}, 3, {"shaken": 1}, 1, {}, 2, 1, {"fame": 1, "unrest": -1}),
    # Victory S: damaged +1 HP. Defeat S: the chosen damaged army +1 HP, Unrest +1.
    "success": (10, +1, {}, 3, {"shaken": 1}, 0, {}, 2, 2, None),
    # Victory F: nothing. Defeat F: Unrest +1.
    "failure": (5, 0, {}, 2, {"shaken": 1}, 0, {}, 2, 2, None),
    # Victory CF: the militia took damage: weary +1 (the players' default). Defeat CF: every
    # army that fought: weary +2 or shaken +2 (raiders: shaken, the players' choice; the
    # reserves: weary by default); Unrest +1d4 (typed 3).
    "critical_failure": (1, 0, {"weary": 1}, 2, {"shaken": 3}, 0, {"weary": 2}, 2, 4, None),
}


@pytest.mark.parametrize("degree", list(DEGREES))
def test_the_kingdom_checks_at_all_four_degrees(degree, gm, bloodied, militia, raiders, reserves,
                                                kingdom, enemy_kingdom):  # fmt: skip
    (die, hp_change, militia_conditions, raiders_hp, raiders_conditions, reserves_hp,
     reserves_conditions, unrest, enemy_unrest, next_turn) = DEGREES[degree]  # fmt: skip
    before_hp = bloodied.outcome["details"]["armies"][str(militia.pk)]["hp"]
    assert before_hp == Army.objects.get(pk=militia.pk).hp - 1
    xp = bloodied.outcome["details"]["xp"]["a"]["total"]
    battle = _apply(gm, bloodied, typed_dice={"a": (die, None), "b": (die, 3)},
                    choices={str(raiders.pk): "shaken"}, regain={"b": str(raiders.pk)})  # fmt: skip
    for row in (militia, raiders, reserves, kingdom, enemy_kingdom):
        row.refresh_from_db()
    assert militia.hp == before_hp + hp_change
    assert militia.conditions == militia_conditions
    assert (raiders.hp, raiders.conditions) == (raiders_hp, raiders_conditions)
    assert reserves.hp == reserves_hp
    assert {k: v for k, v in reserves.conditions.items() if k != "defeated"} == reserves_conditions
    assert reserves.status == "active"
    assert (kingdom.unrest, enemy_kingdom.unrest) == (unrest, enemy_unrest)
    assert xp >= 40 and kingdom.xp == xp  # at least the reserves, level 3 vs level 3 (§7.6)
    assert battle.status == "applied"
    for faction, skill in ((kingdom.faction_id, "warfare"), (enemy_kingdom.faction_id, "defense")):
        entry = LogEntry.objects.get(faction_id=faction, code="battle.results_applied")
        check = entry.data["check"]
        assert (check["skill"], check["die"], check["source"], check["degree"]) == (
            skill, die, "typed", degree,
        )  # fmt: skip
        assert check["modifier"]["breakdown"] == [[f"skill.{skill}", 7]]
        assert check["dc"]["value"] == 17
    pending = LogEntry.objects.filter(code="battle.next_turn_effects")
    if next_turn:
        assert pending.get().data == {"battle": "Battle of the Ford", "turn": kingdom.turn + 1,
                                      "pending": True, **next_turn}  # fmt: skip
    else:
        assert not pending.exists()


def test_the_logs_name_what_changed(gm, bloodied, militia, raiders, kingdom, enemy_kingdom):
    _apply(gm, bloodied, typed_dice={"a": (10, None), "b": (1, 4)})
    restored = LogEntry.objects.get(faction_id=kingdom.faction_id, code="army.hp_restored")
    assert restored.army_id == militia.pk
    assert restored.data["army_name"] == "Silverrun Militia"
    unrest = LogEntry.objects.get(faction_id=enemy_kingdom.faction_id, code="kingdom.unrest")
    assert unrest.data["by"] == 4 and unrest.data["roll"] == [4]
    weary = LogEntry.objects.get(faction_id=enemy_kingdom.faction_id, code="army.weary_added",
                                 army=raiders)  # fmt: skip
    assert weary.data["now"] == 2 and weary.data["army_name"] == "Raiders"


def test_the_pcs_own_fight_improves_the_degree(gm, bloodied, militia, kingdom, enemy_kingdom):
    """§7.7: the PCs won their fight: the Warfare success (10) becomes a critical success;
    the raiders' side lost theirs: its success becomes a failure."""
    battle = _apply(gm, bloodied, typed_dice={"a": (10, None), "b": (10, None)},
                    pc_encounter={"a": "won", "b": "lost"})  # fmt: skip
    aftermath = battle.outcome["aftermath"]
    assert aftermath["a"]["degree"] == "critical_success"
    assert aftermath["a"]["check"]["adjustments"] == [["pc_encounter.won", 1]]
    assert aftermath["b"]["degree"] == "failure"


def test_the_server_rolls_when_no_die_is_typed(gm, bloodied, kingdom, enemy_kingdom):
    battle = _apply(gm, bloodied)
    for side in ("a", "b"):
        check = battle.outcome["aftermath"][side]["check"]
        assert check["source"] == "seeded" and 1 <= check["die"] <= 20


def test_a_bad_choice_changes_nothing(gm, bloodied, militia, kingdom, enemy_kingdom):
    from django.core.exceptions import ValidationError

    with pytest.raises(ValidationError):
        _apply(gm, bloodied, choices={str(militia.pk): "tired"})
    assert Battle.objects.get(pk=bloodied.pk).status == "finished"
    assert not LogEntry.objects.filter(code="battle.results_applied").exists()
    kingdom.refresh_from_db()
    assert kingdom.xp == 0


def test_the_apply_form_on_the_board(client, world, gm, player, bloodied, militia, raiders,
                                     kingdom, enemy_kingdom):  # fmt: skip
    """The GM's board asks for the PCs' fight, the dice and weary-or-shaken; posting it
    applies exactly that."""
    url = reverse("battles:board", args=[world.pk, bloodied.pk])
    client.force_login(player)
    assert 'name="die_a"' not in client.get(url).content.decode()
    client.force_login(gm)
    page = client.get(url).content.decode()
    for name in ("pc_a", "die_a", "die_b", "d4_b", f"cond_{militia.pk}", f"cond_{raiders.pk}"):
        assert f'name="{name}"' in page, name
    apply = reverse("battles:apply", args=[world.pk, bloodied.pk])
    bad = client.post(apply, {"seq": bloodied.seq, "die_a": "21"}, HTTP_HX_REQUEST="true")
    assert bad.status_code == 400
    response = client.post(apply, {"seq": bloodied.seq, "die_a": "1", "die_b": "5",
                                   f"cond_{militia.pk}": "shaken", "pc_a": ""})  # fmt: skip
    assert response.status_code == 302
    militia.refresh_from_db()
    assert militia.conditions == {"shaken": 1}
    page = client.get(url).content.decode()
    assert "Results applied" in page and "Critical failure" in page
    client.force_login(player)
    page = client.get(url).content.decode()
    assert page.count('class="aftermath"') == 1  # only their own side's check


# --- The same choices through the API ----------------------------------------------------------


def _apply_url(battle):
    return reverse("api:battle-apply", args=[battle.campaign_id, battle.pk])


def test_the_apply_api_takes_the_forms_choices(as_role, bloodied, militia, raiders, reserves,
                                               kingdom, enemy_kingdom):  # fmt: skip
    """§7.7 + §7.6 through the API: side A's typed 10 (17, success) improved by the PCs' won
    fight to a critical success: the militia +1 HP; side B's typed natural 1 (critical
    failure; the lost fight cannot worsen it further): every army weary +2 or shaken +2 (the
    raiders shaken, the players' choice; the reserves weary by default), Unrest +1d4 typed 3."""
    before_hp = bloodied.outcome["details"]["armies"][str(militia.pk)]["hp"]
    body = {
        "seq": bloodied.seq,
        "pc_encounter": {"a": "won", "b": "lost"},
        "typed_dice": {"a": {"d20": 10}, "b": {"d20": 1, "d4": 3}},
        "choices": {str(raiders.pk): "shaken"},
        "regain": {"b": str(raiders.pk)},
    }
    response = as_role("gm").post(_apply_url(bloodied), body, format="json")
    assert response.status_code == 200, response.content
    assert response.json()["status"] == "applied"
    aftermath = Battle.objects.get(pk=bloodied.pk).outcome["aftermath"]
    assert aftermath["a"]["degree"] == "critical_success"
    assert aftermath["a"]["check"]["adjustments"] == [["pc_encounter.won", 1]]
    assert (aftermath["a"]["check"]["die"], aftermath["a"]["check"]["source"]) == (10, "typed")
    assert aftermath["b"]["degree"] == "critical_failure"
    for row in (militia, raiders, reserves, enemy_kingdom):
        row.refresh_from_db()
    assert militia.hp == before_hp + 1
    assert raiders.conditions == {"shaken": 3}
    assert reserves.conditions.get("weary") == 2
    assert enemy_kingdom.unrest == 1 + 3


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"pc_encounter": {"a": "draw"}}, "not a valid choice"),
        ({"pc_encounter": {"c": "won"}}, "Side c rolls no kingdom check."),
        ({"typed_dice": {"a": {"d20": 21}}}, "less than or equal to 20"),
        ({"typed_dice": {"b": {"d4": 5}}}, "less than or equal to 4"),
        ({"typed_dice": {"a": {"d20": 5, "d4": 2}}}, "A d4 is rolled only by a side that lost."),
        ({"choices": {"MILITIA": "tired"}}, "not a valid choice"),
        ({"choices": {"nobody": "weary"}}, "nobody has no choice of weary or shaken."),
        ({"regain": {"a": "MILITIA"}}, "Only a damaged army of a side that lost regains 1 HP."),
        ({"regain": {"b": "MILITIA"}}, "Only a damaged army of a side that lost regains 1 HP."),
        ({"typed_dice": [10]}, "Expected a dictionary"),
    ],
)  # fmt: skip
def test_the_apply_api_refuses_what_the_form_does_not_offer(
    as_role, bloodied, militia, kingdom, enemy_kingdom, body, message
):
    """400 with the reason; nothing is written."""
    keys = {"MILITIA": str(militia.pk)}

    def swap(value):
        if isinstance(value, dict):
            return {keys.get(k, k): swap(v) for k, v in value.items()}
        return keys.get(value, value) if isinstance(value, str) else value

    response = as_role("gm").post(
        _apply_url(bloodied), {"seq": bloodied.seq, **swap(body)}, format="json"
    )
    assert response.status_code == 400, response.content
    assert any(message in error for error in response.json()["errors"]), response.json()
    assert Battle.objects.get(pk=bloodied.pk).status == "finished"
    assert not LogEntry.objects.filter(code="battle.results_applied").exists()
    kingdom.refresh_from_db()
    assert kingdom.xp == 0


def test_the_apply_api_is_the_gms_and_checks_the_seq(as_role, bloodied, kingdom, enemy_kingdom):
    body = {"seq": bloodied.seq, "typed_dice": {"a": {"d20": 10}}}
    for role, status in (("player", 403), ("other_player", 403), ("outsider", 404)):
        assert as_role(role).post(_apply_url(bloodied), body, format="json").status_code == status
    stale = as_role("gm").post(_apply_url(bloodied), {**body, "seq": bloodied.seq - 1},
                               format="json")  # fmt: skip
    assert stale.status_code == 409
    assert Battle.objects.get(pk=bloodied.pk).status == "finished"
    assert not LogEntry.objects.filter(code="battle.results_applied").exists()
