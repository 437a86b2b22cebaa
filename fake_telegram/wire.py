"""The HTTP wire of the fake Bot API: reading a call's parameters and uploads from JSON,
urlencoded or multipart bodies (aiogram's way of encoding them), and Telegram-shaped
JSON replies."""

from __future__ import annotations

import json
import re
from collections.abc import Awaitable, Callable
from typing import Any, NamedTuple
from urllib.parse import unquote

from aiohttp import web

from .records import bad_request

# Parameters that arrive JSON-serialised in form bodies (aiogram's ``prepare_value``).
_JSON_FIELDS = frozenset(
    {
        "reply_markup",
        "media",
        "entities",
        "caption_entities",
        "commands",
        "scope",
        "allowed_updates",
        "link_preview_options",
        "reply_parameters",
        "results",
        "permissions",
        "reaction",
        "message_ids",
        "menu_button",
        "ephemeral_message_parameters",
    }
)
_BOOL_FIELDS = frozenset(
    {
        "show_alert",
        "disable_notification",
        "protect_content",
        "drop_pending_updates",
        "has_spoiler",
        "show_caption_above_media",
        "disable_web_page_preview",
        "allow_sending_without_reply",
        "only_if_banned",
        "revoke_messages",
        "is_personal",
        "allow_paid_broadcast",
    }
)
_INT_FIELDS = frozenset(
    {
        "chat_id",
        "message_id",
        "from_chat_id",
        "user_id",
        "offset",
        "limit",
        "timeout",
        "cache_time",
        "message_thread_id",
        "max_connections",
        "until_date",
        "reply_to_message_id",
        "receiver_user_id",
        "ephemeral_message_id",
    }
)


class Upload(NamedTuple):
    filename: str
    data: bytes


Handler = Callable[[dict[str, Any], dict[str, Upload]], Awaitable[Any]]


def json_response(body: dict[str, Any], status: int) -> web.Response:
    return web.Response(
        text=json.dumps(body, ensure_ascii=False),
        status=status,
        content_type="application/json",
    )


async def read_params(request: web.Request) -> tuple[dict[str, Any], dict[str, Upload]]:
    params: dict[str, Any] = {}
    uploads: dict[str, Upload] = {}
    for key, value in request.query.items():
        params[key] = decode_field(key, value)
    if request.method != "POST" or not request.can_read_body:
        return params, uploads
    content_type = request.content_type
    if content_type == "application/json":
        body = await request.json()
        if not isinstance(body, dict):
            raise ValueError("JSON body must be an object")
        params.update(body)
        return params, uploads
    if content_type == "multipart/form-data":
        boundary = _boundary(request.headers.get("Content-Type", ""))
        if boundary:
            parsed = _parse_multipart(await request.read(), boundary)
            if parsed is not None:
                for name, filename, data in parsed:
                    if filename is not None:
                        uploads[name] = Upload(filename or name, data)
                    else:
                        params[name] = decode_field(name, data.decode("utf-8", "replace"))
                return params, uploads
    form = await request.post()
    for name, item in form.items():
        if isinstance(item, web.FileField):
            uploads[name] = Upload(item.filename or name, item.file.read())
        elif isinstance(item, bytes | bytearray):
            uploads[name] = Upload(name, bytes(item))
        else:
            params[name] = decode_field(name, str(item))
    return params, uploads


_BOUNDARY = re.compile(r'boundary=(?:"([^"]+)"|([^;\s]+))', re.IGNORECASE)
_DISPOSITION_PARAM = re.compile(r'([\w*]+)\s*=\s*("(?:[^"\\]|\\.)*"|[^;]*)')


def _boundary(content_type: str) -> str | None:
    match = _BOUNDARY.search(content_type)
    if match is None:
        return None
    return match.group(1) or match.group(2)


def _parse_multipart(body: bytes, boundary: str) -> list[tuple[str, str | None, bytes]] | None:
    """A fast multipart/form-data parser for well-formed client bodies: ``(name, filename or
    None, content)`` per part. Returns None when the body looks unusual (the caller then
    falls back to aiohttp's parser)."""
    delimiter = b"--" + boundary.encode("latin-1")
    chunks = body.split(delimiter)
    if len(chunks) < 2:
        return None
    parts: list[tuple[str, str | None, bytes]] = []
    for chunk in chunks[1:]:
        if chunk.startswith(b"--"):
            return parts
        if not chunk.startswith(b"\r\n"):
            return None
        head, separator, content = chunk[2:].partition(b"\r\n\r\n")
        if not separator or not content.endswith(b"\r\n"):
            return None
        content = content[:-2]
        name: str | None = None
        filename: str | None = None
        for line in head.decode("utf-8", "replace").split("\r\n"):
            key, _, value = line.partition(":")
            if key.strip().lower() != "content-disposition":
                continue
            for match in _DISPOSITION_PARAM.finditer(value):
                param, raw = match.group(1).lower(), match.group(2).strip()
                if raw.startswith('"'):
                    raw = raw[1:-1].replace('\\"', '"')
                if param == "name":
                    name = raw
                elif param == "filename":
                    filename = raw
                elif param == "filename*":
                    filename = unquote(raw.split("''", 1)[-1])
        if name is None:
            return None
        parts.append((name, filename, content))
    return None


def decode_field(key: str, value: str) -> Any:
    if key in _JSON_FIELDS:
        try:
            return json.loads(value)
        except json.JSONDecodeError:
            return value
    if key in _BOOL_FIELDS and value in {"true", "false", "True", "False", "1", "0"}:
        return value in {"true", "True", "1"}
    if key in _INT_FIELDS:
        stripped = value[1:] if value.startswith("-") else value
        if stripped.isdigit():
            return int(value)
    return value


def as_int(value: Any, name: str) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        raise bad_request(f"invalid {name} specified") from None


def summarise(params: dict[str, Any], uploads: dict[str, Upload]) -> dict[str, Any]:
    summary = dict(params)
    for name, upload in uploads.items():
        summary[f"<upload:{name}>"] = f"{upload.filename} ({len(upload.data)} bytes)"
    return summary


def int_param(value: Any) -> int:
    """An integer parameter as multipart form data carries it (text), 0 when absent."""
    try:
        return int(value or 0)
    except (TypeError, ValueError):
        raise bad_request("wrong integer parameter") from None
