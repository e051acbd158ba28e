#pragma once

// The reader of NVIDIA's ComputeDomain (resource.nvidia.com/v1beta1) into model/compute_domain.h.
// It refuses what the CRD's schema refuses (a spec without channel, a channel without its
// template's name, an allocationMode or status outside the enum, a negative numNodes, a status
// node without a name or listed twice) and takes what the API server may hold: no spec, no
// status, a status node without cliqueID or ipAddress (both ""). Fields it does not know are
// skipped. Templates over the value adapters. Internal to backend/core.

#include "core/formats/dra_object_readers.h"
#include "core/formats/field_path.h"
#include "core/formats/field_readers.h"
#include "core/model/compute_domain.h"
#include "core/result.h"

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

namespace topodeck::object_reader {

// Ready, NotReady or absent (status.status and status.nodes[].status share the enum).
template <class V> Status readComputeDomainReadiness(V& value, const Path& path, ComputeDomainReadiness& out) {
    std::string_view text;
    if (Status s = readScalar(value, path, text); !s) return s;
    if (text.empty())
        out = ComputeDomainReadiness::None;
    else if (text == "Ready")
        out = ComputeDomainReadiness::Ready;
    else if (text == "NotReady")
        out = ComputeDomainReadiness::NotReady;
    else
        return Error{path.str() + ": expected Ready or NotReady, got \"" + visibleText(text) + '"'};
    return {};
}

// spec.channel: {resourceClaimTemplate: {name}, allocationMode}.
template <class V> Status readComputeDomainChannel(V& value, const Path& path, ComputeDomain& domain) {
    bool isMap = false;
    if (Status s = expectObject(value, path, "a map", isMap); !s) return s;
    if (!isMap) return missingError(path);
    std::string_view templateName;
    Status s = value.forEachField([&](std::string_view key, V& field) -> Status {
        const Path at = path.field(key);
        if (key == "resourceClaimTemplate") {
            bool present = false;
            if (Status e = expectObject(field, at, "a map", present); !e) return e;
            if (!present) return missingError(at.field("name"));
            return field.forEachField([&](std::string_view k, V& name) -> Status {
                return k == "name" ? readScalar(name, at.field(k), templateName) : Status{};
            });
        }
        if (key != "allocationMode") return {};
        std::string_view mode;
        if (Status e = readScalar(field, at, mode); !e) return e;
        if (mode.empty() || mode == "Single")
            domain.allocationMode = ComputeDomain::ChannelAllocation::Single;
        else if (mode == "All")
            domain.allocationMode = ComputeDomain::ChannelAllocation::All;
        else
            return Error{at.str() + ": expected Single or All, got \"" + visibleText(mode) + '"'};
        return {};
    });
    if (!s) return s;
    if (templateName.empty()) return missingError(path.field("resourceClaimTemplate").field("name"));
    domain.channelTemplate = templateName;
    return {};
}

template <class V> Status readComputeDomainSpec(V& value, const Path& path, ComputeDomain& domain) {
    bool isMap = false;
    if (Status s = expectObject(value, path, "a map", isMap); !s || !isMap) return s;
    bool sawChannel = false;
    Status s = value.forEachField([&](std::string_view key, V& field) -> Status {
        const Path at = path.field(key);
        if (key == "channel") {
            sawChannel = true;
            return readComputeDomainChannel(field, at, domain);
        }
        if (key != "numNodes") return {};
        if (Status e = readInt32(field, at, domain.numNodes); !e) return e;
        if (domain.numNodes < 0) return Error{at.str() + ": must be 0 or more, got " + std::to_string(domain.numNodes)};
        return {};
    });
    if (!s) return s;
    if (!sawChannel) return missingError(path.field("channel"));
    return {};
}

// status.nodes[i]: {name, ipAddress, cliqueID, index, status}.
template <class V> Status readComputeDomainNode(V& value, const Path& path, ComputeDomainNode& node) {
    std::string_view name, ipAddress, cliqueID;
    Status s = value.forEachField([&](std::string_view key, V& field) -> Status {
        const Path at = path.field(key);
        if (key == "name") return readScalar(field, at, name);
        if (key == "ipAddress") return readScalar(field, at, ipAddress);
        if (key == "cliqueID") return readScalar(field, at, cliqueID);
        if (key == "index") return readInt32(field, at, node.index);
        return key == "status" ? readComputeDomainReadiness(field, at, node.status) : Status{};
    });
    if (!s) return s;
    if (name.empty()) return missingError(path.field("name"));
    node.name = name;
    node.ipAddress = ipAddress;
    node.cliqueID = cliqueID;
    return {};
}

template <class V> Status readComputeDomainStatus(V& value, const Path& path, ComputeDomain& domain) {
    bool isMap = false;
    if (Status s = expectObject(value, path, "a map", isMap); !s || !isMap) return s;
    Status s = value.forEachField([&](std::string_view key, V& field) -> Status {
        const Path at = path.field(key);
        if (key == "status") return readComputeDomainReadiness(field, at, domain.status);
        if (key != "nodes") return {};
        return readMapList(field, at, [&](V& element, const Path& nodePath) -> Status {
            ComputeDomainNode node;
            if (Status e = readComputeDomainNode(element, nodePath, node); !e) return e;
            // A list map keyed by name (x-kubernetes-list-type: map): one entry per node.
            const bool listed = std::any_of(domain.nodes.begin(), domain.nodes.end(),
                                            [&](const ComputeDomainNode& n) { return n.name == node.name; });
            if (listed)
                return Error{nodePath.field("name").str() + ": node \"" + visibleText(node.name) +
                             "\" is listed twice"};
            domain.nodes.push_back(std::move(node));
            return Status{};
        });
    });
    return s;
}

template <class V> Status readComputeDomain(V& object, ObjectLabel& label, ComputeDomain& domain) {
    DraMetadata meta;
    Status s = readDraObject(object, label, meta, [&](std::string_view key, V& field, const Path& path) {
        return key == "spec" ? readComputeDomainSpec(field, path, domain)
                             : readComputeDomainStatus(field, path, domain);
    });
    if (!s) return s;
    domain.nameSpace = meta.nameSpace.empty() ? std::string_view("default") : meta.nameSpace;
    domain.name = meta.name;
    domain.uid = meta.uid;
    return {};
}

} // namespace topodeck::object_reader
