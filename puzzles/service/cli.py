"""``openhand serve``: run the puzzle service (registered through the ``openhand.commands`` entry points)."""

from __future__ import annotations

import argparse
from typing import Any


def cmd_serve(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from .app import Limits, create_app
    except ImportError as e:
        raise ValueError(f"the service needs its extra: pip install 'openhand[service]' ({e.name} is missing)") from None
    limits = Limits(workers=args.workers, max_seconds=args.max_seconds)
    app = create_app(args.db, args.collections, limits)
    print(f"openhand service on http://{args.host}:{args.port}/ (API docs at /docs; database {args.db})")
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning")
    return 0


def register(subparsers: Any) -> None:
    p = subparsers.add_parser("serve", help="run the HTTP API and the puzzle web page",
                              description="Serve the analysis API (/api/solve, /api/table), the puzzles "
                                          "(/api/puzzles...) and a web page to solve them (/). Puzzles live in a "
                                          "SQLite database, created and migrated at start.")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    p.add_argument("--db", default="openhand.db", help="SQLite database file (default openhand.db)")
    p.add_argument("--collections", nargs="*", default=[], metavar="FILE",
                   help="puzzle collections to import at start (msgpack or JSON Lines)")
    p.add_argument("--workers", type=int, default=2, help="solver processes (default 2)")
    p.add_argument("--max-seconds", type=float, default=5.0, help="time budget of one solve (default 5 s)")
    p.set_defaults(func=cmd_serve)
