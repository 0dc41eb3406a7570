"""Headers that keep the pages to themselves: only their own script runs (a name or line that slipped into a
page unescaped could not run one), no other site frames them, and no response is read as another type.

>>> dict(HEADERS)[b"x-frame-options"]
b'DENY'
"""

from __future__ import annotations

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

POLICY = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; object-src 'none'; "
          "base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
HEADERS = ((b"content-security-policy", POLICY.encode()), (b"x-content-type-options", b"nosniff"),
           (b"x-frame-options", b"DENY"), (b"referrer-policy", b"no-referrer"))


class SecurityHeaders:
    """Adds :data:`HEADERS` to every HTTP response, as pure ASGI middleware (streams are left as they are)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in HEADERS:
                    headers.append(name.decode(), value.decode())
            await send(message)

        await self.app(scope, receive, with_headers)
