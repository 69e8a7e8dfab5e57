#!/usr/bin/env python3
"""schema_match.py SQLITE_STORE PG_DB: a fresh store on each engine (both
made by benchdb init) against each other and against the description
(schema/benchdb.schema, read by tools/gen/schema.py).

Every table of the description is on each engine it is for, and no other
(but schema_migration, the runner's); every table on both engines has the
description's columns in its order, each with the type the map gives on
each engine (tools/gen/schema.py, CATALOG), the same NOT NULL and default
on both; the same primary key, unique keys, foreign keys (columns, the
table and column referred to, ON DELETE) and indexes (name, columns, the
partial index's condition) on both, as the description has them on
each (KNOWN_FK_DIFFERENCES: the one declared difference, series'
references checked on PostgreSQL by triggers, which must exist); every
view of the description on both, with the same columns; sample a table
on SQLite and on PostgreSQL a view over sample_values with the table's
columns and their types (TABLE_AS_VIEW). Prints what it
compared; exits 1 naming each difference.
"""
import json
import os
import re
import sqlite3
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools", "gen"))
import schema  # noqa: E402

BOOKKEEPING = "schema_migration"


def pg_json(psql, db, sql):
    p = subprocess.run([psql, "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-d", db, "-c", sql],
                       capture_output=True, text=True)
    if p.returncode:
        raise SystemExit("psql: %s" % p.stderr.strip())
    return json.loads(p.stdout or "null") or []


def default(v):
    """A default as both engines print it: no cast, no outer parentheses."""
    if v is None:
        return None
    v = re.sub(r"::[a-z ]+$", "", v.strip())
    return v[1:-1] if v.startswith("(") and v.endswith(")") else v


def condition(v):
    """A partial index's condition, spaces, parentheses and case aside."""
    return re.sub(r"[\s()]", "", v or "").lower()


def sqlite_catalog(path):
    lite = sqlite3.connect("file:%s?mode=ro" % path, uri=True)
    cat = {"tables": {}, "views": {}}
    rows = lite.execute("SELECT type, name, sql FROM sqlite_schema WHERE name NOT LIKE 'sqlite!_%' ESCAPE '!'")
    objects = list(rows)
    for kind, name, _ in objects:
        if kind == "view":
            cat["views"][name] = [r[1] for r in lite.execute('PRAGMA table_info("%s")' % name)]
    for kind, name, _ in objects:
        if kind != "table":
            continue
        info = list(lite.execute('PRAGMA table_info("%s")' % name))
        t = {
            "columns": [(r[1], r[2], bool(r[3]) or r[5] > 0, default(r[4])) for r in info],
            "pk": [r[1] for r in sorted((r for r in info if r[5]), key=lambda r: r[5])],
            "unique": [], "indexes": {}, "fks": set(),
        }
        for _, iname, unique, origin, partial in lite.execute('PRAGMA index_list("%s")' % name):
            cols = [r[2] for r in lite.execute('PRAGMA index_info("%s")' % iname)]
            if origin == "u":
                t["unique"].append(cols)
            elif origin == "c":
                sql = [o[2] for o in objects if o[1] == iname][0]
                where = sql.split(" WHERE ", 1)[1] if partial else ""
                t["indexes"][iname] = (cols, bool(unique), condition(where))
        for r in lite.execute('PRAGMA foreign_key_list("%s")' % name):
            t["fks"].add((r[3], r[2], r[4], r[6]))
        cat["tables"][name] = t
    return cat


PG_COLUMNS = """SELECT json_agg(json_build_array(table_name, column_name, data_type, is_nullable = 'NO',
  column_default, is_identity = 'YES') ORDER BY table_name, ordinal_position)
FROM information_schema.columns WHERE table_schema = current_schema()"""
PG_TABLES = """SELECT json_agg(json_build_array(c.relname, c.relkind)) FROM pg_class c
WHERE c.relnamespace = CAST(current_schema() AS regnamespace) AND c.relkind IN ('r', 'v')"""
PG_INDEXES = """SELECT json_agg(json_build_array(t.relname, i.relname, x.indisprimary, x.indisunique,
  (SELECT json_agg(a.attname ORDER BY k.n) FROM unnest(x.indkey) WITH ORDINALITY AS k(attnum, n)
   JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum),
  pg_get_expr(x.indpred, x.indrelid),
  EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = x.indexrelid)))
FROM pg_index x JOIN pg_class t ON t.oid = x.indrelid JOIN pg_class i ON i.oid = x.indexrelid
WHERE t.relnamespace = CAST(current_schema() AS regnamespace)"""
PG_FKS = """SELECT json_agg(json_build_array(t.relname, a.attname, r.relname, b.attname, c.confdeltype))
FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid JOIN pg_class r ON r.oid = c.confrelid
JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1]
JOIN pg_attribute b ON b.attrelid = c.confrelid AND b.attnum = c.confkey[1]
WHERE c.contype = 'f' AND t.relnamespace = CAST(current_schema() AS regnamespace)"""
ON_DELETE = {"a": "NO ACTION", "c": "CASCADE", "r": "RESTRICT", "n": "SET NULL", "d": "SET DEFAULT"}
PG_TRIGGERS = """SELECT json_agg(json_build_array(c.relname, t.tgname)) FROM pg_trigger t
JOIN pg_class c ON c.oid = t.tgrelid
WHERE NOT t.tgisinternal AND c.relnamespace = CAST(current_schema() AS regnamespace)"""

# The one known difference of foreign keys between the engines, with its
# reason: series' references to run, benchmark, variant and unit are
# foreign keys on SQLite ({sqlite: REFERENCES ...} in the description) and
# on PostgreSQL statement-level triggers, because PostgreSQL's per-row
# foreign-key checks were most of an ingest's COPY of its series
# (docs/postgresql.md, "ingest"). Each maps to the triggers on PostgreSQL
# that do what the foreign key did (checked here to exist): the insert and
# update check of series, and the delete (cascade or refusal), key update
# and TRUNCATE of the table referred to. Any other difference fails.
SERIES_REFS = ["series:series_check_refs_insert", "series:series_check_refs_update", "series:series_insert_refs"]
KNOWN_FK_DIFFERENCES = {
    ("series", "run_id"): SERIES_REFS + ["run:run_delete_series", "run:run_update_series_refs",
                                        "run:run_truncate_series_refs"],
    ("series", "benchmark_id"): SERIES_REFS + ["benchmark:benchmark_delete_series_refs",
                                              "benchmark:benchmark_update_series_refs",
                                              "benchmark:benchmark_truncate_series_refs"],
    ("series", "variant_id"): SERIES_REFS + ["variant:variant_delete_series_refs", "variant:variant_update_series_refs",
                                            "variant:variant_truncate_series_refs"],
    ("series", "unit"): SERIES_REFS + ["unit:unit_delete_series_refs", "unit:unit_update_series_refs",
                                      "unit:unit_truncate_series_refs"],
}


# The one table kept in another shape: sample is a table on SQLite, on
# PostgreSQL a view (over sample_values, one row per series and warmup
# holding the values as arrays: schema/benchdb.schema) with the table's
# columns in its order, each of the type the map gives (tools/gen/schema.py,
# CATALOG), so that every query reads both alike.
TABLE_AS_VIEW = {"sample": "sample_values"}


def pg_catalog(psql, db):
    cat = {"tables": {}, "views": {}, "view_types": {}}
    kinds = dict(pg_json(psql, db, PG_TABLES))
    for name, kind in kinds.items():
        if kind == "r":
            cat["tables"][name] = {"columns": [], "pk": [], "unique": [], "indexes": {}, "fks": set()}
        else:
            cat["views"][name] = []
    for table, col, type_, not_null, dflt, identity in pg_json(psql, db, PG_COLUMNS):
        if table in cat["views"]:
            cat["views"][table].append(col)
            cat["view_types"].setdefault(table, []).append((col, type_))
        else:
            cat["tables"][table]["columns"].append((col, type_, not_null, None if identity else default(dflt)))
    for table, iname, primary, unique, cols, pred, constraint in pg_json(psql, db, PG_INDEXES):
        t = cat["tables"][table]
        if primary:
            t["pk"] = cols
        elif unique and constraint:
            t["unique"].append(cols)
        else:
            t["indexes"][iname] = (cols, unique, condition(pred))
    for table, col, ref, refcol, deltype in pg_json(psql, db, PG_FKS):
        cat["tables"][table]["fks"].add((col, ref, refcol, ON_DELETE[deltype]))
    cat["triggers"] = {"%s:%s" % (table, name) for table, name in pg_json(psql, db, PG_TRIGGERS) or []}
    return cat


def main():
    lite_path, pg_db = sys.argv[1], sys.argv[2]
    psql = os.environ.get("BENCHDB_PSQL", "psql")
    d = schema.parse()
    cats = {"sqlite": sqlite_catalog(lite_path), "postgresql": pg_catalog(psql, pg_db)}
    problems = []
    counts = {"tables": 0, "columns": 0, "keys": 0, "indexes": 0, "foreign keys": 0,
              "foreign keys checked by triggers on PostgreSQL": 0, "views": 0}

    def differ(what, a, b):
        if a != b:
            problems.append("%s: SQLite %s, PostgreSQL %s" % (what, a, b))

    for engine, cat in cats.items():
        want = {t.name for t in d.tables if engine in t.engines} | {BOOKKEEPING}
        got = set(cat["tables"])
        if want != got:
            problems.append("%s has tables %s, the description %s" % (engine, sorted(got), sorted(want)))
        views = set(d.views) | (set(TABLE_AS_VIEW) if engine == "postgresql" else set())
        if set(cat["views"]) != views:
            problems.append("%s has views %s, the description %s" % (engine, sorted(cat["views"]), sorted(views)))
    lite, pg = cats["sqlite"]["tables"], cats["postgresql"]["tables"]
    for t in d.tables:
        if t.engines != set(schema.ENGINES) or t.name not in lite or t.name not in pg:
            continue
        counts["tables"] += 1
        a, b = lite[t.name], pg[t.name]
        names = [c.name for c in t.columns]
        differ("%s: columns" % t.name, [c[0] for c in a["columns"]], [c[0] for c in b["columns"]])
        if [c[0] for c in a["columns"]] != names:
            problems.append("%s: columns %s, the description %s" % (t.name, [c[0] for c in a["columns"]], names))
        for col, ca, cb in zip(t.columns, a["columns"], b["columns"]):
            counts["columns"] += 1
            want = schema.CATALOG[col.type]
            if (ca[1], cb[1]) != want:
                problems.append("%s.%s (%s): types SQLite %r, PostgreSQL %r; the map gives %r, %r"
                                % (t.name, col.name, col.type, ca[1], cb[1], want[0], want[1]))
            differ("%s.%s: NOT NULL" % (t.name, col.name), ca[2], cb[2])
            if ca[2] != col.not_null:
                problems.append("%s.%s: NOT NULL %s, the description %s" % (t.name, col.name, ca[2], col.not_null))
            differ("%s.%s: default" % (t.name, col.name), ca[3], cb[3])
        counts["keys"] += 1 + len(t.unique_keys())
        differ("%s: primary key" % t.name, a["pk"], b["pk"])
        if a["pk"] != t.primary_key():
            problems.append("%s: primary key %s, the description %s" % (t.name, a["pk"], t.primary_key()))
        differ("%s: unique keys" % t.name, sorted(a["unique"]), sorted(b["unique"]))
        if sorted(a["unique"]) != sorted(t.unique_keys()):
            problems.append("%s: unique keys %s, the description %s" % (t.name, a["unique"], t.unique_keys()))
        differ("%s: indexes" % t.name, a["indexes"], b["indexes"])
        described = {n: (c, False, condition(w.replace("WHERE ", "", 1))) for n, tb, c, w in d.indexes if tb == t.name}
        if a["indexes"] != described:
            problems.append("%s: indexes %s, the description %s" % (t.name, a["indexes"], described))
        counts["indexes"] += len(a["indexes"])
        only_lite = {(t.name, k[0]) for k in a["fks"] - b["fks"]}
        known = {k for k in KNOWN_FK_DIFFERENCES if k[0] == t.name}
        if only_lite != known or b["fks"] - a["fks"]:
            differ("%s: foreign keys (but the known differences %s)" % (t.name, sorted(known)),
                   sorted(a["fks"]), sorted(b["fks"]))
        for engine, fks in (("sqlite", a["fks"]), ("postgresql", b["fks"])):
            if fks != set(t.foreign_keys(engine)):
                problems.append("%s: foreign keys on %s %s, the description %s"
                                % (t.name, engine, sorted(fks), t.foreign_keys(engine)))
        for k in sorted(known):
            missing = [x for x in KNOWN_FK_DIFFERENCES[k] if x not in cats["postgresql"]["triggers"]]
            if missing:
                problems.append("%s.%s: a foreign key on SQLite only, but PostgreSQL lacks the triggers that "
                                "replace it: %s" % (k[0], k[1], ", ".join(missing)))
        counts["foreign keys"] += len(a["fks"])
        counts["foreign keys checked by triggers on PostgreSQL"] += len(known)
    for v in d.views:
        if v in cats["sqlite"]["views"] and v in cats["postgresql"]["views"]:
            counts["views"] += 1
            differ("view %s: columns" % v, cats["sqlite"]["views"][v], cats["postgresql"]["views"][v])
    counts["tables kept as a view on PostgreSQL"] = 0
    for table, under in TABLE_AS_VIEW.items():
        a = cats["sqlite"]["tables"].get(table)
        b = cats["postgresql"]["view_types"].get(table)
        if not a or not b or under not in pg:
            problems.append("%s: a table on SQLite (%s) and a view over %s on PostgreSQL (%s, %s)"
                            % (table, "yes" if a else "missing", under, "yes" if b else "missing",
                               "yes" if under in pg else "missing"))
            continue
        counts["tables kept as a view on PostgreSQL"] += 1
        pg_type = {lite_t: pg_t for lite_t, pg_t in schema.CATALOG.values()}
        differ("%s: columns (SQLite's table, PostgreSQL's view)" % table,
               [(c[0], pg_type.get(c[1], c[1])) for c in a["columns"]], b)
    for p in problems:
        print("FAIL: %s" % p, file=sys.stderr)
    print("compared %s" % ", ".join("%d %s" % (n, k) for k, n in counts.items()))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
