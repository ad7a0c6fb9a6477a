"""What players must never learn: the numbers of another side's army (the enemy's level 9
infantry, AC 28), its hex, the GM's notes, the other kingdom's treasury, and the very existence
of a hidden faction; in HTML, in htmx partials and in JSON alike. On a battle board of every
rule system, through every surface (page, partial, live poll, JSON state and log, report,
Markdown, 409 bodies): the enemy's modifiers, DCs, force numbers and stat blocks, a hidden
faction's name, and (from the GM) a players' side's secret strategy; and a non-member learns
nothing from the board's ETag."""

import json
import re

import pytest
from django.urls import reverse

from battles.models import Battle
from warfare.systems.pf2e.models import Kingdom

SECRET_NOTE = "GM-ONLY-NOTE"
#: The enemy kingdom's RP: a number no database id of a test run reaches (ids climb through
#: the suite) and no CSRF token can hold (tokens are stripped before the check, see below).
SECRET_RP = 987_654
#: CSRF tokens (64 random letters and digits, one per form) may contain the digits by chance.
CSRF_TOKEN = re.compile(r"[A-Za-z0-9]{64}")
#: Keys of an army's numbers and state; absent from what a viewer of another side gets.
#: (Conditions are not among them: on a battle board they are there for all to see.)
HIDDEN_KEYS = {"stat_block", "hp", "max_hp", "level", "level_override", "hex", "notes",
               "version", "rout_threshold", "tactics", "gear", "potions", "shots"}  # fmt: skip


@pytest.fixture
def secrets(world, enemy_faction, hidden_faction, raiders, objects):
    Kingdom.objects.filter(faction=enemy_faction).update(resource_points=SECRET_RP)
    return {"raiders": raiders, "enemy": enemy_faction, "hidden": hidden_faction}


def _html_urls(world, secrets, objects):
    c, enemy, raiders = world.pk, secrets["enemy"].pk, secrets["raiders"].pk
    return [
        reverse("kingdoms:campaign-list"),
        reverse("kingdoms:campaign-detail", args=[c]),
        reverse("kingdoms:faction-detail", args=[c, enemy]),
        reverse("pf2e:army-list", args=[c, enemy]),
        reverse("pf2e:army-detail", args=[c, raiders]),
        reverse("battles:list", args=[c]),
        reverse("battles:board", args=[c, objects["battle_id"]]),
        reverse("battles:report", args=[c, objects["battle_id"]]),
    ]


def _json_urls(world, secrets, objects):
    c, enemy, raiders = world.pk, secrets["enemy"].pk, secrets["raiders"].pk
    return [
        reverse("api:faction-list", args=[c]),
        reverse("api:faction-army-list", args=[c, enemy]),
        reverse("api:army-detail", args=[c, raiders]),
        reverse("api:battle-list", args=[c]),
        reverse("api:battle-detail", args=[c, objects["battle_id"]]),
        reverse("api:battle-log", args=[c, objects["battle_id"]]),
    ]


def _army_entries(data, army):
    """Every object in `data` that stands for `army` (by its id or key with its name)."""
    if isinstance(data, dict):
        ids = {data.get("id"), data.get("key"), data.get("army")}
        if data.get("name") == army.name and ({army.pk, str(army.pk)} & ids):
            yield data
        for value in data.values():
            yield from _army_entries(value, army)
    elif isinstance(data, list):
        for value in data:
            yield from _army_entries(value, army)


def test_players_html_shows_no_enemy_numbers(client, world, player, gm, secrets, objects):
    client.force_login(player)
    for url in _html_urls(world, secrets, objects):
        for headers in ({}, {"HTTP_HX_REQUEST": "true"}):
            response = client.get(url, **headers)
            assert response.status_code == 200, url
            html = CSRF_TOKEN.sub("", response.content.decode())
            assert SECRET_NOTE not in html, url
            assert str(SECRET_RP) not in html, url
            assert "Hollow Crown" not in html and "Ashfen" not in html, url
    army_pages = _html_urls(world, secrets, objects)[3:5]
    for url in army_pages:
        html = client.get(url).content.decode()
        # Level 9 infantry (§1.2): AC 28, Morale +21; its hex D8.
        for secret in ("<strong>28</strong>", "<strong>21</strong>", "level 9", "stat-table",
                       ">D8<", '<td class="num">9</td>'):  # fmt: skip
            assert secret not in html, (url, secret)
    # The markers are real: the GM sees them.
    client.force_login(gm)
    gm_html = client.get(army_pages[1]).content.decode()
    assert "<strong>28</strong>" in gm_html


def test_players_json_has_no_enemy_numbers(client, world, player, other_player, gm, secrets,
                                           objects):  # fmt: skip
    raiders = secrets["raiders"]
    for user in (player, other_player):
        client.force_login(user)
        for url in _json_urls(world, secrets, objects):
            response = client.get(url)
            assert response.status_code == 200, url
            text = response.content.decode()
            assert SECRET_NOTE not in text, url  # the GM's notes: not even its own side
            if user == player:
                assert str(SECRET_RP) not in text and "Hollow Crown" not in text, url
                for entry in _army_entries(json.loads(text), raiders):
                    assert not HIDDEN_KEYS & set(entry), (url, HIDDEN_KEYS & set(entry))
    # Its own side and the GM do see its numbers (AC 28), so the check above is not vacuous.
    detail = reverse("api:army-detail", args=[world.pk, raiders.pk])
    for user in (other_player, gm):
        client.force_login(user)
        assert client.get(detail).json()["stat_block"]["ac"]["value"] == 28
    assert client.get(detail).json()["notes"].startswith(SECRET_NOTE)


# --- One viewpoint filter per rule system (issue 11 "Nothing leaked", issue 16) ---------------
#
# Every surface a member reads a battle through: the board page, its htmx partial, the live
# poll, the JSON state, the JSON log, the report and its Markdown, and the 409 bodies of a
# stale click (page and API). The secrets are numbers no database id of a run reaches, or
# sentences no id can make ("vs DC 29"), and the hidden faction's name.

UNKNOWN = "Unknown force"


def _flat(response) -> str:
    """The answer's text, CSRF tokens out, whitespace squeezed."""
    return " ".join(CSRF_TOKEN.sub("", response.content.decode()).split())


def _surfaces(client, battle, stale: dict) -> dict[str, str]:
    """{surface: text} of `battle` for the logged-in member; `stale`: an action (actor, kind)
    posted with the last seq but one, answered 409 with the board as it is now."""
    args = [battle.campaign_id, battle.pk]
    board = reverse("battles:board", args=args)
    report = reverse("battles:report", args=args)
    assert battle.seq >= 1
    old = {**stale, "seq": battle.seq - 1}
    old_api = {**old, "params": json.loads(old.get("params") or "{}")}
    act, actions = reverse("battles:act", args=args), reverse("api:battle-actions", args=args)
    htmx = {"HTTP_HX_REQUEST": "true"}
    answers = {
        "board": (client.get(board), 200),
        "partial": (client.get(board, **htmx), 200),
        "live poll": (client.get(board, {"since": battle.seq - 1}, **htmx), 200),
        "API state": (client.get(reverse("api:battle-detail", args=args)), 200),
        "API log": (client.get(reverse("api:battle-log", args=args), {"page_size": 200}), 200),
        "report": (client.get(report), 200),
        "Markdown": (client.get(report, {"format": "md"}), 200),
        "409 page": (client.post(act, old, **htmx), 409),
        "409 API": (client.post(actions, old_api, content_type="application/json"), 409),
    }
    for name, (response, status) in answers.items():
        assert response.status_code == status, (name, response.content.decode()[:2000])
    return {name: _flat(response) for name, (response, _status) in answers.items()}


def _dicts(data):
    """Every JSON object inside `data`."""
    if isinstance(data, dict):
        yield data
        for value in data.values():
            yield from _dicts(value)
    elif isinstance(data, list):
        for value in data:
            yield from _dicts(value)


def _json(surfaces, *names):
    """The JSON states among `surfaces` (a 409's: its `battle`)."""
    data = [json.loads(surfaces[name]) for name in names]
    return [
        d["battle"] if name.startswith("409") else d for name, d in zip(names, data, strict=True)
    ]


def _assert_absent(surfaces: dict[str, str], secrets, where=None):
    for name, text in surfaces.items():
        if where is None or name in where:
            for secret in secrets:
                assert str(secret) not in text, (name, secret)


#: The surfaces that name the sides (the log's sentences name armies, units and sides'
#: commanders only where an event does).
SIDE_SURFACES = ("board", "partial", "live poll", "API state", "report", "Markdown", "409 page",
                 "409 API")  # fmt: skip


def _assert_hidden_faction(client, gm, player, battle, stale, gm_names, hidden_names=()):
    """A side of the hidden faction ("Hollow Crown", known_to_players=False) reads "Unknown
    force" to a player on every surface, and neither the faction's name nor `hidden_names`
    (what else would name it: its force's name) reaches them; the GM reads `gm_names`."""
    client.force_login(gm)
    gm_view = " ".join(_surfaces(client, battle, stale).values())
    assert all(name in gm_view for name in gm_names), gm_names  # the markers are real
    client.force_login(player)
    seen = _surfaces(client, battle, stale)
    _assert_absent(seen, ["Hollow Crown", "Ashfen", *hidden_names])
    for name in SIDE_SURFACES:
        assert UNKNOWN in seen[name], name


def test_a_non_member_gets_404_before_any_etag(client, world, outsider, other_gm, player,
                                                secrets, objects):  # fmt: skip
    """The board's ETag and 304 come after the access check: `If-None-Match: *` matches any
    ETag, so it used to answer a non-member 304 for a battle that exists (and 404 for one that
    does not)."""
    url = reverse("battles:board", args=[world.pk, objects["battle_id"]])
    for user in (outsider, other_gm):
        client.force_login(user)
        assert client.get(url, HTTP_IF_NONE_MATCH="*").status_code == 404
        assert client.get(url, HTTP_IF_NONE_MATCH="*", HTTP_HX_REQUEST="true").status_code == 404
    client.force_login(player)
    first = client.get(url)
    assert first.status_code == 200 and first["ETag"]
    assert client.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304


# --- Pathfinder 2e ------------------------------------------------------------------------------


@pytest.fixture
def pf2e_battle(world, gm, militia, raiders, hidden_faction):
    """The players' militia (side A) against the raiders and the hidden faction's crows (side
    B, named "Thornback Horde, Hollow Crown" by the set-up); the enemies act first (typed
    initiative), the raiders advance on the militia, and the militia is to act."""
    from battles import services
    from warfare.systems.pf2e import services as army_services

    crows = army_services.army_create(
        user=gm, campaign_id=world.pk, faction_id=hidden_faction.pk, name="Ashen Crows",
        army_type="infantry", tactics=("toughened_soldiers",),
    )  # fmt: skip
    battle = services.battle_create(
        user=gm, campaign_id=world.pk, name="Battle of the Reeds",
        sides={"a": [militia.pk], "b": [raiders.pk, crows.pk]},
        initiative_dice={raiders.pk: 20, crows.pk: 19, militia.pk: 1},
    )  # fmt: skip
    assert battle.snapshot["order"][-1] == str(militia.pk)
    assert "Hollow Crown" in battle.setup["sides"][1]["name"]
    state = _api(gm, battle)
    advance = next(a for a in state["actions"] if a["key"] == "advance")
    option = next(o for o in advance["options"] if o["params"]["target"] == str(militia.pk))
    for actor, kind, params in ((str(raiders.pk), "advance", option["params"]),
                                (str(raiders.pk), "end_turn", {}),
                                (str(crows.pk), "end_turn", {})):  # fmt: skip
        battle, _events = services.battle_act(
            user=gm, campaign_id=world.pk, battle_id=battle.pk, expected_seq=battle.seq,
            command={"actor": actor, "kind": kind, "params": params},
        )  # fmt: skip
    assert battle.snapshot["order"][battle.snapshot["turn"]] == str(militia.pk)
    return battle


def _api(user, battle):
    from rest_framework.test import APIClient

    client = APIClient()
    client.force_login(user)
    return client.get(reverse("api:battle-detail", args=[battle.campaign_id, battle.pk])).json()


def _pf2e_secrets(client, gm, battle, militia):
    """The enemy's numbers as the GM reads them: the DCs the militia rolls against ("vs DC
    29" on the board), the enemy's check modifiers in the log ("+ 22 = 29")."""
    client.force_login(gm)
    state = _api(gm, battle)
    checks = [c for a in state["actions"] for o in a["options"] for c in o["checks"]]
    dcs = {c["dc"] for c in checks if c["against"] not in (None, str(militia.pk))}
    log = client.get(reverse("api:battle-log", args=[battle.campaign_id, battle.pk]),
                     {"page_size": 200}).json()["results"]  # fmt: skip
    rolls = [e["params"].get("check", e["params"]) for e in log
             if e["params"].get("army") != str(militia.pk)
             and "total" in e["params"].get("check", e["params"])]  # fmt: skip
    assert dcs and len(rolls) >= 3  # two enemy initiatives and the raiders' advance
    return dcs, [f"+ {roll['modifier']} = {roll['total']}" for roll in rolls]


def test_pf2e_players_see_neither_the_enemys_dcs_nor_its_modifiers(
    client, world, gm, player, militia, pf2e_battle
):
    """A player reads their own armies' modifiers and every check's degree; not the enemy's
    DCs before rolling ("Maneuver +6 vs DC 29") nor an enemy's modifier and total in the log
    ("d20 20 + 22 = 42"), unless the GM reveals them."""
    battle = pf2e_battle
    dcs, modifiers = _pf2e_secrets(client, gm, battle, militia)
    stale = {"actor": str(militia.pk), "kind": "end_turn", "params": "{}"}
    gm_view = _surfaces(client, battle, stale)
    assert all(f"vs DC {dc}" in gm_view["board"] for dc in dcs)  # the markers are real
    assert all(modifier in gm_view["API log"] for modifier in modifiers)
    client.force_login(player)
    seen = _surfaces(client, battle, stale)
    _assert_absent(seen, [*modifiers, *(f"DC {dc}" for dc in dcs)])
    assert "Maneuver +" in seen["board"]  # the militia's own modifiers stay
    state, log, stale_body = _json(seen, "API state", "API log", "409 API")
    for data in (state, stale_body):
        checks = [d for d in _dicts(data) if "against" in d and d.get("against")]
        assert checks and all(c["dc"] is None and c["dc_breakdown"] == [] for c in checks)
    enemy_rolls = [e["params"] for e in log["results"]
                   if e["params"].get("army") not in (None, str(militia.pk))]  # fmt: skip
    for params in enemy_rolls:
        roll = params.get("check", params)
        assert not {"modifier", "total", "modifier_breakdown"} & set(roll), params
    assert any("die" in params.get("check", params) for params in enemy_rolls)


def test_pf2e_players_never_read_the_hidden_faction(client, gm, player, militia, pf2e_battle):
    stale = {"actor": str(militia.pk), "kind": "end_turn", "params": "{}"}
    _assert_hidden_faction(client, gm, player, pf2e_battle, stale, ["Hollow Crown"])


def test_pf2e_the_gm_may_reveal_the_enemys_numbers(as_role, world, militia, raiders):
    """The set-up option (here through the API's create body) shows a player the enemy's
    check modifiers and DCs."""
    gm = as_role("gm")
    body = {"name": "Open Skirmish", "sides": {"a": [militia.pk], "b": [raiders.pk]},
            "initiative_dice": {str(raiders.pk): 20, str(militia.pk): 1}}  # fmt: skip
    url = reverse("api:battle-list", args=[world.pk])
    secret = gm.post(url, body, format="json").json()
    Battle.objects.filter(pk=secret["id"]).update(status="applied")  # free for another battle
    shown = gm.post(url, {**body, "name": "Shown", "reveal_checks": True}, format="json").json()
    player = as_role("player")

    def raiders_roll(battle) -> dict:
        log = player.get(reverse("api:battle-log", args=[world.pk, battle["id"]])).json()
        return next(e["params"] for e in log["results"] if e["code"] == "battle.initiative"
                    and e["params"]["army"] == str(raiders.pk))  # fmt: skip

    assert "modifier" not in raiders_roll(secret)
    assert {"die", "modifier", "total"} <= set(raiders_roll(shown))


# --- GURPS 3e -----------------------------------------------------------------------------------

#: The hidden faction's force: 987,654 men at TS 3 each (TS 2,962,962), elite, heavy armour,
#: Morale 19; its commander's Strategy 32,123.
G3_MEN, G3_TS, G3_STRATEGY = 987_654, 2_962_962, 32_123


@pytest.fixture
def g3_battle(client, world, gm, player, kingdom_faction, hidden_faction):
    """The players' Host (side A) attacks the hidden faction's Crown Host (side B); both
    commanders are ready, so the day resolved (house casualties) and the battle is over."""
    from battles.models import Battle
    from kingdoms.models import CommandStaff, RuleSystem
    from warfare.systems.gurps3e.models import Force, TroopType, Unit

    world.rule_system = RuleSystem.GURPS3E
    world.save()
    CommandStaff.objects.create(faction=kingdom_faction, strategy=14, commander="Jamandi")
    CommandStaff.objects.create(faction=hidden_faction, strategy=G3_STRATEGY, commander="Vex")
    pikes = TroopType.objects.create(campaign=world, name="pikes", ts_per_man=4)
    ash = TroopType.objects.create(campaign=world, name="ash guard", ts_per_man=3)
    host = Force.objects.create(campaign=world, faction=kingdom_faction, name="Host", tl=3)
    Unit.objects.create(force=host, name="Pikes", troop_type=pikes, men=100, armour="light")
    crown = Force.objects.create(campaign=world, faction=hidden_faction, name="Crown Host", tl=3)
    Unit.objects.create(force=crown, name="Ash Guard", troop_type=ash, men=G3_MEN,
                        armour="heavy", quality="elite", morale=19)  # fmt: skip
    client.force_login(gm)
    data = {"name": "Battle of the Ash", "defender": "b", "days": 1, "month": 1,
            "casualties": "house", "intensity": 0, "players_may_act": "on",
            f"force_{host.pk}": "a", f"force_{crown.pk}": "b"}  # fmt: skip
    assert client.post(reverse("battles:create", args=[world.pk]), data).status_code == 302
    battle = Battle.objects.get(campaign=world, name="Battle of the Ash")
    act = reverse("battles:act", args=[world.pk, battle.pk])
    for user, side in ((player, "a"), (gm, "b")):
        client.force_login(user)
        battle.refresh_from_db()
        answer = client.post(act, {"seq": battle.seq, "kind": "commit", "actor": side})
        assert answer.status_code == 302, answer.content.decode()[:2000]
    battle.refresh_from_db()
    assert battle.outcome is not None
    return battle


def _event(battle, code):
    return battle.events.get(code=code).params


def test_gurps3e_players_see_no_enemy_force_numbers(client, gm, player, g3_battle):
    """The TS ratio and the result are public (§B.7.1); the enemy's men, TS, Troop Quality,
    Morale, armour and its commander's Strategy skill are not (the force page's rule)."""
    battle = g3_battle
    contest = _event(battle, "battle.strategy_contest")
    skill = contest["second"]["skill"]  # side B's effective Strategy
    morale = _event(battle, "battle.morale") if battle.events.filter(
        code="battle.morale").exists() else None  # fmt: skip
    casualties = next(p for p in battle.events.filter(code="battle.casualties")
                      .values_list("params", flat=True) if p["side"] == "b")  # fmt: skip
    unit = casualties["units"][0]
    secrets = [G3_MEN, G3_TS, G3_STRATEGY, skill, f"{unit['men_lost']} men, {unit['men_after']}",
               "heavy armour"]  # fmt: skip
    stale = {"actor": "a", "kind": "commit"}
    client.force_login(gm)
    gm_view = _surfaces(client, battle, stale)
    for secret in secrets:
        assert str(secret) in " ".join(gm_view.values()), secret  # the markers are real
    client.force_login(player)
    seen = _surfaces(client, battle, stale)
    _assert_absent(seen, secrets)
    assert "TS ratio" in seen["board"] and "400" in seen["board"]  # its own TS: 100 × 4
    for data in _json(seen, "API state", "409 API"):
        force = next(d for d in _dicts(data) if d.get("key") == "b" and "role" in d)
        assert not {"strategy", "ts", "morale_modifiers"} & set(force)
        assert all(set(unit) <= {"key", "routed", "retreated"} for unit in force["units"])
    enemy = battle.setup["sides"][1]["units"][0]["key"]
    for roll in (morale or {}).get("rolls") or ():
        if roll["unit"] == enemy:  # its Morale roll: "Ash Guard 10 made", not "10/19"
            assert f"{roll['roll']['roll']}/{roll['roll']['skill']}" not in seen["API log"]


def test_gurps3e_players_never_read_the_hidden_faction(client, gm, player, g3_battle):
    _assert_hidden_faction(client, gm, player, g3_battle, {"actor": "a", "kind": "commit"},
                           ["Hollow Crown"])  # fmt: skip


# --- GURPS Mass Combat 4e -----------------------------------------------------------------------


@pytest.fixture
def g4_battle(client, world, gm, player, kingdom_faction, hidden_faction):
    """The players' Legion (side A) against the GM's Crown Host of the hidden faction (side
    B), a pitched battle; the player has chosen All-Out Attack for side A."""
    from battles.models import Battle
    from kingdoms.models import CommandStaff, RuleSystem
    from warfare.systems.gurps4e.models import ElementType, Force, ForceElement

    world.rule_system = RuleSystem.GURPS4E
    world.save()
    for faction in (kingdom_faction, hidden_faction):
        CommandStaff.objects.create(faction=faction)
    infantry = ElementType.objects.create(campaign=world, name="Heavy Infantry", tl=2,
                                          base_ts=4, classes=[])  # fmt: skip
    for faction, name in ((kingdom_faction, "Legion"), (hidden_faction, "Crown Host")):
        force = Force.objects.create(campaign=world, faction=faction, name=name)
        ForceElement.objects.create(force=force, element_type=infantry, count=10)

    def make(name, **extra):
        client.force_login(gm)
        forces = dict(Force.objects.filter(campaign=world).values_list("name", "pk"))
        data = {"name": name, "force_a": forces["Legion"], "force_b": forces["Crown Host"],
                "battle_type": "land", "terrain": "plains", "kind": "pitched",
                "initiative": "a", "players_may_act": "on", **extra}  # fmt: skip
        answer = client.post(reverse("battles:create", args=[world.pk]), data)
        assert answer.status_code == 302, answer.content.decode()[:2000]
        battle = Battle.objects.get(campaign=world, name=name)
        client.force_login(player)
        choice = json.dumps({"strategy": "all_out_attack", "desperate": False})
        answer = client.post(reverse("battles:act", args=[world.pk, battle.pk]),
                             {"seq": battle.seq, "actor": "a", "kind": "choose_strategy",
                              "option": choice, "risk": "0"})  # fmt: skip
        assert answer.status_code == 302, answer.content.decode()[:2000]
        battle.refresh_from_db()
        return battle

    return make


CHOSEN = ("Chosen (secret until both are in): All-Out Attack", "Chosen so far: All-Out Attack")


def test_gurps4e_the_gm_does_not_see_the_players_strategy_before_choosing(
    client, gm, player, g4_battle
):
    """§A.6.3: the GM commands the other side, so a players' side's pending strategy is
    secret from the GM's board too until the GM's own side has chosen."""
    battle = g4_battle("Battle of the Fen")
    stale = {"actor": "b", "kind": "choose_strategy"}
    client.force_login(player)
    assert CHOSEN[0] in _surfaces(client, battle, stale)["board"]  # the player's own
    client.force_login(gm)
    seen = _surfaces(client, battle, stale)
    _assert_absent(seen, CHOSEN)
    for data in _json(seen, "API state", "409 API"):
        assert data["state"]["choices"][0] == {"chosen": True}
        assert data["sides"][0]["chosen"] is True and data["sides"][0]["choice"] is None


def test_gurps4e_the_gm_may_see_the_players_strategy_at_once(client, gm, g4_battle):
    battle = g4_battle("Battle of the Open Fen", gm_sees_choices="on")
    assert battle.setup["gm_sees_choices"] is True
    client.force_login(gm)
    page = _surfaces(client, battle, {"actor": "b", "kind": "choose_strategy"})["board"]
    assert CHOSEN[0] in page and CHOSEN[1] in page


def test_gurps4e_players_never_read_the_hidden_faction(client, gm, player, g4_battle):
    battle = g4_battle("Battle of the Mire")
    stale = {"actor": "a", "kind": "choose_strategy"}
    names = ["Hollow Crown", "Crown Host"]
    _assert_hidden_faction(client, gm, player, battle, stale, names, hidden_names=names)


# --- D&D 5e -------------------------------------------------------------------------------------

#: The enemy's creature: AC 32,717, 32,749 HP, an attack at +987,654, Dex +987,321 (its
#: initiative modifier: a typed 1 makes its initiative 987,322).
DND_AC, DND_HP, DND_TO_HIT, DND_DEX = 32_717, 32_749, 987_654, 987_321


@pytest.fixture
def dnd_battle(world, gm, kingdom_faction, hidden_faction):
    """The players' Wardens (guards, side A) against the hidden faction's Crown Host of
    gloomhulks (side B), deployed; the GM has begun the battle and the guards act first."""
    from battles import services
    from kingdoms.models import RuleSystem
    from warfare.engine.systems.dnd5e.creatures import Attack
    from warfare.systems.dnd5e import services as dnd_services
    from warfare.systems.dnd5e.models import Army, Creature, Unit
    from warfare.systems.dnd5e.setup import battle_create

    world.rule_system = RuleSystem.DND5E
    world.save()
    dnd_services.library_load_srd(user=gm, campaign_id=world.pk)
    hulk = Creature.objects.create(
        campaign=world, key="gloomhulk", name="Gloomhulk", ac=DND_AC, hp=DND_HP,
        speeds={"walk": 30}, abilities={"str": 4, "dex": DND_DEX, "con": 3, "int": 0, "wis": 0,
                                        "cha": 0},
        attacks=[Attack("maul", DND_TO_HIT, "2d6+4", "bludgeoning", 5).to_dict()],
    )  # fmt: skip
    wardens = Army.objects.create(campaign=world, faction=kingdom_faction, name="Wardens")
    guard = Creature.objects.get(campaign=world, key="guard")
    guards = Unit.objects.create(army=wardens, name="Guards", creature=guard, stands=2)
    crown = Army.objects.create(campaign=world, faction=hidden_faction, name="Crown Host")
    hulks = Unit.objects.create(army=crown, name="Brutes", creature=hulk, stands=1)
    battle = battle_create(
        user=gm, campaign_id=world.pk, name="Battle of the Causeway", army_a=wardens,
        army_b=crown, players_may_act=True, width=6, height=4, depth=2, squares=[],
        objectives=[], options={}, auto_deploy=True,
        initiative_dice={f"u{guards.pk}": 20, f"u{hulks.pk}": 1},
    )  # fmt: skip
    while battle.seq == 0 or battle.snapshot["turn"]["actor"] != f"u{guards.pk}":
        battle, _events = services.battle_act(  # the brutes (Dex +987,321) act first
            user=gm, campaign_id=world.pk, battle_id=battle.pk, expected_seq=battle.seq,
            command={"actor": battle.snapshot["turn"]["actor"], "kind": "end_turn"},
        )  # fmt: skip
    assert battle.snapshot["turn"]["actor"] == f"u{guards.pk}"
    return battle, f"u{guards.pk}"


def test_dnd5e_players_get_no_enemy_stat_blocks(client, gm, player, dnd_battle):
    """Issue 16: a player reads their own side's stat blocks and, of the enemy, only what
    the page shows; the GM reads everything."""
    battle, guards = dnd_battle
    stale = {"actor": guards, "kind": "end_turn", "params": "{}"}
    secrets = [DND_AC, DND_HP, DND_TO_HIT, DND_DEX, DND_DEX + 1, "gloomhulk", "Gloomhulk"]
    client.force_login(gm)
    gm_view = _surfaces(client, battle, stale)
    gm_view["selected"] = _flat(client.get(battle.get_absolute_url(), {"sel": f"{guards}.1"}))
    for secret in secrets:
        assert str(secret) in " ".join(gm_view.values()), secret  # the markers are real
    assert f"AC {DND_AC}" in gm_view["selected"]  # the guards' attack preview: vs its AC
    gm_state = json.loads(gm_view["API state"])["state"]
    assert gm_state["creatures"]["gloomhulk"]["ac"] == DND_AC
    client.force_login(player)
    seen = _surfaces(client, battle, stale)
    seen["selected"] = _flat(client.get(battle.get_absolute_url(), {"sel": f"{guards}.1"}))
    assert "Spear" in seen["selected"] or "spear" in seen["selected"]  # its own attack stays
    _assert_absent(seen, secrets)
    for data in _json(seen, "API state", "409 API"):
        state = data["state"]
        assert set(state["creatures"]) == {"guard"} and state["creatures"]["guard"]["ac"] == 16
        enemy = [s for s in state["stands"] if s["unit"] != guards]
        assert enemy and all(s["creature"] is None and s["hp"] is None for s in enemy)
        assert all(s["pos"] is not None for s in enemy)  # where it stands is on the page


def test_dnd5e_players_never_read_the_hidden_faction(client, gm, player, dnd_battle):
    battle, guards = dnd_battle
    stale = {"actor": guards, "kind": "end_turn", "params": "{}"}
    _assert_hidden_faction(client, gm, player, battle, stale, ["Crown Host"], ["Crown Host"])
