#!/usr/bin/env python3
"""Checks that the sanitized build's unity batches (cmake/Unity.cmake)
compile each file's own lines as that file alone would be compiled.

unity_check.py BUILD_DIR

For each batch file of BUILD_DIR/unity, with its target's compile command
(ninja -t commands): the preprocessed text of every member's own lines
(those the preprocessor marks as coming from that .c file) in the batch
against the same when the member is preprocessed alone. Any difference (a
macro of an earlier member or of a header only an earlier member included,
a header read under other macros) is printed with the file and line, and
the exit status is 1. About 10 CPU-seconds: not part of make test
(docs/testing.md, "What keeps the suite fast").
"""
import os
import re
import shlex
import subprocess
import sys

MARK = re.compile(r'^# (\d+) "([^"]*)"')


def own_lines(text, path):
    """[(line number, text)] of the lines the preprocessor attributes to path."""
    out, cur, n = [], None, 0
    for line in text.split("\n"):
        m = MARK.match(line)
        if m:
            n, cur = int(m.group(1)), m.group(2)
            continue
        if cur == path:
            if line.strip():
                out.append((n, " ".join(line.split())))
            n += 1
    return out


def preprocess(args, src):
    cmd = args + ["-E", src, "-o", "-"]
    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout


def main(argv):
    if len(argv) != 2 or argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if len(argv) == 2 else 2
    build = os.path.abspath(argv[1])
    commands = subprocess.run(["ninja", "-C", build, "-t", "commands"], check=True,
                              capture_output=True, text=True).stdout.split("\n")
    bad = checked = 0
    for cmdline in commands:
        m = re.search(r" -c (\S*/unity/\S+\.c)$", cmdline)
        if not m:
            continue
        unity = m.group(1)
        args = shlex.split(cmdline)
        i = args.index("-c")
        args = args[:i] + args[i + 2:]
        j = args.index("-o")
        args = [a for k, a in enumerate(args) if k not in (j, j + 1)]
        args = [a for a in args if a not in ("-MD",)]
        for flag in ("-MT", "-MF"):
            while flag in args:
                k = args.index(flag)
                del args[k:k + 2]
        batch = preprocess(args, unity)
        members = re.findall(r'^#include "([^"]+)"', open(unity, encoding="utf-8").read(), re.M)
        for member in members:
            checked += 1
            alone = own_lines(preprocess(args, member), member)
            inside = own_lines(batch, member)
            if alone != inside:
                bad += 1
                for a, b in zip(alone + [None] * len(inside), inside + [None] * len(alone)):
                    if a != b:
                        print("%s: %s: alone %r, in the batch %r" % (unity, member, a, b))
                        break
    print("unity_check: %d files in batches, %d differ" % (checked, bad))
    return 1 if bad or not checked else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
