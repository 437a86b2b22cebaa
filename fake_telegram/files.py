"""Files in the fake server: uploaded photos and animations, file ids, reference counts
(``keep_files=False`` forgets unused files) and ``getFile``."""

from __future__ import annotations

import hashlib
import io
import secrets
from typing import Any

from .records import FileRecord, TelegramError, bad_request
from .state import ServerState
from .wire import Upload, int_param

_MAX_PHOTO_BYTES = 10 * 1024 * 1024
_MAX_UPLOAD_BYTES = 50 * 1024 * 1024  # any other file the bot uploads


class FileMethods(ServerState):
    """Resolving, storing and serving files."""

    def _file(self, file_id: str) -> FileRecord:
        record = self.files.get(file_id)
        if record is None and "-" in file_id:
            record = self.files.get(file_id.rsplit("-", 1)[0])
        if record is None:
            raise bad_request("wrong file identifier/HTTP URL specified")
        return record

    def _photo(self, value: Any, uploads: dict[str, Upload], field_name: str) -> FileRecord:
        """Resolve a photo parameter: an upload (``attach://name`` or the field itself) or
        a file_id the server returned before."""
        upload: Upload | None = None
        if isinstance(value, str) and value.startswith("attach://"):
            upload = uploads.get(value[len("attach://") :])
            if upload is None:
                raise bad_request(f"failed to get file content for {value}")
        elif value is None:
            upload = uploads.get(field_name)
            if upload is None:
                raise bad_request("there is no photo in the request")
        elif isinstance(value, str):
            if value.startswith(("http://", "https://")):
                raise bad_request("failed to get HTTP URL content")
            return self._file(value)
        else:
            raise bad_request("wrong file identifier/HTTP URL specified")
        return self._store_photo(upload)

    @staticmethod
    def _retain(record: FileRecord | None) -> None:
        if record is not None:
            record.refs += 1

    def _release(self, record: FileRecord | None) -> None:
        """A message stopped showing ``record``; with ``keep_files=False`` an unused file is
        forgotten (its file_id stops working, its bytes are freed)."""
        if record is None:
            return
        record.refs -= 1
        if record.refs <= 0 and not self.keep_files:
            self.files.pop(record.file_id, None)

    def _store_photo(self, upload: Upload) -> FileRecord:
        if not upload.data:
            raise bad_request("file must be non-empty")
        if len(upload.data) > _MAX_PHOTO_BYTES:
            raise bad_request("PHOTO_SAVE_FILE_INVALID")
        width, height = image_size(upload.data)
        if width + height > 10000 or max(width, height) > 20 * max(1, min(width, height)):
            raise bad_request("PHOTO_INVALID_DIMENSIONS")
        digest = hashlib.sha1(upload.data).hexdigest()
        self.upload_digests[digest] = self.upload_digests.get(digest, 0) + 1
        number = next(self._file_seq)
        record = FileRecord(
            file_id=f"AgAC{self.bot_id:x}F{number:07d}{secrets.token_hex(4)}",
            file_unique_id=f"AQAD{number:07d}",
            data=upload.data,
            width=width,
            height=height,
            filename=upload.filename,
        )
        self.files[record.file_id] = record
        return record

    def _animation(self, params: dict[str, Any], uploads: dict[str, Upload]) -> FileRecord:
        value = params.get("animation")
        upload: Upload | None = None
        if isinstance(value, str) and value.startswith("attach://"):
            upload = uploads.get(value[len("attach://") :])
        elif value is None:
            upload = uploads.get("animation")
        elif isinstance(value, str):
            if value.startswith(("http://", "https://")):
                raise bad_request("failed to get HTTP URL content")
            record = self._file(value)
            if record.kind != "animation":
                raise bad_request("wrong file identifier/HTTP URL specified")
            return record
        if upload is None:
            raise bad_request("there is no animation in the request")
        if not upload.data:
            raise bad_request("file must be non-empty")
        if len(upload.data) > _MAX_UPLOAD_BYTES:
            raise TelegramError(413, "Request Entity Too Large")
        if upload.data[:3] == b"GIF":
            width, height = image_size(upload.data)
        elif upload.data[4:8] == b"ftyp":
            width, height = 0, 0
        else:
            raise bad_request("wrong type of the web page content")
        number = next(self._file_seq)
        record = FileRecord(
            file_id=f"CgAC{self.bot_id:x}F{number:07d}{secrets.token_hex(4)}",
            file_unique_id=f"AgAD{number:07d}",
            data=upload.data,
            width=int_param(params.get("width")) or width,
            height=int_param(params.get("height")) or height,
            filename=upload.filename,
            kind="animation",
            duration=int_param(params.get("duration")),
        )
        self.files[record.file_id] = record
        return record

    def file_path(self, file_id: str) -> str:
        """URL path (on this server) serving a stored file's bytes."""
        record = self._file(file_id)
        extension = sniff_mime(record.data).split("/")[-1]
        return f"/file/bot{self.token}/photos/{record.file_id}.{extension}"

    def file_bytes(self, file_id: str) -> bytes:
        return self._file(file_id).data

    async def m_getFile(self, params: dict[str, Any], uploads: dict[str, Upload]) -> Any:
        record = self._file(str(params.get("file_id") or ""))
        return {
            "file_id": record.file_id,
            "file_unique_id": record.file_unique_id,
            "file_size": record.size,
            "file_path": f"photos/{record.file_id}.{sniff_mime(record.data).split('/')[-1]}",
        }


def image_size(data: bytes) -> tuple[int, int]:
    try:
        from PIL import Image
    except ImportError:  # pragma: no cover - Pillow is a project dependency
        return 1, 1
    try:
        with Image.open(io.BytesIO(data)) as image:
            width, height = image.size
    except Exception:
        raise bad_request("IMAGE_PROCESS_FAILED") from None
    return int(width), int(height)


def sniff_mime(data: bytes) -> str:
    """The MIME type of an uploaded picture, by its first bytes (the playground serves it too)."""
    if data.startswith(b"\x89PNG"):
        return "image/png"
    if data.startswith(b"\xff\xd8"):
        return "image/jpeg"
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "image/webp"
    if data.startswith(b"GIF8"):
        return "image/gif"
    return "application/octet-stream"
