#!/usr/bin/env python3
"""Leaves FILE as a SIGKILL during 'benchdb init' of a new file can: a new
database file that a transaction has begun to write, with its hot rollback
journal (FILE-journal) beside it, the writing process gone without a
rollback. The transaction creates a table and spills pages to the file (a
one-page cache), so the file holds pages the journal must undo; then the
process ends with os._exit, as abruptly as a kill (no close, no rollback).
Rolling the journal back leaves the file as it was: empty.

usage: hot_journal.py FILE"""
import os
import sqlite3
import sys

path = sys.argv[1]
if os.path.exists(path):
    sys.exit(f"{path}: exists; the journal must belong to a new file")
con = sqlite3.connect(path, isolation_level=None)
con.execute("PRAGMA journal_mode = DELETE")
con.execute("PRAGMA cache_size = 1")
con.execute("BEGIN")
con.execute("CREATE TABLE t(x)")
for i in range(64):
    con.execute("INSERT INTO t VALUES (?)", (bytes(1000),))
if not (os.path.getsize(path) > 0 and os.path.getsize(path + "-journal") > 0):
    sys.exit("no page spilled to the file: the journal would not be hot")
os._exit(0)
