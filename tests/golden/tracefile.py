"""The trace events of a Kineto/Chrome-trace JSON file, gzipped or not, for the check scripts here."""
import gzip
import json


def load_events(path):
    """The list of trace events: the file's "traceEvents", or the file itself in the array format."""
    with open(path, "rb") as f:
        gz = f.read(2) == b"\x1f\x8b"
    with (gzip.open if gz else open)(path, "rb") as f:
        trace = json.load(f)
    return trace["traceEvents"] if isinstance(trace, dict) else trace
