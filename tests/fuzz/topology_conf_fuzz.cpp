// parseTopologyConf: Slurm's topology.conf (tree and block plugins). What parses writes back as
// topology.conf that parses again to the same switches and blocks; then the hierarchy a Slurm
// cluster gets from it, over a few nodes.
#include "fuzz_slurm.h"

#include "core/slurm/slurm_topology.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    topodeck::Result<topodeck::SlurmTopology> topology = topodeck::parseTopologyConf(topodeck::fuzz::text(data, size), "fuzz.conf");
    if (!topology) {
        TOPODECK_FUZZ_CHECK(!topology.error().message.empty(), "an error says what is wrong");
        return 0;
    }
    (void)topodeck::slurmBlockLevels(topology->blockSizes);
    const std::string written = topodeck::writeTopologyConf(*topology);
    topodeck::Result<topodeck::SlurmTopology> again = topodeck::parseTopologyConf(written, "written.conf");
    TOPODECK_FUZZ_CHECK(again.ok(), "what is written parses");
    TOPODECK_FUZZ_CHECK(again->kind == topology->kind && again->blocks == topology->blocks &&
                            again->blockSizes == topology->blockSizes,
                        "what is written reads as the same topology");
    (void)topodeck::slurmHierarchy(&*topology);
    topodeck::fuzz::showSlurm(std::make_shared<const topodeck::SlurmTopology>(std::move(*topology)),
                              topodeck::fuzz::someSlurmNodes(), {});
    return 0;
}
