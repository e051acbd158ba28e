#pragma once

#include "core/demo/demo_cluster.h"
#include "core/model/cluster_event.h"
#include "core/model/cluster_state.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace topodeck {

// Starts and finishes gangs over time so occupancy moves while you watch. Deterministic for a seed.
class DemoSimulator {
public:
    DemoSimulator(const DemoCluster& demo, std::uint64_t seed);
    ~DemoSimulator();
    DemoSimulator(DemoSimulator&&) noexcept;
    DemoSimulator& operator=(DemoSimulator&&) noexcept;

    // One tick: a few gangs finish, a few new ones start where they fit. Returns the events.
    std::vector<ClusterEvent> step(const ClusterState& state);

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

} // namespace topodeck
