#include "core/formats/snapshot_writer.h"

#include "core/model/node_affinity.h"

#include "core/formats/dra_manifests.h"
#include "core/formats/object_manifests.h"
#include "core/text/json_writer.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <map>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>
#include <vector>

namespace topodeck {

namespace {

// Quantity::toString() is exact but not cheap, and a cluster repeats the same few quantities
// (every node of one shape, every pod of one job) hundreds of thousands of times.
class QuantityTexts {
public:
    const std::string& text(const Quantity& quantity) {
        const auto nanos = static_cast<unsigned __int128>(quantity.nanos());
        const std::uint64_t mixed = static_cast<std::uint64_t>(nanos) ^ static_cast<std::uint64_t>(nanos >> 64);
        Slot& slot = m_slots[(mixed * 0x9E3779B97F4A7C15ull) >> (64 - kBits)];
        if (!slot.used || slot.nanos != quantity.nanos() || slot.format != quantity.format()) {
            slot.used = true;
            slot.nanos = quantity.nanos();
            slot.format = quantity.format();
            slot.text = quantity.toString();
        }
        return slot.text;
    }

private:
    static constexpr int kBits = 8;
    struct Slot {
        bool used = false;
        __int128 nanos = 0;
        Quantity::Format format = Quantity::Format::DecimalSI;
        std::string text;
    };
    std::array<Slot, std::size_t(1) << kBits> m_slots;
};

void writeResources(JsonWriter& json, QuantityTexts& texts, const ResourceList& resources) {
    json.beginObject();
    for (const auto& [name, quantity] : resources) json.field(name, texts.text(quantity));
    json.endObject();
}

void writeStringMap(JsonWriter& json, const std::vector<std::pair<std::string, std::string>>& entries) {
    json.beginObject();
    for (const auto& [key, value] : entries) json.field(key, value);
    json.endObject();
}

std::string_view phaseName(PodPhase phase) {
    switch (phase) {
    case PodPhase::Pending:
        return "Pending";
    case PodPhase::Running:
        return "Running";
    case PodPhase::Succeeded:
        return "Succeeded";
    case PodPhase::Failed:
        return "Failed";
    case PodPhase::Unknown:
        break;
    }
    return "Unknown";
}

void writeNode(JsonWriter& json, QuantityTexts& texts, const Node& node) {
    json.beginObject().field("apiVersion", "v1").field("kind", "Node");
    json.key("metadata").beginObject().field("name", node.name);
    if (!node.labels.empty()) writeStringMap(json.key("labels"), node.labels);
    if (!node.annotations.empty()) writeStringMap(json.key("annotations"), node.annotations);
    json.endObject().key("spec").beginObject();
    if (node.unschedulable) json.field("unschedulable", true);
    if (!node.taints.empty()) {
        json.key("taints").beginArray();
        for (const Taint& taint : node.taints) {
            json.beginObject().field("key", taint.key);
            // kubectl leaves out an empty value; the reader reads it back as empty.
            if (!taint.value.empty()) json.field("value", taint.value);
            json.field("effect", taint.effect).endObject();
        }
        json.endArray();
    }
    json.endObject().key("status").beginObject();
    writeResources(json.key("allocatable"), texts, node.allocatable);
    json.key("conditions").beginArray();
    // The conditions as read; without a Ready among them (a demo, Slurm, or a bare Ready the
    // reader folded into `ready`) a bare one says whether the node is ready.
    const bool hasReady = std::any_of(node.conditions.begin(), node.conditions.end(),
                                      [](const NodeCondition& condition) { return condition.type == "Ready"; });
    if (!hasReady) json.beginObject().field("type", "Ready").field("status", node.ready ? "True" : "False").endObject();
    for (const NodeCondition& condition : node.conditions) {
        json.beginObject().field("type", condition.type).field("status", condition.status);
        if (!condition.reason.empty()) json.field("reason", condition.reason);
        if (!condition.since.empty()) json.field("lastTransitionTime", condition.since);
        json.endObject();
    }
    json.endArray().endObject().endObject();
}

// The label or annotation that names the gang as its kind would (see kube_object_readers.h), and
// Kueue's topology request, so that the reader reads the same name, kind and request back.
struct GangMetadata {
    std::string_view label;
    std::string_view annotation;
    std::string_view name;
    std::string_view groupIndex;
    std::string_view topologyKey;
    std::string_view topologyValue;
};

GangMetadata gangMetadata(const Pod& pod) {
    GangMetadata gang;
    if (pod.workload.empty()) return gang;
    gang.name = pod.workload;
    switch (pod.workloadKind) {
    case WorkloadKind::KueueWorkload: gang.annotation = "kueue.x-k8s.io/workload"; break;
    case WorkloadKind::JobSet: gang.label = "jobset.sigs.k8s.io/jobset-name"; break;
    case WorkloadKind::LeaderWorkerSet: {
        gang.label = "leaderworkerset.sigs.k8s.io/name";
        // The reader names a group <lws>-<group index>; split it back.
        const std::size_t dash = gang.name.rfind('-');
        if (dash != std::string_view::npos && dash + 1 < gang.name.size() &&
            gang.name.find_first_not_of("0123456789", dash + 1) == std::string_view::npos) {
            gang.groupIndex = gang.name.substr(dash + 1);
            gang.name = gang.name.substr(0, dash);
        }
        break;
    }
    case WorkloadKind::TrainingJob: gang.label = "training.kubeflow.org/job-name"; break;
    case WorkloadKind::VolcanoJob: gang.label = "volcano.sh/job-name"; break;
    case WorkloadKind::Job: gang.label = "batch.kubernetes.io/job-name"; break;
    case WorkloadKind::KueuePodGroup: gang.label = "kueue.x-k8s.io/pod-group-name"; break;
    case WorkloadKind::CoschedulingGroup: gang.label = "scheduling.x-k8s.io/pod-group"; break;
    case WorkloadKind::VolcanoPodGroup: gang.annotation = "scheduling.k8s.io/group-name"; break;
    case WorkloadKind::KaiPodGroup: gang.annotation = "pod-group-name"; break;
    case WorkloadKind::None:
    case WorkloadKind::Owner:
    case WorkloadKind::SlurmJob:
    case WorkloadKind::Unlisted:
        break; // a controlling owner
    }
    // Kueue's topology request as its pods carry it, so a failure what-if on the file reads it back.
    switch (pod.topology.mode) {
    case PodTopologyRequest::Mode::None:
        break;
    case PodTopologyRequest::Mode::Required:
        gang.topologyKey = "kueue.x-k8s.io/podset-required-topology";
        break;
    case PodTopologyRequest::Mode::Preferred:
        gang.topologyKey = "kueue.x-k8s.io/podset-preferred-topology";
        break;
    case PodTopologyRequest::Mode::Unconstrained:
        gang.topologyKey = "kueue.x-k8s.io/podset-unconstrained-topology";
        break;
    }
    gang.topologyValue = pod.topology.mode == PodTopologyRequest::Mode::Unconstrained ? std::string_view("true")
                                                                                       : std::string_view(pod.topology.level);
    return gang;
}

// A map of metadata (labels, annotations) opened at its first entry, so that the gang's and the
// GPU share's entries land in one map and a pod without any writes none.
class LazyMap {
public:
    LazyMap(JsonWriter& json, std::string_view name) : m_json(json), m_name(name) {}
    void field(std::string_view key, std::string_view value) {
        if (!m_open) m_json.key(m_name).beginObject();
        m_open = true;
        m_json.field(key, value);
    }
    void close() {
        if (m_open) m_json.endObject();
        m_open = false;
    }

private:
    JsonWriter& m_json;
    std::string_view m_name;
    bool m_open = false;
};

void writePodMetadata(JsonWriter& json, const Pod& pod) {
    const GangMetadata gang = gangMetadata(pod);
    const PodGpuShare& share = pod.gpuShare;
    LazyMap labels(json, "labels");
    if (!gang.label.empty()) labels.field(gang.label, gang.name);
    if (!gang.groupIndex.empty()) labels.field("leaderworkerset.sigs.k8s.io/group-index", gang.groupIndex);
    // KAI's GPU sharing: the group, and a multi-GPU share's further groups as KAI labels them.
    if (!share.group.empty()) labels.field("runai-gpu-group", share.group);
    for (const std::string& group : share.moreGroups) labels.field("runai-gpu-group/" + group, group);
    labels.close();
    LazyMap annotations(json, "annotations");
    if (!gang.annotation.empty()) annotations.field(gang.annotation, gang.name);
    if (!gang.topologyKey.empty()) annotations.field(gang.topologyKey, gang.topologyValue);
    if (!share.fraction.empty()) annotations.field("gpu-fraction", share.fraction);
    if (!share.memory.empty()) annotations.field("gpu-memory", share.memory);
    if (share.devices != 0) annotations.field("gpu-fraction-num-devices", std::to_string(share.devices));
    annotations.close();
    if (pod.workload.empty()) return;
    if (pod.workloadKind == WorkloadKind::Job) {
        // As the Job controller sets it, beside the job-name label.
        json.key("ownerReferences").beginArray().beginObject();
        json.field("apiVersion", "batch/v1").field("kind", "Job").field("name", gang.name).field("controller", true);
        json.endObject().endArray();
    } else if (gang.label.empty() && gang.annotation.empty()) {
        // The model keeps no owner's kind: the reference says only who controls the pod.
        json.key("ownerReferences").beginArray().beginObject();
        json.field("name", gang.name).field("controller", true);
        json.endObject().endArray();
    }
}

// spec.resourceClaims, as the pod named them.
void writePodResourceClaims(JsonWriter& json, const std::vector<PodResourceClaim>& claims) {
    json.beginArray();
    for (const PodResourceClaim& claim : claims) {
        json.beginObject().field("name", claim.name);
        if (!claim.claimName.empty()) json.field("resourceClaimName", claim.claimName);
        if (!claim.templateName.empty()) json.field("resourceClaimTemplateName", claim.templateName);
        json.endObject();
    }
    json.endArray();
}

// status: the phase, and the claims made for the pod.
void writePodStatus(JsonWriter& json, const Pod& pod) {
    json.beginObject().field("phase", phaseName(pod.phase));
    if (!pod.claimStatuses.empty()) {
        json.key("resourceClaimStatuses").beginArray();
        for (const auto& [name, claimName] : pod.claimStatuses) {
            json.beginObject().field("name", name).key("resourceClaimName");
            // A null name: no claim was needed.
            if (claimName.empty())
                json.null();
            else
                json.value(claimName);
            json.endObject();
        }
        json.endArray();
    }
    if (!pod.extendedResourceClaim.empty())
        json.key("extendedResourceClaimStatus").beginObject().field("resourceClaimName", pod.extendedResourceClaim).endObject();
    json.endObject();
}

void writeRequiredNodeAffinity(JsonWriter& json, const std::vector<NodeSelectorTerm>& terms) {
    json.key("affinity").beginObject().key("nodeAffinity").beginObject();
    writeNodeSelector(json.key("requiredDuringSchedulingIgnoredDuringExecution"), terms);
    json.endObject().endObject();
}

void writePod(JsonWriter& json, QuantityTexts& texts, const Pod& pod) {
    json.beginObject().field("apiVersion", "v1").field("kind", "Pod");
    json.key("metadata").beginObject().field("namespace", pod.nameSpace).field("name", pod.name);
    writePodMetadata(json, pod);
    json.endObject().key("spec").beginObject();
    if (!pod.nodeName.empty()) json.field("nodeName", pod.nodeName);
    if (!pod.nodeSelector.empty()) writeStringMap(json.key("nodeSelector"), pod.nodeSelector);
    if (!pod.requiredNodeAffinity.empty()) writeRequiredNodeAffinity(json, pod.requiredNodeAffinity);
    if (!pod.resourceClaims.empty()) writePodResourceClaims(json.key("resourceClaims"), pod.resourceClaims);
    if (pod.scheduler == PodScheduler::Volcano) json.field("schedulerName", "volcano");
    if (pod.scheduler == PodScheduler::Kai) json.field("schedulerName", "kai-scheduler");
    // One container holding the effective request gives the same effective request back.
    json.key("containers").beginArray().beginObject().field("name", "main").key("resources").beginObject();
    writeResources(json.key("requests"), texts, pod.requests);
    json.endObject().endObject().endArray().endObject();
    writePodStatus(json.key("status"), pod);
    json.endObject();
}

} // namespace

std::string writeSnapshotJson(const ClusterState& state) {
    // Pods in (namespace, name) order, so that the same state always gives the same file. Few
    // namespaces hold many pods: group by namespace first, then sort each group by name.
    std::map<std::string_view, std::vector<const Pod*>> byNamespace;
    state.forEachPod([&](const Pod& pod) { byNamespace[pod.nameSpace].push_back(&pod); });
    std::vector<const Pod*> pods;
    pods.reserve(state.podCount());
    for (auto& [nameSpace, group] : byNamespace) {
        std::sort(group.begin(), group.end(), [](const Pod* a, const Pod* b) { return a->name < b->name; });
        pods.insert(pods.end(), group.begin(), group.end());
    }

    QuantityTexts texts;
    std::string out;
    out.reserve(state.presentNodeCount() * 640 + pods.size() * 320 + 4096);
    JsonWriter json(out);
    // One object per line: still compact, and greppable and diffable.
    json.beginObject()
        .field("apiVersion", "v1")
        .field("kind", "List")
        .key("items")
        .beginArray(JsonWriter::Layout::Block);
    for (NodeId id = 0; id < state.nodeSlots(); ++id)
        if (const NodeRecord& record = state.record(id); record.present) writeNode(json, texts, *record.node);
    for (const Pod* pod : pods) writePod(json, texts, *pod);
    // Kueue Topologies as v1beta1, which every Kueue with TAS serves and the reader takes alike.
    for (const auto& [name, spec] : state.topologies())
        writeTopologyManifest(json, spec.origin == "kai" ? "kai.scheduler/v1alpha1" : "kueue.x-k8s.io/v1beta1", spec);
    for (const auto& [name, flavor] : state.resourceFlavors())
        writeResourceFlavorManifest(json, "kueue.x-k8s.io/v1beta1", flavor);
    for (const auto& [name, hyperNode] : state.hyperNodes()) writeHyperNodeManifest(json, hyperNode);
    // DRA objects as resource.k8s.io/v1, which the reader takes like every other version: classes,
    // slices (stale generations too), templates, claims.
    const DeviceInventory& devices = state.devices();
    for (const auto& [name, deviceClass] : devices.deviceClasses()) writeDeviceClassManifest(json, deviceClass);
    for (const auto& [name, published] : devices.slices()) writeResourceSliceManifest(json, *published.slice);
    for (const auto& [key, claimTemplate] : devices.claimTemplates()) writeResourceClaimTemplateManifest(json, claimTemplate);
    for (const auto& [key, claim] : devices.claims()) writeResourceClaimManifest(json, *claim);
    for (const auto& [key, domain] : state.computeDomains()) writeComputeDomainManifest(json, domain);
    json.endArray().endObject();
    out += '\n';
    return out;
}

std::string writeObjectJson(const ClusterEvent& event) {
    std::string out;
    JsonWriter json(out);
    QuantityTexts texts;
    std::visit(
        [&]<class Event>(const Event& e) {
            if constexpr (std::is_same_v<Event, NodeUpserted>)
                writeNode(json, texts, e.node);
            else if constexpr (std::is_same_v<Event, PodUpserted>)
                writePod(json, texts, e.pod);
            else if constexpr (std::is_same_v<Event, TopologyUpserted>)
                writeTopologyManifest(json, e.spec.origin == "kai" ? "kai.scheduler/v1alpha1" : "kueue.x-k8s.io/v1beta1",
                                      e.spec);
            else if constexpr (std::is_same_v<Event, ResourceFlavorUpserted>)
                writeResourceFlavorManifest(json, "kueue.x-k8s.io/v1beta1", e.flavor);
            else if constexpr (std::is_same_v<Event, HyperNodeUpserted>)
                writeHyperNodeManifest(json, e.hyperNode);
            else if constexpr (std::is_same_v<Event, DeviceClassUpserted>)
                writeDeviceClassManifest(json, e.deviceClass);
            else if constexpr (std::is_same_v<Event, ResourceSliceUpserted>)
                writeResourceSliceManifest(json, e.slice);
            else if constexpr (std::is_same_v<Event, ResourceClaimTemplateUpserted>)
                writeResourceClaimTemplateManifest(json, e.claimTemplate);
            else if constexpr (std::is_same_v<Event, ResourceClaimUpserted>)
                writeResourceClaimManifest(json, e.claim);
            else if constexpr (std::is_same_v<Event, ComputeDomainUpserted>)
                writeComputeDomainManifest(json, e.domain);
        },
        event);
    return out;
}

} // namespace topodeck
