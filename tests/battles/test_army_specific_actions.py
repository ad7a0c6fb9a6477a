"""The board offers the army-specific actions of §6.2 (pf2e) only to the armies that have
them, labelled with their choices, and the log tells what they did."""

from django.urls import reverse

from battles import services
from battles.models import Battle
from battles.selectors import board_context
from kingdoms.access import access_campaign
from tests.battles.conftest import end_turn
from warfare.systems.pf2e import services as army_services


def _specialized(gm, world, faction, key, name, level):
    return army_services.army_create(
        user=gm, campaign_id=world.pk, faction_id=faction.pk, name=name,
        army_type="infantry", specialized=key, hex="C7", level_override=level,
    )  # fmt: skip


def _turn_of(gm, battle, army):
    while battle.snapshot["order"][battle.snapshot["turn"]] != str(army.pk):
        battle = end_turn(gm, battle)
    return battle


def _actions(gm, battle):
    context = board_context(membership=access_campaign(gm, battle.campaign_id), battle=battle)
    return context["actions"]


def test_the_board_offers_furious_charge_to_the_tiger_lords_only(
    client, world, gm, enemy_faction, militia
):
    """§6.2 Furious Charge (1 action, once per war encounter): a button for the Tiger Lord
    Berserkers with its target and its Advance check, none for the militia; clicking it
    advances and logs it; afterwards it is gone."""
    tigers = _specialized(gm, world, enemy_faction, "tiger_lord_berserkers", "Tiger Lords", 12)
    battle = services.battle_create(
        user=gm, campaign_id=world.pk, name="The Charge",
        sides={"a": [militia.pk], "b": [tigers.pk]}, pcs_side="a",
    )  # fmt: skip
    battle = _turn_of(gm, battle, militia)
    assert "furious_charge" not in {a["key"] for a in _actions(gm, battle)}
    battle = _turn_of(gm, end_turn(gm, battle), tigers)
    client.force_login(gm)
    page = client.get(reverse("battles:board", args=[world.pk, battle.pk])).content.decode()
    assert "Furious Charge" in page
    charge = next(a for a in _actions(gm, battle) if a["key"] == "furious_charge")
    assert (charge["cost"], charge["target"], charge["rolls"]) == (1, "Silverrun Militia", True)
    assert charge["checks"][0]["modifier"] == 19  # Maneuver +19 (§3.4)
    data = {"seq": battle.seq, "actor": str(tigers.pk), "kind": "furious_charge",
            "params": charge["params"], "typed_die": "20"}  # fmt: skip
    url = reverse("battles:act", args=[world.pk, battle.pk])
    response = client.post(url, data, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    battle = Battle.objects.get(pk=battle.pk)
    assert battle.events.filter(code="battle.furious_charge").exists()
    engaged = {frozenset(pair) for pair in battle.snapshot["engagements"]}
    assert frozenset((str(tigers.pk), str(militia.pk))) in engaged  # a typed 20: engaged
    assert "furious_charge" not in {a["key"] for a in _actions(gm, battle)}
    assert (
        "Furious Charge"
        in client.get(reverse("battles:board", args=[world.pk, battle.pk])).content.decode()
    )  # the log line


def test_the_board_labels_the_first_world_armys_choices(client, world, gm, enemy_faction, militia):
    """§6.2 Battlefield Adaptability: one button per useful choice, labelled; Primal Magic
    with its Morale check (+25, §3.4); Swift Recovery only once there is something to
    recover. Choosing "become concealed" is logged in words."""
    fey = _specialized(gm, world, enemy_faction, "first_world_army", "Fey Host", 16)
    battle = services.battle_create(
        user=gm, campaign_id=world.pk, name="The Fey",
        sides={"a": [militia.pk], "b": [fey.pk]}, pcs_side="a",
    )  # fmt: skip
    battle = _turn_of(gm, battle, fey)
    actions = _actions(gm, battle)
    adapt = [a["choice"] for a in actions if a["key"] == "battlefield_adaptability"]
    assert [str(c) for c in adapt] == ["become concealed", "+2 to Advance and Disengage"]
    primal = next(a for a in actions if a["key"] == "primal_magic")
    assert (primal["cost"], primal["checks"][0]["modifier"]) == (2, 25)
    assert "swift_recovery" not in {a["key"] for a in actions}
    client.force_login(gm)
    page = client.get(reverse("battles:board", args=[world.pk, battle.pk])).content.decode()
    assert "Battlefield Adaptability" in page and "become concealed" in page
    concealed = next(a for a in actions if a["key"] == "battlefield_adaptability")
    data = {"seq": battle.seq, "actor": str(fey.pk), "kind": "battlefield_adaptability",
            "params": concealed["params"]}  # fmt: skip
    url = reverse("battles:act", args=[world.pk, battle.pk])
    assert client.post(url, data, HTTP_HX_REQUEST="true").status_code == 200
    page = client.get(reverse("battles:board", args=[world.pk, battle.pk])).content.decode()
    assert (
        "Fey Host: Battlefield Adaptability, become concealed until the start of its next turn."
        in page
    )


def test_primal_magic_events_read_in_both_languages():
    """§6.2 Primal Magic: its d10 row and Overwhelming Magic's second look at the Morale
    check are sentences in English and Russian."""
    from django.utils import translation

    from battles.events import event_text

    names = {"f1": "Fey Host", "b1": "Raiders"}
    effect = {"army": "b1", "by": "f1", "roll": 6, "effect": "primal_storm", "critical": True}
    overwhelming = {"army": "f1", "target": "b1", "roll": 9, "degree": "failure", "total": 26,
                    "dc": 29, "check": {"stat": "morale", "die": 5, "modifier": 21, "total": 26,
                                        "dc": 29, "source": "seeded"}}  # fmt: skip
    with translation.override("en"):
        assert (
            event_text("battle.primal_magic_effect", effect, names)
            == "Primal Magic on Raiders, d10 6: Primal Storm (stronger)."
        )
        assert event_text("battle.overwhelming_magic", overwhelming, names) == (
            "Fey Host: Overwhelming Magic, the Morale check again with −4: Failure "
            "(d20 5 + 21 = 26 vs DC 29)."
        )
        assert event_text("battle.swift_recovery_used", {"army": "f1", "choice": "hp"}, names) == (
            "Fey Host: Swift Recovery, regain 2 HP."
        )
    with translation.override("ru"):
        assert (
            event_text("battle.primal_magic_effect", effect, names)
            == "Природная магия против Raiders, к10 6: Природная буря (усиленно)."
        )


def test_a_netted_army_is_offered_to_shed_the_nets(client, world, gm, enemy_faction, militia):
    """§6.2 Hurl Nets: after the Tok-Nikrat Scouts net the militia (a typed 20: mired 2), the
    militia's board offers a Battle button "shed the nets" of the Scouts."""
    scouts = _specialized(gm, world, enemy_faction, "tok_nikrat_scouts", "Tok-Nikrat", 10)
    battle = services.battle_create(
        user=gm, campaign_id=world.pk, name="Nets",
        sides={"a": [militia.pk], "b": [scouts.pk]}, pcs_side="a",
    )  # fmt: skip
    battle, _ = services.battle_act(
        user=gm, campaign_id=world.pk, battle_id=battle.pk, expected_seq=battle.seq,
        command={"actor": None, "kind": "gm_correction",
                 "params": {"army": str(scouts.pk), "engage": [str(militia.pk)]}},
    )  # fmt: skip
    battle = _turn_of(gm, battle, scouts)
    battle, _ = services.battle_act(
        user=gm, campaign_id=world.pk, battle_id=battle.pk, expected_seq=battle.seq,
        command={"actor": str(scouts.pk), "kind": "battle", "typed_dice": [20],
                 "params": {"target": str(militia.pk), "weapon": "melee"}},
    )  # fmt: skip
    battle = _turn_of(gm, end_turn(gm, battle), militia)
    shed = [a for a in _actions(gm, battle) if a["key"] == "battle" and a["choice"]]
    assert [(a["target"], str(a["choice"])) for a in shed] == [("Tok-Nikrat", "shed the nets")]
    client.force_login(gm)
    page = client.get(reverse("battles:board", args=[world.pk, battle.pk])).content.decode()
    assert "Tok-Nikrat: shed the nets" in page
