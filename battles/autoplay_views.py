"""Pages of auto-play and the forecast (issue 14): the board's auto-play buttons and "undo the
auto-play", the set-up page's auto sides and forecast, the board's forecast (with a progress
bar while it runs) and the GM sharing it. Thin: the use cases are `battles.autoplay` and
`battles.forecasting`; answered like every board action (`battles.views`)."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST

from kingdoms.access import access_campaign

from . import autoplay, forecasting, services, views


def _write(request, membership, battle, write) -> HttpResponse:
    """Run a board write (it returns (battle, message)) and answer like every board action:
    a redirect (the new board for htmx), 409 with the current board, 400 with the reason."""
    status = 200
    try:
        battle, text = write()
        messages.success(request, text)
    except services.StaleBoard as stale:
        battle, status = stale.battle, 409
        messages.error(request, _("The board changed meanwhile: here it is now."))
    except ValidationError as error:
        status = 400
        messages.error(request, " ".join(error.messages))
    if not request.htmx and status == 200:
        return redirect(battle)
    battle.refresh_from_db()
    return views._board_response(request, membership, battle, status=status)


def _seq(request) -> int:
    value = request.POST.get("seq", "")
    if not value.isdigit():
        raise ValidationError(_("That was not understood."))
    return int(value)


def _sides(value: str):
    """The form's side choice: "" both (None), "a" or "b"."""
    if value in ("", "both"):
        return None
    return [value]


@login_required
@require_POST
def autoplay_view(request: HttpRequest, campaign_id: int, battle_id: int) -> HttpResponse:
    """Auto-play this turn / resolve the round / resolve the battle (`until`), for a side or
    both (`sides`)."""
    membership, battle = views._battle(request, campaign_id, battle_id)

    def write():
        played = autoplay.battle_autoplay(
            user=request.user, campaign_id=campaign_id, battle_id=battle_id,
            expected_seq=_seq(request), until=request.POST.get("until", ""),
            sides=_sides(request.POST.get("sides", "")),
        )  # fmt: skip
        text = ngettext("Auto-played %(count)s action.", "Auto-played %(count)s actions.",
                        played.count) % {"count": played.count}  # fmt: skip
        if played.capped:
            text += " " + _("It stopped after %(rounds)s rounds: the battle goes on.") % {
                "rounds": autoplay.MAX_ROUNDS
            }
        return played.battle, text

    return _write(request, membership, battle, write)


@login_required
@require_POST
def undo_autoplay_view(request: HttpRequest, campaign_id: int, battle_id: int) -> HttpResponse:
    """The GM takes the last auto-play back at once."""
    membership, battle = views._battle(request, campaign_id, battle_id)
    if not membership.is_gm:
        raise PermissionDenied

    def write():
        battle_after = autoplay.battle_undo_autoplay(
            user=request.user, campaign_id=campaign_id, battle_id=battle_id,
            expected_seq=_seq(request),
        )  # fmt: skip
        return battle_after, _("The auto-play was undone.")

    return _write(request, membership, battle, write)


@login_required
@require_http_methods(["GET", "POST"])
def battle_create(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """The set-up page of every rule system (`battles.views.battle_create`), with the auto
    sides ticked on it (`auto_sides`) given to the battle it starts."""
    if request.method != "POST":
        return views.battle_create(request, campaign_id)
    try:
        sides = autoplay.parse_auto_sides(request.POST.getlist("auto_sides"))
    except ValidationError:
        sides = ()
    with autoplay.auto_sides_at_start(sides):
        return views.battle_create(request, campaign_id)


# --- forecast ---------------------------------------------------------------------------------


def _forecast_answer(request, job, result, *, present=None, status: int = 200) -> HttpResponse:
    """The chart when the forecast is done, else the progress bar that asks for the rest;
    `present(data)`: the forecast for the reader (default: with the job's names)."""
    if job.battle is not None:
        back = reverse("battles:forecast", args=[job.campaign, job.battle])
    else:
        back = reverse("battles:create", args=[job.campaign])
    context = {"job": job, "campaign_id": job.campaign, "back": back}
    if result is not None:
        data = result.to_dict()
        context["forecast"] = (
            present(data) if present else forecasting.presented(data, job.names, job.side_names)
        )
    template = "battles/_forecast.html" if request.htmx else "battles/setup_forecast.html"
    return render(request, template, context, status=status)


def _forecast_error(request, text: str, status: int = 400) -> HttpResponse:
    return render(request, "battles/_forecast.html", {"error": text}, status=status)


@login_required
@require_POST
def setup_forecast(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """The set-up page's forecast: the system's own set-up run on the form as posted, up to
    the engine setup, and nothing saved (`services.capturing_setup`); a form the set-up
    refuses comes back with its errors (the set-up page)."""
    membership = access_campaign(request.user, campaign_id, gm=True)
    token = request.POST.get("job")
    if token:
        return _forecast_step(request, token, campaign_id)
    try:
        simulations, seed = forecasting.parse_options(request.POST)
    except ValidationError as error:
        return _forecast_error(request, " ".join(error.messages))
    try:
        with services.capturing_setup():
            response = views.battle_create(request, campaign_id)
    except services.SetupCaptured as captured:
        job = forecasting.setup_job(membership, captured.campaign, captured.setup,
                                    simulations=simulations, seed=seed)  # fmt: skip
        return _forecast_answer(request, job, job.step())
    # The set-up refused the form: the page with its errors, in place of the page's content.
    response["HX-Retarget"] = "#main"
    response["HX-Reselect"] = "#main"
    response["HX-Reswap"] = "outerHTML"
    return response


def _forecast_step(request, token: str, campaign_id: int, present=None) -> HttpResponse:
    try:
        job = forecasting.resume(token, user=request.user, campaign_id=campaign_id)
    except ValidationError as error:
        return _forecast_error(request, " ".join(error.messages))
    return _forecast_answer(request, job, job.step(), present=present)


@login_required
@require_http_methods(["GET", "POST"])
def board_forecast(request: HttpRequest, campaign_id: int, battle_id: int) -> HttpResponse:
    """The forecast from the board as it is (GET: the page with the last one, if any; POST:
    run one, a chunk at a time). The GM's, or everybody's once the GM shares it."""
    membership, battle = views._battle(request, campaign_id, battle_id)
    forecasting.check_may_forecast(membership, battle)

    def present(data):
        return forecasting.for_member(membership, battle, data)

    if request.method == "POST":
        token = request.POST.get("job")
        if token:
            return _forecast_step(request, token, campaign_id, present)
        try:
            simulations, seed = forecasting.parse_options(request.POST)
        except ValidationError as error:
            return _forecast_error(request, " ".join(error.messages))
        job = forecasting.battle_job(membership, battle, simulations=simulations, seed=seed)
        return _forecast_answer(request, job, job.step(), present=present)
    last = forecasting.cached(battle)
    context = {"battle": battle, "membership": membership, "campaign": battle.campaign}
    if last is not None:
        context["forecast"] = present(last["forecast"])
    return render(request, "battles/forecast.html", context)


@login_required
@require_POST
def share_forecast(request: HttpRequest, campaign_id: int, battle_id: int) -> HttpResponse:
    """The GM shares the battle's forecasts with the players (or takes them back)."""
    access_campaign(request.user, campaign_id, gm=True)
    shared = request.POST.get("shared") == "1"
    battle = forecasting.battle_share_forecast(
        user=request.user, campaign_id=campaign_id, battle_id=battle_id, shared=shared
    )
    messages.success(
        request,
        _("The players see the forecast.") if shared else _("The forecast is yours alone."),
    )
    return redirect("battles:forecast", campaign_id, battle.pk)
