"""A bounded load check of the service on loopback: N concurrent clients for T seconds.

``python -m puzzles.service.loadcheck --clients 8 --seconds 10`` starts the
service on 127.0.0.1 with a generated puzzle collection, runs the clients
(each alternating a puzzle fetch and a small solve), stops by itself, and
prints requests per second, latency percentiles per endpoint, and failures.
Traffic never leaves the loopback interface.
"""

from __future__ import annotations

import argparse
import asyncio
import socket
import statistics
import tempfile
import threading
import time
from pathlib import Path

import httpx
import uvicorn

from solver.deal import cut, deal

from .. import puzzle as collection_io
from ..generator import Settings, generate
from .app import Limits, create_app


def small_positions(count: int) -> list[dict]:
    """Seeded 4-card Minimo and Moon endgames: small solves."""
    out = []
    for seed in range(count):
        game = ("minimo", "moon")[seed % 2]
        pos = cut(deal(game, seed), 4, 0, seed)
        out.append(pos.to_json())
    return out


async def client(base: str, stop: float, ids: list[str], positions: list[dict],
                 latencies: dict[str, list[float]], failures: list[str], limit: int) -> None:
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        i = 0
        while time.monotonic() < stop and i < limit:
            kind = "fetch" if i % 2 == 0 else "solve"
            start = time.perf_counter()
            try:
                if kind == "fetch":
                    r = await http.get(f"/api/puzzles/{ids[i % len(ids)]}")
                else:
                    r = await http.post("/api/solve", json=positions[i % len(positions)])
                if r.status_code != 200:
                    failures.append(f"{kind}: {r.status_code} {r.text[:80]}")
            except httpx.HTTPError as e:
                failures.append(f"{kind}: {type(e).__name__}")
            latencies[kind].append((time.perf_counter() - start) * 1000)
            i += 1


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--workers", type=int, default=2, help="solver processes of the service")
    parser.add_argument("--max-requests", type=int, default=100_000, help="per client, a second bound")
    args = parser.parse_args(argv)

    folder = Path(tempfile.mkdtemp(prefix="openhand-load-"))
    puzzles = generate(Settings("minimo", vary=False, cards=(3, 3)), 5, 1, max_candidates=1000).puzzles
    collection_io.save(collection_io.Collection(puzzles, 1), folder / "p.msgpack")
    app = create_app(folder / "db.sqlite", [folder / "p.msgpack"], Limits(workers=args.workers))
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.05)

    latencies: dict[str, list[float]] = {"fetch": [], "solve": []}
    failures: list[str] = []
    positions = small_positions(20)
    start = time.monotonic()

    async def run_all() -> None:
        stop = time.monotonic() + args.seconds
        await asyncio.gather(*(client(f"http://127.0.0.1:{port}", stop, [p.id for p in puzzles], positions,
                                      latencies, failures, args.max_requests) for _ in range(args.clients)))

    asyncio.run(run_all())
    elapsed = time.monotonic() - start
    server.should_exit = True
    thread.join(10)

    total = sum(len(v) for v in latencies.values())
    print(f"{args.clients} clients, {elapsed:.1f} s, {total} requests, {total / elapsed:.0f} requests/s, "
          f"{len(failures)} failed")
    for kind, values in latencies.items():
        if values:
            print(f"  {kind:<6} {len(values):>6} requests  p50 {statistics.median(values):7.1f} ms  "
                  f"p90 {percentile(values, 0.9):7.1f} ms  p99 {percentile(values, 0.99):7.1f} ms")
    for line in failures[:5]:
        print("  failure:", line)
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
