"""Fewer clicks on the D&D 5e board (issue 14): the board selects the acting unit's next
stand by itself (after a stand has used its action, §5.4), and while deploying the next
piece to place; the deployment zones are marked on the grid (§5.1); the stand chips that
select a stand look and read like buttons."""

import json
import re

import pytest
from django.urls import reverse

from battles.models import Battle
from tests.dnd5e.conftest import SETUP_POST
from tests.dnd5e.test_board import _end_turns_until
from warfare.systems.dnd5e.models import Unit

pytestmark = pytest.mark.django_db


def _board(battle):
    return reverse("battles:board", args=[battle.campaign_id, battle.pk])


def _selected(page: str) -> str | None:
    found = re.search(r"<h2>Selected: ([^<]+)</h2>", page)
    return found.group(1) if found else None


@pytest.fixture
def guards_turn(gm, dnd_battle):
    guards = f"u{Unit.objects.get(name='Guards').pk}"
    battle = _end_turns_until(gm, dnd_battle, lambda b: b.snapshot["turn"]["actor"] == guards)
    return battle, guards


def test_the_acting_units_first_stand_is_selected_by_itself(client, gm, player, guards_turn):
    battle, _guards = guards_turn
    client.force_login(gm)
    page = client.get(_board(battle)).content.decode()
    assert _selected(page) == "Guards #1"
    assert page.count("sq t-clear move") > 5  # its squares are offered at once
    # Asked for, another stand is selected; `?sel=` selects nothing.
    assert _selected(client.get(_board(battle), {"sel": f"{_guards}.2"}).content.decode()) == (
        "Guards #2")  # fmt: skip
    assert _selected(client.get(_board(battle), {"sel": ""}).content.decode()) is None
    # The player's faction commands the Guards (the Wardens): selected for them too; the
    # enemy's player gets nothing selected.
    client.force_login(player)
    assert _selected(client.get(_board(battle)).content.decode()) == "Guards #1"


def test_after_a_stands_attack_the_next_stand_is_selected(client, gm, guards_turn):
    """Guards #2 hits the objective square next to it (§7.1): its action is used, so the
    board's answer selects the first stand still to act, Guards #1."""
    battle, guards = guards_turn
    client.force_login(gm)
    url = reverse("battles:act", args=[battle.campaign_id, battle.pk]) + f"?sel={guards}.2"
    params = {"piece": f"{guards}.2", "attack": "spear", "target": "sq:2:2"}
    response = client.post(url, {"seq": battle.seq, "actor": guards, "kind": "attack",
                                 "params": json.dumps(params)}, HTTP_HX_REQUEST="true")  # fmt: skip
    assert response.status_code == 200, response.content.decode()[:2000]
    assert _selected(response.content.decode()) == "Guards #1"
    battle.refresh_from_db()
    assert f"{guards}.2" in battle.snapshot["turn"]["acted"]
    # Guards #2 has nothing left to do this turn: asked for (an old link, the live poll),
    # it gives way to the next stand too.
    page = client.get(_board(battle), {"sel": f"{guards}.2"}).content.decode()
    assert f'data-piece="{guards}.2"' not in page and _selected(page) == "Guards #1"


def test_deployment_zones_are_marked_and_the_next_piece_is_selected(client, gm, wardens, horde):
    client.force_login(gm)
    post = {**SETUP_POST, "army_a": wardens.pk, "army_b": horde.pk}
    client.post(reverse("battles:create", args=[wardens.campaign_id]), post)
    battle = Battle.objects.get()
    page = client.get(_board(battle)).content.decode()
    # §5.1: depth 2 on a 10 × 6 field: x 0-1 for side A, x 8-9 for side B.
    assert len(re.findall(r'<td class="sq [^"]* zone zone-a"', page)) == 12
    assert len(re.findall(r'<td class="sq [^"]* zone zone-b"', page)) == 12
    assert "deployment zone of Wardens" in page and "deployment zone of Horde" in page
    knights = f"u{Unit.objects.get(name='Knights').pk}"
    assert _selected(page) == "Knights #1"
    # The chips that select a stand are buttons to the eye and to a screen reader.
    assert re.search(rf'<a class="chip-link" href="[^"]+sel={knights}.1"[^>]*'
                     rf'aria-label="Select Knights #1" aria-current="true">'
                     r'<span class="badge chip selected">', page)  # fmt: skip
    url = reverse("battles:act", args=[battle.campaign_id, battle.pk]) + f"?sel={knights}.1"
    params = {"piece": f"{knights}.1", "x": 0, "y": 0}
    response = client.post(url, {"seq": battle.seq, "actor": knights, "kind": "place",
                                 "params": json.dumps(params)}, HTTP_HX_REQUEST="true")  # fmt: skip
    assert response.status_code == 200, response.content.decode()[:2000]
    assert _selected(response.content.decode()) == "Guards #1"
    battle = _begin(client, gm, battle)
    page = client.get(_board(battle)).content.decode()
    assert not re.search(r'<td class="sq [^"]* zone ', page)  # marked while deploying only


def _begin(client, gm, battle):
    """Every piece placed by the engine's first option, then the GM begins."""
    from battles import services
    from warfare.engine.battle.registry import get_battle_system

    system = get_battle_system("dnd5e")
    for _ in range(40):
        battle.refresh_from_db()
        state = system.state_from_dict(battle.snapshot)
        actors = [u.key for u in state.units] + [s.key for s in state.solos]
        found = next(((actor, dict(option.params)) for actor in actors
                      for spec in system.legal_actions(state, actor) if spec.key == "place"
                      for option in spec.options
                      if state.find(option.params["piece"]).pos is None), None)  # fmt: skip
        if found is None:
            break
        actor, params = found
        services.battle_act(
            user=gm,
            campaign_id=battle.campaign_id,
            battle_id=battle.pk,
            expected_seq=battle.seq,
            command={"actor": actor, "kind": "place", "params": params},
        )
    battle.refresh_from_db()
    battle, _events = services.battle_act(user=gm, campaign_id=battle.campaign_id,
                                          battle_id=battle.pk, expected_seq=battle.seq,
                                          command={"actor": None, "kind": "begin"})  # fmt: skip
    return battle
