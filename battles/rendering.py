"""One render per change: the board's HTML drawn once per (battle, version, viewpoint,
language) and kept in the shared cache (`django.core.cache`, Redis when `REDIS_URL` is set),
so every viewer of one viewpoint is served the same bytes.

What a board fragment depends on, and so what its cache key holds (`board_key`):

* the battle's version: its `seq`, and `updated_at` (an undo and a new command give the same
  `seq` a different board), its status and whether players may act;
* the viewer's *render key* (`viewer_key`): the viewpoint (`battles.visibility`: the GM, a
  side, a bystander — what it may see) and what the member may do (the actors they command:
  their buttons), never the user as such; two members of one side with the same commands
  share an entry, two members of different sides never do;
* the page language, the selected piece (`?sel=`, D&D 5e), and the campaign's *board
  generation* (`bump_generation`: a faction hidden from players or shown changes the names a
  board may read, without a new command).

What differs per request is kept out of the cached HTML: the CSRF token (rendered as a
placeholder, put in per request) and the messages (sent beside the board, `messages_oob`).

Every real render increments the cache key `board-renders` (`RENDERS_KEY`), so a benchmark
can check that renders per action equal the distinct viewpoints, not the viewers.
"""

import hashlib

from django.core.cache import cache
from django.middleware.csrf import get_token
from django.template.loader import render_to_string
from django.utils.translation import get_language

from . import selectors
from .models import Battle
from .plugins import plugin_for
from .services import actor_factions, may_command
from .visibility import viewpoint_of

#: The cache key counting real (not cached) board renders.
RENDERS_KEY = "board-renders"
#: How long a rendered board stays cached (the key names its version: an old one only ages).
TIMEOUT = 60 * 60
#: Put where the CSRF token goes in a cached board; each response gets its own token.
CSRF_PLACEHOLDER = "board-csrf-token-placeholder"
#: A selection longer than any board key is not a piece: it is not cached by its value.
MAX_SELECTION = 80


def generation_key(campaign_id: int) -> str:
    return f"board-gen:{campaign_id}"


def generation(campaign_id: int) -> int:
    return cache.get(generation_key(campaign_id)) or 0


def bump_generation(campaign_id: int) -> None:
    """Every cached board of the campaign is out of date (a faction's visibility changed)."""
    key = generation_key(campaign_id)
    try:
        cache.incr(key)
    except ValueError:
        cache.set(key, 1, timeout=None)


def faction_changed(sender, instance, **kwargs) -> None:
    """`post_save` / `post_delete` of a Faction: its name or visibility may show on boards."""
    if instance.campaign_id is not None:
        bump_generation(instance.campaign_id)


def count_render() -> None:
    """One more real board render (`RENDERS_KEY`, created if missing)."""
    try:
        cache.incr(RENDERS_KEY)
    except ValueError:
        if not cache.add(RENDERS_KEY, 1, timeout=None):
            cache.incr(RENDERS_KEY)


def commanded(membership, battle: Battle) -> tuple[str, ...]:
    """The actors `membership` may command on `battle` ("*": the GM, all of them)."""
    if membership.is_gm:
        return ("*",)
    if not battle.players_may_act:
        return ()
    return tuple(sorted(a for a in actor_factions(battle) if may_command(membership, battle, a)))


def viewer_key(membership, battle: Battle) -> str:
    """What the board shown to `membership` depends on besides the battle: its viewpoint
    (what it may see) and the actors it commands (its buttons). Never the user as such."""
    viewpoint = viewpoint_of(membership, battle)
    role = "gm" if membership.is_gm else "player"
    return f"{role}|{viewpoint.key}|{','.join(commanded(membership, battle))}"


def selection(request) -> str:
    sel = request.GET.get("sel", "")
    return sel if len(sel) <= MAX_SELECTION else ""


def version(battle: Battle) -> str:
    """The battle's version as far as its board goes."""
    stamp = int(battle.updated_at.timestamp() * 1_000_000) if battle.updated_at else 0
    acts = "1" if battle.players_may_act else "0"
    return f"{battle.seq}.{stamp}.{battle.status}.{acts}"


def render_key(request, membership, battle: Battle) -> str:
    """A short name of everything the board fragment depends on (see the module docstring)."""
    parts = "\n".join(
        (
            viewer_key(membership, battle),
            selection(request),
            get_language() or "",
            str(generation(battle.campaign_id)),
        )
    )
    digest = hashlib.sha256(parts.encode()).hexdigest()[:24]
    return f"{version(battle)}.{digest}"


def board_key(battle: Battle, key: str) -> str:
    return f"board:{battle.pk}:{key}"


def board_template(battle: Battle) -> str:
    plugin = plugin_for(battle.system)
    return plugin.board_template if plugin is not None else "battles/board.html"


def board_context(membership, battle: Battle) -> dict:
    plugin = plugin_for(battle.system)
    if plugin is not None:
        return plugin.board_context(membership, battle)
    return selectors.board_context(membership=membership, battle=battle)


def render_board(request, membership, battle: Battle, key: str | None = None) -> str:
    """The board fragment (`#board`) as `membership` sees it: from the cache, or rendered
    once and cached for every viewer of the same render key; the CSRF token put in."""
    cache_key = board_key(battle, key or render_key(request, membership, battle))
    html = cache.get(cache_key)
    if html is None:
        context = board_context(membership, battle)
        context["csrf_token"] = CSRF_PLACEHOLDER
        html = render_to_string(board_template(battle) + "#board", context, request=request)
        cache.set(cache_key, html, timeout=TIMEOUT)
        count_render()
    return html.replace(CSRF_PLACEHOLDER, get_token(request))


def messages_oob(request) -> str:
    """This request's messages as an htmx out-of-band swap (never cached: they are the
    user's)."""
    return render_to_string("components/_messages.html", {"oob": True}, request=request)
