#!/bin/sh
# tools/calibration-check.py on examples/calibration: the shares the
# default plan was tuned to (docs/simulate.md, "Calibration"), and the
# checker's t quantile against R's qt(0.975, 8) = 2.3060041352041658.
# ctest: plain-only
#   (plain-only: runs no benchdb program: no coverage counts at all (tools/plain_only_cover.py --all-unique, 2026-12-03))
set -eu
: "${BENCHDB_SRC:?}"
command -v zstd >/dev/null || { echo "FAIL: the zstd command is missing (scripts/install-deps installs zstd)" >&2; exit 1; }
command -v python3 >/dev/null || { echo "FAIL: python3 is missing (scripts/install-deps installs it)" >&2; exit 1; }
python3 - "$BENCHDB_SRC" <<'PY'
import importlib.util, json, subprocess, sys
src = sys.argv[1]
spec = importlib.util.spec_from_file_location("check", src + "/tools/calibration-check.py")
m = importlib.util.module_from_spec(spec)
spec.loader.exec_module(m)
assert abs(m.t_quantile(0.975, 8) - 2.3060041352041658) < 1e-13, m.t_quantile(0.975, 8)
assert abs(m.t_quantile(0.975, 1) - 12.706204736174694) < 1e-12     # R: qt(0.975, 1)
assert abs(m.t_quantile(0.975, 9) - 2.2621571627982049) < 1e-13     # R: qt(0.975, 9)

out = subprocess.run([sys.executable, src + "/tools/calibration-check.py", "--json", src + "/examples/calibration"],
                     stdout=subprocess.PIPE, check=True).stdout
res = {r["group"]: r for r in json.loads(out)}
got = {g: (r["within"]["n"], r["within"]["in_band"], r["within"]["excluding"],
           r["between"]["n"], r["between"]["in_band"], r["between"]["in_band_reversed"], r["between"]["excluding"],
           r["band_condition"], r["interval_condition"])
       for g, r in res.items()}
want = {"protobuf-3": (120, 104, 5, 240, 214, 214, 23, False, False),
        "protobuf-4": (120, 111, 6, 240, 220, 220, 19, False, True)}
assert got == want, got
PY
echo ok
