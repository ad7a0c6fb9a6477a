"""The app's URLs and, for the benchmarks only, the bare logged-in view: `login_required`
answering "ok" (the session and user look-ups every board request pays, nothing else)."""

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.urls import path

from warfare.urls import handler404  # noqa: F401
from warfare.urls import urlpatterns as app_urlpatterns


@login_required
def bare(request):
    return HttpResponse("ok")


urlpatterns = [path("bench/bare/", bare, name="bench-bare"), *app_urlpatterns]
