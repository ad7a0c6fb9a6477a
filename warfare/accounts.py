"""Account pages: Django's auth views, answering bad input with a 400 like every other form."""

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from kingdoms.forms import SignupForm


class _InvalidIs400:
    def form_invalid(self, form):
        return self.render_to_response(self.get_context_data(form=form), status=400)


class LoginView(_InvalidIs400, auth_views.LoginView):
    pass


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
