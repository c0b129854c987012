"""Guards in front of the web page: only requests its own pages could make, and no slow client holding a connection.

`RequestGuard` (ASGI middleware) answers only Host names on its allowlist (localhost,
127.0.0.1, [::1] and what `serve --host` names: a page served from any other name, as DNS
rebinding makes one, is refused with 421); refuses state-changing and expensive requests
sent by another origin's page (403, by Origin and Sec-Fetch-Site; clients that are not
browsers send neither and are served); and sets a Content-Security-Policy and frame
options on every answer, with redirects to a path, never to the request's Host.

`GuardedH11`: uvicorn times out idle keep-alive connections, but a client that sends its
headers a byte at a time keeps its connection (and a file descriptor) forever; here it is
closed once HEADER_SECONDS pass without complete headers.
"""

from __future__ import annotations

import asyncio
import json
import socket
from typing import Any, Callable
from urllib.parse import urlsplit

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

#: How long a client may take to send a request line and its headers.
HEADER_SECONDS = 10.0


class GuardedH11(H11Protocol):
    """H11Protocol closing a connection whose request headers are not complete within HEADER_SECONDS."""

    header_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: Any) -> None:  # type: ignore[override]
        """Start the headers' deadline with the connection."""
        super().connection_made(transport)
        self.arm()

    def arm(self) -> None:
        """(Re)start the deadline for the next request's headers."""
        self.disarm()
        self.header_timer = self.loop.call_later(HEADER_SECONDS, self.too_slow)

    def disarm(self) -> None:
        """Stop the deadline."""
        if self.header_timer is not None:
            self.header_timer.cancel()
            self.header_timer = None

    def data_received(self, data: bytes) -> None:
        """Read as uvicorn does; once a request's headers are in, its deadline is met."""
        super().data_received(data)
        if self.conn.their_state is not h11.IDLE:
            self.disarm()

    def on_response_complete(self) -> None:
        """A response sent: the next request on this connection gets its own deadline."""
        super().on_response_complete()
        self.arm()

    def connection_lost(self, exc: Exception | None) -> None:
        """Drop the deadline with the connection."""
        self.disarm()
        super().connection_lost(exc)

    def too_slow(self) -> None:
        """Close a connection that did not send its headers in time."""
        self.header_timer = None
        if not self.transport.is_closing():
            self.transport.close()


#: The Host names every server answers to; `serve --host` adds its own.
LOCAL_HOSTS = ("localhost", "127.0.0.1", "::1")
#: Addresses that listen everywhere: the machine's own names and addresses are added for them.
WILDCARDS = ("0.0.0.0", "::", "")
#: Requests another origin's page must not make, whatever their method (expensive); every other method than GET and
#: HEAD is guarded too (it changes state or costs work).
GUARDED_PATHS = ("/api/advise", "/api/watch", "/api/review", "/api/play/", "/api/jobs/")
#: What a fetch from the page itself sends as Sec-Fetch-Site ("none": typed in the address bar).
OWN_FETCH_SITES = ("same-origin", "none")
#: Scripts, styles, images and requests from this server only; no plugins, no framing, no other base or form target.
#: Style attributes are allowed (a few inputs are sized by one); style elements and scripts are not.
CONTENT_SECURITY_POLICY = ("default-src 'self'; script-src 'self'; style-src 'self'; style-src-attr 'unsafe-inline'; "
                           "img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; "
                           "form-action 'self'; frame-ancestors 'none'")
SECURITY_HEADERS = [(b"content-security-policy", CONTENT_SECURITY_POLICY.encode()), (b"x-frame-options", b"DENY"),
                    (b"x-content-type-options", b"nosniff"), (b"referrer-policy", b"same-origin")]


def host_name(host: str) -> str | None:
    """The name in a Host header or an origin's netloc, lower case, without port or brackets (None: not a host).

    >>> host_name("LocalHost:8000"), host_name("[::1]:80"), host_name("a@b"), host_name("x:y")
    ('localhost', '::1', None, None)
    """
    host = host.strip().lower()
    if host.startswith("["):
        name, _, rest = host[1:].partition("]")
        port = rest.removeprefix(":") if rest.startswith(":") else None if rest else ""
    else:
        name, _, port = host.partition(":")
    if port is None or (port and not (port.isascii() and port.isdigit())) or not name or "@" in name or "/" in name:
        return None
    return name


def allowed_hosts(listen_host: str | None = None) -> frozenset[str]:
    """The Host names a server listening on `listen_host` answers to: the local ones, that host, and for a wildcard
    address the machine's own name and addresses."""
    names = set(LOCAL_HOSTS)
    if listen_host is not None and listen_host not in WILDCARDS:
        names.add(host_name(listen_host if ":" not in listen_host or listen_host.startswith("[")
                            else f"[{listen_host}]") or listen_host.lower())
    elif listen_host is not None:
        machine = socket.gethostname().lower()
        names.update({machine, socket.getfqdn().lower()})
        try:
            names.update(str(info[4][0]).lower() for info in socket.getaddrinfo(machine, None))
        except OSError:
            pass
    return frozenset(names)


def guarded(method: str, path: str) -> bool:
    """Whether another origin's page must not make this request: it changes state or costs an agent's work."""
    return method not in ("GET", "HEAD") or path.startswith(GUARDED_PATHS)


def foreign_origin(headers: dict[str, str]) -> str | None:
    """Why a request comes from another origin's page (its Origin or Sec-Fetch-Site says so), or None."""
    site = headers.get("sec-fetch-site")
    if site is not None and site not in OWN_FETCH_SITES:
        return f"Sec-Fetch-Site is {json.dumps(site)[:40]}"
    origin = headers.get("origin")
    if origin is None:
        return None
    parts = urlsplit(origin) if origin != "null" else None
    if parts is None or parts.scheme != "http" or parts.netloc.lower() != headers.get("host", "").strip().lower():
        return f"it comes from the page at {json.dumps(origin)[:80]}"
    return None


class RequestGuard:
    """ASGI middleware: a Host off the allowlist is 421, another origin's guarded request 403, each in one JSON line;
    every answer gets the security headers, and a redirect's Location loses its scheme and host."""

    def __init__(self, app: Any, hosts: frozenset[str] = frozenset(LOCAL_HOSTS)):
        """Guard `app`, answering to `hosts`."""
        self.app, self.hosts = app, hosts

    async def __call__(self, scope: dict, receive: Callable, send: Callable) -> None:
        """Refuse, or pass the request on with the headers added to its answer."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_guarded(message: dict) -> None:
            """Add the security headers; make a redirect's Location a path."""
            if message["type"] == "http.response.start":
                headers = [(name, value) for name, value in message.get("headers", [])
                           if name.lower() not in {key for key, _ in SECURITY_HEADERS}]
                for index, (name, value) in enumerate(headers):
                    if name.lower() == b"location":
                        target = urlsplit(value.decode("latin-1"))
                        path = (target.path or "/") + (f"?{target.query}" if target.query else "")
                        headers[index] = (name, path.encode("latin-1"))
                message = {**message, "headers": headers + SECURITY_HEADERS}
            await send(message)

        headers = {name.decode("latin-1").lower(): value.decode("latin-1") for name, value in scope["headers"]}
        host = headers.get("host", "")
        problem, status = None, 0
        if host_name(host) not in self.hosts:
            shown = ", ".join(f"[{name}]" if ":" in name else name for name in sorted(self.hosts))
            problem, status = (f"this server answers to {shown} only, not the Host {json.dumps(host)[:80]}; "
                               "serve --host NAME adds a name"), 421
        elif guarded(scope["method"], scope["path"]) and (why := foreign_origin(headers)) is not None:
            problem, status = (f"{scope['method']} {scope['path']} is refused from another site's page ({why}); "
                               "use the page this server serves, or a client that is not a browser"), 403
        if problem is not None:
            body = json.dumps({"error": problem}).encode()
            await send_guarded({"type": "http.response.start", "status": status,
                                "headers": [(b"content-type", b"application/json"),
                                            (b"content-length", str(len(body)).encode())]})
            await send_guarded({"type": "http.response.body", "body": body})
            return
        await self.app(scope, receive, send_guarded)
