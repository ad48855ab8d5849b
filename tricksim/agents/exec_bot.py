"""Bots in any language: ``exec:COMMAND`` starts the command and speaks JSON lines with it on its
standard input and output (the protocol, version ``bot_view.PROTOCOL``, is ``docs/bots.md``).

One process per command and worker process serves every seat and table of that worker: each
request carries the whole view, so a bot may be stateless. The process is ended when the run
ends, however it ends: its standard input closes when the run is done, it is killed with its
process group if it lingers, and (Linux) it gets SIGKILL if the worker that started it dies.
"""

from __future__ import annotations

import atexit
import json
import os
import select
import shlex
import signal
import subprocess
import time

from .bot_view import PROTOCOL


class Fault(Exception):
    """A decision the bot failed: ``what`` it did wrong, and ``answer``, what it wrote (or None)."""

    def __init__(self, what: str, answer=None):
        super().__init__(what)
        self.what, self.answer = what, answer


class ExecBot:
    """The process of ``command``, started on the first message, answering within ``timeout`` seconds."""

    def __init__(self, command: str, timeout: float):
        self.command, self.timeout = command, timeout
        self.process = None
        self.starts = 0  # processes started: a request to an earlier one is never answered
        self._buffer = b""  # read, not yet taken
        self._out: list[str] = []  # messages not yet written

    def send(self, message: dict) -> None:
        """Queue one message for the bot; it is written, with those queued before it, when an
        answer is awaited (one write for many requests) or the bot is ended. Fault if it cannot start."""
        if self.process is None:
            self._start()
        self._out.append(json.dumps(message, separators=(",", ":")))

    def _flush(self) -> None:
        if self._out:
            data, self._out = memoryview(("\n".join(self._out) + "\n").encode()), []
            deadline = time.monotonic() + self.timeout
            try:
                while data:  # the input is non-blocking: a bot that stops reading cannot hang the run
                    left = deadline - time.monotonic()
                    if left <= 0 or not select.select([], [self._stdin], [], left)[1]:
                        self.close(flush=False)
                        raise Fault(f"read no request within {self.timeout:g} s (the time limit: :timeout=SECONDS)")
                    try:
                        data = data[os.write(self._stdin, data[:1 << 16]):]
                    except BlockingIOError:
                        pass
            except OSError:
                raise Fault(self._exited()) from None

    def ask(self, message: dict) -> str:
        """Send ``message`` and return the bot's one-line answer; Fault if it exits or takes too long."""
        self.send(message)
        return self.answer()

    def answer(self) -> str:
        """The bot's next answer line (the answers come in the order of the requests); Fault if it
        exits or takes longer than its time limit."""
        self._flush()
        deadline = time.monotonic() + self.timeout
        while True:
            end = self._buffer.find(b"\n")
            if end >= 0:
                line, self._buffer = self._buffer[:end], self._buffer[end + 1:]
                return line.decode(errors="replace").strip()
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self._stdout], [], [], left)[0]:
                self.close()
                raise Fault(f"gave no answer within {self.timeout:g} s (the time limit: :timeout=SECONDS)")
            chunk = os.read(self._stdout, 1 << 16)
            if not chunk:
                raise Fault(self._exited(), self._buffer.decode(errors="replace").strip() or None)
            self._buffer += chunk

    def _start(self) -> None:
        try:
            argv = shlex.split(self.command)
            self.process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0,
                                            start_new_session=True, preexec_fn=_die_with_parent)
        except (OSError, ValueError) as error:
            raise Fault(f"cannot be started ({error})") from None
        self._stdin, self._stdout = self.process.stdin.fileno(), self.process.stdout.fileno()
        os.set_blocking(self._stdin, False)
        self.starts += 1
        self._buffer, self._out = b"", []
        self.send({"type": "hello", "protocol": PROTOCOL})

    def _exited(self) -> str:
        try:
            code = self.process.wait(timeout=1) if self.process is not None else None
        except subprocess.TimeoutExpired:
            code = "none: its output closed, it still runs"
        self.close()
        return f"exited (status {code})"

    def close(self, flush: bool = True) -> None:
        """End the bot: close its input, give it a moment to finish, then kill its process group."""
        if self.process is None:
            return
        try:
            if flush:
                self._flush()  # the last hands' end messages
        except Fault:
            return
        process, self.process = self.process, None
        for pipe in (process.stdin, process.stdout):
            try:
                pipe.close()
            except OSError:
                pass
        try:
            process.wait(timeout=0.5)
        except subprocess.TimeoutExpired:
            pass
        try:
            os.killpg(process.pid, signal.SIGKILL)  # its children too; a no-op if all are gone
        except (ProcessLookupError, PermissionError):
            pass
        process.wait()


def _die_with_parent() -> None:
    """In the bot's process, before the command runs: SIGKILL when the process that started it dies."""
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


_BOTS: dict[tuple[int, str, float], ExecBot] = {}  # by (process id, command, timeout): a fork has its own
_registered: set[int] = set()


def exec_bot(command: str, timeout: float) -> ExecBot:
    """This process's bot for ``command``, made on first use."""
    key = (os.getpid(), command, timeout)
    if key not in _BOTS:
        if os.getpid() not in _registered:
            _registered.add(os.getpid())
            atexit.register(close_bots)
            from multiprocessing import util  # a pool's worker exits without atexit; its finalizers run

            util.Finalize(None, close_bots, exitpriority=100)
        _BOTS[key] = ExecBot(command, timeout)
    return _BOTS[key]


def close_bots() -> None:
    """End every bot this process started."""
    for key in [k for k in _BOTS if k[0] == os.getpid()]:
        _BOTS.pop(key).close()
