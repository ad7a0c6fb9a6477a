"""The battle report: a printable page and a Markdown download, round by round, as the
viewer may see it (see `battles.visibility`)."""

import re
from collections.abc import Callable

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from kingdoms.access import access_campaign
from kingdoms.models import Membership
from warfare.engine.battle.registry import get_battle_system

from .charts import battle_charts, chart_kinds
from .models import Battle
from .plugins import plugin_for
from .visibility import live_events, member_view

# --- The report -----------------------------------------------------------------------------


def log_by_round(view, battle: Battle) -> list[tuple[int, list[str]]]:
    """[(round, the log's lines of that round as `view` reads them)], first round first."""
    rounds: dict[int, list[str]] = {}
    for event, _params, text in view.lines(live_events(battle)):
        rounds.setdefault(event.round, []).append(text)
    return sorted(rounds.items())


def battle_report(
    *,
    membership: Membership,
    battle: Battle,
    army_rows: Callable[..., list[dict]] | None = None,
    extra: Callable[..., dict] | None = None,
) -> dict:
    """Everything the report shows `membership`: sides, outcome, and each round's events,
    from its viewpoint's view (`battles.visibility`). A rule system's `report_context` may
    build on it: `army_rows(view, state, side)` the rows of a side's armies ({key, name,
    state, hp, max_hp}), `extra(view, report)` more keys (the terrain's labels, the aftermath
    rows)."""
    view = member_view(membership, battle)
    names = view.names
    state = get_battle_system(battle.system).state_from_dict(battle.snapshot)
    sides = []
    for side in battle.setup["sides"]:
        armies = army_rows(view, state, side) if army_rows is not None else []
        sides.append(
            {
                "key": side["key"],
                "name": view.side_names[side["key"]],
                "pcs": bool(side.get("pcs_side")),
                "armies": armies,
            }
        )
    side_names = {side["key"]: side["name"] for side in sides}
    outcome = view.outcome()
    result = None
    if outcome is not None:
        details = outcome.get("details") or {}
        winner = outcome.get("winner")
        result = {
            "text": _("Victory for %(side)s.") % {"side": side_names.get(winner, winner)}
            if winner
            else _("Nobody holds the field."),
            "rounds": details.get("rounds"),
            "destroyed": [names.get(k, k) for k in details.get("destroyed", [])],
            "fled": [names.get(k, k) for k in details.get("fled", [])],
            "xp": [
                (side_names.get(side, side), data.get("total"))
                for side, data in sorted((details.get("xp") or {}).items())
                if data and data.get("total") is not None
            ],
        }
    report = {
        "battle": battle,
        "campaign": battle.campaign,
        "membership": membership,
        "status": battle.get_status_display(),
        "round": getattr(state, "round", None) or getattr(state, "day", None),
        # A day-based system (GURPS 3e: one resolution per day) counts days, not rounds.
        "by_day": not hasattr(state, "round"),
        "terrain": [str(key) for key in battle.setup.get("terrain", ())],
        "sides": sides,
        "outcome": result,
        # A system's aftermath: rows {side, check, check_text, next_turn, next_turn_text,
        # effects} (Pathfinder's §7.6 kingdom checks).
        "aftermath": [],
        "rounds": log_by_round(view, battle),
    }
    if extra is not None:
        report.update(extra(view, report))
    return report


_MARKDOWN_SPECIAL = re.compile(r"([\\`*_\[\]<>#|~])")


def _md(text) -> str:
    """Text with Markdown's special characters escaped (names are typed by users)."""
    return _MARKDOWN_SPECIAL.sub(r"\\\1", str(text))


def _hp(army: dict) -> str:
    if "hp" not in army:
        return ""
    return " · " + _("HP %(hp)s of %(max)s") % {"hp": army["hp"], "max": army["max_hp"]}


def report_markdown(report: dict) -> str:
    """The report as Markdown, for a group chat."""
    battle = report["battle"]
    lines = [
        f"# {_md(battle.name)}",
        "",
        _md(
            _("%(campaign)s · %(status)s · round %(round)s")
            % {
                "campaign": report["campaign"].name,
                "status": report["status"],
                "round": report["round"],
            }
        ),
    ]
    if report["terrain"]:
        lines.append(
            _md(_("Terrain and weather: %(terrain)s") % {"terrain": ", ".join(report["terrain"])})
        )
    lines += ["", f"## {_md(_('Sides'))}", ""]
    for side in report["sides"]:
        pcs = " " + _md(_("(with the PCs)")) if side["pcs"] else ""
        lines.append(f"**{_md(side['name'])}**{pcs}")
        lines.append("")
        for army in side["armies"]:
            lines.append(f"- {_md(army['name'])} — {_md(army['state'])}{_md(_hp(army))}")
        lines.append("")
    outcome = report["outcome"]
    lines += [f"## {_md(_('Outcome'))}", ""]
    if outcome is None:
        lines.append(_md(_("The battle is still in progress.")))
    else:
        lines.append(f"**{_md(outcome['text'])}**")
        if outcome["rounds"]:
            lines.append("")
            lines.append(_md(_("Rounds fought: %(rounds)s") % {"rounds": outcome["rounds"]}))
        if outcome["destroyed"]:
            lines.append("")
            lines.append(
                _md(_("Destroyed: %(armies)s") % {"armies": ", ".join(outcome["destroyed"])})
            )
        if outcome["fled"]:
            lines.append("")
            lines.append(_md(_("Fled: %(armies)s") % {"armies": ", ".join(outcome["fled"])}))
        for side, xp in outcome["xp"]:
            lines.append("")
            lines.append(_md(_("%(side)s: %(xp)s kingdom XP") % {"side": side, "xp": xp}))
    for row in report.get("aftermath") or ():
        lines += ["", f"**{_md(row['side'])}**: {_md(row['check_text'])}"]
        lines += [f"- {_md(text)}" for text in row["effects"]]
        if row["next_turn"]:
            lines.append(f"- {_md(row['next_turn_text'])}")
    lines.append("")
    if report.get("charts"):
        lines += [f"## {_md(_('Charts'))}", ""]
        lines += [f"- [{_md(chart['title'])}]({chart['url']})" for chart in report["charts"]]
        lines.append("")
    for number, texts in report["rounds"]:
        heading = _("Day %(day)s") % {"day": number} if report.get("by_day") else None
        heading = heading or _("Round %(round)s") % {"round": number}
        lines += [f"## {_md(heading)}", ""]
        lines += [f"- {_md(text)}" for text in texts]
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def report_filename(battle: Battle) -> str:
    return f"{slugify(battle.name) or 'battle'}-report.md"


@login_required
@require_GET
def report(request: HttpRequest, campaign_id: int, battle_id: int) -> HttpResponse:
    """The printable report of a battle (any member); `?format=md` downloads it as Markdown."""
    membership = access_campaign(request.user, campaign_id)
    battle = get_object_or_404(
        Battle.objects.select_related("campaign"), campaign=membership.campaign, pk=battle_id
    )
    plugin = plugin_for(battle.system)
    if plugin.report_context is not None:
        context = plugin.report_context(membership, battle)
    else:
        context = battle_report(membership=membership, battle=battle)
    context["charts"] = [
        {
            "key": chart.key,
            "title": chart.title,
            "svg": chart.svg(),
            "url": request.build_absolute_uri(
                reverse("battles:report-chart", args=[campaign_id, battle_id, chart.key])
            ),
        }
        for chart in battle_charts(battle, member_view(membership, battle))
    ]
    if request.GET.get("format") == "md":
        response = HttpResponse(
            report_markdown(context), content_type="text/markdown; charset=utf-8"
        )
        response["Content-Disposition"] = f'attachment; filename="{report_filename(battle)}"'
    else:
        response = render(request, "battles/report.html", context)
    response["Cache-Control"] = "private, no-cache"
    return response


@login_required
@require_GET
def report_chart(request: HttpRequest, campaign_id: int, battle_id: int, chart: str):
    """One chart of the report as an SVG image (the Markdown report links it): any member,
    seeing what the report shows them (`battles.charts`); an unknown chart is a 404."""
    membership = access_campaign(request.user, campaign_id)
    battle = get_object_or_404(
        Battle.objects.select_related("campaign"), campaign=membership.campaign, pk=battle_id
    )
    if chart not in {kind.key for kind in chart_kinds(battle.system)}:
        raise Http404
    found = [c for c in battle_charts(battle, member_view(membership, battle)) if c.key == chart]
    if not found:
        raise Http404  # nothing in it the member may see
    svg = '<?xml version="1.0" encoding="utf-8"?>\n' + found[0].svg()
    response = HttpResponse(svg, content_type="image/svg+xml; charset=utf-8")
    response["Cache-Control"] = "private, no-cache"
    return response
