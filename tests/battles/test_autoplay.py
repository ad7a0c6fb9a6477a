"""Auto-play on stored battles (issue 14, battles.autoplay): the policies' commands applied as
ordinary commands in one transaction, undone one at a time or as a batch, replayed to the
same board; who may auto-play what; the sides that play themselves."""

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404
from django.urls import reverse
from rest_framework.test import APIClient

from battles import autoplay, services
from battles.models import Battle, BattleCommand, BattleEvent, BattleStatus
from kingdoms.models import Membership, Role
from kingdoms.portability import campaign_export, campaign_import
from tests.battle_worlds import SYSTEMS, system_campaign
from tests.factories import UserFactory
from tests.portability_checks import assert_refused, round_trip
from warfare.engine.battle.registry import get_battle_system

pytestmark = pytest.mark.django_db


def create(user, campaign, body) -> Battle:
    """A battle set up through the API (any rule system), as `user` (the GM)."""
    client = APIClient()
    client.force_login(user)
    response = client.post(f"/api/v1/campaigns/{campaign.pk}/battles/", body, format="json")
    assert response.status_code == 201, response.content[:2000]
    return Battle.objects.get(pk=response.json()["id"])


def play(user, battle, until="battle", sides=None) -> autoplay.Played:
    return autoplay.battle_autoplay(
        user=user,
        campaign_id=battle.campaign_id,
        battle_id=battle.pk,
        expected_seq=battle.seq,
        until=until,
        sides=sides,
    )


def waiting(battle):
    system = get_battle_system(battle.system)
    return system.awaiting(system.state_from_dict(battle.snapshot))


def by_hand(user, battle) -> Battle:
    """`battle` after one command sent by `user` as a person would (the policy's choice for
    the first actor awaited, through `battle_act`: no batch)."""
    system = get_battle_system(battle.system)
    command = system.suggest(system.state_from_dict(battle.snapshot), waiting(battle)[0].actor)
    battle, _events = services.battle_act(
        user=user,
        campaign_id=battle.campaign_id,
        battle_id=battle.pk,
        expected_seq=battle.seq,
        command=command.to_dict(),
    )
    return battle


@pytest.fixture(params=SYSTEMS)
def system_battle(request, gm, player, other_player):
    campaign, body = system_campaign(request.param, gm=gm, player=player, rival=other_player)
    return create(gm, campaign, body)


def test_resolve_the_battle_logs_every_command_in_one_batch_and_replays(gm, system_battle):
    """Resolve the battle (the GM, both sides): ordinary commands, each with its events and
    the dice of its position, one batch; the battle ends (bounded) and replays to the very
    board stored."""
    battle = system_battle
    played = play(gm, battle)
    battle = played.battle
    assert played.count == battle.seq > 0
    assert battle.status == BattleStatus.FINISHED and battle.outcome
    rows = list(BattleCommand.objects.filter(battle=battle).order_by("position"))
    assert [row.position for row in rows] == list(range(played.count))
    assert {row.batch for row in rows} == {played.batch}
    assert BattleEvent.objects.filter(command__in=rows).count() >= played.count // 2
    assert services.battle_verify(battle)


def test_this_turn_and_the_round_stop_where_the_clock_moves(gm, system_battle):
    battle = system_battle
    system = get_battle_system(battle.system)
    start = system.clock(system.state_from_dict(battle.snapshot))
    turn = play(gm, battle, "turn").battle
    after_turn = system.clock(system.state_from_dict(turn.snapshot))
    assert after_turn != start or turn.status == BattleStatus.FINISHED
    round_ = play(gm, turn, "round").battle if turn.status == BattleStatus.ACTIVE else turn
    after_round = system.clock(system.state_from_dict(round_.snapshot))
    assert after_round[0] > start[0] or round_.status == BattleStatus.FINISHED
    assert services.battle_verify(round_)


def test_undo_the_autoplay_takes_the_whole_batch_back_at_once(gm, system_battle):
    """A hand's command, then an auto-played round: "Undo the auto-play" takes the round
    back (its commands stay, marked undone) and leaves the hand's command; replay agrees."""
    battle = by_hand(gm, system_battle)
    hand_board = battle.snapshot
    played = play(gm, battle, "round")
    assert played.count
    battle = autoplay.battle_undo_autoplay(
        user=gm,
        campaign_id=battle.campaign_id,
        battle_id=battle.pk,
        expected_seq=played.battle.seq,
    )
    assert battle.seq == 1 and battle.snapshot == hand_board
    assert battle.status == BattleStatus.ACTIVE and battle.outcome is None
    undone = BattleCommand.objects.filter(battle=battle, undone_at__isnull=False)
    assert undone.count() == played.count and {c.batch for c in undone} == {played.batch}
    assert services.battle_verify(battle)
    with pytest.raises(ValidationError):  # the hand's command is not an auto-play
        autoplay.battle_undo_autoplay(
            user=gm, campaign_id=battle.campaign_id, battle_id=battle.pk, expected_seq=battle.seq
        )


def test_undo_takes_the_autoplay_back_one_command_at_a_time(gm, system_battle):
    played = play(gm, system_battle, "round")
    battle = services.battle_undo(
        user=gm,
        campaign_id=played.battle.campaign_id,
        battle_id=played.battle.pk,
        expected_seq=played.battle.seq,
    )
    assert battle.seq == played.count - 1
    assert services.battle_verify(battle)
    if battle.seq:  # the rest of the batch is still one "Undo the auto-play" away
        assert autoplay.last_batch(battle) == played.batch


def test_undoing_the_autoplay_command_by_command_ends_its_offer(client, gm, system_battle):
    """A hand's command, then an auto-played round, taken back by the ordinary undo one
    command at a time: while some of the batch is the end of the log, the board offers "Undo
    the auto-play" (for what is left of it: the undo saves `autoplay_batch`); once its last
    command is undone the batch is gone and the board offers it no more (the hand's command
    is not an auto-play), and "Undo the auto-play" is refused."""
    battle = by_hand(gm, system_battle)
    hand = battle.seq
    played = play(gm, battle, "round")
    assert played.count
    client.force_login(gm)
    board = reverse("battles:board", args=[battle.campaign_id, battle.pk])
    assert "Undo the auto-play" in client.get(board).content.decode()
    battle = played.battle
    while battle.seq > hand:
        battle = services.battle_undo(
            user=gm, campaign_id=battle.campaign_id, battle_id=battle.pk, expected_seq=battle.seq
        )
        left = battle.seq > hand  # some of the batch is still live, at the end of the log
        stored = Battle.objects.get(pk=battle.pk)
        assert stored.autoplay_batch == (played.batch if left else None)
        assert ("Undo the auto-play" in client.get(board).content.decode()) is left
    assert battle.seq == hand and services.battle_verify(battle)
    with pytest.raises(ValidationError):
        autoplay.battle_undo_autoplay(
            user=gm, campaign_id=battle.campaign_id, battle_id=battle.pk, expected_seq=battle.seq
        )


def test_the_batch_is_one_transaction(gm, system_battle, monkeypatch):
    """A failure after the commands were written (here: in the auto sides' turn) leaves
    nothing of the batch behind."""
    battle = system_battle

    def fail(*args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(autoplay, "play_auto_sides", fail)
    with pytest.raises(RuntimeError):
        play(gm, battle, "round")
    fresh = Battle.objects.get(pk=battle.pk)
    assert fresh.seq == battle.seq == 0 and fresh.snapshot == battle.snapshot
    assert not BattleCommand.objects.filter(battle=battle).exists()


def test_a_stale_seq_is_refused_and_nothing_changes(gm, system_battle):
    battle = system_battle
    with pytest.raises(services.StaleBoard):
        autoplay.battle_autoplay(
            user=gm,
            campaign_id=battle.campaign_id,
            battle_id=battle.pk,
            expected_seq=battle.seq + 1,
            until="turn",
        )
    assert not BattleCommand.objects.filter(battle=battle).exists()


def test_bad_choices_are_a_clear_refusal(gm, system_battle):
    battle = system_battle
    for until, sides in (("forever", None), ("turn", ["c"]), ("turn", [])):
        with pytest.raises(ValidationError):
            autoplay.battle_autoplay(
                user=gm,
                campaign_id=battle.campaign_id,
                battle_id=battle.pk,
                expected_seq=0,
                until=until,
                sides=sides,
            )


def test_resolve_the_battle_is_bounded(gm, system_battle, monkeypatch):
    """A resolve ends: at most MAX_ROUNDS rounds past the one it began in."""
    monkeypatch.setattr(autoplay, "MAX_ROUNDS", 1)
    battle = system_battle
    system = get_battle_system(battle.system)
    start = system.clock(system.state_from_dict(battle.snapshot))[0]
    played = play(gm, battle)
    end = system.clock(system.state_from_dict(played.battle.snapshot))[0]
    assert end <= start + 1
    assert played.capped == (played.battle.status == BattleStatus.ACTIVE)


# --- who may auto-play ------------------------------------------------------------------------


def test_a_non_member_gets_404(system_battle, outsider):
    with pytest.raises(Http404):
        play(outsider, system_battle, "turn")


def test_a_bystander_is_refused(system_battle):
    bystander = UserFactory(username="bystander")
    Membership.objects.create(campaign=system_battle.campaign, user=bystander, role=Role.PLAYER)
    with pytest.raises(PermissionDenied):
        play(bystander, system_battle, "turn")


def test_a_player_auto_plays_only_the_actors_they_command(gm, player, other_player, system_battle):
    """A player's auto-play plays their own actors and stops where the board waits for
    somebody else; with nothing of theirs awaited, it is refused."""
    battle = system_battle
    for _ in range(400):
        if battle.status != BattleStatus.ACTIVE:
            pytest.skip("the battle ended before the player's turn")  # pragma: no cover
        mine = [
            w
            for w in waiting(battle)
            if services.may_command(
                Membership.objects.get(campaign=battle.campaign, user=player), battle, w.actor
            )
        ]
        if mine:
            break
        battle = play(gm, battle, "turn").battle
    membership = Membership.objects.get(campaign=battle.campaign, user=player)
    rival = Membership.objects.get(campaign=battle.campaign, user=other_player)
    if not any(services.may_command(rival, battle, w.actor) for w in waiting(battle)):
        with pytest.raises(PermissionDenied):
            play(other_player, battle, "turn")
    played = play(player, battle, "turn")
    new = BattleCommand.objects.filter(batch=played.batch)
    assert new.count() == played.count > 0
    assert all(services.may_command(membership, battle, row.command["actor"]) for row in new)
    Battle.objects.filter(pk=battle.pk).update(players_may_act=False)
    with pytest.raises(PermissionDenied):
        play(player, Battle.objects.get(pk=battle.pk), "turn")


def test_only_the_gm_undoes_an_autoplay(gm, player, system_battle):
    played = play(gm, system_battle, "turn")
    with pytest.raises(PermissionDenied):
        autoplay.battle_undo_autoplay(
            user=player,
            campaign_id=played.battle.campaign_id,
            battle_id=played.battle.pk,
            expected_seq=played.battle.seq,
        )


# --- sides that play themselves -------------------------------------------------------------


def test_an_auto_side_plays_its_turns_when_reached(gm, player, other_player):
    """Pathfinder: side B set to auto at set-up; whenever a human acts (or the battle starts),
    side B's armies act by themselves until side A is awaited again."""
    campaign, body = system_campaign("pf2e", gm=gm, player=player, rival=other_player)
    battle = create(gm, campaign, {**body, "auto_sides": ["b"]})
    assert battle.auto_sides == ["b"]
    for _ in range(60):
        if battle.status != BattleStatus.ACTIVE:
            break
        now = waiting(battle)
        assert now and all(w.side != "b" for w in now), now
        battle = by_hand(gm, battle)
    auto = BattleCommand.objects.filter(battle=battle, batch__isnull=False)
    assert not auto.exclude(actor=None).exists()  # nobody clicked them
    assert auto.exists() and {row.command["actor"] for row in auto} <= {
        str(entry["army"]["key"]) for entry in battle.setup["sides"][1]["armies"]
    }
    assert services.battle_verify(battle)


def test_auto_sides_are_checked(gm, player, other_player):
    campaign, body = system_campaign("pf2e", gm=gm, player=player, rival=other_player)
    client = APIClient()
    client.force_login(gm)
    response = client.post(
        f"/api/v1/campaigns/{campaign.pk}/battles/", {**body, "auto_sides": ["c"]}, format="json"
    )
    assert response.status_code == 400
    assert not Battle.objects.exists()


def test_the_campaign_file_keeps_auto_play(gm, player, other_player, system_battle):
    """Format version 5: the auto sides, the shared forecast and the batches go into the file
    and come back; the copy undoes the auto-play at once, as the original would."""
    battle = system_battle
    played = play(gm, battle, "round")
    assert played.count
    Battle.objects.filter(pk=battle.pk).update(auto_sides=["b"], forecast_shared=True)
    first, copy_campaign = round_trip(played.battle.campaign, gm)
    (exported,) = (b for b in first["battles"] if b["name"] == battle.name)
    assert exported["auto_sides"] == ["b"] and exported["forecast_shared"] is True
    assert exported["autoplay_batch"] == str(played.batch)
    assert {c["batch"] for c in exported["commands"]} == {str(played.batch)}
    copy_ = Battle.objects.get(campaign=copy_campaign, name=battle.name)
    assert (copy_.auto_sides, copy_.forecast_shared) == (["b"], True)
    assert copy_.autoplay_batch == played.batch
    undone = autoplay.battle_undo_autoplay(
        user=gm, campaign_id=copy_campaign.pk, battle_id=copy_.pk, expected_seq=copy_.seq
    )
    assert undone.seq == 0 and undone.commands.filter(undone_at__isnull=True).count() == 0
    assert services.battle_verify(undone)


def test_a_version_4_file_imports_its_battles_without_auto_play(gm, system_battle):
    played = play(gm, system_battle, "round")
    document = campaign_export(played.battle.campaign)
    document["version"] = 4
    for old in document["battles"]:
        for name in ("auto_sides", "forecast_shared", "autoplay_batch"):
            del old[name]
        for command in old["commands"]:
            del command["batch"]
    copy_ = Battle.objects.get(campaign=campaign_import(user=gm, data=document))
    assert (copy_.auto_sides, copy_.forecast_shared, copy_.autoplay_batch) == ([], False, None)
    assert not copy_.commands.filter(batch__isnull=False).exists()
    assert services.battle_verify(copy_)


def test_a_file_with_bad_auto_sides_is_refused(gm, system_battle):
    document = campaign_export(system_battle.campaign)

    def bad_sides(doc):
        doc["battles"][0]["auto_sides"] = ["b", "a"]

    assert_refused(document, gm, bad_sides, r"battles\[0\]: auto_sides: a list of side keys")
