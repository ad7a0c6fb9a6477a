"""Are two versions of the code drawing the same boards? Records what viewers receive (the
board's htmx partial, the whole page, D&D 5e's selections, and the answer to an action sent
from the board, fragments or whole) for the four systems, as the demo GM and the demo player,
in English and in Russian, over a few commands of the fixed-seed 10-command battles of
`bench/board.py`; the CSRF tokens (one per request) are masked. Run it on each version and
compare the files: a change that makes the answer cheaper must leave every byte as it was.

Usage: DATABASE_URL=postgres://... REDIS_URL=redis://... python bench/same_html.py OUT.json
       [--steps 6] [SYSTEM...]
       python bench/same_html.py --compare A.json B.json
"""

import argparse
import json
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.board import (  # noqa: E402
    _DATA_SEL,
    SYSTEMS,
    copy_battle,
    demo_battles,
    form_post,
    prepare,
    reset,
)
from bench.common import fixed_seeds, scratch_database, setup_django  # noqa: E402

_TOKEN = re.compile(rb"\b[A-Za-z0-9]{64}\b")
_PIECE = re.compile(rb'data-piece="([^"]+)"')


def _masked(content: bytes) -> str:
    return _TOKEN.sub(b"<csrf>", content).decode()


def record(systems: list[str], steps: int) -> list[tuple[str, str]]:
    from django.test import Client
    from django.urls import reverse

    from kingdoms.demo import demo_accounts

    out: list[tuple[str, str]] = []
    demos = demo_battles()
    users = dict(zip(("gm", "player"), demo_accounts(), strict=True))
    for system in systems:
        board = prepare(copy_battle(demos[system]), 10)
        for step in range(steps):
            battle = board.battle
            board_url = reverse("battles:board", args=[battle.campaign_id, battle.pk])
            act_url = reverse("battles:act", args=[battle.campaign_id, battle.pk])
            for who, user in users.items():
                for lang in ("en", "ru"):
                    client = Client(HTTP_ACCEPT_LANGUAGE=lang)
                    client.cookies["django_language"] = lang
                    client.force_login(user)
                    htmx = {"HTTP_HX_REQUEST": "true"}
                    label = f"{system} {step} {who} {lang}"
                    page = client.get(board_url)
                    out.append((f"{label} page {page.status_code}", _masked(page.content)))
                    response = client.get(board_url, **htmx)
                    content = response.content
                    out.append((f"{label} board {response.status_code}", _masked(content)))
                    pieces = sorted(set(_PIECE.findall(content)))[:2]
                    for sel in [b"", *pieces]:
                        one = client.get(f"{board_url}?sel={sel.decode()}", **htmx)
                        out.append((f"{label} sel={sel.decode()} {one.status_code}",
                                    _masked(one.content)))  # fmt: skip
                    response = client.get(board_url, **htmx)  # the board acted from
                    found = _DATA_SEL.search(response.content.decode())
                    headers = {**htmx, "HTTP_X_BOARD_SEL": found[1]} if found else htmx
                    answer = client.post(act_url, **form_post(board), **headers)
                    swap = answer.headers.get("HX-Reswap", "")
                    out.append((f"{label} act {answer.status_code} {swap}",
                                _masked(answer.content)))  # fmt: skip
                    reset(board)
            board = prepare(board.battle, board.battle.seq + 1)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", nargs="?")
    parser.add_argument("systems", nargs="*", default=list(SYSTEMS))
    parser.add_argument("--steps", type=int, default=6)
    parser.add_argument("--compare", nargs=2, metavar=("A", "B"))
    args = parser.parse_args()
    if args.compare:
        a, b = (json.loads(Path(name).read_text()) for name in args.compare)
        differ = [x[0] for x, y in zip(a, b, strict=False) if x != y]
        print(f"{len(a)} / {len(b)} renders, {len(differ)} differ")
        for label in differ[:20]:
            print("  differs:", label)
        sys.exit(1 if differ or len(a) != len(b) else 0)
    setup_django()
    fixed_seeds(1000)
    with scratch_database("bench_same"):
        out = record(args.systems, args.steps)
    Path(args.out).write_text(json.dumps(out))
    answers = [label for label, _html in out if " act " in label]
    print(f"{len(out)} renders ({len(answers)} action answers) written to {args.out}")


if __name__ == "__main__":
    main()
