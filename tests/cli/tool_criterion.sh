# Criterion.rs itself (Debian's librust-criterion-dev 0.3, built by cargo
# offline against Debian's crates in /usr/share/cargo/registry, which a
# cargo config puts in crates.io's place): a tiny bench crate run with
# --output-format bencher writes target/criterion and the bencher lines.
# The directory loads (new/ only, each sample.json with its benchmark.json
# and estimates.json), every value the file's times[i] / iters[i], as
# tests/cli/lib/harness_values.py reads it; the bencher lines load as
# cargo-bench, each line's one value the file's; Criterion's mean estimate
# is the mean of the stored values.
# The sanitizer pass would only build the same crate again (minutes of
# cargo): what it writes is read under the sanitizers by
# cli/formats_rust_py_cpp.
# ctest: slow plain-only cost=35
. "$BENCHDB_SRC/tests/cli/lib/ingest.sh"
command -v cargo >/dev/null || fail "cargo is missing: scripts/install-deps installs cargo"
[ -d /usr/share/cargo/registry/criterion-0.3.6 ] || ls -d /usr/share/cargo/registry/criterion-0.3* >/dev/null 2>&1 ||
    fail "Criterion.rs is missing: scripts/install-deps installs librust-criterion-dev"
C="$T/crate"
mkdir -p "$C/benches" "$C/src" "$C/.cargo"
cat >"$C/Cargo.toml" <<'TOML'
[package]
name = "tinybench"
version = "0.1.0"
edition = "2018"

[dev-dependencies]
criterion = { version = "0.3", default-features = false }

[[bench]]
name = "fib"
harness = false

# a quick build (opt-level 0: half the CPU time of 1): the measured code's speed does not matter here.
# codegen-units is left at its default: the same as the build scripts' profile (build-override),
# so that the crates both need (regex, libc, memchr, serde, syn, ...) are compiled once, not twice
[profile.bench]
opt-level = 0
debug = false
incremental = false
TOML
: >"$C/src/lib.rs"
cat >"$C/benches/fib.rs" <<'RS'
use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion};
use std::time::Duration;
fn fib(n: u64) -> u64 { if n < 2 { n } else { fib(n - 1) + fib(n - 2) } }
fn bench(c: &mut Criterion) {
    c.bench_function("fib 9", |b| b.iter(|| fib(black_box(9))));
    let mut g = c.benchmark_group("Fib");
    for n in [4u64, 6].iter() {
        g.bench_with_input(BenchmarkId::new("rec", n), n, |b, n| b.iter(|| fib(black_box(*n))));
    }
    g.finish();
}
criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10).nresamples(1000).without_plots()
        .warm_up_time(Duration::from_millis(50)).measurement_time(Duration::from_millis(100));
    targets = bench
}
criterion_main!(benches);
RS
cat >"$C/.cargo/config.toml" <<'TOML'
[source.crates-io]
replace-with = "debian"
[source.debian]
directory = "/usr/share/cargo/registry"
[net]
offline = true
# panic=abort and one codegen unit for every unit, build scripts and
# proc-macros too (so the crates both kinds need are still compiled once):
# no landing pads to generate, one object a crate (docs/testing.md,
# "A Criterion.rs crate built without unwinding"). A panic then aborts the
# benchmark, which fails the test as a panic did.
[build]
rustflags = ["-C", "panic=abort", "-C", "codegen-units=1"]
TOML
# MALLOC_CONF: rustc's jemalloc backs its heap with transparent huge pages
# (madvise), a tenth of the page faults and about a fifth less CPU
# (docs/testing.md, "The plain pass's heaviest tests"); the same code is
# compiled. A rustc without jemalloc (Debian's) ignores it, as does the
# benchmark (Rust's system allocator).
(cd "$C" && MALLOC_CONF=thp:always,metadata_thp:always CARGO_HOME="$T/cargo-home" cargo bench --offline --bench fib -- --output-format bencher \
    >"$T/bencher.txt" 2>"$T/cargo.err") || fail "cargo bench: $(tail -5 "$T/cargo.err")"
[ -f "$C/target/criterion/Fib/rec/4/new/sample.json" ] || fail "no target/criterion: $(find "$C/target/criterion" | head)"
bd init >/dev/null
bd ingest -q --plan tool --run dir --host h "$C/target/criterion" || fail "target/criterion not loaded"
set --
while IFS= read -r f; do set -- "$@" "$f"; done <<LIST
$(find "$C/target/criterion" -path '*/new/sample.json' | LC_ALL=C sort)
LIST
[ "$#" = 3 ] || fail "$# sample.json files"
python3 "$LIB/harness_values.py" criterion "$T/store.db" dir "$@" >/dev/null || fail "target/criterion: values differ"
# Criterion's mean estimate is the mean of the per-iteration times stored
expect_rows "mean" "SELECT count(*) FROM series s JOIN run r ON r.id = s.run_id WHERE r.name = 'dir' AND
                    abs(s.total / s.n - json_extract(s.detail, '$.estimates.mean.point_estimate'))
                      <= 1e-9 * json_extract(s.detail, '$.estimates.mean.point_estimate')" "3"
expect_rows "names" "SELECT b.name, b.params FROM benchmark b ORDER BY b.name, b.params" \
    'Fib/rec,"{""value"":""4""}"
Fib/rec,"{""value"":""6""}"
fib 9,{}'
bd ingest -q --plan tool --run lines --host h "$T/bencher.txt" || fail "bencher lines not loaded"
expect_rows "read as" "SELECT format FROM archive_member WHERE path = 'files/bencher.txt'" "cargo-bench"
python3 "$LIB/harness_values.py" cargo-bench "$T/store.db" lines "$T/bencher.txt" >/dev/null || fail "bencher: values differ"
expect_rows "lines" "SELECT count(*) FROM series s JOIN run r ON r.id = s.run_id WHERE r.name = 'lines'" "3"
echo ok
