"""The exceptions of fusiondiff."""


class InputError(ValueError):
    """A trace, capture trace or rule file that cannot be used.

    The message names the file and the reason, as fusiondiff-cli's does:
    "trace.json.gz: invalid JSON: ... (at byte 1234)".

    Attributes:
        path: the file, as it was given.
        reason: what is wrong with it, without the file's name.
        offset: the byte offset of the problem, or None where there is none.
        offset_kind: "file" (an offset into the file as stored), "decompressed" (into the
            decompressed data of a gzip file) or None.
    """

    def __init__(self, message, path, reason, offset=None, offset_kind=None):
        super().__init__(message, path, reason, offset, offset_kind)
        self.message = message
        self.path = path
        self.reason = reason
        self.offset = offset
        self.offset_kind = offset_kind

    def __str__(self):
        return self.message


class Cancelled(Exception):
    """The comparison was stopped: the progress callback returned False."""
