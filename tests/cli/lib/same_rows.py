#!/usr/bin/env python3
"""same_rows.py A.db B.db: every table of two SQLite stores holds the same
rows, value for value and type for type: the same count, and no row of one
missing from the other (each value beside its typeof(), so 1, 1.0 and '1'
differ; reals compare as SQLite compares them: exactly; text byte for
byte). Each store's own migration record (schema_migration: when it was
migrated) is left out. Prints "ok TABLE: N rows" per table; names each
table that differs and exits 1.

A table with the same primary key on both sides is compared by joining
its rows on that key: with the keys unique on each side (the constraint),
as many rows on each side and every row of A meeting a row of B with its
key whose every value and type is A's, B holds exactly A's rows. That
costs one look-up per row in B's key index where comparing every column
both ways (EXCEPT) sorts each table twice: 2 s instead of 7 for the
tutorial's store. A table without a primary key is compared with EXCEPT
both ways."""
import sqlite3
import sys

LEFT = {"schema_migration"}


def tables(db, schema):
    return [r[0] for r in db.execute("SELECT name FROM %s.sqlite_schema WHERE type = 'table' "
                                     "AND name NOT LIKE 'sqlite_%%' ORDER BY name" % schema) if r[0] not in LEFT]


def primary_key(db, schema, table):
    """The primary key's columns in key order, [] without one."""
    info = db.execute('PRAGMA %s.table_info("%s")' % (schema, table)).fetchall()
    return [r[1] for r in sorted((r for r in info if r[5] > 0), key=lambda r: r[5])]


def differing(db, t, cols, key):
    """(rows only in A, rows only in B) as counts; by key when both have it."""
    if key:
        on = " AND ".join('a."%s" = b."%s"' % (c, c) for c in key)
        same = " AND ".join('a."%s" IS b."%s" COLLATE BINARY AND typeof(a."%s") = typeof(b."%s")' % (c, c, c, c)
                            for c in cols)
        n = db.execute('SELECT count(*) FROM main."%s"' % t).fetchone()[0]
        met = db.execute('SELECT count(*) FROM main."%s" AS a JOIN b."%s" AS b ON %s WHERE %s'
                         % (t, t, on, same)).fetchone()[0]
        m = db.execute('SELECT count(*) FROM b."%s"' % t).fetchone()[0]
        return n, m, (n - met, m - met)
    sel = ", ".join('"%s", typeof("%s")' % (c, c) for c in cols)
    n, m = (db.execute('SELECT count(*) FROM %s."%s"' % (s, t)).fetchone()[0] for s in ("main", "b"))
    diff = db.execute('SELECT (SELECT count(*) FROM (SELECT %s FROM main."%s" EXCEPT SELECT %s FROM b."%s")), '
                      '(SELECT count(*) FROM (SELECT %s FROM b."%s" EXCEPT SELECT %s FROM main."%s"))'
                      % (sel, t, sel, t, sel, t, sel, t)).fetchone()
    return n, m, diff


def main():
    a_path, b_path = sys.argv[1:3]
    db = sqlite3.connect("file:%s?mode=ro" % a_path, uri=True)
    db.execute("ATTACH ? AS b", ("file:%s?mode=ro" % b_path,))
    names = tables(db, "main")
    if tables(db, "b") != names:
        print("FAIL the tables differ: %s / %s" % (names, tables(db, "b")))
        sys.exit(1)
    failures = 0
    for t in names:
        cols = [r[1] for r in db.execute('PRAGMA main.table_info("%s")' % t)]
        if cols != [r[1] for r in db.execute('PRAGMA b.table_info("%s")' % t)]:
            print("FAIL %s: its columns differ" % t)
            failures += 1
            continue
        key = primary_key(db, "main", t)
        if key != primary_key(db, "b", t):
            key = []
        n, m, diff = differing(db, t, cols, key)
        if n != m or diff != (0, 0):
            print("FAIL %s: %d / %d rows, %d only in the first, %d only in the second" % (t, n, m, *diff))
            failures += 1
        else:
            print("ok %s: %d rows" % (t, n))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
