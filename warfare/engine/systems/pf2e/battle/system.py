"""`SYSTEM`: the Pathfinder 2e war encounter (`engine`) with its auto-play policy (`policy`, which
builds on the engine) and its forecast's lean play-out (`simulation`, which builds on both), so
that the engine never imports its policy.

A forecast with workers warms up on one simulation (`warm_up`): what the Pathfinder engine
keeps across simulations (the set-up's start, the stat blocks and Strike modifiers per army
state) is mostly there after one, so a longer warm-up alone only keeps the other core
waiting (measured: bench/README.md, Forecast)."""

from warfare.engine.battle.protocol import FunctionSystem
from warfare.engine.systems.pf2e.battle import engine
from warfare.engine.systems.pf2e.battle.policy import suggest
from warfare.engine.systems.pf2e.battle.simulation import play_out

SYSTEM = FunctionSystem.of(
    engine, key="pf2e", suggest=suggest, play_out=play_out, decided=engine.decided, warm_up=1
)
