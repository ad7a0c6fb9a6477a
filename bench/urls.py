"""The app's URLs and, for the benchmarks only, the bare logged-in view: `login_required`
answering "ok" (the session and user look-ups every board request pays, nothing else), and
the *write floor*: what any board action must at least do besides the bare view's work —
read the battle's row and write its snapshot back (the same JSON, one autocommitted
statement, durable on disk as the action's is). `bench/board.py` prints it beside the action
so the action's ratio can be read against what no rendering or engine work could remove."""

from django.contrib.auth.decorators import login_required
from django.db import connection
from django.http import HttpResponse
from django.urls import path
from django.views.decorators.http import require_POST

from warfare.urls import handler404  # noqa: F401
from warfare.urls import urlpatterns as app_urlpatterns


@login_required
def bare(request):
    return HttpResponse("ok")


@require_POST
@login_required
def write_floor(request, battle_id: int):
    with connection.cursor() as cursor:
        cursor.execute("SELECT snapshot::text FROM battles_battle WHERE id = %s", [battle_id])
        (snapshot,) = cursor.fetchone()
        cursor.execute(
            "UPDATE battles_battle SET snapshot = %s::jsonb WHERE id = %s", [snapshot, battle_id]
        )
    return HttpResponse("ok")


urlpatterns = [
    path("bench/bare/", bare, name="bench-bare"),
    path("bench/floor/<int:battle_id>/", write_floor, name="bench-floor"),
    *app_urlpatterns,
]
