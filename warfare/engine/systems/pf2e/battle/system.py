"""`SYSTEM`: the Pathfinder 2e war encounter (`engine`) with its auto-play policy (`policy`, which
builds on the engine) and its forecast's lean play-out (`simulation`, which builds on both), so
that the engine never imports its policy."""

from warfare.engine.battle.protocol import FunctionSystem
from warfare.engine.systems.pf2e.battle import engine
from warfare.engine.systems.pf2e.battle.policy import suggest
from warfare.engine.systems.pf2e.battle.simulation import play_out

SYSTEM = FunctionSystem.of(engine, key="pf2e", suggest=suggest, play_out=play_out)
