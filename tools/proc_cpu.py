#!/usr/bin/env python3
"""proc_cpu.py [--top N] [--records FILE] -- COMMAND...: the CPU of every process COMMAND's tree runs, by program.

Runs COMMAND and prints, per program name (the kernel's 15-character
`comm`: benchdb, sh, python3, psql, postgres, cargo, ...), how many
processes of that name exited, their CPU (user, system, total, and per
process) and their page faults, heaviest first; then the tree's total as
wait4() counts it. Example (docs/testing.md, "CPU by program"):

    tools/proc_cpu.py -- ctest --test-dir /tmp/x -R '^refused/' -j2

A process that forked and never called exec is shown as "NAME (fork)":
for a sanitized benchdb that is LeakSanitizer's tracer, the clone that
stops the program and scans its memory at exit.

How: the kernel's per-process exit records (taskstats, over generic
netlink; Linux 2.6.19, CONFIG_TASKSTATS, needs root), which hold every
exiting thread's CPU, faults, name and parent, for every process on the
machine. Only the processes descended from COMMAND are counted: this
program becomes a child subreaper (prctl), so an orphan's parent is it,
and reading the records newest first, a process belongs to the tree when
its parent does. CPU per process is the scheduler's exact runtime
(`cpu_run_virtual_total`), split into user and system as the kernel's
tick samples split it (as getrusage does); with HZ=250 a short process's
split is coarse, its total is not. Records the socket could not hold are
reported, never silently dropped. The records are taken before the
kernel releases an exited process's memory, which the table therefore
misses and the wait4 line holds (docs/testing.md, "CPU by program").
It waits for COMMAND and then for every orphan COMMAND's tree left
behind; exits with COMMAND's status. --records FILE writes the raw
records (every process on the machine), one JSON object a line.
"""
import ctypes, errno, json, os, socket, struct, sys, threading, time

NETLINK_GENERIC = 16
GENL_ID_CTRL, CTRL_CMD_GETFAMILY, CTRL_ATTR_FAMILY_ID, CTRL_ATTR_FAMILY_NAME = 0x10, 3, 1, 2
NLM_F_REQUEST, NLM_F_ACK, NLMSG_ERROR = 1, 4, 2
TASKSTATS_CMD_GET = 1
TASKSTATS_CMD_ATTR_REGISTER_CPUMASK = 3
TASKSTATS_TYPE_STATS, TASKSTATS_TYPE_AGGR_PID = 3, 4
AFORK = 0x01
PR_SET_CHILD_SUBREAPER = 36
# struct taskstats (linux/taskstats.h): offsets stable since version 12
# (fields are only ever appended).
TS = {"version": (0, "H"), "flag": (8, "B"), "cpu_run_virtual_total": (72, "Q"),
      "comm": (80, "32s"), "pid": (128, "I"), "ppid": (132, "I"),
      "utime": (152, "Q"), "stime": (160, "Q"), "minflt": (168, "Q"),
      "majflt": (176, "Q"), "tgid": (368, "I")}
TS_MIN_VERSION, TS_MIN_SIZE = 12, 372


def attr(kind, payload):
    a = struct.pack("HH", 4 + len(payload), kind) + payload
    return a + b"\0" * (-len(a) % 4)


def attrs(buf):
    at = 0
    while at + 4 <= len(buf):
        length, kind = struct.unpack_from("HH", buf, at)
        if length < 4:
            break
        yield kind & 0x3FFF, buf[at + 4:at + length]
        at += (length + 3) & ~3


def genl_send(sock, family, cmd, payload, seq, flags=NLM_F_REQUEST):
    body = struct.pack("BBH", cmd, 1, 0) + payload
    sock.send(struct.pack("IHHII", 16 + len(body), family, flags, seq, 0) + body)


def family_id(sock):
    genl_send(sock, GENL_ID_CTRL, CTRL_CMD_GETFAMILY, attr(CTRL_ATTR_FAMILY_NAME, b"TASKSTATS\0"), 1)
    msg = sock.recv(65536)
    _, kind = struct.unpack_from("IH", msg)
    if kind == NLMSG_ERROR:
        sys.exit("proc_cpu.py: the kernel has no taskstats (CONFIG_TASKSTATS)")
    for k, v in attrs(msg[20:]):
        if k == CTRL_ATTR_FAMILY_ID:
            return struct.unpack_from("H", v)[0]
    sys.exit("proc_cpu.py: no taskstats family id in the kernel's answer")


class Listener:
    """Every thread exit on the machine while it runs, in arrival order."""

    def __init__(self):
        self.sock = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, NETLINK_GENERIC)
        try:  # bursts of exits: a large buffer, forced past rmem_max as root
            self.sock.setsockopt(socket.SOL_SOCKET, 33, 64 << 20)  # SO_RCVBUFFORCE
        except OSError:
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 64 << 20)
        self.sock.bind((0, 0))
        self.family = family_id(self.sock)
        self.cpus = f"0-{os.cpu_count() - 1}".encode() + b"\0"
        self.records, self.lost, self.stop = [], 0, False
        genl_send(self.sock, self.family, TASKSTATS_CMD_GET,
                  attr(TASKSTATS_CMD_ATTR_REGISTER_CPUMASK, self.cpus), 2, NLM_F_REQUEST | NLM_F_ACK)
        while self.messages(self.sock.recv(1 << 20)) is None:
            pass
        self.thread = threading.Thread(target=self.read, daemon=True)
        self.thread.start()

    def read(self):
        self.sock.settimeout(0.2)
        while not self.stop:
            try:
                data = self.sock.recv(1 << 20)
            except socket.timeout:
                continue
            except OSError:  # ENOBUFS: the buffer overflowed, records lost
                self.lost += 1
                continue
            self.messages(data)

    def messages(self, data):
        """Takes the exit records in data; returns the acknowledgement's
        status if one is there (the registration's), None if not."""
        at, ack = 0, None
        while at + 16 <= len(data):
            length, kind = struct.unpack_from("IH", data, at)
            if length < 16:
                break
            if kind == NLMSG_ERROR:
                ack = -struct.unpack_from("i", data, at + 16)[0]
                if ack:
                    why = " (it needs root)" if ack == errno.EPERM else ""
                    sys.exit(f"proc_cpu.py: registering for the exit records: {os.strerror(ack)}{why}")
            elif kind == self.family:
                self.take(data[at + 20:at + length])
            at += (length + 3) & ~3
        return ack

    def take(self, payload):
        for k, v in attrs(payload):
            if k != TASKSTATS_TYPE_AGGR_PID:
                continue
            for k2, v2 in attrs(v):
                if k2 == TASKSTATS_TYPE_STATS:
                    self.records.append(parse(v2))

    def close(self):
        time.sleep(0.3)  # the last exits' records
        self.stop = True
        self.thread.join()
        self.sock.close()


def parse(buf):
    if len(buf) < TS_MIN_SIZE or struct.unpack_from("H", buf)[0] < TS_MIN_VERSION:
        sys.exit("proc_cpu.py: taskstats older than version 12 (no thread group id)")
    r = {k: struct.unpack_from(f, buf, off)[0] for k, (off, f) in TS.items()}
    r["comm"] = r["comm"].split(b"\0")[0].decode(errors="replace")
    return r


def processes_of(records, root):
    """The processes descended from root, each with its threads' records.
    Newest first, a thread group leader's record joins the tree when its
    parent is in it; one whose parent is not yet takes its pid out (older
    records of that pid are another process's: pids are reused) and waits
    for its parent's record, older than its own when the parent's main
    thread exited first while the rest of it ran on (Chromium's browser
    process and zygotes: their renderer's record came first, and was lost):
    it joins with its parent, or with nothing. A thread that exits after
    its leader (in a group exit) waits for the leader's record to decide."""
    tree, current, pending, procs, waiting = {root}, {}, {}, [], {}

    def join(leader, threads):
        tgid = leader["tgid"]
        tree.add(tgid)
        current[tgid] = [leader] + threads + pending.pop(tgid, [])
        procs.append(current[tgid])
        for child, its_threads in waiting.pop(tgid, []):
            join(child, its_threads)

    for r in reversed(records):
        tgid = r["tgid"]
        if r["pid"] != tgid:
            if tgid in tree:
                current[tgid].append(r)
            else:
                pending.setdefault(tgid, []).append(r)
            continue
        if r["ppid"] in tree:
            join(r, [])
        else:
            tree.discard(tgid)
            waiting.setdefault(r["ppid"], []).append((r, pending.pop(tgid, [])))
    return procs


def by_program(procs):
    rows = {}
    for threads in procs:
        leader = threads[0]
        name = leader["comm"] + (" (fork)" if leader["flag"] & AFORK else "")
        exact = sum(r["cpu_run_virtual_total"] for r in threads) / 1e9
        ticks_u = sum(r["utime"] for r in threads) / 1e6
        ticks = ticks_u + sum(r["stime"] for r in threads) / 1e6
        cpu = exact if exact else ticks
        user = cpu * ticks_u / ticks if ticks else cpu / 2
        row = rows.setdefault(name, [0, 0.0, 0.0, 0])
        row[0] += 1
        row[1] += user
        row[2] += cpu - user
        row[3] += sum(r["minflt"] + r["majflt"] for r in threads)
    return rows


def report(rows, top, total, lost, out=sys.stdout):
    all_cpu = sum(r[1] + r[2] for r in rows.values())
    out.write(f"{all_cpu:.2f} CPU-s in {sum(r[0] for r in rows.values())} processes "
              f"(wait4: {total[0] + total[1]:.2f}, user {total[0]:.2f}, system {total[1]:.2f})\n")
    out.write(f"{'program':<26}{'count':>7}{'user s':>9}{'sys s':>9}{'CPU s':>9}{'share':>7}"
              f"{'ms/proc':>9}{'faults/proc':>12}\n")
    ranked = sorted(rows.items(), key=lambda kv: -(kv[1][1] + kv[1][2]))
    for name, (n, user, system, faults) in ranked[:top]:
        cpu = user + system
        out.write(f"{name:<26}{n:>7}{user:>9.2f}{system:>9.2f}{cpu:>9.2f}"
                  f"{100 * cpu / all_cpu if all_cpu else 0:>6.1f}%{1000 * cpu / n:>9.1f}{faults / n:>12.0f}\n")
    if len(ranked) > top:
        rest = ranked[top:]
        n = sum(r[0] for _, r in rest)
        cpu = sum(r[1] + r[2] for _, r in rest)
        out.write(f"{f'({len(rest)} more programs)':<26}{n:>7}{'':>18}{cpu:>9.2f}\n")
    if lost:
        out.write(f"warning: the kernel dropped exit records {lost} time(s) (socket buffer full): "
                  "the table undercounts\n")


def main(argv):
    top, save = 20, None
    while argv[:1] in (["--top"], ["--records"]) and len(argv) > 1:
        if argv[0] == "--top":
            top = int(argv[1])
        else:
            save = argv[1]
        argv = argv[2:]
    if argv[:1] != ["--"] or len(argv) < 2:
        sys.stderr.write(__doc__.split("\n\n")[0] + "\n")
        return 2
    if ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
        sys.exit("proc_cpu.py: prctl(PR_SET_CHILD_SUBREAPER) failed")
    listener = Listener()
    pid = os.fork()
    if pid == 0:
        try:
            os.execvp(argv[1], argv[1:])
        finally:
            os._exit(127)
    status, user, system = None, 0.0, 0.0
    while True:  # the command, then any orphans it left (reparented here)
        try:
            wpid, st, ru = os.wait4(-1, 0)
        except ChildProcessError:
            break
        user += ru.ru_utime
        system += ru.ru_stime
        if wpid == pid:
            status = os.waitstatus_to_exitcode(st)
    listener.close()
    if save:
        with open(save, "w") as f:
            for r in listener.records:
                f.write(json.dumps(r) + "\n")
    rows = by_program(processes_of(listener.records, os.getpid()))
    try:
        report(rows, top, (user, system), listener.lost)
    except BrokenPipeError:  # | head
        sys.stderr.close()
    return status if status is not None and status >= 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
