#!/usr/bin/env python3
"""Reads every saved query (queries/*.sql, or the files given) and prints
each construct docs/portable-sql.md says one engine lacks, with file and
line; exits 1 if there is one. The SQL is read without its comments, and
string literals are looked at only for SQLite's JSON paths ('$.x').

usage: portable_sql.py FILE...   (default: SRC/queries/*.sql with SRC the first argument)"""
import glob
import os
import re
import sys

RULES = [
    (r"'\$[.\[]", "a JSON path ('$.x'): use ->> with a key label"),
    (r"\bjson_extract\s*\(", "json_extract: use ->> with a key label"),
    (r"\bjson_each\s*\(", "json_each: not on PostgreSQL's json"),
    (r"\bgroup_concat\s*\(", "group_concat: use string_agg(x, sep)"),
    (r"\biif\s*\(", "iif: use CASE WHEN"),
    (r"\btypeof\s*\(", "typeof: SQLite only"),
    (r"\browid\b", "rowid: SQLite only; use the table's id"),
    (r"\bINSERT\s+OR\b", "INSERT OR ...: use ON CONFLICT"),
    (r"\b(printf|format)\s*\(", "formatting in SQL: the output layer formats"),
    (r"\bround\s*\([^()]*,", "round(x, n): the output layer rounds"),
    (r"\bIS\s+(?!NOT\b|NULL\b|DISTINCT\b|TRUE\b|FALSE\b)", "a IS b: use IS NOT DISTINCT FROM"),
    (r"\bIS\s+NOT\s+(?!NULL\b|DISTINCT\b|TRUE\b|FALSE\b)", "a IS NOT b: use IS DISTINCT FROM"),
    (r"\bsum\s*\(\s*[\w.]+\s*(=|<>|<|>)[^()]*\)", "sum of a comparison: use count(*) FILTER (WHERE ...)"),
]


def strip(text):
    """The text with comments blanked and string literals kept apart:
    returns (code, strings), each the same length as text, line breaks kept."""
    code, strs, i, n = [], [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("--", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            code.append(" " * (j - i)); strs.append(" " * (j - i)); i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            blank = re.sub(r"[^\n]", " ", text[i:j])
            code.append(blank); strs.append(blank); i = j
        elif c == "'":
            j = i + 1
            while j < n and not (text[j] == "'" and not text.startswith("''", j)):
                j += 2 if text.startswith("''", j) else 1
            j = min(j + 1, n)
            lit = text[i:j]
            code.append("''" + re.sub(r"[^\n]", " ", lit[2:])); strs.append(lit); i = j
        else:
            code.append(c); strs.append("\n" if c == "\n" else " "); i += 1
    return "".join(code), "".join(strs)


def check(path):
    text = open(path, encoding="utf-8").read()
    code, strs = strip(text)
    found = []
    for pattern, why in RULES:
        hay = strs if pattern.startswith("'") else code
        for m in re.finditer(pattern, hay, re.IGNORECASE):
            line = hay.count("\n", 0, m.start()) + 1
            found.append((line, "%s:%d: %s" % (path, line, why)))
    return [f for _, f in sorted(found)]


files = sys.argv[1:]
if len(files) == 1 and os.path.isdir(files[0]):
    files = sorted(glob.glob(os.path.join(files[0], "queries", "*.sql")))
bad = [msg for f in files for msg in check(f)]
if bad:
    print("\n".join(bad))
    sys.exit(1)
print("portable_sql: %d saved queries in the SQL both engines run" % len(files))
