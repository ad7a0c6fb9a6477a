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
    HttpResponseBadRequest,
    HttpResponseNotModified,
    StreamingHttpResponse,
)
from django.shortcuts import redirect, render
from django.utils.cache import get_conditional_response
from django.utils.http import quote_etag
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from kingdoms.access import access_campaign
from kingdoms.pages import member_page

from . import access, live, rendering, selectors, services
from .forms import ActForm
from .models import Battle
from .plugins import plugin_for
from .visibility import battle_view, viewpoint_of


def _battle(request, campaign_id: int, battle_id: int):
    """(membership, battle) of a member (404 otherwise), in one query (on a `board_member`
    view, the one that read the user)."""
    return access.member_battle(request, campaign_id, battle_id)


def setup_page(request: HttpRequest, membership, template: str, form, start, *, success=None):
    """A rule system's set-up page (its `create_view`): GET draws `form`; a POST the form
    accepts starts the battle with `start(form)` (the system's one-transaction service) and
    goes to its board, with the message `success` where given; bad input or a refusal of the
    rules re-renders the form with the reasons (400, nothing saved)."""
    context = {"campaign": membership.campaign, "form": form}
    if request.method != "POST":
        return render(request, template, context)
    if form.is_valid():
        try:
            battle = start(form)
        except ValidationError as error:
            for message in error.messages:
                form.add_error(None, message)
        else:
            if success:
                messages.success(request, success)
            return redirect(battle)
    return render(request, template, context, status=400)


@login_required
def battle_list(request: HttpRequest, campaign_id: int) -> HttpResponse:
    membership = access_campaign(request.user, campaign_id)
    battles = selectors.battle_list(membership=membership)
    return member_page(request, "battles/battle_list.html", membership, battles=battles)


@login_required
@require_http_methods(["GET", "POST"])
def battle_create(request: HttpRequest, campaign_id: int) -> HttpResponse:
    membership = access_campaign(request.user, campaign_id, gm=True)
    return plugin_for(membership.campaign.rule_system).create_view(request, membership)


def board(request: HttpRequest, campaign_id: int, battle_id: int) -> HttpResponse:
    """The board. The live poll asks `?since=<seq>`: an unchanged board answers 304 without
    rendering, from the session and the shared cache alone (`battles.live.unchanged_poll`:
    the battle's seq, and that this session's user passed this board's access check since
    their membership or account last changed: no query, the user row not loaded), or else at
    the cost of one query; a changed one is known from the cache's seq without it. Every
    answer, the 304s included, comes after an access check: a non-member gets 404 and never
    learns that the battle exists or its version (ETag), a logged-out request is sent to log
    in."""
    since = request.GET.get("since", "")
    if since.isdigit() and live.unchanged_poll(request, campaign_id, battle_id, int(since)):
        return HttpResponseNotModified()
    return _board(request, campaign_id, battle_id)


@access.board_member
def _board(request: HttpRequest, campaign_id: int, battle_id: int) -> HttpResponse:
    since = request.GET.get("since")
    if since is not None and since.isdigit():
        cached = live.cached_seq(battle_id)
        maybe_unchanged = cached is None or cached == int(since)
        if maybe_unchanged and _member_seq(request, campaign_id, battle_id) == int(since):
            live.remember_viewer(request, battle_id, campaign_id)
            return HttpResponseNotModified()
    membership, battle = _battle(request, campaign_id, battle_id)
    if since is not None:  # the next poll of this board needs no query
        live.remember_viewer(request, battle_id, campaign_id)
    # One ETag per viewpoint (what the member may see and do), version and language: every
    # viewer of one viewpoint gets the same board (`battles.rendering`); the whole page also
    # carries the user's name, so its ETag names the user too. (The key names the odds bar.)
    key = rendering.render_key(request, membership, battle)
    page = "p" if request.htmx else f"f{request.user.pk}"
    etag = quote_etag(f"{key}-{page}")
    response = get_conditional_response(request, etag=etag)
    if response is None:
        response = _board_response(request, membership, battle, key=key)
    response["ETag"] = etag
    response["Cache-Control"] = "private, no-cache"
    return response


def _member_seq(request, campaign_id: int, battle_id: int) -> int | None:
    """The battle's seq for a member (None otherwise): as read with the user
    (`access.board_member`), or else read alone, not the whole row."""
    read = access.read_before(request, campaign_id, battle_id)
    if read is not None:
        return read.battle.seq
    current = Battle.objects.filter(
        campaign_id=campaign_id, pk=battle_id, campaign__memberships__user=request.user
    ).values_list("seq", flat=True)
    return current.first()


def _board_response(
    request,
    membership,
    battle,
    *,
    status: int = 200,
    key: str | None = None,
    before: rendering.KeyParts | None = None,
    answer: rendering.Answer | None = None,
) -> HttpResponse:
    """The board page (or its `board` partial for htmx, with the messages beside it), drawn
    by the battle's rule system once per viewpoint and version (`battles.rendering`).

    `before`: the render key's parts of the board the member's action was sent from; the
    answer is then only the fragments the action changed (htmx out-of-band swaps, the board
    itself left in place: `HX-Reswap: none`), when that board is still cached and what
    changed lies in fragments; else the whole board. `answer`: that answer drawn while the
    action's write was on its way, if it was (`rendering.Answer`)."""
    swaps = None  # (the fragments changed since the board `before`, where they say it all)
    if request.htmx and before is not None and status == 200:
        drawn = answer.after_write(battle) if answer is not None else None
        if drawn is not None:
            html, swaps = drawn
        else:
            html, old_html = rendering.board_html_after(request, membership, battle, before)
            swaps = None if old_html is None else rendering.changed_fragments(old_html, html)
    else:
        key = key or rendering.render_key(request, membership, battle)
        html = rendering.board_html(request, membership, battle, key)
    if request.htmx:
        messages_html = rendering.messages_oob(request)
        if swaps is not None:
            body = rendering.personalize(request, swaps) + messages_html
            return HttpResponse(body, headers={"HX-Reswap": "none"})
        return HttpResponse(rendering.personalize(request, html) + messages_html, status=status)
    html = rendering.personalize(request, html)
    context = {"battle": battle, "board_html": mark_safe(html)}  # noqa: S308 (rendered above)
    return render(request, rendering.board_template(battle), context, status=status)


@login_required
@require_GET
def board_log(request: HttpRequest, campaign_id: int, battle_id: int) -> HttpResponse:
    """The board log's older entries, one page before the event `?before=<id>` (without it:
    the newest page, which the board shows: `BattleView.log_page`), as the member's viewpoint
    may read them; htmx swaps them in for the "Older entries" link."""
    membership, battle = _battle(request, campaign_id, battle_id)
    before = request.GET.get("before")
    if before is not None and not before.isdigit():
        return HttpResponseBadRequest(_("Which entries? ?before=<entry> names none."))
    view = battle_view(battle, viewpoint_of(membership, battle))
    lines, older = view.log_page(int(before) if before is not None else None)
    context = {"battle": battle, "log": lines, "log_older": older, "older_page": True}
    template = "battles/_log_lines.html" if request.htmx else "battles/log.html"
    return render(request, template, context)


@access.board_member  # login_required, the user read with the access check
@require_POST
@live.board_action()  # the change pushed once the answer is drawn, its seq cached with it
@rendering.written_events()  # the new board's log lines: the rows written, not read again
def act(request: HttpRequest, campaign_id: int, battle_id: int) -> HttpResponse:
    """One war action / end of turn. Answers the new board (or 409 with the current one)."""
    membership, battle = _battle(request, campaign_id, battle_id)
    plugin = plugin_for(battle.system)
    if plugin.act_form is not None:
        form = plugin.act_form(request.POST, battle)
    else:
        form = ActForm(request.POST)
    status = 200
    before = rendering.key_parts(request, membership, battle,
                                 sel=rendering.shown_selection(request))  # fmt: skip
    # htmx: the answer drawn while the write is on its way to the database
    answer = rendering.Answer(request, membership, before) if request.htmx else None
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
                membership=membership,
                battle=battle,
                meanwhile=answer.draw if answer is not None else None,
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
    return _board_response(request, membership, battle, status=status, before=before,
                           answer=answer)  # fmt: skip


def _board_write(request, membership, battle, write, success: str) -> HttpResponse:
    """Run one board-changing service call and answer like every board action: a redirect
    (or the new board for htmx), 409 with the current board when stale, 400 with the reason."""
    status = 200
    before = rendering.key_parts(request, membership, battle,
                                 sel=rendering.shown_selection(request))  # fmt: skip
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
        battle.refresh_from_db()  # nothing was written; another member may have meanwhile
    if not request.htmx and status == 200:
        return redirect(battle)
    battle.campaign = membership.campaign
    return _board_response(request, membership, battle, status=status, before=before)


@access.board_member  # login_required, the user read with the access check
@require_POST
@live.board_action()  # the change pushed once the answer is drawn, its seq cached with it
def undo(request: HttpRequest, campaign_id: int, battle_id: int) -> HttpResponse:
    membership, battle = _battle(request, campaign_id, battle_id)

    def write():
        return services.battle_undo(
            user=request.user,
            campaign_id=campaign_id,
            battle_id=battle_id,
            expected_seq=int(request.POST.get("seq", "-1")),
            membership=membership,
            battle=battle,
        )

    return _board_write(request, membership, battle, write, _("The last action was undone."))


@access.board_member  # login_required, the user read with the access check
@require_POST
@live.board_action()  # the change pushed once the answer is drawn, its seq cached with it
def apply_results(request: HttpRequest, campaign_id: int, battle_id: int) -> HttpResponse:
    """The GM writes a finished battle's results back to the campaign's forces (the rule
    system's apply form: in Pathfinder the §7.6 kingdom checks)."""
    membership, battle = _battle(request, campaign_id, battle_id)
    if not membership.is_gm:
        raise PermissionDenied
    plugin = plugin_for(battle.system)
    if plugin.apply_results is None:
        raise Http404

    def write():
        return plugin.apply_results(
            user=request.user, campaign_id=campaign_id, battle_id=battle_id,
            expected_seq=int(request.POST.get("seq", "-1")), data=request.POST,
        )  # fmt: skip

    return _board_write(request, membership, battle, write, str(plugin.results_applied_text))


def _live_access(user, campaign_id: int, battle_id: int):
    """(membership, the battle's seq) for a member (404 otherwise), with the database
    connection given back at once: a stream lasts for hours and must not hold one."""
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
    return membership, seq


@login_required
@require_GET
async def board_events(request: HttpRequest, campaign_id: int, battle_id: int):
    """The board's Server-Sent Events: `seq` at once, then after every change made on any app
    process the member's new board (`board`; `changed` with the new seq where it cannot be
    pushed, and under WSGI), `ping` now and then (`battles.live`). Without this stream the
    board polls every 2 s."""
    user = await request.auser()
    request.user = user  # (found: a render for the stream looks it up no more)
    membership, seq = await sync_to_async(_live_access)(user, campaign_id, battle_id)
    since = request.GET.get("since", "")
    seq = int(since) if since.isdigit() else seq
    if isinstance(request, ASGIRequest):
        content = live.stream(battle_id, seq, live.BoardPush(request, membership, battle_id))
    else:  # runserver and the test server: a generator reading the cache, thread by thread
        content = live.sync_stream(battle_id, seq)
    response = StreamingHttpResponse(content, content_type="text/event-stream")
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # nginx: pass each event on at once
    return response
