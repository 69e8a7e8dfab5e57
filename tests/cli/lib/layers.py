#!/usr/bin/env python3
"""Checks that src/ingest's layers depend on each other one way only
(docs/architecture.md), by its #include lines and by the calls its object
files make (nm): no cycle between two files (a .c and its .h are one
module), and no dependency of a folder on a folder above it:

    core (0)  <-  sources (1), sink (1), check (1)  <-  decoders (2)  <-  load (3)

A folder may use its own modules and those of lower folders; sources and
sink, on the same level, do not use each other. ingest.h, the public
interface, belongs to load. Prints every offending edge and exits 1.

usage: layers.py SRC_DIR BUILD_DIR"""
import os
import re

import sys

sys.dont_write_bytecode = True  # nothing written into the source tree
import nm_symbols  # noqa: E402 (after the line above: no __pycache__ in the source tree)
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from graph_cycles import cycles  # noqa: E402

src, build = sys.argv[1], sys.argv[2]
root = os.path.join(src, "src", "ingest")
RANK = {"core": 0, "sources": 1, "sink": 1, "check": 1, "decoders": 2, "load": 3}


def module_of(rel):
    """'sources/pipeline.c' -> 'sources/pipeline'; top-level files by name."""
    return os.path.splitext(rel)[0]


def folder_of(mod):
    top = mod.split("/")[0]
    if top == "ingest":
        return "load"
    return top


modules = set()
includes = {}
for d, _, files in os.walk(root):
    for f in files:
        if not f.endswith((".c", ".h")):
            continue
        rel = os.path.relpath(os.path.join(d, f), root)
        mod = module_of(rel)
        modules.add(mod)
        for line in open(os.path.join(d, f), encoding="utf-8"):
            m = re.match(r'\s*#\s*include\s+"ingest/([^"]+)"', line)
            if m:
                target = module_of(m.group(1))
                if target != mod:
                    includes.setdefault(mod, set()).add(target)

# Calls: which module defines each symbol, which uses it.
objdir = os.path.join(build, "CMakeFiles", "benchdb_core.dir", "src", "ingest")
objects = {}  # object file -> module
for d, _, files in os.walk(objdir):
    for f in files:
        if not f.endswith(".c.o"):
            continue
        rel = os.path.relpath(os.path.join(d, f), objdir)[:-len(".o")]
        if not os.path.exists(os.path.join(root, rel)):
            continue  # left from an older tree
        objects[os.path.join(d, f)] = module_of(rel)
defined, used = nm_symbols.symbols(objects)
calls = {}
for mod, syms in used.items():
    for s in syms:
        target = defined.get(s)
        if target and target != mod:
            calls.setdefault(mod, set()).add(target)
if not defined:
    print("layers: no object files under %s (build first)" % objdir)
    sys.exit(1)

bad = []
for kind, graph in (("includes", includes), ("calls", calls)):
    for a, targets in graph.items():
        for b in targets:
            fa, fb = folder_of(a), folder_of(b)
            if fa != fb and (fa not in RANK or fb not in RANK or RANK[fb] >= RANK[fa]):
                bad.append("%s %s %s: %s may not use %s" % (a, kind, b, fa, fb))
    # cycles between modules
    for comp in cycles(graph):
        bad.append("a cycle of %s: %s" % (kind, " -> ".join(comp)))

n_inc = sum(len(t) for t in includes.values())
n_call = sum(len(t) for t in calls.values())
if bad:
    print("\n".join(bad))
    sys.exit(1)
print("layers: %d modules, %d include and %d call dependencies, all one way" % (len(modules), n_inc, n_call))
