#!/usr/bin/env python3
"""Checks that the folders of src/ depend on each other one way only, as
docs/architecture.md's module map draws them, by the #include lines of
every .c and .h and by the calls the object files make (nm), and that no
two modules (a .c and its .h are one module) of src/ depend on each other
in a cycle, whatever their folders.

USES below is the map: a folder may use itself and the folders it lists
(transitively closed here, so the map lists direct neighbours only). A
folder that is not in the map, or an edge the map does not allow, is
printed and the script exits 1, so a new folder or dependency is a
decision made in the map and the docs, not by accident.

usage: src_layers.py SRC_DIR BUILD_DIR"""
import os
import re

import sys

sys.dont_write_bytecode = True  # nothing written into the source tree
import nm_symbols  # noqa: E402 (after the line above: no __pycache__ in the source tree)
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from graph_cycles import cycles  # noqa: E402

src, build = sys.argv[1], sys.argv[2]
root = os.path.join(src, "src")

# Each folder and the folders it may use directly (docs/architecture.md,
# "The modules of src/").
USES = {
    "util": [],
    "stats": [],
    "fnshared": ["stats"],
    "sqlfn": ["fnshared", "stats"],
    "pg": ["fnshared", "stats"],
    "store": ["sqlfn", "util"],
    "output": ["store", "util"],
    "sim": ["util"],
    "ingest": ["store", "util"],
    "compare": ["ingest", "output"],
    "query": ["compare", "output"],
    "report": ["query"],
    "cli": ["report", "sim"],
    "main": ["cli"],
}


# Cycles between modules that stand today, each with why; the test fails
# when one of them grows or a new one appears (a cycle that shrinks or goes
# is to be removed here). Tables of handlers are the common case: the
# table names each handler, and a handler reads the table.
KNOWN_CYCLES = {
    # diag's messages use text's quoting; text's parsers report through diag
    frozenset({"util/diag", "util/text"}),
    # pg_sql's typed literals take evaluate's resolved parameters
    frozenset({"query/evaluate", "query/pg_sql"}),
    # the generated registration table names extension's functions
    frozenset({"sqlfn/catalogue", "sqlfn/extension"}),
    # the command table names cmd_help, which lists the table
    frozenset({"cli/cmd_help", "cli/commands"}),
    # chart.c dispatches to each kind of chart, which use its axes and
    # panels
    frozenset({"report/chart", "report/chart_bar", "report/chart_forest",
               "report/chart_series", "report/chart_strip",
               "report/forest_panel", "report/series_panel"}),
    # a simulated history is one part of a simulation, which drives it
    frozenset({"sim/history", "sim/sim"}),
    # the connection layer: opening a store migrates it and guards it, and
    # a server's rows are made sqlite3_values by db_sqlite; before a
    # migration, whether the role may apply it (may_write, which asks the
    # server through the connection)
    frozenset({"store/db_pg", "store/db_sqlite", "store/may_write", "store/migrate",
               "store/migrations", "store/pg_guard", "store/pg_wait",
               "store/store", "store/store_pg"}),
}


def closure():
    full = {}
    for f in USES:
        seen, todo = set(), list(USES[f])
        while todo:
            g = todo.pop()
            if g not in seen:
                seen.add(g)
                todo.extend(USES.get(g, []))
        full[f] = seen
    return full


ALLOWED = closure()


def folder_of(mod):
    return mod.split("/")[0] if "/" in mod else "main"


def module_of(rel):
    return os.path.splitext(rel)[0]


modules, includes = set(), {}
for d, _, files in os.walk(root):
    for f in sorted(files):
        if not f.endswith((".c", ".h")):
            continue
        rel = os.path.relpath(os.path.join(d, f), root)
        mod = module_of(rel)
        if f == "internal.h":
            # a folder's private declarations, shared by its files: part of
            # whichever module includes it, so not a module of its own
            continue
        modules.add(mod)
        for line in open(os.path.join(d, f), encoding="utf-8"):
            m = re.match(r'\s*#\s*include\s+"([^"]+)"', line)
            if not m:
                continue
            inc = m.group(1)
            if os.path.basename(inc) == "internal.h":
                continue
            if os.path.exists(os.path.join(root, inc)):
                target = module_of(inc)
            elif os.path.exists(os.path.join(d, inc)):
                target = module_of(os.path.relpath(os.path.join(d, inc), root))
            else:
                continue  # generated (version.h, catalogue) or a system header
            if target != mod:
                includes.setdefault(mod, set()).add(target)

objects = {}  # object file -> module
for target in ("benchdb_core", "benchdb_stats", "benchdb_sqlfn", "benchdb"):
    objdir = os.path.join(build, "CMakeFiles", target + ".dir", "src")
    for d, _, files in os.walk(objdir):
        for f in files:
            if not f.endswith(".c.o"):
                continue
            rel = os.path.relpath(os.path.join(d, f), objdir)[:-len(".o")]
            if not os.path.exists(os.path.join(root, rel)):
                continue  # left from an older tree
            objects[os.path.join(d, f)] = module_of(rel)
defined, used = nm_symbols.symbols(objects)
if not defined:
    print("src_layers: no object files under %s (build first)" % build)
    sys.exit(1)
calls = {}
for mod, syms in used.items():
    for s in syms:
        t = defined.get(s)
        if t and t != mod:
            calls.setdefault(mod, set()).add(t)


bad = []
for f in sorted({folder_of(m) for m in modules}):
    if f not in USES:
        bad.append("src/%s is not in the module map (tests/cli/lib/src_layers.py, docs/architecture.md)" % f)
for kind, graph in (("includes", includes), ("calls", calls)):
    for a in sorted(graph):
        for b in sorted(graph[a]):
            fa, fb = folder_of(a), folder_of(b)
            if fa != fb and fb not in ALLOWED.get(fa, set()):
                bad.append("%s %s %s: %s may not use %s" % (a, kind, b, fa, fb))
    for comp in cycles(graph):
        if not any(frozenset(comp) <= known for known in KNOWN_CYCLES):
            bad.append("a cycle of %s: %s" % (kind, " -> ".join(comp)))

if bad:
    print("\n".join(bad))
    sys.exit(1)
folders = {}
for graph in (includes, calls):
    for a, ts in graph.items():
        for b in ts:
            if folder_of(a) != folder_of(b):
                folders.setdefault(folder_of(a), set()).add(folder_of(b))
print("src_layers: %d modules in %d folders, %d include and %d call dependencies, all one way"
      % (len(modules), len({folder_of(m) for m in modules}),
         sum(len(t) for t in includes.values()), sum(len(t) for t in calls.values())))
for f in sorted(folders):
    print("  %s -> %s" % (f, " ".join(sorted(folders[f]))))
