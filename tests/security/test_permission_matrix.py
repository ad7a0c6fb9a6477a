"""Every URL name of the site × every member of the cast: the exact status of a GET and of an
empty POST. The names come from the URL resolver, so a new page without a row here fails.

Roles, in order: anonymous, outsider (no campaign), GM of another campaign, player of another
faction (the enemy's), player (of the faction the URL points at), the campaign's GM. The URLs
point at the players' side: their faction, settlement, militia, a recruitment, a battle, a
bystander's membership, an invite (see conftest.objects).

Reading the codes: 302 for anonymous = sent to the log-in page; 404 = not a member (the
campaign's very existence is hidden); 403 = a member without the role; 405 = wrong method;
400/409 = the empty POST reached the form or the service and was refused, nothing changed.
"""

import pytest
from django.urls import reverse

from tests.conftest import ROLES

from .urlmap import url_kwargs, url_names

A = "anonymous"
LOGIN = "/accounts/login/"

#: name: (GET statuses, empty-POST statuses), in ROLES order.
#: The rows most URLs share, named for what they say (GET statuses, empty-POST statuses).
#: A page every member sees; its POST is answered as a GET (it changes nothing).
MEMBERS_SEE = ((302, 404, 404, 200, 200, 200), (302, 404, 404, 200, 200, 200))
#: A page every member sees; it takes no POST.
MEMBERS_SEE_GET = ((302, 404, 404, 200, 200, 200), (302, 405, 405, 405, 405, 405))
#: A page every member sees, whose POST is the GM's (the empty one refused: 400).
MEMBERS_SEE_GM_POSTS = ((302, 404, 404, 200, 200, 200), (302, 404, 404, 403, 403, 400))
#: The GM's form: the other members are refused (403), the GM's empty POST is a 400.
GM_FORM = ((302, 404, 404, 403, 403, 200), (302, 404, 404, 403, 403, 400))
#: The GM's POST-only action the empty POST carries out (a delete, a removal): 302.
GM_POST_DONE = ((302, 405, 405, 405, 405, 405), (302, 404, 404, 403, 403, 302))
#: The GM's POST-only action that refuses the empty POST (400).
GM_POST_REFUSED = ((302, 405, 405, 405, 405, 405), (302, 404, 404, 403, 403, 400))
#: The API's answers (anonymous: 403) of the same shapes.
API_MEMBERS_SEE = ((403, 404, 404, 200, 200, 200), (403, 405, 405, 405, 405, 405))
API_MEMBERS_SEE_GM_POSTS = ((403, 404, 404, 200, 200, 200), (403, 404, 404, 403, 403, 400))
API_GM_POST_REFUSED = ((403, 405, 405, 405, 405, 405), (403, 404, 404, 403, 403, 400))

MATRIX = {
    # Public pages and account pages.
    "home": ((302, 302, 302, 302, 302, 302), (302, 302, 302, 302, 302, 302)),
    "healthz": ((200, 200, 200, 200, 200, 200), (405, 405, 405, 405, 405, 405)),
    "login": ((200, 200, 200, 200, 200, 200), (400, 400, 400, 400, 400, 400)),
    "logout": ((405, 405, 405, 405, 405, 405), (302, 302, 302, 302, 302, 302)),
    "signup": ((200, 302, 302, 302, 302, 302), (400, 302, 302, 302, 302, 302)),
    "set_language": ((302, 302, 302, 302, 302, 302), (302, 302, 302, 302, 302, 302)),
    "password_change": ((302, 200, 200, 200, 200, 200), (302, 400, 400, 400, 400, 400)),
    "password_change_done": ((302, 200, 200, 200, 200, 200), (302, 405, 405, 405, 405, 405)),
    "profile": ((302, 200, 200, 200, 200, 200), (302, 405, 405, 405, 405, 405)),
    "token-create": ((302, 405, 405, 405, 405, 405), (302, 200, 200, 200, 200, 200)),
    "token-revoke": ((302, 405, 405, 405, 405, 405), (302, 302, 302, 302, 302, 302)),
    # Campaigns, factions, settlements, members, invites. Pages that only show something
    # answer a POST as a GET (they change nothing).
    "kingdoms:campaign-list": ((302, 200, 200, 200, 200, 200), (302, 200, 200, 200, 200, 200)),
    "kingdoms:campaign-create": ((302, 200, 200, 200, 200, 200), (302, 400, 400, 400, 400, 400)),
    "kingdoms:campaign-import": ((302, 200, 200, 200, 200, 200), (302, 400, 400, 400, 400, 400)),
    "kingdoms:campaign-detail": MEMBERS_SEE,
    "kingdoms:campaign-edit": GM_FORM,
    "kingdoms:campaign-delete": GM_FORM,
    "kingdoms:campaign-export": ((302, 404, 404, 403, 403, 200), (302, 404, 404, 403, 403, 200)),
    "kingdoms:faction-create": GM_FORM,
    "kingdoms:faction-detail": MEMBERS_SEE,
    "kingdoms:faction-edit": GM_FORM,
    "kingdoms:settlement-create": GM_FORM,
    "kingdoms:settlement-edit": GM_FORM,
    "kingdoms:members": ((302, 404, 404, 403, 403, 200), (302, 404, 404, 403, 403, 200)),
    "kingdoms:member-update": GM_POST_REFUSED,
    "kingdoms:member-remove": GM_POST_DONE,
    "kingdoms:invite-create": GM_POST_REFUSED,
    "kingdoms:invite-revoke": GM_POST_DONE,
    # An invite link works for whoever holds it: that is what it is for.
    "kingdoms:invite-accept": ((200, 200, 200, 200, 200, 200), (403, 302, 302, 302, 302, 302)),
    # Armies and the kingdom turn.
    "pf2e:army-list": MEMBERS_SEE,
    "pf2e:army-create": GM_FORM,
    "pf2e:army-detail": MEMBERS_SEE,
    "pf2e:army-edit": GM_FORM,
    "pf2e:army-activity": ((302, 404, 404, 403, 200, 200), (302, 404, 404, 403, 400, 400)),
    "pf2e:army-condition": GM_POST_DONE,
    # No `version` in the empty POST: refused as a stale edit.
    "pf2e:army-gear-transfer": (
        (302, 405, 405, 405, 405, 405), (302, 404, 404, 403, 409, 409)),
    "pf2e:kingdom-turn": GM_POST_REFUSED,
    "pf2e:recruit-start": ((302, 404, 404, 403, 200, 200), (302, 404, 404, 403, 400, 400)),
    # Another side's recruitment is not even there for the enemy player.
    "pf2e:recruit-step": ((302, 404, 404, 404, 200, 200), (302, 404, 404, 404, 400, 400)),
    # Battles.
    "battles:list": MEMBERS_SEE,
    "battles:create": GM_FORM,
    # The board's live stream (Server-Sent Events): whoever may see the board.
    "battles:live": MEMBERS_SEE_GET,
    "battles:board": MEMBERS_SEE,
    "battles:act": ((302, 405, 405, 405, 405, 405), (302, 404, 404, 400, 400, 400)),
    "battles:undo": ((302, 405, 405, 405, 405, 405), (302, 404, 404, 403, 403, 409)),
    "battles:apply": ((302, 405, 405, 405, 405, 405), (302, 404, 404, 403, 403, 409)),
    "battles:report": MEMBERS_SEE_GET,
    # Auto-play and the forecast (issue 14): the forecast is the GM's until shared.
    "battles:autoplay": ((302, 405, 405, 405, 405, 405), (302, 404, 404, 400, 400, 400)),
    "battles:undo-autoplay": GM_POST_REFUSED,
    "battles:forecast": ((302, 404, 404, 403, 403, 200), (302, 404, 404, 403, 403, 200)),
    "battles:forecast-share": GM_POST_DONE,
    "battles:setup-forecast": GM_POST_REFUSED,
    # The board log's pages ("Older entries"): whoever may see the board.
    "battles:log": MEMBERS_SEE_GET,
    "battles:report-chart": MEMBERS_SEE_GET,
    # The JSON API: anonymous requests get 403 (no WWW-Authenticate challenge), never 302.
    "api:schema": ((200, 200, 200, 200, 200, 200), (405, 405, 405, 405, 405, 405)),
    "api:docs": ((200, 200, 200, 200, 200, 200), (405, 405, 405, 405, 405, 405)),
    # An empty POST to a list that creates: refused by the input check (400), nothing made.
    "api:campaign-list": ((403, 200, 200, 200, 200, 200), (403, 400, 400, 400, 400, 400)),
    "api:campaign-detail": API_MEMBERS_SEE,
    "api:faction-list": API_MEMBERS_SEE_GM_POSTS,
    "api:faction-detail": API_MEMBERS_SEE,
    "api:settlement-list": API_MEMBERS_SEE_GM_POSTS,
    "api:settlement-detail": API_MEMBERS_SEE,
    "api:member-list": API_MEMBERS_SEE,
    # PATCH and DELETE only (tests/api/test_api_campaigns.py has their matrix).
    "api:member-detail": ((403, 405, 405, 405, 405, 405), (403, 405, 405, 405, 405, 405)),
    "api:faction-army-list": API_MEMBERS_SEE_GM_POSTS,
    "api:army-detail": API_MEMBERS_SEE,
    "api:army-activities": ((403, 405, 405, 405, 405, 405), (403, 404, 404, 403, 400, 400)),
    "api:army-log": ((403, 404, 404, 403, 200, 200), (403, 405, 405, 405, 405, 405)),
    "api:battle-list": API_MEMBERS_SEE_GM_POSTS,
    "api:battle-detail": API_MEMBERS_SEE,
    "api:battle-log": API_MEMBERS_SEE,
    "api:battle-actions": ((403, 405, 405, 405, 405, 405), (403, 404, 404, 400, 400, 400)),
    "api:battle-undo": API_GM_POST_REFUSED,
    "api:battle-apply": API_GM_POST_REFUSED,
    "api:battle-autoplay": ((403, 405, 405, 405, 405, 405), (403, 404, 404, 400, 400, 400)),
    "api:battle-undo-autoplay": API_GM_POST_REFUSED,
    "api:battle-forecast": ((403, 404, 404, 403, 403, 200), (403, 405, 405, 405, 405, 405)),
    "api:battle-setup-forecast": API_GM_POST_REFUSED,
    # GURPS Mass Combat forces (asked of a GURPS 4e campaign; other rule systems answer 404).
    "gurps4e:force-list": MEMBERS_SEE,
    "gurps4e:force-create": GM_FORM,
    "gurps4e:force-detail": MEMBERS_SEE,
    "gurps4e:force-edit": GM_FORM,
    # The GM's empty POST deletes (last in the cast, so the others met the force first).
    "gurps4e:force-delete": GM_POST_DONE,
    "gurps4e:force-row-add": GM_POST_REFUSED,
    "gurps4e:force-row-remove": GM_POST_DONE,
    "gurps4e:element-types": MEMBERS_SEE_GM_POSTS,
    "gurps4e:element-type-edit": GM_FORM,
    # In use by the force: refused with a message on the list page, nothing deleted.
    "gurps4e:element-type-delete": GM_POST_DONE,
    # GURPS 3e forces and characters (asked of a GURPS 3e campaign; others answer 404). The
    # character is the player's own: they open its edit form and their empty POST is a 400.
    "gurps3e:force-list": MEMBERS_SEE,
    "gurps3e:force-create": GM_FORM,
    "gurps3e:force-detail": MEMBERS_SEE,
    "gurps3e:force-edit": GM_FORM,
    "gurps3e:force-delete": GM_POST_DONE,
    "gurps3e:unit-add": GM_POST_REFUSED,
    # The troop type is in use: its deletion is refused with a message on the list page.
    "gurps3e:troop-types": MEMBERS_SEE_GM_POSTS,
    "gurps3e:troop-type-edit": GM_FORM,
    "gurps3e:troop-type-delete": GM_POST_DONE,
    "gurps3e:unit-edit": GM_FORM,
    "gurps3e:unit-remove": GM_POST_DONE,
    "gurps3e:character-list": MEMBERS_SEE,
    "gurps3e:character-create": GM_FORM,
    "gurps3e:character-detail": MEMBERS_SEE,
    "gurps3e:character-edit": ((302, 404, 404, 403, 200, 200), (302, 404, 404, 403, 400, 400)),
    "gurps3e:character-delete": GM_POST_DONE,
    "gurps3e:reputation-add": GM_POST_REFUSED,
    "gurps3e:reputation-remove": GM_POST_DONE,
    # D&D 5e creatures and armies (asked of a D&D 5e campaign; other rule systems answer 404).
    "dnd5e:creatures": MEMBERS_SEE_GM_POSTS,
    "dnd5e:library-load": GM_POST_DONE,
    "dnd5e:creature-edit": GM_FORM,
    # In use by a unit: refused with a message on the list page, nothing deleted.
    "dnd5e:creature-delete": GM_POST_DONE,
    "dnd5e:army-list": MEMBERS_SEE,
    "dnd5e:army-create": GM_FORM,
    "dnd5e:army-detail": MEMBERS_SEE,
    "dnd5e:army-edit": GM_FORM,
    "dnd5e:army-delete": GM_POST_DONE,
    "dnd5e:unit-add": GM_POST_REFUSED,
    "dnd5e:unit-edit": GM_FORM,
    "dnd5e:unit-remove": GM_POST_DONE,
    "dnd5e:solo-add": GM_POST_REFUSED,
    "dnd5e:solo-remove": GM_POST_DONE,
    # The GM's board commands: the empty POST is not understood (400).
    # The URL points at the Pathfinder battle: it has no D&D GM tools (404 for the GM too).
    "dnd5e:battle-gm-command": (
        (302, 405, 405, 405, 405, 405), (302, 404, 404, 403, 403, 404)),
}  # fmt: skip

#: The pages of one rule system's apps, asked of a campaign switched to that system (the
#: campaign of `objects` is Pathfinder; any other system's pages answer 404 there).
RULE_SYSTEM_OF_NAMESPACE = {"gurps4e": "gurps4e", "gurps3e": "gurps3e", "dnd5e": "dnd5e"}

#: Anonymous redirects that do not go to the log-in page.
NOT_TO_LOGIN = {"set_language", "signup"}


def test_every_url_name_of_the_site_has_a_row():
    names = set(url_names())
    assert sorted(names - set(MATRIX)) == [], "add these URL names to MATRIX"
    assert sorted(set(MATRIX) - names) == [], "these URL names are gone: remove their rows"


@pytest.mark.parametrize("name", sorted(url_names()))
def test_status_of_every_url_for_every_role(name, client, users, objects):
    if name not in MATRIX:
        pytest.fail(f"{name} has no row in MATRIX: decide who may open it")
    namespace = name.split(":")[0]
    url = reverse(name, kwargs=url_kwargs(name, objects))
    if namespace in RULE_SYSTEM_OF_NAMESPACE:
        from kingdoms.models import Campaign

        system = RULE_SYSTEM_OF_NAMESPACE[namespace]
        Campaign.objects.filter(pk=objects["campaign_id"]).update(rule_system=system)
    expected_get, expected_post = MATRIX[name]
    got_get, got_post = [], []
    for role in ROLES:
        client.logout()
        if users[role]:
            client.force_login(users[role])
        response = client.get(url)
        got_get.append(response.status_code)
        if role == A and response.status_code == 302 and name not in NOT_TO_LOGIN:
            assert response["Location"].startswith(LOGIN), (name, response["Location"])
        got_post.append(client.post(url, {}).status_code)
    assert (tuple(got_get), tuple(got_post)) == (expected_get, expected_post), url


@pytest.mark.parametrize("role", ROLES)
def test_the_admin_is_for_staff_only(client, users, role):
    if users[role]:
        client.force_login(users[role])
    response = client.get(reverse("admin:index"))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("admin:login"))
