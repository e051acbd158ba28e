#pragma once

// Readers of the parts of Kubernetes objects that topodeck models: Node metadata, spec and
// status; a Pod's metadata (which gang it belongs to), containers and phase (its DRA claims and
// KAI GPU sharing: pod_claim_readers.h); Kueue/KAI Topology levels; Volcano HyperNode members;
// Kueue ResourceFlavor specs. The DRA objects: dra_object_readers.h. Templates over the value
// adapters, so JSON and YAML read the same. Internal to backend/core.

#include "core/formats/field_path.h"
#include "core/formats/field_readers.h"
#include "core/formats/node_affinity_readers.h"
#include "core/formats/pod_claim_readers.h"
#include "core/model/hypernode.h"
#include "core/model/node.h"
#include "core/model/pod.h"
#include "core/model/pod_requests.h"
#include "core/model/resource_flavor.h"
#include "core/result.h"

#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace topodeck::object_reader {

// What identifies an object in messages: "Node gpu-7", "Pod team-a/train-0", or, while the
// name is unknown, "Node #3 in items".
struct ObjectLabel {
    std::string_view kind;
    std::string_view nameSpace;
    std::string_view name;
    long index = -1;                    // position in items, or -1 for a document's single object
    int document = 0;                   // 1-based YAML document number when the file has several, else 0
    std::string_view resourceVersion{}; // metadata.resourceVersion, for the live sources

    std::string str() const;
};

// ---- Node

// Label text as read, before it is copied into the node once, sorted and at its final size.
using LabelViews = std::vector<std::pair<std::string_view, std::string_view>>;

// metadata.managedFields: for every entry, the labels its fieldsV1 names ("f:metadata" →
// "f:labels" → "f:KEY"), each with the entry's manager. Entries of another shape are skipped.
template <class V> Status readLabelManagers(V& value, const Path& path, Node& node) {
    bool present = false;
    if (Status s = expectArray(value, path, present); !s || !present) return s;
    node.labelManagers.clear();
    std::vector<std::string_view> keys;
    std::size_t index = 0;
    Status read = value.forEachElement([&](V& entry) -> Status {
        const Path at = path.index(index++);
        bool isObject = false;
        if (Status s = expectObject(entry, at, "a managedFields entry", isObject); !s || !isObject) return s;
        std::string_view manager;
        keys.clear();
        // Nested maps of which only the label keys matter: f:metadata → f:labels → f:KEY.
        const auto inside = [](V& map, std::string_view name, const auto& then) -> Status {
            if (map.type() != ValueType::Object) return {};
            return map.forEachField([&](std::string_view key, V& field) -> Status { return key == name ? then(field) : Status{}; });
        };
        Status s = entry.forEachField([&](std::string_view key, V& field) -> Status {
            if (key == "manager") return field.type() == ValueType::String ? readScalar(field, at.field(key), manager) : Status{};
            if (key != "fieldsV1") return {};
            return inside(field, "f:metadata", [&](V& metadata) {
                return inside(metadata, "f:labels", [&](V& labelsField) -> Status {
                    if (labelsField.type() != ValueType::Object) return {};
                    return labelsField.forEachField([&](std::string_view labelKey, V&) -> Status {
                        if (labelKey.starts_with("f:")) keys.push_back(labelKey.substr(2));
                        return {};
                    });
                });
            });
        });
        if (!s) return s;
        for (std::string_view key : keys) node.labelManagers.emplace_back(key, manager);
        return {};
    });
    if (!read) return read;
    std::sort(node.labelManagers.begin(), node.labelManagers.end());
    node.labelManagers.erase(std::unique(node.labelManagers.begin(), node.labelManagers.end()), node.labelManagers.end());
    return {};
}

template <class V>
Status readNodeMetadata(V& value, const Path& path, Node& node, ObjectLabel& label, LabelViews& labels) {
    bool present = false;
    if (Status s = expectObject(value, path, "a map", present); !s || !present) return s;
    return value.forEachField([&](std::string_view key, V& field) -> Status {
        if (key == "name") {
            std::string_view name;
            if (Status s = readScalar(field, path.field(key), name); !s) return s;
            node.name = name;
            label.name = node.name;
        } else if (key == "resourceVersion") {
            return readScalar(field, path.field(key), label.resourceVersion);
        } else if (key == "managedFields") {
            return readLabelManagers(field, path.field(key), node);
        } else if (key == "annotations") {
            node.annotations.clear();
            Status s = readStringMap(field, path.field(key), [&](std::string_view k, std::string_view v) {
                if (keptAnnotation(k)) node.annotations.emplace_back(k, v);
            });
            std::sort(node.annotations.begin(), node.annotations.end());
            return s;
        } else if (key == "labels") {
            Status s = readStringMap(field, path.field(key),
                                     [&](std::string_view k, std::string_view v) { labels.emplace_back(k, v); });
            if (!s) return s;
            // Sorted by key as Node requires (kubectl prints them so already); a repeated key keeps
            // its last value.
            const auto byKey = [](const auto& a, const auto& b) { return a.first < b.first; };
            if (!std::is_sorted(labels.begin(), labels.end(), byKey))
                std::stable_sort(labels.begin(), labels.end(), byKey);
            auto last = std::unique(labels.rbegin(), labels.rend(),
                                    [](const auto& a, const auto& b) { return a.first == b.first; });
            labels.erase(labels.begin(), last.base());
            node.labels.clear();
            node.labels.reserve(labels.size());
            for (const auto& [k, v] : labels) node.labels.emplace_back(k, v);
        }
        return {};
    });
}

template <class V> Status readTaint(V& value, const Path& path, Taint& taint) {
    bool present = false;
    if (Status s = expectObject(value, path, "a map", present); !s || !present) return s;
    return value.forEachField([&](std::string_view key, V& field) -> Status {
        std::string_view text;
        std::string* target = key == "key"      ? &taint.key
                              : key == "value"  ? &taint.value
                              : key == "effect" ? &taint.effect
                                                : nullptr;
        if (!target) return {};
        if (Status s = readScalar(field, path.field(key), text); !s) return s;
        *target = text;
        return {};
    });
}

template <class V> Status readNodeSpec(V& value, const Path& path, Node& node) {
    bool present = false;
    if (Status s = expectObject(value, path, "a map", present); !s || !present) return s;
    return value.forEachField([&](std::string_view key, V& field) -> Status {
        if (key == "unschedulable") return readBool(field, path.field(key), node.unschedulable);
        if (key != "taints") return {};
        const Path taintsPath = path.field(key);
        bool isList = false;
        if (Status s = expectArray(field, taintsPath, isList); !s || !isList) return s;
        std::size_t index = 0;
        return field.forEachElement([&](V& element) -> Status {
            Taint taint;
            if (Status s = readTaint(element, taintsPath.index(index++), taint); !s) return s;
            node.taints.push_back(std::move(taint));
            return {};
        });
    });
}

template <class V> Status readNodeStatus(V& value, const Path& path, Node& node) {
    bool present = false;
    if (Status s = expectObject(value, path, "a map", present); !s || !present) return s;
    return value.forEachField([&](std::string_view key, V& field) -> Status {
        if (key == "allocatable") return readResources(field, path.field(key), node.allocatable);
        if (key != "conditions") return {};
        const Path conditionsPath = path.field(key);
        bool isList = false;
        if (Status s = expectArray(field, conditionsPath, isList); !s || !isList) return s;
        std::size_t index = 0;
        return field.forEachElement([&](V& element) -> Status {
            const Path conditionPath = conditionsPath.index(index++);
            std::string_view type;
            std::string_view status;
            std::string_view reason;
            std::string_view since;
            Status s =
                readSelectedFields(element, conditionPath, "a map", [&](std::string_view k) -> std::string_view* {
                    return k == "type"                 ? &type
                           : k == "status"             ? &status
                           : k == "reason"             ? &reason
                           : k == "lastTransitionTime" ? &since
                                                       : nullptr;
                });
            if (!s) return s;
            if (type == "Ready") node.ready = status == "True";
            // A bare Ready (what a snapshot of a source without conditions writes) says no more
            // than node.ready; keeping it out lets such a node read back as it was written.
            const bool bareReady = type == "Ready" && reason.empty() && since.empty();
            if (!type.empty() && !bareReady)
                node.conditions.push_back(
                    {std::string(type), std::string(status), std::string(reason), std::string(since)});
            return {};
        });
    });
}

// ---- Pod

// Where a pod's gang name may come from, most specific first: the Kueue Workload (the unit Kueue
// admits and places: a whole JobSet, one LWS group, a Job) beats the JobSet/LWS/training-operator
// name, which beats the child Job's name, which beats a scheduler's pod-group name, which beats
// the controlling owner (a ReplicaSet, a StatefulSet, ...).
enum WorkloadSource {
    kKueueWorkload,
    kJobSetName,
    kLeaderWorkerSetName,
    kTrainingJobName,
    kVolcanoJobName,
    kBatchJobName,
    kLegacyJobName,
    kKueuePodGroup,
    kCoschedulingPodGroup,
    kVolcanoPodGroup,
    kKaiPodGroup,
    kOwner,
    kWorkloadSources
};

// What each source says the gang is, by WorkloadSource.
inline constexpr WorkloadKind kWorkloadSourceKinds[kWorkloadSources] = {
    WorkloadKind::KueueWorkload,   WorkloadKind::JobSet,        WorkloadKind::LeaderWorkerSet,
    WorkloadKind::TrainingJob,     WorkloadKind::VolcanoJob,    WorkloadKind::Job,
    WorkloadKind::Job,             WorkloadKind::KueuePodGroup, WorkloadKind::CoschedulingGroup,
    WorkloadKind::VolcanoPodGroup, WorkloadKind::KaiPodGroup,   WorkloadKind::Owner,
};

struct PodScratch {
    explicit PodScratch(PodResourceSpec& spec) : resources(spec) {}

    std::string_view nameSpace;
    std::string_view name;
    std::string_view nodeName;
    std::string_view phase;
    std::string_view workload[kWorkloadSources];
    std::string_view lwsGroupIndex; // each LeaderWorkerSet group is a gang of its own
    std::string_view schedulerName;
    std::string_view kueueRequired, kueuePreferred, kueueUnconstrained; // podset-*-topology
    std::vector<std::pair<std::string_view, std::string_view>> nodeSelector;
    std::vector<NodeSelectorTerm> requiredNodeAffinity; // rare: owned, not viewed
    PodDraScratch dra; // DRA claims and KAI GPU sharing
    bool ownerIsController = false;
    bool ownerIsJob = false; // the owner kWorkloadSources[kOwner] names is a batch Job
    // Kept from pod to pod (see readContainers); only the first *Used entries are this pod's.
    PodResourceSpec& resources;
    std::size_t containersUsed = 0;
    std::size_t initContainersUsed = 0;
};

// The scratch slot a pod label or annotation that names the gang fills, or nullptr. Inline: every
// label of every pod passes through here, and the compiler folds the comparisons with the keys.
inline std::string_view* podLabelSlot(PodScratch& pod, std::string_view key) {
    if (key == "jobset.sigs.k8s.io/jobset-name") return &pod.workload[kJobSetName];
    if (key == "leaderworkerset.sigs.k8s.io/name") return &pod.workload[kLeaderWorkerSetName];
    if (key == "leaderworkerset.sigs.k8s.io/group-index") return &pod.lwsGroupIndex;
    if (key == "training.kubeflow.org/job-name") return &pod.workload[kTrainingJobName];
    if (key == "volcano.sh/job-name") return &pod.workload[kVolcanoJobName];
    if (key == "batch.kubernetes.io/job-name") return &pod.workload[kBatchJobName];
    if (key == "job-name") return &pod.workload[kLegacyJobName];
    if (key == "kueue.x-k8s.io/pod-group-name") return &pod.workload[kKueuePodGroup];
    if (key == "scheduling.x-k8s.io/pod-group") return &pod.workload[kCoschedulingPodGroup];
    return gpuShareLabelSlot(pod.dra, key);
}

inline std::string_view* podAnnotationSlot(PodScratch& pod, std::string_view key) {
    // Set by Kueue on the pod template of a job it admitted (constants.WorkloadAnnotation).
    if (key == "kueue.x-k8s.io/workload") return &pod.workload[kKueueWorkload];
    if (key == "scheduling.k8s.io/group-name") return &pod.workload[kVolcanoPodGroup];
    if (key == "pod-group-name") return &pod.workload[kKaiPodGroup];
    // Kueue's topology request, kept on the pods of the template it was written on.
    if (key == "kueue.x-k8s.io/podset-required-topology") return &pod.kueueRequired;
    if (key == "kueue.x-k8s.io/podset-preferred-topology") return &pod.kueuePreferred;
    if (key == "kueue.x-k8s.io/podset-unconstrained-topology") return &pod.kueueUnconstrained;
    return gpuShareAnnotationSlot(pod.dra, key);
}

template <class V> Status readOwnerReferences(V& value, const Path& path, PodScratch& pod) {
    bool isList = false;
    if (Status s = expectArray(value, path, isList); !s || !isList) return s;
    std::size_t index = 0;
    return value.forEachElement([&](V& element) -> Status {
        const Path ownerPath = path.index(index++);
        bool present = false;
        if (Status s = expectObject(element, ownerPath, "a map", present); !s || !present) return s;
        std::string_view name;
        std::string_view kind;
        bool controller = false;
        Status s = element.forEachField([&](std::string_view key, V& field) -> Status {
            if (key == "name") return readScalar(field, ownerPath.field(key), name);
            if (key == "kind") return readScalar(field, ownerPath.field(key), kind);
            if (key == "controller") return readBool(field, ownerPath.field(key), controller);
            return {};
        });
        if (!s) return s;
        // The controlling owner wins; otherwise the first one listed.
        if (!name.empty() && !pod.ownerIsController && (controller || pod.workload[kOwner].empty())) {
            pod.workload[kOwner] = name;
            pod.ownerIsController = controller;
            pod.ownerIsJob = kind == "Job";
        }
        return {};
    });
}

template <class V> Status readPodMetadata(V& value, const Path& path, PodScratch& pod, ObjectLabel& label) {
    bool present = false;
    if (Status s = expectObject(value, path, "a map", present); !s || !present) return s;
    return value.forEachField([&](std::string_view key, V& field) -> Status {
        if (key == "name") {
            Status s = readScalar(field, path.field(key), pod.name);
            label.name = pod.name;
            return s;
        }
        if (key == "namespace") {
            Status s = readScalar(field, path.field(key), pod.nameSpace);
            label.nameSpace = pod.nameSpace;
            return s;
        }
        if (key == "resourceVersion") return readScalar(field, path.field(key), label.resourceVersion);
        if (key == "labels")
            return readSelectedFields(field, path.field(key), "a map of strings",
                                      [&](std::string_view k) { return podLabelSlot(pod, k); });
        if (key == "annotations")
            return readSelectedFields(field, path.field(key), "a map of strings",
                                      [&](std::string_view k) { return podAnnotationSlot(pod, k); });
        if (key == "ownerReferences") return readOwnerReferences(field, path.field(key), pod);
        return {};
    });
}

template <class V> Status readContainer(V& value, const Path& path, ContainerResources& container) {
    bool present = false;
    if (Status s = expectObject(value, path, "a map", present); !s || !present) return s;
    return value.forEachField([&](std::string_view key, V& field) -> Status {
        // The container's name is left out: nothing reads it, and it would cost an allocation per
        // container in a 500,000-pod file.
        if (key == "restartPolicy") {
            std::string_view policy;
            if (Status s = readScalar(field, path.field(key), policy); !s) return s;
            container.restartAlways = policy == "Always";
            return {};
        }
        if (key != "resources") return {};
        const Path resourcesPath = path.field(key);
        bool isMap = false;
        if (Status s = expectObject(field, resourcesPath, "a map", isMap); !s || !isMap) return s;
        return field.forEachField([&](std::string_view resourcesKey, V& list) -> Status {
            if (resourcesKey == "requests")
                return readResources(list, resourcesPath.field(resourcesKey), container.requests);
            if (resourcesKey == "limits")
                return readResources(list, resourcesPath.field(resourcesKey), container.limits);
            return {};
        });
    });
}

// Appends to out[0..used), reusing the containers (and their lists' storage) the previous pod
// left beyond `used`: a 500,000-pod file should not allocate for every container.
template <class V>
Status readContainers(V& value, const Path& path, std::vector<ContainerResources>& out, std::size_t& used) {
    bool isList = false;
    if (Status s = expectArray(value, path, isList); !s || !isList) return s;
    std::size_t index = 0;
    return value.forEachElement([&](V& element) -> Status {
        if (used == out.size()) out.emplace_back();
        ContainerResources& container = out[used++];
        container.requests.clear();
        container.limits.clear();
        container.restartAlways = false;
        return readContainer(element, path.index(index++), container);
    });
}

template <class V> Status readPodSpec(V& value, const Path& path, PodScratch& pod) {
    bool present = false;
    if (Status s = expectObject(value, path, "a map", present); !s || !present) return s;
    return value.forEachField([&](std::string_view key, V& field) -> Status {
        if (key == "nodeName") return readScalar(field, path.field(key), pod.nodeName);
        if (key == "schedulerName") return readScalar(field, path.field(key), pod.schedulerName);
        if (key == "nodeSelector")
            return readStringMap(field, path.field(key),
                                 [&](std::string_view k, std::string_view v) { pod.nodeSelector.emplace_back(k, v); });
        if (key == "affinity") return readRequiredNodeAffinity(field, path.field(key), pod.requiredNodeAffinity);
        if (key == "containers")
            return readContainers(field, path.field(key), pod.resources.containers, pod.containersUsed);
        if (key == "initContainers")
            return readContainers(field, path.field(key), pod.resources.initContainers, pod.initContainersUsed);
        if (key == "overhead") return readResources(field, path.field(key), pod.resources.overhead);
        if (key == "resourceClaims") return readPodResourceClaims(field, path.field(key), pod.dra);
        return {};
    });
}

template <class V> Status readPodStatus(V& value, const Path& path, PodScratch& pod) {
    bool present = false;
    if (Status s = expectObject(value, path, "a map", present); !s || !present) return s;
    return value.forEachField([&](std::string_view key, V& field) -> Status {
        if (key == "phase") return readScalar(field, path.field(key), pod.phase);
        if (key == "resourceClaimStatuses") return readPodClaimStatuses(field, path.field(key), pod.dra);
        if (key == "extendedResourceClaimStatus") return readExtendedResourceClaimStatus(field, path.field(key), pod.dra);
        return {};
    });
}

PodPhase parsePhase(std::string_view phase);
PodScheduler parseSchedulerName(std::string_view name);
// The podset-*-topology annotations read, the most specific first (Kueue rejects more than one).
PodTopologyRequest podTopologyRequest(const PodScratch& pod);

// ---- Kueue / KAI Topology

template <class V> Status readTopologyLevels(V& value, const Path& path, std::vector<std::string>& keys) {
    bool isList = false;
    if (Status s = expectArray(value, path, isList); !s || !isList) return s;
    std::size_t index = 0;
    return value.forEachElement([&](V& element) -> Status {
        const Path levelPath = path.index(index++);
        std::string_view nodeLabel;
        Status s = readSelectedFields(element, levelPath, "a map",
                                      [&](std::string_view key) { return key == "nodeLabel" ? &nodeLabel : nullptr; });
        if (!s) return s;
        if (nodeLabel.empty()) return missingError(levelPath.field("nodeLabel"));
        keys.emplace_back(nodeLabel);
        return {};
    });
}

// ---- Volcano HyperNode

template <class V> Status readLabelMatch(V& value, const Path& path, HyperNodeMember& member) {
    bool present = false;
    if (Status s = expectObject(value, path, "a map", present); !s || !present) return s;
    return value.forEachField([&](std::string_view key, V& field) -> Status {
        if (key == "matchLabels")
            return readStringMap(field, path.field(key), [&](std::string_view k, std::string_view v) {
                member.matchLabels.emplace_back(k, v);
            });
        if (key != "matchExpressions") return {};
        const Path listPath = path.field(key);
        bool isList = false;
        if (Status s = expectArray(field, listPath, isList); !s || !isList) return s;
        std::size_t index = 0;
        return field.forEachElement([&](V& element) -> Status {
            const Path requirementPath = listPath.index(index++);
            bool isMap = false;
            if (Status s = expectObject(element, requirementPath, "a map", isMap); !s) return s;
            if (!isMap) return typeError(requirementPath, "a map", ValueType::Null);
            HyperNodeLabelRequirement requirement;
            Status s = element.forEachField([&](std::string_view k, V& f) -> Status {
                std::string_view text;
                if (k == "key" || k == "operator") {
                    if (Status e = readScalar(f, requirementPath.field(k), text); !e) return e;
                    (k == "key" ? requirement.key : requirement.op) = text;
                    return {};
                }
                if (k == "values") return readStringList(f, requirementPath.field(k), requirement.values);
                return {};
            });
            if (!s) return s;
            if (requirement.key.empty()) return missingError(requirementPath.field("key"));
            if (requirement.op != "In" && requirement.op != "NotIn" && requirement.op != "Exists" &&
                requirement.op != "DoesNotExist")
                return Error{requirementPath.field("operator").str() +
                             ": expected In, NotIn, Exists or DoesNotExist, got \"" + requirement.op + "\""};
            member.matchExpressions.push_back(std::move(requirement));
            return {};
        });
    });
}

// spec.members[i].selector: exactly one of exactMatch, regexMatch and labelMatch, as the
// HyperNode CRD's validation rules demand.
template <class V> Status readMemberSelector(V& value, const Path& path, HyperNodeMember& member) {
    bool present = false;
    if (Status s = expectObject(value, path, "a map", present); !s) return s;
    if (!present) return missingError(path);
    int selectors = 0;
    Status s = value.forEachField([&](std::string_view key, V& field) -> Status {
        const Path fieldPath = path.field(key);
        if (key == "labelMatch") {
            ++selectors;
            member.selector = HyperNodeMember::Selector::Label;
            return readLabelMatch(field, fieldPath, member);
        }
        const bool exact = key == "exactMatch";
        if (!exact && key != "regexMatch") return {};
        ++selectors;
        member.selector = exact ? HyperNodeMember::Selector::Exact : HyperNodeMember::Selector::Regex;
        const std::string_view wanted = exact ? "name" : "pattern";
        std::string_view text;
        Status read = readSelectedFields(field, fieldPath, "a map",
                                         [&](std::string_view k) { return k == wanted ? &text : nullptr; });
        if (!read) return read;
        if (text.empty()) return missingError(fieldPath.field(wanted));
        member.value = text;
        return {};
    });
    if (!s) return s;
    if (selectors == 0) return Error{path.str() + ": needs one of exactMatch, regexMatch or labelMatch"};
    if (selectors > 1) return Error{path.str() + ": exactMatch, regexMatch and labelMatch cannot be used together"};
    return {};
}

template <class V> Status readHyperNodeMembers(V& value, const Path& path, std::vector<HyperNodeMember>& members) {
    bool isList = false;
    if (Status s = expectArray(value, path, isList); !s || !isList) return s;
    std::size_t index = 0;
    return value.forEachElement([&](V& element) -> Status {
        const Path memberPath = path.index(index++);
        bool isMap = false;
        if (Status s = expectObject(element, memberPath, "a map", isMap); !s) return s;
        if (!isMap) return typeError(memberPath, "a map", ValueType::Null);
        HyperNodeMember member;
        std::string_view type;
        bool sawSelector = false;
        Status s = element.forEachField([&](std::string_view key, V& field) -> Status {
            if (key == "type") return readScalar(field, memberPath.field(key), type);
            if (key != "selector") return {};
            sawSelector = true;
            return readMemberSelector(field, memberPath.field(key), member);
        });
        if (!s) return s;
        if (type.empty()) return missingError(memberPath.field("type"));
        if (type == "Node")
            member.type = HyperNodeMember::Type::Node;
        else if (type == "HyperNode")
            member.type = HyperNodeMember::Type::HyperNode;
        else
            return Error{memberPath.field("type").str() + ": expected Node or HyperNode, got \"" + std::string(type) +
                         "\""};
        if (!sawSelector) return missingError(memberPath.field("selector"));
        members.push_back(std::move(member));
        return {};
    });
}

// metadata.name and metadata.resourceVersion of an object whose metadata says nothing else we need.
template <class V> Status readNameAndVersion(V& value, const Path& path, std::string_view& name, ObjectLabel& label) {
    return readSelectedFields(value, path, "a map", [&](std::string_view key) -> std::string_view* {
        return key == "name" ? &name : key == "resourceVersion" ? &label.resourceVersion : nullptr;
    });
}

// ---- Kueue ResourceFlavor

template <class V> Status readFlavorSpec(V& value, const Path& path, ResourceFlavor& flavor) {
    bool present = false;
    if (Status s = expectObject(value, path, "a map", present); !s || !present) return s;
    return value.forEachField([&](std::string_view key, V& field) -> Status {
        if (key == "topologyName") {
            std::string_view topologyName;
            if (Status s = readScalar(field, path.field(key), topologyName); !s) return s;
            flavor.topologyName = topologyName;
            return {};
        }
        if (key != "nodeLabels") return {};
        Status s = readStringMap(field, path.field(key),
                                 [&](std::string_view k, std::string_view v) { flavor.nodeLabels.emplace_back(k, v); });
        std::sort(flavor.nodeLabels.begin(), flavor.nodeLabels.end());
        return s;
    });
}

} // namespace topodeck::object_reader
