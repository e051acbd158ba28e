// parseScontrolNodes: `scontrol -o show nodes` (-d), then the model a Slurm CLI source builds.
#include "fuzz_slurm.h"

#include "core/slurm/slurm_text.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    topodeck::Result<std::vector<topodeck::SlurmNode>> nodes = topodeck::parseScontrolNodes(topodeck::fuzz::text(data, size));
    if (!nodes) {
        TOPODECK_FUZZ_CHECK(!nodes.error().message.empty(), "an error says what is wrong");
        return 0;
    }
    for (const topodeck::SlurmNode& node : *nodes) (void)node.stateName();
    topodeck::fuzz::showSlurm(nullptr, std::move(*nodes), {});
    return 0;
}
