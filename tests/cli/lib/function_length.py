#!/usr/bin/env python3
"""Lists the functions of the .c files under a folder that are longer than
a limit, counted from the first line of the signature to the closing brace
at column 0 (the project's style: a definition starts at column 0, its
body's braces open and close at column 0). Exits 1 when one is over the
limit and not in ALLOWED, or when an ALLOWED one no longer is (so the list
only shrinks); ALLOWED applies to the repository's own src/ only.

usage: function_length.py SRC_DIR [LIMIT]"""
import os
import re
import sys

# path:function over the limit today, each with why it stays for now
# (none: keep it so).
ALLOWED = set()

# A definition's first line: at column 0, a name followed by "(", no "=" or
# ";" before it (so not an initializer or a declaration).
SIGNATURE = re.compile(r"(?:[A-Za-z_][^=;(]*?\b)?([A-Za-z_]\w*)\s*\(")


def functions(path):
    """(name, first line, lines) of each function defined in path."""
    lines = open(path, encoding="utf-8").read().split("\n")
    out, start, name, inside = [], None, None, False
    for i, line in enumerate(lines):
        if inside:
            if line.startswith("}"):
                out.append((name, start + 1, i - start + 1))
                inside, start = False, None
            continue
        if start is None:
            m = SIGNATURE.match(line)
            if not m or line.startswith(("typedef", "#")):
                continue
            start, name = i, m.group(1)
        if line.startswith("{") or (line.rstrip().endswith("{") and ")" in line):
            inside = True
        elif line.rstrip().endswith(";") or not line.strip():
            start = None  # a declaration, not a definition
    return out


def main():
    root = sys.argv[1]
    limit = int(sys.argv[2]) if len(sys.argv) > 2 else 100
    over, counted = {}, 0
    for d, _, files in sorted(os.walk(root)):
        for f in sorted(files):
            if not f.endswith(".c"):
                continue
            path = os.path.join(d, f)
            rel = os.path.relpath(path, root)
            for name, line, n in functions(path):
                counted += 1
                if n > limit:
                    over["%s:%s" % (rel, name)] = (line, n)
    bad = 0
    here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "src")
    allowed = ALLOWED if os.path.exists(here) and os.path.samefile(root, here) else set()
    for key, (line, n) in sorted(over.items(), key=lambda kv: -kv[1][1]):
        if key in allowed:
            print("allowed for now: %s (line %d) has %d lines" % (key, line, n))
        else:
            print("too long: %s (line %d) has %d lines, over %d" % (key, line, n, limit))
            bad += 1
    if allowed:
        for key in sorted(allowed - set(over)):
            print("stale: %s is no longer over %d lines: remove it from ALLOWED" % (key, limit))
            bad += 1
    print("%d functions counted, %d over %d lines or stale" % (counted, bad, limit))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
