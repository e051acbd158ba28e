#pragma once
// A change plan's topology objects: create, update or delete a Volcano HyperNode, a Kueue
// Topology or ResourceFlavor, a KAI Topology. Each change carries the object as planned from
// (`before`, with its resourceVersion: the precondition the server checks on update and delete)
// and as it becomes (`after`). No controller writes these objects, so the whole object's
// resourceVersion is the right precondition here, unlike a Node's.
//
// On the wire (objectRequest): create is POST, update a JSON merge patch of the spec carrying
// metadata.resourceVersion (fields topodeck does not model, a flavor's taints, stay as they are),
// delete is DELETE with preconditions.resourceVersion (and, for a dry run, dryRun in the body: the
// server reads a DELETE's options from its body alone); a stale version comes back 409.

#include "core/model/cluster_state.h"
#include "core/model/hypernode.h"
#include "core/model/resource_flavor.h"
#include "core/model/topology_spec.h"

#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace topodeck {

enum class ObjectKind { HyperNode, KueueTopology, ResourceFlavor, KaiTopology };

// "HyperNode", "Topology" (Kueue), "ResourceFlavor", "Topology" (KAI): the object's kind.
std::string_view objectKindName(ObjectKind kind);
// "HyperNode", "Kueue Topology", "ResourceFlavor", "KAI Topology": for people.
std::string_view objectKindTitle(ObjectKind kind);
// The API group and the plural the API server serves the kind under.
std::string_view objectGroup(ObjectKind kind);
std::string_view objectPlural(ObjectKind kind);
// The version written and sent when a change names none: Kueue's storage version (v1beta2).
std::string_view defaultObjectVersion(ObjectKind kind);

// What an object says: a HyperNode, a ResourceFlavor, or a Topology's levels (TopologySpec, its
// name and levels; origin "kueue" or "kai").
using TopologyObject = std::variant<HyperNode, ResourceFlavor, TopologySpec>;

const std::string& objectName(const TopologyObject& object);
const std::string& objectResourceVersion(const TopologyObject& object);

struct ObjectChange {
    enum class Action { Create, Update, Delete };

    ObjectKind kind = ObjectKind::HyperNode;
    std::string name;
    std::string version;                  // the API version ("v1beta2"); empty: defaultObjectVersion
    std::optional<TopologyObject> before; // as found when planned; nullopt: created
    std::optional<TopologyObject> after;  // as it becomes; nullopt: deleted
    // before's metadata.resourceVersion (update, delete): the server refuses the change with a 409
    // once the object moved on. Empty when the source did not say (a demo, an exported file):
    // apply then takes it from the cluster it reads, where the object must still equal `before`.
    std::string resourceVersion;

    Action action() const { return !before ? Action::Create : !after ? Action::Delete : Action::Update; }
    std::string apiVersion() const; // "kueue.x-k8s.io/v1beta2"
    std::string describe() const;   // "update HyperNode rack-1"
    friend bool operator==(const ObjectChange&, const ObjectChange&) = default;
};
std::string_view objectActionName(ObjectChange::Action action); // "create", "update", "delete"

// The kind's object as the state holds it, or nullopt.
std::optional<TopologyObject> findObject(const ClusterState& state, ObjectKind kind, std::string_view name);

// The change that makes the state's object `name` of `kind` into `desired` (nullopt: deleted), or
// nullopt when it already is. The precondition is the state's resourceVersion.
std::optional<ObjectChange> objectChangeTo(const ClusterState& state, ObjectKind kind, std::string name,
                                           std::optional<TopologyObject> desired);

// Applies the changes to a state as the preview shows it (objects are upserted or deleted;
// preconditions are not checked).
void applyObjectChanges(ClusterState& state, const std::vector<ObjectChange>& changes);

// Where the state no longer holds what a change found: the object is gone, exists already (a
// create), says something else, or has another resourceVersion than the one the plan recorded.
std::vector<std::string> objectDrift(const ClusterState& state, const std::vector<ObjectChange>& changes);

// Fills in each change's missing resourceVersion from the state, where the state's object still
// says what the change found (objectDrift is empty).
void takeResourceVersions(std::vector<ObjectChange>& changes, const ClusterState& state);

// Why the target CRDs or their controllers would refuse the changes, rules the API server cannot
// check itself (CEL rules, cross-object references), each naming the object: Kueue Topology 1-16
// levels, unique, hostname only lowest, levels immutable; ResourceFlavor topologyName needs
// nodeLabels and is immutable once set; HyperNode tier >= 0, at least one member, and the tree
// after the change without cycles or nodes claimed twice at one tier; names and label keys.
// `before` is the state planned from, `after` the same with the whole plan applied (a node the
// tree already claimed twice is not the plan's doing). Empty: nothing refused.
std::vector<std::string> objectChangeProblems(const std::vector<ObjectChange>& changes, const ClusterState& before,
                                              const ClusterState& after);
// What the changes may do that the server takes but the operator should know: a Kueue Topology
// deleted while a ResourceFlavor names it stays (Kueue's finalizer) until no flavor does; a
// flavor naming a Topology the cluster will not have gives no topology-aware capacity.
std::vector<std::string> objectChangeRisks(const std::vector<ObjectChange>& changes, const ClusterState& after);

// The object as a manifest, for people and for files: block YAML, every string quoted, one list
// item per line, each line after the first prefixed with `indent`. resourceVersion is written in
// metadata when the object has one and `withVersion` is set.
std::string objectManifestYaml(ObjectKind kind, std::string_view version, const TopologyObject& object,
                               std::string_view indent = {}, bool withVersion = false);
// The same object as compact JSON, as it is sent to create it.
std::string objectManifestJson(ObjectKind kind, std::string_view version, const TopologyObject& object);

// One request to the API server, made from a change: what net/ sends, and tests check.
struct ObjectRequest {
    std::string method;       // POST, PATCH, DELETE
    std::string pathAndQuery; // /apis/topology.volcano.sh/v1alpha1/hypernodes/NAME?dryRun=All&fieldManager=...
    std::string contentType;
    std::string body;
};
ObjectRequest objectRequest(const ObjectChange& change, bool dryRun, std::string_view fieldManager);

// The line-by-line diff of the change's before and after manifests, unified-diff style ("-", "+",
// " " for context; with `colour`, red and green), under a heading naming the change.
std::string objectDiffText(const ObjectChange& change, bool colour);

// The hierarchy a spec reads after the changes: a HyperNode tree read again from the changed
// state, a changed Topology's new levels; the same spec otherwise.
TopologySpec hierarchyAfterChanges(const TopologySpec& before, const ClusterState& changed,
                                   const std::vector<ObjectChange>& changes);

} // namespace topodeck
