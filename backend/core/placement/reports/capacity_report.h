#pragma once

#include "core/placement/engines/placement_cluster.h"

#include <cstdint>
#include <string>
#include <vector>

namespace topodeck {

// "How many pods of this shape fit right now, and where": per domain at every level, the pods that
// fit node by node (a pod never straddles nodes), and with a gang size, how many whole gangs fit
// inside one domain of that level.
struct CapacityReport {
    struct Row {
        DomainId domain = kRootDomain;
        int level = -1;   // -1 for the cluster
        std::string path; // "su-1/rack-3"; "" for the cluster
        std::int64_t usableNodes = 0;
        std::int64_t nodesWithRoom = 0; // usable nodes where at least one pod fits
        std::int64_t podsFit = 0;
        std::int64_t gangsFit = 0; // floor(podsFit / gangSize); 0 without a gang size
    };
    struct LevelSummary {
        std::string level;
        std::int64_t domains = 0;
        std::int64_t podsFit = 0;
        std::int64_t gangsFit = 0;           // sum over the level's domains: each gang inside one domain
        std::int64_t domainsFittingGang = 0; // domains where at least one gang fits
    };
    ResourceList perPod;
    std::int32_t gangSize = 0;
    // Pods without tolerations cannot use these, so they are left out (and counted here).
    std::int64_t taintedNodesSkipped = 0;
    std::vector<LevelSummary> levels; // cluster, the levels top down, then "node" (unless hostname is a level)
    std::vector<Row> rows;            // depth-first, natural order: the tree
};

CapacityReport buildCapacityReport(const PlacementCluster& cluster, const ResourceList& perPod, std::int32_t gangSize);

struct CapacityRenderOptions {
    std::string source;
    int depth = -1; // levels of the tree to list; -1 = all
};
std::string renderCapacityTable(const CapacityReport& report, const CapacityRenderOptions& options);
std::string renderCapacityJson(const CapacityReport& report, const CapacityRenderOptions& options);

} // namespace topodeck
