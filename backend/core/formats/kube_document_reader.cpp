#include "core/formats/kube_document_reader.h"

#include "core/formats/compute_domain_readers.h"
#include "core/formats/dra_object_readers.h"
#include "core/formats/kube_object_readers.h"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace topodeck::object_reader {
namespace {

enum class ObjectKind {
    Node,
    Pod,
    KueueTopology,
    KaiTopology,
    HyperNode,
    ResourceFlavor,
    ResourceSlice,
    ResourceClaim,
    ResourceClaimTemplate,
    DeviceClass,
    ComputeDomain,
    Other
};

// The DRA kinds, read in every version of resource.k8s.io draVersion() knows.
bool isDraKind(std::string_view kind) {
    return kind == "ResourceSlice" || kind == "ResourceClaim" || kind == "ResourceClaimTemplate" || kind == "DeviceClass";
}

ObjectKind classify(std::string_view apiVersion, std::string_view kind) {
    const bool core = apiVersion.empty() || apiVersion == "v1";
    if (kind == "Node" && core) return ObjectKind::Node;
    if (kind == "Pod" && core) return ObjectKind::Pod;
    if (kind == "Topology") {
        const std::string_view group = apiVersion.substr(0, apiVersion.find('/'));
        if (group == "kueue.x-k8s.io") return ObjectKind::KueueTopology;
        if (group == "kai.scheduler") return ObjectKind::KaiTopology;
    }
    if (kind == "HyperNode" && apiVersion.substr(0, apiVersion.find('/')) == "topology.volcano.sh")
        return ObjectKind::HyperNode;
    if (kind == "ResourceFlavor" && apiVersion.substr(0, apiVersion.find('/')) == "kueue.x-k8s.io")
        return ObjectKind::ResourceFlavor;
    if (kind == "ComputeDomain" && apiVersion == kComputeDomainApiVersion) return ObjectKind::ComputeDomain;
    if (isDraKind(kind) && draVersion(apiVersion)) {
        if (kind == "ResourceSlice") return ObjectKind::ResourceSlice;
        if (kind == "ResourceClaim") return ObjectKind::ResourceClaim;
        return kind == "DeviceClass" ? ObjectKind::DeviceClass : ObjectKind::ResourceClaimTemplate;
    }
    return ObjectKind::Other;
}

bool isListKind(std::string_view kind) {
    return kind.size() >= 4 && kind.substr(kind.size() - 4) == "List";
}

template <class V> class DocumentReader {
public:
    DocumentReader(SnapshotBuilder& out, std::string_view source, int document)
        : m_out(out), m_source(source), m_document(document) {}

    Status readRoot(V& root) {
        const auto where = root.where();
        switch (root.type()) {
        case ValueType::Null:
            return {}; // an empty YAML document
        case ValueType::Array:
            return readItems(root, {}, {});
        case ValueType::Object:
            break;
        case ValueType::Invalid:
            return Error{"invalid input"};
        default:
            return Error{std::string(m_source) + root.locate(where) + ": expected a Kubernetes object or List, got " +
                         describe(root.type())};
        }
        std::string_view apiVersion;
        std::string_view kind;
        if (Status s = root.header(apiVersion, kind); !s)
            return Error{std::string(m_source) + root.locate(where) + ": " + s.error().message};
        if (!kind.empty() && !isListKind(kind)) return readObject(root, where, apiVersion, kind, -1);

        // A List: "List" holds any kind; NodeList, PodList, ... imply their items' kind, which
        // the API server leaves out of each item.
        const std::string_view itemKind =
            kind.empty() || kind == "List" ? std::string_view() : kind.substr(0, kind.size() - 4);
        bool sawItems = false;
        Status s = root.forEachField([&](std::string_view key, V& field) -> Status {
            if (key == "metadata" && m_out.listMeta) {
                const auto at = field.where();
                if (Status meta = readListMeta(field, *m_out.listMeta); !meta)
                    return Error{std::string(m_source) + field.locate(at) + ": " + meta.error().message};
                return {};
            }
            if (key != "items") return {};
            sawItems = true;
            const ValueType type = field.type();
            if (type == ValueType::Null) return {};
            if (type != ValueType::Array)
                return Error{std::string(m_source) + field.locate(field.where()) + ": " +
                             typeError(Path().field("items"), "a list", type).message};
            return readItems(field, itemKind.empty() ? std::string_view() : apiVersion, itemKind);
        });
        if (s && kind.empty() && !sawItems)
            return Error{std::string(m_source) + root.locate(where) + ": kind is missing"};
        return s;
    }

private:
    Status readListMeta(V& value, ListMeta& meta) {
        const Path root; // named: a field's Path points at its parent
        const Path path = root.field("metadata");
        std::string_view resourceVersion;
        std::string_view continueToken;
        bool present = false;
        if (Status s = expectObject(value, path, "a map", present); !s || !present) return s;
        Status s = value.forEachField([&](std::string_view key, V& field) -> Status {
            if (key == "resourceVersion") return readScalar(field, path.field(key), resourceVersion);
            if (key == "continue") return readScalar(field, path.field(key), continueToken);
            if (key == "remainingItemCount") {
                // Only a progress hint: a value that is not a count is ignored.
                std::string_view text;
                if (Status e = readScalar(field, path.field(key), text); !e) return e;
                std::int64_t remaining = -1;
                const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), remaining);
                if (ec == std::errc() && end == text.data() + text.size()) meta.remainingItemCount = remaining;
            }
            return {};
        });
        meta.resourceVersion = resourceVersion;
        meta.continueToken = continueToken;
        return s;
    }

    Status readItems(V& items, std::string_view defaultApiVersion, std::string_view defaultKind) {
        long index = 0;
        return items.forEachElement([&](V& item) -> Status {
            const long itemIndex = index++;
            const auto where = item.where();
            const ValueType type = item.type();
            if (type == ValueType::Invalid) return Error{"invalid input"};
            if (type != ValueType::Object)
                return Error{std::string(m_source) + item.locate(where) + ": " +
                             typeError(Path().field("items").index(itemIndex), "a map", type).message};
            std::string_view apiVersion;
            std::string_view kind;
            if (Status s = item.header(apiVersion, kind); !s) {
                ObjectLabel label{kind, {}, {}, itemIndex, m_document};
                return Error{std::string(m_source) + item.locate(where) + ": " + label.str() + ": " +
                             s.error().message};
            }
            if (kind.empty()) {
                kind = defaultKind;
                if (apiVersion.empty()) apiVersion = defaultApiVersion;
            }
            return readObject(item, where, apiVersion, kind, itemIndex);
        });
    }

    Status readObject(V& object, const typename V::Where& where, std::string_view apiVersion, std::string_view kind,
                      long index) {
        ObjectLabel label{kind, {}, {}, index, m_document};
        Status s;
        switch (classify(apiVersion, kind)) {
        case ObjectKind::Node:
            s = readNode(object, label);
            break;
        case ObjectKind::Pod:
            reserveFor(m_out.snapshot.pods, m_firstPodOffset, object, where);
            s = readPod(object, label);
            break;
        case ObjectKind::KueueTopology:
            s = readTopology(object, label, "kueue");
            break;
        case ObjectKind::KaiTopology:
            s = readTopology(object, label, "kai");
            break;
        case ObjectKind::HyperNode:
            s = readHyperNode(object, label);
            break;
        case ObjectKind::ResourceFlavor:
            s = readResourceFlavor(object, label);
            break;
        case ObjectKind::ResourceSlice:
            reserveFor(m_out.snapshot.resourceSlices, m_firstSliceOffset, object, where);
            s = readDra(object, label, m_out.snapshot.resourceSlices,
                        [&](V& o, ObjectLabel& l, ResourceSlice& slice) { return readResourceSlice(o, l, slice); });
            break;
        case ObjectKind::ResourceClaim:
            reserveFor(m_out.snapshot.resourceClaims, m_firstClaimOffset, object, where);
            s = readDra(object, label, m_out.snapshot.resourceClaims, [&](V& o, ObjectLabel& l, ResourceClaim& claim) {
                return readResourceClaim(o, l, *draVersion(apiVersion), claim);
            });
            break;
        case ObjectKind::ResourceClaimTemplate:
            s = readDra(object, label, m_out.snapshot.resourceClaimTemplates,
                        [&](V& o, ObjectLabel& l, ResourceClaimTemplate& claimTemplate) {
                            return readResourceClaimTemplate(o, l, *draVersion(apiVersion), claimTemplate);
                        });
            break;
        case ObjectKind::DeviceClass:
            s = readDra(object, label, m_out.snapshot.deviceClasses,
                        [&](V& o, ObjectLabel& l, DeviceClass& deviceClass) { return readDeviceClass(o, l, deviceClass); });
            break;
        case ObjectKind::ComputeDomain:
            s = readDra(object, label, m_out.snapshot.computeDomains,
                        [&](V& o, ObjectLabel& l, ComputeDomain& domain) { return readComputeDomain(o, l, domain); });
            break;
        case ObjectKind::Other:
            m_out.skip(apiVersion, kind);
            return {};
        }
        if (s) {
            if (m_out.versions) m_out.versions->emplace_back(label.resourceVersion);
            return s;
        }
        return Error{std::string(m_source) + object.locate(where) + ": " + s.error().message};
    }

    // Doubling a list of objects as it fills would write about twice its final size into fresh
    // pages, and page faults are much of a cluster-sized read: when it is full, size it for the
    // rest of the input at the objects' average size so far (at least 1.5 times, to stay
    // geometric). Pods, slices and claims, the kinds a cluster holds by the hundred thousand.
    template <class T> void reserveFor(std::vector<T>& objects, std::size_t& firstOffset, V& object,
                                       const typename V::Where& where) {
        const std::size_t before = object.bytesBefore(where);
        if (objects.empty()) firstOffset = before;
        if (objects.empty() || objects.size() < objects.capacity() || before <= firstOffset) return;
        const std::size_t perObject = (before - firstOffset) / objects.size();
        const std::size_t rest = object.bytesAfter(where) / std::max<std::size_t>(perObject, 1);
        objects.reserve(std::max(objects.size() + rest + rest / 16 + 16, objects.capacity() + objects.capacity() / 2));
    }

    // Names the object while the name's storage is still alive.
    static Error labelled(const ObjectLabel& label, const Status& status) {
        return Error{label.str() + ": " + status.error().message};
    }

    Status readNode(V& object, ObjectLabel& label) {
        Node node;
        m_labels.clear();
        // No Ready condition means the kubelet never reported: not ready.
        node.ready = false;
        const Path root;
        Status s = object.forEachField([&](std::string_view key, V& field) -> Status {
            if (key == "metadata") return readNodeMetadata(field, root.field(key), node, label, m_labels);
            if (key == "spec") return readNodeSpec(field, root.field(key), node);
            if (key == "status") return readNodeStatus(field, root.field(key), node);
            return {};
        });
        if (!s) return labelled(label, s);
        if (node.name.empty()) return labelled(label, missingError(root.field("metadata").field("name")));
        m_out.snapshot.nodes.push_back(std::move(node));
        return {};
    }

    Status readPod(V& object, ObjectLabel& label) {
        PodScratch scratch(m_podResources);
        m_podResources.overhead.clear();
        const Path root;
        Status s = object.forEachField([&](std::string_view key, V& field) -> Status {
            if (key == "metadata") return readPodMetadata(field, root.field(key), scratch, label);
            if (key == "spec") return readPodSpec(field, root.field(key), scratch);
            if (key == "status") return readPodStatus(field, root.field(key), scratch);
            return {};
        });
        if (!s) return labelled(label, s);
        if (scratch.name.empty()) return labelled(label, missingError(root.field("metadata").field("name")));
        Pod pod;
        // Namespaced objects without a namespace live in "default", as kubectl applies them.
        pod.nameSpace = scratch.nameSpace.empty() ? std::string_view("default") : scratch.nameSpace;
        pod.name = scratch.name;
        pod.nodeName = scratch.nodeName;
        pod.phase = parsePhase(scratch.phase);
        m_podResources.containers.resize(scratch.containersUsed);
        m_podResources.initContainers.resize(scratch.initContainersUsed);
        pod.requests = effectivePodRequests(m_podResources);
        pod.scheduler = parseSchedulerName(scratch.schedulerName);
        pod.topology = podTopologyRequest(scratch);
        if (!scratch.nodeSelector.empty()) {
            pod.nodeSelector.assign(scratch.nodeSelector.begin(), scratch.nodeSelector.end());
            std::sort(pod.nodeSelector.begin(), pod.nodeSelector.end());
        }
        pod.requiredNodeAffinity = std::move(scratch.requiredNodeAffinity);
        if (Status dra = finishPodDra(scratch.dra, pod, root); !dra) return labelled(label, dra);
        for (int source = 0; source < kWorkloadSources; ++source) {
            if (scratch.workload[source].empty()) continue;
            pod.workload = scratch.workload[source];
            pod.workloadKind = kWorkloadSourceKinds[source];
            // A Job that owns its pods without the job-name labels (older clusters) is still a Job.
            if (source == kOwner && scratch.ownerIsJob) pod.workloadKind = WorkloadKind::Job;
            // Named like the group's StatefulSet: <lws>-<group index>.
            if (source == kLeaderWorkerSetName && !scratch.lwsGroupIndex.empty())
                pod.workload += "-" + std::string(scratch.lwsGroupIndex);
            break;
        }
        m_out.snapshot.pods.push_back(std::move(pod));
        return {};
    }

    Status readTopology(V& object, ObjectLabel& label, std::string_view origin) {
        std::string_view name;
        std::string_view nvlinkLabel;
        std::vector<std::string> keys;
        bool sawLevels = false;
        const Path root;
        Status s = object.forEachField([&](std::string_view key, V& field) -> Status {
            if (key == "metadata") {
                const Path metadataPath = root.field(key);
                bool present = false;
                if (Status e = expectObject(field, metadataPath, "a map", present); !e || !present) return e;
                return field.forEachField([&](std::string_view metaKey, V& metaField) -> Status {
                    if (metaKey == "name") {
                        Status e = readScalar(metaField, metadataPath.field(metaKey), name);
                        label.name = name;
                        return e;
                    }
                    if (metaKey == "resourceVersion")
                        return readScalar(metaField, metadataPath.field(metaKey), label.resourceVersion);
                    if (metaKey == "annotations")
                        return readSelectedFields(
                            metaField, metadataPath.field(metaKey), "a map of strings",
                            [&](std::string_view k) { return k == kNvlinkLabelAnnotation ? &nvlinkLabel : nullptr; });
                    return {};
                });
            }
            if (key != "spec") return {};
            const Path specPath = root.field(key);
            bool present = false;
            if (Status e = expectObject(field, specPath, "a map", present); !e || !present) return e;
            return field.forEachField([&](std::string_view specKey, V& specField) -> Status {
                if (specKey != "levels") return {};
                sawLevels = true;
                return readTopologyLevels(specField, specPath.field(specKey), keys);
            });
        });
        if (!s) return labelled(label, s);
        if (name.empty()) return labelled(label, missingError(root.field("metadata").field("name")));
        if (keys.empty())
            return labelled(label,
                            Error{root.field("spec").field("levels").str() + (sawLevels ? " is empty" : " is missing") +
                                  ": a Topology needs at least one level"});
        TopologySpec spec = TopologySpec::fromLabelKeys(keys);
        spec.name = name;
        spec.origin = origin;
        spec.nvlinkLabel = nvlinkLabel;
        spec.resourceVersion = label.resourceVersion;
        m_out.snapshot.topologies.push_back(std::move(spec));
        return {};
    }

    // An object of which only metadata.name (and resourceVersion) and spec matter: readSpec(value,
    // path) reads the spec. The object must have a name.
    template <class ReadSpec>
    Status readNamedObject(V& object, ObjectLabel& label, std::string_view& name, ReadSpec&& readSpec) {
        const Path root;
        Status s = object.forEachField([&](std::string_view key, V& field) -> Status {
            if (key == "metadata") {
                Status e = readNameAndVersion(field, root.field(key), name, label);
                label.name = name;
                return e;
            }
            return key == "spec" ? readSpec(field, root.field(key)) : Status{};
        });
        if (!s) return labelled(label, s);
        if (name.empty()) return labelled(label, missingError(root.field("metadata").field("name")));
        return {};
    }

    Status readHyperNode(V& object, ObjectLabel& label) {
        std::string_view name;
        std::string_view tierName;
        HyperNode hyperNode;
        Status s = readNamedObject(object, label, name, [&](V& field, const Path& specPath) -> Status {
            bool present = false;
            if (Status e = expectObject(field, specPath, "a map", present); !e || !present) return e;
            return field.forEachField([&](std::string_view specKey, V& specField) -> Status {
                const Path fieldPath = specPath.field(specKey);
                if (specKey == "tier") {
                    if (Status e = readInt32(specField, fieldPath, hyperNode.tier); !e) return e;
                    if (hyperNode.tier < 0)
                        return Error{fieldPath.str() + ": must be 0 or more, got " + std::to_string(hyperNode.tier)};
                    return {};
                }
                if (specKey == "tierName") return readScalar(specField, fieldPath, tierName);
                if (specKey == "members") return readHyperNodeMembers(specField, fieldPath, hyperNode.members);
                return {};
            });
        });
        if (!s) return s;
        hyperNode.name = name;
        hyperNode.tierName = tierName;
        hyperNode.resourceVersion = label.resourceVersion;
        m_out.snapshot.hyperNodes.push_back(std::move(hyperNode));
        return {};
    }

    Status readResourceFlavor(V& object, ObjectLabel& label) {
        std::string_view name;
        ResourceFlavor flavor;
        Status s = readNamedObject(object, label, name, [&](V& field, const Path& specPath) {
            return readFlavorSpec(field, specPath, flavor);
        });
        if (!s) return s;
        flavor.name = name;
        flavor.resourceVersion = label.resourceVersion;
        m_out.snapshot.resourceFlavors.push_back(std::move(flavor));
        return {};
    }

    // A DRA object read by read(object, label, into) and kept with its resourceVersion.
    template <class T, class Read> Status readDra(V& object, ObjectLabel& label, std::vector<T>& into, Read&& read) {
        // Read in place: a slice or claim moved into the list would be written twice.
        T& value = into.emplace_back();
        if (Status s = read(object, label, value); !s) {
            into.pop_back();
            return labelled(label, s);
        }
        value.resourceVersion = label.resourceVersion;
        return {};
    }

    SnapshotBuilder& m_out;
    std::string_view m_source;
    int m_document;
    PodResourceSpec m_podResources;   // scratch for readPod
    std::size_t m_firstPodOffset = 0; // for reserveFor, of the first pod
    std::size_t m_firstSliceOffset = 0;
    std::size_t m_firstClaimOffset = 0;
    LabelViews m_labels;              // scratch for readNode
};

} // namespace

// Counted per kind and reported once per kind, so a file full of Services gives one line.
void SnapshotBuilder::skip(std::string_view apiVersion, std::string_view kind) {
    std::string what(kind);
    // A kind topodeck reads, but from an API group it does not (some other Topology), says which.
    if (!kind.empty() && (kind == "Topology" || kind == "HyperNode" || kind == "ResourceFlavor" || isDraKind(kind) ||
                          kind == "ComputeDomain" ||
                          classify({}, kind) != ObjectKind::Other))
        what += " (" + std::string(apiVersion) + ")";
    for (auto& entry : m_skipped) {
        if (entry.first == what) {
            ++entry.second;
            return;
        }
    }
    m_skipped.emplace_back(std::move(what), 1);
}

Snapshot SnapshotBuilder::finish() {
    for (const auto& [what, count] : m_skipped) {
        std::string warning = "skipped " + std::to_string(count) + (count == 1 ? " object " : " objects ");
        warning += what.empty() ? std::string("without a kind") : "of kind " + what;
        snapshot.warnings.push_back(std::move(warning));
    }
    return std::move(snapshot);
}

Status readKubeDocument(JsonValue& root, SnapshotBuilder& out, std::string_view source, int document) {
    return DocumentReader<JsonValue>(out, source, document).readRoot(root);
}

Status readKubeDocument(YamlValue& root, SnapshotBuilder& out, std::string_view source, int document) {
    return DocumentReader<YamlValue>(out, source, document).readRoot(root);
}

} // namespace topodeck::object_reader
