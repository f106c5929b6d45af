"""Who may see what: the host token, the seat tokens, CSRF, allowed Host headers.

One random secret per `serve` run. The host token opens every page (it is printed at start);
a seat token opens one seat's page of one table and nothing else, and is derived from the
secret (HMAC), so nothing has to be kept. On loopback the table and archive pages are open to
the browsers of this machine and a seat page still needs its seat's token; listening on
anything else (only with --public) every page needs a token. Changes (sync, delete) are POSTs
that carry the CSRF token of the page they came from and an Origin of this server.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import secrets

COOKIE = "cb_token"


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


class Keys:
    def __init__(self, secret: bytes | None = None, public: bool = False):
        self.secret = secret or secrets.token_bytes(32)
        self.public = public  # listening beyond loopback: every page needs a token
        self.host = self._derive("host")
        self.csrf = self._derive("csrf")

    def _derive(self, what: str) -> str:
        return hmac.new(self.secret, what.encode(), hashlib.sha256).hexdigest()[:32]

    def seat(self, table: str, seat: str) -> str:
        return self._derive("seat:%s:%s" % (table, seat))

    def is_host(self, token: str | None) -> bool:
        return _same(token, self.host)

    def is_seat(self, token: str | None, table: str, seat: str) -> bool:
        return _same(token, self.seat(table, seat))

    def csrf_ok(self, token: str | None) -> bool:
        return _same(token, self.csrf)


def _same(given: str | None, token: str) -> bool:
    """Whether a token given (a link's, a cookie's, a form's) is token, in constant time. As
    bytes: compare_digest refuses a str with a letter outside ASCII (TypeError), which a
    mangled link may carry; such a token is only a wrong one."""
    return bool(given) and hmac.compare_digest(given.encode("utf-8", "surrogatepass"),
                                               token.encode())
