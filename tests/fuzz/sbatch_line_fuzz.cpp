// parseSbatchLine and sbatchArguments: an `sbatch ...` command line (`plan --sbatch`), and
// parseSlurmDuration (-t) on the same text; then `topodeckctl plan`.
#include "fuzz_placement.h"

#include "core/placement/requests/sbatch_args.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text = topodeck::fuzz::text(data, size);
    (void)topodeck::parseSlurmDuration(text);
    topodeck::Result<std::vector<std::string>> arguments = topodeck::sbatchArguments(text);
    topodeck::Result<topodeck::GangRequest> gang = topodeck::parseSbatchLine(text);
    if (!gang) return 0;
    TOPODECK_FUZZ_CHECK(gang->slurm.has_value(), "an sbatch line is a Slurm request");
    TOPODECK_FUZZ_CHECK(arguments.ok(), "a line that parses has arguments");
    topodeck::fuzz::planGang(*gang);
    return 0;
}
