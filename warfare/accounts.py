"""Account pages: Django's auth views, answering bad input with a 400 like every other form;
log-in throttled after repeated failures; the profile page with the user's API token."""

import hashlib
from functools import wraps

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import AuthenticationForm
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from rest_framework.authtoken.models import Token

from kingdoms.forms import SignupForm


class _InvalidIs400:
    def form_invalid(self, form):
        return self.render_to_response(self.get_context_data(form=form), status=400)


class LoginView(_InvalidIs400, auth_views.LoginView):
    pass


# --- Log-in throttling ----------------------------------------------------------------------


def client_address(request: HttpRequest) -> str:
    """The client's address as the trusted proxies saw it. Behind `TRUSTED_PROXY_COUNT` = n
    reverse proxies, each appending the address it got the request from to X-Forwarded-For,
    the n-th address from the right (what the outermost proxy saw; anything left of it is
    the client's to write). With 0 (the default: no proxy trusted), or a header shorter than
    the proxies would make it, REMOTE_ADDR: the header, which anybody can send, is ignored."""
    count = settings.TRUSTED_PROXY_COUNT
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
    addresses = [address.strip() for address in forwarded.split(",") if address.strip()]
    if count > 0 and len(addresses) >= count:
        return addresses[-count]
    return request.META.get("REMOTE_ADDR", "")


def _failures_key(request: HttpRequest) -> str:
    """One counter per client address and username (hashed: any text makes a valid key)."""
    username = str(request.POST.get("username", "")).strip()[:150].casefold()
    address = client_address(request)
    digest = hashlib.sha256(f"{address}\n{username}".encode()).hexdigest()
    return f"login-failures:{digest}"


def _is_failed_login(response: HttpResponse) -> bool:
    """A log-in form that was checked against the password and refused."""
    form = (getattr(response, "context_data", None) or {}).get("form")
    if form is None or not form.is_bound:
        return False
    return any(error.code == "invalid_login" for error in form.non_field_errors().as_data())


def throttle_failed_logins(view):
    """Refuse log-ins with 429 after `LOGIN_FAILURE_LIMIT` failed ones for the same client
    address (`client_address`) and username in `LOGIN_FAILURE_WINDOW` seconds (counted from
    the first failure). A successful log-in starts the count afresh. Wraps our login view and
    the admin's."""

    @wraps(view)
    def wrapped(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        if request.method != "POST":
            return view(request, *args, **kwargs)
        key = _failures_key(request)
        window = settings.LOGIN_FAILURE_WINDOW
        if cache.get(key, 0) >= settings.LOGIN_FAILURE_LIMIT:
            context = {
                "form": AuthenticationForm(request),
                "throttled": _("Too many failed log-ins. Wait %(minutes)s minutes, then try again.")
                % {"minutes": window // 60},
            }
            response = render(request, "registration/login.html", context, status=429)
            response["Retry-After"] = str(window)
            return response
        response = view(request, *args, **kwargs)
        if _is_failed_login(response):
            cache.add(key, 0, timeout=window)
            try:
                cache.incr(key)
            except ValueError:  # expired in between
                cache.set(key, 1, timeout=window)
        elif response.status_code == 302:
            cache.delete(key)
        return response

    return wrapped


class PasswordChangeView(_InvalidIs400, auth_views.PasswordChangeView):
    pass


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    next_url = request.POST.get("next") or request.GET.get("next") or ""
    if not url_has_allowed_host_and_scheme(
        next_url, {request.get_host()}, require_https=request.is_secure()
    ):
        next_url = ""
    if request.user.is_authenticated:
        return redirect(next_url or "kingdoms:campaign-list")
    form = SignupForm(request.POST or None)
    context = {"form": form, "next": next_url}
    if request.method == "POST":
        if not form.is_valid():
            return render(request, "registration/signup.html", context, status=400)
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, _("Welcome, %(name)s!") % {"name": user.get_username()})
        return redirect(next_url or "kingdoms:campaign-list")
    return render(request, "registration/signup.html", context)


# --- Profile and API token ------------------------------------------------------------------


@never_cache
@login_required
@require_safe
def profile(request: HttpRequest) -> HttpResponse:
    """My account: whether I have an API token (never the token itself, once made)."""
    token = Token.objects.filter(user=request.user).first()
    return render(request, "registration/profile.html", {"token": token})


@never_cache
@login_required
@require_POST
def token_create(request: HttpRequest) -> HttpResponse:
    """Make my API token, replacing any old one, and show it this once (no redirect: the key
    is never stored anywhere it could be shown again)."""
    Token.objects.filter(user=request.user).delete()
    token = Token.objects.create(user=request.user)
    context = {"token": token, "new_key": token.key}
    return render(request, "registration/profile.html", context)


@login_required
@require_POST
def token_revoke(request: HttpRequest) -> HttpResponse:
    deleted, _rows = Token.objects.filter(user=request.user).delete()
    if deleted:
        messages.success(request, _("Your API token is revoked: it no longer works."))
    return redirect("profile")
