"""The web page over HTTP: Starlette routes from URLs to `Service`, pages and assets from `static/`.

Every /api answer is JSON. Bad input is a 4xx whose body is `{"error": "<one line>"}`,
the message the command line prints for the same mistake; a server error is a 500 with
one line too, never a traceback. The agents' work runs in worker processes (`workers.py`),
each request under a time budget past which its worker is killed, so no request holds up
the others or the server's stop. Bodies, query strings, nesting and slow clients are
bounded before anything is read in full.
"""

from __future__ import annotations

import json

import anyio
import logging
import socket
import threading
from pathlib import Path
from contextlib import asynccontextmanager
from typing import Any, AsyncIterator, Awaitable, Callable

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from plumbing.errors import UserError, clip
from wordle import Wordle

from .service import DEFAULT_RESULTS, REQUEST_SECONDS, Service, status_of

STATIC = Path(__file__).resolve().parent / "static"
PAGES = {"/": "play.html", "/watch": "watch.html", "/assist": "assist.html", "/review": "review.html",
         "/results": "results.html", "/api": "api.html"}
#: Largest request body read, in bytes (a whole game's steps take a few hundred).
MAX_BODY = 64 * 1024
#: Deepest nesting of arrays and objects read in a body.
MAX_NESTING = 8
#: Longest query string read, in bytes (414 past it); uvicorn reads request lines up to MAX_REQUEST_LINE.
MAX_QUERY = 8 * 1024
MAX_REQUEST_LINE = 4 * 1024 * 1024
#: How long a client may take to send its body (its headers: guards.HEADER_SECONDS).
BODY_SECONDS = 10.0
#: How long the server waits for requests in progress once told to stop (they end at once: their workers are killed).
STOP_SECONDS = 3
log = logging.getLogger("wordle-arena.web")


class HTTPError(Exception):
    """A request the server will not read (too large, too slow), with its 4xx status."""

    def __init__(self, status: int, message: str):
        """Keep the status beside the message."""
        super().__init__(message)
        self.status, self.message = status, message


def error_response(message: str, status: int) -> JSONResponse:
    """A one-line error as JSON, echoed input cut short."""
    return JSONResponse({"error": clip(message)}, status_code=status)


def nesting(value: Any) -> int:
    """How deeply JSON arrays and objects nest in `value` (0 for a plain value), without recursion."""
    deepest, level = 0, [(value, 0)]
    while level:
        item, depth = level.pop()
        if isinstance(item, (list, dict)):
            deepest = max(deepest, depth + 1)
            level.extend((inner, depth + 1) for inner in (item.values() if isinstance(item, dict) else item))
    return deepest


async def read_body(request: Request) -> bytes:
    """The request's body, refused (413) past MAX_BODY before more is read, and (408) if it takes too long."""
    declared = request.headers.get("content-length", "")
    if declared.isascii() and declared.isdigit() and int(declared) > MAX_BODY:
        raise HTTPError(413, f"the request body is {int(declared)} bytes; the API reads at most {MAX_BODY}")
    body = bytearray()
    try:
        with anyio.fail_after(BODY_SECONDS):
            async for chunk in request.stream():
                body += chunk
                if len(body) > MAX_BODY:
                    raise HTTPError(413, f"the request body is over {MAX_BODY} bytes; the API reads at most {MAX_BODY}")
    except TimeoutError:
        raise HTTPError(408, f"the request body took over {BODY_SECONDS:g} s to arrive") from None
    return bytes(body)


async def request_data(request: Request) -> dict[str, Any]:
    """The request's fields: the query string for GET, else the JSON object in the body."""
    if request.method == "GET":
        return dict(request.query_params)
    body = await read_body(request)
    if not body.strip():
        return {}
    try:
        data = json.loads(body)
    except (ValueError, UnicodeDecodeError, RecursionError) as error:
        reason = "nested too deeply" if isinstance(error, RecursionError) else str(error).splitlines()[0]
        raise UserError(f"the request body is not JSON ({reason})") from None
    if not isinstance(data, dict):
        raise UserError("the request body must be a JSON object of fields")
    if nesting(data) > MAX_NESTING:
        raise UserError(f"the request body nests arrays and objects over {MAX_NESTING} deep; the API's fields "
                        "nest at most 3 deep")
    return data


def api(work: Callable[[dict[str, Any]], Any]) -> Callable[[Request], Awaitable[Response]]:
    """An endpoint running `work(fields)` in a worker thread and answering its dict as JSON."""
    async def endpoint(request: Request) -> Response:
        """Read, work, answer; UserError becomes its 4xx or 503."""
        try:
            data = await request_data(request)
            return JSONResponse(await run_in_threadpool(work, data))
        except HTTPError as error:
            return error_response(error.message, error.status)
        except UserError as error:
            return error_response(str(error), status_of(error))
    return endpoint


def create_app(game: Wordle | None = None, results: str | Path = DEFAULT_RESULTS, workers: int = 2,
               request_seconds: float = REQUEST_SECONDS) -> Starlette:
    """The web application over `game` (default: the shipped lists), showing the tournament in `results`.

    Args:
        game: the game to serve (its pattern matrix is shared by every request).
        results: a tournament run folder holding summary.json.
        workers: how many agents may think at once, each in a worker process.
        request_seconds: the most an agent may work for one request before its worker is killed.
    """
    service = Service(game if game is not None else Wordle(), results, workers, processes=True,
                      request_seconds=request_seconds)

    async def chart(request: Request) -> Response:
        """One tournament chart as SVG."""
        try:
            text = await run_in_threadpool(service.chart, request.path_params["name"])
        except UserError as error:
            return error_response(str(error), status_of(error))
        return Response(text, media_type="image/svg+xml")

    def page(name: str) -> Callable[[Request], Awaitable[Response]]:
        """A route answering one of the static pages."""
        async def show(request: Request) -> Response:
            """The page's HTML."""
            return FileResponse(STATIC / name, media_type="text/html")
        return show

    async def http_error(request: Request, error: Exception) -> Response:
        """404, 405 and the like as one JSON line."""
        assert isinstance(error, HTTPException)
        message = {404: f"no such page or endpoint: {request.url.path}",
                   405: f"{request.method} is not allowed on {request.url.path}"}.get(error.status_code, error.detail)
        return error_response(message, error.status_code)

    async def server_error(request: Request, error: Exception) -> Response:
        """An unexpected failure: logged with its traceback, answered in one line."""
        log.exception("request %s %s failed", request.method, request.url.path)
        return error_response(f"internal error ({error.__class__.__name__}); the server log has the details", 500)

    routes = [
        *[Route(path, page(name)) for path, name in PAGES.items()],
        Route("/api/agents", api(lambda _: service.agents_info())),
        Route("/api/feedback", api(service.feedback), methods=["GET", "POST"]),
        Route("/api/play/new", api(service.new_game), methods=["POST"]),
        Route("/api/play/guess", api(service.guess), methods=["POST"]),
        Route("/api/watch", api(service.watch), methods=["GET", "POST"]),
        Route("/api/advise", api(service.advise), methods=["GET", "POST"]),
        Route("/api/review", api(service.review), methods=["POST"]),
        Route("/api/results", api(lambda _: service.results())),
        Route("/api/charts/{name}", chart),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        """Stop the worker processes when the server stops."""
        try:
            yield
        finally:
            service.close()

    app = Starlette(routes=routes, exception_handlers={HTTPException: http_error, Exception: server_error},
                    lifespan=lifespan, middleware=[Middleware(RefuseLongQueries)])
    app.state.service = service
    return app


class RefuseLongQueries:
    """ASGI middleware: a query string over MAX_QUERY bytes is answered 414 before anything reads it."""

    def __init__(self, app: Any):
        """Guard `app`."""
        self.app = app

    async def __call__(self, scope: dict, receive: Callable, send: Callable) -> None:
        """Answer 414, or pass the request on."""
        if scope["type"] == "http" and len(scope.get("query_string", b"")) > MAX_QUERY:
            await error_response(f"the query string is {len(scope['query_string'])} bytes; the API reads at most "
                                 f"{MAX_QUERY}", 414)(scope, receive, send)
            return
        await self.app(scope, receive, send)


def listen(host: str, port: int, backlog: int = 2048) -> socket.socket:
    """A socket listening on host:port, or a UserError saying why not (address in use, unknown host).

    It listens before uvicorn starts, so a client that connects as soon as the address is
    announced waits in the backlog instead of being refused.
    """
    try:
        family = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0][0]
        sock = socket.socket(family, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(backlog)
    except (OSError, OverflowError) as error:
        raise UserError(f"cannot listen on {host}:{port}: {getattr(error, 'strerror', None) or error}") from None
    return sock


def serve(app: Starlette, sock: socket.socket, announce: Callable[[str], None] = print) -> None:
    """Serve `app` on a socket from `listen` until one Ctrl-C or SIGTERM, which stops it within seconds.

    The first signal kills the agents' worker processes, so requests in progress answer 503 at
    once instead of holding the shutdown up, and uvicorn waits at most STOP_SECONDS for them.
    """
    import uvicorn

    from .guards import GuardedH11

    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    announce(f"wordle-arena: serving on http://{shown}:{port}/ (play, watch, assist, review, results; API at /api); "
             "Ctrl-C stops")
    service = app.state.service

    class Server(uvicorn.Server):
        """uvicorn's server, stopping the agents' workers as soon as it is told to stop."""

        def handle_exit(self, sig: int, frame: Any) -> None:
            """Kill the workers (in the background: a signal handler must not wait), then shut down as uvicorn does."""
            threading.Thread(target=service.close, name="wordle-arena-stop", daemon=True).start()
            super().handle_exit(sig, frame)

    config = uvicorn.Config(app, log_level="warning", access_log=False, http=GuardedH11,
                            timeout_graceful_shutdown=STOP_SECONDS, h11_max_incomplete_event_size=MAX_REQUEST_LINE)
    server = Server(config)
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:  # uvicorn shuts down on Ctrl-C, then raises the signal again for the caller
        pass
    finally:
        service.close()
        sock.close()
    announce("wordle-arena: stopped")
