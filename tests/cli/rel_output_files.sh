# Output files (docs/reliability.md, "Output files"): report -o writes
# through to character devices, FIFOs and standard output ('-'); follows
# links to a regular file and replaces that file, not the link; refuses a
# directory, a block device, a link to nothing; simulate, whose names in
# its directory are its own, replaces a link there instead of following
# it and refuses a FIFO there; both make their temporary files with
# mkstemp, so that a link planted at the name the temporary used to get
# (FILE.tmpPID) is never followed.
. "$BENCHDB_SRC/tests/cli/lib/common.sh"

bd init >/dev/null
bd simulate -q --groups 1 --hosts 2 --positions 1 --cells 2 --forks 1 --iterations 2 --warmups 0 sim
bd ingest -q sim || fail "ingest"
bd query --record comparisons -p plan=calibration-sim >/dev/null 2>&1 || fail "an evaluation to draw"
bd report --evaluation 1 >page.html || fail "the page"
size=$(wc -c <page.html)

# --- A character device is written through, never replaced. As root the
# attack replaced /dev/null itself with a regular file; the test names
# only private nodes of the same devices and private links, so that a
# benchdb that still replaces them (today's main) damages nothing of the
# machine's (a non-root run uses /dev/null and /dev/full, which it could
# not replace anyway).
if [ "$(id -u)" = 0 ] && mknod null c 1 3 2>/dev/null && mknod full c 1 7 2>/dev/null; then
    null=null full=full
else
    null=/dev/null full=/dev/full
fi
run bd report --evaluation 1 -o "$null"
expect_rc 0 "-o a character device"
[ -c "$null" ] || fail "$null is still a character device"
expect_err_has "report: wrote $null" "says what it wrote"
run bd report --evaluation 1 -o "$full"
expect_rc 1 "a device that fails the write"
expect_err_has "report: cannot write $full: No space left on device" "names the device and why"
[ -c "$full" ] || fail "$full is still a character device"

# --- A link to /proc/self/fd/1 (or /dev/stdout): the page reaches the
# pipe, the link stays a link.
ln -s /proc/self/fd/1 fd1
bd report --evaluation 1 -o fd1 2>"$T/err" | cmp -s - page.html || fail "-o a link to /proc/self/fd/1 writes to standard output"
[ -L fd1 ] && [ "$(readlink fd1)" = /proc/self/fd/1 ] || fail "the link to /proc/self/fd/1 is still that link"
ln -s /dev/stdout so
bd report --evaluation 1 -o so 2>/dev/null | cmp -s - page.html || fail "-o a link to /dev/stdout"
[ -L so ] || fail "the link to /dev/stdout is still a link"
# Standard output redirected into a file: that file gets the page.
bd report --evaluation 1 -o fd1 >redirected.html 2>/dev/null || fail "-o /proc/self/fd/1 into a file"
cmp -s redirected.html page.html || fail "the redirected file holds the page"

# --- '-' is standard output, not a file named '-'.
bd report --evaluation 1 -o - 2>"$T/err" | cmp -s - page.html || fail "-o - writes to standard output"
[ -e ./- ] && fail "no file named '-'"
checks=$((checks + 6))

# --- A FIFO is written through to its reader.
# The shell holds both ends open while the report runs, so that neither
# side blocks in open() and the reader ends when that is closed, whatever
# the report did with the name. The reader's end is opened here, before
# the reader starts: a reader that opened the name itself could come to
# open() after every writer had closed, and wait for a writer forever.
mkfifo pipe
exec 3<>pipe
exec 4<pipe
cat <&4 >from-pipe 3>&- 4<&- &
reader=$!
exec 4<&-
run bd report --evaluation 1 -o pipe
exec 3>&-
wait "$reader"
expect_rc 0 "-o a FIFO"
[ -p pipe ] || fail "the FIFO is still a FIFO"
cmp -s from-pipe page.html || fail "the reader got the page"
checks=$((checks + 2))

# --- A link to a regular file: the file it leads to is replaced, the link
# kept; also through a chain of links and a relative link in another
# directory.
echo victim >target.html
ln -s target.html link.html
run bd report --evaluation 1 -o link.html
expect_rc 0 "-o a link to a regular file"
[ -L link.html ] && [ "$(readlink link.html)" = target.html ] || fail "the link is still the link"
cmp -s target.html page.html || fail "the file it leads to holds the page"
mkdir sub
echo victim >other.html
ln -s ../chain1 sub/chain2
ln -s other.html chain1
run bd report --evaluation 1 -o sub/chain2
expect_rc 0 "-o a chain of links"
[ -L sub/chain2 ] && [ -L chain1 ] || fail "both links kept"
cmp -s other.html page.html || fail "the file at the chain's end holds the page"
checks=$((checks + 4))

# --- Refused by kind, nothing created: a link to nothing (followed, it
# would create a file wherever it points), a directory, a block device.
ln -s planted/elsewhere.html dangling.html
run bd report --evaluation 1 -o dangling.html
expect_rc 1 "a link to nothing"
expect_err_has "report: cannot write dangling.html: it is a symbolic link to a file that does not exist" "says so"
[ -e planted ] && fail "nothing created where the link points"
mkdir adir
run bd report --evaluation 1 -o adir
expect_rc 1 "a directory"
expect_err_has "report: cannot write adir: it is a directory; an output goes to a regular file, a character device, a FIFO or standard output ('-')" "says what it is"
if [ "$(id -u)" = 0 ] && mknod disk b 7 200 2>/dev/null; then
    run bd report --evaluation 1 -o disk
    expect_rc 1 "a block device"
    expect_err_has "it is a block device" "a disk is not a report's place"
    [ -b disk ] || fail "the block device stays"
fi
[ -z "$(find . -name '.*.??????' -newer page.html)" ] || fail "no temporary file left behind"
checks=$((checks + 1))

# --- The predictable temporary name: a link planted at FILE.tmpPID (the
# shell's pid, which exec hands on) was followed and the victim
# overwritten. Now the temporary is a new mkstemp name.
echo "precious" >victim
sh -c 'ln -s victim out.html.tmp$$; exec "$0" report --evaluation 1 -o out.html' "$BENCHDB_BIN" 2>/dev/null ||
    fail "report with a planted link"
[ "$(cat victim)" = precious ] || fail "report: the victim is untouched"
cmp -s out.html page.html || fail "report: the page written where asked"
# The same against simulate (--force rewrites an existing run).
sh -c 'ln -s ../victim sim/p3-vm-a-1.jsonl.zst.tmp$$; exec "$0" simulate -q --force --groups 1 --hosts 2 \
    --positions 1 --cells 2 --forks 1 --iterations 2 --warmups 0 sim' "$BENCHDB_BIN" || fail "simulate with a planted link"
[ "$(cat victim)" = precious ] || fail "simulate: the victim is untouched"
zstd -qt sim/p3-vm-a-1.jsonl.zst || fail "simulate: the archive written whole"
# simulate's own names in DIR: a link there (planted by whoever may write
# DIR) was followed by --force and the file it led to overwritten. Now the
# link itself is replaced by the archive; a FIFO there is refused before
# anything is written.
rm -f sim/p3-vm-a-1.jsonl.zst
ln -s ../victim sim/p3-vm-a-1.jsonl.zst
bd simulate -q --force --groups 1 --hosts 2 --positions 1 --cells 2 --forks 1 --iterations 2 --warmups 0 sim ||
    fail "simulate --force over a link"
[ "$(cat victim)" = precious ] || fail "simulate --force: the file a link in DIR led to is untouched"
[ -f sim/p3-vm-a-1.jsonl.zst ] && [ ! -L sim/p3-vm-a-1.jsonl.zst ] || fail "simulate --force: the link replaced"
zstd -qt sim/p3-vm-a-1.jsonl.zst || fail "simulate --force: the archive written whole in the link's place"
rm -f sim/p3-vm-b-1.jsonl.zst
mkfifo sim/p3-vm-b-1.jsonl.zst
cp sim/p3-vm-a-1.jsonl.zst a1.before
run timeout 20 "$BENCHDB_BIN" simulate -q --force --seed 7 --groups 1 --hosts 2 --positions 1 --cells 2 --forks 1 \
    --iterations 2 --warmups 0 sim
expect_rc 1 "simulate --force: a FIFO among its names"
expect_err_has "sim/p3-vm-b-1.jsonl.zst exists and is no regular file" "says so"
cmp -s a1.before sim/p3-vm-a-1.jsonl.zst || fail "simulate: nothing written before the refusal"
rm -f sim/p3-vm-b-1.jsonl.zst
bd simulate -q --force --groups 1 --hosts 2 --positions 1 --cells 2 --forks 1 --iterations 2 --warmups 0 sim ||
    fail "simulate again"
checks=$((checks + 6))
checks=$((checks + 4))

# --- Permissions: a new file gets 0666 less the umask (as the shell's >
# gives it), a replaced file keeps its own bits; the temporary was 0600.
(umask 027 && bd report --evaluation 1 -o new.html 2>/dev/null) || fail "a new file"
expect_eq "$(stat -c %a new.html)" 640 "a new file: 0666 less the umask"
echo old >kept.html
chmod 604 kept.html
(umask 077 && bd report --evaluation 1 -o kept.html 2>/dev/null) || fail "a replaced file"
expect_eq "$(stat -c %a kept.html)" 604 "a replaced file keeps its mode"
expect_eq "$(wc -c <kept.html)" "$size" "and holds the page"
ln -s kept.html kept-link.html
chmod 640 kept.html
bd report --evaluation 1 -o kept-link.html 2>/dev/null || fail "through a link"
expect_eq "$(stat -c %a kept.html)" 640 "the file behind a link keeps its mode"

finish
