"""The web page over HTTP: Starlette routes from URLs to `Service`, pages and assets from `static/`.

Every /api answer is JSON. Bad input is a 4xx whose body is `{"error": "<one line>"}`,
the message the command line prints for the same mistake; a server error is a 500 with
one line too, never a traceback. The agents' work runs in worker processes (`workers.py`),
each request under a time budget past which its worker is killed, so no request holds up
the others or the server's stop. Bodies, query strings, nesting and slow clients are
bounded before anything is read in full; a JSON body is read only as application/json (415
otherwise), and text holding a lone surrogate is a 400. Only the server's own pages may drive
it (`guards.RequestGuard`: Host allowlist, same-origin checks, CSP and frame options).

Cheap requests (pages, static files, feedback, a new game, an honest guess) never wait
behind expensive ones (an agent watched or consulted, a review, a guess against an
Indicator): those run on threads of their own, at most `workers` + EXPENSIVE_WAITING at
once; one more is answered 503 at once in one line instead of queueing.

A review and an advice run as jobs (web/jobs.py): their values are the command line's, decided
by node budgets, so they are not cut at a time budget. The request waits for its job at most
'wait' seconds (a field of the request; default: until it is done); if the job is not done by
then the answer is HTTP 202 with {"job": ID, "done": false, ...what is known so far}, and
`GET /api/jobs/ID?wait=S` answers the same way until the job is done, then with the answer
itself (as if the first request had waited).
"""

from __future__ import annotations

import json

import anyio
import logging
import socket
import threading
import time
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

from .guards import RequestGuard, allowed_hosts
from .jobs import Jobs
from .service import DEFAULT_RESULTS, JOB_SECONDS, REQUEST_SECONDS, RequestError, Service, shown, status_of
from .workers import Busy

STATIC = Path(__file__).resolve().parent / "static"
PAGES = {"/": "play.html", "/watch": "watch.html", "/assist": "assist.html", "/review": "review.html",
         "/results": "results.html", "/api": "api.html", "/variants": "variants.html"}
#: Largest request body read, in bytes (a whole game's steps take a few hundred).
MAX_BODY = 64 * 1024
#: Largest screenshot uploaded to /api/review/screenshot, in bytes (a phone's full-screen PNG takes a few megabytes).
MAX_UPLOAD = 10 * 2**20
#: The media types a screenshot is read as (a cross-site form cannot send one, nor a page without the server's consent).
IMAGE_TYPE_PREFIX = "image/"
#: Deepest nesting of arrays and objects read in a body.
MAX_NESTING = 8
#: Bodies nesting deeper than this are refused before json.loads; fewer brackets than this in all are not scanned.
RAW_NESTING_SCAN = 256
#: Longest query string read, in bytes (414 past it); uvicorn reads request lines up to MAX_REQUEST_LINE.
MAX_QUERY = 8 * 1024
MAX_REQUEST_LINE = 4 * 1024 * 1024
#: How long a client may take to send its body (its headers: guards.HEADER_SECONDS).
BODY_SECONDS = 10.0
#: Expensive requests that may wait for a worker, per worker, beside those running; one more is a 503 at once.
EXPENSIVE_WAITING = 4
#: The media type the API reads bodies as; a cross-site form cannot send it.
JSON_TYPE = "application/json"
#: How often a request waiting for its job looks at it (seconds).
JOB_LOOK_SECONDS = 0.1
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
    """A one-line error as JSON, echoed input cut short (anything that is not text, escaped)."""
    text = clip(message).encode("utf-8", "backslashreplace").decode("utf-8")
    return JSONResponse({"error": text}, status_code=status)


def nesting(value: Any) -> int:
    """How deeply JSON arrays and objects nest in `value` (0 for a plain value), without recursion."""
    deepest, level = 0, [(value, 0)]
    while level:
        item, depth = level.pop()
        if isinstance(item, (list, dict)):
            deepest = max(deepest, depth + 1)
            level.extend((inner, depth + 1) for inner in (item.values() if isinstance(item, dict) else item))
    return deepest


def raw_nesting(body: bytes, scan_from: int = RAW_NESTING_SCAN) -> int:
    """How deeply arrays and objects nest in a JSON text, read without parsing (brackets inside strings not
    counted): json.loads recurses once a level, and a RecursionError raised that deep can surface again where
    nothing catches it (a finalizer run at the same depth). Bodies with `scan_from` brackets or fewer are not
    scanned (0)."""
    if body.count(b"[") + body.count(b"{") <= scan_from:
        return 0
    deepest = depth = 0
    in_string = escaped = False
    for byte in body:
        if in_string:
            escaped, in_string = (False, True) if escaped else (byte == 0x5C, byte != 0x22)
        elif byte == 0x22:
            in_string = True
        elif byte in (0x5B, 0x7B):
            depth += 1
            deepest = max(deepest, depth)
        elif byte in (0x5D, 0x7D):
            depth -= 1
    return deepest


def lone_surrogate(value: Any) -> str | None:
    """The first text in `value` (keys included) holding a lone surrogate, which is no character, as an escape; or
    None. JSON's \\ud800 escapes decode to one, and nothing can encode it again."""
    level = [value]
    while level:
        item = level.pop()
        if isinstance(item, dict):
            level.extend(item.keys())
            level.extend(item.values())
        elif isinstance(item, list):
            level.extend(item)
        elif isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError as error:
                return item[error.start:error.end].encode("unicode_escape").decode()
    return None


def media_type(request: Request) -> str:
    """The request's Content-Type without its parameters, lower case ('' when absent)."""
    return request.headers.get("content-type", "").split(";")[0].strip().lower()


async def read_body(request: Request, most: int = MAX_BODY) -> bytes:
    """The request's body, refused (413) past `most` bytes before more is read, and (408) if it takes too long."""
    declared = request.headers.get("content-length", "")
    if declared.isascii() and declared.isdigit() and int(declared) > most:
        raise HTTPError(413, f"the request body is {int(declared)} bytes; the API reads at most {most}")
    body = bytearray()
    try:
        with anyio.fail_after(BODY_SECONDS):
            async for chunk in request.stream():
                body += chunk
                if len(body) > most:
                    raise HTTPError(413, f"the request body is over {most} bytes; the API reads at most {most}")
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
    if media_type(request) != JSON_TYPE:
        raise HTTPError(415, f"the API reads a body only as Content-Type: {JSON_TYPE}, got "
                             f"{json.dumps(media_type(request) or 'none')}")
    if raw_nesting(body) > RAW_NESTING_SCAN:
        raise UserError("the request body is not JSON (nested too deeply)")
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
    if (escaped := lone_surrogate(data)) is not None:
        raise UserError(f"the request body holds a lone surrogate ({escaped}), which is not text")
    return data


class Admission:
    """Expensive requests on threads of their own: at most `most` at once, the one past it refused at once."""

    def __init__(self, running: int, waiting: int):
        """Admit `running` + `waiting` requests (the worker pool runs `running`; the rest wait their turn there)."""
        self.most = running + waiting
        self.limiter = anyio.CapacityLimiter(self.most)
        self.inside = 0

    async def run(self, work: Callable[[dict[str, Any]], Any], data: dict[str, Any]) -> Any:
        """`work(data)` on this admission's threads, or Busy when `most` are already in."""
        if self.inside >= self.most:
            raise Busy(f"the server is busy: {self.inside} requests are running or waiting for an agent; "
                       "try again shortly")
        self.inside += 1  # the event loop's thread alone counts: no lock needed
        try:
            return await anyio.to_thread.run_sync(work, data, limiter=self.limiter)
        finally:
            self.inside -= 1


def wait_field(data: dict[str, Any]) -> float:
    """The request's 'wait' (seconds to wait for its job before answering with what is known so far), taken out
    of `data`; absent: JOB_SECONDS (until the job is done)."""
    value = data.pop("wait", None)
    if value is None or value == "":
        return JOB_SECONDS
    seconds = value
    if isinstance(value, str):
        try:
            seconds = float(value)
        except ValueError:
            pass
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not 0 <= seconds <= JOB_SECONDS:
        raise RequestError(f"'wait' must be a number of seconds from 0 to {JOB_SECONDS:g}, got {shown(value)}")
    return float(seconds)


async def job_answer(request: Request, jobs: Jobs, key: str, wait: float) -> Response:
    """The job's answer once it is done (its result, or its error in one line), else after `wait` seconds HTTP 202
    with its id and its latest report; waiting ends early if the client goes away."""
    job = jobs.get(key)
    deadline = anyio.current_time() + wait
    while not job.done.is_set() and anyio.current_time() < deadline:
        job.asked = time.monotonic()
        await anyio.sleep(JOB_LOOK_SECONDS)
        if await request.is_disconnected():
            break
    job.asked = time.monotonic()
    if not job.done.is_set():
        report = job.report if isinstance(job.report, dict) else {}
        return JSONResponse({**report, "job": job.key, "done": False, "seconds": round(job.seconds(), 1)},
                            status_code=202)
    if job.error is not None:
        if isinstance(job.error, UserError):
            return error_response(str(job.error), status_of(job.error))
        raise job.error
    return JSONResponse(job.result)


def job_api(work: Callable[..., Any], jobs: Jobs) -> Callable[[Request], Awaitable[Response]]:
    """An endpoint starting `work(fields, report, keep_going)` as a job and answering as `job_answer` does."""
    async def endpoint(request: Request) -> Response:
        """Read, start, wait a while, answer; UserError becomes its 4xx or 503."""
        try:
            data = await request_data(request)
            wait = wait_field(data)
            job = jobs.start(lambda report, keep_going: work(data, report, keep_going))
            return await job_answer(request, jobs, job.key, wait)
        except HTTPError as error:
            return error_response(error.message, error.status)
        except UserError as error:
            return error_response(str(error), status_of(error))
    return endpoint


def api(work: Callable[..., Any], admission: Admission | None = None,
        expensive: Callable[[dict[str, Any]], bool] = lambda _: True,
        by_client: bool = False) -> Callable[[Request], Awaitable[Response]]:
    """An endpoint running `work(fields)` in a thread and answering its dict as JSON: on `admission`'s threads when
    given and `expensive(fields)`, else on the cheap requests' threads; `by_client`: `work(fields, address)`."""
    async def endpoint(request: Request) -> Response:
        """Read, work, answer; UserError becomes its 4xx or 503."""
        try:
            data = await request_data(request)
            if by_client:
                return JSONResponse(await run_in_threadpool(work, data, request.client.host if request.client else ""))
            if admission is not None and expensive(data):
                return JSONResponse(await admission.run(work, data))
            return JSONResponse(await run_in_threadpool(work, data))
        except HTTPError as error:
            return error_response(error.message, error.status)
        except UserError as error:
            return error_response(str(error), status_of(error))
    return endpoint


def create_app(game: Wordle | None = None, results: str | Path = DEFAULT_RESULTS, workers: int = 2,
               request_seconds: float = REQUEST_SECONDS, host: str | None = None,
               guesses: str | Path | None = None) -> Starlette:
    """The web application over `game` (default: the shipped lists), showing the tournament in `results`.

    Args:
        game: the game to serve (its pattern matrix is shared by every request).
        guesses: the guess list the answer models of Assist and Review are built over, by name or file (default:
            the served game's own, where it is a shipped list by name).
        results: a tournament run folder holding summary.json.
        workers: how many agents may think at once, each in a worker process.
        request_seconds: the most an agent may work for one request before its worker is killed.
        host: the address `serve --host` listens on: its name joins the Host names answered.
    """
    service = Service(game if game is not None else Wordle(), results, workers, processes=True,
                      request_seconds=request_seconds, guesses=guesses)
    admission = Admission(workers, EXPENSIVE_WAITING * workers)
    jobs = Jobs(workers + EXPENSIVE_WAITING * workers)
    # the same for every request: read once here, before the server listens, so the agent registry's first read (its
    # modules imported) never falls on a request, as it did on /api/agents behind a queue of expensive ones
    agents = service.agents_info()

    async def chart(request: Request) -> Response:
        """One tournament chart as SVG."""
        try:
            text = await run_in_threadpool(service.chart, request.path_params["name"])
        except UserError as error:
            return error_response(str(error), status_of(error))
        return Response(text, media_type="image/svg+xml")

    async def review_screenshot(request: Request) -> Response:
        """POST /api/review/screenshot: the body a picture of the board (Content-Type image/...), review's options in
        the query string; answered as /api/review, with what was read under 'screenshot'."""
        try:
            if not media_type(request).startswith(IMAGE_TYPE_PREFIX):
                raise HTTPError(415, "a screenshot is read only as a picture's body (Content-Type image/png, "
                                     f"image/jpeg, ...), got {json.dumps(media_type(request) or 'none')}")
            image = await read_body(request, MAX_UPLOAD)
            fields: dict[str, Any] = dict(request.query_params)
            wait = wait_field(fields)
            job = jobs.start(lambda report, keep_going: service.review_screenshot({**fields, "image": image}, report,
                                                                                  keep_going))
            return await job_answer(request, jobs, job.key, wait)
        except HTTPError as error:
            return error_response(error.message, error.status)
        except UserError as error:
            return error_response(str(error), status_of(error))

    async def job(request: Request) -> Response:
        """GET /api/jobs/ID?wait=S: a review's or an advice's answer once done, else what is known so far (202);
        DELETE /api/jobs/ID: stop it (the page no longer wants it)."""
        try:
            fields: dict[str, Any] = dict(request.query_params)
            wait = wait_field(fields)
            if fields:
                raise RequestError(f"a job is asked about with 'wait' alone, got {shown(sorted(fields)[0])}")
            if request.method == "DELETE":
                stopped = jobs.stop(request.path_params["key"])
                return JSONResponse({"job": stopped.key, "stopped": True, "done": stopped.done.is_set()})
            return await job_answer(request, jobs, request.path_params["key"], wait)
        except UserError as error:
            return error_response(str(error), status_of(error))

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
        Route("/api/agents", api(lambda _: agents)),
        Route("/api/feedback", api(service.feedback), methods=["GET", "POST"]),
        Route("/api/play/new", api(service.new_game, by_client=True), methods=["POST"]),
        Route("/api/play/guess", api(service.guess, admission, service.against_indicator), methods=["POST"]),
        Route("/api/watch", api(service.watch, admission), methods=["GET", "POST"]),
        Route("/api/advise", job_api(service.advise, jobs), methods=["GET", "POST"]),
        Route("/api/review", job_api(service.review, jobs), methods=["POST"]),
        Route("/api/jobs/{key}", job, methods=["GET", "DELETE"]),
        Route("/api/review/screenshot", review_screenshot, methods=["POST"]),
        Route("/api/variant/new", api(service.variants.new_game, by_client=True), methods=["POST"]),
        Route("/api/variant/guess", api(service.variants.guess), methods=["POST"]),
        Route("/api/variant/advise", api(service.variant_advise, admission), methods=["POST"]),
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

    app = GuardedStarlette(routes=routes, exception_handlers={HTTPException: http_error, Exception: server_error},
                           lifespan=lifespan, middleware=[Middleware(RefuseLongQueries)])
    app.state.hosts = allowed_hosts(host)
    app.state.service = service
    return app


class GuardedStarlette(Starlette):
    """Starlette with `RequestGuard` outside everything, its 500s included (app.state.hosts: the Host names)."""

    def build_middleware_stack(self) -> Any:
        """Starlette's stack inside the guard."""
        return RequestGuard(super().build_middleware_stack(), self.state.hosts)


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
