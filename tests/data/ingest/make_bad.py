#!/usr/bin/env python3
"""Writes tests/data/ingest/bad/: one small archive per refused input
(NAME.jsonl) with the exact error line 'benchdb ingest NAME.jsonl' must
print beside it (NAME.err). tests/cli/ingest_bad.sh runs every case.
Re-run after editing the cases: python3 make_bad.py"""
import os

RUN = ('{"record":"run","format":"benchdb-run/1","plan":"p","run":"r1","host":"h1",'
       '"treatment":"native","baseline":"chill"}')
S = '{"record":"samples","benchmark":"b","block":1,"variant":"native","unit":"ns/op",%s}'
V = '"values":[1.5,2,2.5]'


def samples(extra, values=V):
    """A samples record with its usual fields, `extra` spliced in (and
    fields named in `extra` removed from the defaults with a leading '-')."""
    fields = {"record": '"samples"', "benchmark": '"b"', "block": "1", "variant": '"native"', "unit": '"ns/op"'}
    out = []
    for part in extra:
        if part.startswith("-"):
            fields.pop(part[1:], None)
    for k, v in fields.items():
        out.append('"%s":%s' % (k, v))
    if "-values" not in extra:
        out.append(values)
    out += [p for p in extra if not p.startswith("-")]
    return "{" + ",".join(out) + "}"


def run(extra="", drop=()):
    fields = {"record": '"run"', "format": '"benchdb-run/1"', "plan": '"p"', "run": '"r1"', "host": '"h1"'}
    for d in drop:
        fields.pop(d)
    s = ",".join('"%s":%s' % kv for kv in fields.items())
    return "{" + s + ("," + extra if extra else "") + "}"


E = lambda n, msg: "error: %s.jsonl:%d: %s" % ("{}", n, msg)
FMT = 'expected a non-empty string'
TIME = 'expected an RFC 3339 date-time such as "2026-10-21T03:57:00Z"'
VAL = 'expected a finite number > 0'
UNITS = "ns/op, us/op, ms/op, s/op, ns, us, ms, s, ops/ns, ops/us, ops/ms, ops/s, ops/min, sec/op, B/s, MB/s"
KINDS = '"run", "samples", "results", "gate" or "event"'

cases = {
    # every required field missing
    "run-format-missing": ([run(drop=["format"])], 1, 'run.format: required field missing (expected "benchdb-run/1")'),
    "run-plan-missing": ([run(drop=["plan"])], 1, "run.plan: required field missing (%s)" % FMT),
    "run-run-missing": ([run(drop=["run"])], 1, "run.run: required field missing (%s)" % FMT),
    "run-host-missing": ([run(drop=["host"])], 1, "run.host: required field missing (%s)" % FMT),
    "samples-benchmark-missing": ([RUN, samples(["-benchmark"])], 2, "samples.benchmark: required field missing (%s)" % FMT),
    "samples-block-missing": ([RUN, samples(["-block"])], 2, "samples.block: required field missing (expected an integer >= 1)"),
    "samples-variant-missing": ([RUN, samples(["-variant"])], 2, "samples.variant: required field missing (%s)" % FMT),
    "samples-unit-missing": ([RUN, samples(["-unit"])], 2, "samples.unit: required field missing (expected a unit name)"),
    "samples-values-missing": ([RUN, samples(["-values"])], 2, "samples.values: required field missing (expected a non-empty array of numbers)"),
    "gate-name-missing": ([RUN, '{"record":"gate","passed":true}'], 2, "gate.name: required field missing (%s)" % FMT),
    "gate-passed-missing": ([RUN, '{"record":"gate","name":"load"}'], 2, "gate.passed: required field missing (expected true or false)"),
    "event-name-missing": ([RUN, '{"record":"event","value":1}'], 2, "event.name: required field missing (%s)" % FMT),
    "record-missing": ([RUN, '{"name":"x"}'], 2, "record: required field missing (expected %s)" % KINDS),
    "run-plan-null": ([run(drop=["plan"], extra='"plan":null')], 1, "run.plan: expected %s, got null" % FMT[9:]),
    # each wrong type
    "run-format-version": ([run(drop=["format"], extra='"format":"benchdb-run/2"')], 1,
                           'run.format: expected "benchdb-run/1" (the only format this build reads), got "benchdb-run/2"'),
    "run-plan-number": ([run(drop=["plan"], extra='"plan":7')], 1, "run.plan: %s, got 7" % FMT),
    "run-run-empty": ([run(drop=["run"], extra='"run":""')], 1, 'run.run: %s, got ""' % FMT),
    "run-host-array": ([run(drop=["host"], extra='"host":["a"]')], 1, "run.host: %s, got an array" % FMT),
    "run-position-zero": ([run('"position":0')], 1, "run.position: expected an integer >= 1, got 0"),
    "run-position-real": ([run('"position":1.0')], 1, "run.position: expected an integer >= 1, got 1.0"),
    "run-position-string": ([run('"position":"1"')], 1, 'run.position: expected an integer >= 1, got "1"'),
    "run-source-number": ([run('"source":12')], 1, "run.source: expected a string, got 12"),
    "run-started-at-bad": ([run('"started_at":"2026-10-21 03:57"')], 1, 'run.started_at: %s, got "2026-10-21 03:57"' % TIME),
    "run-ended-at-bad-day": ([run('"ended_at":"2026-02-30T00:00:00Z"')], 1, 'run.ended_at: %s, got "2026-02-30T00:00:00Z"' % TIME),
    "run-treatment-alone": ([run('"treatment":"native"')], 1,
                            "run.baseline: required field missing (treatment and baseline go together: both or neither)"),
    "run-attributes-array": ([run('"attributes":[1]')], 1, "run.attributes: expected an object, got an array"),
    "run-attributes-nested": ([run('"attributes":{"kernel":{"v":1}}')], 1,
                              "run.attributes.kernel: expected a string, number or boolean, got an object"),
    "samples-params-string": ([RUN, samples(['"params":"x=1"'])], 2, 'samples.params: expected an object, got "x=1"'),
    "samples-params-null-value": ([RUN, samples(['"params":{"n":null}'])], 2,
                                  "samples.params.n: expected a string, number or boolean, got null"),
    "samples-block-zero": ([RUN, samples(["-block", '"block":0'])], 2, "samples.block: expected an integer >= 1, got 0"),
    "samples-block-real": ([RUN, samples(["-block", '"block":1.5'])], 2, "samples.block: expected an integer >= 1, got 1.5"),
    "samples-fork-negative": ([RUN, samples(['"fork":-1'])], 2, "samples.fork: expected an integer >= 0, got -1"),
    "samples-variant-number": ([RUN, samples(["-variant", '"variant":1'])], 2, "samples.variant: %s, got 1" % FMT),
    "samples-values-empty": ([RUN, samples([], '"values":[]')], 2,
                             "samples.values: expected a non-empty array of numbers, got an empty array"),
    "samples-values-object": ([RUN, samples([], '"values":{"a":1}')], 2,
                              "samples.values: expected a non-empty array of numbers, got an object"),
    "samples-warmup-number": ([RUN, samples(['"warmup":3'])], 2, "samples.warmup: expected an array of numbers, got 3"),
    # non-finite, zero and negative values
    "samples-value-negative": ([RUN, samples([], '"values":[1,2,3,-1]')], 2, "samples.values[3]: %s, got -1" % VAL),
    "samples-value-zero": ([RUN, samples([], '"values":[0.0]')], 2, "samples.values[0]: %s, got 0.0" % VAL),
    "samples-value-string": ([RUN, samples([], '"values":[1,"2"]')], 2, 'samples.values[1]: %s, got "2"' % VAL),
    "samples-value-null": ([RUN, samples([], '"values":[1,null]')], 2, "samples.values[1]: %s, got null" % VAL),
    "samples-warmup-negative": ([RUN, samples(['"warmup":[1,-0.5]'])], 2, "samples.warmup[1]: %s, got -0.5" % VAL),
    "samples-value-nan": ([RUN, samples([], '"values":[1,NaN]')], 2, "invalid JSON at column 95: invalid token near 'NaN'"),
    "samples-value-infinity": ([RUN, samples([], '"values":[Infinity]')], 2, "invalid JSON at column 98: invalid token near 'Infinity'"),
    "samples-value-overflow": ([RUN, samples([], '"values":[1e999]')], 2, "invalid JSON at column 95: real number overflow near '1e999'"),
    # units
    "samples-unit-unknown": ([RUN, samples(["-unit", '"unit":"furlongs"'])], 2, 'samples.unit: expected one of %s, got "furlongs"' % UNITS),
    "samples-unit-number": ([RUN, samples(["-unit", '"unit":1'])], 2, "samples.unit: expected one of %s, got 1" % UNITS),
    "samples-unit-changes": ([RUN, samples([]), samples(["-block", '"block":2', "-unit", '"unit":"us/op"'])], 3,
                             'samples.unit: expected "ns/op" (the unit of this cell and variant at line 2), got "us/op"'),
    # duplicates
    "samples-duplicate-series": ([RUN, samples(['"fork":0']), '{"record":"event","name":"x"}', samples([])], 4,
                                 'samples: benchmark "b" params {} block 1 variant "native" fork 0 appears twice in this run (first at line 2)'),
    "run-twice": ([RUN, samples([]), RUN], 3, 'run.run: run "r1" of plan "p" appears twice in this archive (first at line 1)'),
    "json-duplicate-key": ([RUN, '{"record":"gate","name":"a","name":"b","passed":true}'], 2,
                           "invalid JSON at column 34: duplicate object key near '\"name\"'"),
    # records
    "record-unknown": ([RUN, '{"record":"note"}'], 2, 'record: expected %s, got "note"' % KINDS),
    "record-number": ([RUN, '{"record":1}'], 2, "record: expected %s, got 1" % KINDS),
    "record-before-run": (['{"record":"gate","name":"load","passed":true}', RUN], 1,
                          'record: a "gate" record before any "run" record (a run record opens each run)'),
    "not-an-object": ([RUN, '[1,2]'], 2, "expected a JSON object, got an array"),
    "invalid-json-middle": ([RUN, samples([]), '{"record":"gate",', samples(['"fork":1'])], 3,
                            "invalid JSON at column 17: string or '}' expected near end of file"),
    "gate-passed-string": ([RUN, '{"record":"gate","name":"load","passed":"yes"}'], 2, 'gate.passed: expected true or false, got "yes"'),
    "gate-at-bad": ([RUN, '{"record":"gate","name":"load","passed":true,"at":"yesterday"}'], 2, 'gate.at: %s, got "yesterday"' % TIME),
    "event-value-object": ([RUN, '{"record":"event","name":"x","value":{"a":1}}'], 2,
                           "event.value: expected a string, number, boolean or null, got an object"),
    "event-at-number": ([RUN, '{"record":"event","name":"x","at":1}'], 2, "event.at: %s, got 1" % TIME),
    "blank-only": (["", "  ", ""], 0, "no run record (an archive holds one or more runs, each opened by a run record)"),
}

here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "bad")
os.makedirs(here, exist_ok=True)
for f in os.listdir(here):
    os.remove(os.path.join(here, f))
for name, (lines, line, msg) in sorted(cases.items()):
    with open(os.path.join(here, name + ".jsonl"), "w") as f:
        f.write("\n".join(lines) + "\n")
    where = "%s.jsonl:%d" % (name, line) if line else "%s.jsonl" % name
    with open(os.path.join(here, name + ".err"), "w") as f:
        f.write("error: %s: %s\n" % (where, msg))
print(len(cases), "cases")
