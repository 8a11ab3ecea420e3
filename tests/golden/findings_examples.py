#!/usr/bin/env python3
"""Keeps docs/findings-examples.md as fusiondiff-cli prints it today.

For every pair section of the page (a ```sh block with one `fusiondiff-cli compare A B [options]`
line, then the verdict as a quote, then "Where to look first (top five ...)" and a numbered list),
runs that command on the shared traces and compares the verdict and the top five of
`where_to_look_first` with the page.

Usage: findings_examples.py CLI TRACES_DIR [--write]
  CLI         the fusiondiff-cli to run (e.g. build/test/app/cli/fusiondiff-cli)
  TRACES_DIR  the shared traces (../shared/traces)
  --write     rewrite the page where it differs (else: list the differences, exit 1 if any)
"""
import json
import os
import re
import subprocess
import sys
import tempfile

PAGE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "docs", "findings-examples.md")
TITLE_LIMIT = 230  # longer titles are cut, as on the page


def duration(us):
    """A time as the page's lists show it: one decimal in us, ms or s."""
    magnitude = abs(us)
    if magnitude >= 1e6:
        return f"{us / 1e6:.1f} s"
    if magnitude >= 1e3:
        return f"{us / 1e3:.1f} ms"
    return f"{us:.1f} us"


def signed(us):
    return ("−" if us < 0 else "+") + duration(abs(us))


def entry_line(rank, entry):
    kind = entry["kind"]
    head = f"{kind}, {duration(entry['stake_us'])} at stake, {entry['slower_trace']} slower"
    if entry.get("against_gap"):
        head += " (against the gap)"
    if kind == "fusion":
        head += (f"; saving {duration(entry['saving_us'])} = extra kernels {signed(entry['saving_extra_kernels_us'])}"
                 f" + speed {signed(entry['saving_speed_us'])}")
    title = entry["title"]
    if len(title) > TITLE_LIMIT:
        title = title[:TITLE_LIMIT - 3] + "..."
    return f"{rank}. [{head}] {title}"


def run(cli, traces, command):
    words = command.split()
    args = [w if w.startswith("-") or not w.endswith(".gz") else os.path.join(traces, w) for w in words[1:]]
    with tempfile.TemporaryDirectory() as folder:
        report = os.path.join(folder, "r.json")
        subprocess.run([cli] + args + ["--json", report, "--quiet"], check=True)
        return json.load(open(report))


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    cli, traces, write = sys.argv[1], sys.argv[2], "--write" in sys.argv[3:]
    page = open(PAGE, encoding="utf-8").read()
    section = re.compile(r"```sh\n(fusiondiff-cli compare [^\n\\]+)\n```\n\n> ([^\n]*)\n(.*?)"
                         r"Where to look first \(top five of `where_to_look_first`\):\n\n((?:\d\. [^\n]*\n)+)", re.S)
    differences = 0
    pieces, last = [], 0
    for match in section.finditer(page):
        command, verdict, between, top = match.groups()
        report = run(cli, traces, command)
        now_verdict = report["time_gap"]["verdict"]  # the summary's first line after the header
        now_top = "".join(entry_line(i + 1, e) + "\n" for i, e in enumerate(report["where_to_look_first"][:5]))
        for what, old, new in (("verdict", verdict, now_verdict), ("top five", top, now_top)):
            if old != new:
                differences += 1
                print(f"{command}: {what} differs\n  page: {old.strip()[:300]}\n  now:  {new.strip()[:300]}")
        pieces.append(page[last:match.start()])
        pieces.append(f"```sh\n{command}\n```\n\n> {now_verdict}\n{between}"
                      f"Where to look first (top five of `where_to_look_first`):\n\n{now_top}")
        last = match.end()
    pieces.append(page[last:])
    if write and differences:
        open(PAGE, "w", encoding="utf-8").write("".join(pieces))
        print(f"rewrote {differences} difference(s) in {os.path.normpath(PAGE)}")
    sys.exit(1 if differences and not write else 0)


if __name__ == "__main__":
    main()
