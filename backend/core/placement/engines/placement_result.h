#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace topodeck {

struct NodePods {
    std::string node;
    std::int32_t pods = 0;
    std::string part{}; // a heterogeneous gang's part (GangPart::name) these pods are of; else ""
    friend bool operator==(const NodePods&, const NodePods&) = default;
};

// Kueue's TopologyAssignment: the levels (all of them, or only hostname when it is the lowest)
// and, per lowest-level domain, its values on those levels and the pods placed there.
struct TopologyAssignment {
    struct Domain {
        std::vector<std::string> values;
        std::int32_t count = 0;
        friend bool operator==(const Domain&, const Domain&) = default;
    };
    std::vector<std::string> levels;
    std::vector<Domain> domains;
    friend bool operator==(const TopologyAssignment&, const TopologyAssignment&) = default;
};

// The domain an engine settled on at one level (e.g. level "rack", domain "su-1/rack-3").
struct ChosenDomain {
    std::string level;
    std::string domain;
    friend bool operator==(const ChosenDomain&, const ChosenDomain&) = default;
};

// Why one candidate was taken or passed over, for people: the GUI and `plan -o table` show it.
struct TraceEntry {
    std::string level;  // level name, or "" for engine-wide steps
    std::string domain; // candidate domain, switch, block or HyperNode
    bool taken = false;
    std::string reason; // e.g. "fits 12 of 16 pods", "tighter fit than leaf03 (5 < 8 nodes)"
    friend bool operator==(const TraceEntry&, const TraceEntry&) = default;
};

struct PlacementResult {
    std::string engine;
    bool feasible = false;
    bool invalidRequest = false; // the request itself is wrong for this engine (message says why)
    // The scheduler's own words: its failure message verbatim, or for a success what it would
    // report (e.g. Slurm's "would wait up to 5:00 for 1 switch, else place on 2").
    std::string message;
    std::vector<NodePods> nodes;      // when the engine decides nodes; natural order by name
    TopologyAssignment assignment;    // lowest-level domains with counts
    std::vector<ChosenDomain> chosen; // top level first
    std::vector<TraceEntry> trace;
    // Candidates that tied with the chosen one (Volcano breaks ties at random): all of them.
    std::vector<std::string> tiedWith;
    std::vector<std::string> notes; // caveats people should know, e.g. approximations made
    // The release whose rules were applied and why, for engines whose rules changed between
    // releases (Slurm: "22.05.8", "the version slurmrestd reports"); empty for the others.
    std::string rulesVersion;
    std::string rulesVersionOrigin;
    friend bool operator==(const PlacementResult&, const PlacementResult&) = default;
};

} // namespace topodeck
