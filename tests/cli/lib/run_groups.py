"""Splits a checker's arguments into runs (imported by harness_values.py
and values_js_net.py; not a test itself): FORMAT STORE RUN FILE... groups
separated by "--", so that one Python process checks several runs."""
import sys


def run_groups(args, usage):
    """[[FORMAT, STORE, RUN, FILE, ...], ...] from ARGS; exits with USAGE
    when there is none or one lacks a file."""
    groups, group = [], []
    for a in list(args) + ["--"]:
        if a != "--":
            group.append(a)
        elif group:
            groups.append(group)
            group = []
    if not groups or any(len(g) < 4 for g in groups):
        sys.exit(usage)
    return groups
