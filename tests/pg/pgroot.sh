#!/bin/sh
# pgroot.sh OUT PGBINDIR PGSHAREDIR PGPKGLIBDIR MODULE CONTROL SQL
# Makes OUT a private PostgreSQL tree that finds the benchstats extension
# without touching the system's directories (docs/postgresql.md): Debian's
# PostgreSQL computes its share and library directories relative to the
# real path of its binaries, so postgres, initdb and pg_ctl are copied to
# OUT/lib/postgresql/15/bin, and OUT/share/postgresql/15 and
# OUT/lib/postgresql/15/lib hold symbolic links to the system's files
# beside the extension's control file, install SQL and module.
set -eu
out=$1 bindir=$2 sharedir=$3 pkglibdir=$4 module=$5 control=$6 sql=$7
ver=$(basename "$(dirname "$bindir")")
bin="$out/lib/postgresql/$ver/bin" lib="$out/lib/postgresql/$ver/lib" share="$out/share/postgresql/$ver"
rm -rf "$out.tmp"
mkdir -p "$out.tmp"
tbin="$out.tmp/lib/postgresql/$ver/bin" tlib="$out.tmp/lib/postgresql/$ver/lib" tshare="$out.tmp/share/postgresql/$ver"
mkdir -p "$tbin" "$tlib" "$tshare/extension"
for b in postgres initdb pg_ctl; do
    cp -p "$bindir/$b" "$tbin/$b"
done
# One ln for each directory's links, not one a file: about 300 links, whose
# processes were nearly all of the 2.8 CPU-seconds this took in each build
# (docs/testing.md, "What keeps the suite fast").
ln -s "$pkglibdir"/* "$tlib/"
set --
for f in "$sharedir"/*; do
    [ "${f##*/}" = extension ] || set -- "$@" "$f"
done
ln -s "$@" "$tshare/"
ln -s "$sharedir"/extension/* "$tshare/extension/"
rm -f "$tlib/benchstats.so" "$tshare/extension/benchstats.control" "$tshare/extension/benchstats--"*.sql
cp "$module" "$tlib/benchstats.so"
cp "$control" "$tshare/extension/benchstats.control"
cp "$sql" "$tshare/extension/$(basename "$sql")"
chmod -R a+rX "$out.tmp"
rm -rf "$out"
mv "$out.tmp" "$out"
