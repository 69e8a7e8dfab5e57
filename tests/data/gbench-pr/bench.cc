// Two builds of one Google Benchmark program for tests/cli/compare_pr.sh:
// compiled as is it is the base build; with -DHEAD the head build, in
// which two cells are slower (x1.25) and one faster (x0.8) than in base,
// the others unchanged. Each iteration busy-loops for its cell's time and
// reports that time as its own (UseManualTime), with a small spread by
// repetition that both builds share, so that real_time is the same, value
// for value, in every run: the comparison cannot depend on the machine's
// load. cpu_time is measured and varies as CPU times do.
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

namespace {

// Microseconds per iteration of each cell in base, and head's factor.
const double base_us[] = {20, 40, 80, 160, 30, 60};
#ifdef HEAD
const double factor[] = {1, 1.25, 1, 0.8, 1, 1.25};
#else
const double factor[] = {1, 1, 1, 1, 1, 1};
#endif

double spin(double us)
{
    auto end = std::chrono::steady_clock::now() + std::chrono::duration<double, std::micro>(us);
    std::uint64_t x = 1;
    while (std::chrono::steady_clock::now() < end)
        benchmark::DoNotOptimize(x = x * 6364136223846793005ULL + 1442695040888963407ULL);
    return us;
}

template <class T> void BM_Sort(benchmark::State &state)
{
    static int calls[6];
    const int cell = static_cast<int>(state.range(0));
    // The k-th repetition of a cell runs 1 + (3k mod 10)/1000 times its time.
    const double jitter = 1 + ((3 * calls[cell]++) % 10) / 1000.0;
    const double us = base_us[cell] * factor[cell] * jitter;
    for (auto _ : state)
        state.SetIterationTime(spin(us) * 1e-6);
}

void BM_Parse(benchmark::State &state)
{
    static int calls[6];
    const int cell = 4 + static_cast<int>(state.range(0));
    const double jitter = 1 + ((3 * calls[cell]++) % 10) / 1000.0;
    const double us = base_us[cell] * factor[cell] * jitter;
    for (auto _ : state)
        state.SetIterationTime(spin(us) * 1e-6);
}

} // namespace

BENCHMARK_TEMPLATE(BM_Sort, std::string)->DenseRange(0, 3)->UseManualTime()->Iterations(20);
BENCHMARK(BM_Parse)->Name("BM_Parse|json")->DenseRange(0, 1)->UseManualTime()->Iterations(20);

BENCHMARK_MAIN();
