"""The client messages as pydantic models (one per ``type``), and the error replies.

Every client message is checked here before the room looks at it: JSON, an object, a known
``type``, exactly the fields of that type with the right JSON types (no coercion: ``"2"`` is
not a seat). ``docs/protocol.md`` documents each message.

>>> parse('{"type": "join", "table": "t1", "id": 7}')
Join(id=7, type='join', table='t1', seat=None)
>>> try:
...     parse('{"type": "fly"}')
... except ProtocolError as e:
...     print(e.code, "|", e.message[:41])
bad_message | unknown message type 'fly': the types are
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr, TypeAdapter, ValidationError

from ..errors import IllegalAction

PROTOCOL = 1

#: Every error code the server sends (protocol.md).
ERROR_CODES = ("bad_message", "invalid", "illegal", "stale", "forbidden", "not_found", "full",
               "rate_limited", "too_large", "name_taken", "unavailable")

MessageId = StrictInt | Annotated[StrictStr, Field(max_length=64)] | None
TableId = Annotated[StrictStr, Field(min_length=1, max_length=32)]


class ProtocolError(Exception):
    """A message the room rejects: sent back as ``error`` with this code; nothing changes."""

    def __init__(self, code: str, message: str, rule: str | None = None, *, close: bool = False,
                 params: Mapping[str, Any] | None = None, template: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.rule = rule
        self.close = close
        self.params = dict(params or {})
        self.template = template if template is not None else message

    @classmethod
    def illegal(cls, e: IllegalAction) -> ProtocolError:
        """An engine's rejection, with its rule and the values its message names (``params``)."""
        return cls("illegal", e.message, e.rule, params=e.params, template=e.template)


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)
    id: MessageId = None


class Hello(_Message):
    type: Literal["hello"]
    protocol: Literal[1]
    name: Annotated[StrictStr, Field(max_length=200)]
    token: Annotated[StrictStr, Field(max_length=200)] | None = None


class Lobby(_Message):
    type: Literal["lobby"]


class Create(_Message):
    type: Literal["create"]
    game: Annotated[StrictStr, Field(max_length=32)]
    seats: StrictInt
    options: dict[str, Any] = Field(default_factory=dict)


class Tutorial(_Message):
    """A new tutorial table of ``game``: its stacked deal and scripted bots come from the server's data."""

    type: Literal["tutorial"]
    game: Annotated[StrictStr, Field(max_length=32)]


class Join(_Message):
    type: Literal["join"]
    table: TableId
    seat: StrictInt | None = None


class Leave(_Message):
    type: Literal["leave"]
    table: TableId


class Bot(_Message):
    type: Literal["bot"]
    table: TableId
    seat: StrictInt
    level: Annotated[StrictStr, Field(max_length=32)] | None


class Start(_Message):
    type: Literal["start"]
    table: TableId


class Watch(_Message):
    type: Literal["watch"]
    table: TableId


class Act(_Message):
    type: Literal["act"]
    table: TableId
    action: Annotated[StrictStr, Field(max_length=200)]
    seq: StrictInt


class Chat(_Message):
    type: Literal["chat"]
    table: TableId
    text: Annotated[StrictStr, Field(max_length=2000)]


class Ping(_Message):
    type: Literal["ping"]


class Rematch(_Message):
    type: Literal["rematch"]
    table: TableId


class Register(_Message):
    type: Literal["register"]
    password: Annotated[StrictStr, Field(max_length=200)]


class Login(_Message):
    type: Literal["login"]
    name: Annotated[StrictStr, Field(max_length=200)]
    password: Annotated[StrictStr, Field(max_length=200)]


ClientMessage = (Hello | Lobby | Create | Tutorial | Join | Leave | Bot | Start | Watch | Act | Chat | Ping | Rematch
                 | Register | Login)
MESSAGES: dict[str, type[_Message]] = {
    "hello": Hello, "lobby": Lobby, "create": Create, "tutorial": Tutorial, "join": Join, "leave": Leave, "bot": Bot,
    "start": Start, "watch": Watch, "act": Act, "chat": Chat, "ping": Ping, "rematch": Rematch,
    "register": Register, "login": Login,
}
_ADAPTER: TypeAdapter[ClientMessage] = TypeAdapter(
    Annotated[ClientMessage, Field(discriminator="type")]
)


def message_id(obj: Any) -> Any:
    """The ``id`` to repeat in a reply, if the message carried a usable one."""
    if isinstance(obj, dict):
        mid = obj.get("id")
        if (type(mid) is int) or (isinstance(mid, str) and len(mid) <= 64):
            return mid
    return None


def parse(text: str) -> ClientMessage:
    """Parse and validate one client frame; raise ``ProtocolError`` (``bad_message``)."""
    try:
        obj = json.loads(text)
    except (ValueError, RecursionError):
        raise ProtocolError("bad_message", "not JSON: send one JSON object per text frame") from None
    return validate(obj)


def validate(obj: Any) -> ClientMessage:
    if not isinstance(obj, dict):
        raise ProtocolError("bad_message", "a message is a JSON object with a \"type\"")
    kind = obj.get("type")
    if not isinstance(kind, str) or kind not in MESSAGES:
        shown = repr(kind) if isinstance(kind, str) and len(kind) <= 32 else "missing or not a string"
        raise ProtocolError("bad_message", f"unknown message type {shown}: the types are {', '.join(sorted(MESSAGES))}")
    try:
        return _ADAPTER.validate_python(obj)
    except ValidationError as e:
        raise ProtocolError("bad_message", f"{kind}: {_describe(e)}") from None


def _describe(e: ValidationError) -> str:
    parts = []
    for err in e.errors()[:3]:
        loc = ".".join(str(p) for p in err["loc"][1:]) or "message"
        if err["type"] == "extra_forbidden":
            parts.append(f"unknown field {loc!r}")
        elif err["type"] == "missing":
            parts.append(f"missing field {loc!r}")
        else:
            parts.append(f"field {loc!r}: {err['msg']}")
    return "; ".join(parts)


def error(code: str, message: str, rule: str | None = None, mid: Any = None, *,
          params: Mapping[str, Any] | None = None, template: str | None = None) -> dict[str, Any]:
    """An ``error`` message: ``template`` and ``params`` let a client word it (docs/protocol.md)."""
    return {"type": "error", "id": mid, "code": code, "message": message, "rule": rule,
            "params": dict(params or {}), "template": template if template is not None else message}
