"""hold_lock.py STORE DIR: takes the store's write lock (BEGIN IMMEDIATE,
as an ingest does for each archive), creates DIR/locked, and holds the
lock until DIR/release exists (at most 120 s), then rolls back: a writer
that stays in its transaction longer than another's busy timeout."""
import os
import sqlite3
import sys
import time

store, d = sys.argv[1], sys.argv[2]
c = sqlite3.connect(store, isolation_level=None)
c.execute("BEGIN IMMEDIATE")
open(os.path.join(d, "locked"), "w").close()
t0 = time.monotonic()
while not os.path.exists(os.path.join(d, "release")) and time.monotonic() - t0 < 120:
    time.sleep(0.02)
c.execute("ROLLBACK")
c.close()
