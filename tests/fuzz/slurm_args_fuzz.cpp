// The short texts a Slurm source is told by: SlurmVersion::parse (`sinfo -V`, slurm-version.txt,
// --slurm-release) and SlurmTarget::fromArgument (--slurm URL|cli).
#include "fuzz_support.h"

#include "core/live/live_target.h"
#include "core/placement/engines/placement_engine.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text = topodeck::fuzz::text(data, size);
    topodeck::Result<topodeck::SlurmVersion> version = topodeck::SlurmVersion::parse(text);
    if (version) {
        topodeck::Result<topodeck::SlurmVersion> again = topodeck::SlurmVersion::parse(version->toString());
        TOPODECK_FUZZ_CHECK(again.ok() && *again == *version, "a version prints as it parses");
    }
    topodeck::Result<topodeck::SlurmTarget> target = topodeck::SlurmTarget::fromArgument(text);
    if (target) (void)target->describe();
    return 0;
}
