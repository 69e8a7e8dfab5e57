#!/usr/bin/env python3
"""benchdb's SQL functions on both engines, and their index, from the one
catalogue.

    tools/gen/functions.py [--out DIR]

reads src/fnshared/functions.json (what each entry holds is said at its
top) and writes under DIR (the repository by default):

  src/sqlfn/catalogue.c        SQLite's registration table (extension.c registers it)
  src/pg/benchstats--0.1.sql   the PostgreSQL extension's declarations
  docs/functions.md            the index (between its two marker lines)

`make regen` runs it; the test gen/current fails when a committed file is
not what it writes, and pg/catalogue compares what each engine then
registers with the catalogue. As a module: load() and overloads().
"""
import argparse
import json
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CATALOGUE = os.path.join(ROOT, "src", "fnshared", "functions.json")
DOCS = "docs/functions.md"
INDEX_BEGIN = "<!-- index: made by tools/gen/functions.py from src/fnshared/functions.json (make regen) -->"
INDEX_END = "<!-- end of the index -->"
MADE = "Made by tools/gen/functions.py from src/fnshared/functions.json (make regen): change the catalogue, not this file."


def load(path=CATALOGUE):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def engines(fn):
    return fn.get("engines", ["sqlite", "postgresql"])


def overloads(fn):
    """The argument names of each overload, fewest first; None for any
    number of arguments ('v, ...')."""
    args = fn["args"]
    if args.endswith("..."):
        return None
    required = [a.strip() for a in args.split("[")[0].split(",") if a.strip()]
    optional = re.findall(r"\[,\s*(\w+)", args)
    return [required + optional[:k] for k in range(len(optional) + 1)]


def wrap(prefix, words, width=78):
    """A C block comment of words, each line starting with prefix."""
    lines, line = [], prefix
    for w in words.split():
        if len(line) + 1 + len(w) > width and line != prefix:
            lines.append(line)
            line = prefix
        line += ("" if line == prefix else " ") + w
    lines.append(line)
    return lines


# ---- SQLite ----

def sqlite_rows(cat):
    rows = []
    for fn in cat["functions"]:
        if "sqlite" not in engines(fn):
            continue
        s = fn["sqlite"]
        fields = ['.name = "%s"' % fn["name"]]
        kind = s.get("kind", "0")
        for args in overloads(fn) or [None]:
            f = list(fields)
            f.append(".nargs = %d" % (-1 if args is None else len(args)))
            if "window" in s:
                pre = "sqlfn_%s" % s["window"]
                f += [".step = %s_step" % pre, ".inverse = %s_inverse" % pre, ".final = %s_final" % pre,
                      ".value = %s_value" % pre]
            else:
                f.append(".func = %s" % s["fn"])
            if kind != "0":
                f.append(".kind = %s" % kind)
            if "probe" in s:
                f.append('.probe = "%s"' % s["probe"])
            if fn["deterministic"]:
                f.append(".deterministic = 1")
            rows.append("    {%s}," % ", ".join(f))
    return rows


def render_sqlite(cat):
    head = wrap(" *", "benchdb's SQL functions on SQLite: the registration table, one row per function and "
                "argument count (an aggregate's callbacks, every aggregate also a window function; a scalar's "
                "function). " + MADE + " extension.c registers every row.")
    head[0] = "/*" + head[0][2:]
    rows = sqlite_rows(cat)
    return "\n".join(head) + " */\n" + "\n".join([
        '#include "sqlfn/fn_summary.h"',
        '#include "sqlfn/sqlfn.h"',
        "",
        "const struct sqlfn_def sqlfn_catalogue[] = {",
    ] + rows + [
        "};",
        "",
        "const size_t sqlfn_catalogue_count = sizeof sqlfn_catalogue / sizeof sqlfn_catalogue[0];",
        "",
    ])


# ---- PostgreSQL ----

PG_HEAD = """-- benchstats 0.1 for PostgreSQL 15: benchdb's SQL functions (docs/functions.md),
-- built from the same C as the SQLite ones (src/pg, src/fnshared, src/stats).
-- {made}
-- Installed into the schema benchstats (benchstats.control). variance and
-- stddev exist in pg_catalog too: put benchstats first in search_path,
--   SET search_path = "$user", public, benchstats, pg_catalog;
-- for variance(x) and stddev(x) to be benchdb's (docs/postgresql.md).
--
-- Every aggregate NAME has NAME_step, NAME_inverse, NAME_final and
-- NAME_combine (the C function learns NAME from them, for its errors), a
-- serial/deserial pair for its state type, and is PARALLEL SAFE with a
-- moving-aggregate form (exact removal) for window frames.

\\echo Use "CREATE EXTENSION benchstats" to load this file. \\quit
"""

C_FUNCTION = "CREATE FUNCTION %s(%s) RETURNS %s\n  AS 'MODULE_PATHNAME', '%s' LANGUAGE C IMMUTABLE%s PARALLEL SAFE;"


def pg_types(cat, fn, args):
    own = fn["postgresql"].get("types", {})
    return [own.get(a, cat["pg_types"][a]) for a in args]


def pg_scalar(cat, fn):
    p = fn["postgresql"]
    if "sql" in p:
        return p["sql"]
    out = []
    for args in overloads(fn):
        out.append(C_FUNCTION % (fn["name"], ", ".join(pg_types(cat, fn, args)), p["returns"], p["c"],
                                 " STRICT" if p["strict"] else ""))
    return "\n".join(out).split("\n")


def pg_aggregate(cat, fn):
    p, name = fn["postgresql"], fn["name"]
    state = {s["name"]: s for s in cat["states"]}[p["state"]]["name"]
    out = ["", "-- %s(%s)" % (name, fn["args"])]
    signatures = []
    for args in overloads(fn):
        for x in p.get("x_types", [None]):
            types = pg_types(cat, fn, args)
            if x:
                types[args.index("x")] = x
            signatures.append(", ".join(types))
    for sig in signatures:
        for part, c in (("step", p["step"]), ("inverse", p["step"])):
            out.append(C_FUNCTION % ("%s_%s" % (name, part), "internal, " + sig, "internal",
                                     "bs_%s_%s" % (c, part), ""))
    out.append(C_FUNCTION % (name + "_final", "internal", p["returns"], "bs_%s_final" % p["final"], " STRICT"))
    out.append(C_FUNCTION % (name + "_combine", "internal, internal", "internal", "bs_%s_combine" % p["combine"], ""))
    for sig in signatures:
        out.append("CREATE AGGREGATE %s(%s) (" % (name, sig))
        out.append("  SFUNC = {n}_step, STYPE = internal, FINALFUNC = {n}_final,".format(n=name))
        out.append("  COMBINEFUNC = {n}_combine, SERIALFUNC = {s}_serial, DESERIALFUNC = {s}_deserial,"
                   .format(n=name, s=state))
        out.append("  MSFUNC = {n}_step, MINVFUNC = {n}_inverse, MSTYPE = internal, MFINALFUNC = {n}_final,"
                   .format(n=name))
        out.append("  PARALLEL = SAFE);")
    return "\n".join(out).split("\n")


def render_pg(cat):
    out = PG_HEAD.format(made=MADE).split("\n")
    out.append("-- ---- scalars ----")
    fns = [f for f in cat["functions"] if "postgresql" in engines(f)]
    for fn in fns:
        if fn["kind"] == "scalar":
            out += pg_scalar(cat, fn)
    out += ["", "-- ---- the serial and deserial functions of each state type ----"]
    for s in cat["states"]:
        out.append(C_FUNCTION % (s["name"] + "_serial", "internal", "bytea", "bs_%s_serial" % s["c"], " STRICT"))
        out.append(C_FUNCTION % (s["name"] + "_deserial", "bytea, internal", "internal",
                                 "bs_%s_deserial" % s["c"], " STRICT"))
    for fn in fns:
        if fn["kind"] == "aggregate":
            out += pg_aggregate(cat, fn)
    return "\n".join(out) + "\n"


# ---- docs/functions.md ----

def render_index(cat):
    rows = [INDEX_BEGIN, "| function | kind | result | |", "|---|---|---|---|"]
    for fn in cat["functions"]:
        kind = "aggregate, window" if fn["kind"] == "aggregate" else "scalar"
        rows.append("| [`%s(%s)`](#%s) | %s | %s | %s |"
                    % (fn["name"], fn["args"], fn["doc"], kind, fn["result"], fn["summary"]))
    rows.append(INDEX_END)
    return rows


def render_docs(cat, text):
    lines = text.split("\n")
    try:
        a, b = lines.index(INDEX_BEGIN), lines.index(INDEX_END)
    except ValueError:
        raise SystemExit("%s: the index's marker lines are missing (%s ... %s)" % (DOCS, INDEX_BEGIN, INDEX_END))
    return "\n".join(lines[:a] + render_index(cat) + lines[b + 1:])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default=ROOT, help="the tree to write into (default: the repository)")
    args = ap.parse_args()
    cat = load()
    docs = open(os.path.join(ROOT, DOCS), encoding="utf-8").read()
    outputs = {
        "src/sqlfn/catalogue.c": render_sqlite(cat),
        "src/pg/benchstats--0.1.sql": render_pg(cat),
        DOCS: render_docs(cat, docs),
    }
    for rel, text in outputs.items():
        path = os.path.join(args.out, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)


if __name__ == "__main__":
    sys.exit(main())
