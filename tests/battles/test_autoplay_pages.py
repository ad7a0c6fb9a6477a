"""The pages of auto-play and the forecast (issue 14): the board's buttons for the GM and for
a player whose army acts, the set-up page's auto sides and forecast (nothing saved), the
board's forecast with its progress bar and odds bar, GM-only until shared."""

import pytest
from django.urls import reverse

from battles import autoplay, forecasting, services
from battles.models import Battle, BattleCommand, BattleStatus
from kingdoms.models import Membership, Role
from tests.battle_worlds import SYSTEMS, system_campaign
from tests.factories import UserFactory

from .test_autoplay import create

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


def run_forecast(client, url, data) -> str:
    """Post a forecast and follow its progress bar to the end: the last answer's HTML."""
    page = client.post(url, data, **HTMX).content.decode()
    for _ in range(1000):
        if '"job": "' not in page:
            return page
        token = page.split('"job": "')[1].split('"')[0]
        page = client.post(url, {"job": token}, **HTMX).content.decode()
    raise AssertionError("the forecast never ended")


@pytest.fixture
def pf2e_form(world, militia, raiders):
    """The Pathfinder set-up form: the militia on side A, the raiders on side B."""
    return {
        "name": "Battle of the Ford",
        f"army_{militia.pk}": "a",
        f"army_{raiders.pk}": "b",
        "players_may_act": "on",
    }


def test_the_gm_sees_the_autoplay_buttons_and_resolves_the_battle(
    client, world, gm, battle, django_assert_max_num_queries
):
    client.force_login(gm)
    url = reverse("battles:board", args=[world.pk, battle.pk])
    with django_assert_max_num_queries(10):
        page = client.get(url).content.decode()
    for label in (
        "Auto-play this turn",
        "Resolve the round",
        "Resolve the battle",
        "both sides",
        "Forecast the odds",
    ):
        assert label in page
    assert "Undo the auto-play" not in page
    with django_assert_max_num_queries(25):  # however many commands: written in bulk
        response = client.post(
            reverse("battles:autoplay", args=[world.pk, battle.pk]),
            {"seq": 0, "until": "battle"},
            **HTMX,
        )
    assert response.status_code == 200
    page = response.content.decode()
    assert "Auto-played" in page and "Undo the auto-play" in page
    battle.refresh_from_db()
    assert battle.status == BattleStatus.FINISHED
    assert "Resolve the battle" not in page  # nothing left to play
    response = client.post(
        reverse("battles:undo-autoplay", args=[world.pk, battle.pk]), {"seq": battle.seq}
    )
    assert response.status_code == 302
    battle.refresh_from_db()
    assert battle.seq == 0 and battle.status == BattleStatus.ACTIVE


def test_a_stale_autoplay_answers_409_with_the_board(client, world, gm, battle):
    client.force_login(gm)
    response = client.post(
        reverse("battles:autoplay", args=[world.pk, battle.pk]), {"seq": 5, "until": "turn"}, **HTMX
    )
    assert response.status_code == 409
    assert "The board changed meanwhile" in response.content.decode()
    response = client.post(
        reverse("battles:autoplay", args=[world.pk, battle.pk]),
        {"seq": "x", "until": "turn"},
        **HTMX,
    )
    assert response.status_code == 400
    assert not BattleCommand.objects.exists()


def test_a_player_sees_the_buttons_only_when_their_army_acts(
    client, world, gm, player, other_player, battle, militia
):
    url = reverse("battles:board", args=[world.pk, battle.pk])
    while battle.snapshot["order"][battle.snapshot["turn"]] != str(militia.pk):
        battle = services.battle_act(
            user=gm,
            campaign_id=world.pk,
            battle_id=battle.pk,
            expected_seq=battle.seq,
            command={
                "actor": battle.snapshot["order"][battle.snapshot["turn"]],
                "kind": "end_turn",
            },
        )[0]
    client.force_login(player)
    page = client.get(url).content.decode()
    assert "Auto-play this turn" in page
    assert "Auto-play for" not in page  # a player plays their own armies, no side to choose
    assert "Forecast the odds" not in page and "Undo the auto-play" not in page
    client.force_login(other_player)
    assert "Auto-play this turn" not in client.get(url).content.decode()
    response = client.post(
        reverse("battles:autoplay", args=[world.pk, battle.pk]),
        {"seq": battle.seq, "until": "turn"},
    )
    assert response.status_code == 403
    client.force_login(player)
    response = client.post(
        reverse("battles:autoplay", args=[world.pk, battle.pk]),
        {"seq": battle.seq, "until": "turn"},
    )
    assert response.status_code == 302
    assert {
        row.command["actor"]
        for row in BattleCommand.objects.filter(battle=battle, batch__isnull=False)
    } == {str(militia.pk)}


def test_a_non_member_gets_404(client, world, outsider, battle):
    client.force_login(outsider)
    for name in ("autoplay", "undo-autoplay", "forecast"):
        url = reverse(f"battles:{name}", args=[world.pk, battle.pk])
        assert client.post(url, {"seq": 0, "until": "turn"}).status_code == 404
    assert client.post(reverse("battles:setup-forecast", args=[world.pk]), {}).status_code == 404


@pytest.mark.parametrize("system", SYSTEMS)
def test_every_board_has_the_panel(
    client, gm, player, other_player, system, django_assert_max_num_queries
):
    campaign, body = system_campaign(system, gm=gm, player=player, rival=other_player)
    battle = create(gm, campaign, body)
    client.force_login(gm)
    with django_assert_max_num_queries(25):
        page = client.get(battle.get_absolute_url()).content.decode()
    assert "Resolve the battle" in page and "Forecast the odds" in page
    response = client.post(
        reverse("battles:autoplay", args=[campaign.pk, battle.pk]),
        {"seq": 0, "until": "round", "sides": ""},
        **HTMX,
    )
    assert response.status_code == 200, response.content.decode()[:3000]
    assert "Undo the auto-play" in response.content.decode()
    forecast = reverse("battles:forecast", args=[campaign.pk, battle.pk])
    with django_assert_max_num_queries(10):
        client.post(forecast, {"simulations": "10"}, **HTMX)
    page = run_forecast(client, forecast, {"simulations": "10"})
    assert "10 simulated battles" in page and "odds-bar" in page


# --- sides that play themselves, at set-up --------------------------------------------------


def test_the_setup_page_sets_a_side_to_auto(client, world, gm, pf2e_form):
    client.force_login(gm)
    page = client.get(reverse("battles:create", args=[world.pk])).content.decode()
    assert "Side B plays itself" in page and 'name="auto_sides"' in page
    response = client.post(
        reverse("battles:create", args=[world.pk]), {**pf2e_form, "auto_sides": ["b"]}
    )
    assert response.status_code == 302
    battle = Battle.objects.get()
    assert battle.auto_sides == ["b"]


# --- forecast ---------------------------------------------------------------------------------


def test_the_setup_forecast_saves_nothing(
    client, world, gm, pf2e_form, militia, raiders, django_assert_max_num_queries
):
    client.force_login(gm)
    url = reverse("battles:setup-forecast", args=[world.pk])
    with django_assert_max_num_queries(15):
        response = client.post(url, {**pf2e_form, "simulations": "40", "seed": "3"}, **HTMX)
    assert response.status_code == 200
    page = run_forecast(client, url, {**pf2e_form, "simulations": "40", "seed": "3"})
    assert "Militia" in page and "Raiders" in page and "wins" in page and "<svg" in page
    assert "40 simulated battles" in page
    assert not Battle.objects.exists()
    # The armies are not held by anything: the battle can be set up for real.
    assert client.post(reverse("battles:create", args=[world.pk]), pf2e_form).status_code == 302


def test_a_setup_forecast_of_a_bad_form_shows_the_form_errors(client, world, gm, militia):
    client.force_login(gm)
    url = reverse("battles:setup-forecast", args=[world.pk])
    response = client.post(url, {"name": "Nobody", f"army_{militia.pk}": "a"}, **HTMX)
    assert response.status_code == 400
    assert response["HX-Retarget"] == "#main"
    assert "at least one army on each side" in response.content.decode()
    response = client.post(url, {"name": "x", "simulations": "0"}, **HTMX)
    assert response.status_code == 400 and "simulations" in response.content.decode()


def test_a_long_forecast_shows_its_progress_and_the_board_its_odds(
    client, world, gm, player, battle, monkeypatch
):
    """With chunks of (almost) no time, every step runs one simulation: the page shows the
    progress bar, asks for the rest, and ends with the chart; the board then shows the odds
    bar, for this seq only."""
    monkeypatch.setattr(forecasting, "CHUNK_SECONDS", 0)
    client.force_login(gm)
    url = reverse("battles:forecast", args=[world.pk, battle.pk])
    before = client.get(battle.get_absolute_url())["ETag"]
    page = client.post(url, {"simulations": "3", "seed": "1"}, **HTMX).content.decode()
    assert "<progress" in page and "1 of 3" in page
    token = page.split('"job": "')[1].split('"')[0]
    page = client.post(url, {"job": token}, **HTMX).content.decode()
    assert "2 of 3" in page
    page = client.post(url, {"job": token}, **HTMX).content.decode()
    assert "<progress" not in page and "3 simulated battles" in page
    # The board's version names the forecast: a browser's old copy is not reused.
    response = client.get(battle.get_absolute_url(), HTTP_IF_NONE_MATCH=before)
    assert response.status_code == 200 and response["ETag"] != before
    board = response.content.decode()
    assert "odds-bar" in board and "The forecast in full" in board
    assert "odds-bar" in client.get(url).content.decode()
    # Another user cannot go on with somebody's job.
    client.force_login(player)
    assert client.post(url, {"job": token}, **HTMX).status_code == 403  # not shared yet
    battle = services.battle_act(
        user=gm,
        campaign_id=world.pk,
        battle_id=battle.pk,
        expected_seq=0,
        command={"actor": battle.snapshot["order"][battle.snapshot["turn"]], "kind": "end_turn"},
    )[0]
    client.force_login(gm)
    assert "odds-bar" not in client.get(battle.get_absolute_url()).content.decode()


def test_the_same_forecast_seed_gives_the_same_numbers(client, world, gm, battle):
    client.force_login(gm)
    url = reverse("battles:forecast", args=[world.pk, battle.pk])
    first = run_forecast(client, url, {"simulations": "30", "seed": "7"})
    again = run_forecast(client, url, {"simulations": "30", "seed": "7"})
    other = run_forecast(client, url, {"simulations": "30", "seed": "8"})
    assert first == again
    assert other != first
    battle.refresh_from_db()
    assert battle.seq == 0 and not BattleCommand.objects.exists()  # the real battle untouched


def test_the_forecast_is_the_gms_until_shared(
    client, world, gm, player, battle, django_assert_max_num_queries
):
    url = reverse("battles:forecast", args=[world.pk, battle.pk])
    client.force_login(player)
    assert client.get(url).status_code == 403
    assert client.post(url, {"simulations": "5"}, **HTMX).status_code == 403
    client.force_login(gm)
    with django_assert_max_num_queries(10):
        page = client.get(url).content.decode()
    assert "Share the forecast with the players" in page
    share = reverse("battles:forecast-share", args=[world.pk, battle.pk])
    client.force_login(player)
    assert client.post(share, {"shared": "1"}).status_code == 403
    client.force_login(gm)
    assert client.post(share, {"shared": "1"}).status_code == 302
    assert "hidden from you" not in run_forecast(client, url, {"simulations": "5"})
    client.force_login(player)
    page = client.get(url).content.decode()
    assert "Raiders" in page and "hidden from you" in page  # the enemy's HP stays hidden
    assert client.post(url, {"simulations": "5"}, **HTMX).status_code == 200
    assert "The forecast in full" in client.get(battle.get_absolute_url()).content.decode()


def test_a_bystander_sees_no_buttons(client, world, battle):
    bystander = UserFactory(username="bystander")
    Membership.objects.create(campaign=world, user=bystander, role=Role.PLAYER)
    client.force_login(bystander)
    page = client.get(battle.get_absolute_url()).content.decode()
    assert "Auto-play this turn" not in page and "Forecast the odds" not in page
    assert autoplay.battle_sides(battle) == ("a", "b")


def test_the_panel_is_drawn_once_per_content_with_each_versions_seq(world, gm, battle,
                                                                    monkeypatch):  # fmt: skip
    """`{% autoplay_panel %}` draws what its template draws with the panel's values (as the
    inclusion tag it was), kept once per content as the board's fragments are: a board of
    another version with the same panel does not draw it again, and its forms carry that
    version; other values (the auto-play to undo) draw it again."""
    from django.template import Context, Template
    from django.template.loader import render_to_string

    from battles.templatetags import autoplay as tags

    drawn = []
    render = Template.render

    def counted(self, context):
        if self.origin and self.origin.template_name == tags.PANEL:
            drawn.append(context.get("battle").seq)
        return render(self, context)

    monkeypatch.setattr(Template, "render", counted)
    membership = Membership.objects.get(campaign=world, user=gm)
    tag = Template("{% load autoplay %}{% autoplay_panel %}")

    def both(seq: int) -> tuple[str, str]:
        battle.seq = seq
        context = {"membership": membership, "battle": battle, "csrf_token": "token"}
        expected = render_to_string(tags.PANEL, {**tags.panel(context), "csrf_token": "token"})
        return tag.render(Context(context)), expected

    first, expected = both(7)
    assert first == expected and 'name="seq" value="7"' in first
    assert "Auto-play this turn" in first and "Undo the auto-play" not in first
    count = len(drawn)
    second, expected = both(8)
    assert second == expected and 'name="seq" value="8"' in second
    assert len(drawn) == count + 1  # (the expected one only)
    battle.autoplay_batch = 1
    third, expected = both(8)
    assert third == expected and "Undo the auto-play" in third
    assert len(drawn) == count + 3
