#pragma once

#include "core/demo/demo_cluster.h"
#include "core/model/cluster_event.h"
#include "core/model/cluster_state.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace topodeck {

// Starts and finishes gangs over time so occupancy moves while you watch. Deterministic for a seed.
// A demo with its GPUs through DRA is simulated as its device-plugin twin, whose events are then
// told the DRA way (claims allocated and freed with the pods).
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
    struct DraTwin;
    std::unique_ptr<Impl> m_impl;
    std::unique_ptr<DraTwin> m_dra; // for a DRA demo

};

} // namespace topodeck
