"""No internal key and no database id in any log line (issue 15, "Every roll visible").

The four demo campaigns (database ids bumped to 9xxxxx so that a bare id cannot pass for a
die or HP) fight their battles out with commands picked from the rules' own legal options;
Pathfinder armies take their activities and a kingdom turn; the GM applies every result.
Then every line of every battle report (the log round by round, as the GM and as a player
read it, Markdown included) and every kingdom and army log entry is read in English and in
Russian: none may carry a `snake_case` token, a dotted event code or a database id.
"""

import random
import re
from io import StringIO

import pytest
from django.apps import apps
from django.core.management import call_command
from django.db import connection
from django.urls import reverse
from django.utils import translation

from battles import services
from battles.models import Battle, BattleStatus
from kingdoms.models import Campaign, Membership, Role, RuleSystem
from warfare.engine.battle.registry import get_battle_system
from warfare.systems.pf2e import setup as pf2e_setup
from warfare.systems.pf2e.events import log_text
from warfare.systems.pf2e.models import Army, LogEntry

pytestmark = pytest.mark.django_db

FIRST_ID = 900_000
SNAKE = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b")
CODE = re.compile(r"\b(?:battle|dnd5e|gurps4e|gurps3e|pc|army|kingdom|activity|gambit)\.[a-z_]")
BARE_ID = re.compile(r"(?<![\d.,])[a-z]?9\d{5}(?:\.\d+)?\b")


@pytest.fixture
def bumped_ids():
    """Every table's ids start at FIRST_ID (PostgreSQL sequences), set back afterwards:
    sequences ignore the test's rollback, and later tests look for numbers like 777."""
    sequences = []
    with connection.cursor() as cursor:
        for model in apps.get_models():
            pk = model._meta.pk
            if pk.get_internal_type() not in ("AutoField", "BigAutoField"):
                continue
            cursor.execute("SELECT pg_get_serial_sequence(%s, %s)", [model._meta.db_table,
                                                                     pk.column])  # fmt: skip
            (sequence,) = cursor.fetchone()
            cursor.execute(f"SELECT last_value, is_called FROM {sequence}")  # noqa: S608
            sequences.append((sequence, *cursor.fetchone()))
            cursor.execute("SELECT setval(%s, %s)", [sequence, FIRST_ID])
    yield
    with connection.cursor() as cursor:
        for sequence, value, called in sequences:
            cursor.execute("SELECT setval(%s, %s, %s)", [sequence, value, called])


def _problems(text: str) -> list[str]:
    text = text.replace("\\_", "_")  # Markdown escapes underscores
    return SNAKE.findall(text) + CODE.findall(text) + BARE_ID.findall(text)


def _end(battle: Battle, gm) -> None:
    """The GM brings a battle that is still going to its end."""
    state = battle.snapshot
    command = None
    if battle.system == "gurps4e":
        command = {"actor": None, "kind": "gm_end_battle", "params": {"victor": "a"}}
    elif battle.system == "pf2e":
        for entry in battle.setup["sides"][1]["armies"]:
            army = entry["army"]["key"]
            if battle.status == BattleStatus.ACTIVE and not battle.snapshot.get("pending"):
                battle, _ = services.battle_act(
                    user=gm, campaign_id=battle.campaign_id, battle_id=battle.pk,
                    expected_seq=battle.seq, command={"actor": None, "kind": "gm_correction",
                                                      "params": {"army": army, "hp": 0}},
                )  # fmt: skip
        return
    elif battle.system == "dnd5e":
        for stand in state["stands"]:
            if stand["gone"] is None and stand["unit"] in {
                unit["key"] for unit in battle.setup["sides"][1]["units"]
            }:
                battle, _ = services.battle_act(
                    user=gm, campaign_id=battle.campaign_id, battle_id=battle.pk,
                    expected_seq=battle.seq, command={"actor": None, "kind": "gm_correction",
                                                      "params": {"piece": stand["key"], "hp": 0}},
                )  # fmt: skip
        return
    if command is not None:
        services.battle_act(user=gm, campaign_id=battle.campaign_id, battle_id=battle.pk,
                            expected_seq=battle.seq, command=command)  # fmt: skip


def _play(battle: Battle, gm, commands: int, rng: random.Random) -> Battle:
    """Up to `commands` commands, each one of the legal options of whoever may act now;
    then the GM ends it and every turn is ended until the battle is over."""
    system = get_battle_system(battle.system)
    actors = list(services.actor_factions(battle))
    for count in range(commands + 200):
        battle.refresh_from_db()
        if battle.status != BattleStatus.ACTIVE:
            return battle
        if count == commands:
            _end(battle, gm)
            continue
        state = system.state_from_dict(battle.snapshot)
        options = [
            (actor, spec.key, dict(option.params))
            for actor in actors
            for spec in system.legal_actions(state, actor)
            for option in spec.options
        ]
        if not options:
            if battle.system == "dnd5e" and battle.snapshot["phase"] == "deploy":
                command = {"actor": None, "kind": "begin"}
            elif battle.system == "dnd5e" and battle.snapshot["phase"] == "draw":
                command = {"actor": None, "kind": "declare_draw"}
            else:
                _end(battle, gm)
                continue
        else:
            late = count > commands // 2  # end turns later on, so that rounds go by
            ends = [o for o in options if o[1] in ("end_turn", "done")]
            actor, kind, params = rng.choice(ends if late and ends else options)
            command = {"actor": actor, "kind": kind, "params": params}
        services.battle_act(user=gm, campaign_id=battle.campaign_id, battle_id=battle.pk,
                            expected_seq=battle.seq, command=command)  # fmt: skip
    raise AssertionError(f"{battle.system} battle did not end")


def _apply(client, battle: Battle) -> None:
    battle.refresh_from_db()
    if battle.status == BattleStatus.FINISHED:
        url = reverse("battles:apply", args=[battle.campaign_id, battle.pk])
        assert client.post(url, {"seq": battle.seq}).status_code in (200, 302)


def _pathfinder_activities(client, campaign: Campaign) -> list[str]:
    """Each army of the Pathfinder demo Outfits (a typed 20: the gear is bought) and Deploys
    from the activity page; the lines of each result as the page shows them."""
    lines = []
    for army in Army.objects.filter(faction__campaign=campaign, status="active"):
        url = reverse("pf2e:army-activity", args=[campaign.pk, army.pk])
        for data in ({"activity": "outfit_army", "gear": "healing_potions", "tier": 1,
                      "doses": 2, "source": "spoils", "spoils_level": 3, "typed_die": 20},
                     {"activity": "deploy_army", "skill": "exploration", "destination": "A2",
                      "hexes": 1, "two_hex_costs": 0, "typed_die": 20}):  # fmt: skip
            version = Army.objects.get(pk=army.pk).version
            response = client.post(url, {**data, "version": version})
            assert response.status_code == 200, response.content.decode()[-2000:]
            page = response.content.decode()
            result = page.split('id="activity-result"', 1)[-1].split("</section>", 1)[0]
            lines += [line for line in re.sub(r"<[^>]+>", "\n", result).splitlines()
                      if line.strip()]  # fmt: skip
    return lines


def test_no_log_line_shows_an_internal_key_or_a_database_id(client, bumped_ids):
    call_command("load_demo", stdout=StringIO())
    gm = Membership.objects.filter(role=Role.GM).first().user
    rng = random.Random(15)
    pf2e = Campaign.objects.get(rule_system=RuleSystem.PF2E)
    armies = list(Army.objects.filter(faction__campaign=pf2e, status="active").order_by("pk"))
    by_faction: dict[int, list[int]] = {}
    for army in armies:
        by_faction.setdefault(army.faction_id, []).append(army.pk)
    first, second = list(by_faction.values())[:2]
    client.force_login(gm)
    results = _pathfinder_activities(client, pf2e)  # before the battle holds the armies
    pf2e_setup.battle_create(user=gm, campaign_id=pf2e.pk, name="Scan", pcs_side="a",
                           sides={"a": first, "b": second})  # fmt: skip
    battles = list(Battle.objects.all())
    assert {b.system for b in battles} == {"pf2e", "gurps4e", "gurps3e", "dnd5e"}
    for battle in battles:
        _apply(client, _play(battle, gm, 120, rng))
    players = {
        m.campaign_id: m.user
        for m in Membership.objects.filter(role=Role.PLAYER, faction__isnull=False)
    }
    found: dict[str, set[str]] = {}
    for line in results:
        for problem in _problems(line):
            found.setdefault(f"activity result: {line.strip()}", set()).add(problem)
    for language in ("en", "ru"):
        for battle in Battle.objects.all():
            url = reverse("battles:report", args=[battle.campaign_id, battle.pk])
            for user in (gm, players.get(battle.campaign_id)):
                if user is None:
                    continue
                client.force_login(user)
                for query in ({}, {"format": "md"}):
                    text = client.get(url, query, HTTP_ACCEPT_LANGUAGE=language).content.decode()
                    body = text.split("</header>", 1)[-1] if not query else text
                    # What a reader reads: no tags, no Markdown link targets (a chart's URL
                    # names its battle, as every URL does).
                    readable = re.sub(r"\]\([^)]*\)", "]", re.sub(r"<[^>]+>", "\n", body))
                    for line in readable.splitlines():
                        for problem in _problems(line):
                            found.setdefault(f"{battle.system}/{language}: {line.strip()}",
                                             set()).add(problem)  # fmt: skip
        with translation.override(language):
            for entry in LogEntry.objects.all():
                line = log_text(entry.code, entry.data)
                for problem in _problems(line):
                    found.setdefault(f"log {entry.code}/{language}: {line}", set()).add(problem)
    assert LogEntry.objects.filter(code__startswith="army.gear").exists()
    assert not found, "\n".join(f"{line}  <- {sorted(p)}" for line, p in sorted(found.items()))
