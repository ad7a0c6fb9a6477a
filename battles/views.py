"""Battle pages: the list, the set-up form, the board (polled), actions and undo."""

from asgiref.sync import sync_to_async
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.handlers.asgi import ASGIRequest
from django.db import connection
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseNotModified,
    StreamingHttpResponse,
)
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.cache import get_conditional_response
from django.utils.http import quote_etag
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from kingdoms.access import access_campaign
from kingdoms.models import RuleSystem
from warfare.systems.pf2e.models import Army

from . import live, selectors, services
from .forms import ActForm, ApplyResultsForm, BattleCreateForm, CorrectionForm
from .models import Battle
from .plugins import plugin_for
from .visibility import viewpoint_of


def _battle(request, campaign_id: int, battle_id: int):
    membership = access_campaign(request.user, campaign_id)
    battle = get_object_or_404(Battle, campaign=membership.campaign, pk=battle_id)
    return membership, battle


@login_required
def battle_list(request: HttpRequest, campaign_id: int) -> HttpResponse:
    membership = access_campaign(request.user, campaign_id)
    context = {
        "campaign": membership.campaign,
        "membership": membership,
        "battles": selectors.battle_list(membership=membership),
    }
    return render(request, "battles/battle_list.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def battle_create(request: HttpRequest, campaign_id: int) -> HttpResponse:
    membership = access_campaign(request.user, campaign_id, gm=True)
    plugin = plugin_for(membership.campaign.rule_system)
    if plugin is not None:
        return plugin.create_view(request, membership)
    if membership.campaign.rule_system != RuleSystem.PF2E:
        raise Http404
    armies = (
        Army.objects.active()
        .filter(faction__campaign=membership.campaign)
        .select_related("faction")
        .order_by("faction__name", "name")
    )
    form = BattleCreateForm(request.POST or None, armies=armies)
    context = {"campaign": membership.campaign, "form": form}
    if request.method == "POST":
        if form.is_valid():
            try:
                battle = services.battle_create(
                    user=request.user,
                    campaign_id=campaign_id,
                    name=form.cleaned_data["name"],
                    sides=form.sides(),
                    pcs_side=form.cleaned_data["pcs_side"] or None,
                    terrain=tuple(form.cleaned_data["terrain"]),
                    players_may_act=form.cleaned_data["players_may_act"],
                    reveal_checks=form.cleaned_data["reveal_checks"],
                    fortifications=form.fortifications(),
                    inside=form.inside(),
                    starts=form.starts(),
                    initiative_dice=form.initiative_dice(),
                    auto_reactions=form.auto_reactions(),
                )
            except ValidationError as error:
                for message in error.messages:
                    form.add_error(None, message)
            else:
                return redirect(battle)
        return render(request, "battles/battle_form.html", context, status=400)
    return render(request, "battles/battle_form.html", context)


@login_required
def board(request: HttpRequest, campaign_id: int, battle_id: int) -> HttpResponse:
    """The board. The live poll asks `?since=<seq>`: an unchanged board answers 304 at the
    cost of one query and no rendering, so open forms on the page are left alone. Every
    answer, the 304s included, comes after the access check: a non-member gets 404 and never
    learns that the battle exists or its version (ETag)."""
    since = request.GET.get("since")
    if since is not None:
        current = Battle.objects.filter(
            campaign_id=campaign_id, pk=battle_id, campaign__memberships__user=request.user
        ).values_list("seq", flat=True)
        if since.isdigit() and current.first() == int(since):
            return HttpResponseNotModified()
    membership, battle = _battle(request, campaign_id, battle_id)
    # The page carries the member's own buttons: one ETag per member and viewpoint, language
    # and page or partial.
    viewpoint = viewpoint_of(membership, battle)
    etag = quote_etag(
        f"{battle.seq}-{battle.status}-{get_language()}-{viewpoint.key}-{request.user.pk}"
        f"-{'p' if request.htmx else 'f'}"
    )
    response = get_conditional_response(request, etag=etag)
    if response is None:
        response = _board_response(request, membership, battle)
    response["ETag"] = etag
    response["Cache-Control"] = "private, no-cache"
    return response


def _board_response(request, membership, battle, *, status: int = 200) -> HttpResponse:
    """The board page (or its `board` partial for htmx), drawn by the battle's rule system."""
    plugin = plugin_for(battle.system)
    if plugin is not None:
        context, template = plugin.board_context(membership, battle), plugin.board_template
    else:
        context = selectors.board_context(membership=membership, battle=battle)
        template = "battles/board.html"
    return render(request, template + ("#board" if request.htmx else ""), context, status=status)


@login_required
@require_POST
def act(request: HttpRequest, campaign_id: int, battle_id: int) -> HttpResponse:
    """One war action / end of turn. Answers the new board (or 409 with the current one)."""
    membership, battle = _battle(request, campaign_id, battle_id)
    plugin = plugin_for(battle.system)
    form = ActForm(request.POST)
    if plugin is not None and plugin.act_form is not None:
        form = plugin.act_form(request.POST, battle)
    elif request.POST.get("kind") == "gm_correction":
        form = CorrectionForm(request.POST, conditions=selectors.GM_CONDITION_CHOICES)
    status = 200
    if not form.is_valid():
        details = [str(message) for errors in form.errors.values() for message in errors]
        messages.error(request, " ".join([_("That action was not understood."), *details]))
        status = 400
    else:
        try:
            battle, _events = services.battle_act(
                user=request.user,
                campaign_id=campaign_id,
                battle_id=battle_id,
                expected_seq=form.cleaned_data["seq"],
                command=form.command(),
            )
        except services.StaleBoard as stale:
            battle = stale.battle
            messages.error(request, _("The board changed meanwhile: here it is now."))
            status = 409
        except ValidationError as error:
            messages.error(request, " ".join(error.messages))
            status = 400
    if not request.htmx and status == 200:
        return redirect(battle)
    battle.refresh_from_db()
    return _board_response(request, membership, battle, status=status)


def _board_write(request, membership, battle, write, success: str) -> HttpResponse:
    """Run one board-changing service call and answer like every board action: a redirect
    (or the new board for htmx), 409 with the current board when stale, 400 with the reason."""
    status = 200
    try:
        battle = write()
        messages.success(request, success)
    except services.StaleBoard as stale:
        battle, status = stale.battle, 409
        messages.error(request, _("The board changed meanwhile: here it is now."))
    except (ValidationError, ValueError) as error:
        status = 400
        text = " ".join(error.messages) if isinstance(error, ValidationError) else ""
        messages.error(request, text or _("That was not understood."))
    if not request.htmx and status == 200:
        return redirect(battle)
    battle.refresh_from_db()
    return _board_response(request, membership, battle, status=status)


@login_required
@require_POST
def undo(request: HttpRequest, campaign_id: int, battle_id: int) -> HttpResponse:
    membership, battle = _battle(request, campaign_id, battle_id)

    def write():
        return services.battle_undo(
            user=request.user,
            campaign_id=campaign_id,
            battle_id=battle_id,
            expected_seq=int(request.POST.get("seq", "-1")),
        )

    return _board_write(request, membership, battle, write, _("The last action was undone."))


@login_required
@require_POST
def apply_results(request: HttpRequest, campaign_id: int, battle_id: int) -> HttpResponse:
    """The GM writes a finished battle's results to the armies and kingdoms, with the §7.6
    kingdom checks (the form's choices: the PCs' fight, dice typed in, weary or shaken)."""
    membership, battle = _battle(request, campaign_id, battle_id)
    if not membership.is_gm:
        raise PermissionDenied
    plugin = plugin_for(battle.system)
    if plugin is not None and plugin.apply_results is not None:

        def write_plugin():
            return plugin.apply_results(
                user=request.user, campaign_id=campaign_id, battle_id=battle_id,
                expected_seq=int(request.POST.get("seq", "-1")), data=request.POST,
            )  # fmt: skip

        success = _("The results are written to the forces.")
        return _board_write(request, membership, battle, write_plugin, success)
    form = ApplyResultsForm(request.POST, sides=selectors.aftermath_sides(battle))

    def write():
        expected_seq = int(request.POST.get("seq", "-1"))
        if not form.is_valid():
            raise ValidationError([str(e) for field in form for e in field.errors])
        return services.battle_apply_results(
            user=request.user,
            campaign_id=campaign_id,
            battle_id=battle_id,
            expected_seq=expected_seq,
            **form.choices(),
        )

    success = _("The results are written to the armies and kingdoms.")
    return _board_write(request, membership, battle, write, success)


def _live_access(user, campaign_id: int, battle_id: int) -> int:
    """The battle's seq for a member (404 otherwise), with the database connection given back
    at once: a stream lasts for hours and must not hold one."""
    try:
        membership = access_campaign(user, campaign_id)
        seq = (
            Battle.objects.filter(campaign=membership.campaign, pk=battle_id)
            .values_list("seq", flat=True)
            .first()
        )
    finally:
        if not connection.in_atomic_block:  # (a test's transaction keeps its connection)
            connection.close()
    if seq is None:
        raise Http404
    return seq


@login_required
@require_GET
async def board_events(request: HttpRequest, campaign_id: int, battle_id: int):
    """The board's Server-Sent Events: `seq` at once, `changed` (with the new seq) after every
    change made on any app process, `ping` now and then (`battles.live`). The board fetches
    its partial on `changed`; without this stream it polls every 2 s."""
    user = await request.auser()
    seq = await sync_to_async(_live_access)(user, campaign_id, battle_id)
    since = request.GET.get("since", "")
    seq = int(since) if since.isdigit() else seq
    if isinstance(request, ASGIRequest):
        content = live.stream(battle_id, seq)
    else:  # runserver and the test server: a generator reading the cache, thread by thread
        content = live.sync_stream(battle_id, seq)
    response = StreamingHttpResponse(content, content_type="text/event-stream")
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # nginx: pass each event on at once
    return response
