"""The D&D 5e battle on the shared board: set-up from two armies (dnd5e §5.1, §7), the grid
with the selected piece's moves and targets, hidden numbers, GM commands, 409 on a stale
board, fixed query counts, and the results written back to the armies (§7.3)."""

import json
import re
from pathlib import Path

import pytest
from django.urls import reverse

from battles import services
from battles.models import Battle, BattleStatus
from warfare.systems.dnd5e.models import Solo, Unit
from warfare.systems.pf2e import setup as pf2e_setup

from .conftest import SETUP_POST

pytestmark = pytest.mark.django_db


def _board(battle):
    return reverse("battles:board", args=[battle.campaign_id, battle.pk])


def _act(user, battle, actor, kind, **params):
    battle.refresh_from_db()
    return services.battle_act(
        user=user, campaign_id=battle.campaign_id, battle_id=battle.pk,
        expected_seq=battle.seq, command={"actor": actor, "kind": kind, "params": params},
    )[0]  # fmt: skip


def _gm(user, battle, kind, **params):
    """A GM command (no actor) on the board; the battle as it is afterwards."""
    return _act(user, battle, None, kind, **params)


def _units_of(battle, side: int) -> set[str]:
    return {unit["key"] for unit in battle.setup["sides"][side]["units"]}


def _end_turns_until(user, battle, done):
    for _ in range(40):
        battle.refresh_from_db()
        if done(battle):
            return battle
        state = battle.snapshot
        if state["phase"] == "casualties":
            battle = _act(user, battle, state["pending"][0], "done")
        else:
            battle = _act(user, battle, state["turn"]["actor"], "end_turn")
    raise AssertionError("the battle did not get there")


def test_gm_sets_up_a_battle_that_waits_for_deployment(client, gm, wardens, horde):
    client.force_login(gm)
    url = reverse("battles:create", args=[wardens.campaign_id])
    assert client.get(url).status_code == 200
    post = {**SETUP_POST, "army_a": wardens.pk, "army_b": horde.pk, "preset": "river"}
    response = client.post(url, post)
    battle = Battle.objects.get(name="Battle of the Old Bridge")
    assert response.status_code == 302 and battle.system == "dnd5e"
    setup = battle.setup
    assert setup["grid"]["width"] == 10 and setup["sides"][1]["zone"] == [8, 0, 9, 5]
    # The river preset: deep water in the middle column, a ford of road (§4.7).
    terrains = {(s["x"], s["y"]): s["terrain"] for s in setup["grid"]["squares"]}
    assert terrains[(5, 0)] == "water_deep" and terrains[(5, 3)] == "road"
    units = setup["sides"][0]["units"]
    assert [(u["name"], u["stands"], u["kind"]) for u in units] == [
        ("Knights", 1, "regiment"),
        ("Guards", 2, "regiment"),
        ("Scouts", 1, "skirmisher"),
    ]
    hero = setup["sides"][0]["solos"][0]
    assert hero["joined"] == units[0]["key"] + ".1" and hero["commander"] is True  # §5.1
    assert {o["type"]: o.get("vp") for o in setup["objectives"]} == {
        "attrition": 2,
        "destruction": None,
        "protection": 1,
    }
    assert battle.snapshot["phase"] == "deploy"
    page = client.get(_board(battle)).content.decode()
    assert "Begin the battle" in page and "not deployed" in page


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"army_b": "same"}, "Pick two different armies."),
        ({"objective_squares": "12,2"}, "is off the grid"),
        ({"objective_squares": ""}, "need the side that destroys them"),
        ({"terrain_map": "..q"}, "is not a terrain letter"),
        ({"depth": 5}, "must not meet"),
        ({"width": 2}, "Ensure this value is greater than or equal to 4."),
    ],
)
def test_bad_set_up_input_is_a_400_and_starts_nothing(client, gm, wardens, horde, change,
                                                      message):  # fmt: skip
    client.force_login(gm)
    post = {**SETUP_POST, "army_a": wardens.pk, "army_b": horde.pk, **change}
    if post["army_b"] == "same":
        post["army_b"] = wardens.pk
    response = client.post(reverse("battles:create", args=[wardens.campaign_id]), post)
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not Battle.objects.exists()


def test_an_army_without_stands_cannot_fight(client, gm, wardens, horde):
    Unit.objects.filter(army=horde).update(stands=0)
    client.force_login(gm)
    post = {**SETUP_POST, "army_a": wardens.pk, "army_b": horde.pk}
    response = client.post(reverse("battles:create", args=[wardens.campaign_id]), post)
    assert response.status_code == 400 and "has no unit with stands left" in (
        response.content.decode())  # fmt: skip


def test_players_cannot_set_up_battles(client, player, wardens, horde):
    client.force_login(player)
    assert client.get(reverse("battles:create", args=[wardens.campaign_id])).status_code == 403


def test_the_selected_stand_shows_its_moves_and_targets(client, gm, dnd_battle):
    """§5.3-§5.4: the acting unit's stand, once selected, offers its squares (green) and the
    objective square it can hit (red); the forms post exactly the engine's options."""
    guards = f"u{Unit.objects.get(name='Guards').pk}"
    battle = _end_turns_until(gm, dnd_battle,
                              lambda b: b.snapshot["turn"]["actor"] == guards)  # fmt: skip
    client.force_login(gm)
    page = client.get(_board(battle), {"sel": f"{guards}.2"}).content.decode()
    assert "Selected: Guards #2" in page
    assert 'class="sq t-clear objective target"' in page  # the square (2, 2) next to it
    params = json.dumps({"piece": f"{guards}.2", "attack": "spear", "target": "sq:2:2"})
    assert 'value="' + params.replace('"', "&quot;") + '"' in page
    assert "hits automatically" in page  # §7.1: melee attacks hit objective squares
    assert page.count("sq t-clear move") > 5


def test_players_see_their_own_hp_but_not_the_enemys(client, player, gm, dnd_battle):
    client.force_login(player)
    page = client.get(_board(dnd_battle)).content.decode()
    assert "Guards #1 · HP 11/11" in page  # own stand
    assert "Orcs #1" in page and "Orcs #1 · HP" not in page and "HP 15/15" not in page
    assert "Sir Aldric" in page and "52/52" in page
    client.force_login(gm)
    assert "Orcs #1 · HP 15/15" in client.get(_board(dnd_battle)).content.decode()
    state = client.get(reverse("api:battle-detail", args=[dnd_battle.campaign_id,
                                                         dnd_battle.pk]))  # fmt: skip
    assert state.status_code == 200


def test_api_state_hides_the_other_sides_hp(as_role, dnd_battle):
    """The API's battle detail goes through the plugin's api_state."""
    client = as_role("player")
    data = client.get(reverse("api:battle-detail", args=[dnd_battle.campaign_id,
                                                        dnd_battle.pk])).json()  # fmt: skip
    stands = {s["key"]: s for s in data["state"]["stands"]}
    guards, orcs = (f"u{Unit.objects.get(name=name).pk}" for name in ("Guards", "Orcs"))
    assert stands[f"{guards}.1"]["hp"] == 11 and stands[f"{orcs}.1"]["hp"] is None
    assert data["names"][f"{orcs}.1"] == "Orcs #1"
    # The log: each event as a sentence, another side's HP left out.
    gm_client = as_role("gm")
    url = reverse("dnd5e:battle-gm-command", args=[dnd_battle.campaign_id, dnd_battle.pk])
    gm_client.post(url, {"seq": 0, "kind": "gm_correction", "piece": f"{orcs}.1", "hp": 9})
    log_url = reverse("api:battle-log", args=[dnd_battle.campaign_id, dnd_battle.pk])
    texts = [e["text"] for e in client.get(log_url).json()["results"]]
    assert "The GM corrects Orcs #1." in texts and "Round 1 begins." in texts
    correction = client.get(log_url, {"code": "dnd5e.gm_correction"}).json()["results"][0]
    assert "hp" not in correction["params"]


def test_a_player_acts_for_own_units_only(client, player, dnd_battle):
    battle = dnd_battle
    state = battle.snapshot
    own = {u["key"] for u in battle.setup["sides"][0]["units"]}
    actor = state["turn"]["actor"]
    client.force_login(player)
    url = reverse("battles:act", args=[battle.campaign_id, battle.pk])
    response = client.post(url, {"seq": battle.seq, "actor": actor, "kind": "end_turn"})
    assert response.status_code == (302 if actor in own else 403)


def test_a_stale_click_is_a_409_with_the_current_board(client, gm, dnd_battle):
    client.force_login(gm)
    url = reverse("battles:act", args=[dnd_battle.campaign_id, dnd_battle.pk])
    actor = dnd_battle.snapshot["turn"]["actor"]
    first = client.post(url, {"seq": 0, "actor": actor, "kind": "end_turn"})
    assert first.status_code == 302
    stale = client.post(url, {"seq": 0, "actor": actor, "kind": "end_turn"},
                        HTTP_HX_REQUEST="true")  # fmt: skip
    assert stale.status_code == 409 and 'id="board"' in stale.content.decode()


def test_gm_begins_after_deployment_and_corrects_a_piece(client, gm, wardens, horde):
    client.force_login(gm)
    post = {**SETUP_POST, "army_a": wardens.pk, "army_b": horde.pk, "auto_deploy": ""}
    client.post(reverse("battles:create", args=[wardens.campaign_id]), post)
    battle = Battle.objects.get()
    gm_url = reverse("dnd5e:battle-gm-command", args=[battle.campaign_id, battle.pk])
    refused = client.post(gm_url, {"seq": 0, "kind": "begin"}, HTTP_HX_REQUEST="true")
    assert refused.status_code == 400 and "must be deployed first" in refused.content.decode()
    for unit, spots in (("Knights", [(1, 0)]), ("Guards", [(1, 1), (0, 1)]),
                        ("Scouts", [(0, 5)]), ("Orcs", [(8, 0), (8, 1)]),
                        ("Goblins", [(9, 5)]), ("Ogres", [(8, 3)])):  # fmt: skip
        key = f"u{Unit.objects.get(name=unit).pk}"
        for n, (x, y) in enumerate(spots, 1):
            battle = _act(gm, battle, key, "place", piece=f"{key}.{n}", x=x, y=y)
    assert client.post(gm_url, {"seq": battle.seq, "kind": "begin"}).status_code == 302
    battle.refresh_from_db()
    assert battle.snapshot["phase"] == "round" and battle.snapshot["round"] == 1
    hero = f"s{Solo.objects.get().pk}"
    fix = {"seq": battle.seq, "kind": "gm_correction", "piece": hero, "hp": 30}
    assert client.post(gm_url, fix).status_code == 302
    page = client.get(_board(battle)).content.decode()
    assert "The GM corrects Sir Aldric." in page and "30/52" in page


def test_non_gms_cannot_send_gm_commands(client, player, dnd_battle):
    client.force_login(player)
    url = reverse("dnd5e:battle-gm-command", args=[dnd_battle.campaign_id, dnd_battle.pk])
    assert client.post(url, {"seq": dnd_battle.seq, "kind": "begin"}).status_code == 403


def test_board_query_count_does_not_grow(client, gm, player, dnd_battle,
                                         django_assert_max_num_queries):  # fmt: skip
    def count(user):
        client.force_login(user)
        with django_assert_max_num_queries(12) as captured:
            assert client.get(_board(dnd_battle), {"sel": "u1.1"}).status_code == 200
        return len(captured.captured_queries)

    few = count(gm), count(player)
    _end_turns_until(gm, dnd_battle, lambda b: b.snapshot["round"] == 2)
    assert (count(gm), count(player)) == few


def test_results_are_written_back_to_the_armies(client, gm, dnd_world, wardens, horde):
    """§7.3: a custom objective worth 10 VP ends the battle at the end of round 1 (total
    victory); the Horde's units keep the stands left on the field (an eliminated orc stand
    and deserters lost), the hero keeps the HP the GM set."""
    from warfare.systems.dnd5e.setup import battle_create

    battle = battle_create(
        user=gm, campaign_id=dnd_world.pk, name="Skirmish", army_a=wardens, army_b=horde,
        players_may_act=True, width=10, height=6, depth=2, squares=[],
        objectives=[{"key": "custom_a", "type": "custom", "side": "a", "vp": 10,
                     "label": "Hold the ford"}],
        options={}, auto_deploy=True,
    )  # fmt: skip
    orcs = Unit.objects.get(name="Orcs")
    hero = Solo.objects.get()
    gm_url = reverse("dnd5e:battle-gm-command", args=[dnd_world.pk, battle.pk])
    client.force_login(gm)
    for kind, extra in (("gm_correction", {"piece": f"u{orcs.pk}.1", "hp": 0}),
                        ("gm_correction", {"piece": f"s{hero.pk}", "hp": 20}),
                        ("award", {"objective": "custom_a"})):  # fmt: skip
        battle.refresh_from_db()
        assert client.post(gm_url, {"seq": battle.seq, "kind": kind, **extra}).status_code == 302
    battle = _end_turns_until(gm, battle, lambda b: b.status == BattleStatus.FINISHED)
    details = battle.outcome["details"]
    assert details["result"] == "total" and battle.outcome["winner"] == "a"
    page = client.get(_board(battle)).content.decode()
    assert "Wardens scores 10 VP for Hold the ford (10 in all)." in page
    apply = reverse("battles:apply", args=[dnd_world.pk, battle.pk])
    assert client.post(apply, {"seq": battle.seq - 1}).status_code == 409
    assert client.post(apply, {"seq": battle.seq}).status_code == 302
    battle.refresh_from_db()
    assert battle.status == BattleStatus.APPLIED
    for unit in Unit.objects.filter(army=horde):
        left = details["units"][f"u{unit.pk}"]["stands_left"]
        assert unit.stands == left
    orcs.refresh_from_db()
    assert orcs.stands <= 1  # one of two stands eliminated (and the rest may have deserted)
    hero.refresh_from_db()
    assert hero.hp == 20 and not hero.dead
    assert client.post(apply, {"seq": battle.seq}).status_code == 400  # only once


def test_log_lines_read_in_english_and_russian():
    """Every dnd5e event code has a sentence; the Russian one uses the glossary (§9)."""
    from django.utils import translation

    from warfare.engine.systems.dnd5e import rules
    from warfare.engine.systems.dnd5e.battle import actions, engine
    from warfare.systems.dnd5e.log import EVENT_TEXTS, event_line

    # Event(f"dnd5e.{kind}", …) in actions: the commander benefits, Dash and Retreat
    codes = {"dnd5e.prepare", "dnd5e.incite", "dnd5e.dash", "dnd5e.retreat"}
    for module in (engine, actions, rules):
        source = Path(module.__file__).read_text(encoding="utf-8")
        codes |= set(re.findall(r'Event\(\s*"(dnd5e\.[a-z_]+)"', source))
    assert len(codes) > 40 and codes - set(EVENT_TEXTS) == set()
    names = {"u1.1": "Orcs #1", "u2.1": "Guards #1"}
    attack = {"piece": "u1.1", "attack": "greataxe", "target": "u2.1", "die": 14, "dice": [14],
              "to_hit": 5, "ac": 16, "hit": True, "critical": False, "damage": 9}  # fmt: skip
    line = event_line("dnd5e.attack", attack, names, lambda key: True)
    assert line == "Orcs #1 attacks Guards #1 (greataxe): d20 14 +5 vs AC 16, hit, 9 damage."
    with translation.override("ru"):
        line = event_line("dnd5e.attack", attack, names, lambda key: True)
        assert line == ("Orcs #1 атакует Guards #1 (секира): к20 14 +5 против КД 16, "
                        "попадание, урон 9.")  # fmt: skip
        morale = {"unit": "u1", "die": 7, "dice": [7], "total": 7, "dc": 10, "success": False}
        assert "сломлено" in event_line("dnd5e.morale", morale, {"u1": "Orcs"}, bool)
    # §6.2: the morale save's die, Wisdom modifier, total and DC
    morale = {"unit": "u1", "die": 7, "dice": [7], "terms": [["wis", 2]], "total": 9, "dc": 10,
              "success": False}  # fmt: skip
    assert event_line("dnd5e.morale", morale, {"u1": "Orcs"}, bool) == (
        "Orcs checks morale: d20 7 +2 = 9 vs DC 10, breaks.")  # fmt: skip
    # Another side's HP stays out of the line.
    damage = {"target": "u2.1", "amount": 4, "hp": 7}
    assert event_line("dnd5e.damage", damage, names, lambda key: False) == (
        "Guards #1 takes 4 damage.")  # fmt: skip


def test_the_report_tells_the_battle_without_the_enemys_hp(client, gm, player, dnd_battle):
    orcs = f"u{Unit.objects.get(name='Orcs').pk}"
    _act(gm, dnd_battle, None, "gm_correction", piece=f"{orcs}.1", hp=4)
    url = reverse("battles:report", args=[dnd_battle.campaign_id, dnd_battle.pk])
    client.force_login(player)
    page = client.get(url).content.decode()
    assert "The GM corrects Orcs #1." in page and "Round 1 begins." in page
    client.force_login(gm)
    markdown = client.get(url, {"format": "md"}).content.decode()
    assert "Orcs: initiative d20" in markdown


def test_the_api_sets_up_a_battle_and_refuses_bad_input(as_role, wardens, horde):
    client = as_role("gm")
    url = reverse("api:battle-list", args=[wardens.campaign_id])
    body = {"name": "By the API", "army_a": wardens.pk, "army_b": horde.pk,
            "auto_deploy": True}  # fmt: skip
    response = client.post(url, body, format="json")
    assert response.status_code == 201, response.content
    assert response.json()["state"]["phase"] == "round"  # deployed automatically
    battle = Battle.objects.get(name="By the API")
    assert battle.setup["grid"]["width"] == 12  # the form's initial value
    bad = client.post(url, {**body, "army_b": wardens.pk}, format="json")
    assert bad.status_code == 400 and "Pick two different armies." in str(bad.json())
    assert as_role("player").post(url, body, format="json").status_code == 403


def test_in_deployment_a_player_places_only_their_own_stands(client, gm, player, wardens,
                                                              horde):  # fmt: skip
    client.force_login(gm)
    post = {**SETUP_POST, "army_a": wardens.pk, "army_b": horde.pk}
    client.post(reverse("battles:create", args=[wardens.campaign_id]), post)
    battle = Battle.objects.get()
    guards = f"u{Unit.objects.get(name='Guards').pk}"
    orcs = f"u{Unit.objects.get(name='Orcs').pk}"
    client.force_login(player)
    page = client.get(_board(battle), {"sel": f"{guards}.1"}).content.decode()
    assert f'data-piece="{guards}.1"' in page and f'data-piece="{orcs}.1"' not in page
    assert page.count("sq t-clear move") == 12  # the 2 × 6 squares of side A's zone
    assert "Begin the battle" not in page
    url = reverse("battles:act", args=[battle.campaign_id, battle.pk])
    place = {"seq": 0, "actor": guards, "kind": "place",
             "params": json.dumps({"piece": f"{guards}.1", "x": 1, "y": 3})}  # fmt: skip
    assert client.post(url, place).status_code == 302
    enemy = {**place, "seq": 1, "actor": orcs,
             "params": json.dumps({"piece": f"{orcs}.1", "x": 9, "y": 3})}  # fmt: skip
    assert client.post(url, enemy).status_code == 403
    outside = {**place, "seq": 1, "params": json.dumps({"piece": f"{guards}.2", "x": 5, "y": 3})}
    assert client.post(url, outside).status_code == 400  # §5.1: only inside its zone


def test_gm_sees_the_objective_balance_hint_while_deploying(client, gm, player, wardens, horde):
    """§7.2 guidance (house table `balance.*`): at least five chances and 12 VP per side.
    The set-up gives Side A one destruction square (10 VP) and Side B attrition (2 VP)."""
    from warfare.systems.dnd5e.setup import battle_create

    battle = battle_create(
        user=gm, campaign_id=wardens.campaign_id, name="Lopsided", army_a=wardens,
        army_b=horde, players_may_act=True, width=10, height=6, depth=2, squares=[],
        objectives=[{"key": "destruction", "type": "destruction", "side": "a",
                     "squares": [{"x": 2, "y": 2, "hp": 10, "ac": 15, "vp": 10}]},
                    {"key": "attrition_b", "type": "attrition", "side": "b", "vp": 2}],
        options={}, auto_deploy=False,
    )  # fmt: skip
    client.force_login(gm)
    page = client.get(_board(battle)).content.decode()
    assert "has 1 chances to score; the rules suggest at least five." in page
    assert "can score 2 VP; the rules suggest 12 to 15." in page
    assert "The sides can score different VP:" in page and " 10, " in page
    client.force_login(player)
    assert "the rules suggest" not in client.get(_board(battle)).content.decode()


def test_dice_rolled_at_the_table_go_with_the_next_action(client, gm, dnd_battle):
    """§7.1: a melee attack on an objective square hits automatically and rolls its damage:
    the die typed in the actions panel is that damage die (stored in the command, replayed
    exactly); out of range or more dice than the action rolls: a 400, nothing saved."""
    guards = f"u{Unit.objects.get(name='Guards').pk}"
    battle = _end_turns_until(gm, dnd_battle,
                              lambda b: b.snapshot["turn"]["actor"] == guards)  # fmt: skip
    client.force_login(gm)
    page = client.get(_board(battle), {"sel": f"{guards}.2"}).content.decode()
    assert 'id="dnd-typed-dice"' in page and 'hx-include="#dnd-typed-dice"' in page
    url = reverse("battles:act", args=[battle.campaign_id, battle.pk])
    params = json.dumps({"piece": f"{guards}.2", "attack": "spear", "target": "sq:2:2"})
    seq = battle.seq
    data = {"seq": seq, "actor": guards, "kind": "attack", "params": params}
    for dice, message in (("21", "Dice are numbers from 1 to 20."), ("3 3 3 3 3 3", "rolls")):
        bad = client.post(url, {**data, "dice": dice}, HTTP_HX_REQUEST="true")
        assert bad.status_code == 400 and message in bad.content.decode()
        assert Battle.objects.get(pk=battle.pk).seq == seq
    done = client.post(url, {**data, "dice": "3"}, HTTP_HX_REQUEST="true")
    assert done.status_code == 200, done.content.decode()[:2000]
    battle.refresh_from_db()
    assert battle.commands.get(position=seq).command["typed_dice"] == [3]
    attack = battle.events.get(code="dnd5e.attack", command__position=seq).params
    assert (attack["die"], attack["damage"]) == (None, 4)  # the typed 3 + the spear's +1
    page = client.get(_board(battle)).content.decode()
    assert "Guards: the dice of this action were rolled at the table (3)." in page
    assert services.battle_verify(battle)


def test_another_side_reads_that_dice_were_typed_but_not_their_values():
    """Dice typed in may be a hidden roll's (a Stealth check, §5.6): only the actor's side
    (and the GM) read their values in the log."""
    from warfare.systems.dnd5e.log import event_line

    typed = {"actor": "u1", "dice": [17, 4]}
    own = event_line("dnd5e.typed_dice", typed, {"u1": "Orcs"}, lambda key: True)
    assert own == "Orcs: the dice of this action were rolled at the table (17, 4)."
    other = event_line("dnd5e.typed_dice", typed, {"u1": "Orcs"}, lambda key: False)
    assert other == "Orcs: the dice of this action were rolled at the table."


def test_the_dnd5e_gm_tools_are_404_on_another_systems_board(
    client, gm, world, militia, enemy_faction
):
    """A Pathfinder battle has no D&D 5e GM tools, whatever is posted (valid or not)."""
    from warfare.systems.pf2e import services as army_services

    raiders = army_services.army_create(
        user=gm, campaign_id=world.pk, faction_id=enemy_faction.pk, name="Raiders",
        army_type="infantry", tactics=("keen_eyed",),
    )  # fmt: skip
    battle = pf2e_setup.battle_create(
        user=gm, campaign_id=world.pk, name="Ford", sides={"a": [militia.pk], "b": [raiders.pk]}
    )
    client.force_login(gm)
    url = reverse("dnd5e:battle-gm-command", args=[world.pk, battle.pk])
    assert client.post(url, {}).status_code == 404
    assert client.post(url, {"seq": 0, "kind": "begin"}).status_code == 404


def test_each_event_is_logged_in_the_round_it_happened(client, gm, wardens, horde, dnd_battle):
    """dnd5e §5.2, §6.2: the last turn of round 1, its end and the casualties it removes are
    round 1; round 2 begins in round 2 (the whole command used to be tagged round 2); a
    battle waiting for deployment logs its initiative under "deployment"."""
    battle = _end_turns_until(gm, dnd_battle, lambda b: b.snapshot["round"] == 2)
    wrap = battle.events.get(code="dnd5e.round", params__round=2).command
    rounds = list(wrap.events.order_by("pk").values_list("code", "round"))
    begins = rounds.index(("dnd5e.round", 2))
    assert rounds[0] == ("dnd5e.turn_end", 1) and ("dnd5e.end_of_round", 1) in rounds
    assert {r for _code, r in rounds[:begins]} == {1}
    assert {r for _code, r in rounds[begins:]} == {2}
    client.force_login(gm)
    Battle.objects.filter(pk=battle.pk).update(status=BattleStatus.APPLIED)  # frees its armies
    post = {**SETUP_POST, "name": "Deployed by hand", "army_a": wardens.pk, "army_b": horde.pk}
    assert client.post(reverse("battles:create", args=[wardens.campaign_id]), post).status_code
    deploying = Battle.objects.get(name="Deployed by hand")
    assert set(deploying.events.values_list("round", flat=True)) == {0}
    page = client.get(_board(deploying)).content.decode()
    assert "initiative d20" in page and "round 1</span>" not in page


def test_an_army_with_nothing_left_loses_by_a_flagged_house_default(client, gm, dnd_battle):
    """dnd5e §7.3 ends a battle only at 10 VP; the house default end.army_gone ends it when
    an army has nothing left on the field: the headline and the log read as sentences that
    name the winner and flag the house default (they read "The battle is over / for Goblin
    Mob." and "…: last_standing (…)"), in English and in Russian."""
    battle = dnd_battle
    for stand in [s["key"] for s in battle.snapshot["stands"] if s["unit"] in _units_of(battle, 1)]:
        battle = _gm(gm, battle, "gm_correction", piece=stand, hp=0)
    battle = _end_turns_until(gm, battle, lambda b: b.status == BattleStatus.FINISHED)
    assert battle.outcome["details"]["result"] == "last_standing"
    client.force_login(gm)
    page = client.get(_board(battle)).content.decode()
    ending = "Wardens wins: the other army has nothing left on the field."
    assert f'<p class="dnd-ending">{ending} <span class="badge house"' in page
    assert "The battle is over at 0 : 0 VP: Wardens wins: the other army has nothing left " \
           "on the field (house default)." in page  # fmt: skip
    russian = client.get(_board(battle), HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "last_standing" not in page + russian
    assert "Wardens побеждает: у другой армии на поле ничего не осталось" in russian


def test_total_victory_desertion_rolls_read_with_their_target():
    """dnd5e §7.3: after a total victory each surviving losing unit rolls a d20, 10+
    deserts; the log gives the die and what it needed."""
    from django.utils import translation

    from warfare.systems.dnd5e.log import event_line

    params = {"unit": "u5", "die": 12, "needs": 10, "eliminated": True}
    with translation.override("en"):
        assert event_line("dnd5e.desertion", params, {"u5": "Orcs"}, bool) == (
            "Orcs: desertion d20 12 (10+ deserts), the unit deserts.")  # fmt: skip
    with translation.override("ru"):
        assert event_line("dnd5e.desertion", {**params, "die": 3, "eliminated": False},
                          {"u5": "Orcs"}, bool) == (
            "Orcs: дезертирство, к20 3 (дезертирует на 10+): остаётся.")  # fmt: skip


def test_grid_labels_are_unique_per_battle():
    """Units, solos and engines of one battle never share a grid label: a clash of first
    letters gives both units their initials, then other pairs of their letters."""
    from types import SimpleNamespace

    from warfare.systems.dnd5e.board import grid_labels

    names = {"u1": "Goblin Horde", "u2": "Goblin Archers", "u3": "Goblin Axes", "u4": "Orcs",
             "s1": "Gobbo", "e1": "Ballista"}  # fmt: skip
    battle = SimpleNamespace(setup={"sides": [
        {"units": [{"key": "u1"}, {"key": "u2"}, {"key": "u3"}], "solos": [{"key": "s1"}]},
        {"units": [{"key": "u4"}]}], "engines": [{"key": "e1"}]})  # fmt: skip
    labels = grid_labels(battle, names)
    # Gobbo's letters are all taken by the goblins: it is numbered (its stand-less label
    # cannot run into a stand's number).
    assert labels == {"u1": "GH", "u2": "GA", "u3": "Gb", "u4": "Or", "s1": "Go1·", "e1": "Ba"}


def test_a_selection_is_cached_only_for_a_piece_the_board_offers(client, gm, dnd_battle):
    """The selected piece is part of the shared render; a `?sel=` no link of the board makes
    (any text) is drawn for its request alone, never kept for the others to read."""
    from django.core.cache import cache

    from battles.rendering import RENDERS_KEY

    guards = f"u{Unit.objects.get(name='Guards').pk}"
    battle = _end_turns_until(gm, dnd_battle,
                              lambda b: b.snapshot["turn"]["actor"] == guards)  # fmt: skip
    client.force_login(gm)

    def renders(sel):
        before = cache.get(RENDERS_KEY) or 0
        page = client.get(_board(battle), {"sel": sel}, HTTP_HX_REQUEST="true")
        assert page.status_code == 200
        return (cache.get(RENDERS_KEY) or 0) - before, page.content.decode()

    assert renders(f"{guards}.2")[0] == 1
    assert renders(f"{guards}.2")[0] == 0  # the same selection: from the cache
    for _ in range(2):
        count, page = renders("Click here: the GM says so")
        assert count == 1 and "the GM says so" in page
    count, page = renders("")
    assert "the GM says so" not in page


def test_a_gm_command_answers_what_changed_from_the_board_on_screen(client, gm, dnd_battle):
    """A GM command posts without the selection; the board on screen has one (the browser
    says so, `X-Board-Sel`): the answer is measured from that board — here the whole board,
    which no longer shows the selection — never from a board the GM does not see."""
    guards = f"u{Unit.objects.get(name='Guards').pk}"
    battle = _end_turns_until(gm, dnd_battle,
                              lambda b: b.snapshot["turn"]["actor"] == guards)  # fmt: skip
    client.force_login(gm)
    assert client.get(_board(battle), HTTP_HX_REQUEST="true").status_code == 200
    selected = client.get(_board(battle), {"sel": f"{guards}.2"}, HTTP_HX_REQUEST="true")
    assert "Selected: Guards #2" in selected.content.decode()
    gm_url = reverse("dnd5e:battle-gm-command", args=[battle.campaign_id, battle.pk])
    fix = {"seq": battle.seq, "kind": "gm_correction", "piece": f"{guards}.1", "hp": 1}
    response = client.post(gm_url, fix, HTTP_HX_REQUEST="true", HTTP_X_BOARD_SEL=f"{guards}.2")
    assert response.status_code == 200
    body = response.content.decode()
    assert "HX-Reswap" not in response and 'id="board"' in body
    assert "Selected: Guards #2" not in body
    # From the board the board chose the selection of (it says so: data-sel "*"): only
    # what changed.
    assert 'data-sel="*"' in body
    fix = {**fix, "seq": battle.seq + 1, "hp": 2}
    response = client.post(gm_url, fix, HTTP_HX_REQUEST="true", HTTP_X_BOARD_SEL="*")
    assert response["HX-Reswap"] == "none" and 'id="board"' not in response.content.decode()
