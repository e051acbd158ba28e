// parseScontrolTopology: `scontrol show topology` (tree SwitchName lines, 23.11+ BlockName lines),
// then the hierarchy over a few nodes; and parseScontrolConfigVersion on the same text (`scontrol
// show config`, another key = value listing).
#include "fuzz_slurm.h"

#include "core/slurm/slurm_text.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (const auto version = topodeck::parseScontrolConfigVersion(topodeck::fuzz::text(data, size)); version)
        TOPODECK_FUZZ_CHECK(!version->empty() && version->size() <= 64, "a version is a short non-empty value");
    topodeck::Result<topodeck::SlurmTopology> topology = topodeck::parseScontrolTopology(topodeck::fuzz::text(data, size));
    if (!topology) {
        TOPODECK_FUZZ_CHECK(!topology.error().message.empty(), "an error says what is wrong");
        return 0;
    }
    (void)topodeck::writeTopologyConf(*topology);
    topodeck::fuzz::showSlurm(std::make_shared<const topodeck::SlurmTopology>(std::move(*topology)),
                              topodeck::fuzz::someSlurmNodes(), {});
    return 0;
}
