"""An army's edit page answers as a GURPS force's does (one shared use case,
battles.forces.ForceServices): a form drawn from an older version is a 409 with the current
values, even while the army is on a board; a current one is refused while it is (400)."""

import pytest
from django.db.models import F
from django.urls import reverse

from warfare.systems.dnd5e.models import Army

pytestmark = pytest.mark.django_db


def _edit(client, wardens, version):
    url = reverse("dnd5e:army-edit", args=[wardens.campaign_id, wardens.pk])
    return client.post(url, {"name": "Renamed", "notes": "", "version": version})


def test_a_stale_edit_of_a_held_army_is_a_409_and_changes_nothing(client, gm, wardens, dnd_battle):
    client.force_login(gm)
    drawn = wardens.version
    Army.objects.filter(pk=wardens.pk).update(version=F("version") + 1)  # saved since
    response = _edit(client, wardens, drawn)
    assert response.status_code == 409
    wardens.refresh_from_db()
    assert wardens.name == "Wardens"


def test_a_current_edit_of_a_held_army_is_refused_while_the_battle_lasts(
    client, gm, wardens, dnd_battle
):
    client.force_login(gm)
    response = _edit(client, wardens, wardens.version)
    assert response.status_code == 400
    assert "Battle of the Old Bridge" in response.content.decode()
    wardens.refresh_from_db()
    assert wardens.name == "Wardens"
