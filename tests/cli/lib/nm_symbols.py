"""The symbols object files define and use, read by one nm (layers.py and
src_layers.py): symbols(objects) with objects {path of a .o: its module}
gives (defined {symbol: module}, used {module: set of symbols})."""
import subprocess


def symbols(objects):
    defined, used = {}, {}
    # -A: each line starts "FILE:"; one nm for all of them, not one a file
    # (a process each was a quarter of a minute of CPU for src/)
    out = subprocess.run(["nm", "-A"] + sorted(objects), capture_output=True, text=True,
                         check=True).stdout if objects else ""
    for line in out.splitlines():
        path, _, rest = line.rpartition(":")  # C symbols hold no colon
        mod = objects[path]
        parts = rest.split()
        if len(parts) == 3 and parts[1] in "TDBR":
            defined[parts[2]] = mod
        elif len(parts) == 2 and parts[0] == "U":
            used.setdefault(mod, set()).add(parts[1])
    return defined, used
