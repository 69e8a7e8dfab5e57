# A small file system made inside a test (sourced after common.sh, which
# gives $T). Root only: CI runs as root; elsewhere a caller skips.
#
# mount_tmpfs DIR SIZE: mounts a tmpfs of SIZE (1M, 4M...) at $T/DIR and
# returns 0, or returns 1 with why it cannot in $tmpfs_why.
# skip_without_tmpfs DIR SIZE: mount_tmpfs, or ends the test as skipped
# (ctest's code 77) with the reason on one line. What it mounts, and
# whatever a test adds to $unmount_at_exit (most recent first), is
# unmounted at exit before $T is removed.
unmount_at_exit=""
mount_tmpfs() {
    if [ "$(id -u)" != 0 ]; then
        tmpfs_why="mounting a tmpfs needs root (uid $(id -u))"
        return 1
    fi
    mkdir -p "$T/$1"
    if ! mount -t tmpfs -o size="$2" benchdb-test "$T/$1" 2>"$T/mount.err"; then
        tmpfs_why="cannot mount a tmpfs of $2 at $T/$1: $(tr -s "\n " "  " <"$T/mount.err")"
        return 1
    fi
    unmount_at_exit="$T/$1 $unmount_at_exit"
    trap 'for d in $unmount_at_exit; do umount "$d" 2>/dev/null; done; rm -rf "$T"' EXIT
}
skip_without_tmpfs() {
    mount_tmpfs "$1" "$2" || { echo "skipped: $tmpfs_why"; exit 77; }
}
