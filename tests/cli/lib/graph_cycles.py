"""Cycles in a dependency graph ({node: set of nodes it uses}), shared by
the layering checks (layers.py for src/ingest, src_layers.py for src/)."""
import sys


def cycles(graph):
    """Strongly connected components of more than one node (Tarjan), each
    sorted, in the order found."""
    index, low, stack, on, comps, counter = {}, {}, [], set(), [], [0]

    def strong(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                comps.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(set(graph) | {t for ts in graph.values() for t in ts}):
        if v not in index:
            strong(v)
    return comps

