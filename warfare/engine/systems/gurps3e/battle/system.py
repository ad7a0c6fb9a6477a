"""`SYSTEM`: the GURPS 3e battle (`engine`) with its auto-play policy (`policy`, which
builds on the engine) and the forecast's lean play-out (`simulation`), so that the engine
never imports its policy."""

from warfare.engine.battle.protocol import FunctionSystem
from warfare.engine.systems.gurps3e.battle import engine
from warfare.engine.systems.gurps3e.battle.policy import suggest
from warfare.engine.systems.gurps3e.battle.simulation import play_out

SYSTEM = FunctionSystem.of(engine, key="gurps3e", suggest=suggest, play_out=play_out)
