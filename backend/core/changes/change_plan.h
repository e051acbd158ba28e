#pragma once
// A change plan: node-label edits as the operator asked for them (which nodes, which labels), and
// resolved against the cluster as it was when planned into one change per node and label, each
// carrying the value it had then. That value is the change's precondition: applying the plan later
// tests it (a JSON Patch `test` per label), so a plan neither fails on churn it does not touch (a
// Node's resourceVersion moves all day) nor overwrites an edit made since to what it does touch.

#include "core/changes/object_change.h"
#include "core/model/cluster_state.h"
#include "core/result.h"
#include "core/topology/topology_index.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace topodeck {

// Which nodes a label operation is about, as it was said: names, a label selector, a domain, or
// several of these (their union).
struct NodeTarget {
    std::vector<std::string> nodes;
    std::string selector; // a Kubernetes label selector; empty: none
    std::string domain;   // a domain path ("su-1/rack-1-03") or a value no other domain has
    bool empty() const { return nodes.empty() && selector.empty() && domain.empty(); }
    // "nodes a, b", "-l rack=r1", "--domain su-1/rack-1-03", joined by " + ".
    std::string describe() const;
    friend bool operator==(const NodeTarget&, const NodeTarget&) = default;
};

struct LabelEdit {
    std::string key;
    std::optional<std::string> value; // nullopt: remove the label
    friend bool operator==(const LabelEdit&, const LabelEdit&) = default;
};

struct LabelOperation {
    NodeTarget target;
    std::vector<LabelEdit> edits;
    friend bool operator==(const LabelOperation&, const LabelOperation&) = default;
};

// One node's label (or, with `annotation`, one of the annotations topodeck keeps: keptAnnotation):
// the value the plan found (its precondition) and the value it sets.
struct LabelChange {
    std::string node;
    std::string key;
    std::optional<std::string> before; // nullopt: the node did not carry it
    std::optional<std::string> after;  // nullopt: removed
    bool annotation = false;
    friend bool operator==(const LabelChange&, const LabelChange&) = default;
};

struct ChangePlan {
    static constexpr std::string_view kApiVersion = "topodeck.io/v1alpha1";
    static constexpr std::string_view kKind = "ChangePlan";

    std::string name;
    std::string cluster;                    // where it was planned ("demo gb200", "context prod"), for its reader
    std::string description;                // free text
    std::vector<LabelOperation> operations; // as asked, in order
    // Resolved: sorted by node, then labels before annotations, then key; at most one per node and
    // key of each; none that changes nothing.
    std::vector<LabelChange> labelChanges;
    // Topology objects to create, update or delete, applied after the labels, in this order.
    std::vector<ObjectChange> objectChanges;

    bool empty() const { return labelChanges.empty() && objectChanges.empty(); }
    friend bool operator==(const ChangePlan&, const ChangePlan&) = default;
};

// The order a plan keeps its label changes in: by node, labels before annotations, then key.
bool labelChangeBefore(const LabelChange& a, const LabelChange& b);

// kubectl label's arguments: "key=value" sets, "key-" removes. Keys and values are checked as the
// API server checks them; a key given twice is refused, as kubectl does.
Result<std::vector<LabelEdit>> parseLabelEdits(const std::vector<std::string>& arguments);

// The present nodes a target names, ascending by id, each once. An unknown node name, a selector
// that does not parse or a domain that is not there is an error naming it; a selector that
// matches nothing is not.
Result<std::vector<NodeId>> targetNodes(const ClusterState& state, const TopologyIndex& index,
                                        const NodeTarget& target);

// Resolves the operation against the state and adds it to the plan. On a node and key that an
// earlier operation of the plan already changes, the later value wins and the precondition stays
// the value first found; a change that ends where it started is dropped.
Status addLabelOperation(ChangePlan& plan, const ClusterState& state, const TopologyIndex& index,
                         LabelOperation operation);
// The same for many operations in order (a generator's, a plan resolved again), in one pass: the
// plan is indexed and sorted once. An error names the operation; the plan is then half made.
Status addLabelOperations(ChangePlan& plan, const ClusterState& state, const TopologyIndex& index,
                          std::vector<LabelOperation> operations);

// A copy of the state with the plan's label and object changes made (nodes it names that are
// gone are skipped); preconditions are not checked: this is the state the preview shows.
ClusterState withPlanApplied(const ClusterState& state, const ChangePlan& plan);

// The hierarchy to read the state with the plan made in (withPlanApplied): `before` itself, or a
// HyperNode tree or Topology the plan changes, read again.
TopologySpec specAfterPlan(const TopologySpec& before, const ClusterState& changed, const ChangePlan& plan);

// Where the cluster no longer holds what the plan found: "node a: label k is \"y\", the plan found
// \"x\"", that the node is gone, or an object's drift (objectDrift). Empty: the plan applies as planned.
std::vector<std::string> planDrift(const ClusterState& state, const ChangePlan& plan);

// The JSON Patch that applies one node's changes: for each label a `test` of the value found
// (null where it was absent: the API server's patch library takes a missing member for null),
// then `add` or `remove`; a test that fails comes back 422 (checked on the test kube-apiserver
// 1.20: null passes on a missing label and fails on a present one). `changes` are of one node.
// Keys are escaped as JSON Pointer asks ("/" as "~1").
std::string labelPatchJson(const std::vector<const LabelChange*>& changes);

} // namespace topodeck
