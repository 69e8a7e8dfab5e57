#!/usr/bin/env python3
"""store.py copy|copy-derived|compare SQLITE_DB PG_DB

copy: every row of a benchdb store on SQLite into a PostgreSQL database at
the same schema version (migrations/postgresql), with psql's COPY, table by
table in key order, ids kept (the identity sequences then moved past
them). The derived tables (block_score_data, history_point_data,
run_cell_data) are not copied: PostgreSQL's triggers compute them as the series arrive, in the
order SQLite stored them. The unit table is the migrations' own on both.
(benchdb's own ingest into PostgreSQL came later; this
stands in for it.)

copy-derived: the same, the derived tables copied too, with triggers and
foreign-key checks off (session_replication_role = replica: a superuser's
bulk load, for make bench's stores of 1,000 plans, where the triggers
would take minutes; compare shows the two give the same rows).

compare: every table and view of both, in key order, must hold the same
rows (engines.py's identity: reals bit for bit), json documents byte for
byte as text; the derived tables included, so that PostgreSQL's triggers
are shown to keep them as SQLite's do. An event's value, any type on SQLite,
is text on PostgreSQL: a real compares with the double its text reads as.
"""
import os
import sqlite3
import subprocess
import sys
import tempfile

import engines

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools", "gen"))
import schema  # noqa: E402

# The tables each engine keeps itself: the units (the migrations' own
# rows) and the derived tables (the triggers').
KEPT = ("unit", "block_score_data", "history_point_data", "run_cell_data")
# The views, each with the key its rows are compared in.
VIEW_KEYS = {
    "block_score": "run_id, benchmark_id, block, variant_id", "block_ratio": "run_id, benchmark_id, block",
    "run_cell": "run_id, benchmark_id", "history_point": "run_id, benchmark_id, variant_id, metric",
    "plan_run": "run_id", "calibration_pair": "a_id, b_id", "calibration_comparison": "a_id, b_id, benchmark_id",
}


# sample: a table on SQLite, on PostgreSQL a view of the same rows over
# sample_values (a row per series and warmup, the values as arrays;
# schema/benchdb.schema): copied into sample_values, compared as the view.
SAMPLE_KEY = "series_id, warmup, iteration"


def _lists():
    """The tables of both engines from the description (schema/benchdb.schema),
    in its order (which their foreign keys allow), each with its key."""
    d = schema.parse()
    if set(VIEW_KEYS) != set(d.views):
        raise SystemExit("store.py: VIEW_KEYS names %s, the description's views are %s"
                         % (sorted(VIEW_KEYS), sorted(d.views)))
    both = [(t.name, SAMPLE_KEY if t.name == "sample" else ", ".join(t.primary_key())) for t in d.tables
            if t.engines == set(schema.ENGINES) or t.name == "sample"]
    base = [(n, k) for n, k in both if n not in KEPT]
    kept = [(n, k) for n, k in both if n in KEPT]
    return base, kept + [(v, VIEW_KEYS[v]) for v in d.views]


# Base tables in an order their foreign keys allow, each with its key; the
# tables kept by each engine and the views.
TABLES, DERIVED = _lists()


def copy_field(v):
    if v is None:
        return "\\N"
    if isinstance(v, bytes):
        return "\\\\x" + v.hex()
    if isinstance(v, float):
        return repr(v)
    if isinstance(v, int):
        return str(v)
    return v.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r")


# The derived tables that copy-derived copies (the views read them).
DERIVED_DATA = [(t, k) for t, k in DERIVED if t in ("block_score_data", "history_point_data", "run_cell_data")]


def copy_sample(lite, out):
    """SQLite's sample rows as PostgreSQL's sample_values rows: per series
    its values in iteration order (1 to n, as ingest numbers them; a gap
    stops the copy), their counts or NULL when every one is 1, and its
    warmups or NULL when none."""
    out.write("COPY sample_values (series_id, value, count, warmup) FROM STDIN;\n")
    series, got = None, ([], [], [])

    def flush():
        values, counts, warmups = got
        if series is not None:
            arr = "{%s}" % ",".join(repr(v) for v in values)
            cnt = "{%s}" % ",".join(str(c) for c in counts) if any(c != 1 for c in counts) else "\\N"
            warm = "{%s}" % ",".join(repr(v) for v in warmups) if warmups else "\\N"
            out.write("%d\t%s\t%s\t%s\n" % (series, arr, cnt, warm))

    for series_id, warmup, iteration, value, count in lite.execute(
            "SELECT series_id, warmup, iteration, value, count FROM sample ORDER BY %s" % SAMPLE_KEY):
        if series_id != series:
            flush()
            series, got = series_id, ([], [], [])
        into = got[2] if warmup else got[0]
        if iteration != len(into) + 1 or (warmup and count != 1):
            raise SystemExit("copy into PostgreSQL: sample: series %d warmup %d: iteration %d (count %d) after %d"
                             % (series_id, warmup, iteration, count, len(into)))
        into.append(float(value))
        if not warmup:
            got[1].append(count)
    flush()
    out.write("\\.\n")


def copy(sqlite_db, pg_db, psql, derived=False):
    """The rows into PostgreSQL in one transaction, streamed into psql."""
    lite = sqlite3.connect("file:%s?mode=ro" % sqlite_db, uri=True)
    with tempfile.TemporaryFile("w+") as err:
        p = subprocess.Popen(engines.psql_cmd(psql, pg_db) + ["-v", "ON_ERROR_STOP=1"], stdin=subprocess.PIPE,
                             stdout=subprocess.DEVNULL, stderr=err, text=True)
        try:
            out = p.stdin
            out.write("\\set ON_ERROR_STOP 1\nBEGIN;\n")
            if derived:
                out.write("SET LOCAL session_replication_role = replica;\n")
            for table, key in TABLES + (DERIVED_DATA if derived else []):
                if table == "sample":
                    copy_sample(lite, out)
                    continue
                cur = lite.execute('SELECT * FROM "%s" ORDER BY %s' % (table, key))
                cols = [d[0] for d in cur.description]
                out.write('COPY "%s" (%s) FROM STDIN;\n' % (table, ", ".join('"%s"' % c for c in cols)))
                out.writelines("\t".join([copy_field(v) for v in row]) + "\n" for row in cur)
                out.write("\\.\n")
                if key == "id":
                    out.write("SELECT setval(pg_get_serial_sequence('\"%s\"', 'id'), max(id)) FROM \"%s\" "
                              "HAVING max(id) IS NOT NULL;\n" % (table, table))
            out.write("COMMIT;\n")
            out.close()
        except BrokenPipeError:
            pass  # psql stopped at an error: its message follows
        if p.wait() != 0:
            err.seek(0)
            raise SystemExit("copy into PostgreSQL failed: " + err.read().strip())


def json_columns(psql, pg_db):
    """{table: set of its json columns} on PostgreSQL."""
    p = subprocess.run(engines.psql_cmd(psql, pg_db), capture_output=True, text=True,
                       input="SELECT table_name, column_name FROM information_schema.columns "
                             "WHERE table_schema = 'public' AND data_type = 'json';\n")
    out = {}
    for line in p.stdout.split("\n"):
        if "|" in line:
            t, c = line.split("|")
            out.setdefault(t, set()).add(c)
    return out


def number_or_text(v):
    for kind in (int, float):
        try:
            return kind(v)
        except ValueError:
            pass
    return v


def compare(sqlite_db, pg_db, psql, bench):
    lite = sqlite3.connect("file:%s?mode=ro" % sqlite_db, uri=True)
    jcols = json_columns(psql, pg_db)
    statements = []
    for table, key in TABLES + DERIVED:
        cols = [r[1] for r in lite.execute('PRAGMA table_info("%s")' % table)]
        sel = ", ".join("'=' || \"%s\" AS \"%s\"" % (c, c) if c in jcols.get(table, ()) else '"%s"' % c for c in cols)
        statements.append((table, 'SELECT %s FROM "%s" ORDER BY %s' % (sel, table, key)))
    pg = engines.run_psql_batch(psql, pg_db, [s for _, s in statements])
    failures = 0
    for (table, sql), (types, prows, perr) in zip(statements, pg):
        srows, serr = engines.run_benchdb(bench, sqlite_db, ["sql", sql, "--max-rows", "10000000",
                                                             "--max-result-bytes", "4G"])
        if serr or perr:
            problem = "SQLite: %s; PostgreSQL: %s" % (serr, perr)
        else:
            if table == "event":
                for row in prows:
                    for i, (k, v) in enumerate(row):
                        if k == "value" and isinstance(v, str):
                            row[i] = (k, number_or_text(v))
            problem = engines.compare_rows(srows, types, prows)
        n = len(srows or [])
        if problem:
            failures += 1
            print("FAIL %s: %s" % (table, problem))
        elif n == 0 and table not in ("archive_member", "gate", "rule"):
            failures += 1
            print("FAIL %s: no rows to compare" % table)
        else:
            print("ok   %s: %d rows" % (table, n))
    sys.exit(1 if failures else 0)


def main():
    psql = engines.tool("BENCHDB_PSQL")
    cmd, sqlite_db, pg_db = sys.argv[1:4]
    if cmd in ("copy", "copy-derived"):
        copy(sqlite_db, pg_db, psql, derived=cmd == "copy-derived")
    else:
        compare(sqlite_db, pg_db, psql, engines.tool("BENCHDB_BIN"))


if __name__ == "__main__":
    main()
