#include "core/formats/dra_manifests.h"

#include "core/formats/object_manifests.h"

#include <string_view>
#include <type_traits>
#include <variant>

namespace topodeck {

namespace {

constexpr std::string_view kApiVersion = "resource.k8s.io/v1";

// Opens apiVersion, kind and metadata; metadata stays open for what the kind adds.
void beginManifest(JsonWriter& json, std::string_view kind, std::string_view nameSpace, const std::string& name,
                   const std::string& resourceVersion, std::string_view apiVersion = kApiVersion) {
    json.beginObject().field("apiVersion", apiVersion).field("kind", kind).key("metadata").beginObject();
    if (!nameSpace.empty()) json.field("namespace", nameSpace);
    json.field("name", name);
    if (!resourceVersion.empty()) json.field("resourceVersion", resourceVersion);
}

void writeQuantities(JsonWriter& json, const NamedQuantities& quantities) {
    json.beginObject();
    for (const auto& [name, quantity] : quantities)
        json.key(name).beginObject().field("value", quantity.toString()).endObject();
    json.endObject();
}

void writeAttribute(JsonWriter& json, const DeviceAttributeValue& value) {
    json.beginObject();
    std::visit(
        [&](const auto& v) {
            using T = std::decay_t<decltype(v)>;
            if constexpr (std::is_same_v<T, std::int64_t>)
                json.field("int", v);
            else if constexpr (std::is_same_v<T, bool>)
                json.field("bool", v);
            else if constexpr (std::is_same_v<T, std::string>)
                json.field("string", v);
            else
                json.field("version", v.toString());
        },
        value);
    json.endObject();
}

// Node access as a slice or (perDeviceNodeSelection) a device says it.
void writeNodeAccess(JsonWriter& json, const std::string& nodeName, bool allNodes,
                     const std::vector<NodeSelectorTerm>& nodeSelector) {
    if (!nodeName.empty()) json.field("nodeName", nodeName);
    if (allNodes) json.field("allNodes", true);
    if (!nodeSelector.empty()) writeNodeSelector(json.key("nodeSelector"), nodeSelector);
}

void writeDevice(JsonWriter& json, const Device& device) {
    json.beginObject().field("name", device.name);
    if (!device.attributes.empty()) {
        json.key("attributes").beginObject();
        for (const DeviceAttribute& attribute : device.attributes) writeAttribute(json.key(attribute.name), attribute.value);
        json.endObject();
    }
    if (!device.capacity.empty()) {
        json.key("capacity").beginObject();
        for (const DeviceCapacity& capacity : device.capacity)
            json.key(capacity.name).beginObject().field("value", capacity.value.toString()).endObject();
        json.endObject();
    }
    if (!device.consumesCounters.empty()) {
        json.key("consumesCounters").beginArray();
        for (const DeviceCounterConsumption& consumption : device.consumesCounters) {
            json.beginObject().field("counterSet", consumption.counterSet);
            writeQuantities(json.key("counters"), consumption.counters);
            json.endObject();
        }
        json.endArray();
    }
    writeNodeAccess(json, device.nodeName, device.allNodes, device.nodeSelector);
    if (!device.taints.empty()) {
        json.key("taints").beginArray();
        for (const DeviceTaint& taint : device.taints) {
            json.beginObject().field("key", taint.key);
            if (!taint.value.empty()) json.field("value", taint.value);
            json.field("effect", taint.effect).endObject();
        }
        json.endArray();
    }
    json.endObject();
}

void writeSelectors(JsonWriter& json, const std::vector<std::string>& expressions) {
    json.beginArray();
    for (const std::string& expression : expressions)
        json.beginObject().key("cel").beginObject().field("expression", expression).endObject().endObject();
    json.endArray();
}

void writeTolerations(JsonWriter& json, const std::vector<DeviceToleration>& tolerations) {
    json.beginArray();
    for (const DeviceToleration& toleration : tolerations) {
        json.beginObject();
        if (!toleration.key.empty()) json.field("key", toleration.key);
        json.field("operator", toleration.op == DeviceToleration::Operator::Exists ? "Exists" : "Equal");
        if (!toleration.value.empty()) json.field("value", toleration.value);
        if (!toleration.effect.empty()) json.field("effect", toleration.effect);
        if (toleration.tolerationSeconds) json.field("tolerationSeconds", *toleration.tolerationSeconds);
        json.endObject();
    }
    json.endArray();
}

// `exactly`, or one of firstAvailable (which has a name).
void writeSubRequest(JsonWriter& json, const DeviceSubRequest& sub, bool named) {
    json.beginObject();
    if (named) json.field("name", sub.name);
    json.field("deviceClassName", sub.deviceClassName);
    if (!sub.selectors.empty()) writeSelectors(json.key("selectors"), sub.selectors);
    const bool all = sub.mode == DeviceSubRequest::Mode::All;
    json.field("allocationMode", all ? "All" : "ExactCount");
    if (!all) json.field("count", sub.count);
    if (sub.adminAccess) json.field("adminAccess", true);
    if (!sub.tolerations.empty()) writeTolerations(json.key("tolerations"), sub.tolerations);
    json.endObject();
}

// {"devices": {"requests": [...], "constraints": [...]}}
void writeClaimSpec(JsonWriter& json, const ResourceClaimSpec& spec) {
    json.beginObject().key("devices").beginObject().key("requests").beginArray();
    for (const DeviceRequest& request : spec.requests) {
        json.beginObject().field("name", request.name);
        if (request.exactly) writeSubRequest(json.key("exactly"), *request.exactly, false);
        if (!request.firstAvailable.empty()) {
            json.key("firstAvailable").beginArray();
            for (const DeviceSubRequest& alternative : request.firstAvailable) writeSubRequest(json, alternative, true);
            json.endArray();
        }
        json.endObject();
    }
    json.endArray();
    if (!spec.constraints.empty()) {
        json.key("constraints").beginArray();
        for (const DeviceConstraint& constraint : spec.constraints) {
            json.beginObject();
            if (!constraint.requests.empty()) json.key("requests").stringArray(constraint.requests);
            json.field("matchAttribute", constraint.matchAttribute).endObject();
        }
        json.endArray();
    }
    json.endObject().endObject();
}

void writeClaimStatus(JsonWriter& json, const ResourceClaim& claim) {
    json.beginObject();
    if (claim.allocated) {
        json.key("allocation").beginObject().key("devices").beginObject().key("results").beginArray();
        for (const DeviceAllocation& result : claim.devices) {
            json.beginObject().field("request", result.request).field("driver", result.driver);
            json.field("pool", result.pool).field("device", result.device);
            if (result.adminAccess) json.field("adminAccess", true);
            json.endObject();
        }
        json.endArray().endObject();
        if (!claim.allocationNodeSelector.empty()) writeNodeSelector(json.key("nodeSelector"), claim.allocationNodeSelector);
        json.endObject();
    }
    if (!claim.reservedFor.empty()) {
        json.key("reservedFor").beginArray();
        for (const ClaimConsumer& consumer : claim.reservedFor) {
            json.beginObject();
            if (!consumer.resource.empty()) json.field("resource", consumer.resource);
            json.field("name", consumer.name);
            if (!consumer.uid.empty()) json.field("uid", consumer.uid);
            json.endObject();
        }
        json.endArray();
    }
    json.endObject();
}

} // namespace

void writeResourceSliceManifest(JsonWriter& json, const ResourceSlice& slice) {
    beginManifest(json, "ResourceSlice", {}, slice.name, slice.resourceVersion);
    json.endObject().key("spec").beginObject().field("driver", slice.driver);
    json.key("pool").beginObject().field("name", slice.pool).field("generation", slice.poolGeneration);
    json.field("resourceSliceCount", slice.poolSliceCount).endObject();
    writeNodeAccess(json, slice.nodeName, slice.allNodes, slice.nodeSelector);
    if (slice.perDeviceNodeSelection) json.field("perDeviceNodeSelection", true);
    if (!slice.devices.empty()) {
        json.key("devices").beginArray();
        for (const Device& device : slice.devices) writeDevice(json, device);
        json.endArray();
    }
    if (!slice.sharedCounters.empty()) {
        json.key("sharedCounters").beginArray();
        for (const CounterSet& set : slice.sharedCounters) {
            json.beginObject().field("name", set.name);
            writeQuantities(json.key("counters"), set.counters);
            json.endObject();
        }
        json.endArray();
    }
    json.endObject().endObject();
}

void writeResourceClaimManifest(JsonWriter& json, const ResourceClaim& claim) {
    beginManifest(json, "ResourceClaim", claim.nameSpace, claim.name, claim.resourceVersion);
    if (!claim.uid.empty()) json.field("uid", claim.uid);
    // The model keeps only that the claim is being deleted, not since when.
    if (claim.deleting) json.field("deletionTimestamp", "1970-01-01T00:00:00Z");
    if (!claim.podClaimName.empty())
        json.key("annotations").beginObject().field("resource.kubernetes.io/pod-claim-name", claim.podClaimName).endObject();
    json.endObject();
    writeClaimSpec(json.key("spec"), claim.spec);
    writeClaimStatus(json.key("status"), claim);
    json.endObject();
}

void writeResourceClaimTemplateManifest(JsonWriter& json, const ResourceClaimTemplate& claimTemplate) {
    beginManifest(json, "ResourceClaimTemplate", claimTemplate.nameSpace, claimTemplate.name, claimTemplate.resourceVersion);
    json.endObject().key("spec").beginObject();
    writeClaimSpec(json.key("spec"), claimTemplate.spec);
    json.endObject().endObject();
}

void writeDeviceClassManifest(JsonWriter& json, const DeviceClass& deviceClass) {
    beginManifest(json, "DeviceClass", {}, deviceClass.name, deviceClass.resourceVersion);
    if (!deviceClass.creationTimestamp.empty()) json.field("creationTimestamp", deviceClass.creationTimestamp);
    json.endObject().key("spec").beginObject();
    if (!deviceClass.selectors.empty()) writeSelectors(json.key("selectors"), deviceClass.selectors);
    if (!deviceClass.extendedResourceName.empty()) json.field("extendedResourceName", deviceClass.extendedResourceName);
    json.endObject().endObject();
}

void writeComputeDomainManifest(JsonWriter& json, const ComputeDomain& domain) {
    beginManifest(json, "ComputeDomain", domain.nameSpace, domain.name, domain.resourceVersion,
                  kComputeDomainApiVersion);
    if (!domain.uid.empty()) json.field("uid", domain.uid);
    json.endObject();
    // A spec has a channel (the reader refuses one without); a ComputeDomain read without a spec
    // is written without one.
    if (!domain.channelTemplate.empty()) {
        json.key("spec").beginObject();
        if (domain.numNodes != 0) json.field("numNodes", domain.numNodes);
        json.key("channel").beginObject();
        json.key("resourceClaimTemplate").beginObject().field("name", domain.channelTemplate).endObject();
        json.field("allocationMode", domain.allocationMode == ComputeDomain::ChannelAllocation::All ? "All" : "Single");
        json.endObject().endObject();
    }
    if (domain.status != ComputeDomainReadiness::None || !domain.nodes.empty()) {
        json.key("status").beginObject();
        if (domain.status != ComputeDomainReadiness::None)
            json.field("status", computeDomainReadinessName(domain.status));
        if (!domain.nodes.empty()) {
            json.key("nodes").beginArray();
            for (const ComputeDomainNode& node : domain.nodes) {
                json.beginObject().field("name", node.name).field("ipAddress", node.ipAddress);
                json.field("cliqueID", node.cliqueID).field("index", node.index);
                if (node.status != ComputeDomainReadiness::None)
                    json.field("status", computeDomainReadinessName(node.status));
                json.endObject();
            }
            json.endArray();
        }
        json.endObject();
    }
    json.endObject();
}

} // namespace topodeck
