"""User text is escaped everywhere, including inside htmx attributes: a campaign, factions, a
settlement, armies, a battle and a member (joined by an invite link) all carry a hostile name,
and every page of the site, whole or as an htmx partial, shows it only escaped."""

import pytest
from django.urls import reverse

from .test_permission_matrix import MATRIX
from .urlmap import url_kwargs

HOSTILE = '<img src=x onerror=alert(1)>" hx-get="/accounts/logout/'
ESCAPED = "&lt;img src=x onerror=alert(1)&gt;&quot; hx-get=&quot;/accounts/logout/"
RAW = ("<img src=x", 'hx-get="/accounts/logout/', "onerror=alert(1)>")


@pytest.fixture
def hostile_world(client, world, gm, objects, kingdom_faction, enemy_faction, militia, raiders):
    from battles.models import Battle
    from kingdoms.models import Campaign, Faction, Invite, Settlement
    from tests.factories import UserFactory
    from warfare.systems.pf2e.models import Army

    Campaign.objects.filter(pk=world.pk).update(name=HOSTILE, description=HOSTILE)
    Faction.objects.filter(pk=kingdom_faction.pk).update(name=HOSTILE, description=HOSTILE)
    Faction.objects.filter(pk=enemy_faction.pk).update(name=HOSTILE + "2", description=HOSTILE)
    Settlement.objects.filter(faction=kingdom_faction).update(name=HOSTILE)
    Army.objects.filter(pk__in=[militia.pk, raiders.pk]).update(name=HOSTILE, notes=HOSTILE)
    Battle.objects.filter(pk=objects["battle_id"]).update(name=HOSTILE)
    # A member whose username is hostile (the signup form refuses it; an old account or the
    # admin could still make one), joined through an invite link.
    intruder = UserFactory(username=HOSTILE)
    invite = Invite.objects.get(pk=objects["invite_id"])
    client.force_login(intruder)
    assert client.post(reverse("kingdoms:invite-accept", args=[invite.token])).status_code == 302
    client.logout()
    return {"intruder": intruder}


def _html_pages():
    """Every URL name whose GET answers a page to someone."""
    return [name for name, (get, _post) in MATRIX.items() if 200 in get]


@pytest.mark.parametrize("role", ["gm", "player", "intruder"])
def test_hostile_names_are_escaped_on_every_page(role, client, users, objects, hostile_world):
    user = hostile_world["intruder"] if role == "intruder" else users[role]
    client.force_login(user)
    shown = []
    for name in _html_pages():
        url = reverse(name, kwargs=url_kwargs(name, objects))
        for headers in ({}, {"HTTP_HX_REQUEST": "true"}):
            response = client.get(url, **headers)
            if response.status_code != 200:
                continue
            if response["Content-Type"].startswith("text/event-stream"):
                continue  # the live stream carries seqs only (battles:live), never a name
            # A report chart is SVG: markup like a page, so it is checked like one.
            if not response["Content-Type"].startswith(("text/html", "image/svg+xml")):
                # JSON (the API, the export) holds the text as data, never read as HTML; the
                # live board's event stream carries only seq numbers.
                assert response["Content-Type"].startswith(("application/", "text/event-stream")), (
                    name
                )
                continue
            body = response.content.decode()
            for raw in RAW:
                assert raw not in body, (name, headers, raw)
            if ESCAPED in body:
                shown.append(name)
    # The hostile text is really on the pages (escaped), not just absent.
    must_show = {"kingdoms:campaign-list", "kingdoms:campaign-detail", "pf2e:army-detail",
                 "battles:list"}  # fmt: skip
    if role == "gm":
        must_show |= {"kingdoms:members", "kingdoms:faction-edit", "pf2e:army-edit"}
    assert must_show <= set(shown), must_show - set(shown)


def test_json_carries_the_text_as_data(client, users, objects, hostile_world):
    client.force_login(users["gm"])
    response = client.get(reverse("api:campaign-detail", args=[objects["campaign_id"]]))
    assert response["Content-Type"] == "application/json"
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response.json()["name"] == HOSTILE


def test_signup_refuses_a_hostile_username(client, db):
    response = client.post(
        reverse("signup"),
        {"username": HOSTILE, "password1": "a-long-pass-phrase", "password2": "a-long-pass-phrase"},
    )
    assert response.status_code == 400
    assert "<img src=x" not in response.content.decode()


@pytest.mark.parametrize("namespace", ["gurps4e", "gurps3e", "dnd5e"])
@pytest.mark.parametrize("role", ["gm", "player"])
def test_hostile_names_are_escaped_on_every_page_of_each_rule_system(
    namespace, role, client, users, objects, hostile_world
):
    """The same for the pages of the other rule systems' apps (asked of a campaign switched to
    that system): forces, element and troop types, characters, creatures, armies, units."""
    from kingdoms.models import Campaign
    from warfare.systems.dnd5e import models as dnd5e
    from warfare.systems.gurps3e import models as gurps3e
    from warfare.systems.gurps4e import models as gurps4e

    from .test_permission_matrix import RULE_SYSTEM_OF_NAMESPACE

    Campaign.objects.filter(pk=objects["campaign_id"]).update(
        rule_system=RULE_SYSTEM_OF_NAMESPACE[namespace]
    )
    for model in (gurps4e.ElementType, gurps4e.Force, gurps3e.TroopType, gurps3e.Force,
                  gurps3e.Character, dnd5e.Creature, dnd5e.Army):  # fmt: skip
        model.objects.filter(campaign_id=objects["campaign_id"]).update(name=HOSTILE)
    gurps3e.Unit.objects.all().update(name=HOSTILE)
    dnd5e.Unit.objects.all().update(name=HOSTILE)
    dnd5e.Solo.objects.all().update(name=HOSTILE)
    client.force_login(users[role])
    shown = []
    for name in [n for n in _html_pages() if n.startswith(f"{namespace}:")]:
        url = reverse(name, kwargs=url_kwargs(name, objects))
        for headers in ({}, {"HTTP_HX_REQUEST": "true"}):
            response = client.get(url, **headers)
            if response.status_code != 200:
                continue
            body = response.content.decode()
            for raw in RAW:
                assert raw not in body, (name, headers, raw)
            if ESCAPED in body:
                shown.append(name)
    assert shown, f"no {namespace} page showed the hostile names"
