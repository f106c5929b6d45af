"""Helpers of the web tests (tests/test_web_*.py) and bench/web.py: a real headless browser
(Debian's chromium through chromedriver, with selenium) and a virtual board served on a pty
whose pieces a test moves in wall-clock time while `cargoboard serve` follows it.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import threading
import time
from pathlib import Path

TESTS = Path(__file__).resolve().parent

CHROMIUM = os.environ.get("CARGOBOARD_CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("CARGOBOARD_CHROMEDRIVER", "/usr/bin/chromedriver")
CHROME_FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--window-size=1280,800", "--hide-scrollbars")


def browser_missing():
    """Why no browser can run here (None if one can)."""
    for path, package in ((CHROMIUM, "chromium"), (CHROMEDRIVER, "chromium-driver")):
        if not (os.path.isfile(path) and os.access(path, os.X_OK)):
            return ("%s not found (Debian package %s; `make test` installs it with apt-get "
                    "where it can)" % (path, package))
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (the test extra of pyproject.toml)"
    return None


def browser_fixture():
    """The body of the test modules' `browser` fixture: one Chromium per module, or a skip
    that prints why none can run here."""
    import pytest
    why = browser_missing()
    if why:
        print("SKIPPED web browser tests: " + why)
        pytest.skip(why)
    b = Browser()
    try:
        yield b
    finally:
        b.quit()


class Browser:
    """A headless Chromium with a fresh profile, driven through chromedriver."""

    def __init__(self):
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
        self.profile = tempfile.mkdtemp(prefix="cb-chromium-")
        opts = webdriver.ChromeOptions()
        opts.binary_location = CHROMIUM
        for flag in CHROME_FLAGS:
            opts.add_argument(flag)
        opts.add_argument("--user-data-dir=" + self.profile)
        opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})  # console_errors()
        self.driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=opts)
        self.driver.set_window_size(1280, 800)

    def quit(self):
        try:
            self.driver.quit()
        finally:
            shutil.rmtree(self.profile, ignore_errors=True)

    def wait(self, predicate, timeout=10.0, what="the page"):
        """Poll predicate(driver) until it is truthy; its value. AssertionError on timeout."""
        end = time.monotonic() + timeout
        last = None
        while time.monotonic() < end:
            try:
                last = predicate(self.driver)
            except Exception as e:  # an element not there yet
                last = e
            if last and not isinstance(last, Exception):
                return last
            time.sleep(0.02)
        raise AssertionError("%s: still %r after %.1f s" % (what, last, timeout))

    def console_errors(self):
        """The errors the browser's console got since the last call (a failed request, a
        script's exception), as its messages."""
        return [e["message"] for e in self.driver.get_log("browser") if e["level"] == "SEVERE"]

    def js(self, script, *args):
        return self.driver.execute_script(script, *args)

    def updates(self):
        return self.js("return window.cbUpdates || [];")

    def screenshot(self, path):
        """The page at 1280x800 (the window's 1280x800 shows only 1280x657 of it: headless
        Chromium keeps room for its toolbars), so the page is laid out at that size for it."""
        self.driver.set_window_size(1280, 800)
        size = {"width": 1280, "height": 800, "deviceScaleFactor": 1, "mobile": False}
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", size)
        try:
            self.driver.save_screenshot(str(path))
        finally:
            self.driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


class LiveBoard:
    """The virtual board (the real firmware under the unix port, cargoboard.sim) with a game set
    up by script verbs, then served on a pty linked at `path`, as `cargoboard sim --pty` does;
    the test moves its pieces and presses its buttons meanwhile, in wall-clock time."""

    HAND_MS = 100   # after a hand's move, as the script verbs wait (in the board's time)
    PRESS_MS = 60   # a button held, then released (the board debounces 30 ms)

    def __init__(self, path, setup=("new-game cargocube polygon SN",), flash=None, plugins=(),
                 target="unix"):
        self.path = Path(path)
        self.flash = flash
        self.plugins = list(plugins)
        self.target = target
        self.world = None
        self._start(setup)

    def _start(self, setup=()):
        from cargoboard.sim.script import Session
        if self.target == "pico":  # the stock image boots the deployed firmware, no extras
            kwargs = {"target": "pico"}
        else:
            kwargs = {"plugins": self.plugins, "extra_path": [TESTS]}
        if self.flash:
            kwargs["flash"] = str(self.flash)
        self.session = Session(out=lambda text: None, **kwargs)
        if self.world is not None:  # plugged in again: the pieces stayed where they were
            self.session.world = self.world
        for line in setup:
            self.session.execute(line)
        self.world = self.session.world
        self.session.step(5)
        self.session.ser.close()  # the port is the host's now
        self.runner = self.session.runner
        self.runner.sensors[:] = self.world.sensors()
        self.wire = []  # (wall-clock time, bytes) the board wrote to its serial
        to_pty = self.runner._to_pty

        def recorded(data):
            self.wire.append((time.time(), bytes(data)))
            to_pty(data)
        self.runner._to_pty = recorded
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self.runner.serve, args=(self._stop,),
                                        daemon=True)
        self._thread.start()
        if self.path.is_symlink():
            self.path.unlink()
        self.path.symlink_to(self.runner.port)

    def told_at(self, text, since=0.0):
        """When the board first wrote text (an event's start, e.g. 'auto c3s -> ') to its
        serial after since (a frame's COBS keeps text without zero bytes as it is, up to 254
        bytes in), or None."""
        needle = text.encode()
        for t, data in list(self.wire):
            if t >= since and needle in data:
                return t
        return None

    def wait_board_ms(self, ms):
        """Let ms pass on the board's clock (the virtual board's time runs at most as fast as
        the wall clock: a frame every 10 ms of it, or when serial input comes)."""
        end = self.runner.t + ms
        while self.runner.t < end and self._thread.is_alive():
            time.sleep(0.005)

    # --- hands and buttons -------------------------------------------------------------------
    def _sense(self):
        self.runner.sensors[:] = self.world.sensors()
        return time.time()

    def _hand(self, verb, cell):
        """The world's verb (lift, place, drop) on cell; the wall-clock time of the sensor
        change, once the hand's time has passed on the board."""
        from cargoboard.sim.world import parse_cell
        getattr(self.world, verb)(parse_cell(cell))
        t = self._sense()
        self.wait_board_ms(self.HAND_MS)
        return t

    def lift(self, cell):
        return self._hand("lift", cell)

    def place(self, cell):
        """Put the lifted piece down; returns the wall-clock time of the sensor change."""
        return self._hand("place", cell)

    def drop(self, cell):
        return self._hand("drop", cell)

    def press(self, name):
        from cargoboard.sim.script import BUTTONS
        self.runner.buttons |= BUTTONS[name]
        self.wait_board_ms(self.PRESS_MS)
        self.runner.buttons &= ~BUTTONS[name]
        self.wait_board_ms(self.PRESS_MS)

    # --- the cable ---------------------------------------------------------------------------
    def unplug(self):
        """The USB cable out: the board stops, its port goes away."""
        self._stop.set()
        self._thread.join(5)
        if self.path.is_symlink():
            self.path.unlink()
        self.runner.kill()

    def replug(self):
        """The cable back in: the board boots on the same flash (its game resumes from the log)
        and its port appears again."""
        self._start()

    def close(self):
        self._stop.set()
        self._thread.join(5)
        if self.path.is_symlink():
            self.path.unlink()
        self.session.close()


def post_form(url, form):
    """POST a form (urlencoded); the HTTP status."""
    import urllib.error
    import urllib.parse
    import urllib.request
    data = urllib.parse.urlencode(form).encode()
    try:
        with urllib.request.urlopen(urllib.request.Request(url, data=data), timeout=10) as r:
            return r.status
    except urllib.error.HTTPError as e:
        return e.code


def first_events(url):
    """What an event stream sends first: the table's state now (its `board` event)."""
    import urllib.request
    out = b""
    with urllib.request.urlopen(url, timeout=10) as r:
        while not (b"event: board" in out and out.endswith(b"\n\n")):
            chunk = r.read1(65536)
            if not chunk:
                break
            out += chunk
    assert b"event: board" in out, out
    return out.decode()
