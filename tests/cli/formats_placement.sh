# The placement rule runs unchanged on a plan whose blocks arrived as JMH
# files: 3 hosts x 3 positions, each run a tar holding its run stream and
# one JMH file per block and variant (2 cells, 3 blocks, 2 forks), gives
# exactly the verdict of the same values written as samples records.
. "$BENCHDB_SRC/tests/cli/lib/ingest.sh"
mkdir "$T/tars" "$T/jsonl"
python3 - "$T" <<'PY'
import json, os, random, sys, tarfile, io
T = sys.argv[1]
rng = random.Random(9)
for host in ("h-a", "h-b", "h-c"):
    shift = {"h-a": 1.0, "h-b": 1.01, "h-c": 0.99}[host]
    for pos in (1, 2, 3):
        name = f"{host}-{pos}"
        run = {"record": "run", "format": "benchdb-run/1", "plan": "jmh-plan", "run": name, "host": host,
               "position": pos, "treatment": "native", "baseline": "chill", "attributes": {"profile": "p"}}
        stream, plain, files = [json.dumps(run)], [json.dumps(run)], {}
        for block in (1, 2, 3):
            for variant, base in (("native", 100.0), ("chill", 110.0)):
                doc = []
                for cell, scale in (("org.bench.Serialize.run", 1.0), ("org.bench.Parse.run", 3.0)):
                    forks = [[round(base * scale * shift * rng.uniform(0.97, 1.03), 4) for _ in range(3)]
                             for _ in range(2)]
                    doc.append({"benchmark": cell, "mode": "avgt", "params": {"size": "10"},
                                "primaryMetric": {"score": "NaN", "scoreUnit": "us/op", "rawData": forks},
                                "secondaryMetrics": {}})
                    for f, vals in enumerate(forks):
                        plain.append(json.dumps({"record": "samples", "benchmark": cell, "params": {"size": "10"},
                                                 "block": block, "variant": variant, "fork": f, "unit": "us/op",
                                                 "values": vals}))
                path = f"jmh/b{block}-{variant}.json"
                files[path] = json.dumps(doc, indent=2).encode()
                stream.append(json.dumps({"record": "results", "format": "jmh", "block": block,
                                          "variant": variant, "path": path}))
        files["run.jsonl"] = ("\n".join(stream) + "\n").encode()
        with tarfile.open(os.path.join(T, "tars", name + ".tar.gz"), "w:gz") as tf:
            for p, data in files.items():
                info = tarfile.TarInfo(p)
                info.size = len(data)
                tf.addfile(info, io.BytesIO(data))
        with open(os.path.join(T, "jsonl", name + ".jsonl"), "w") as f:
            f.write("\n".join(plain) + "\n")
PY
bd init >/dev/null && "$BENCHDB_BIN" --db "$T/plain.db" init >/dev/null
bd ingest -q "$T/tars" || fail "ingest of the tars"
"$BENCHDB_BIN" --db "$T/plain.db" ingest -q "$T/jsonl" || fail "ingest of the samples records"
expect_rows loaded "SELECT count(*), (SELECT count(*) FROM series), (SELECT count(*) FROM archive_member) FROM run" "9,216,63"
for s in store plain; do
    "$BENCHDB_BIN" --db "$T/$s.db" query placement-rule -p plan=jmh-plan --format csv >"$T/$s.out" ||
        fail "placement-rule on $s"
done
[ "$(wc -l <"$T/store.out")" -ge 2 ] || fail "placement-rule gave no row: $(cat "$T/store.out")"
cmp -s "$T/store.out" "$T/plain.out" || fail "placement-rule differs: $(diff "$T/plain.out" "$T/store.out")"
grep -q 'separate-host placement adopted' "$T/store.out" || fail "no verdict in: $(cat "$T/store.out")"
