"""`SYSTEM`: the GURPS Mass Combat 4e battle (`engine`) with its auto-play policy (`policy`, which
builds on the engine) and the forecast's lean play-out (`simulation`), so that the engine never
imports its policy."""

from warfare.engine.battle.protocol import FunctionSystem
from warfare.engine.systems.gurps4e.battle import engine
from warfare.engine.systems.gurps4e.battle.policy import suggest
from warfare.engine.systems.gurps4e.battle.simulation import play_out

SYSTEM = FunctionSystem.of(engine, key=engine.KEY, suggest=suggest, play_out=play_out)
