// parseScontrolTopology: `scontrol show topology` (tree SwitchName lines, 23.11+ BlockName lines),
// then the hierarchy over a few nodes.
#include "fuzz_slurm.h"

#include "core/slurm/slurm_text.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
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
