"""GURPS Mass Combat 4e battles on the shared board (gurps §A.3-A.7): set-up, secret
strategies, who may choose what, the log, query counts, applying the results, the API."""

import json
from fractions import Fraction

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from battles import services
from battles.models import Battle, BattleCommand
from tests.caches import clear_cache
from warfare.engine.battle.registry import get_battle_system
from warfare.systems.gurps4e import mapping
from warfare.systems.gurps4e.models import Force, ForceElement
from warfare.systems.gurps4e.results import new_strength_percent

pytestmark = pytest.mark.django_db
ATTACK = json.dumps({"strategy": "attack", "desperate": False})


def _post_setup(client, campaign, legion, horde, **changes):
    data = {
        "name": "Battle of the Ford",
        "force_a": legion.pk,
        "force_b": horde.pk,
        "battle_type": "land",
        "terrain": "plains",
        "kind": "pitched",
        "initiative": "a",
        "db_a": "2",
        "players_may_act": "on",
        "neutralize_a": "on",
        "neutralize_b": "on",
        "pc1_name": "Ann",
        "pc1_side": "a",
        "pc1_hp": "12",
        "pc1_skill_15": "on",
    }
    data.update(changes)
    return client.post(reverse("battles:create", args=[campaign.pk]), data)


@pytest.fixture
def owned_setup(gurps_world, player):
    """The set-up POST with PC 1 played by `player`."""
    return {"pc1_owner": f"user:{player.pk}"}


@pytest.fixture
def battle(client, gm, gurps_world, legion, horde, owned_setup):
    client.force_login(gm)
    response = _post_setup(client, gurps_world, legion, horde, **owned_setup)
    assert response.status_code == 302, response.content.decode()[:2000]
    client.logout()
    return Battle.objects.get(name="Battle of the Ford")


def _act(client, battle, **data):
    data.setdefault("seq", Battle.objects.get(pk=battle.pk).seq)
    url = reverse("battles:act", args=[battle.campaign_id, battle.pk])
    return client.post(url, data, HTTP_HX_REQUEST="true")


def _board(client, battle) -> str:
    url = reverse("battles:board", args=[battle.campaign_id, battle.pk])
    return client.get(url).content.decode()


def test_gm_sets_up_a_battle_from_the_campaign_forces(battle, legion, horde):
    """gurps §A.5.2: Legion TS 41 vs Horde 36 (ratio 1.14: no relative bonus); §A.5.3 only
    the Legion has Art (+3), only the Horde Cav and F (+3 each); §A.5.4 the GM's DB 2 for
    the initiative holder of a pitched battle; §A.6.1 6 elements in the smaller force ->
    rounds of 15 minutes."""
    setup = battle.setup
    assert battle.system == "gurps4e"
    assert setup["sides"]["a"]["force_id"] == legion.pk
    assert setup["sides"]["b"]["force_id"] == horde.pk
    snapshot = battle.snapshot
    assert snapshot["phase"] == "choosing"
    assert snapshot["sides"][0]["ts"] == "41"
    assert snapshot["sides"][1]["ts"] == "36"
    assert snapshot["sides"][0]["bsm"] == [["bsm.superiority.Art", 3]]
    assert snapshot["sides"][1]["bsm"] == [["bsm.superiority.Cav", 3], ["bsm.superiority.F", 3]]
    assert snapshot["sides"][0]["db"] == 2
    assert snapshot["round_length"] == 15
    assert snapshot["pcs"][0]["name"] == "Ann"
    assert battle.events.filter(code="gurps4e.battle_started").exists()


def test_the_commander_comes_from_the_faction_command_staff(battle, legion):
    """gurps §A.2.5: the faction's commander (Strategy, Tactics, Leadership) commands."""
    from kingdoms.models import CommandStaff

    staff = CommandStaff.objects.get(faction=legion.faction)
    commander = battle.setup["sides"]["a"]["force"]["staff"]["commander"]
    assert commander["strategy"] == staff.strategy
    assert commander["leadership"] == staff.leadership


def test_a_force_weakened_by_earlier_battles_fights_at_its_share(
    client, gm, gurps_world, legion, horde
):
    """gurps §A.7.3: TS × strength left: 41 at 50 % = 20.5."""
    Force.objects.filter(pk=legion.pk).update(strength_percent=50)
    client.force_login(gm)
    assert _post_setup(client, gurps_world, legion, horde).status_code == 302
    assert Battle.objects.get().snapshot["sides"][0]["ts"] == "41/2"


@pytest.mark.parametrize(
    "changes",
    [
        {"name": ""},
        {"force_b": "__legion__"},
        {"pc1_side": ""},
        {"terrain": "moon"},
        {"db_a": "-1"},
        {"battle_type": "naval"},
    ],
)
def test_bad_setup_is_a_400_and_saves_nothing(client, gm, gurps_world, legion, horde, changes):
    changes = {k: (legion.pk if v == "__legion__" else v) for k, v in changes.items()}
    client.force_login(gm)
    response = _post_setup(client, gurps_world, legion, horde, **changes)
    assert response.status_code == 400
    if "battle_type" in changes:  # gurps §A.3.1: foot and horse do not fight at sea
        assert "No element of side a can fight in this type of battle." in response.content.decode()
    assert not Battle.objects.exists()


@pytest.mark.parametrize(("neutralize", "cavalry"), [("on", None), ("", 3)])
def test_the_gm_decides_whether_neutralizers_count(
    client, gm, gurps_world, legion, horde, neutralize, cavalry
):
    """gurps §A.5.3: 10 pikemen (TS 20, neutralize Cav) against the Horde's Cav TS 36: with
    neutralizers 36 : 20 = 1.8 : 1, no bonus; without, only the Horde has Cav: +3."""
    from decimal import Decimal

    from warfare.systems.gurps4e.models import ElementType

    pikes = ElementType.objects.create(
        campaign=gurps_world, name="Pikemen", tl=2, base_ts=Decimal(2), neutralizes=["Cav"]
    )
    ForceElement.objects.create(force=legion, element_type=pikes, count=10)
    client.force_login(gm)
    response = _post_setup(client, gurps_world, legion, horde, neutralize_a=neutralize)
    assert response.status_code == 302
    bsm = dict(Battle.objects.get().snapshot["sides"][1]["bsm"])
    assert bsm.get("bsm.superiority.Cav") == cavalry


def test_a_player_cannot_set_up_a_battle(client, player, gurps_world, legion, horde):
    client.force_login(player)
    assert _post_setup(client, gurps_world, legion, horde).status_code == 403
    assert not Battle.objects.exists()


def test_board_shows_ts_bsm_breakdown_casualties_and_the_checklist(client, gm, battle):
    client.force_login(gm)
    page = _board(client, battle)
    assert "Troop Strength" in page and "<dd>41</dd>" in page and "<dd>36</dd>" in page
    assert "Basic Strategy Modifier +6" in page
    assert "Cavalry superiority" in page and "Fire superiority" in page
    assert "Casualties 0 %" in page
    assert "the commander&#x27;s strategy (secret) and Risk" in page
    assert "Ann: Risk, and a significant action if wanted" in page


def test_strategy_effects_are_shown_before_choosing(client, player, battle):
    """gurps §A.6.3 [impl]: All-Out Attack +2, own casualties ×2, enemy +5 % on a win."""
    client.force_login(player)
    page = _board(client, battle)
    assert "All-Out Attack" in page
    assert "+2 to the Strategy roll" in page
    assert "own casualties ×2" in page
    assert "if it wins: enemy +5 %" in page


def test_a_players_secret_strategy_stays_hidden_from_the_other_side(
    client, player, other_player, battle
):
    """gurps §A.6.3: commanders choose secretly; the board shows the first choice to
    nobody but its side and the GM until both are in (HTML, JSON, log)."""
    client.force_login(player)
    response = _act(client, battle, actor="a", kind="choose_strategy",
                    option=json.dumps({"strategy": "all_out_attack", "desperate": False}),
                    risk="2", raid_logistics="1")  # fmt: skip
    assert response.status_code == 200, response.content.decode()[:3000]
    own = _board(client, battle)
    assert "Chosen (secret until both are in): All-Out Attack (Risk +2)" in own
    assert "Chosen so far: All-Out Attack (Risk +2)." in own
    client.force_login(other_player)
    enemy = _board(client, battle)
    assert "Chosen (secret until both are in)" not in enemy
    assert "All-Out Attack (Risk +2)" not in enemy and "Risk +2" not in enemy
    assert "Chosen so far" not in enemy
    assert "The commander has chosen." in enemy
    api = client.get(reverse("api:battle-detail", args=[battle.campaign_id, battle.pk])).json()
    assert api["state"]["choices"][0] == {"chosen": True}
    assert "all_out_attack" not in json.dumps(api["state"])
    assert api["sides"][0]["choice"] is None
    log = client.get(reverse("api:battle-log", args=[battle.campaign_id, battle.pk])).json()
    assert "all_out_attack" not in json.dumps(log) and "All-Out Attack" not in json.dumps(log)
    assert "Legion has chosen its strategy (secret)." in json.dumps(log)
    report = client.get(reverse("battles:report", args=[battle.campaign_id, battle.pk]))
    assert report.status_code == 200 and "All-Out Attack" not in report.content.decode()


def test_enemy_troop_strength_stays_hidden(client, other_player, battle):
    """gurps §A.5.1: a side learns the enemy at the precision of its intelligence, never its
    exact TS or BSM working."""
    client.force_login(other_player)
    page = _board(client, battle)
    assert "<dd>36</dd>" in page and "<dd>41</dd>" not in page
    assert "Basic Strategy Modifier +6" in page and "Basic Strategy Modifier +3" not in page
    api = client.get(reverse("api:battle-detail", args=[battle.campaign_id, battle.pk])).json()
    assert api["sides"][0]["ts"] is None and api["sides"][0]["bsm"] == []
    assert "ts" not in api["state"]["sides"][0]
    log = client.get(reverse("api:battle-log", args=[battle.campaign_id, battle.pk])).json()
    started = next(e for e in log["results"] if e["code"] == "gurps4e.battle_started")
    assert started["params"]["ts"] == [None, "36"]


def test_a_player_cannot_choose_for_the_other_side(client, player, battle):
    client.force_login(player)
    response = _act(client, battle, actor="b", kind="choose_strategy",
                    option=json.dumps({"strategy": "attack", "desperate": False}))  # fmt: skip
    assert response.status_code == 403
    assert Battle.objects.get(pk=battle.pk).seq == 0


def test_only_its_player_chooses_a_pcs_risk(client, player, other_player, battle):
    client.force_login(other_player)
    assert _act(client, battle, actor="pc1", kind="choose_risk", risk="1").status_code == 403
    client.force_login(player)
    assert _act(client, battle, actor="pc1", kind="choose_risk", risk="1").status_code == 200
    assert Battle.objects.get(pk=battle.pk).snapshot["pc_choices"]["pc1"]["risk"] == 1


def test_players_only_watch_when_the_gm_says_so(client, player, battle):
    Battle.objects.filter(pk=battle.pk).update(players_may_act=False)
    client.force_login(player)
    assert "Choose in secret" not in _board(client, battle)
    response = _act(client, battle, actor="a", kind="choose_strategy", option=ATTACK)
    assert response.status_code == 403


def test_non_members_get_404(client, outsider, battle):
    client.force_login(outsider)
    board = client.get(reverse("battles:board", args=[battle.campaign_id, battle.pk]))
    assert board.status_code == 404
    assert _act(client, battle, actor="a", kind="choose_risk").status_code == 404
    api = client.get(reverse("api:battle-detail", args=[battle.campaign_id, battle.pk]))
    assert api.status_code == 404


def test_stale_choice_is_a_409_and_the_poll_answers_304(client, gm, battle):
    client.force_login(gm)
    url = reverse("battles:board", args=[battle.campaign_id, battle.pk])
    assert client.get(url + "?since=0").status_code == 304
    assert _act(client, battle, actor="pc1", kind="choose_risk", risk="0").status_code == 200
    response = _act(client, battle, seq=0, actor="a", kind="choose_strategy", option=ATTACK)
    assert response.status_code == 409
    assert client.get(url + "?since=0").status_code == 200


def test_undo_takes_back_the_last_choice(client, gm, battle):
    client.force_login(gm)
    before = Battle.objects.get(pk=battle.pk).snapshot
    _act(client, battle, actor="pc1", kind="choose_risk", risk="3")
    response = client.post(
        reverse("battles:undo", args=[battle.campaign_id, battle.pk]), {"seq": 1},
        HTTP_HX_REQUEST="true",
    )  # fmt: skip
    assert response.status_code == 200
    after = Battle.objects.get(pk=battle.pk)
    assert after.seq == 0 and after.snapshot == before
    assert BattleCommand.objects.get(battle=battle).undone_at is not None


def _awaits(battle, actor: str) -> bool:
    """Does the engine wait for `actor` to act (the battle may have ended meanwhile)?"""
    snapshot = Battle.objects.get(pk=battle.pk).snapshot
    system = get_battle_system("gurps4e")
    return any(w.actor == actor for w in system.awaiting(system.state_from_dict(snapshot)))


def _play_round(client, battle, a="all_out_attack", b="attack"):
    for actor, strategy in (("a", a), ("b", b)):
        response = _act(client, battle, actor=actor, kind="choose_strategy",
                        option=json.dumps({"strategy": strategy, "desperate": False}))  # fmt: skip
        assert response.status_code == 200, response.content.decode()[:3000]
    if not _awaits(battle, "pc1"):
        return  # the PC is out of the fight, or the strategies alone ended the battle
    response = _act(client, battle, actor="pc1", kind="significant_action", risk="0")
    assert response.status_code == 200, response.content.decode()[:3000]


def test_a_round_resolves_with_every_roll_in_the_log(client, gm, battle):
    """gurps §A.6.2-A.6.5: the significant action, the Quick Contest with its breakdown, the
    CRT casualties and PB, and Misfortunes of War are logged with dice and margins."""
    client.force_login(gm)
    _play_round(client, battle)
    state = Battle.objects.get(pk=battle.pk).snapshot
    assert state["round"] == 2 or state["finished"]
    page = _board(client, battle)
    assert "Strategies revealed: Legion: All-Out Attack; Horde: Attack." in page
    assert "Strategy contest (All-Out Attack / Attack): Legion 3d6" in page
    assert "margin" in page
    assert "Ann attempts a significant action: 3d6" in page


def test_gm_plays_to_the_end_and_applies_the_results(client, gm, battle, legion, horde):
    """gurps §A.7.3: each force keeps the share of its TS the aftermath leaves it."""
    client.force_login(gm)
    for _round in range(30):
        snapshot = Battle.objects.get(pk=battle.pk).snapshot
        if snapshot["finished"]:
            break
        if snapshot["phase"] == "pursuit":
            _act(client, battle, actor=("a", "b")[snapshot["victor"]], kind="choose_pursuit",
                 params=json.dumps({"pursue": True}))  # fmt: skip
            continue
        _play_round(client, battle, a="all_out_attack", b="all_out_attack")
    battle.refresh_from_db()
    assert battle.status == "finished", battle.snapshot["phase"]
    page = _board(client, battle)
    assert "The battle is over" in page and "Apply the results" in page
    details = battle.outcome["details"]["sides"]
    response = client.post(
        reverse("battles:apply", args=[battle.campaign_id, battle.pk]), {"seq": battle.seq}
    )
    assert response.status_code == 302
    legion.refresh_from_db()
    horde.refresh_from_db()
    assert legion.strength_percent == new_strength_percent(
        100, Fraction(details["a"]["old_ts"]), details["a"]["new_ts"]
    )
    assert horde.strength_percent < 100 or details["b"]["final_casualties"] == 0
    assert Battle.objects.get(pk=battle.pk).status == "applied"
    report = client.get(reverse("battles:report", args=[battle.campaign_id, battle.pk]))
    assert report.status_code == 200
    markdown = client.get(
        reverse("battles:report", args=[battle.campaign_id, battle.pk]) + "?format=md"
    )
    assert "Strategy contest" in markdown.content.decode()


def test_new_strength_share_follows_the_new_ts():
    """gurps §A.7.3: a force at 80 % (TS 32.8 of 41) that ends at TS 24 keeps 58 % of 41."""
    assert new_strength_percent(80, Fraction(164, 5), 24) == 58
    assert new_strength_percent(100, Fraction(41), 41) == 100
    assert new_strength_percent(100, Fraction(0), 0) == 0


def _queries(client, url) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    return len(queries)


def test_pages_cost_a_fixed_number_of_queries(client, gm, player, battle):
    """The board, the API's board and log, and the report do not grow with the log or the
    PCs: user (the session is in the shared cache), membership, battle, (campaign), (the
    factions, for a side's secrecy and the hidden factions' names), events. The board reads
    its campaign and its battle with the membership (`services.access_battle`: one query),
    and the user with them too (`battles.access.board_member`); drawn, it is cached (a
    second viewer of its viewpoint reads no events); the report's charts replay the
    commands (one query, once per version of the battle: then they are in the cache)."""
    args = [battle.campaign_id, battle.pk]
    urls = {
        reverse("battles:board", args=args): 3,
        reverse("api:battle-detail", args=args): 4,
        reverse("api:battle-log", args=args): 5,
        reverse("battles:report", args=args): 5,
    }
    client.force_login(gm)
    assert {url: _queries(client, url) for url in urls} == urls
    _play_round(client, battle)
    clear_cache()  # the GM's board of the new round was drawn for the last choice: draw again
    client.force_login(gm)  # the session is kept in the cache just cleared (cached_db)
    assert {url: _queries(client, url) for url in urls} == urls
    client.force_login(player)
    log, report = reverse("api:battle-log", args=args), reverse("battles:report", args=args)
    player_urls = {**urls, log: urls[log] + 1, report: urls[report] + 1}  # + the factions
    assert {url: _queries(client, url) for url in urls} == player_urls


def test_gm_tools_circumstance_and_a_players_gm_command_is_refused(client, gm, player, battle):
    """gurps §A.6.4: the GM's special-circumstances modifier (−3…+3) counts in this round's
    Strategy roll; a player cannot send a GM command (403)."""
    client.force_login(player)
    response = _act(client, battle, kind="gm_circumstance", side="b", value="3")
    assert response.status_code == 403
    # Sent in the name of their own side, the engine refuses a GM command: nothing changes.
    response = _act(client, battle, actor="a", kind="gm_end_battle", victor="a")
    assert response.status_code == 400 and "Only the GM does that." in response.content.decode()
    assert Battle.objects.get(pk=battle.pk).seq == 0
    client.force_login(gm)
    assert _act(client, battle, kind="gm_circumstance", side="b", value="3").status_code == 200
    page = _board(client, battle)
    assert "The GM gives Horde +3 for special circumstances this round." in page
    _play_round(client, battle)
    contest = Battle.objects.get(pk=battle.pk).events.get(code="gurps4e.strategy_contest")
    assert ["gm_circumstance", 3] in contest.params["rolls"][1]["breakdown"]
    assert "special circumstances (GM) +3" in _board(client, battle)


def test_api_creates_a_battle_and_acts(as_role, gurps_world, legion, horde, player):
    gm = as_role("gm")
    url = reverse("api:battle-list", args=[gurps_world.pk])
    body = {
        "name": "API battle",
        "forces": {"a": legion.pk, "b": horde.pk},
        "terrain": "hills",
        "recon": True,
        "recon_conditions": {"a": {"march": 1}, "b": {"road": "road"}},
        "pcs": [{"name": "Bo", "side": "a", "owner": player.pk}],
    }
    response = gm.post(url, body, format="json")
    assert response.status_code == 201, response.json()
    data = response.json()
    assert data["system"] == "gurps4e"
    battle = Battle.objects.get(name="API battle")
    recon = battle.events.get(code="gurps4e.recon").params
    # gurps §A.4.3: on the march −1 (side a), along a road −1 (side b).
    assert ["recon.march", -1] in recon["rolls"][0]["breakdown"]
    assert ["recon.road", -1] in recon["rolls"][1]["breakdown"]
    assert as_role("player").post(url, body, format="json").status_code == 403
    bad = gm.post(url, {**body, "forces": {"a": legion.pk, "b": legion.pk}}, format="json")
    assert bad.status_code == 400
    assert Battle.objects.count() == 1
    # Act through the API: the recon winner (if any) picks the kind, then choices.
    act = reverse("api:battle-actions", args=[gurps_world.pk, battle.pk])
    state = gm.get(reverse("api:battle-detail", args=[gurps_world.pk, battle.pk])).json()
    action = state["actions"][0]
    response = gm.post(act, {"seq": state["seq"], "actor": action["actor"], "kind": action["key"],
                             "params": action["options"][0]["params"]}, format="json")  # fmt: skip
    assert response.status_code == 200, response.json()
    assert response.json()["seq"] == 1
    stale = gm.post(act, {"seq": 0, "actor": action["actor"], "kind": action["key"],
                          "params": action["options"][0]["params"]}, format="json")  # fmt: skip
    assert stale.status_code == 409


def test_services_verify_replays_a_gurps_battle(client, gm, battle):
    client.force_login(gm)
    _play_round(client, battle)
    assert services.battle_verify(Battle.objects.get(pk=battle.pk))


def test_a_side_learns_the_enemy_at_the_precision_of_its_intelligence(client, other_player, battle):
    """gurps §A.5.1: in a pitched battle (not confused, fair weather) a side learns the
    enemy's identity and exact size: the Legion's 10 Heavy Infantry and 5 Light Artillery."""
    client.force_login(other_player)
    page = _board(client, battle)
    assert "Exact (pitched battle): Legion" in page
    assert "Heavy Infantry: 10" in page and "Light Artillery: 5" in page


def test_a_bystander_sees_neither_sides_numbers_nor_choices(client, gm, battle, hidden_faction):
    """A player whose faction fights on neither side: no TS, no BSM, no pending choice."""
    from kingdoms.models import Membership, Role
    from tests.factories import UserFactory

    bystander = UserFactory(username="bystander")
    Membership.objects.create(
        campaign=battle.campaign, user=bystander, role=Role.PLAYER, faction=hidden_faction
    )
    client.force_login(gm)
    _act(client, battle, actor="a", kind="choose_strategy", option=ATTACK, risk="1")
    client.force_login(bystander)
    page = _board(client, battle)
    assert "Troop Strength" not in page and "Basic Strategy Modifier" not in page
    assert "Choose in secret" not in page and "Chosen (secret" not in page
    api = client.get(reverse("api:battle-detail", args=[battle.campaign_id, battle.pk])).json()
    assert api["state"]["choices"] == [{"chosen": True}, None]
    assert all(
        set(side) == {"casualties", "pb", "confused", "left"} for side in api["state"]["sides"]
    )
    assert api["actions"] == []


def test_the_enemy_does_not_learn_the_victors_new_ts_or_loot(client, gm, other_player, battle):
    """gurps §A.7: each side sees the final casualties of both, its own new TS and loot."""
    client.force_login(gm)
    _act(client, battle, kind="gm_end_battle", victor="a")
    battle.refresh_from_db()
    assert battle.status == "finished"
    client.force_login(other_player)
    api = client.get(reverse("api:battle-detail", args=[battle.campaign_id, battle.pk])).json()
    legion, horde = api["outcome"]["sides"]
    assert "new_ts" not in legion and horde["new_ts"] == 36
    assert set(api["state"]["aftermath"]["sides"]["a"]) == {
        "role", "casualties", "final_casualties"
    }  # fmt: skip
    assert "Apply the results" not in _board(client, battle)


def test_the_demo_has_a_gurps4e_battle_ready(db):
    """`make run` loads a GURPS Mass Combat campaign with a battle on the board, once."""
    from warfare.systems.gurps4e.demo import DEMO_CAMPAIGN, load_demo

    assert load_demo().created
    assert not load_demo().created
    battle = Battle.objects.get(campaign__name=DEMO_CAMPAIGN)
    assert battle.system == "gurps4e" and battle.snapshot["phase"] == "choosing"
    assert services.battle_verify(battle)


def test_a_campaign_with_a_gurps4e_battle_exports_and_imports_it(gm, battle):
    """The file (version 3) carries the GURPS battle with its forces by file ref; the
    imported battle names the imported forces and verifies (tests/gurps4e/test_portability)."""
    from kingdoms.portability import campaign_export, campaign_import

    data = campaign_export(battle.campaign)
    assert [b["system"] for b in data["battles"]] == ["gurps4e"]
    copy_ = campaign_import(user=gm, data=data)
    imported = Battle.objects.get(campaign=copy_)
    assert (
        imported.setup["sides"]["a"]["force_id"]
        == Force.objects.get(campaign=copy_, name="Legion").pk
    )
    assert services.battle_verify(imported)


def test_a_pc_of_a_faction_is_chosen_for_by_any_of_its_players(
    client, gm, player, other_player, gurps_world, legion, horde
):
    """A PC given to a faction (no single owner): its players choose its Risk, nobody else."""
    client.force_login(gm)
    owner = {"pc1_owner": f"faction:{legion.faction_id}"}
    assert _post_setup(client, gurps_world, legion, horde, **owner).status_code == 302
    battle = Battle.objects.get()
    client.force_login(other_player)
    assert _act(client, battle, actor="pc1", kind="choose_risk", risk="1").status_code == 403
    client.force_login(player)
    assert _act(client, battle, actor="pc1", kind="choose_risk", risk="1").status_code == 200


def test_a_pc_fights_in_an_element_of_its_own_force(client, gm, gurps_world, legion, horde):
    """gurps §A.6.2: the PC's element row (support −1, Fanatic +1) must be its side's."""
    client.force_login(gm)
    own = legion.elements.order_by("pk").last()  # the Light Artillery: support
    other = horde.elements.get()
    response = _post_setup(client, gurps_world, legion, horde, pc1_element=str(other.pk))
    assert response.status_code == 400
    assert "Ann fights in an element of another force." in response.content.decode()
    assert not Battle.objects.exists()
    response = _post_setup(client, gurps_world, legion, horde, pc1_element=str(own.pk))
    assert response.status_code == 302
    battle = Battle.objects.get()
    assert battle.snapshot["pcs"][0]["element"] == str(own.pk)
    client.force_login(gm)
    # More than one element fights and Ann is in a support element: −1 to her heroism roll.
    assert "support element or logistics −1" in _board(client, battle)


def _choose_both(client, battle):
    for actor, strategy in (("a", "all_out_attack"), ("b", "attack")):
        response = _act(client, battle, actor=actor, kind="choose_strategy",
                        option=json.dumps({"strategy": strategy, "desperate": False}))  # fmt: skip
        assert response.status_code == 200, response.content.decode()[:3000]


def test_dice_rolled_at_the_table_resolve_the_round_and_are_logged_as_typed(client, gm, battle):
    """gurps §A.6.2 significant action (3d6): the three d6 typed in (6, 6, 6: 18, a critical
    failure, §0.2) are its roll, logged as typed; the next three are side A's Quick Contest
    roll (§A.6.3); the rest the server rolls. Replay reproduces the board (they are stored
    in the command)."""
    client.force_login(gm)
    _choose_both(client, battle)
    response = _act(client, battle, actor="pc1", kind="significant_action", risk="0",
                    dice="6 6 6, 1 2 3")  # fmt: skip
    assert response.status_code == 200, response.content.decode()[:3000]
    battle = Battle.objects.get(pk=battle.pk)
    assert BattleCommand.objects.get(battle=battle, position=2).command["typed_dice"] == [
        6, 6, 6, 1, 2, 3,
    ]  # fmt: skip
    action = battle.events.get(code="gurps4e.significant_action").params["roll"]
    assert (action["dice"], action["roll"], action["degree"]) == ([6, 6, 6], 18, "critical_failure")
    assert action["typed"] == 3
    contest = battle.events.get(code="gurps4e.strategy_contest").params["rolls"]
    assert contest[0]["dice"] == [1, 2, 3] and contest[0]["typed"] == 3
    assert "typed" not in contest[1]
    page = _board(client, battle)
    assert "3d6 6+6+6 (typed at the table) = 18" in page
    assert services.battle_verify(battle)


@pytest.mark.parametrize(
    ("dice", "message"),
    [
        ("6 7 1", "Dice are numbers from 1 to 6."),
        ("three", "Dice are numbers from 1 to 6."),
        (" ".join(["1"] * 21), "At most 20 dice can be typed in."),
    ],
)
def test_bad_dice_typed_in_are_a_400_and_change_nothing(client, gm, battle, dice, message):
    client.force_login(gm)
    _choose_both(client, battle)
    response = _act(client, battle, actor="pc1", kind="significant_action", risk="0", dice=dice)
    assert response.status_code == 400
    assert message in response.content.decode()
    assert Battle.objects.get(pk=battle.pk).seq == 2


def test_dice_typed_in_on_a_choice_that_rolls_none_are_refused(client, gm, battle):
    """A commander's secret strategy rolls nothing until the round's last choice is in
    (gurps §A.6.1): dice typed in with it are refused, nothing is saved."""
    client.force_login(gm)
    response = _act(client, battle, actor="a", kind="choose_strategy", option=ATTACK, dice="3 3 3")
    assert response.status_code == 400
    assert "This action rolls no dice" in response.content.decode()
    assert Battle.objects.get(pk=battle.pk).seq == 0 and not battle.commands.exists()


def test_api_acts_with_dice_typed_in(as_role, client, gm, battle):
    """The battle-actions endpoint's `typed_dice` on a GURPS 4e board: the significant
    action's 3d6 (gurps §A.6.2) are the typed 1, 1, 2 (4: a critical success, §0.2); dice
    typed in with a secret strategy, which rolls nothing (§A.6.1), are a 400."""
    api = as_role("gm")
    url = reverse("api:battle-actions", args=[battle.campaign_id, battle.pk])
    secret = {"seq": 0, "actor": "a", "kind": "choose_strategy", "typed_dice": [3],
              "params": {"strategy": "attack", "desperate": False, "risk": 0,
                         "raid_logistics": False}}  # fmt: skip
    refused = api.post(url, secret, format="json")
    assert refused.status_code == 400 and "rolls no dice" in json.dumps(refused.json())
    assert not battle.commands.exists()
    client.force_login(gm)
    _choose_both(client, battle)
    body = {"seq": 2, "actor": "pc1", "kind": "significant_action", "params": {"risk": 0},
            "typed_dice": [1, 1, 2]}  # fmt: skip
    response = api.post(url, body, format="json")
    assert response.status_code == 200, response.json()
    roll = Battle.objects.get(pk=battle.pk).events.get(code="gurps4e.significant_action")
    assert roll.params["roll"]["dice"] == [1, 1, 2] and roll.params["roll"]["typed"] == 3
    assert roll.params["roll"]["degree"] == "critical_success"


def test_the_pursuit_rolls_the_dice_typed_in(client, gm, battle):
    """gurps §A.7.1: a victor who may choose (its Leadership roll made) pursues: 1d × 5 % of
    the retreating force's logistics. The pursuit buttons share one "dice rolled at the
    table" field; the typed 4 gives 20 %, logged as typed. (The board is put straight into
    the pursuit phase of side A.)"""
    snapshot = {**battle.snapshot, "phase": "pursuit", "victor": 0}
    Battle.objects.filter(pk=battle.pk).update(snapshot=snapshot)
    client.force_login(gm)
    page = _board(client, battle)
    assert 'hx-include="#dice-a-choose_pursuit"' in page and 'id="dice-a-choose_pursuit"' in page
    response = _act(client, battle, actor="a", kind="choose_pursuit",
                    params=json.dumps({"pursue": True}), dice="4")  # fmt: skip
    assert response.status_code == 200, response.content.decode()[:3000]
    pursuit = Battle.objects.get(pk=battle.pk).events.get(code="gurps4e.pursuit").params
    assert (pursuit["logistics"], pursuit["logistics_typed"]) == (20, True)
    assert "logistics die 4, typed at the table" in _board(client, battle)


def test_each_event_is_logged_in_the_round_it_happened(client, gm, battle):
    """gurps §A.6.2-A.6.6: the strategies of round 1 are revealed, fought and the round ends
    in round 1; only the next round's start is round 2 (it used to read "round 2" next to
    round 1's contest)."""
    client.force_login(gm)
    _play_round(client, battle)
    rounds = dict(
        battle.events.filter(command__isnull=False).values_list("code", "round").order_by("pk")
    )
    assert rounds["gurps4e.strategies_revealed"] == 1
    assert rounds["gurps4e.strategy_contest"] == 1
    assert rounds["gurps4e.round_ended"] == 1
    if "gurps4e.round_started" in rounds:
        assert rounds["gurps4e.round_started"] == 2


def test_the_data_migration_tags_stored_events_with_their_round(client, gm, battle):
    """battles 0002: events stored the old way (the whole command in the round after it)
    get the rounds new events get, an undone command's round 2 not leaking into the redone
    round 1."""
    from importlib import import_module

    from django.apps import apps

    client.force_login(gm)
    _play_round(client, battle)
    last = battle.commands.order_by("-position").first()
    client.post(reverse("battles:undo", args=[battle.campaign_id, battle.pk]),
                {"seq": Battle.objects.get(pk=battle.pk).seq}, HTTP_HX_REQUEST="true")  # fmt: skip
    assert _act(client, battle, actor="pc1", kind="significant_action", risk="0").status_code == 200
    expected = list(battle.events.order_by("pk").values_list("pk", "round"))
    assert last.events.filter(round=1).exists() and last.events.filter(round=2).exists()
    battle.events.filter(command__isnull=False).update(round=2)  # the old tags
    import_module("battles.migrations.0002_event_rounds").retag(apps, None)
    assert list(battle.events.order_by("pk").values_list("pk", "round")) == expected


def test_the_battle_and_the_force_show_one_new_ts(client, gm, battle, horde):
    """gurps §A.7.3 [impl]: the new TS is kept as a whole percent of the force's full TS
    (rounded down), and the board, the log and the force page show that one number (the
    battle read the engine's TS 25 while the force showed 24.84 of it)."""
    client.force_login(gm)
    _choose_both(client, battle)
    response = _act(client, battle, actor="pc1", kind="significant_action", risk="0",
                    dice="3 4 3, 1 2 3, 6 6 5")  # fmt: skip
    assert response.status_code == 200, response.content.decode()[:3000]
    assert _act(client, battle, kind="gm_end_battle", victor="a").status_code == 200
    battle.refresh_from_db()
    engine_new_ts = battle.outcome["details"]["sides"]["b"]["new_ts"]
    page = _board(client, battle)
    apply = reverse("battles:apply", args=[battle.campaign_id, battle.pk])
    assert client.post(apply, {"seq": battle.seq}).status_code == 302
    horde.refresh_from_db()
    kept = mapping.display(mapping.troop_strength(horde).total)
    assert kept != str(engine_new_ts)  # the engine's whole TS is not what the force keeps
    shown = f"TS 36 → {kept} ({horde.strength_percent} % of its full TS)"
    assert shown in page
    assert f"new TS {kept} ({horde.strength_percent} % of its full TS)" in page
    force_page = client.get(reverse("gurps4e:force-detail", args=[horde.campaign_id, horde.pk]))
    assert f"TS {kept}" in force_page.content.decode()


def test_the_compare_page_never_rounds_a_ratio_up_past_its_threshold(client, gm, gurps_world,
                                                                     legion, horde):  # fmt: skip
    """gurps §A.5.2: the relative TS bonus starts at 1.5 : 1; 14.97 : 10 is 1.497 : 1, no
    bonus, and the page shows 1.49 : 1 (it showed "1.5 : 1 → +0")."""
    from warfare.systems.gurps4e.models import ElementType, ForceElement

    scouts = ElementType.objects.create(campaign=gurps_world, name="Scouts", tl=2,
                                        base_ts="14.97", classes=[])  # fmt: skip
    mob = ElementType.objects.create(campaign=gurps_world, name="Mob", tl=2, base_ts=10,
                                     classes=[])  # fmt: skip
    ForceElement.objects.filter(force__in=[legion, horde]).delete()
    ForceElement.objects.create(force=legion, element_type=scouts, count=1)
    ForceElement.objects.create(force=horde, element_type=mob, count=1)
    client.force_login(gm)
    url = reverse("gurps4e:force-detail", args=[legion.campaign_id, legion.pk])
    page = " ".join(client.get(url, {"enemy": horde.pk}).content.decode().split())
    assert "Ratio of the larger TS to the smaller = <b>1.49 : 1</b>" in page
    assert "Relative TS bonus of — (§A.5.2) = <b>+0</b>" in page


def test_the_reconnaissance_roll_takes_dice_typed_at_the_table(
    client, as_role, gm, gurps_world, legion, horde
):
    """gurps §A.4.2: the Quick Contest of reconnaissance (3d6 a side) is rolled with the dice
    typed in at set-up, logged as typed, like every later roll; the stored battle replays;
    dice without a contest, or more than its 6, are a 400 and start nothing (page and API)."""
    client.force_login(gm)
    page = client.get(reverse("battles:create", args=[gurps_world.pk])).content.decode()
    assert 'name="recon_dice"' in page
    for dice, message in (("1 1 1 6 6 6 2", "type in at most 6"), ("7 1 1", "from 1 to 6")):
        bad = _post_setup(client, gurps_world, legion, horde, recon="on", recon_dice=dice)
        assert bad.status_code == 400 and message in bad.content.decode()
    bad = _post_setup(client, gurps_world, legion, horde, recon_dice="1 1 1")
    assert bad.status_code == 400 and "go with a reconnaissance contest" in bad.content.decode()
    assert not Battle.objects.exists()
    response = _post_setup(client, gurps_world, legion, horde, recon="on",
                           recon_dice="1 1 1, 6 6 6")  # fmt: skip
    assert response.status_code == 302, response.content.decode()[:2000]
    battle = Battle.objects.get()
    first, second = battle.events.get(code="gurps4e.recon").params["rolls"]
    assert (first["dice"], first["typed"], second["dice"], second["typed"]) == (
        [1, 1, 1], 3, [6, 6, 6], 3)  # fmt: skip
    assert "3d6 1+1+1 (typed at the table) = 3" in _board(client, battle)
    assert services.battle_verify(battle)
    Battle.objects.filter(pk=battle.pk).update(status="applied")  # frees its forces
    url = reverse("api:battle-list", args=[gurps_world.pk])
    body = {"name": "API recon", "forces": {"a": legion.pk, "b": horde.pk}, "recon": True,
            "recon_dice": [1, 1, 1, 6, 6, 6, 6]}  # fmt: skip
    api = as_role("gm").post(url, body, format="json")
    assert api.status_code == 400 and "type in at most 6" in api.content.decode()
    api = as_role("gm").post(url, {**body, "recon_dice": [2, 2, 2]}, format="json")
    assert api.status_code == 201, api.content.decode()
    rolls = Battle.objects.get(name="API recon").events.get(code="gurps4e.recon").params["rolls"]
    assert rolls[0]["dice"] == [2, 2, 2] and "typed" not in rolls[1]


def test_the_strategy_texts_are_built_once_per_language(client, player, battle, monkeypatch):
    """A board shows every strategy's effects: static texts, translated once per language,
    not looked up again (~1,360 translations) on every render."""
    from django.utils import translation

    client.force_login(player)
    assert "own casualties" in _board(client, battle)  # the texts are built (and cached)
    lookups = []
    real = translation._trans.gettext
    monkeypatch.setattr(translation._trans, "gettext", lambda m: lookups.append(m) or real(m))
    clear_cache()  # the next board is rendered again, not served from the shared cache
    page = _board(client, battle)
    assert "own casualties" in page
    assert 0 < len(lookups) < 400, len(lookups)
    assert not any("own casualties" in message for message in lookups)
