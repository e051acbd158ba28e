// parseTopologyYaml: Slurm 25.05's topology.yaml (several topologies, tree, block or flat), then
// the hierarchy of its cluster-default topology over a few nodes.
#include "fuzz_slurm.h"

#include "core/slurm/slurm_topology.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    topodeck::Result<std::vector<topodeck::SlurmTopology>> topologies =
        topodeck::parseTopologyYaml(topodeck::fuzz::text(data, size), "fuzz.yaml");
    if (!topologies) {
        TOPODECK_FUZZ_CHECK(!topologies.error().message.empty(), "an error says what is wrong");
        return 0;
    }
    for (const topodeck::SlurmTopology& topology : *topologies) {
        (void)topodeck::writeTopologyConf(topology);
        (void)topodeck::slurmBlockLevels(topology.blockSizes);
        (void)topodeck::slurmHierarchy(&topology);
    }
    if (!topologies->empty())
        topodeck::fuzz::showSlurm(std::make_shared<const topodeck::SlurmTopology>(std::move(topologies->front())),
                                  topodeck::fuzz::someSlurmNodes(), {});
    return 0;
}
