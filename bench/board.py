"""Board benchmark (issue 13): the board's requests against the bare logged-in view, per rule
system, at 10 and at 1,000 commands.

Usage: DATABASE_URL=postgres://... [REDIS_URL=redis://...] python bench/board.py
       [--rounds 25] [--warmup 3] [--long 1000] [SYSTEM...]

In a scratch database (dropped afterwards) the demo campaigns of `make run` are loaded
(`kingdoms.demo`: the GURPS 4e, GURPS 3e and D&D 5e demo battles; for Pathfinder, which has
no demo battle, its four demo armies two a side). Each system's battle is copied twice and
played on by the auto-play policies to 10 and to 1,000 commands (`extend`: when the policy's
command would end the battle, the GM heals a piece or sets a modifier instead, so the battle
goes on with the board and its log as long as 1,000 real commands make them).

Then, through Django's test client with the logged-in demo GM, in rounds that alternate
every system, both lengths and every kind of request (so the machine's load, shared with
others, hits all of them alike), with the bare logged-in view (`bench.urls`) between each:

* render: the board (htmx partial) of a version nobody has seen: a real render;
* poll: the live poll of that unchanged board (`?since=<seq>`): 304;
* action: the policy's next command POSTed from that board, like a click: the fragments it
  changed (`HX-Reswap: none`);

after which the action is taken back in the database (not timed), so every round measures
the battle at the same length; then

* undrawn: the same command POSTed as a plain form (no htmx: the answer is a redirect, no
  board drawn): all an action does but its answer (the access check, the engine, the write,
  the polls and streams told), taken back in turn;

and the *write floor* (`bench.urls.write_floor`: the row read and its snapshot written back,
what no action can skip). Both are printed beside the goals: they say how much of an
action's ratio its answer is.
Printed per system: the median and 95th percentile of each (ms), the queries of each
request, and the ratios with issue 13's goals (an action's p95 against the bare view's p95:
both under the same load).
"""

import argparse
import json
import re
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import (  # noqa: E402
    analyze,
    fixed_seeds,
    median,
    p95,
    scratch_database,
    setup_django,
)

SYSTEMS = ("pf2e", "dnd5e", "gurps4e", "gurps3e")
KINDS = ("render", "poll", "action", "undrawn", "floor")
#: (name, measured, against, how, goal): "how" compares medians or 95th percentiles.
GOALS = (
    ("action median", "action", "bare", "median", 3.0),
    ("action p95", "action", "bare", "p95", 4.0),
    ("poll median", "poll", "bare", "median", 1.25),
)
GROWTH_GOAL = 1.3
LOOKAHEAD = {"gurps4e", "gurps3e"}
#: The systems whose act form takes the GM's commands (no actor) too.
GM_FORM = {"gurps4e", "gurps3e"}
_DATA_SEL = re.compile(r'id="board"[^>]*\bdata-sel="([^"]*)"')


# --- the battles ------------------------------------------------------------------------------


def fillers(system_key: str, state, *, urgent: bool = False):
    """Commands the GM may send to keep a battle going where the policy's would end it: the
    pieces healed (`urgent`: only those below half their HP, healed before the policy plays
    on, so that no side is wiped out), a modifier set again."""
    from warfare.engine.battle.protocol import Command

    def low(hp: int, most: int) -> bool:
        return hp < most and (not urgent or hp * 2 < most)

    if system_key == "pf2e":
        for entry in state.armies:
            army = entry.army
            if low(army.hp, army.max_hp) and not army.defeated:
                yield Command(None, "gm_correction", {"army": entry.key, "hp": army.max_hp})
    elif system_key == "dnd5e":
        for piece in (*state.stands, *state.solos):
            gone = piece.gone is not None or getattr(piece, "casualty", False)
            if (
                not gone
                and not getattr(piece, "dead", False)
                and piece.hp > 0
                and low(piece.hp, piece.max_hp)
            ):
                yield Command(None, "gm_correction", {"piece": piece.key, "hp": piece.max_hp})
        if not urgent:
            yield Command(None, "extra_round")
    elif urgent:
        return
    elif system_key == "gurps4e":
        yield Command(None, "gm_circumstance", {"side": "a", "value": 0})
    elif system_key == "gurps3e":
        yield Command(None, "gm_modifiers", {"side": "a", "other": 0})


def candidates(system, state, *, person: bool = False):
    """The GM's urgent heals, the policy's command, then the GM's other fillers, then every
    listed option (`person`: only the commands of an actor, an army's, a commander's…)."""
    waiting = system.awaiting(state)
    if not person:
        yield from fillers(system.key, state, urgent=True)
    if waiting:
        yield system.suggest(state, waiting[0].actor)
    if not person:
        yield from fillers(system.key, state)
    for wait in waiting:
        if wait.actor is not None:
            for spec in system.legal_actions(state, wait.actor):
                yield from spec.commands(wait.actor)


def next_step(
    system,
    state,
    seed: int,
    position: int,
    *,
    person: bool = False,
    lookahead: int = 2,
    careful: bool = False,
):
    """(command, state, events) of the first candidate that leaves the battle running (a
    person's, with an actor, if `person`), or None. In the systems of `LOOKAHEAD`, not one
    that leads where every command would end it (GURPS 4e: a rout, then the pursuit), looking
    `lookahead` commands ahead (in every system if `careful`)."""
    from warfare.engine.battle.protocol import Rejected, command_dice

    for command in candidates(system, state, person=person):
        if person and command.actor is None:
            continue
        result = system.apply(state, command, command_dice(seed, position))
        if isinstance(result, Rejected) or system.outcome(result[0]) is not None:
            continue
        if lookahead and (careful or system.key in LOOKAHEAD):
            after = next_step(system, result[0], seed, position + 1, lookahead=lookahead - 1,
                              careful=careful)  # fmt: skip
            if after is None:
                continue
        return command, *result
    return None


FILLERS = {"gm_correction", "gm_circumstance", "gm_modifiers", "extra_round"}


class Stuck(Exception):
    pass


def play(system, state, seed: int, position: int, commands: int) -> list:
    """[(command, events, round)] played from `state` (the battle at `position`) to
    `commands` commands; `Stuck` when every command would end the battle."""
    from battles.services import state_round

    played, states, careful, back = [], [], 0, 1
    while position + len(played) < commands:
        at = position + len(played)
        step = next_step(system, state, seed, at, careful=careful > 0)
        careful = max(careful - 1, 0)
        if step is None:  # steps back (more each time), and from there look ahead a while
            if len(played) < back or back > 16:
                raise Stuck(f"{system.key}: stuck at {at} commands")
            del played[-back:]
            state, careful, back = states[-back], 4 * back, back * 2
            del states[-back // 2 :]
            continue
        if not careful:
            back = 1
        states.append(state)
        command, after, events = step
        played.append((command, events, state_round(state)))
        state = after
    return played, state


def extend(battle, commands: int, *, reseed: bool = False) -> int:
    """Play `battle` on to `commands` live commands (stored as the board stores them);
    answers how many were the GM's fillers. `reseed`: when the battle cannot go on that far
    with its dice, start it again (no command played yet) with another seed."""
    from battles import services
    from battles.models import BattleCommand, BattleEvent
    from warfare.engine.battle.registry import get_battle_system

    system = get_battle_system(battle.system)
    for attempt in range(20):
        if attempt:
            if not reseed or battle.seq:
                raise RuntimeError(f"{battle.system}: stuck before {commands} commands")
            restart(battle, system, battle.seed + 1)
        try:
            played, state = play(system, system.state_from_dict(battle.snapshot), battle.seed,
                                 battle.seq, commands)  # fmt: skip
            break
        except Stuck:
            continue
    else:
        raise RuntimeError(f"{battle.system}: no seed plays on to {commands} commands")
    rows, event_rows = [], []
    for command, events, round_ in played:
        row = BattleCommand(battle=battle, position=battle.seq + len(rows),
                            command=command.to_dict(), actor=battle.created_by)  # fmt: skip
        rows.append(row)
        event_rows += services._event_rows(battle, row, events, round_)
    BattleCommand.objects.bulk_create(rows)
    BattleEvent.objects.bulk_create(event_rows, batch_size=2000)
    battle.seq += len(rows)
    battle.snapshot = state.to_dict()
    battle.save()
    return sum(1 for c, _e, _r in played if c.actor is None and c.kind in FILLERS)


def restart(battle, system, seed: int) -> None:
    """The battle started again with another seed (its start events rolled again)."""
    from battles import services
    from battles.models import BattleEvent

    state = system.start(battle.setup, seed)
    battle.seed, battle.snapshot = seed, state.to_dict()
    BattleEvent.objects.filter(battle=battle).delete()
    events = system.start_events(state)
    BattleEvent.objects.bulk_create(
        services._event_rows(battle, None, events, services.state_round(state))
    )
    battle.save()


def copy_battle(battle):
    """A second battle like `battle` (its set-up, seed, start and opening events)."""
    from battles.models import Battle, BattleEvent

    events = list(BattleEvent.objects.filter(battle=battle, command=None))
    copy = Battle.objects.get(pk=battle.pk)
    copy.pk = None
    copy.save()
    for event in events:
        event.pk, event.battle = None, copy
    BattleEvent.objects.bulk_create(events)
    return copy


def demo_battles() -> dict:
    """{system: its demo battle}: the demo campaigns loaded, a Pathfinder battle set up."""
    from battles.models import Battle
    from kingdoms.demo import demo_accounts, load_demo
    from warfare.systems.pf2e import setup as pf2e_setup
    from warfare.systems.pf2e.models import Army

    results = {result.campaign.rule_system: result.campaign for result in load_demo()}
    gm, _player = demo_accounts()
    pf2e = results["pf2e"]
    armies = Army.objects.filter(faction__campaign=pf2e).select_related("faction").order_by("pk")
    sides = {"a": [], "b": []}
    for army in armies:
        sides["a" if army.faction.controlled_by == "players" else "b"].append(army.pk)
    pf2e_setup.battle_create(user=gm, campaign_id=pf2e.pk, name="Bench", sides=sides)
    return {system: Battle.objects.filter(campaign=campaign).first()
            for system, campaign in results.items()}  # fmt: skip


@dataclass
class Board:
    """One battle measured: its system, length, the state to put back after each action and
    the action to send."""

    system: str
    length: int
    battle: object
    saved: dict
    command: object = None
    filled: int = 0
    fragments: int = 0
    whole: int = 0
    samples: dict = field(default_factory=lambda: {kind: [] for kind in KINDS})
    queries: dict = field(default_factory=dict)
    size: dict = field(default_factory=dict)


def prepare(battle, length: int, match_kind: str | None = None) -> Board:
    """`battle` played on to `length` commands, then on (at most 50 more) to where the next
    command is a person's (an army's, a commander's, a PC's) of the kind `match_kind` (else
    a person's of another kind; else, in GURPS, where the long battle goes on by the GM's
    modifiers, the GM's)."""
    from warfare.engine.battle.registry import get_battle_system

    filled = extend(battle, length, reseed=True)
    system = get_battle_system(battle.system)
    for _ in range(50):
        state = system.state_from_dict(battle.snapshot)
        step = next_step(system, state, battle.seed, battle.seq, person=True)
        if step is not None and (match_kind is None or step[0].kind == match_kind):
            break
        if step is None and battle.system in GM_FORM:  # only the GM's tools keep it going
            break
        filled += extend(battle, battle.seq + 1)
    else:  # none of that kind within 50 more: a person's of another kind, on this board
        state = system.state_from_dict(battle.snapshot)
        step = next_step(system, state, battle.seed, battle.seq, person=True)
    if step is None and battle.system in GM_FORM:  # the battle goes on by the GM's tools only
        step = next_step(system, state, battle.seed, battle.seq)
    saved = {name: getattr(battle, name) for name in
             ("snapshot", "seq", "status", "outcome", "autoplay_batch")}  # fmt: skip
    return Board(battle.system, battle.seq, battle, saved, command=step[0], filled=filled)


def reset(board: Board) -> None:
    """Take the measured action back (and what the board did by itself after it)."""
    from battles.models import BattleCommand

    battle = board.battle
    BattleCommand.objects.filter(battle=battle, position__gte=board.length).delete()
    for name, value in board.saved.items():
        setattr(battle, name, value)
    battle.save()


def form_data(board: Board) -> dict:
    """The POST a click on the board sends for the board's command."""
    return act_data(board.command, board.battle.seq)


def form_post(board: Board) -> dict:
    """The test client's `post` arguments of that click, encoded as htmx sends a form
    (`application/x-www-form-urlencoded`; the test client's default is multipart, which
    no board button sends and which Django parses several times slower)."""
    from urllib.parse import urlencode

    return {"data": urlencode(form_data(board)), "content_type": URLENCODED}


URLENCODED = "application/x-www-form-urlencoded"


def act_data(command, seq: int) -> dict:
    """The POST a click on the board sends for `command` (each system's act form reads the
    params as its own fields, the generic one as JSON); the tests post the same."""
    data = {"seq": seq, "actor": command.actor or "", "kind": command.kind,
            "params": json.dumps(command.params)}  # fmt: skip
    for name, value in command.params.items():
        if isinstance(value, bool):
            if value:
                data[name] = "on"
        elif isinstance(value, dict | list):
            data[name] = json.dumps(value)
        elif value is not None:
            data[name] = str(value)
    return data


# --- the measurement ----------------------------------------------------------------------------


class Timer:
    def __init__(self, client):
        from django.db import connection
        from django.test.utils import CaptureQueriesContext

        self.client, self.capture = client, CaptureQueriesContext(connection)

    def __call__(self, method: str, url: str, **kwargs):
        with self.capture:
            start = time.perf_counter()
            response = getattr(self.client, method)(url, **kwargs)
            elapsed = (time.perf_counter() - start) * 1000
        return response, elapsed, len(self.capture.captured_queries)


def measure(board: Board, timed, bare: list, bare_queries: dict, record: bool) -> None:
    """One round on one board: bare, render, bare, poll, bare, action; then the reset, and
    bare, the write floor (`bench.urls.write_floor`)."""
    from django.urls import reverse

    battle = board.battle
    board_url = reverse("battles:board", args=[battle.campaign_id, battle.pk])
    act_url = reverse("battles:act", args=[battle.campaign_id, battle.pk])
    htmx = {"HTTP_HX_REQUEST": "true"}

    def bare_request():
        response, ms, queries = timed("get", "/bench/bare/")
        assert response.status_code == 200, response.status_code
        if record:
            bare.append(ms)
        bare_queries["bare"] = queries

    def keep(kind, ms, queries, response):
        if record:
            board.samples[kind].append(ms)
        board.queries[kind] = queries
        board.size[kind] = len(response.content)

    bare_request()
    response, ms, queries = timed("get", board_url, **htmx)
    assert response.status_code == 200, (board.system, response.status_code)
    keep("render", ms, queries, response)
    found = _DATA_SEL.search(response.content.decode())
    headers = {**htmx, "HTTP_X_BOARD_SEL": found[1]} if found else htmx
    sel = f"&sel={found[1]}" if found and found[1] != "*" else ""
    bare_request()
    response, ms, queries = timed("get", f"{board_url}?since={battle.seq}{sel}", **htmx)
    assert response.status_code == 304, (board.system, response.status_code)
    keep("poll", ms, queries, response)
    bare_request()
    response, ms, queries = timed("post", act_url, **form_post(board), **headers)
    assert response.status_code == 200, (board.system, response.status_code, response.content)
    keep("action", ms, queries, response)
    if response.headers.get("HX-Reswap") == "none":
        board.fragments += 1
    else:
        board.whole += 1
    check_stored(board)
    reset(board)
    bare_request()
    response, ms, queries = timed("post", act_url, **form_post(board))
    assert response.status_code == 302, (board.system, response.status_code, response.content)
    keep("undrawn", ms, queries, response)
    check_stored(board)
    reset(board)
    bare_request()
    response, ms, queries = timed("post", reverse("bench-floor", args=[battle.pk]))
    assert response.status_code == 200, (board.system, response.status_code)
    keep("floor", ms, queries, response)


def check_stored(board: Board) -> None:
    from battles.models import BattleCommand

    stored = BattleCommand.objects.get(battle=board.battle, position=board.length).command
    expected = board.command.to_dict()
    same = stored["actor"] == expected["actor"] and stored["kind"] == expected["kind"]
    # the form may add a param's default (GURPS 4e: `on_critical`)
    if not same or not expected["params"].items() <= stored["params"].items():
        raise AssertionError(f"{board.system}: sent {expected}, stored {stored}")


# --- the report ---------------------------------------------------------------------------------


def verdict(ok: bool) -> str:
    return "goal reached" if ok else "GOAL MISSED"


def report(system: str, boards: dict, bare: list, bare_queries: dict) -> bool:
    short, long = boards[(system, "short")], boards[(system, "long")]
    stat = {"median": median, "p95": p95}
    print(f"\n== {system}: bare logged-in view median {median(bare):.2f} ms, p95 "
          f"{p95(bare):.2f} ms, {bare_queries['bare']} queries ({len(bare)} requests)")  # fmt: skip
    print(f"{'request':<8} {'commands':>8} {'median ms':>9} {'p95 ms':>8} {'x bare':>6} "
          f"{'queries':>7} {'bytes':>7}")  # fmt: skip
    for board in (short, long):
        for kind in KINDS:
            values = board.samples[kind]
            print(f"{kind:<8} {board.length:>8} {median(values):>9.2f} {p95(values):>8.2f} "
                  f"{median(values) / median(bare):>6.2f} {board.queries[kind]:>7} "
                  f"{board.size[kind]:>7}")  # fmt: skip
    print(f"action sent: {short.command.kind} ({short.length} commands), "
          f"{long.command.kind} ({long.length}); answered as fragments "
          f"{short.fragments + long.fragments}, whole board {short.whole + long.whole}; "
          f"GM fillers in the long battle: {long.filled}")  # fmt: skip
    for board in (short, long):
        floor = median(board.samples["floor"]) / median(bare)
        share = median(board.samples["action"]) / median(board.samples["floor"])
        print(f"  write floor            at {board.length:>4}: {floor:5.2f}x bare  (no goal: the"
              f" row read and written back; the action is {share:.2f}x it)")  # fmt: skip
    for board in (short, long):
        undrawn = median(board.samples["undrawn"]) / median(bare)
        answer = (median(board.samples["action"]) - median(board.samples["undrawn"])) / median(bare)
        print(f"  action, answer undrawn at {board.length:>4}: {undrawn:5.2f}x bare  (no goal: "
              f"all but the answer; drawing it adds {answer:.2f}x)")  # fmt: skip
    reached = True
    for name, kind, _against, how, goal in GOALS:
        for board in (short, long):
            ratio = stat[how](board.samples[kind]) / stat[how](bare)
            ok = ratio <= goal
            reached &= ok
            print(f"  {name:<22} at {board.length:>4}: {ratio:5.2f}x bare  (goal <= {goal}x)"
                  f"  {verdict(ok)}")  # fmt: skip
    for kind in ("render", "action"):
        ratio = median(long.samples[kind]) / median(short.samples[kind])
        ok = ratio <= GROWTH_GOAL
        reached &= ok
        print(f"  {kind + ' ' + str(long.length) + ' / ' + str(short.length):<22}        "
              f"{ratio:5.2f}x      (goal <= {GROWTH_GOAL}x)  {verdict(ok)}")  # fmt: skip
    return reached


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("systems", nargs="*", default=list(SYSTEMS))
    parser.add_argument("--rounds", type=int, default=25)
    parser.add_argument("--warmup", type=int, default=3)
    parser.add_argument("--short", type=int, default=10)
    parser.add_argument("--long", type=int, default=1000)
    parser.add_argument(
        "--seed",
        type=int,
        default=1000,
        help="the first of the battles' seeds (fixed: every run plays the same)",
    )
    args = parser.parse_args()
    fixed_seeds(args.seed)
    # A battle of 1,000 commands goes on far past the round from which the D&D 5e policy
    # calls a fight off (every unit retreats, `STALEMATE_ROUND`): not in this benchmark.
    from warfare.engine.systems.dnd5e.battle import policy as dnd_policy

    dnd_policy.STALEMATE_ROUND = 1 << 30
    setup_django()
    from django.test import Client

    from kingdoms.demo import demo_accounts

    with scratch_database("bench_board"):
        started = time.perf_counter()
        demos = demo_battles()
        boards = {}
        for system in args.systems:
            short = prepare(copy_battle(demos[system]), args.short)
            boards[(system, "short")] = short
            boards[(system, "long")] = prepare(demos[system], args.long, short.command.kind)
        analyze()
        # As an app process does once loaded (`warfare.heap`): what the set-up made is not
        # walked by every full collection (a request that triggers one waits for it).
        from warfare import heap

        heap.freeze()
        print(f"board benchmark: {len(args.systems)} systems, battles of {args.short} and "
              f"{args.long} commands set up in {time.perf_counter() - started:.0f} s; "
              f"{args.rounds} rounds after {args.warmup} of warm-up, interleaved")  # fmt: skip
        client = Client()
        client.force_login(demo_accounts()[0])
        timed = Timer(client)
        bare = {system: [] for system in args.systems}
        bare_queries = {}
        for round_ in range(args.warmup + args.rounds):
            for system in args.systems:
                for length in ("short", "long"):
                    measure(boards[(system, length)], timed, bare[system], bare_queries,
                            record=round_ >= args.warmup)  # fmt: skip
        reached = True
        for system in args.systems:
            reached &= report(system, boards, bare[system], bare_queries)
    print("\nall board goals reached" if reached else "\nsome board goals MISSED")
    sys.exit(0 if reached else 1)


if __name__ == "__main__":
    main()
