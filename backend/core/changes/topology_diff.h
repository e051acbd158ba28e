#pragma once
// What a change does to the hierarchy: the same TopologySpec read over the cluster before and
// after (node ids match: the after state is a copy of the before state with some nodes changed).

#include "core/changes/change_plan.h"
#include "core/topology/topology_index.h"

#include <cstdint>
#include <string>
#include <vector>

namespace topodeck {

struct TopologyDiff {
    struct Move {
        std::string node;
        std::string from; // lowest-level domain path; "(no rack)" parts where a level label is missing
        std::string to;
        friend bool operator==(const Move&, const Move&) = default;
    };
    struct Capacity {
        std::string domain;
        std::int64_t gpusBefore = 0;
        std::int64_t gpusAfter = 0;
        std::int64_t nodesBefore = 0;
        std::int64_t nodesAfter = 0;
        friend bool operator==(const Capacity&, const Capacity&) = default;
    };

    // Labelled domains by path, natural order.
    std::vector<std::string> domainsAdded;
    std::vector<std::string> domainsRemoved;
    // A domain whose nodes now sit in more than one domain of its level / one fed by more than one.
    std::vector<std::string> domainsSplit;
    std::vector<std::string> domainsMerged;
    std::vector<Move> moved;
    // Nodes that carried every level's label and now lack one: Kueue TAS no longer counts them
    // (and the reverse).
    std::vector<std::string> leftLevelCapacity;
    std::vector<std::string> joinedLevelCapacity;
    // Domains (before or after) whose GPUs or nodes change, counting what Kueue TAS counts: nodes
    // labelled at every level.
    std::vector<Capacity> capacity;
    // NVLink domains that sat in one lowest-level domain (a rack) and now span several: the pods of
    // one NVLink gang would be told they cross racks.
    std::vector<std::string> nvlinkSplit;
    // Running workloads with pods whose nodeSelector (Kueue TAS injects one naming the domain it
    // placed them in) or required node affinity matched their node before and does not after: a pod that restarts cannot
    // come back, and the scheduler no longer sees the gang where it runs. One per workload.
    struct Stranded {
        std::string workload; // "team/train-a (JobSet)"; a pod's namespace/name when it has none
        std::size_t pods = 0;
        std::string example; // "node n1 needs example.com/rack=r1, which becomes r9"
        friend bool operator==(const Stranded&, const Stranded&) = default;
    };
    std::vector<Stranded> stranded;
    // Labels the plan changes that a controller owns (the nodes' managedFields): it is likely to
    // put them back. One per label key and manager.
    struct OwnedElsewhere {
        std::string key;
        std::string manager;
        std::size_t nodes = 0;
        std::string example; // a node's name
        friend bool operator==(const OwnedElsewhere&, const OwnedElsewhere&) = default;
    };
    std::vector<OwnedElsewhere> ownedElsewhere;
    // The plan's object changes: what the CRDs or controllers would refuse (apply is refused while
    // there are any), and what the server takes but people should know (objectChangeRisks).
    std::vector<std::string> objectProblems;
    std::vector<std::string> objectRisks;

    // Whether the hierarchy is unchanged (risks to workloads aside).
    bool empty() const {
        return domainsAdded.empty() && domainsRemoved.empty() && domainsSplit.empty() && domainsMerged.empty() &&
               moved.empty() && leftLevelCapacity.empty() && joinedLevelCapacity.empty() && capacity.empty() &&
               nvlinkSplit.empty();
    }
};

// `after` is built over a copy of `before`'s state, which names the nodes (`state`: either, the
// names do not change), with the same spec or, for a plan that changes the hierarchy's objects,
// the one read again (levels are then compared top first, over those both have).
TopologyDiff diffTopology(const ClusterState& state, const TopologyIndex& before, const TopologyIndex& after);

// What the plan's label changes do to `before` (the state's index): the same spec read over the
// state with them made.
TopologyDiff diffPlanTopology(const ClusterState& state, const TopologyIndex& before, const ChangePlan& plan);
// The same, for a caller that already holds the state with the plan made and its index.
TopologyDiff diffPlanTopology(const ClusterState& state, const TopologyIndex& before, const ClusterState& changed,
                              const TopologyIndex& after, const ChangePlan& plan);
// The labels the plan changes that a controller owns, by key, then manager: any field manager but
// ours ("topodeck…", an earlier apply) and a person's kubectl ("kubectl", "kubectl-label", ...).
std::vector<TopologyDiff::OwnedElsewhere> labelsOwnedElsewhere(const ClusterState& state, const ChangePlan& plan);
// The running workloads the plan strands (TopologyDiff::stranded): `after` is `before` with the
// plan's changes made.
std::vector<TopologyDiff::Stranded> strandedWorkloads(const ClusterState& before, const ClusterState& after,
                                                      const ChangePlan& plan);

} // namespace topodeck
