"""The HTTP service: analysis and puzzles over the Python API (an ASGI app made by ``create_app``).

Solves run in a process pool, off the event loop, each with a node and time
budget; a position too big for the budget gets 503 and the worker is free
again when the engine stops itself. Bad input is 400 (malformed) or 422 (a
well-formed but illegal position or move), always as ``{"error": "..."}``.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import uuid
from concurrent.futures import ProcessPoolExecutor
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, AsyncIterator

from fastapi import FastAPI, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException
from pydantic import BaseModel, ConfigDict, Field

from solver import Position, solve
from solver.errors import PositionError
from solver.search import engine_name

from .. import puzzle as collection_io
from ..referee import AttemptError, judge
from ..render import position_svg, svg
from .db import Store

STATIC = Path(__file__).parent / "static"


@dataclass(frozen=True)
class Limits:
    max_body: int = 64 * 1024        # bytes in a request body
    max_nodes: int = 20_000_000      # engine nodes per solve
    max_seconds: float = 5.0         # engine time per solve
    reference_tricks: int = 4        # without the engine: the most tricks left that the reference may take on
    workers: int = 2                 # solver processes


class PositionIn(BaseModel):
    """A FORMAT.md position (cards may be given leniently)."""

    model_config = ConfigDict(extra="allow", json_schema_extra={"example": {
        "game": "minimo", "options": {"trump": "NT"},
        "hands": [["SA", "S7", "HK"], ["SQ", "H9", "D9"], ["S8", "H7", "CA"]]}})
    game: str
    options: dict[str, Any] | None = None
    hands: list[list[str] | str]
    leader: int = 0
    trick: list[str] | str = Field(default_factory=list)
    taken: list[list[str] | str] | None = None
    objective: dict[str, Any] | None = None


class AttemptIn(BaseModel):
    moves: list[str] = Field(default_factory=list, description="the team's moves from the start, in order")
    session: str | None = Field(default=None, max_length=64, description="an anonymous session id (made if absent)")


class BudgetExceeded(Exception):
    """The search did not finish within the budget."""


# --- work done in the solver processes (module-level so that it pickles) ------------

def _warm() -> None:
    import solver.search  # noqa: F401


def _solve_job(position: dict[str, Any], engine: str, max_nodes: int, max_seconds: float) -> dict[str, Any]:
    result = solve(Position.from_json(position), engine=engine, max_nodes=max_nodes,  # type: ignore[arg-type]
                   max_seconds=max_seconds)
    if not result.complete:
        raise BudgetExceeded(f"the search did not finish within {max_nodes} nodes / {max_seconds} s")
    return result.to_json()


def _table_job(position: dict[str, Any], engine: str) -> Any:
    from solver.table import tables
    return [t.to_json() for t in tables(Position.from_json(position), engine=engine)]  # type: ignore[arg-type]


def _judge_job(puzzle: dict[str, Any], moves: list[str], engine: str) -> dict[str, Any]:
    return judge(collection_io.Puzzle.from_dict(puzzle), moves, engine).to_json()


# --- the app --------------------------------------------------------------------------

def error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


def create_app(db: str | Path = "openhand.db", collections: list[str | Path] = (), limits: Limits = Limits(),
               engine: str = "auto") -> FastAPI:
    """The service over the database ``db``, importing ``collections`` (puzzle files) at start."""
    store = Store(db)
    for path in collections:
        store.import_puzzles(collection_io.load(path).puzzles)
    state: dict[str, Any] = {}

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        state["pool"] = ProcessPoolExecutor(limits.workers, mp_context=multiprocessing.get_context("spawn"))
        # Start the workers now (importing the solver), not on the first user's click.
        await asyncio.gather(*(asyncio.wrap_future(state["pool"].submit(_warm)) for _ in range(limits.workers)))
        try:
            yield
        finally:
            state["pool"].shutdown(cancel_futures=True)

    app = FastAPI(title="openhand", version="0.1.0", lifespan=lifespan,
                  description="Double-dummy analysis and puzzles for Minimo, Minimisere, Mittlere Jass, "
                              "Moon and bridge. Positions and results are FORMAT.md JSON.")
    app.state.store = store
    app.state.limits = limits

    async def in_pool(func: Any, *args: Any) -> Any:
        loop = asyncio.get_running_loop()
        if "pool" not in state:  # served without the lifespan (some test transports skip it)
            state["pool"] = ProcessPoolExecutor(limits.workers, mp_context=multiprocessing.get_context("spawn"))
        future = loop.run_in_executor(state["pool"], func, *args)
        # The engine stops itself at max_seconds; the margin covers start-up and the reply.
        return await asyncio.wait_for(future, timeout=limits.max_seconds * 3 + 10)

    def read_position(body: PositionIn) -> Position:
        pos = Position.from_json(body.model_dump(exclude_unset=True))
        if engine_name(engine) == "reference" and pos.tricks_left() > limits.reference_tricks:  # type: ignore[arg-type]
            raise TooBig(f"{pos.tricks_left()} tricks left is too big for the pure-Python solver on this "
                         f"server (at most {limits.reference_tricks}; the compiled engine is not built)")
        return pos

    # --- errors -------------------------------------------------------------------------

    @app.exception_handler(RequestValidationError)
    async def malformed(request: Request, exc: RequestValidationError) -> JSONResponse:
        first = exc.errors()[0] if exc.errors() else {}
        where = ".".join(str(p) for p in first.get("loc", ()) if p != "body")
        return error(400, f"malformed request{f' at {where}' if where else ''}: {first.get('msg', 'invalid')}")

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        return error(exc.status_code, str(exc.detail))

    @app.exception_handler(PositionError)
    async def illegal(request: Request, exc: PositionError) -> JSONResponse:
        return error(422, str(exc))

    @app.exception_handler(AttemptError)
    async def bad_attempt(request: Request, exc: AttemptError) -> JSONResponse:
        return error(422, str(exc))

    @app.exception_handler(TooBig)
    async def too_big(request: Request, exc: TooBig) -> JSONResponse:
        return error(422, str(exc))

    @app.exception_handler(BudgetExceeded)
    async def budget(request: Request, exc: BudgetExceeded) -> JSONResponse:
        return error(503, str(exc))

    @app.exception_handler(asyncio.TimeoutError)
    async def timeout(request: Request, exc: asyncio.TimeoutError) -> JSONResponse:
        return error(503, "the solver took too long; try a smaller position")

    # --- analysis -------------------------------------------------------------------------

    @app.post("/api/solve", summary="Solve a position: value, every legal move's value, best moves, a line")
    async def api_solve(body: PositionIn) -> dict[str, Any]:
        pos = read_position(body)
        return await in_pool(_solve_job, pos.to_json(), engine, limits.max_nodes, limits.max_seconds)

    @app.post("/api/table", summary="Double-dummy tables of a deal (every contract and seat)")
    async def api_table(body: PositionIn) -> list[dict[str, Any]]:
        pos = read_position(body)
        return await in_pool(_table_job, pos.to_json(), engine)

    # --- puzzles ----------------------------------------------------------------------------

    @app.get("/api/puzzles", summary="Puzzles, filtered and paged (no answers)")
    def api_puzzles(game: str | None = None, variant: str | None = None,
                    level: int | None = Query(None, ge=1, le=5), tag: str | None = None,
                    page: int = Query(1, ge=1, le=100_000), per_page: int = Query(20, ge=1, le=100)) -> dict[str, Any]:
        total, items = store.list_puzzles(game, variant, level, tag, page, per_page)
        return {"total": total, "page": page, "per_page": per_page, "items": items}

    def find(puzzle_id: str) -> tuple[collection_io.Puzzle, dict[str, Any]]:
        found = store.get_puzzle(puzzle_id)
        if found is None:
            raise PuzzleNotFound(puzzle_id)
        return found

    @app.exception_handler(PuzzleNotFound)
    async def not_found(request: Request, exc: PuzzleNotFound) -> JSONResponse:
        return error(404, f"no puzzle {exc.args[0]!r}")

    @app.get("/api/puzzles/{puzzle_id}", summary="A puzzle's position and task (not its answer)")
    def api_puzzle(puzzle_id: str) -> dict[str, Any]:
        puzzle, info = find(puzzle_id)
        game = puzzle.to_position().game
        # A single-dummy puzzle shows its view (hidden cards as counts), never the deal behind it.
        shown = puzzle.position if puzzle.single_dummy is None else puzzle.single_dummy["view"]
        return {**info, "position": shown, "player": puzzle.player,
                "team": list(puzzle.task().team(game)), "task": puzzle.task().describe(game),
                "attempts": store.attempts(puzzle.id)}

    @app.post("/api/puzzles/{puzzle_id}/attempt",
              summary="Judge the team's moves so far: right or wrong, the defence's reply, the answer at the end")
    async def api_attempt(puzzle_id: str, body: AttemptIn) -> dict[str, Any]:
        puzzle, _ = find(puzzle_id)
        session = body.session or uuid.uuid4().hex
        outcome = await in_pool(_judge_job, puzzle.to_dict(), body.moves, engine)
        out = {**outcome, "session": session}
        if body.moves:
            ratings = store.record_attempt(puzzle.id, session, body.moves, outcome["correct"], outcome["finished"])
            if ratings:
                out["ratings"] = ratings
        if outcome["finished"]:
            out["answer"] = {"value": puzzle.value, "key": puzzle.key, "moves": puzzle.moves, "line": puzzle.line}
        return out

    @app.get("/api/puzzles/{puzzle_id}/svg", summary="The puzzle's position drawn as SVG",
             response_class=Response, responses={200: {"content": {"image/svg+xml": {}}}})
    def api_svg(puzzle_id: str) -> Response:
        puzzle, _ = find(puzzle_id)
        return Response(svg(puzzle), media_type="image/svg+xml")

    @app.post("/api/svg", summary="Any position drawn as SVG, seen from a seat",
              response_class=Response, responses={200: {"content": {"image/svg+xml": {}}}})
    def api_position_svg(body: PositionIn, viewer: int = Query(0, ge=0, le=3)) -> Response:
        pos = Position.from_json(body.model_dump(exclude_unset=True))
        return Response(position_svg(pos, viewer % pos.n_players), media_type="image/svg+xml")

    # --- the page ---------------------------------------------------------------------------

    @app.get("/", include_in_schema=False)
    def index() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    app.add_middleware(BodyLimit, limit=limits.max_body)
    return app


class TooBig(Exception):
    """A position the server will not solve with the engine it has."""


class PuzzleNotFound(Exception):
    pass


class BodyLimit:
    """ASGI middleware: refuse request bodies over ``limit`` bytes with 413, declared or streamed."""

    def __init__(self, app: Any, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > self.limit:
            return await self._refuse(send)
        # Read the whole body first (it is small by construction), so that a
        # streamed body over the limit is refused before the app sees any of it.
        body, more = b"", True
        while more:
            message = await receive()
            if message["type"] != "http.request":
                break
            body += message.get("body", b"")
            more = message.get("more_body", False)
            if len(body) > self.limit:
                return await self._refuse(send)
        replayed = False

        async def replay() -> Any:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    async def _refuse(self, send: Any) -> None:
        body = b'{"error": "request body too large (limit %d bytes)"}' % self.limit
        await send({"type": "http.response.start", "status": 413,
                    "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body})
