"""`cargoboard serve`: the boards, the archive and the replays in a browser (docs/web.md).

The web app is cargoboard.web.app (Starlette, served by uvicorn); the boards are followed by
cargoboard.web.boards. This module only registers the command, so that `cargoboard` starts
without loading the web stack."""

from cargoboard.clikit import UsageError

DEFAULT_LISTEN = "127.0.0.1:8099"


class ServeError(UsageError):
    """A --listen that cannot be served: one line from the CLI's handler, exit 2."""


def parse_listen(text):
    """'HOST:PORT', ':PORT', 'HOST', '[::1]:PORT' or '[::1]' -> (host, port); ServeError for
    anything else ('[::1' and '[::1]x' were served as '[::1]', on the default port)."""
    default_host, default_port = DEFAULT_LISTEN.rsplit(":", 1)
    text = text.strip()
    if text.startswith("["):
        host, bracket, rest = text[1:].partition("]")
        if not bracket or rest and not rest.startswith(":"):
            raise ServeError("--listen wants HOST:PORT (an IPv6 address in brackets: "
                             "[::1]:8099), not '%s'" % text)
        port = rest[1:]
    elif text.count(":") == 1:
        host, port = text.split(":")
    else:
        host, port = text, ""
    host = host or default_host
    try:
        port = int(port or default_port)
    except ValueError:
        raise ServeError("--listen wants HOST:PORT, not '%s'" % text) from None
    if not 0 <= port <= 65535:
        raise ServeError("--listen: port %d is not 0..65535" % port)
    return host, port


def check_host(host, port):
    """ServeError unless host names an address (an IP address, or a name it resolves): --listen
    nonsense said "listening on nonsense lets other machines in: add --public"."""
    import socket
    try:
        socket.getaddrinfo(host.strip("[]"), port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as e:
        raise ServeError("--listen wants HOST:PORT, not '%s' (%s: %s)"
                         % (host, host, getattr(e, "strerror", None) or e)) from None


def cmd_serve(args):
    from cargoboard.store import check_not_special, default_path
    from cargoboard.web.security import is_loopback
    host, port = parse_listen(args.listen)
    check_host(host, port)
    check_not_special(args.db or default_path())  # a folder, as the other commands refuse it
    if not is_loopback(host) and not args.public:
        raise ServeError("listening on %s lets other machines in: add --public (then every "
                         "page needs the host token or a seat token, printed at start)" % host)
    from cargoboard.web.server import serve
    return serve(host, port, boards=args.board or (), db=args.db or default_path(),
                 public=args.public or not is_loopback(host), out=print)


def add_parser(sub):
    from cargoboard.store import add_db_option
    p = sub.add_parser(
        "serve", help="the boards, the archive and replays in a browser",
        description="Serve a web page that follows the boards live (the position as each board "
                    "tracks it, its LEDs, whose turn, scores, the moves, the candidates when it "
                    "waits for a button), the archive of stored games with replays and exports, "
                    "and sync now. Without --board it follows every connected board it finds, "
                    "also ones plugged in later. Stop it with Ctrl-C. docs/web.md.",
        epilog="examples:\n"
               "  cargoboard serve\n"
               "  cargoboard serve --board /dev/ttyACM0 --board /dev/ttyACM1 --db club.sqlite\n"
               "  cargoboard demo --keep-script --out /tmp/demo-serve   # a game, and its script\n"
               "  cargoboard sim --script /tmp/demo-serve/demo-script.txt --pty /tmp/board &  "
               "cargoboard serve --board /tmp/board\n"
               "  cargoboard serve --listen 0.0.0.0:8099 --public   # other machines: tokens")
    p.add_argument("--board", action="append", metavar="PORT",
                   help="a board's serial port to follow (repeat for several tables; default: "
                        "every board found, also later)")
    add_db_option(p, "read only, except sync now and delete")
    p.add_argument("--listen", metavar="HOST:PORT", default=DEFAULT_LISTEN,
                   help="where to listen (default %s: this machine only)" % DEFAULT_LISTEN)
    p.add_argument("--public", action="store_true",
                   help="allow --listen on an address other machines reach; every page then "
                        "needs a token")
    p.set_defaults(func=cmd_serve)
    return p
