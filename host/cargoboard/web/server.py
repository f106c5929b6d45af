"""Running the web app: the boards' threads, the app, uvicorn. `serve()` is the command;
`WebServer` runs the same in a background thread (the tests and bench/web.py use it)."""

from __future__ import annotations

import asyncio
import socket
import sys
import threading
import time
from urllib.parse import urlencode

import uvicorn

from cargoboard.clikit import CommandError, terminated_as_interrupt
from cargoboard.web.app import Hub, create_app
from cargoboard.web.boards import Boards
from cargoboard.web.security import Keys, is_loopback

LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]", "::1")


class _Server(uvicorn.Server):
    """uvicorn's server that ends the event streams when it is asked to stop (Ctrl-C), so that
    they close instead of being cancelled after the grace time."""

    def __init__(self, config, hub):
        super().__init__(config)
        self.hub = hub

    def handle_exit(self, sig, frame):
        self.hub.close()
        super().handle_exit(sig, frame)


class WebServer:
    def __init__(self, host="127.0.0.1", port=0, boards=(), db=None, public=None, keys=None,
                 discover=None, log_level="warning"):
        self.host = host
        public = not is_loopback(host) if public is None else public
        self.keys = keys or Keys(public=public)
        self.hub = Hub()
        self.boards = Boards(boards, on_change=self.hub.notify, store_path=db,
                             discover=discover)
        # On loopback only this machine's names are served (a page of another site that
        # rebinds its name to 127.0.0.1 gets 400); beyond it the tokens guard every page.
        allowed = None if public else list(LOOPBACK_NAMES)
        self.app = create_app(self.boards, db, self.keys, allowed, self.hub)
        self.config = uvicorn.Config(self.app, host=host, port=port, log_level=log_level,
                                     timeout_graceful_shutdown=1, lifespan="on")
        self.server = _Server(self.config, self.hub)
        self._thread = None

    @property
    def port(self):
        for s in self.server.servers:
            for sock in s.sockets:
                return sock.getsockname()[1]
        return self.config.port

    @property
    def url(self):
        host = "[%s]" % self.host if ":" in self.host else self.host
        return "http://%s:%d" % (host, self.port)

    def host_link(self):
        return "%s/host?%s" % (self.url, urlencode({"token": self.keys.host}))

    def start(self):
        """Serve in a background thread; returns once the socket listens."""
        self.boards.start()
        self._thread = threading.Thread(target=self.server.run, name="uvicorn", daemon=True)
        self._thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the web server did not start on %s:%s" % (self.host,
                                                                               self.config.port))
            time.sleep(0.02)
        return self

    def stop(self):
        self.hub.close()
        self.server.should_exit = True
        if self._thread is not None:
            self._thread.join(10)
        self.boards.stop()

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()


def _lan_address():
    """This machine's address on its network (the one its default route leaves by; no packet
    is sent), or None: a name alone may not resolve on the other machines."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("192.0.2.1", 9))  # (TEST-NET-1: a route is looked up, nothing sent)
            ip = s.getsockname()[0]
    except OSError:
        return None
    return None if ip.startswith("127.") or ip == "0.0.0.0" else ip


def serve(host, port, boards=(), db=None, public=False, out=print):
    """`cargoboard serve`: run until Ctrl-C or SIGTERM. Returns the exit status."""
    # the socket is ours, so that an address in use is one line of ours, not uvicorn's log
    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as e:  # in use, not an address of this machine, ...
        sock.close()
        raise CommandError("cannot listen on %s:%d: %s" % (host, port, e.strerror or e)) \
            from None
    ws = WebServer(host, port, boards, db, public=public, log_level="warning")
    ws.boards.start()

    async def say_when_ready():
        while not ws.server.started:
            await asyncio.sleep(0.05)
        url = also = ws.url
        if host in ("0.0.0.0", "::"):  # every address: say ones other machines can use
            wild = host if host == "0.0.0.0" else "[::]"
            url = url.replace(wild, socket.gethostname(), 1)
            ip = _lan_address()
            also = url if ip is None else ws.url.replace(wild, ip, 1)
        out("cargoboard serve: %s/  (%sstore: %s; boards: %s)" % (
            url, "" if also == url else "or %s/; " % also, db,
            ", ".join(boards) if boards else "every board found"))
        out("host page (seat links%s): %s" % (", and every page: --public" if public else "",
                                               ws.host_link().replace(ws.url, url, 1)))
        sys.stdout.flush()

    async def main():
        task = asyncio.ensure_future(say_when_ready())
        try:
            await ws.server.serve(sockets=[sock])
        finally:
            task.cancel()

    # uvicorn stops gracefully on SIGINT/SIGTERM, then raises the signal again once it has
    # restored the handlers it found: with terminated_as_interrupt's, SIGTERM ends here as
    # Ctrl-C does (exit 0)
    try:
        with terminated_as_interrupt():
            asyncio.run(main())
    except KeyboardInterrupt:  # (Terminated too)
        pass
    finally:
        ws.boards.stop()
    return 0 if ws.server.started else 1
