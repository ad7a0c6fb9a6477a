"""The app process's heap after start-up, kept out of the garbage collector's way.

A full collection walks every object the collector tracks: in an app process, once Django,
the apps, the templates and the rule systems are loaded, about 126,000 of them, ~22 ms on
this 2-core machine, and a request that triggers one waits for it (the tail of the board's
response times: `bench/README.md`). What start-up made lives as long as the process, so it is
moved to the collector's permanent generation (`gc.freeze`) once loaded: a full collection
then walks only what requests made since."""

import gc


def freeze() -> None:
    """Collect what start-up left unreachable, then freeze the rest (`warfare.asgi`,
    `warfare.wsgi`, once the application is loaded)."""
    gc.collect()
    gc.freeze()
