"""The web's one error type: :class:`WebError`, a refused request with a code of
:class:`ErrorCode`, and the one code -> HTTP status table, :data:`HTTP_STATUS`.

Every refusal of the web table (a table request, an inbound message or body, an account
request, a review) is a :class:`WebError`; ``code`` is what the client reads
(``{"error", "code"}`` over HTTP, ``{"type": "error", "code", "message"}`` on a WebSocket),
``str(exc)`` the English message, ``key``/``params`` the message to translate
(:func:`ginrummy.i18n.translate_error`).  Every module raises and catches this class by this
name, with a member of :class:`ErrorCode` (the four per-area names it once had are gone:
docs/design-notes.md, "Habits").
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from ..errors import GinRummyError

__all__ = ["ErrorCode", "HTTP_STATUS", "WebError", "http_status"]


class ErrorCode(StrEnum):
    """The codes of the web's errors, equal to and written as their strings."""

    # a table request (room/)
    NOT_FOUND = "not_found"
    BAD_TOKEN = "bad_token"
    BAD_REQUEST = "bad_request"
    NOT_ALLOWED = "not_allowed"
    CONFLICT = "conflict"
    BAD_INVITE = "bad_invite"
    CLAIMED = "claimed"
    # an inbound message or body (protocol/)
    TOO_LARGE = "too_large"
    BAD_JSON = "bad_json"
    BAD_MESSAGE = "bad_message"
    UNSUPPORTED_MEDIA_TYPE = "unsupported_media_type"
    BAD_DEAL = "bad_deal"
    # an account request (community/)
    BAD_NAME = "bad_name"
    BAD_PASSWORD = "bad_password"
    NAME_TAKEN = "name_taken"
    WRONG_PASSWORD = "wrong_password"  # an unknown name too: the answer does not say which
    RATE_LIMITED = "rate_limited"
    NOT_SIGNED_IN = "not_signed_in"
    RATED_REFUSED = "rated_refused"  # too many forfeits: no rated play until a time (fair play)
    # moderation (community/moderation.py)
    BLOCKED = "blocked"
    SUSPENDED = "suspended"
    BARRED = "barred"
    MUTED = "muted"
    FORBIDDEN = "forbidden"
    BAD_API_TOKEN = "bad_api_token"  # no, a wrong or a revoked API token (docs/bot-api.md)
    MISSING_SCOPE = "missing_scope"  # the API token lacks the route's scope
    # a review (room/review_service.py)
    NOT_OVER = "not_over"
    BUSY = "busy"
    SERVER_BUSY = "server_busy"
    # a puzzle (community/puzzles.py)
    BAD_MOVE = "bad_move"
    NO_PUZZLE = "no_puzzle"
    # a fault of ours: nothing changed
    INTERNAL = "internal"


HTTP_STATUS: dict[str, int] = {
    ErrorCode.NOT_FOUND: 404,
    ErrorCode.BAD_TOKEN: 403,
    ErrorCode.BAD_REQUEST: 400,
    ErrorCode.NOT_ALLOWED: 403,
    ErrorCode.CONFLICT: 409,
    ErrorCode.BAD_INVITE: 403,
    ErrorCode.CLAIMED: 409,
    ErrorCode.TOO_LARGE: 413,
    ErrorCode.BAD_JSON: 400,
    ErrorCode.BAD_MESSAGE: 400,
    ErrorCode.UNSUPPORTED_MEDIA_TYPE: 415,
    ErrorCode.BAD_DEAL: 400,
    ErrorCode.BAD_NAME: 400,
    ErrorCode.BAD_PASSWORD: 400,
    ErrorCode.NAME_TAKEN: 409,
    ErrorCode.WRONG_PASSWORD: 401,
    ErrorCode.RATE_LIMITED: 429,
    ErrorCode.NOT_SIGNED_IN: 401,
    ErrorCode.RATED_REFUSED: 403,
    ErrorCode.BLOCKED: 403,
    ErrorCode.SUSPENDED: 403,
    ErrorCode.BARRED: 403,
    ErrorCode.MUTED: 403,
    ErrorCode.FORBIDDEN: 403,
    ErrorCode.BAD_API_TOKEN: 401,
    ErrorCode.MISSING_SCOPE: 403,
    ErrorCode.NOT_OVER: 400,
    ErrorCode.BUSY: 503,
    ErrorCode.SERVER_BUSY: 503,
    ErrorCode.BAD_MOVE: 400,
    ErrorCode.NO_PUZZLE: 404,
    ErrorCode.INTERNAL: 500,
}
"""The HTTP status of each code (an HTTP answer of an error with no code of its own takes its
code from the status: :data:`ginrummy.web.http.common.STATUS_CODES`)."""


def http_status(code: str, default: int = 400) -> int:
    """The HTTP status of error ``code`` (:data:`HTTP_STATUS`), else ``default``."""
    return HTTP_STATUS.get(code, default)


class WebError(GinRummyError, ValueError):
    """A refused web request.

    Args:
        code: an :class:`ErrorCode` (or its string).
        message: the English message, a :class:`~ginrummy.errors.Msg` (made with
            :func:`~ginrummy.web.texts.W_`) so that it can be said in each reader's language.
        reply_to: the inbound message's ``id`` when one could be read, else ``None``.
        retry_after: seconds to wait (``rate_limited``), else 0.
        hashed: an account refusal that came after a password was hashed (it cost a sign-up).
    """

    def __init__(
        self, code: str, message: Any, reply_to: Any = None, retry_after: int = 0, hashed: bool = False
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.reply_to = reply_to
        self.retry_after = retry_after
        self.hashed = hashed

    @property
    def status(self) -> int:
        """The HTTP status of :attr:`code` (:data:`HTTP_STATUS`; 400 for a code not in it)."""
        return http_status(self.code)
