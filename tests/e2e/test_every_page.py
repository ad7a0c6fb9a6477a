"""Every page of every rule system, in a real browser: on a phone (390×844) no control needs
sideways scrolling to be reached (a grid that must scroll says so), and no page logs a console
error (Content-Security-Policy refusals included). Pages are found by following links from the
campaign list, as the demo GM and the demo player, one page per kind of URL and campaign."""

import json
import re

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from battles import services as battle_services
from kingdoms.demo import DEMO_CAMPAIGN
from kingdoms.models import Campaign
from warfare.systems.pf2e.models import Army

from .test_invite_flow import log_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
SKIPPED = ("/logout", "format=md", "/export", "/api/", "/admin", "/i18n/", "/delete", "/report/")

# Controls a person must reach; each is measured with every <details> opened.
UNREACHABLE = """() => {
  document.querySelectorAll('details').forEach((d) => { d.open = true; });
  const width = document.documentElement.clientWidth;
  const found = [];
  const controls = 'button, input:not([type=hidden]), select, textarea, a.button, summary';
  for (const el of document.querySelectorAll(controls + ', a[data-piece]')) {
    if (!el.checkVisibility()) continue;
    const box = el.getBoundingClientRect();
    if (box.right <= width + 1 && box.left >= -1) continue;
    const scroller = el.closest('[data-scroll-hint]');
    const hint = scroller && document.getElementById(scroller.dataset.scrollHint);
    if (hint && hint.checkVisibility()) continue;
    const text = (el.getAttribute('aria-label') || el.textContent || el.name || '').trim();
    const where = `${Math.round(box.left)}-${Math.round(box.right)}px`;
    found.push(`${el.tagName.toLowerCase()} "${text.slice(0, 40)}" at ${where}`);
  }
  const page = document.documentElement.scrollWidth;
  if (page > width + 1) found.push(`the page is ${page}px wide`);
  return found;
}"""


def _kind(url: str) -> str:
    """One URL per kind and campaign: /campaigns/3/armies/12/ -> 3:/campaigns/N/armies/N/."""
    path, _, query = url.partition("?")
    campaign = re.match(r"/campaigns/(\d+)/", path)
    keys = "&".join(sorted(part.partition("=")[0] for part in query.split("&") if part))
    kind = re.sub(r"\d+", "N", path)
    return f"{campaign[1] if campaign else ''}:{kind}?{keys}"


# Words a Russian page may show in Latin letters: names of games and formats, and the
# keywords of the D&D 5e stat block format that the creature form's help quotes. (Tooltips
# and placeholders are not read: the house defaults' notes in tooltips are English still.)
LATIN_ALLOWED = {"Pathfinder", "Kingmaker", "GURPS", "SRD", "Markdown", "json", "Warfare",
                 "walk", "fly", "con", "wis", "piercing", "Javelin"}  # fmt: skip
LATIN_WORD = re.compile(r"[A-Za-z][A-Za-z'’-]{2,}")
PAGE_TEXT = """() => [document.querySelector('main').innerText,
  ...Array.from(document.querySelectorAll('main option'), (el) => el.textContent),
].join('\\n')"""


def _typed_words() -> set[str]:
    """Every Latin word of what users typed (names, notes): pages show those as typed."""
    from django.apps import apps
    from django.db import models

    words = {user.username for user in apps.get_model("auth", "User").objects.all()}
    for model in apps.get_models():
        fields = [field.name for field in model._meta.get_fields()
                  if isinstance(field, models.CharField | models.TextField | models.JSONField)
                  and not field.choices]  # fmt: skip
        for row in model.objects.values_list(*fields) if fields else ():
            for value in row:
                text = value if isinstance(value, str) else json.dumps(value)
                words.update(LATIN_WORD.findall(text))
    return words


def _crawl(page, base: str, start: str, limit: int = 120, english=None) -> dict[str, list[str]]:
    """{url: problems} of every kind of page reachable from `start`; with `english` (the
    words users typed), a Latin word of anything else on a page is a problem too."""
    problems, seen, queue = {}, set(), [start]
    while queue and len(seen) < limit:
        url = queue.pop(0)
        if _kind(url) in seen:
            continue
        seen.add(_kind(url))
        page.console_errors.clear()
        page.goto(base + url)
        expect(page.locator(".htmx-request, .htmx-settling")).to_have_count(0)
        found = [f"console: {text}" for text in page.console_errors]
        if english is not None:
            words = set(LATIN_WORD.findall(page.evaluate(PAGE_TEXT)))
            found += [f"untranslated: {word}" for word in sorted(words - english - LATIN_ALLOWED)]
        found += page.evaluate(UNREACHABLE)
        if found:
            problems[url] = found
        for href in page.eval_on_selector_all(
            "main a[href]", "els => els.map(e => e.getAttribute('href'))"
        ):
            href = href.split("#")[0]
            if href.startswith("/campaigns/") and not any(part in href for part in SKIPPED):
                queue.append(href)
    return problems


@pytest.fixture
def demo(db):
    """The four demo campaigns, and a Pathfinder battle on the board of the first."""
    call_command("load_demo", stdout=open("/dev/null", "w"))  # noqa: SIM115
    campaign = Campaign.objects.get(name=DEMO_CAMPAIGN)
    armies = list(Army.objects.filter(faction__campaign=campaign).order_by("pk"))
    by_faction = {}
    for army in armies:
        by_faction.setdefault(army.faction_id, []).append(army.pk)
    sides = list(by_faction.values())
    gm = campaign.memberships.get(role="gm").user
    battle_services.battle_create(
        user=gm, campaign_id=campaign.pk, name="Battle of the Demo",
        sides={"a": sides[0], "b": sides[1]},
    )  # fmt: skip
    return campaign


@pytest.mark.parametrize(("who", "language"), [("gm", "ru"), ("player", "en")])
def test_no_page_needs_sideways_scrolling_or_logs_an_error(
    live_server, new_page, demo, who, language
):
    """In Russian, too, every word on the page is Russian, except what users typed."""
    page = new_page(viewport=PHONE)
    log_in(page, live_server.url, who, password=f"warfare-{who}")
    english = None
    if language == "ru":
        page.locator(".lang-switch button", has_text="RU").click()
        expect(page.locator("html")).to_have_attribute("lang", "ru")
        english = _typed_words()
    problems = _crawl(page, live_server.url, "/campaigns/", english=english)
    assert problems == {}, "\n".join(f"{url}: {found[:4]}" for url, found in problems.items())


def _board(page, base, system):
    from battles.models import Battle

    page.goto(base + Battle.objects.get(system=system).get_absolute_url())


def test_the_gurps4e_strategy_list_fits_in_two_screens(live_server, new_page, demo):
    """Each strategy is one line, its working and effects on tap; the commander's submit
    button is less than two screens below the panel's heading."""
    page = new_page(viewport=PHONE)
    log_in(page, live_server.url, "gm", password="warfare-gm")
    _board(page, live_server.url, "gurps4e")
    panel = page.locator("section.choice-panel", has=page.locator("form.strategy-form")).first
    options = panel.locator(".strategy-options > li")
    assert options.count() >= 10
    first = options.first
    expect(first.locator("details")).not_to_have_attribute("open", "")
    effects = first.locator("details > div").first
    expect(effects).to_be_hidden()
    first.get_by_text("effects").click()
    expect(effects).to_be_visible()
    first.get_by_text("effects").click()
    top = panel.bounding_box()["y"]
    button = panel.get_by_role("button", name="Choose in secret")
    assert button.bounding_box()["y"] + button.bounding_box()["height"] - top < 2 * PHONE["height"]
    assert button.bounding_box()["x"] + button.bounding_box()["width"] <= PHONE["width"]


def test_the_gurps3e_characters_show_risk_without_swiping(live_server, new_page, demo):
    page = new_page(viewport=PHONE)
    log_in(page, live_server.url, "gm", password="warfare-gm")
    _board(page, live_server.url, "gurps3e")
    expect(page.locator("table.stack-phone thead")).to_be_hidden()  # one block a character
    rows = page.locator("tr.g3-pc")
    assert rows.count() >= 1
    for row in rows.all():
        for control in (
            row.locator("select[name=risk]"),
            row.get_by_role("button", name="Choose Risk"),
        ):
            box = control.bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
        expect(row.locator("td[data-label]")).to_have_count(4)  # each cell says what it is


def _wide_dnd5e_battle(width: int):
    """A second D&D 5e battle of the demo campaign, on a field `width` squares wide."""
    from warfare.systems.dnd5e.models import Army, Creature, Unit
    from warfare.systems.dnd5e.setup import battle_create

    guard = Creature.objects.filter(key="guard").first()
    campaign = guard.campaign
    armies = []
    for faction in campaign.factions.order_by("pk")[:2]:
        army = Army.objects.create(campaign=campaign, faction=faction, name=f"Wide {faction.pk}")
        Unit.objects.create(army=army, name=f"Line {faction.pk}", creature=guard, stands=1)
        armies.append(army)
    gm = campaign.memberships.get(role="gm").user
    return battle_create(user=gm, campaign_id=campaign.pk, name="The Wide Field",
                         army_a=armies[0], army_b=armies[1], players_may_act=True, width=width,
                         height=6, depth=2, squares=[], objectives=[], options={},
                         auto_deploy=True)  # fmt: skip


def test_the_dnd5e_grid_fits_or_says_to_swipe(live_server, new_page, demo):
    """The demo's 12 squares fit a phone; a 20-square field scrolls and says so."""
    page = new_page(viewport=PHONE)
    log_in(page, live_server.url, "gm", password="warfare-gm")
    _board(page, live_server.url, "dnd5e")
    hint = page.locator("#grid-hint")

    def fits() -> bool:
        grid = page.locator("table.dnd-grid").bounding_box()
        return grid["width"] <= page.locator(".dnd-grid-wrap").bounding_box()["width"] + 1

    assert fits()
    expect(hint).to_be_hidden()
    page.goto(live_server.url + _wide_dnd5e_battle(20).get_absolute_url())
    assert not fits()
    expect(hint).to_be_visible()
    page.set_viewport_size({"width": 1280, "height": 900})
    expect(hint).to_be_hidden()


# The board polls itself every 2 s; a click while a poll is on its way must not abort it (an
# aborted request is a console error, htmx:sendAbort): the click waits for the poll instead.
CLICK_DURING_A_POLL = """(button) => {
  const board = document.getElementById('board');
  htmx.ajax('GET', board.getAttribute('hx-get'), {source: board, target: board, swap: 'outerHTML'});
  button.click();
}"""


@pytest.mark.parametrize(
    ("system", "button"),
    [("pf2e", "End turn"), ("gurps4e", "Take this Risk"), ("gurps3e", "Choose Risk"),
     ("dnd5e", "End turn")],
)  # fmt: skip
def test_no_board_logs_a_console_error_while_acting(live_server, new_page, demo, system, button):
    page = new_page()
    log_in(page, live_server.url, "gm", password="warfare-gm")
    _board(page, live_server.url, system)
    seq = page.locator("#board input[name=seq]").first.get_attribute("value")
    page.get_by_role("button", name=button).first.evaluate(CLICK_DURING_A_POLL)
    expect(page.locator(f"#board input[name=seq][value='{seq}']")).to_have_count(0)
    expect(page.locator(".htmx-request, .htmx-settling")).to_have_count(0)
    assert page.console_errors == []
