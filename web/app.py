"""The web page over HTTP: Starlette routes from URLs to `Service`, pages and assets from `static/`.

Every /api answer is JSON. Bad input is a 4xx whose body is `{"error": "<one line>"}`,
the message the command line prints for the same mistake; a server error is a 500 with
one line too, never a traceback. The agents' work runs in worker threads, so one slow
request does not hold up the others.
"""

from __future__ import annotations

import json
import logging
import socket
from pathlib import Path
from typing import Any, Awaitable, Callable

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from search import UserError, Wordle

from .service import DEFAULT_RESULTS, Busy, NotFound, Service

STATIC = Path(__file__).resolve().parent / "static"
PAGES = {"/": "play.html", "/watch": "watch.html", "/assist": "assist.html", "/review": "review.html",
         "/results": "results.html", "/api": "api.html"}
#: Largest request body read, in bytes (a whole game's steps take a few hundred).
MAX_BODY = 64 * 1024
log = logging.getLogger("wordle-arena.web")


def status_of(error: UserError) -> int:
    """The HTTP status of a UserError: 404 for what does not exist, 503 when busy, else 400."""
    return 404 if isinstance(error, NotFound) else 503 if isinstance(error, Busy) else 400


def error_response(message: str, status: int) -> JSONResponse:
    """A one-line error as JSON."""
    return JSONResponse({"error": message}, status_code=status)


async def request_data(request: Request) -> dict[str, Any]:
    """The request's fields: the query string for GET, else the JSON object in the body."""
    if request.method == "GET":
        return dict(request.query_params)
    body = await request.body()
    if len(body) > MAX_BODY:
        raise UserError(f"the request body is {len(body)} bytes; the API reads at most {MAX_BODY}")
    if not body.strip():
        return {}
    try:
        data = json.loads(body)
    except (ValueError, UnicodeDecodeError) as error:
        raise UserError(f"the request body is not JSON ({str(error).splitlines()[0]})") from None
    if not isinstance(data, dict):
        raise UserError("the request body must be a JSON object of fields")
    return data


def api(work: Callable[[dict[str, Any]], Any]) -> Callable[[Request], Awaitable[Response]]:
    """An endpoint running `work(fields)` in a worker thread and answering its dict as JSON."""
    async def endpoint(request: Request) -> Response:
        """Read, work, answer; UserError becomes its 4xx or 503."""
        try:
            data = await request_data(request)
            return JSONResponse(await run_in_threadpool(work, data))
        except UserError as error:
            return error_response(str(error), status_of(error))
    return endpoint


def create_app(game: Wordle | None = None, results: str | Path = DEFAULT_RESULTS, workers: int = 2) -> Starlette:
    """The web application over `game` (default: the shipped lists), showing the tournament in `results`.

    Args:
        game: the game to serve (its pattern matrix is shared by every request).
        results: a tournament run folder holding summary.json.
        workers: how many agents may think at once.
    """
    service = Service(game if game is not None else Wordle(), results, workers)

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
    app = Starlette(routes=routes, exception_handlers={HTTPException: http_error, Exception: server_error})
    app.state.service = service
    return app


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
    """Serve `app` on a socket from `listen` until Ctrl-C (uvicorn shuts down cleanly on SIGINT and SIGTERM)."""
    import uvicorn

    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    announce(f"wordle-arena: serving on http://{shown}:{port}/ (play, watch, assist, results; API at /api); "
             "Ctrl-C stops")
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", access_log=False))
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:  # uvicorn shuts down on Ctrl-C, then raises the signal again for the caller
        pass
    finally:
        sock.close()
    announce("wordle-arena: stopped")
