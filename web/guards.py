"""uvicorn's HTTP/1.1 protocol with a deadline on the request line and headers, so slow clients cannot hold connections.

uvicorn times out idle keep-alive connections, but a client that sends its headers a byte
at a time keeps its connection (and a file descriptor) forever; here it is closed once
HEADER_SECONDS pass without complete headers.
"""

from __future__ import annotations

import asyncio
from typing import Any

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
