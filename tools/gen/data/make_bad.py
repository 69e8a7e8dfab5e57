#!/usr/bin/env python3
"""Writes tests/data/bad/: one small archive per refused input (NAME.jsonl
or NAME.jsonl.zst) with the exact error line 'benchdb ingest ARCHIVE' must
print beside it (NAME.err), and the options to pass, if any (NAME.args).
tests/cli/ingest_bad.sh runs every case (and one generated at test time: a
100 MB line). Re-run after editing the cases: python3 make_bad.py
(needs the zstd command)."""
import os
import subprocess

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
UNITS = "ns/op, us/op, ms/op, s/op, ns, us, ms, s, ops/ns, ops/us, ops/ms, ops/s, ops/min, sec/op, B/s, MB/s, min/op, hr/op, day/op, ops/hr, ops/day"
KINDS = '"run", "samples", "results", "gate" or "event"'
NOT_A_FORMAT = ("not a format benchdb reads: expected a benchdb-run/1 stream (JSON Lines, optionally compressed), a tar "
                "or zip holding them, or harness output (jmh, google-benchmark, hyperfine, pyperf, go-bench, criterion, cargo-bench, pytest-benchmark, asv, catch2, nanobench, tinybench, vitest, benchmarkjs, benchmarkdotnet, bmf, csv) with "
                "--plan, --run and --host")

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

# Bad input beyond the format's fields (docs/reliability.md): encodings,
# JSON edge cases, nesting, huge numbers, records after a bad record.
GATE = '{"record":"gate","name":"load","passed":true}'
cases.update({
    # invalid UTF-8: in a string, a lone continuation byte, an overlong
    # encoding, a UTF-16 surrogate, and bytes of another encoding
    "utf8-invalid-string": ([RUN, b'{"record":"event","name":"caf\xe9"}'], 2, 'invalid JSON at column 29: unable to decode byte 0xe9 near \'"caf\''),
    "utf8-lone-continuation": ([RUN, b'{"record":"event","name":"\x80"}'], 2, 'invalid JSON at column 26: unable to decode byte 0x80 near \'"\''),
    "utf8-overlong": ([RUN, b'{"record":"event","name":"\xc0\xaf"}'], 2, 'invalid JSON at column 26: unable to decode byte 0xc0 near \'"\''),
    "utf8-surrogate": ([RUN, b'{"record":"event","name":"\xed\xa0\x80"}'], 2, 'invalid JSON at column 26: unable to decode byte 0xed near \'"\''),
    "utf8-escaped-lone-surrogate": ([RUN, '{"record":"event","name":"\\ud800"}'], 2, 'invalid JSON at column 33: invalid Unicode \'\\uD800\' near \'"\\ud800"\''),
    "utf8-in-key": ([b'{"record":"run","form\xffat":"benchdb-run/1"}'], 1, 'invalid JSON at column 21: unable to decode byte 0xff near \'"form\''),
    # not JSON Lines at all (nor anything else benchdb reads): refused as such
    "utf16-bom": ([b'\xff\xfe{\x00"\x00'], 0, NOT_A_FORMAT),
    "utf8-nul-escape": ([RUN, '{"record":"event","name":"a\\u0000b"}'], 2, 'invalid JSON at column 35: \\u0000 is not allowed without JSON_ALLOW_NUL near \'"a\\u0000b"\''),
    # invalid JSON
    "json-trailing-garbage": ([RUN, GATE + ' x'], 2, "invalid JSON at column 47: end of file expected near 'x'"),
    "json-two-objects": ([RUN, GATE + GATE], 2, "invalid JSON at column 46: end of file expected near '{'"),
    "json-single-quotes": ([RUN, "{'record':'gate'}"], 2, "invalid JSON at column 2: string or '}' expected near '''"),
    "json-trailing-comma": ([RUN, '{"record":"gate","name":"load","passed":true,}'], 2, "invalid JSON at column 46: string or '}' expected near '}'"),
    "json-comment": ([RUN, '// a comment'], 2, "invalid JSON at column 1: '[' or '{' expected near '/'"),
    "json-bare-string": ([RUN, '"run"'], 2, 'invalid JSON at column 5: \'[\' or \'{\' expected near \'"run"\''),
    "json-null-line": ([RUN, 'null'], 2, "invalid JSON at column 4: '[' or '{' expected near 'null'"),
    "json-control-char": ([RUN, '{"record":"event","name":"a\tb"}'], 2, 'invalid JSON at column 27: control character 0x9 near \'"a\''),
    "json-unterminated-string": ([RUN, '{"record":"event","name":"abc'], 2, 'invalid JSON at column 29: premature end of input near \'"abc\''),
    # deep nesting: in an array, an object and a detail field
    "nesting-array-deep": ([RUN, "[" * 100000], 2, "invalid JSON at column 2049: maximum parsing depth reached near '['"),
    "nesting-object-deep": ([RUN, '{"a":' * 5000 + "1" + "}" * 5000], 2, "invalid JSON at column 10241: maximum parsing depth reached near '{'"),
    "nesting-detail-deep": ([RUN, '{"record":"event","name":"x","detail":' + "[" * 3000 + "]" * 3000 + "}"], 2, "invalid JSON at column 2086: maximum parsing depth reached near '['"),
    # huge numbers
    "number-block-huge": ([RUN, samples(["-block", '"block":99999999999999999999'])], 2, "invalid JSON at column 119: too big integer near '99999999999999999999'"),
    "number-block-int64-max": ([RUN, samples(["-block", '"block":9223372036854775808'])], 2, "invalid JSON at column 118: too big integer near '9223372036854775808'"),
    "number-position-huge": ([run('"position":1e300')], 1, 'run.position: expected an integer >= 1, got 1e+300'),
    "number-value-huge-digits": ([RUN, samples([], '"values":[1' + "0" * 400 + ']')], 2, 'invalid JSON at column 491: too big integer'),
    "number-value-subnormal-underflow": ([RUN, samples([], '"values":[1e-400]')], 2, 'samples.values[0]: expected a finite number > 0, got 0.0'),
    "number-fork-huge-negative": ([RUN, samples(['"fork":-99999999999999999999'])], 2, 'invalid JSON at column 129: too big negative integer'),
    # NaN and infinities spelled in JSON, and as strings
    "nan-lowercase": ([RUN, samples([], '"values":[nan]')], 2, "invalid JSON at column 93: invalid token near 'nan'"),
    "infinity-negative": ([RUN, samples([], '"values":[-Infinity]')], 2, "invalid JSON at column 91: invalid token near '-'"),
    "nan-string": ([RUN, samples([], '"values":["NaN"]')], 2, 'samples.values[0]: expected a finite number > 0, got "NaN"'),
    "nan-in-warmup": ([RUN, samples(['"warmup":[NaN]'])], 2, "invalid JSON at column 114: invalid token near 'NaN'"),
    "infinity-event-value": ([RUN, '{"record":"event","name":"x","value":Infinity}'], 2, "invalid JSON at column 45: invalid token near 'Infinity'"),
    # wrong types in the remaining fields
    "run-record-null": (['{"record":null}'], 1, "record: expected %s, got null" % KINDS),
    "run-started-at-number": ([run('"started_at":1700000000')], 1, 'run.started_at: expected an RFC 3339 date-time such as "2026-10-21T03:57:00Z", got 1700000000'),
    "run-baseline-number": ([run('"treatment":"native","baseline":2')], 1, 'run.baseline: expected a non-empty string, got 2'),
    "run-attributes-null-value": ([run('"attributes":{"k":null}')], 1, 'run.attributes.k: expected a string, number or boolean, got null'),
    "samples-benchmark-object": ([RUN, samples(["-benchmark", '"benchmark":{}'])], 2, 'samples.benchmark: expected a non-empty string, got an object'),
    "samples-block-string": ([RUN, samples(["-block", '"block":"1"'])], 2, 'samples.block: expected an integer >= 1, got "1"'),
    "samples-fork-real": ([RUN, samples(['"fork":0.5'])], 2, 'samples.fork: expected an integer >= 0, got 0.5'),
    "samples-values-string": ([RUN, samples([], '"values":"1,2"')], 2, 'samples.values: expected a non-empty array of numbers, got "1,2"'),
    "samples-values-nested": ([RUN, samples([], '"values":[[1]]')], 2, 'samples.values[0]: expected a finite number > 0, got an array'),
    "samples-warmup-object": ([RUN, samples(['"warmup":{}'])], 2, 'samples.warmup: expected an array of numbers, got an object'),
    "gate-name-number": ([RUN, '{"record":"gate","name":3,"passed":true}'], 2, 'gate.name: expected a non-empty string, got 3'),
    "gate-passed-number": ([RUN, '{"record":"gate","name":"load","passed":1}'], 2, 'gate.passed: expected true or false, got 1'),
    "event-name-empty": ([RUN, '{"record":"event","name":""}'], 2, 'event.name: expected a non-empty string, got ""'),
    # duplicate keys, nested and in the run record
    "json-duplicate-key-run": (['{"record":"run","format":"benchdb-run/1","plan":"p","plan":"q","run":"r1","host":"h1"}'], 1, 'invalid JSON at column 58: duplicate object key near \'"plan"\''),
    "json-duplicate-key-nested": ([run('"attributes":{"k":"a","k":"b"}')], 1, 'invalid JSON at column 100: duplicate object key near \'"k"\''),
    # missing run record
    "empty": ([], 0, 'the file is empty: no run record (an archive holds one or more runs, each opened by a run record)'),
    "only-samples": ([samples([])], 1, 'record: a "samples" record before any "run" record (a run record opens each run)'),
    # records after a bad record: the first error is reported, nothing stored
    "bad-then-good": ([RUN, samples([]), samples(["-unit", '"unit":"parsecs"'])] +
                      [samples(['"fork":%d' % i]) for i in range(1, 200)], 3, "samples.unit: expected one of %s, got \"parsecs\"" % UNITS),
    "bad-second-run": ([RUN, samples([]), run(drop=["run"], extra='"run":"r2","position":-4'), samples([])], 3, 'run.position: expected an integer >= 1, got -4'),
})



def zstd(data, *opts):
    return subprocess.run(["zstd", "-q", "-c"] + list(opts), input=data, stdout=subprocess.PIPE, check=True).stdout


def zstd_repeat(prefix, byte, size):
    """zstd's output for prefix followed by size copies of byte, the input
    written to a file a mebibyte at a time (a 128 MiB bytes object piped
    4 KiB a write was most of this script's time)."""
    import tempfile
    with tempfile.NamedTemporaryFile() as f:
        f.write(prefix)
        chunk = byte * (1 << 20)
        for _ in range(size >> 20):
            f.write(chunk)
        f.write(byte * (size & ((1 << 20) - 1)))
        f.flush()
        return subprocess.run(["zstd", "-q", "-c", f.name], stdout=subprocess.PIPE, check=True).stdout


def rle_bomb(prefix, size):
    """A zstd frame by hand: prefix in a raw block, then size bytes of
    newlines in run-length blocks of 128 KiB (4 bytes each)."""
    import struct

    def block(last, kind, n):
        return struct.pack("<I", last | kind << 1 | n << 3)[:3]
    out = struct.pack("<I", 0xFD2FB528) + bytes([0x00, 7 << 3])  # no content size, window 128 KiB
    out += block(0, 0, len(prefix)) + prefix
    k = size // (128 << 10)
    out += (block(0, 1, 128 << 10) + b"\n") * (k - 1) + block(1, 1, 128 << 10) + b"\n"
    return out


RLE_BOMB = rle_bomb(RUN.encode() + b"\n", 1 << 30)
RATIO = ("decompresses to more than 1000 times the bytes read (%d bytes from %d: the limit past the first 64 MiB; "
         "raise it with --max-ratio)")

DATA = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))),
                    "tests", "data")
EXAMPLE = open(os.path.join(DATA, "ingest", "good", "example.jsonl"), "rb").read()
# under another plan: a case that is read to its end before its error is
# found must not meet the example's run, stored by the test beforehand
EXAMPLE = EXAMPLE.replace(b'"plan":"calibration-example"', b'"plan":"zstd-case"')
Z = zstd(EXAMPLE, "-19", "--check")
# Compressed archives: name -> (bytes, line, message, options).
zcases = {
    "zstd-truncated": (Z[: len(Z) // 2], 0, 'truncated zstd stream: the last frame ends early, after 366 bytes', []),
    "zstd-truncated-header": (Z[:6], 0, 'truncated zstd stream: the last frame ends early, after 6 bytes', []),
    "zstd-corrupt-block": (Z[:40] + bytes(b ^ 0x5A for b in Z[40:80]) + Z[80:], 0, 'corrupt zstd stream (Data corruption detected) within the first 733 bytes', []),
    "zstd-bad-checksum": (Z[:-1] + bytes([Z[-1] ^ 1]), 0, "corrupt zstd stream (Restored data doesn't match checksum) within the first 733 bytes", []),
    "zstd-garbage-after-frame": (Z + b"garbage!", 0, 'corrupt zstd stream (Unknown frame descriptor) within the first 741 bytes', []),
    "zstd-empty-frame": (zstd(b""), 0, 'no run record (an archive holds one or more runs, each opened by a run record)', []),
    "zstd-invalid-json-inside": (zstd(RUN.encode() + b"\n{\"record\":\n"), 2, 'invalid JSON at column 10: unexpected token near end of file', []),
    # bombs: tiny on disk, 128 MiB once decompressed; refused at the
    # data limit (given) or the line limit (the default, 64 MiB)
    "zstd-bomb-newlines": (zstd_repeat(RUN.encode(), b"\n", 1 << 27), 0, 'more than 16777216 bytes of data after decompression (the limit; raise it with --max-bytes)', ["--max-bytes", "16M"]),
    "zstd-bomb-one-line": (zstd_repeat(RUN.encode() + b"\n", b" ", 1 << 27), 2, 'line longer than 67108864 bytes (the limit; raise it with --max-line-bytes)', ["--max-ratio", "1M"]),
    # at the default limits: a frame of 32 KiB giving 1 GiB of newlines
    # (it took 11 s to read through; 131 KB gave 4 GiB in a minute), and
    # the same compressed again (73 bytes): more than 1000 bytes per byte
    # read past the first 64 MiB
    "zstd-bomb-ratio": (RLE_BOMB, 0, RATIO % (67239936, len(RLE_BOMB)), []),
    "zstd-bomb-ratio-nested": (zstd(RLE_BOMB, "-19"), 0, RATIO % (67141757, len(zstd(RLE_BOMB, "-19"))), []),
}

here = os.path.join(DATA, "bad")
os.makedirs(here, exist_ok=True)
for f in os.listdir(here):
    os.remove(os.path.join(here, f))


def write_case(name, ext, data, line, msg, args):
    with open(os.path.join(here, name + ext), "wb") as f:
        f.write(data)
    where = "%s%s:%d" % (name, ext, line) if line else name + ext
    with open(os.path.join(here, name + ".err"), "w") as f:
        f.write("error: %s: %s\n" % (where, msg))
    if args:
        with open(os.path.join(here, name + ".args"), "w") as f:
            f.write(" ".join(args) + "\n")


for name, (lines, line, msg) in sorted(cases.items()):
    data = b"".join((l if isinstance(l, bytes) else l.encode()) + b"\n" for l in lines)
    write_case(name, ".jsonl", data, line, msg, [])
for name, (data, line, msg, args) in sorted(zcases.items()):
    write_case(name, ".jsonl.zst", data, line, msg, args)
print(len(cases) + len(zcases), "cases")
