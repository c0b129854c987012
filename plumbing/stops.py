"""Ctrl-C and SIGTERM while a command runs: each stops it (as KeyboardInterrupt), and none is lost on the way.

Python runs a signal's handler in the main thread at the next bytecode, wherever that is, and the
handler raises KeyboardInterrupt there. Where that is a finalizer (`__del__`, a weakref callback) or a
ctypes callback (llvmlite calls one while numba compiles a kernel), Python cannot pass the exception
on: it prints 'Exception ignored in ...' and drops it, and the command ran on (SIGTERMs ignored during
`openers --exact --opener qajaq --hard`, the solver minutes from done). Inside `Stops`, a stop dropped
there is raised again (the signal delivered anew, so its handler raises at the next bytecode that can
pass it on), quietly. A stop can also surface as another error, raised by the code it interrupted
(a C extension's module that stopped initialising: ImportError; numba's compiler left half-done:
RuntimeError); `asked` says a stop came, so the command reports the stop, not that error.
"""

from __future__ import annotations

import _thread
import signal
import sys
import threading
from typing import Any, Callable

#: The signals that stop a command.
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)
#: How long after a stop was dropped it is delivered again (what dropped it has returned long before).
REDELIVER_SECONDS = 0.01


class Stops:
    """While inside (main thread only; elsewhere nothing changes): SIGTERM raises KeyboardInterrupt as Ctrl-C does,
    each stop is remembered (`asked`, `last`), and one dropped by a finalizer or a callback is raised again."""

    def __init__(self) -> None:
        """No stop yet."""
        self.asked = False
        self.last = signal.SIGINT
        self.in_hook = False  # inside `unraisable`: a handler raising there would be dropped with the hook's error
        self.inside = False
        self.before: dict[int, Any] = {}
        self.hook_before: Callable[[Any], Any] | None = None

    def __enter__(self) -> "Stops":
        """Install the handlers (SIGINT's only where Python's own is in place) and the hook for dropped exceptions."""
        if threading.current_thread() is not threading.main_thread():
            return self
        self.hook_before = sys.unraisablehook
        sys.unraisablehook = self.unraisable
        for number in STOP_SIGNALS:
            handler = signal.getsignal(number)
            if number == signal.SIGTERM or handler is signal.default_int_handler:
                self.before[number] = handler
                signal.signal(number, self.stop)
        self.inside = True
        return self

    def stop(self, number: int, frame: Any) -> None:
        """A signal's handler: note the stop, then raise KeyboardInterrupt here (or, inside the hook, a moment
        later)."""
        self.asked, self.last = True, number
        if self.in_hook:
            self.deliver_again()
            return
        raise KeyboardInterrupt

    def unraisable(self, info: Any) -> None:
        """An exception Python could not pass on: a stop is delivered again (not printed); anything else goes to
        the hook that was there."""
        self.in_hook = True
        try:
            if info.exc_type is not None and issubclass(info.exc_type, KeyboardInterrupt):
                self.asked = True
                self.deliver_again()
            else:
                (self.hook_before or sys.__unraisablehook__)(info)
        finally:
            self.in_hook = False

    def deliver_again(self) -> None:
        """The last stop's signal delivered again a moment from now (`deliver_later`), while inside."""
        if signal.getsignal(self.last) == self.stop:
            deliver_later(self.last, lambda: self.inside)

    def __exit__(self, *exc: Any) -> None:
        """Put back the handlers and the hook that were there."""
        self.inside = False
        if self.hook_before is not None and sys.unraisablehook == self.unraisable:
            sys.unraisablehook = self.hook_before
        for number, handler in self.before.items():
            signal.signal(number, handler)
        self.before.clear()


def deliver_later(number: int, still: Callable[[], bool]) -> None:
    """Signal `number` delivered again from another thread REDELIVER_SECONDS from now, if `still()` is then true:
    its handler runs at the main thread's next bytecode, once what dropped the stop (a finalizer, a callback, a hook)
    has returned."""
    def deliver() -> None:
        """Deliver the signal, if it is still wanted."""
        if still():
            _thread.interrupt_main(number)

    try:
        threading.Timer(REDELIVER_SECONDS, deliver).start()
    except RuntimeError:  # no new thread (the interpreter is ending): the stop is already on its way out
        pass
