"""The engines a run asks: another program behind the protocol, started and stopped whatever it
does, or a function in this process; and what makes an answer line unusable."""

from __future__ import annotations

import argparse
import contextlib
import ctypes
import json
import os
import queue
import select as select_module
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, Protocol

from oracle.casefile.jsontext import RepeatedKey, parse_json
from oracle.casefile.source import echoed
from oracle.protocol.compare import printable, shown

DEFAULT_TIMEOUT = 10.0
"""Seconds an engine has for each answer, unless ``--timeout`` says otherwise."""


class EngineProblem(Exception):
    """The engine gave no usable answer: it crashed, timed out, or wrote something else."""


class Engine(Protocol):
    """Something that answers one request with one response (both as JSON objects)."""

    def ask(self, request: dict[str, Any]) -> dict[str, Any]: ...

    def close(self) -> None: ...

    def stop(self) -> None: ...


class FunctionEngine:
    """An engine in this process: a function from request line to answer line."""

    def __init__(
        self, answer_line: Callable[[str], str], on_close: Callable[[], None] | None = None
    ) -> None:
        self.answer_line = answer_line
        self.on_close = on_close

    def ask(self, request: dict[str, Any]) -> dict[str, Any]:
        return _parsed(self.answer_line(json.dumps(request)), request["id"])

    def close(self) -> None:
        if self.on_close is not None:
            self.on_close()

    def stop(self) -> None:
        self.close()


MAX_LINE_BYTES = 1024 * 1024
"""The longest answer line read: a case's answers take a few kilobytes."""


STDERR_KEPT_BYTES = 4096
"""What is kept of the engine's standard error, for the message when it fails."""


MAX_TIMEOUT = 3600.0
"""The longest wait for one answer that ``--timeout`` accepts: an hour."""


QUEUED_LINES = 8
"""Answer lines read ahead at most: an engine that writes faster waits on its pipe."""


_OVERLONG = object()
"""Put in the line queue for an answer line longer than :data:`MAX_LINE_BYTES`."""


MIN_TIMEOUT = 0.01
"""The shortest ``--timeout``: a process needs milliseconds to read a line and write one."""


def timeout_seconds(text: str) -> float:
    """A ``--timeout`` value: a finite number of seconds, from :data:`MIN_TIMEOUT` (no engine
    started as a process answers sooner) to an hour."""
    try:
        seconds = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text[:40]!r} is not a number of seconds") from None
    if not MIN_TIMEOUT <= seconds <= MAX_TIMEOUT:  # NaN fails both comparisons
        raise argparse.ArgumentTypeError(
            f"{text[:40]!r}: give a number of seconds from {MIN_TIMEOUT:g} to {MAX_TIMEOUT:g}"
        )
    return seconds


class CommandEngine:
    """Another program, started as a subprocess, speaking the protocol on stdin and stdout.

    Whatever it does, a run stays bounded: an answer line is read up to :data:`MAX_LINE_BYTES`
    (the rest of a longer one is discarded), only the end of its standard error is kept, the
    timeout holds however many lines arrive, and stopping it stops every process of its session
    (it is started in a session of its own, so a child it leaves behind holding the pipes is
    found and stopped too).
    """

    def __init__(self, command: Sequence[str], timeout: float = DEFAULT_TIMEOUT) -> None:
        if not command:
            raise ValueError("no engine command given (conform -- COMMAND ...)")
        if not 0 < timeout <= MAX_TIMEOUT:
            raise ValueError(f"the timeout must be above 0 and at most {MAX_TIMEOUT:g} seconds")
        self.command = list(command)
        self.timeout = timeout
        self.process: subprocess.Popen[bytes] | None = None
        self.lines: queue.Queue[bytes | object | None] = queue.Queue(maxsize=QUEUED_LINES)
        self.stderr = bytearray()
        self.stopped = threading.Event()
        self.children_before: set[int] = set()

    def _start(self) -> subprocess.Popen[bytes]:
        self.children_before = _children(os.getpid())
        try:
            process = subprocess.Popen(
                self.command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                bufsize=0,
                start_new_session=True,  # its own session: stopping it stops its children
            )
        except OSError as error:
            raise EngineProblem(f"cannot start {self.command[0]!r}: {error.strerror}") from None
        self.process = process  # at once: an interruption from here on still stops it
        assert process.stdin is not None
        os.set_blocking(process.stdin.fileno(), False)
        self.lines = queue.Queue(maxsize=QUEUED_LINES)
        self.stderr = bytearray()
        self.stopped = threading.Event()
        lines, stderr, stopped = self.lines, self.stderr, self.stopped

        def offer(item: bytes | object | None) -> None:
            """Queue a line, waiting while the queue is full, unless the engine was stopped."""
            while not stopped.is_set():
                try:
                    lines.put(item, timeout=0.2)
                    return
                except queue.Full:
                    continue

        def read_out() -> None:
            assert process.stdout is not None
            pending = bytearray()
            overlong = False
            while chunk := _read(process.stdout):
                start = 0
                while (end := chunk.find(b"\n", start)) >= 0:
                    if overlong:
                        overlong = False
                    else:
                        pending += chunk[start:end]
                        offer(bytes(pending))
                    pending.clear()
                    start = end + 1
                if not overlong:
                    pending += chunk[start:]
                    if len(pending) > MAX_LINE_BYTES:
                        pending.clear()
                        overlong = True
                        offer(_OVERLONG)
            offer(None)

        def read_err() -> None:
            assert process.stderr is not None
            while chunk := _read(process.stderr):
                stderr.extend(chunk)
                del stderr[:-STDERR_KEPT_BYTES]

        threading.Thread(target=read_out, daemon=True).start()
        threading.Thread(target=read_err, daemon=True).start()
        return process

    def ask(self, request: dict[str, Any]) -> dict[str, Any]:
        if self.process is None or self.process.poll() is not None:
            self.process = self._start()
        process = self.process
        deadline = time.monotonic() + self.timeout
        self._send(process, json.dumps(request).encode("utf-8") + b"\n", deadline)
        exited_at: float | None = None
        while True:
            left = deadline - time.monotonic()
            if left <= 0:  # however many lines keep arriving
                self._stop()
                raise EngineProblem(f"no answer within {self.timeout:g} s")
            try:
                line = self.lines.get(timeout=min(left, 0.1))
            except queue.Empty:
                # An engine that exited while a child of its own holds the pipe open never
                # closes it: once it is gone, a short grace for its last line is enough.
                if exited_at is None and process.poll() is not None:
                    exited_at = time.monotonic()
                if exited_at is not None and time.monotonic() - exited_at > 0.3:
                    line = None
                else:
                    continue
            if line is None:
                self._stop()
                raise EngineProblem(f"the engine exited without answering{self._said()}")
            if line is _OVERLONG:
                self._stop()  # out of step with the requests: start afresh
                raise EngineProblem(f"the engine wrote a line over {MAX_LINE_BYTES:,} bytes")
            assert isinstance(line, bytes)
            text = line.decode("utf-8", errors="replace")
            if text.strip():
                try:
                    return _parsed(text, request["id"])
                except EngineProblem:
                    self._stop()
                    raise

    def _send(self, process: subprocess.Popen[bytes], data: bytes, deadline: float) -> None:
        """Write a request within the deadline: an engine that never reads its input (and so
        lets the pipe fill) cannot hold the run."""
        assert process.stdin is not None
        descriptor = process.stdin.fileno()
        view = memoryview(data)
        while view:
            left = deadline - time.monotonic()
            if left <= 0:
                self._stop()
                raise EngineProblem(f"the engine read no request within {self.timeout:g} s")
            try:
                _, writable, _ = select_module.select([], [descriptor], [], min(left, 0.1))
                if writable:
                    view = view[os.write(descriptor, view) :]
            except BlockingIOError:
                continue
            except OSError:
                self._stop()
                raise EngineProblem(
                    f"the engine exited before reading the case{self._said()}"
                ) from None

    def _said(self) -> str:
        time.sleep(0.05)
        said = self.stderr.decode("utf-8", errors="replace").strip().splitlines()
        return f" (it said: {printable(said[-1][:200])})" if said else ""

    def stop(self) -> None:
        """Stop the engine and everything it started, at once."""
        self._stop()

    def _stop(self) -> None:
        self.stopped.set()  # its reader threads stop waiting on a full queue
        if self.process is not None:
            stop_session(self.process.pid)
            stop_adopted(self.children_before | {self.process.pid})
            self.process.kill()
            self.process.wait()
            for stream in (self.process.stdin, self.process.stdout, self.process.stderr):
                if stream is not None:
                    with contextlib.suppress(OSError):
                        stream.close()
            self.process = None

    def close(self) -> None:
        if self.process is not None and self.process.stdin is not None:
            try:
                self.process.stdin.close()
                self.process.wait(timeout=2)
            except (OSError, subprocess.TimeoutExpired):
                pass
        self._stop()


def _read(stream: Any) -> bytes:
    """The next bytes of a pipe, or nothing once it is closed (by either end)."""
    try:
        chunk: bytes = os.read(stream.fileno(), 65536)
    except (OSError, ValueError):
        return b""
    return chunk


def stop_session(session: int) -> None:
    """Kill every process of a session (the engine's, which it leads) and every process below
    its leader: its process group, any process of the session in a group of its own, and a
    descendant that left for a session of its own."""
    members = {*_tree(session), *_session_members(session)}
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(session, signal.SIGKILL)
    for pid in members:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, signal.SIGKILL)


_PR_SET_CHILD_SUBREAPER = 36


def _set_child_subreaper(on: bool) -> bool:
    """Make this process (or stop it being) the one that orphans of its children are given to
    (Linux); False where the system has no such thing."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return bool(libc.prctl(_PR_SET_CHILD_SUBREAPER, int(on), 0, 0, 0) == 0)
    except (OSError, AttributeError):
        return False


@contextlib.contextmanager
def adopting_orphans() -> Iterator[bool]:
    """For the length of a run, make this process the one that orphans of its children are
    given to (Linux), so that a process an engine detached from its session (``setsid``) and
    left behind can still be found and stopped (:func:`stop_adopted`); the runner that needs
    it asks for it, and the process is as it was afterwards. Gives whether the system allows
    it."""
    adopting = _set_child_subreaper(True)
    try:
        yield adopting
    finally:
        if adopting:
            _set_child_subreaper(False)


def _stat_fields(pid: str) -> list[str]:
    """A process's fields from /proc after its name: state, ppid, pgrp, session..."""
    try:
        return (Path("/proc") / pid / "stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return []


def _children(parent: int) -> set[int]:
    """The processes whose parent is ``parent`` (from /proc; none where there is none)."""
    return {
        int(entry.name)
        for entry in Path("/proc").glob("[0-9]*")
        if _stat_fields(entry.name)[1:2] == [str(parent)]
    }


def stop_adopted(known: set[int]) -> None:
    """Kill the processes this one adopted (see :func:`adopting_orphans`) since ``known`` were its
    children, and everything below them, and reap them."""
    for pid in _children(os.getpid()) - known:
        for member in _tree(pid):
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(member, signal.SIGKILL)
        with contextlib.suppress(ChildProcessError, OSError):
            os.waitpid(pid, 0)


def _tree(root: int) -> list[int]:
    """``root`` and every process below it."""
    found, queue_ = [root], [root]
    while queue_:
        for child in _children(queue_.pop()):
            found.append(child)
            queue_.append(child)
    return found


def _session_members(session: int) -> list[int]:
    """The processes of a session, read from /proc (none where there is no /proc)."""
    return [
        int(entry.name)
        for entry in Path("/proc").glob("[0-9]*")
        if _stat_fields(entry.name)[3:4] == [str(session)]
    ]


def _parsed(line: str, expected_id: str) -> dict[str, Any]:
    try:
        response = parse_json(line).data
    except RepeatedKey as problem:
        raise EngineProblem(f"the engine's answer is not usable: {problem.problem}") from None
    except ValueError:  # not JSON, a number too long, nesting too deep
        raise EngineProblem(
            f"the engine wrote something that is not JSON: {printable(line.strip()[:120])!r}"
        ) from None
    if not isinstance(response, dict):
        raise EngineProblem(
            f"the engine's answer is not a JSON object: {printable(line.strip()[:120])!r}"
        )
    if response.get("id") != expected_id:
        raise EngineProblem(
            f"the engine answered for {_named(response.get('id'))}, not for {expected_id!r}"
        )
    return response


def _named(value: Any) -> str:
    """An id from an engine's answer, quoted as ids are, or as JSON if it is not a text."""
    return echoed(printable(value)) if isinstance(value, str) else shown(value, 60)
