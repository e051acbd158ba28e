// CEL device selectors (core/cel): compiling NVIDIA's gpu.nvidia.com class selector, and
// evaluating it over 4,096 devices shaped like NVIDIA's (half GB200 GPUs, half MIG devices) as the
// DRA dry-run does for every device of every node. Target: well under 1 us per device, with no
// allocation per evaluation; time_per_device (CPU seconds, "113n" is 113 ns) and
// allocs_per_device are the figures to read.
#include "core/cel/device_selector.h"

#include <benchmark/benchmark.h>

#include <atomic>
#include <cstdlib>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

using namespace topodeck;

// Every allocation of this program is counted, so that the benchmark shows whether evaluating
// allocates (allocs_per_device).
namespace {
std::atomic<std::uint64_t> g_allocations{0};
}

void* operator new(std::size_t size) {
    g_allocations.fetch_add(1, std::memory_order_relaxed);
    if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
    throw std::bad_alloc();
}
void operator delete(void* p) noexcept {
    std::free(p);
}
void operator delete(void* p, std::size_t) noexcept {
    std::free(p);
}

namespace {

constexpr const char* kGpuClass =
    "device.driver == 'gpu.nvidia.com' && device.attributes['gpu.nvidia.com'].type == 'gpu'";
// The mig.nvidia.com class selector, then NVIDIA's gpu-simple-mig request selector.
constexpr const char* kMigCapacity =
    "device.attributes['gpu.nvidia.com'].type == 'mig' && "
    "device.capacity['gpu.nvidia.com'].multiprocessors.isGreaterThan(quantity(\"10\")) && "
    "device.capacity['gpu.nvidia.com'].memory.isGreaterThan(quantity(\"10Gi\"))";
constexpr int kDevices = 4096;

struct BenchDevice {
    std::string driver = "gpu.nvidia.com";
    std::vector<DeviceAttribute> attributes;
    std::vector<DeviceCapacity> capacity;
};

Quantity quantity(const char* text) {
    auto q = Quantity::parse(text);
    if (!q) throw std::runtime_error(q.error().message);
    return *q;
}

Version version(const char* text) {
    auto v = Version::parse(text);
    if (!v) throw std::runtime_error(v.error().message);
    return *v;
}

// GPUs publish type first; MIG devices put parentUUID and profile ahead of it, as NVIDIA's
// plugin orders them, so the scan for `type` walks a few names on both.
BenchDevice device(int i) {
    BenchDevice d;
    const std::string n = std::to_string(i);
    const bool mig = i % 2 == 1;
    if (mig) {
        d.attributes = {{"uuid", "MIG-" + n},
                        {"parentUUID", "GPU-" + std::to_string(i - 1)},
                        {"profile", std::string("1g.23gb")},
                        {"type", std::string("mig")}};
        d.capacity = {
            {"multiprocessors", quantity("18")}, {"copyEngines", quantity("1")}, {"memory", quantity("23552Mi")}};
    } else {
        d.attributes = {{"type", std::string("gpu")}, {"uuid", "GPU-" + n}};
        d.capacity = {{"memory", quantity("189471Mi")}};
    }
    d.attributes.push_back({"productName", std::string("NVIDIA GB200")});
    d.attributes.push_back({"architecture", std::string("Blackwell")});
    d.attributes.push_back({"cudaComputeCapability", version("10.0.0")});
    d.attributes.push_back({"driverVersion", version("570.124.6")});
    d.attributes.push_back({"resource.kubernetes.io/pcieRoot", "pci0000:" + std::to_string(i % 8)});
    return d;
}

const std::vector<BenchDevice>& devices() {
    static const std::vector<BenchDevice> all = [] {
        std::vector<BenchDevice> out;
        for (int i = 0; i < kDevices; ++i) out.push_back(device(i));
        return out;
    }();
    return all;
}

cel::Program compiled(const char* expression) {
    auto program = cel::compile(expression);
    if (!program) throw std::runtime_error(program.error().message);
    return *program;
}

void BM_CelCompile(benchmark::State& state) {
    for (auto _ : state) {
        auto program = cel::compile(kGpuClass);
        benchmark::DoNotOptimize(program);
    }
}
BENCHMARK(BM_CelCompile);

void matchAll(benchmark::State& state, const char* expression, int expected) {
    const cel::Program program = compiled(expression);
    const std::vector<BenchDevice>& all = devices();
    int matched = 0;
    const std::uint64_t allocationsBefore = g_allocations.load();
    for (auto _ : state) {
        matched = 0;
        for (const BenchDevice& d : all) {
            const Result<bool> m = cel::matches(program, {d.driver, d.attributes, d.capacity, false});
            matched += m.ok() && *m ? 1 : 0;
        }
        benchmark::DoNotOptimize(matched);
    }
    const double allocations = double(g_allocations.load() - allocationsBefore);
    if (matched != expected) state.SkipWithError("unexpected number of matches");
    state.counters["allocs_per_device"] = allocations / (double(state.iterations()) * kDevices);
    state.SetItemsProcessed(state.iterations() * kDevices);
    state.counters["time_per_device"] = benchmark::Counter(
        double(kDevices), benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

void BM_CelMatchGpuClass(benchmark::State& state) {
    matchAll(state, kGpuClass, kDevices / 2);
}
BENCHMARK(BM_CelMatchGpuClass);

// A MIG class and request selector: on MIG devices an attribute, two capacity lookups and two
// quantity comparisons; GPUs stop at the type.
void BM_CelMatchMigCapacity(benchmark::State& state) {
    matchAll(state, kMigCapacity, kDevices / 2);
}
BENCHMARK(BM_CelMatchMigCapacity);

} // namespace

BENCHMARK_MAIN();
