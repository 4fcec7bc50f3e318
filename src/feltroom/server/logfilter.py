"""One warning line, not a traceback, when a client sends a text frame that is not UTF-8.

uvicorn's WebSocket layer answers such a frame correctly (close 1007), but logs it with
``logger.exception`` on ``uvicorn.error``: a client could fill the log with tracebacks at will.
``install()`` adds a filter to that logger which keeps the record as one ``WARNING`` line and drops
its traceback. Only that record is touched: every other error keeps its traceback.
"""

from __future__ import annotations

import logging

UVICORN_LOGGER = "uvicorn.error"
_MESSAGE = "Invalid UTF-8 sequence received from client."


class InvalidUtf8Filter(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        if record.msg == _MESSAGE and isinstance(exc, UnicodeDecodeError):
            record.msg = "a client sent a text frame that is not UTF-8: closed it (1007)"
            record.args = None
            record.exc_info = None
            record.exc_text = None
            record.levelno = logging.WARNING
            record.levelname = logging.getLevelName(logging.WARNING)
        return True


def install() -> None:
    """Add the filter to uvicorn's error logger (once)."""
    logger = logging.getLogger(UVICORN_LOGGER)
    if not any(isinstance(f, InvalidUtf8Filter) for f in logger.filters):
        logger.addFilter(InvalidUtf8Filter())
