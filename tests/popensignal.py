"""A SIGTERM that comes between a child's fork and Popen's return, made to happen: the
window where a handler's exception leaves the child running and unknown to the code that
started it (what `sim --pty` stopped while booting did on CI)."""

import contextlib
import os
import signal
import subprocess

import pytest


class Stopped(Exception):
    """What the handler raises, as `sim --pty`'s does on SIGTERM."""


@contextlib.contextmanager
def sigterm_inside_popen(monkeypatch, chosen=lambda cmd: True):
    """Within the block, SIGTERM's handler raises Stopped, and every Popen of a command that
    `chosen` accepts is followed, before it returns, by a SIGTERM to this process. Yields the
    list of those children; at the end, a child still running is killed and the test fails."""
    spawned = []
    popen = subprocess.Popen

    def popen_then_sigterm(cmd, *args, **kwargs):
        proc = popen(cmd, *args, **kwargs)
        if chosen(cmd):
            spawned.append(proc)
            os.kill(os.getpid(), signal.SIGTERM)
        return proc

    def _term(signum, frame):
        raise Stopped
    monkeypatch.setattr(subprocess, "Popen", popen_then_sigterm)
    old = signal.signal(signal.SIGTERM, _term)
    try:
        yield spawned
    finally:
        signal.signal(signal.SIGTERM, old)
        monkeypatch.setattr(subprocess, "Popen", popen)
        left = [proc for proc in spawned if proc.poll() is None]
        for proc in left:
            proc.kill()
            proc.wait()
        if left:
            pytest.fail("a child was left running: %s" % " ".join(map(str, left[0].args)))
