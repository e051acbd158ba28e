#pragma once

#include "core/model/cluster_state.h"
#include "core/model/node.h"
#include "core/result.h"
#include "core/topology/topology_index.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace topodeck {

enum class LabelOperator { Exists, DoesNotExist, Equals, NotEquals, In, NotIn, GreaterThan, LessThan };

// One comma-separated term of a selector, e.g. `rack in (rack-1,rack-2)`.
struct LabelRequirement {
    std::string key;
    LabelOperator op = LabelOperator::Exists;
    // Sorted, without duplicates: one value for =, !=, > and <, at least one for in and notin (the
    // empty string is a value), none for key and !key.
    std::vector<std::string> values;
    std::int64_t bound = 0; // the number > and < compare with

    // value: the object's value for key, or nullptr when it lacks the label. Like Kubernetes, !=
    // and notin hold for objects without the key; =, in, > and < need it.
    bool matches(const std::string* value) const;
    friend bool operator==(const LabelRequirement&, const LabelRequirement&) = default;
};

using Labels = std::vector<std::pair<std::string, std::string>>; // sorted by key, as Node keeps them

// A Kubernetes label selector in its string form (`kubectl get nodes -l ...`): requirements
// separated by commas, all of which must hold. Parsing is linear in the text and never backtracks.
class LabelSelector {
public:
    static constexpr std::size_t kMaxLength = 4096; // longer text is refused, not truncated

    // The empty (or blank) selector matches everything. Errors name the 1-based byte position:
    // "at 12: expected ')' after the values of 'in'".
    static Result<LabelSelector> parse(std::string_view text);

    bool empty() const { return m_requirements.empty(); }
    // Sorted by key (stable), as Kubernetes keeps them.
    const std::vector<LabelRequirement>& requirements() const { return m_requirements; }

    bool matches(const Labels& labels) const;
    bool matches(const Node& node) const { return matches(node.labels); }

    // The canonical text Kubernetes prints: no spaces but around in/notin, values sorted. It parses
    // back to an equal selector.
    std::string toString() const;

    friend bool operator==(const LabelSelector&, const LabelSelector&) = default;

private:
    std::vector<LabelRequirement> m_requirements;
};

// Why a label key or value would be refused by Kubernetes, or empty when it is valid.
std::string labelKeyProblem(std::string_view key);
std::string labelValueProblem(std::string_view value);
// A Node's name is a DNS subdomain (at most 253 characters of dot-separated a-z, 0-9 and '-'
// parts); a name that is not one could not be a Node, and would not be safe in a request path.
std::string nodeNameProblem(std::string_view name);

// One byte per NodeId: 1 where a present node matches, 0 for the others and for empty slots.
using NodeMask = std::vector<std::uint8_t>;

// The selector against every node, by NodeId. Each requirement remembers where its key sat in the
// previous node's labels, so on the usual cluster (nodes carrying the same label keys) a key costs
// one compare per node instead of a search.
NodeMask matchNodes(const LabelSelector& selector, const std::vector<std::shared_ptr<const Node>>& nodesById);
NodeMask matchNodes(const LabelSelector& selector, const ClusterState& state);
// The same mask, faster: a requirement on a key the index has resolved already (a hierarchy level's
// label, the NVLink-domain label) is judged once per domain instead of once per node, and the
// other requirements are looked up only on the nodes those leave. nodesById and index must be of
// one snapshot.
NodeMask matchNodes(const LabelSelector& selector, const std::vector<std::shared_ptr<const Node>>& nodesById,
                    const TopologyIndex& index);

// Matching nodes below each domain of the index (the root holds them all), by DomainId; nodes
// the index does not place are not counted.
std::vector<std::uint32_t> matchesPerDomain(const TopologyIndex& index, const NodeMask& mask);

} // namespace topodeck
