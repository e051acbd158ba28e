#pragma once

// Readers of a Pod's DRA fields (spec.resourceClaims, status.resourceClaimStatuses,
// status.extendedResourceClaimStatus) and of KAI's GPU sharing, which a pod says in labels and
// annotations (runai-gpu-group, gpu-fraction, gpu-memory, gpu-fraction-num-devices; KAI
// pkg/common/constants). Templates over the value adapters. Internal to backend/core.

#include "core/formats/field_path.h"
#include "core/formats/field_readers.h"
#include "core/model/pod.h"
#include "core/result.h"

#include <algorithm>
#include <charconv>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace topodeck::object_reader {

// What a pod's DRA fields and GPU-sharing labels said, before the pod is built. Claims are rare
// and owned; the labels and annotations are views into the input.
struct PodDraScratch {
    std::vector<PodResourceClaim> resourceClaims;
    std::vector<std::pair<std::string, std::string>> claimStatuses;
    std::string_view extendedResourceClaim;
    std::string_view gpuGroup;                   // label runai-gpu-group
    std::vector<std::string_view> moreGpuGroups; // labels runai-gpu-group/<group> (multi-GPU shares)
    std::string_view gpuFraction, gpuMemory, gpuDevices;
};

// The namespace KAI's binder makes its reservation pods in.
inline constexpr std::string_view kKaiReservationNamespace = "kai-resource-reservation";

// The slot a GPU-sharing label fills, or nullptr.
inline std::string_view* gpuShareLabelSlot(PodDraScratch& dra, std::string_view key) {
    constexpr std::string_view kGroup = "runai-gpu-group";
    if (!key.starts_with(kGroup)) return nullptr;
    if (key.size() == kGroup.size()) return &dra.gpuGroup;
    return key[kGroup.size()] == '/' ? &dra.moreGpuGroups.emplace_back() : nullptr;
}

inline std::string_view* gpuShareAnnotationSlot(PodDraScratch& dra, std::string_view key) {
    if (key == "gpu-fraction") return &dra.gpuFraction;
    if (key == "gpu-memory") return &dra.gpuMemory;
    if (key == "gpu-fraction-num-devices") return &dra.gpuDevices;
    return nullptr;
}

// spec.resourceClaims: [{name, resourceClaimName | resourceClaimTemplateName}].
template <class V> Status readPodResourceClaims(V& value, const Path& path, PodDraScratch& dra) {
    return readMapList(value, path, [&](V& element, const Path& at) -> Status {
        std::string_view name, claimName, templateName;
        Status s = readRequiredFields(
            element, at,
            [&](std::string_view k) {
                return k == "name"                        ? &name
                       : k == "resourceClaimName"         ? &claimName
                       : k == "resourceClaimTemplateName" ? &templateName
                                                          : nullptr;
            },
            {{"name", &name}});
        if (!s) return s;
        if (claimName.empty() == templateName.empty())
            return Error{at.str() + (claimName.empty() ? ": needs resourceClaimName or resourceClaimTemplateName"
                                                       : ": resourceClaimName and resourceClaimTemplateName are exclusive")};
        dra.resourceClaims.push_back({std::string(name), std::string(claimName), std::string(templateName)});
        return Status{};
    });
}

// status.resourceClaimStatuses: [{name, resourceClaimName}]; a null claim name means that no
// claim was needed.
template <class V> Status readPodClaimStatuses(V& value, const Path& path, PodDraScratch& dra) {
    return readMapList(value, path, [&](V& element, const Path& at) -> Status {
        std::string_view name, claimName;
        Status s = readRequiredFields(
            element, at, [&](std::string_view k) { return k == "name" ? &name : k == "resourceClaimName" ? &claimName : nullptr; },
            {{"name", &name}});
        if (!s) return s;
        dra.claimStatuses.emplace_back(name, claimName);
        return Status{};
    });
}

// status.extendedResourceClaimStatus: of it, the claim's name (KEP-5004).
template <class V> Status readExtendedResourceClaimStatus(V& value, const Path& path, PodDraScratch& dra) {
    return readSelectedFields(value, path, "a map", [&](std::string_view key) {
        return key == "resourceClaimName" ? &dra.extendedResourceClaim : nullptr;
    });
}

// Moves what was read into the pod, whose namespace is known by now.
inline Status finishPodDra(PodDraScratch& dra, Pod& pod, const Path& root) {
    pod.resourceClaims = std::move(dra.resourceClaims);
    pod.claimStatuses = std::move(dra.claimStatuses);
    pod.extendedResourceClaim = dra.extendedResourceClaim;
    PodGpuShare& share = pod.gpuShare;
    if (!dra.gpuDevices.empty()) {
        const std::string_view text = dra.gpuDevices;
        const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), share.devices);
        if (ec != std::errc() || end != text.data() + text.size() || share.devices < 0)
            return Error{root.field("metadata").field("annotations").key("gpu-fraction-num-devices").str() +
                         ": expected a number of GPUs, got \"" + visibleText(text) + '"'};
    }
    share.fraction = dra.gpuFraction;
    share.memory = dra.gpuMemory;
    share.reservation = pod.nameSpace == kKaiReservationNamespace;
    // The plain label names the group; without it (a multi-GPU share) the first prefixed one does.
    std::vector<std::string_view>& more = dra.moreGpuGroups;
    std::sort(more.begin(), more.end());
    more.erase(std::unique(more.begin(), more.end()), more.end());
    std::string_view group = dra.gpuGroup;
    if (group.empty() && !more.empty()) group = more.front();
    more.erase(std::remove(more.begin(), more.end(), group), more.end());
    share.group = group;
    share.moreGroups.assign(more.begin(), more.end());
    return {};
}

} // namespace topodeck::object_reader
