"""The GURPS 3e battle board (gurps §B.2): set-up from the campaign's forces and characters,
who may choose which Risk, the day's resolution on the board, the 409 on a stale board, undo,
the results written back, and a fixed number of queries."""

import pytest
from django.urls import reverse

from battles import services
from battles.models import Battle, BattleStatus
from tests.caches import clear_cache
from tests.conftest import board_queries
from tests.engine.gurps3e.helpers import faces
from warfare.engine.battle.registry import get_battle_system
from warfare.engine.systems.gurps3e.strategy import strategy_terms
from warfare.systems.gurps3e.models import Character, Unit

from .conftest import setup_post

pytestmark = pytest.mark.django_db


def _act(client, battle, **data):
    battle.refresh_from_db()
    data.setdefault("seq", battle.seq)
    return client.post(
        reverse("battles:act", args=[battle.campaign_id, battle.pk]), data, HTTP_HX_REQUEST="true"
    )


def _board(client, battle) -> str:
    return client.get(
        reverse("battles:board", args=[battle.campaign_id, battle.pk])
    ).content.decode()


def test_setup_builds_the_sides_from_forces_and_command_staff(g3_battle, host, aldric):
    """§B.2 step 1-2: side A is the Host (TS 600, Strategy 14 from its command staff),
    side B the defending Horde (TS 1000: 200 × (2 + 3 racial), §B.3a)."""
    a, b = g3_battle.setup["sides"]
    assert (a["role"], a["strategy"], a["commander"], a["forces"]) == (
        "attacker", 14, "Lady Jamandi", [host.pk],
    )  # fmt: skip
    assert (b["role"], b["strategy"]) == ("defender", 12)
    forces = {f["key"]: f["ts"] for f in g3_battle.snapshot["forces"]}
    assert forces == {"a": 600, "b": 1000}
    pcs = {pc["name"]: pc for pc in g3_battle.setup["pcs"]}
    assert pcs["Aldric"]["owner"] == aldric.owner_id and pcs["Aldric"]["side"] == "a"
    assert pcs["Aldric"]["reputation"] == [{"value": 1, "expires": 5, "source": "gm"}]


def test_board_shows_ts_ratio_strategy_and_the_checklist(client, gm, g3_battle):
    """§B.7.1: 1000 : 600 = 1.67 : 1 is +2 for the Horde (1.4-1.7 band)."""
    client.force_login(gm)
    page = _board(client, g3_battle)
    assert "TS 600" in page and "TS 1000" in page
    assert "TS ratio 1.67 : 1 in favour of Side B: Thornback Horde: Strategy +2" in page
    assert "(Strategy 12, TS ratio +2)" in page
    assert "waiting for: Aldric, Brenna" in page
    # §B.4: Brenna is berserk, Risk not above 0; Aldric's options show both rolls.
    assert "Risk +1: Survival 14, Glory 12" in page
    assert "(−6…0)" in page


@pytest.mark.parametrize(
    "extra",
    [
        {"force_{host}": ""},  # side A without forces
        {"defensive": ["narrow_passage"]},  # narrow passage without its value
        {"days": 0},
        {"narrow_passage": 9, "defensive": ["narrow_passage"]},
        {"name": ""},
    ],
)
def test_bad_setup_is_a_400_and_starts_nothing(client, gm, g3_world, host, horde, extra):
    client.force_login(gm)
    extra = {key.format(host=host.pk): value for key, value in extra.items()}
    response = client.post(
        reverse("battles:create", args=[g3_world.pk]), setup_post(host, horde, **extra)
    )
    assert response.status_code == 400
    assert not Battle.objects.exists()


def test_setup_page_lists_forces_and_characters(client, gm, g3_world, host, horde, aldric, grask):
    client.force_login(gm)
    page = client.get(reverse("battles:create", args=[g3_world.pk])).content.decode()
    assert "Host (Silverrun, TL 3)" in page and "Aldric (unit commander)" in page
    assert "castle" in page and "defending the homeland" in page


def test_player_chooses_only_their_own_characters_risk(client, player, other_player, g3_battle):
    """A player sets his own PC's Risk (Aldric, owned by him), not the faction's other PC's
    (Brenna has no player: the faction plays her) — and the rival none of them."""
    client.force_login(other_player)
    assert _act(client, g3_battle, kind="choose_risk", actor=f"c{_pk(g3_battle, 'Aldric')}",
                risk=0).status_code == 403  # fmt: skip
    client.force_login(player)
    aldric = f"c{_pk(g3_battle, 'Aldric')}"
    assert _act(client, g3_battle, kind="choose_risk", actor=aldric, risk=2).status_code == 200
    # Brenna has no player of her own: her faction plays her.
    brenna = f"c{_pk(g3_battle, 'Brenna')}"
    assert _act(client, g3_battle, kind="choose_risk", actor=brenna, risk=-1).status_code == 200
    # The commander of side A is the players' faction's.
    assert _act(client, g3_battle, kind="commit", actor="a").status_code == 200
    # Side B and the GM's commands are not theirs.
    assert _act(client, g3_battle, kind="commit", actor="b").status_code == 403
    assert _act(client, g3_battle, kind="gm_modifiers", side="a", other=2).status_code == 403
    g3_battle.refresh_from_db()
    assert g3_battle.snapshot["risks"][aldric] == {"risk": 2, "use_luck": False}


def test_a_second_players_character_is_not_the_first_players(client, player, g3_world, g3_battle):
    """A PC owned by another member of the same faction: the first player may not set it."""
    from kingdoms.models import Role
    from tests.factories import MembershipFactory, UserFactory

    friend = UserFactory(username="friend")
    MembershipFactory(campaign=g3_world, user=friend, role=Role.PLAYER,
                      faction=Character.objects.get(name="Aldric").faction)  # fmt: skip
    client.force_login(friend)
    aldric = f"c{_pk(g3_battle, 'Aldric')}"
    assert _act(client, g3_battle, kind="choose_risk", actor=aldric, risk=0).status_code == 403


def test_risk_outside_the_limits_is_refused(client, gm, g3_battle):
    """§B.4: a berserker may not choose Risk above 0."""
    client.force_login(gm)
    brenna = f"c{_pk(g3_battle, 'Brenna')}"
    response = _act(client, g3_battle, kind="choose_risk", actor=brenna, risk=1)
    assert response.status_code == 400
    g3_battle.refresh_from_db()
    assert g3_battle.seq == 0


def test_stale_board_is_a_409_and_nothing_changes(client, gm, g3_battle):
    client.force_login(gm)
    assert _act(client, g3_battle, kind="commit", actor="a").status_code == 200
    response = _act(client, g3_battle, kind="commit", actor="b", seq=0)
    assert response.status_code == 409
    g3_battle.refresh_from_db()
    assert g3_battle.seq == 1 and g3_battle.snapshot["committed"] == ["a"]


def _pk(battle, name) -> int:
    return Character.objects.get(name=name).pk


def _play(client, battle, risks=(("Aldric", 2), ("Brenna", -1))):
    for name, risk in risks:
        assert _act(client, battle, kind="choose_risk", actor=f"c{_pk(battle, name)}",
                    risk=risk).status_code == 200  # fmt: skip
    assert _act(client, battle, kind="commit", actor="a").status_code == 200
    assert _act(client, battle, kind="commit", actor="b").status_code == 200
    battle.refresh_from_db()
    return battle


def test_the_last_choice_resolves_the_day_with_every_roll_on_the_board(client, gm, g3_battle):
    """§B.2 steps 4-7 on the board: Survival and Glory per PC with margin and result, the
    Quick Contest with the Strategy breakdown, the result, house-default casualties."""
    client.force_login(gm)
    battle = _play(client, g3_battle)
    assert battle.status == BattleStatus.FINISHED
    page = _board(client, battle)
    assert "Survival rolls" in page and "Glory rolls" in page
    assert "Quick Contest of Strategy" in page and "Strategy 14" in page
    assert "house default, not a 3e rule" in page
    assert "Aldric: Survival roll 3d6" in page
    assert "Apply the results" in page
    codes = set(battle.events.values_list("code", flat=True))
    assert {"pc.survival", "pc.glory", "battle.strategy_contest", "battle.result",
            "battle.casualties", "battle.ended"} <= codes  # fmt: skip


def test_gm_entered_casualties_and_gm_modifiers(client, gm, g3_world, host, horde, aldric):
    """§B.8.2 with the Casualty Table a gap: the GM enters each unit's %, men round up."""
    client.force_login(gm)
    response = client.post(reverse("battles:create", args=[g3_world.pk]),
                           setup_post(host, horde, aldric, casualties="gm"))  # fmt: skip
    assert response.status_code == 302
    battle = Battle.objects.get()
    assert _act(client, battle, kind="gm_modifiers", side="b", catastrophe=-2).status_code == 200
    battle = _play(client, battle, risks=(("Aldric", 0),))
    assert battle.snapshot["phase"] == "casualties"
    assert "GM: casualties of each unit, in per cent" in _board(client, battle)
    units = battle.snapshot["pending"]["fought"]
    data = {f"pct_{key}": 15 for key in units}
    assert (
        _act(client, battle, kind="gm_casualties", **{**data, f"pct_{units[0]}": ""}).status_code
        == 400
    )
    assert _act(client, battle, kind="gm_casualties", **data).status_code == 200
    battle.refresh_from_db()
    men = {u["key"]: u["men"] for f in battle.snapshot["forces"] for u in f["units"]}
    pikes = Unit.objects.get(name="Pikes")
    assert men[f"u{pikes.pk}"] == 85  # 15 % of 100
    archers = Unit.objects.get(name="Archers")
    assert men[f"u{archers.pk}"] == 42  # 15 % of 50 = 7.5, rounded up to 8


def test_undo_takes_back_the_resolving_choice(client, gm, g3_battle):
    client.force_login(gm)
    battle = _play(client, g3_battle)
    url = reverse("battles:undo", args=[battle.campaign_id, battle.pk])
    assert client.post(url, {"seq": battle.seq}).status_code == 302
    battle.refresh_from_db()
    assert battle.status == BattleStatus.ACTIVE and battle.snapshot["committed"] == ["a"]
    assert "Survival rolls" not in _board(client, battle)


def test_apply_writes_characters_and_casualties_back(client, gm, g3_battle):
    """After the battle the units keep the men the casualties left and count one more battle
    (§B.8.5); the characters keep their HT, status, rank and reputation (§B.5, §B.6)."""
    client.force_login(gm)
    battle = _play(client, g3_battle)
    outcome = battle.outcome["details"]
    url = reverse("battles:apply", args=[battle.campaign_id, battle.pk])
    assert client.post(url, {"seq": battle.seq - 1}).status_code == 409
    assert client.post(url, {"seq": battle.seq}).status_code == 302
    battle.refresh_from_db()
    assert battle.status == BattleStatus.APPLIED
    for force in outcome["forces"]:
        for data in force["units"]:
            unit = Unit.objects.get(pk=int(data["key"][1:]))
            assert (unit.men, unit.battles) == (data["men"], 1)
    for data in outcome["characters"]:
        character = Character.objects.get(pk=int(data["key"][1:]))
        assert (character.ht, character.status, character.rank) == (
            data["ht"], data["status"], data["rank"],
        )  # fmt: skip
        assert [(e.value, e.expires) for e in character.reputation.order_by("pk")] == [
            (e["value"], e["expires"]) for e in data["reputation"]
        ]
    assert client.post(url, {"seq": battle.seq}).status_code == 400  # once only


def test_players_may_not_apply(client, player, gm, g3_battle):
    client.force_login(gm)
    battle = _play(client, g3_battle)
    client.force_login(player)
    url = reverse("battles:apply", args=[battle.campaign_id, battle.pk])
    assert client.post(url, {"seq": battle.seq}).status_code == 403


def test_live_poll_answers_304_when_nothing_changed(client, player, g3_battle):
    client.force_login(player)
    url = reverse("battles:board", args=[g3_battle.campaign_id, g3_battle.pk])
    assert client.get(url + "?since=0").status_code == 304
    assert client.get(url + "?since=7").status_code == 200


def test_board_query_count_does_not_grow(client, gm, g3_battle, django_assert_max_num_queries):
    client.force_login(gm)
    before = board_queries(client, g3_battle, django_assert_max_num_queries, 12)
    _play(client, g3_battle)
    clear_cache()  # the GM's new board was drawn for the last action: draw it again
    client.force_login(gm)  # the session is kept in the cache just cleared (cached_db)
    assert board_queries(client, g3_battle, django_assert_max_num_queries, 12) == before


def test_log_and_report_in_russian(client, player, gm, g3_battle):
    client.force_login(gm)
    battle = _play(client, g3_battle)
    client.force_login(player)
    client.cookies["django_language"] = "ru"
    page = client.get(reverse("battles:board", args=[battle.campaign_id, battle.pk]),
                      HTTP_ACCEPT_LANGUAGE="ru").content.decode()  # fmt: skip
    assert "Бросок Выживания" in page and "Бросок Славы" in page
    report = client.get(reverse("battles:report", args=[battle.campaign_id, battle.pk]),
                        HTTP_ACCEPT_LANGUAGE="ru").content.decode()  # fmt: skip
    assert "Бросок Выживания" in report


def test_api_state_and_npc_notes_never_shown(client, player, gm, g3_world, host, horde, grask):
    client.force_login(gm)
    client.post(reverse("battles:create", args=[g3_world.pk]), setup_post(host, horde, grask))
    battle = Battle.objects.get()
    client.force_login(player)
    page = _board(client, battle)
    assert "Grask" in page and "GM-SECRET" not in page
    api = client.get(f"/api/v1/campaigns/{g3_world.pk}/battles/{battle.pk}/")
    assert api.status_code == 200, api.content
    data = api.json()
    assert data["system"] == "gurps3e" and "GM-SECRET" not in api.content.decode()
    # The player's faction commands side A; Grask is the enemy's.
    assert [(a["actor"], a["kind"]) for a in data["actions"]] == [("a", "commit")]
    act = client.post(
        f"/api/v1/campaigns/{g3_world.pk}/battles/{battle.pk}/actions/",
        {"seq": 0, "actor": "a", "kind": "commit"}, content_type="application/json",
    )  # fmt: skip
    assert act.status_code == 200, act.content
    assert act.json()["state"]["committed"] == ["a"]


def test_api_creates_a_battle_and_refuses_bad_input(client, gm, g3_world, host, horde, aldric):
    client.force_login(gm)
    url = f"/api/v1/campaigns/{g3_world.pk}/battles/"
    bad = client.post(url, {"name": "X", "defender": "b", "days": 1, "month": 1,
                            "casualties": "house", "intensity": 0},
                      content_type="application/json")  # fmt: skip
    assert bad.status_code == 400 and not Battle.objects.exists()
    data = setup_post(host, horde, aldric)
    data["players_may_act"] = True
    created = client.post(url, data, content_type="application/json")
    assert created.status_code == 201, created.content
    assert created.json()["state"]["forces"][0]["ts"] == 600


def test_report_lists_the_days_events_for_a_player(client, player, gm, g3_battle):
    client.force_login(gm)
    battle = _play(client, g3_battle)
    client.force_login(player)
    url = reverse("battles:report", args=[battle.campaign_id, battle.pk])
    page = client.get(url).content.decode()
    assert "Quick Contest of Strategy: Side A: Silverrun" in page
    assert "Aldric: Glory roll 3d6" in page
    assert "<h2>Day 1</h2>" in page and "Round 1" not in page
    markdown = client.get(url + "?format=md")
    assert markdown.status_code == 200 and "## Day 1" in markdown.content.decode()


def test_dice_rolled_at_the_table_on_the_resolving_choice(client, gm, g3_battle):
    """Dice typed in are used by the choice that resolves the day (the first Survival roll
    here: 1+1+1 = 3, a critical success, unhurt); on any other choice they are refused."""
    client.force_login(gm)
    aldric, brenna = (f"c{_pk(g3_battle, name)}" for name in ("Aldric", "Brenna"))
    typed = _act(client, g3_battle, kind="choose_risk", actor=aldric, risk=0, dice="1 1 1")
    assert typed.status_code == 400
    assert _act(client, g3_battle, kind="choose_risk", actor=aldric, risk=0).status_code == 200
    assert _act(client, g3_battle, kind="choose_risk", actor=brenna, risk=0).status_code == 200
    assert _act(client, g3_battle, kind="commit", actor="a").status_code == 200
    assert _act(client, g3_battle, kind="commit", actor="b", dice="1 1 9").status_code == 400
    assert "dice rolled at the table" in _board(client, g3_battle)
    assert _act(client, g3_battle, kind="commit", actor="b", dice="1, 1, 1").status_code == 200
    survival = g3_battle.events.filter(code="pc.survival").order_by("pk").first()
    assert survival.params["rolls"][0]["dice"] == [1, 1, 1]
    assert survival.params["result"] == "unhurt"


@pytest.mark.parametrize("name", ["board", "act", "undo", "apply", "report"])
def test_non_members_get_404_on_a_3e_battle(client, outsider, other_gm, g3_battle, name):
    url = reverse(f"battles:{name}", args=[g3_battle.campaign_id, g3_battle.pk])
    for user in (outsider, other_gm):
        client.force_login(user)
        assert client.get(url).status_code in (404, 405)
        data = {"seq": 0, "kind": "commit", "actor": "a"}
        assert client.post(url, data).status_code == (405 if name == "report" else 404)


def test_players_watch_only_when_the_gm_keeps_the_board(client, player, gm, g3_battle):
    Battle.objects.filter(pk=g3_battle.pk).update(players_may_act=False)
    client.force_login(player)
    aldric = f"c{_pk(g3_battle, 'Aldric')}"
    assert "Choose Risk" not in _board(client, g3_battle)
    assert _act(client, g3_battle, kind="choose_risk", actor=aldric, risk=0).status_code == 403


def test_a_pc_in_reserve_may_not_take_risk_below_minus_1(client, gm, g3_world, host, horde, aldric):
    """§B.4: "those whose units are in reserve … may not choose below −1" (this battle only)."""
    client.force_login(gm)
    data = setup_post(host, horde, aldric, **{f"pc_{aldric.pk}": "a:in_reserve"})
    assert client.post(reverse("battles:create", args=[g3_world.pk]), data).status_code == 302
    battle = Battle.objects.get()
    assert battle.setup["pcs"][0]["limits"] == ["in_reserve"]
    page = _board(client, battle)
    assert "Risk −1: Survival 12, Glory 14" in page and "Risk −2:" not in page
    aldric.refresh_from_db()
    assert aldric.limits == []  # the posting is not written to the character


def test_dice_typed_in_are_logged_as_typed_refused_beyond_what_the_day_rolls_and_replayed(
    client, gm, g3_battle
):
    """gurps3e §B.4 Survival roll (3d6): the typed 1, 1, 1 are the first PC's roll, shown as
    typed in the log; more than 20 dice are a 400 that saves nothing; the
    stored command replays to the same board."""
    client.force_login(gm)
    aldric, brenna = (f"c{_pk(g3_battle, name)}" for name in ("Aldric", "Brenna"))
    assert _act(client, g3_battle, kind="choose_risk", actor=aldric, risk=0).status_code == 200
    assert _act(client, g3_battle, kind="choose_risk", actor=brenna, risk=0).status_code == 200
    assert _act(client, g3_battle, kind="commit", actor="a").status_code == 200
    many = _act(client, g3_battle, kind="commit", actor="b", dice=" ".join(["1"] * 21))
    assert many.status_code == 400 and "At most 20 dice" in many.content.decode()
    assert Battle.objects.get(pk=g3_battle.pk).seq == 3
    assert _act(client, g3_battle, kind="commit", actor="b", dice="1 1 1").status_code == 200
    survival = g3_battle.events.filter(code="pc.survival").order_by("pk").first()
    assert survival.params["rolls"][0]["typed"] == 3
    assert "(1+1+1 (typed at the table))" in _board(client, g3_battle)
    assert services.battle_verify(Battle.objects.get(pk=g3_battle.pk))


def _strategy_skills(battle) -> list[int]:
    """Each side's Strategy skill before Glory, as the board works it out (§B.7)."""
    state = get_battle_system("gurps3e").state_from_dict(battle.snapshot)
    return [strategy_terms(f, state.enemy(f.key))[0] for f in state.forces]


def _contest_dice(battle, margins) -> str:
    """3d6 faces typed in for the Quick Contest (no PCs fight) that give each side the
    margin wanted."""
    rolls = [skill - margin for skill, margin in zip(_strategy_skills(battle), margins,
                                                     strict=True)]  # fmt: skip
    assert all(4 <= roll <= 16 for roll in rolls), rolls  # no critical on either side
    return " ".join(str(face) for roll in rolls for face in faces(roll))


def _two_day_battle(client, g3_world, host, horde):
    post = setup_post(host, horde, days=2)
    assert client.post(reverse("battles:create", args=[g3_world.pk]), post).status_code == 302
    return Battle.objects.get(campaign=g3_world)


def _contest(client, battle, margins) -> Battle:
    assert _act(client, battle, kind="commit", actor="a").status_code == 200
    dice = _contest_dice(battle, margins)
    response = _act(client, battle, kind="commit", actor="b", dice=dice)
    assert response.status_code == 200, response.content.decode()[:2000]
    battle.refresh_from_db()
    return battle


def test_each_event_is_logged_in_the_day_it_happened(client, gm, g3_world, host, horde):
    """gurps §B.2: day 1 (a tie, §B.8.1: both hold) resolves in day 1; "Day 2 begins"
    belongs to day 2 (it was tagged day 1)."""
    client.force_login(gm)
    battle = _contest(client, _two_day_battle(client, g3_world, host, horde), (2, 2))
    days = list(battle.events.values_list("code", "round").order_by("pk"))
    assert ("battle.strategy_contest", 1) in days and ("battle.casualties", 1) in days
    assert days[-1] == ("battle.day_started", 2)
    assert 'Day 2 begins: every fit PC chooses Risk.</span><span class="small muted">day 2' in (
        _board(client, battle)
    )


def test_an_extended_battle_names_the_side_that_won_its_days(client, gm, g3_world, host, horde):
    """gurps §B.1, §B.8, §B.8.1 and the house default result.extended_by_clear_victories:
    the Host (attacker) wins day 1 by 5 (a minor victory), the Horde day 2 by 2 (no clear
    winner), neither leaves the field: the board and the report name the Host, say why, and
    flag the house default (they read "Victory for Side B", the last day's)."""
    client.force_login(gm)
    battle = _two_day_battle(client, g3_world, host, horde)
    assert battle.setup["winner_rule"] == "days"
    battle = _contest(client, battle, (5, 0))
    battle = _contest(client, battle, (0, 2))
    results = list(battle.events.filter(code="battle.result").values_list("params", flat=True))
    assert [(r["winner"], r["category"]) for r in results] == [
        ("a", "minor_victory"), ("b", "no_clear_winner")]  # fmt: skip
    assert battle.status == BattleStatus.FINISHED and battle.outcome["winner"] == "a"
    page = _board(client, battle)
    host_name = battle.setup["sides"][0]["name"]
    assert f"Victory for Side A: {host_name}." in page
    assert "Won on its days: clear victories 1 : 0, days won 1 : 1." in page
    assert 'class="badge house"' in page.split("g3-ending")[1][:400]
    report = client.get(reverse("battles:report", args=[battle.campaign_id, battle.pk]))
    text = report.content.decode()
    assert f"Victory for {host_name}." in text
    assert (
        f"The battle is over after 2 days: victory for Side A: {host_name}, won on its days: "
        "clear victories 1 : 0, days won 1 : 1 (house default)."
    ) in text
