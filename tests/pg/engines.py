"""Running SQL on both engines and comparing the rows (tests/pg).

SQLite runs through benchdb itself (`benchdb sql` or `benchdb query`,
--format json); PostgreSQL through one psql session per batch, each
statement's result column types taken with \\gdesc and its rows with
json_agg. Rows are identical when they have the same columns in the same
order and every value is the same: text byte for byte, integers exactly,
reals bit for bit (as doubles: PostgreSQL prints float8 in shortest
round-trip form), JSON (objects, arrays) member by member with numbers
compared as doubles (jsonb orders keys its own way and stores numbers as
decimals, so only the values can be compared), NULL as NULL. benchdb
prints JSON text that is an object or array nested, and non-finite reals
as null; PostgreSQL's side is read the same way.
"""
import json
import math
import os
import struct
import subprocess

FLOAT_TYPES = {"double precision", "real"}
INT_TYPES = {"bigint", "integer", "smallint"}


class Obj(list):
    """A JSON object as its (key, value) pairs, in order, duplicates kept."""


def load_json(text):
    return json.loads(text, object_pairs_hook=Obj)


def run_benchdb(bench, db, args):
    """(rows, None) or (None, error message) from benchdb ... --format json."""
    p = subprocess.run([bench, "--db", db] + args + ["--format", "json"], capture_output=True, text=True)
    if p.returncode != 0:
        err = p.stderr.strip().splitlines()
        msg = err[0] if err else "exit status %d" % p.returncode
        for prefix in ("error: sql: ", "error: "):
            if msg.startswith(prefix):
                msg = msg[len(prefix):]
                break
        return None, msg
    return load_json(p.stdout), None


def psql_cmd(psql, db):
    return [psql, "-X", "-q", "-d", db, "-v", "ON_ERROR_STOP=0", "-P", "format=unaligned", "-P", "tuples_only=on",
            "-P", "null=", "-P", "pager=off"]


def run_psql_batch(psql, db, statements):
    """Runs every statement in one psql session: a list of
    (types, rows, error) per statement, types a list of (name, type)."""
    script = ["\\set VERBOSITY terse"]
    for i, sql in enumerate(statements):
        sql = sql.strip().rstrip(";").strip()
        script.append("\\echo @@case %d" % i)
        script.append(sql + " \\gdesc")
        script.append("\\if :ERROR")
        script.append("\\echo @@error :LAST_ERROR_MESSAGE")
        script.append("\\else")
        script.append("\\echo @@rows")
        script.append("SELECT coalesce(json_agg(benchdb_row_), '[]') FROM (\n%s\n) AS benchdb_row_;" % sql)
        script.append("\\if :ERROR")
        script.append("\\echo @@error :LAST_ERROR_MESSAGE")
        script.append("\\endif")
        script.append("\\endif")
    p = subprocess.run(psql_cmd(psql, db), input="\n".join(script) + "\n", capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError("psql failed (%d): %s" % (p.returncode, p.stderr.strip()))
    results = []
    cur = None
    for line in p.stdout.split("\n"):
        if line.startswith("@@case "):
            cur = {"types": [], "rows": [], "error": None, "part": "types"}
            results.append(cur)
        elif cur is None:
            continue
        elif line.startswith("@@error "):
            cur["error"] = line[len("@@error "):]
            cur["part"] = "done"
        elif line == "@@rows":
            cur["part"] = "rows"
        elif cur["part"] == "types" and line:
            name, _, typ = line.rpartition("|")
            cur["types"].append((name, typ))
        elif cur["part"] == "rows":
            cur["rows"].append(line)
    out = []
    for r in results:
        if r["error"] is not None:
            out.append((r["types"], None, r["error"]))
        else:
            out.append((r["types"], load_json("\n".join(r["rows"])), None))
    if len(out) != len(statements):
        raise RuntimeError("psql gave %d results for %d statements: %s" % (len(out), len(statements), p.stderr))
    return out


def is_container_text(v):
    if not isinstance(v, str) or not v or v[0] not in "{[":
        return False
    try:
        json.loads(v)
        return True
    except ValueError:
        return False


def bits(x):
    return struct.pack("<d", float(x))


def same_json(a, b):
    """JSON values equal member by member; numbers as doubles (ints exactly)."""
    if isinstance(a, Obj) or isinstance(b, Obj):
        if not (isinstance(a, Obj) and isinstance(b, Obj)):
            return False
        da, db = dict(a), dict(b)
        return len(da) == len(a) and len(db) == len(b) and da.keys() == db.keys() and \
            all(same_json(da[k], db[k]) for k in da)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same_json(x, y) for x, y in zip(a, b))
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        if isinstance(a, int) and isinstance(b, int):
            return a == b
        fa, fb = float(a), float(b)
        return bits(fa + 0.0) == bits(fb + 0.0)  # jsonb has no -0
    return a == b and type(a) is type(b)


def pg_value(v, typ):
    """A PostgreSQL value as benchdb would print the same SQLite value."""
    if v is None:
        return None
    if typ in FLOAT_TYPES:
        if isinstance(v, str):  # NaN, Infinity: benchdb prints null
            return None
        return float(v)
    if typ == "bytea" and isinstance(v, str) and v.startswith("\\x"):
        return v[2:]  # benchdb prints a blob as its hex digits
    if isinstance(v, str) and is_container_text(v):
        return ("json", load_json(v))
    if isinstance(v, list):
        return ("json", v)
    return v


def sqlite_value(v):
    if isinstance(v, list):
        return ("json", v)
    if isinstance(v, str) and is_container_text(v):
        return ("json", load_json(v))
    return v


def describe(v):
    if isinstance(v, tuple) and len(v) == 2 and v[0] == "json":
        text = json.dumps(unpairs(v[1]))
    elif isinstance(v, float):
        text = "%r (real)" % v
    else:
        text = repr(v)
    return text if len(text) <= 300 else text[:300] + "..."


def unpairs(v):
    if isinstance(v, Obj):
        return {k: unpairs(x) for k, x in v}
    if isinstance(v, list):
        return [unpairs(x) for x in v]
    return v


def compare_rows(sqlite_rows, pg_types, pg_rows):
    """None when identical, else a message saying the first difference."""
    if len(sqlite_rows) != len(pg_rows):
        return "%d rows on SQLite, %d on PostgreSQL" % (len(sqlite_rows), len(pg_rows))
    names = [n for n, _ in pg_types]
    for r, (srow, prow) in enumerate(zip(sqlite_rows, pg_rows)):
        scols = [k for k, _ in srow]
        pcols = [k for k, _ in prow]
        if scols != pcols or pcols != names:
            return "row %d: columns %s on SQLite, %s on PostgreSQL" % (r + 1, scols, pcols)
        for c, ((name, sv), (_, pv), (_, typ)) in enumerate(zip(srow, prow, pg_types)):
            if typ == "numeric":
                return "column %s is numeric on PostgreSQL (prints decimals, not a double)" % name
            a, b = sqlite_value(sv), pg_value(pv, typ)
            if isinstance(a, tuple) or isinstance(b, tuple):
                ok = isinstance(a, tuple) and isinstance(b, tuple) and same_json(a[1], b[1])
            elif isinstance(a, float) or isinstance(b, float):
                ok = isinstance(a, (int, float)) and isinstance(b, (int, float)) and \
                    isinstance(a, float) == isinstance(b, float) and bits(a) == bits(b)
            elif isinstance(a, bool) or isinstance(b, bool):
                ok = False  # PostgreSQL booleans print true/false, SQLite 1/0
            else:
                ok = a == b and type(a) is type(b)
            if not ok:
                return "row %d, column %s: SQLite %s, PostgreSQL %s (%s)" % (r + 1, name, describe(a), describe(b), typ)
    return None


def tool(var):
    v = os.environ.get(var)
    if not v:
        raise SystemExit("%s is not set (run through ctest)" % var)
    return v
