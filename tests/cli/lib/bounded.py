"""bounded.py OUT ERR SECONDS CMD...: runs CMD with stdout to OUT and
stderr to ERR, killing it after SECONDS; prints "RC WALL_SECONDS
MAXRSS_KIB" (RC "killed" when it had to be killed). For tests/cli/lib/bounded.sh."""
import resource
import subprocess
import sys
import time

out, err, limit, cmd = sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4:]
t0 = time.monotonic()
with open(out, "wb") as o, open(err, "wb") as e:
    p = subprocess.Popen(cmd, stdout=o, stderr=e)
    try:
        rc = p.wait(timeout=limit)
    except subprocess.TimeoutExpired:
        p.kill()
        p.wait()
        rc = "killed"
wall = time.monotonic() - t0
print(rc, "%.3f" % wall, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
