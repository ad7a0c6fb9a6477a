"""`SYSTEM`: the GURPS 3e battle (`engine`) with its auto-play policy (`policy`, which
builds on the engine), so that the engine never imports its policy."""

from warfare.engine.battle.protocol import FunctionSystem
from warfare.engine.systems.gurps3e.battle import engine
from warfare.engine.systems.gurps3e.battle.policy import suggest

SYSTEM = FunctionSystem.of(engine, key="gurps3e", suggest=suggest)
