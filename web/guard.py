"""What the server accepts before any endpoint sees a request: its own Host, its own Origin,
JSON bodies of a bounded size.

``t400 serve`` runs CPU-heavy work for whoever asks, so, as the local servers players already
trust do (Jupyter, the webpack and Vite dev servers):

- a request whose ``Host`` is not one this server serves is refused (421 would be exact; 403 is
  what browsers and tools understand): a page on another site that rebinds its DNS name to this
  machine sends its own name as Host and so never reaches the API;
- a request whose ``Origin`` is another site's is refused (403): a page the player visits cannot
  make the server compute, even with a "simple" request that needs no CORS preflight;
- a POST to the API must be ``application/json`` (415): HTML forms and ``text/plain`` requests,
  which a foreign page can send without a preflight, never reach an endpoint;
- a body announced longer than :data:`MAX_BODY` bytes is refused (413) before it is read; the
  endpoints read an unannounced (chunked) one only up to that size (:func:`web.app.read_body`).

Every refusal is one JSON line ``{"error": "Error: ..."}``, as the API's other errors.
"""

from __future__ import annotations

import ipaddress
import json
import socket

#: The largest request body read (a question to the API is a few hundred bytes).
MAX_BODY = 64 * 1024
#: The error line of a body over :data:`MAX_BODY` (the endpoints read at most that much).
TOO_LARGE = f"the request body is larger than {MAX_BODY // 1024} KB"
#: Host names that always mean this machine.
LOCAL_NAMES = ("localhost", "127.0.0.1", "::1")


def host_of(value: str) -> str:
    """The host part of a Host header or an origin's authority (no port, no brackets, lower case).

    >>> host_of("LocalHost:8400"), host_of("[::1]:80"), host_of("127.0.0.1")
    ('localhost', '::1', '127.0.0.1')
    """
    value = value.strip().lower()
    if value.startswith("["):
        return value[1 : value.find("]")] if "]" in value else value
    return value.rsplit(":", 1)[0] if value.count(":") == 1 else value


def _is_ip(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


def is_loopback(host: str) -> bool:
    """Whether ``host`` names this machine only (``localhost`` or a loopback address)."""
    host = host_of(host) if not _is_ip(host) else host
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def allowed_hosts(bound: str, extra: tuple[str, ...] = ()) -> tuple[set[str], bool]:
    """The Host names a server bound to ``bound`` answers, and whether any IP literal is
    accepted (a wildcard bind: other computers reach it by one of this machine's addresses, and
    an address, unlike a name, cannot be rebound to another site)."""
    names = {*LOCAL_NAMES, host_of(bound), *(host_of(h) for h in extra)}
    wildcard = bound in ("0.0.0.0", "::", "")
    if wildcard:
        hostname = socket.gethostname().lower()
        names |= {hostname, socket.getfqdn(hostname).lower()}
    return names, wildcard


class Guard:
    """ASGI middleware applying the rules of this module to ``app``."""

    def __init__(self, app, bound: str = "127.0.0.1", extra_hosts: tuple[str, ...] = ()):
        self.app = app
        self.names, self.any_ip = allowed_hosts(bound, extra_hosts)

    def host_ok(self, host: str) -> bool:
        h = host_of(host)
        return h in self.names or (self.any_ip and _is_ip(h))

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        host = headers.get("host", "")
        if not self.host_ok(host):
            return await refuse(send, 403, f"this server does not answer for host {_short(host)!r}")
        origin = headers.get("origin")
        if origin is not None and not _same_origin(origin, host):
            return await refuse(send, 403, f"requests from {_short(origin)} are not accepted (not this page)")
        if scope["method"] == "POST" and scope["path"].startswith("/api/"):
            kind = headers.get("content-type", "").split(";")[0].strip().lower()
            if kind != "application/json":
                return await refuse(send, 415, "the API accepts only Content-Type: application/json")
            length = headers.get("content-length")
            if length is not None and (not length.strip().isdigit() or int(length) > MAX_BODY):
                return await refuse(send, 413, TOO_LARGE)
        await self.app(scope, receive, send)


def _same_origin(origin: str, host: str) -> bool:
    """Whether ``origin`` (scheme://authority) is the page's own, served at ``host``."""
    scheme, sep, authority = origin.strip().lower().partition("://")
    return bool(sep) and scheme == "http" and authority == host.strip().lower()


def _short(text: str, most: int = 80) -> str:
    return text if len(text) <= most else text[:most] + "..."


async def refuse(send, status: int, message: str) -> None:
    body = json.dumps({"error": f"Error: {message}"}).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                            (b"connection", b"close")]})  # fmt: skip
    await send({"type": "http.response.body", "body": body})
