#!/usr/bin/env python3
"""Checks src/ against the memory policy (docs/architecture.md, "Memory").

Usage: memory_policy.py ROOT   (ROOT holds src/). Prints one finding a line,
FILE:LINE: what, and exits 1 when there is any.

Two rules, read from the C text with comments and string literals blanked:

1. Nowhere in src/ `X = realloc(X, ...)` (or reallocarray): when the call
   fails it returns NULL and X, the only pointer to the old block, is lost.
   `X = xreallocarray(X, ...)` is fine: it cannot return NULL.

2. In the layers that do not unwind (output, compare, query, report, sim,
   cli) an allocation comes from util/xalloc.h (xmalloc, xcalloc,
   xreallocarray, xstrdup, xstrndup, xsb_detach), or its result is checked.
   A bare malloc, calloc, realloc, reallocarray, strdup, strndup or
   sb_detach call counts as checked when (a heuristic, not a proof):
   - it is assigned inside a negation, `!(p = malloc(n))`, or the
     parenthesised assignment is tested, `(p = malloc(n)) == NULL`,
     `(p = malloc(n)) ? ...`; or
   - it is assigned, `p = malloc(n)` / `T *p = malloc(n)`, and p is tested
     (`!p`, `p == NULL`, `p != NULL`, `if (p)`, `p ?`, `p &&`, `p ||`) in
     the same statement or on the next three lines; or
   - for sb_detach only: the buffer's error (`failed`) was tested on one of
     the three lines before the call.
   Anything else (a call used as an argument, returned, or assigned and
   never tested) is a finding. The unwinding layers (ingest, stats, sqlfn,
   fnshared, pg, store) are held by their fault tests instead.
"""
import os
import re
import sys

X = {"malloc": "xmalloc", "calloc": "xcalloc", "realloc": "xreallocarray", "reallocarray": "xreallocarray",
     "strdup": "xstrdup", "strndup": "xstrndup", "sb_detach": "xsb_detach"}
NON_UNWINDING = ("output", "compare", "query", "report", "sim", "cli")
CALL = re.compile(r"(?<![\w.>])(malloc|calloc|realloc|reallocarray|strdup|strndup|sb_detach)\s*\(")
SELF = re.compile(r"(?<![\w.>])((?:\*\s*)?[A-Za-z_][\w.\->\[\]]*)\s*=\s*(realloc|reallocarray)\s*\(\s*([^,]+?)\s*,")


def blank(text):
    """text with comments and string and character literals replaced by
    spaces (newlines kept, so that offsets and line numbers stay)."""
    out = list(text)
    i, n = 0, len(text)
    while i < n:
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
        elif text[i] in "\"'":
            q, j = text[i], i + 1
            while j < n and text[j] != q and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            j += 1
        else:
            i += 1
            continue
        for k in range(i, min(j, n)):
            if out[k] != "\n":
                out[k] = " "
        i = j
    return "".join(out)


def line_of(text, pos):
    return text.count("\n", 0, pos) + 1


def statement_bounds(text, pos):
    start = max(text.rfind(";", 0, pos), text.rfind("{", 0, pos), text.rfind("}", 0, pos)) + 1
    end = text.find(";", pos)
    return start, (len(text) if end < 0 else end)


def tested(lv, text):
    v = re.escape(lv)
    pats = [r"!\s*" + v + r"(?![\w\[.>-])", v + r"\s*[=!]=\s*NULL", r"\bif\s*\(\s*" + v + r"\s*\)",
            v + r"\s*(\?|&&|\|\|)", r"(&&|\|\|)\s*" + v + r"(?![\w\[.>-])"]
    return any(re.search(p, text) for p in pats)


def checked(text, m):
    name = m.group(1)
    start, end = statement_bounds(text, m.start())
    before = text[start:m.start()]
    if re.search(r"!\s*\(\s*[^;]*=\s*$", before):
        return True
    if re.search(r"\(\s*[^;()]*=\s*$", before):  # (p = malloc(n)) tested as a whole
        close, depth = m.end(), 1
        while close < end and depth:
            depth += {"(": 1, ")": -1}.get(text[close], 0)
            close += 1
        if re.match(r"\s*\)\s*([=!]=|\?|&&|\|\|)", text[close:end + 1]):
            return True
    # the assignment the call's value goes to: the statement's last "="
    # (not ==, !=, <=, >=), possibly through a condition: p = c ? malloc(n) : NULL
    eqs = [e.start() for e in re.finditer(r"(?<![=!<>+\-*/%&|^])=(?!=)", before)]
    a = eqs and re.search(r"((?:\*\s*)?[A-Za-z_][\w.\->\[\]]*)\s*$", before[:eqs[-1]])
    if a:
        lv = re.sub(r"\s+", "", a.group(1))
        ln = line_of(text, m.start())
        lines = text.split("\n")
        after = text[m.end():end] + "\n" + "\n".join(lines[ln:ln + 3])
        # "T *p = malloc(n)" declares p; "*p = malloc(n)" assigns through p
        if tested(lv, after) or (lv.startswith("*") and tested(lv[1:], after)):
            return True
    if name == "sb_detach":
        ln = line_of(text, m.start())
        if "failed" in "\n".join(text.split("\n")[max(0, ln - 4):ln]):
            return True
    return False


def check_file(path, rel, findings):
    with open(path, encoding="utf-8", errors="replace") as f:
        text = blank(f.read())
    for m in SELF.finditer(text):
        if re.sub(r"\s+", "", m.group(1)) == re.sub(r"\s+", "", m.group(3)):
            findings.append(f"{rel}:{line_of(text, m.start())}: {m.group(1).strip()} = {m.group(2)}"
                            f"({m.group(3).strip()}, ...) loses the block when the call fails")
    parts = rel.replace(os.sep, "/").split("/")
    if len(parts) < 3 or parts[0] != "src" or parts[1] not in NON_UNWINDING:
        return
    for m in CALL.finditer(text):
        if not checked(text, m):
            findings.append(f"{rel}:{line_of(text, m.start())}: {m.group(1)}() result not checked; use "
                            f"util/xalloc.h ({X[m.group(1)]})"
                            " or test it")


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "."
    findings = []
    for d, _, files in os.walk(os.path.join(root, "src")):
        for name in sorted(files):
            if name.endswith((".c", ".h")):
                path = os.path.join(d, name)
                check_file(path, os.path.relpath(path, root), findings)
    def where(f):
        path, line, _ = f.split(":", 2)
        return path, int(line)
    for f in sorted(findings, key=where):
        print(f)
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
