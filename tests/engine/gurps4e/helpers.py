"""Builders for GURPS Mass Combat 4e engine tests."""

from typing import Any

from warfare.engine.systems.gurps4e.forces import Force


def row(key: str, ts: Any = 1, count: int = 1, **extra: Any) -> dict[str, Any]:
    """An element row as plain JSON: `extra` keys of the type (classes, support…) or the row."""
    row_keys = ("troop_quality", "equipment_quality", "circumstance", "logistics")
    type_data = {"key": key, "ts": ts, **{k: v for k, v in extra.items() if k not in row_keys}}
    return {"type": type_data, "count": count, **{k: v for k, v in extra.items() if k in row_keys}}


def force(*rows: dict[str, Any], **extra: Any) -> Force:
    return Force.from_dict({"name": "f", "rows": list(rows), **extra})


def force_data(*rows: dict[str, Any], strategy: int = 14, leadership: int = 12, **extra: Any):
    """A force as setup JSON with a commander of Strategy `strategy`."""
    staff = {
        "commander": {"name": "cmd", "strategy": strategy, "tactics": strategy,
                      "leadership": leadership},
        "intelligence_analysis": 12,
        "administration": 12,
        "chain": [{"name": "second", "strategy": 12, "tactics": 12, "leadership": 11}],
    }  # fmt: skip
    return {"name": "f", "rows": list(rows), "staff": staff, **extra}
