// CEL device selectors (core/cel): whatever the input, compile gives a program or an error that
// says what is wrong; a program evaluated against a GPU ends within its cost budget with a value
// or an error (never a crash, a hang or runaway memory); matches() agrees with evaluate(); and
// what fieldsRead() says a selector reads is all it reads: a device that differs only elsewhere
// gives the same answer.
#include "fuzz_support.h"

#include "core/cel/device_selector.h"

#include <string>
#include <vector>

namespace {

using namespace topodeck;

struct FuzzDevice {
    std::string driver = "gpu.nvidia.com";
    std::vector<DeviceAttribute> attributes;
    std::vector<DeviceCapacity> capacity;

    cel::DeviceView view() const { return {driver, attributes, capacity, false}; }
};

// A GB200 GPU as NVIDIA's plugin publishes it; `extra` adds what no listed field covers.
FuzzDevice gpu(bool extra) {
    FuzzDevice d;
    const auto version = [](const char* text) { return *Version::parse(text); };
    d.attributes = {{"type", std::string("gpu")},
                    {"uuid", std::string("GPU-4f7a1b2c-93de-4c51-8a70-2f6d0e5b9c11")},
                    {"productName", std::string("NVIDIA GB200")},
                    {"architecture", std::string("Blackwell")},
                    {"index", std::int64_t(3)},
                    {"virtualized", false},
                    {"cudaComputeCapability", version("10.0.0")},
                    {"driverVersion", version("570.124.6")},
                    {"resource.kubernetes.io/pcieRoot", std::string("pci0000:00")}};
    d.capacity = {{"memory", *Quantity::parse("189471Mi")}, {"multiprocessors", *Quantity::parse("144")}};
    if (extra) {
        d.attributes.push_back({"fuzz.example.com/extra", std::int64_t(7)});
        d.attributes.push_back({"extra", std::string("x")});
        d.capacity.push_back({"fuzz.example.com/extra", *Quantity::parse("1")});
    }
    return d;
}

const FuzzDevice& device(bool extra) {
    static const FuzzDevice plain = gpu(false);
    static const FuzzDevice more = gpu(true);
    return extra ? more : plain;
}

std::string outcomeText(const cel::Evaluation& e) {
    return e.ok() ? "value " + cel::display(e.value) : "error " + std::string(e.error());
}

bool listed(const std::vector<std::string>& names, const char* name) {
    for (const std::string& n : names)
        if (n == name) return true;
    return false;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text = topodeck::fuzz::text(data, size);
    cel::CompileOptions options;
    options.requireBool = false;
    Result<cel::Program> program = cel::compile(text, options);
    if (!program) {
        const std::string& message = program.error().message;
        TOPODECK_FUZZ_CHECK(!message.empty(), "an error says what is wrong");
        TOPODECK_FUZZ_CHECK(message.size() < 16 * 1024, "an error quotes only a bounded part of the input");
        return 0;
    }
    const cel::Evaluation e = cel::evaluate(*program, device(false).view());
    TOPODECK_FUZZ_CHECK(!e.ok() || e.cost <= options.costLimit, "a finished evaluation stayed within its budget");
    TOPODECK_FUZZ_CHECK(e.ok() || !e.error().empty(), "an evaluation error says what is wrong");

    // As a selector: the same answer, when its result is a bool.
    Result<cel::Program> selector = cel::compile(text);
    if (selector) {
        const Result<bool> match = cel::matches(*selector, device(false).view());
        if (e.ok() && e.value.kind() == cel::Kind::Bool)
            TOPODECK_FUZZ_CHECK(match.ok() && *match == e.value.asBool(), "matches() agrees with evaluate()");
        else
            TOPODECK_FUZZ_CHECK(!match.ok(), "matches() fails when evaluate() gives no bool");
    }

    const cel::FieldUse use = cel::fieldsRead(*program);
    if (!use.dynamic && !listed(use.attributes, "fuzz.example.com/extra") &&
        !listed(use.attributes, "gpu.nvidia.com/extra") && !listed(use.capacity, "fuzz.example.com/extra")) {
        const cel::Evaluation other = cel::evaluate(*program, device(true).view());
        // Only a cancelled evaluation may differ: the budget runs out on a different step.
        const bool cancelled = e.value.isCancelled() || other.value.isCancelled();
        TOPODECK_FUZZ_CHECK(cancelled || outcomeText(e) == outcomeText(other),
                            "fields the selector does not read do not change its answer");
    }
    return 0;
}
