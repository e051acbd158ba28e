#pragma once

// What a Slurm source does with what its readers produced: the mapper turns nodes, jobs and the
// topology into the model's events, a state takes them, and `show` reports it.

#include "fuzz_cluster.h"
#include "fuzz_support.h"

#include "core/slurm/slurm_cluster.h"

#include <memory>
#include <string>
#include <vector>

namespace topodeck::fuzz {

inline void showSlurm(std::shared_ptr<const SlurmTopology> topology, std::vector<SlurmNode> nodes,
                      std::vector<SlurmJob> jobs) {
    SlurmClusterMapper mapper;
    mapper.setTopology(std::move(topology));
    mapper.setNodes(std::move(nodes));
    mapper.setJobs(std::move(jobs));
    ClusterState state;
    for (ClusterEvent& event : mapper.takeEvents()) (void)state.apply(std::move(event));
    (void)mapper.topologyWarnings();
    showState(state);
}

// A few nodes for the readers that bring jobs or a topology only.
inline std::vector<SlurmNode> someSlurmNodes() {
    std::vector<SlurmNode> nodes(4);
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        nodes[i].name = "gpu-00" + std::to_string(i + 1);
        nodes[i].cpus = 64;
        nodes[i].base = SlurmNode::Base::Idle;
        nodes[i].memoryMiB = 512 * 1024;
        nodes[i].gpus = 8;
        nodes[i].gpuType = "h100";
        nodes[i].partitions = {"gpu"};
    }
    return nodes;
}

} // namespace topodeck::fuzz
