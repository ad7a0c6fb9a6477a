"""The campaign and faction pages ask the rule-system registry (kingdoms.rulesystems) for a
system's records and templates; they name no rule system themselves. Pathfinder registers
its kingdom there, and a system registered by a test gets its own record on the same pages."""

import pytest
from django import forms
from django.template.loader import get_template
from django.urls import reverse

from kingdoms import rulesystems, services
from kingdoms.models import Faction, Role
from tests.factories import CampaignFactory, MembershipFactory
from warfare.systems.pf2e.models import Kingdom

TOY = "toy"
saved: dict[int, dict | None] = {}


class _ToyBannerForm(forms.Form):
    prefix = "banner"
    colour = forms.CharField(max_length=20)

    def __init__(self, data, *, instance=None, campaign=None):
        super().__init__(data)

    def service_data(self) -> dict:
        return dict(self.cleaned_data)


@pytest.fixture
def toy_system():
    """A rule system with one faction record (a banner) and no board, for this test only
    (in the place of the test settings' toy system, put back afterwards)."""
    before = rulesystems.get(TOY)
    rulesystems.register(
        rulesystems.RuleSystemPlugin(
            key=TOY,
            label="Toy",
            faction_records=(
                rulesystems.FactionRecord(
                    key="banner",
                    form=_ToyBannerForm,
                    save=lambda faction, fields: saved.__setitem__(faction.pk, fields),
                ),
            ),
        )
    )
    saved.clear()
    yield
    rulesystems.unregister(TOY)
    if before is not None:
        rulesystems.register(before)


def test_pathfinder_registers_its_kingdom_battles_and_templates():
    plugin = rulesystems.get("pf2e")
    assert plugin is not None and plugin.has_battles
    assert [record.key for record in plugin.faction_records] == ["kingdom"]
    assert plugin.before_campaign_delete is not None
    for slot in ("faction_card", "faction_detail", "faction_form", "faction_links"):
        get_template(plugin.templates[slot])  # exists and compiles


@pytest.mark.django_db
def test_a_pathfinder_faction_gets_its_kingdom_through_the_registry(gm):
    campaign = CampaignFactory(created_by=gm, rule_system="pf2e")
    MembershipFactory(campaign=campaign, user=gm, role=Role.GM)
    faction = services.faction_create(user=gm, campaign_id=campaign.pk, name="Silverrun")
    assert Kingdom.objects.filter(faction=faction).exists()


@pytest.mark.django_db
def test_a_registered_system_gets_its_record_on_the_faction_pages(toy_system, client, gm):
    campaign = CampaignFactory(created_by=gm, rule_system=TOY)
    MembershipFactory(campaign=campaign, user=gm, role=Role.GM)
    client.force_login(gm)
    url = reverse("kingdoms:faction-create", args=[campaign.pk])
    assert client.get(url).status_code == 200  # it has no template slot: nothing drawn
    response = client.post(url, {"name": "Bluebanners", "controlled_by": "gm",
                                 "known_to_players": "on", "banner-colour": "blue"})  # fmt: skip
    assert response.status_code == 302, response.content.decode()[:2000]
    faction = Faction.objects.get(campaign=campaign)
    assert saved == {faction.pk: {"colour": "blue"}}
    assert not Kingdom.objects.filter(faction=faction).exists()
    assert not campaign.uses_battles and campaign.system_templates == {}
    refused = client.post(url, {"name": "Reds", "controlled_by": "gm"})  # its form is required
    assert refused.status_code == 400
    assert not Faction.objects.filter(name="Reds").exists()


@pytest.mark.django_db
def test_a_campaign_of_an_unregistered_system_has_no_records_and_no_battles(gm):
    campaign = CampaignFactory(created_by=gm, rule_system="unknown")
    MembershipFactory(campaign=campaign, user=gm, role=Role.GM)
    faction = services.faction_create(user=gm, campaign_id=campaign.pk, name="Nobody",
                                      records={"kingdom": {"level": 3}})  # fmt: skip
    assert not Kingdom.objects.filter(faction=faction).exists()
    assert not campaign.uses_battles
