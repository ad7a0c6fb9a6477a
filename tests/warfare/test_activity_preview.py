"""The check of an Army activity shown before it is taken (§4.2-4.8), and Train Army's choices
(§4.8). The players' kingdom: level 3, Control DC 17 (§10.4), skills from tests/conftest.py."""

import pytest
from django.urls import reverse

from warfare.systems.pf2e import services
from warfare.systems.pf2e.models import Kingdom


def _page(client, army, htmx=False, **params):
    url = reverse("pf2e:army-activity", args=[army.faction.campaign_id, army.pk])
    return client.get(url, params, **({"HTTP_HX_REQUEST": "true"} if htmx else {}))


@pytest.mark.parametrize(
    ("activity", "shown"),
    [
        ("deploy_army", "Exploration +6 vs DC 17"),  # §4.2
        ("garrison_army", "Politics +5 vs DC 17"),  # §4.4, a settlement in our kingdom
        ("outfit_army", "Trade +5 vs DC 17"),  # §4.6, bought
        ("train_army", "Scholarship +4 vs DC 17"),  # §4.8 [inferred Control DC]
        ("disband_army", "No check: this activity is simply done."),  # §4.3
    ],
)
def test_each_activity_shows_its_check_before_it_is_taken(
    client, player, militia, kingdom, activity, shown
):
    client.force_login(player)
    page = _page(client, militia, activity=activity).content.decode()
    assert shown in page
    assert militia.activities_this_turn == 0  # nothing taken


def test_the_check_follows_the_choices_made_so_far(client, player, militia, kingdom):
    """§4.4: +5 DC outside our kingdom, +10 in an enemy kingdom; the skill by location."""
    client.force_login(player)
    base = {"activity": "garrison_army", "preview": "1", "version": militia.version}
    outside = _page(client, militia, **base, location="settlement", territory="outside")
    assert "Politics +5 vs DC 22" in outside.content.decode()
    refuge = _page(client, militia, htmx=True, **base, location="refuge", territory="enemy")
    text = refuge.content.decode()
    assert "Defense +7 vs DC 27" in text
    assert "<h1>" not in text  # htmx gets the preview alone


def test_outfit_shows_the_rp_it_costs(client, player, militia, kingdom):
    """§5: Healing Potions cost 15 RP a dose; two doses, 30 RP of the kingdom's 30 (magic gear:
    the kingdom is at least expert in Magic, §4.6)."""
    kingdom.skills = {**kingdom.skills, "magic": {"modifier": 3, "rank": "expert"}}
    kingdom.save()
    client.force_login(player)
    page = _page(client, militia, activity="outfit_army", preview="1", gear="healing_potions",
                 tier="1", doses="2", source="purchased")  # fmt: skip
    assert "Costs 30 RP (the kingdom has 30)." in page.content.decode()


def test_the_preview_says_why_an_activity_cannot_be_taken(client, player, militia, kingdom):
    """§4.7: an army at full HP has nothing to recover from."""
    client.force_login(player)
    page = _page(client, militia, activity="recover_army").content.decode()
    assert "Take Recover Army" in page
    assert 'class="errorlist"' in page.split('id="activity-preview-')[1]


def _army(gm, world, kingdom, army_type, tactics):
    Kingdom.objects.filter(pk=kingdom.pk).update(level=3)
    return services.army_create(user=gm, campaign_id=world.pk, faction_id=kingdom.faction_id,
                                name=f"Company {army_type}", army_type=army_type,
                                tactics=tactics, hex="C7")  # fmt: skip


def test_train_army_offers_only_tactics_the_army_may_learn(client, world, gm, kingdom):
    """§4.8: a tactic of the army's level and type, not known already (unless it may be taken
    again); at max tactics (1 at level 3, §1.2) one known tactic is replaced."""
    army = _army(gm, world, kingdom, "infantry", ("keen_eyed",))
    client.force_login(gm)
    form = _page(client, army, activity="train_army").context["form"]
    offered = {key for key, _label in form.fields["tactic"].choices}
    assert "keen_eyed" not in offered  # known
    assert "toughened_soldiers" in offered  # may be taken again
    assert "overrun" not in offered  # cavalry only
    assert "sharpshooter" not in offered  # level 5
    assert "accustomed_to_panic" not in offered  # Sootscale Warriors' own (§6.2)
    assert [key for key, _label in form.fields["replace"].choices] == ["keen_eyed"]


def test_train_army_never_offers_to_replace_a_mandatory_tactic(client, world, gm, kingdom):
    """§2/§4.8: cavalry keeps Overrun [inferred]; at level 3 it fills the only slot."""
    army = _army(gm, world, kingdom, "cavalry", ())
    client.force_login(gm)
    form = _page(client, army, activity="train_army").context["form"]
    assert form.fields["replace"].choices == []
    assert "overrun" not in {key for key, _label in form.fields["tactic"].choices}


def test_train_army_with_a_free_slot_replaces_nothing(client, world, gm, kingdom):
    Kingdom.objects.filter(pk=kingdom.pk).update(level=4)  # max tactics 2 (§1.2)
    army = services.army_create(user=gm, campaign_id=world.pk, faction_id=kingdom.faction_id,
                                name="Pikes", army_type="infantry", tactics=("keen_eyed",),
                                hex="C7")  # fmt: skip
    client.force_login(gm)
    form = _page(client, army, activity="train_army").context["form"]
    assert "replace" not in form.fields
