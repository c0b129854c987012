"""Whether an address is a Dask scheduler that answers, asked once within a deadline before a job trusts it.

Distributed's own client bounds only the TCP connection by its timeout: its handshake then waits for the
other side's first frame with no deadline (a listener that accepts and never speaks, or an HTTP server
waiting for a request line, held a job forever), and reads that frame's first 8 bytes as its length (an
HTTP server's 'HTTP/1.1' asked for 3.07 EiB). Here the whole exchange (connection, handshake, and an
'identity' call whose answer must say 'Scheduler') runs under one deadline, and whatever goes wrong on
the way is one line naming the address.
"""

from __future__ import annotations

import asyncio
import importlib.util
from typing import Any

from .errors import UserError, clip

#: Seconds the whole check may take (the connection, retried, and the scheduler's answer).
SCHEDULER_SECONDS = 20.0


def connection_args(scheme: str) -> dict[str, Any]:
    """The client's connection arguments for `scheme` (TLS settings from Dask's configuration), as the Client's own.

    Raises:
        UserError: the scheme needs what is not here (UCX support; TLS certificates in Dask's configuration).
    """
    from distributed.security import Security

    if scheme == "ucx" and importlib.util.find_spec("distributed_ucxx") is None:
        raise UserError("ucx:// needs Dask's UCX support (the distributed-ucxx package), which is not installed; "
                        "give the scheduler's tcp:// address")
    args = Security().get_connection_args("client")
    if scheme in ("tls", "wss") and args.get("ssl_context") is None:
        raise UserError(f"{scheme}:// needs TLS settings in Dask's configuration (distributed.comm.tls: ca-file, and "
                        "client: cert and key), and none are set; set them, or give a tcp:// address")
    return args


async def scheduler_identity(address: str, args: dict[str, Any], seconds: float) -> Any:
    """Connect to `address`, shake hands and ask its identity (the handshake has no deadline of its own: the
    caller's bounds it)."""
    from distributed.comm import connect

    comm = await connect(address, timeout=seconds, **args)
    try:
        await comm.write({"op": "identity", "reply": True})
        return await comm.read()
    finally:
        comm.abort()


def check_scheduler(address: str, seconds: float | None = None) -> None:
    """Raise a one-line UserError unless a Dask scheduler answers at `address` within `seconds` (default
    SCHEDULER_SECONDS).

    Raises:
        UserError: the address cannot be parsed or reached, or what answers is not a Dask scheduler, or it
            did not answer in time.
    """
    from distributed.comm.addressing import parse_address

    seconds = SCHEDULER_SECONDS if seconds is None else seconds
    where = f"the Dask scheduler at {clip(address, 120)}"
    try:
        scheme, _ = parse_address(address)
    except (TypeError, ValueError) as error:
        raise UserError(f"cannot reach {where}: {clip(str(error), 200)}") from None
    if scheme == "inproc":
        raise UserError("an inproc:// address names a scheduler inside one process; give the scheduler's tcp:// "
                        "address")
    args = connection_args(scheme)
    try:
        answer = asyncio.run(asyncio.wait_for(scheduler_identity(address, args, seconds), seconds))
    except (asyncio.TimeoutError, TimeoutError):
        raise UserError(f"cannot reach {where}: no Dask scheduler answered within {seconds:g} s (nothing took the "
                        "connection, or what took it does not speak Dask's protocol)") from None
    except MemoryError:  # the first 8 bytes of something else read as a frame's length
        raise UserError(f"cannot reach {where}: what answers there does not speak Dask's protocol (is it a Dask "
                        "scheduler's address?)") from None
    except Exception as error:  # refused, unknown host, closed mid-handshake, a scheme Dask cannot use, ...
        reason = " ".join(str(error).split()) or type(error).__name__
        raise UserError(f"cannot reach {where}: {clip(reason, 200)}") from None
    kind = answer.get("type") if isinstance(answer, dict) else None
    if kind != "Scheduler":
        what = f"a Dask {kind}" if isinstance(kind, str) else "something that is not a Dask scheduler"
        raise UserError(f"{clip(address, 120)} is {clip(what, 60)}, not a scheduler; give the scheduler's address")
