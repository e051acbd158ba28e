#include "core/placement/requests/gang_manifest.h"

#include "core/formats/snapshot_reader.h"
#include "core/formats/yaml_document.h"
#include "core/model/pod_requests.h"
#include "core/values/quantity.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <limits>
#include <map>
#include <optional>
#include <sstream>
#include <utility>

namespace topodeck {

namespace {

constexpr std::string_view kKueuePodSetPrefix = "kueue.x-k8s.io/podset-";
const std::string kKueueRequired = "kueue.x-k8s.io/podset-required-topology";
const std::string kKueuePreferred = "kueue.x-k8s.io/podset-preferred-topology";
const std::string kKueueUnconstrained = "kueue.x-k8s.io/podset-unconstrained-topology";
const std::string kKueueSliceTopology = "kueue.x-k8s.io/podset-slice-required-topology";
const std::string kKueueSliceSize = "kueue.x-k8s.io/podset-slice-size";
const std::string kKueueSliceConstraints = "kueue.x-k8s.io/podset-slice-required-topology-constraints";
const std::string kKueueGroup = "kueue.x-k8s.io/podset-group-name";

const std::string kKaiTopology = "kai.scheduler/topology";
const std::string kKaiRequired = "kai.scheduler/topology-required-placement";
const std::string kKaiPreferred = "kai.scheduler/topology-preferred-placement";
const std::string kKaiSegmentSize = "kai.scheduler/segment-size";
const std::string kKaiSegmentRequired = "kai.scheduler/segment-topology-required-placement";
const std::string kKaiSegmentPreferred = "kai.scheduler/segment-topology-preferred-placement";

constexpr std::string_view kSupportedKinds =
    "batch/v1 Job, jobset.x-k8s.io JobSet, kubeflow.org PyTorchJob, leaderworkerset.x-k8s.io LeaderWorkerSet, "
    "batch.volcano.sh Job";

using StringMap = std::map<std::string, std::string, std::less<>>;

// Reading one object fails at the first problem and the readers are nested deeply, so a failure
// travels up as this local exception and becomes an Error in readGangManifests; it never leaves
// this file.
struct Failure {
    std::string message;
};

YAML::Node undefinedNode() {
    return YAML::Node(YAML::NodeType::Undefined);
}

// Absent and `key: null` are the same to the API server.
bool present(const YAML::Node& node) {
    return node.IsDefined() && !node.IsNull();
}

YAML::Node field(const YAML::Node& map, const std::string& key) {
    if (!map.IsDefined() || !map.IsMap()) return undefinedNode();
    return map[key];
}

std::string describe(const YAML::Node& node) {
    if (node.IsMap()) return "a map";
    if (node.IsSequence()) return "a list";
    if (node.IsScalar()) return '"' + node.Scalar() + '"';
    return "nothing";
}

// Where we are in the input, for messages: "job.yaml:12:7: JobSet trainer in document 2: ".
class Reader {
public:
    Reader(std::string_view source, int document, long item) : m_source(source), m_document(document), m_item(item) {}

    void setObject(std::string object) { m_object = std::move(object); }

    [[noreturn]] void fail(const YAML::Node& at, std::string_view path, std::string_view message) const {
        std::string out = m_source;
        if (at.IsDefined()) {
            const YAML::Mark mark = at.Mark();
            if (!mark.is_null()) out += ':' + std::to_string(mark.line + 1) + ':' + std::to_string(mark.column + 1);
        }
        out += ": ";
        out += m_object.empty() ? std::string("object") : m_object;
        if (m_item >= 0) out += " (items[" + std::to_string(m_item) + "])";
        if (m_document > 0) out += " in document " + std::to_string(m_document);
        out += ": ";
        if (!path.empty()) {
            out += path;
            out += ": ";
        }
        out += message;
        throw Failure{std::move(out)};
    }

    // The node when it is a map or absent; anything else fails.
    YAML::Node map(const YAML::Node& node, std::string_view path) const {
        if (present(node) && !node.IsMap()) fail(node, path, "want a map, got " + describe(node));
        return node;
    }
    YAML::Node list(const YAML::Node& node, std::string_view path) const {
        if (present(node) && !node.IsSequence()) fail(node, path, "want a list, got " + describe(node));
        return node;
    }
    std::string text(const YAML::Node& node, std::string_view path) const {
        if (!present(node)) return {};
        if (!node.IsScalar()) fail(node, path, "want a string, got " + describe(node));
        return node.Scalar();
    }
    // An absent field gives `fallback`; anything but a whole number in [minimum, int32 max] fails.
    std::int32_t wholeNumber(const YAML::Node& node, std::string_view path, std::int32_t fallback,
                             std::int32_t minimum) const {
        if (!present(node)) return fallback;
        const std::string value = node.IsScalar() ? node.Scalar() : std::string();
        std::int64_t number = 0;
        const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), number);
        if (!node.IsScalar() || value.empty() || error != std::errc() || end != value.data() + value.size())
            fail(node, path, "want a whole number, got " + describe(node));
        if (number < minimum || number > std::numeric_limits<std::int32_t>::max())
            fail(node, path,
                 "want a whole number from " + std::to_string(minimum) + " to " +
                     std::to_string(std::numeric_limits<std::int32_t>::max()) + ", got " + value);
        return static_cast<std::int32_t>(number);
    }

    StringMap stringMap(const YAML::Node& node, const std::string& path) const {
        StringMap out;
        if (!present(map(node, path))) return out;
        for (const auto& entry : node) {
            const std::string key = entry.first.Scalar();
            const std::string keyPath = path + '[' + key + ']';
            if (present(entry.second) && !entry.second.IsScalar())
                fail(entry.second, keyPath, "want a string, got " + describe(entry.second));
            out[key] = present(entry.second) ? entry.second.Scalar() : std::string();
        }
        return out;
    }

private:
    std::string m_source;
    int m_document;
    long m_item;
    std::string m_object;
};

// A pod template as the gang needs it.
struct PodTemplate {
    std::string path; // of the template, e.g. "spec.replicatedJobs[0].template.spec.template"
    YAML::Node node;
    StringMap annotations;
    ResourceList perPod;
    std::vector<std::pair<std::string, std::string>> nodeSelector; // sorted by key
    std::vector<Toleration> tolerations;
    std::vector<GangClaim> claims; // spec.resourceClaims

    std::string annotationPath(const std::string& key) const { return path + ".metadata.annotations[" + key + ']'; }
    YAML::Node annotationNode(const std::string& key) const {
        return field(field(field(node, "metadata"), "annotations"), key);
    }
};

// The object a manifest document holds.
struct Object {
    std::string kind;
    std::string name;
    std::string nameSpace;
    std::string source; // for GangRequest::source: "job.yaml (JobSet trainer)"
    YAML::Node root;
    StringMap annotations;
    std::vector<PodTemplate> templates; // every template read, for the misplaced-annotation check

    YAML::Node annotationNode(const std::string& key) const {
        return field(field(field(root, "metadata"), "annotations"), key);
    }
};

ResourceList readResourceList(const Reader& reader, const YAML::Node& node, const std::string& path) {
    ResourceList list;
    if (!present(reader.map(node, path))) return list;
    for (const auto& entry : node) {
        const std::string name = entry.first.Scalar();
        const std::string entryPath = path + '[' + name + ']';
        const std::string text = reader.text(entry.second, entryPath);
        Result<Quantity> quantity = Quantity::parse(text);
        if (!quantity) reader.fail(entry.second, entryPath, quantity.error().message);
        list.set(name, *quantity);
    }
    return list;
}

std::vector<ContainerResources> readContainers(const Reader& reader, const YAML::Node& node, const std::string& path,
                                               bool init) {
    std::vector<ContainerResources> containers;
    if (!present(reader.list(node, path))) return containers;
    for (std::size_t i = 0; i < node.size(); ++i) {
        const YAML::Node item = node[i];
        const std::string itemPath = path + '[' + std::to_string(i) + ']';
        reader.map(item, itemPath);
        ContainerResources container;
        container.name = reader.text(field(item, "name"), itemPath + ".name");
        const YAML::Node resources = reader.map(field(item, "resources"), itemPath + ".resources");
        container.requests = readResourceList(reader, field(resources, "requests"), itemPath + ".resources.requests");
        container.limits = readResourceList(reader, field(resources, "limits"), itemPath + ".resources.limits");
        // restartPolicy: Always makes an init container a sidecar (KEP-753).
        if (init)
            container.restartAlways =
                reader.text(field(item, "restartPolicy"), itemPath + ".restartPolicy") == "Always";
        containers.push_back(std::move(container));
    }
    return containers;
}

// corev1.Toleration, validated as the API server does.
Toleration readToleration(const Reader& reader, const YAML::Node& node, const std::string& path) {
    reader.map(node, path);
    Toleration toleration;
    toleration.key = reader.text(field(node, "key"), path + ".key");
    const std::string op = reader.text(field(node, "operator"), path + ".operator");
    toleration.op = op.empty() ? "Equal" : op;
    toleration.value = reader.text(field(node, "value"), path + ".value");
    toleration.effect = reader.text(field(node, "effect"), path + ".effect");
    if (toleration.op != "Equal" && toleration.op != "Exists")
        reader.fail(field(node, "operator"), path + ".operator", "want Equal or Exists, got \"" + op + '"');
    if (toleration.op == "Exists" && !toleration.value.empty())
        reader.fail(field(node, "value"), path + ".value", "must be empty when operator is Exists");
    if (toleration.key.empty() && toleration.op != "Exists")
        reader.fail(node, path + ".operator", "must be Exists when key is empty");
    if (!toleration.effect.empty() && toleration.effect != "NoSchedule" && toleration.effect != "PreferNoSchedule" &&
        toleration.effect != "NoExecute")
        reader.fail(field(node, "effect"), path + ".effect",
                    "want NoSchedule, PreferNoSchedule or NoExecute, got \"" + toleration.effect + '"');
    return toleration;
}

// corev1.PodResourceClaim: a name and exactly one of resourceClaimName, resourceClaimTemplateName.
GangClaim readPodClaim(const Reader& reader, const YAML::Node& node, const std::string& path) {
    reader.map(node, path);
    GangClaim claim;
    claim.name = reader.text(field(node, "name"), path + ".name");
    if (claim.name.empty()) reader.fail(node, path + ".name", "is missing");
    claim.claimName = reader.text(field(node, "resourceClaimName"), path + ".resourceClaimName");
    claim.templateName = reader.text(field(node, "resourceClaimTemplateName"), path + ".resourceClaimTemplateName");
    if (claim.claimName.empty() == claim.templateName.empty())
        reader.fail(node, path, "want exactly one of resourceClaimName and resourceClaimTemplateName");
    return claim;
}

PodTemplate readPodTemplate(const Reader& reader, const YAML::Node& node, const std::string& path) {
    if (!present(node)) reader.fail(node, path, "is missing");
    reader.map(node, path);
    PodTemplate pod;
    pod.path = path;
    pod.node = node;
    const YAML::Node metadata = reader.map(field(node, "metadata"), path + ".metadata");
    pod.annotations = reader.stringMap(field(metadata, "annotations"), path + ".metadata.annotations");

    const std::string specPath = path + ".spec";
    const YAML::Node spec = field(node, "spec");
    if (!present(spec)) reader.fail(node, specPath, "is missing");
    reader.map(spec, specPath);

    PodResourceSpec resources;
    resources.containers = readContainers(reader, field(spec, "containers"), specPath + ".containers", false);
    if (resources.containers.empty()) reader.fail(spec, specPath + ".containers", "is missing");
    resources.initContainers =
        readContainers(reader, field(spec, "initContainers"), specPath + ".initContainers", true);
    resources.overhead = readResourceList(reader, field(spec, "overhead"), specPath + ".overhead");
    pod.perPod = effectivePodRequests(resources);

    const StringMap selector = reader.stringMap(field(spec, "nodeSelector"), specPath + ".nodeSelector");
    pod.nodeSelector.assign(selector.begin(), selector.end());

    const YAML::Node tolerations = reader.list(field(spec, "tolerations"), specPath + ".tolerations");
    if (present(tolerations))
        for (std::size_t i = 0; i < tolerations.size(); ++i)
            pod.tolerations.push_back(
                readToleration(reader, tolerations[i], specPath + ".tolerations[" + std::to_string(i) + ']'));

    const YAML::Node claims = reader.list(field(spec, "resourceClaims"), specPath + ".resourceClaims");
    if (present(claims))
        for (std::size_t i = 0; i < claims.size(); ++i)
            pod.claims.push_back(
                readPodClaim(reader, claims[i], specPath + ".resourceClaims[" + std::to_string(i) + ']'));
    return pod;
}

// strconv.ParseBool, which Kueue uses for podset-unconstrained-topology.
bool parseGoBool(std::string_view text, bool& out) {
    static constexpr std::string_view kTrue[] = {"1", "t", "T", "TRUE", "true", "True"};
    static constexpr std::string_view kFalse[] = {"0", "f", "F", "FALSE", "false", "False"};
    const bool isTrue = std::find(std::begin(kTrue), std::end(kTrue), text) != std::end(kTrue);
    const bool isFalse = std::find(std::begin(kFalse), std::end(kFalse), text) != std::end(kFalse);
    out = isTrue;
    return isTrue || isFalse;
}

// A whole number in an annotation value (strconv.ParseInt / Atoi).
bool parseAnnotationInt(std::string_view text, std::int64_t& out) {
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), out);
    return !text.empty() && error == std::errc() && end == text.data() + text.size();
}

// The podset-slice-required-topology-constraints JSON list, validated as Kueue's webhook does.
std::vector<SliceLayer> readSliceConstraints(const Reader& reader, const PodTemplate& pod, std::int32_t pods) {
    const std::string path = pod.annotationPath(kKueueSliceConstraints);
    const YAML::Node at = pod.annotationNode(kKueueSliceConstraints);
    const std::string& json = pod.annotations.at(kKueueSliceConstraints);
    Result<YAML::Node> loaded = loadYamlDocument(json, "the annotation");
    if (!loaded) reader.fail(at, path, "must be a valid JSON array: " + loaded.error().message);
    const YAML::Node list = *loaded;
    if (!list.IsSequence()) reader.fail(at, path, "must be a valid JSON array, got " + describe(list));
    if (list.size() == 0 || list.size() > 3) reader.fail(at, path, "must have between 1 and 3 layers");
    std::vector<SliceLayer> layers;
    for (std::size_t i = 0; i < list.size(); ++i) {
        const YAML::Node entry = list[i];
        const std::string entryPath = path + '[' + std::to_string(i) + ']';
        if (!entry.IsMap()) reader.fail(at, entryPath, "want a map, got " + describe(entry));
        if (present(field(entry, "sizes")))
            reader.fail(at, entryPath + ".sizes", "uneven slice sizes are not supported; give size");
        const YAML::Node topology = field(entry, "topology");
        if (!present(topology) || !topology.IsScalar() || topology.Scalar().empty())
            reader.fail(at, entryPath + ".topology", "want a node label key");
        const YAML::Node size = field(entry, "size");
        std::int64_t value = 0;
        // A quoted "16" is a JSON string, which Kueue's int32 field rejects.
        if (!present(size) || !size.IsScalar() || size.Tag() == "!" || !parseAnnotationInt(size.Scalar(), value))
            reader.fail(at, entryPath + ".size", "want a number, got " + (present(size) ? describe(size) : "nothing"));
        if (value < 1 || value > std::numeric_limits<std::int32_t>::max())
            reader.fail(at, entryPath + ".size", "must be greater than or equal to 1");
        for (const SliceLayer& earlier : layers)
            if (earlier.level == topology.Scalar())
                reader.fail(at, entryPath + ".topology", "duplicate layer " + earlier.level);
        if (!layers.empty() && layers.back().size % value != 0)
            reader.fail(at, entryPath + ".size",
                        "must evenly divide the parent layer size " + std::to_string(layers.back().size));
        layers.push_back({topology.Scalar(), static_cast<std::int32_t>(value)});
    }
    if (layers.front().size > pods)
        reader.fail(at, path + "[0].size", "must not be greater than pod set count " + std::to_string(pods));
    return layers;
}

// Kueue's PodSetTopologyRequest from the pod template's annotations (NewPodSetTopologyRequest,
// with the webhook's validation).
// kueue.x-k8s.io/podset-group-name as ValidateTASPodSetRequest checks it (jobframework/tas_validation.go):
// not a number, beside a required or preferred level, without slices. That a group is two PodSets,
// one of them a single pod, the engine checks (ValidatePodSetGroupingTopology).
std::string readKueueGroup(const Reader& reader, const PodTemplate& pod) {
    const StringMap& a = pod.annotations;
    const std::string& name = a.at(kKueueGroup);
    const YAML::Node node = pod.annotationNode(kKueueGroup);
    const std::string path = pod.annotationPath(kKueueGroup);
    std::uint64_t number = 0;
    const auto [end, error] = std::from_chars(name.data(), name.data() + name.size(), number);
    if (!name.empty() && error == std::errc() && end == name.data() + name.size())
        reader.fail(node, path, "Invalid value: \"" + name + "\": must not be a number");
    for (const std::string* slice : {&kKueueSliceSize, &kKueueSliceTopology, &kKueueSliceConstraints})
        if (a.contains(*slice)) reader.fail(node, path, "may not be set when '" + *slice + "' is specified");
    if (!a.contains(kKueueRequired) && !a.contains(kKueuePreferred))
        reader.fail(node, path,
                    "may not be set when neither '" + kKueuePreferred + "' nor '" + kKueueRequired + "' is specified");
    return name;
}

KueueConstraint readKueue(const Reader& reader, const PodTemplate& pod, std::int32_t pods) {
    const StringMap& a = pod.annotations;
    const bool required = a.contains(kKueueRequired);
    const bool preferred = a.contains(kKueuePreferred);
    const bool unconstrained = a.contains(kKueueUnconstrained);
    const bool sliceTopology = a.contains(kKueueSliceTopology);
    const bool sliceSize = a.contains(kKueueSliceSize);
    const bool sliceConstraints = a.contains(kKueueSliceConstraints);
    const std::string annotationsPath = pod.path + ".metadata.annotations";
    const YAML::Node annotationsNode = field(field(pod.node, "metadata"), "annotations");

    if (int(required) + int(preferred) + int(unconstrained) > 1)
        reader.fail(annotationsNode, annotationsPath,
                    "must not contain more than one topology annotation: [\"" + kKueueRequired + "\", \"" +
                        kKueuePreferred + "\", \"" + kKueueUnconstrained + "\"]");

    KueueConstraint kueue;
    auto level = [&](const std::string& key) {
        const std::string& value = a.at(key);
        if (value.empty()) reader.fail(pod.annotationNode(key), pod.annotationPath(key), "want a node label key");
        return value;
    };
    if (required) {
        kueue.mode = KueueConstraint::Mode::Required;
        kueue.level = level(kKueueRequired);
    } else if (preferred) {
        kueue.mode = KueueConstraint::Mode::Preferred;
        kueue.level = level(kKueuePreferred);
    } else if (unconstrained) {
        bool value = false;
        if (!parseGoBool(a.at(kKueueUnconstrained), value))
            reader.fail(pod.annotationNode(kKueueUnconstrained), pod.annotationPath(kKueueUnconstrained),
                        "must be a boolean value, got \"" + a.at(kKueueUnconstrained) + '"');
        // "false" leaves the request as if the annotation were absent.
        if (value) kueue.mode = KueueConstraint::Mode::Unconstrained;
    }
    if (a.contains(kKueueGroup)) kueue.group = readKueueGroup(reader, pod);

    if (sliceConstraints) {
        if (sliceTopology || sliceSize)
            reader.fail(pod.annotationNode(kKueueSliceConstraints), pod.annotationPath(kKueueSliceConstraints),
                        "may not be set when '" + (sliceTopology ? kKueueSliceTopology : kKueueSliceSize) +
                            "' is specified");
        kueue.slices = readSliceConstraints(reader, pod, pods);
        return kueue;
    }
    if (sliceTopology && !sliceSize)
        reader.fail(pod.annotationNode(kKueueSliceTopology), pod.annotationPath(kKueueSliceSize),
                    "must be set when '" + kKueueSliceTopology + "' is specified");
    if (sliceSize && !sliceTopology)
        reader.fail(pod.annotationNode(kKueueSliceSize), pod.annotationPath(kKueueSliceSize),
                    "may not be set when '" + kKueueSliceTopology + "' is not specified");
    if (sliceSize) {
        std::int64_t size = 0;
        const std::string& text = a.at(kKueueSliceSize);
        if (!parseAnnotationInt(text, size) || size > std::numeric_limits<std::int32_t>::max())
            reader.fail(pod.annotationNode(kKueueSliceSize), pod.annotationPath(kKueueSliceSize),
                        "must be a numeric value, got \"" + text + '"');
        if (size < 1)
            reader.fail(pod.annotationNode(kKueueSliceSize), pod.annotationPath(kKueueSliceSize),
                        "must be greater than or equal to 1");
        if (size > pods)
            reader.fail(pod.annotationNode(kKueueSliceSize), pod.annotationPath(kKueueSliceSize),
                        "must not be greater than pod set count " + std::to_string(pods));
        kueue.slices.push_back({level(kKueueSliceTopology), static_cast<std::int32_t>(size)});
    }
    return kueue;
}

// KAI: the job-level placement from the object's metadata (the podgrouper reads the top owner),
// the Topology name and the segments from the pod template (the PyTorchJob grouper reads the
// worker template first, then the owner for the Topology name).
void readKai(const Reader& reader, const Object& object, const PodTemplate& pod, GangRequest& gang) {
    auto objectValue = [&](const std::string& key) {
        const auto it = object.annotations.find(key);
        return it == object.annotations.end() ? std::string() : it->second;
    };
    auto podValue = [&](const std::string& key) {
        const auto it = pod.annotations.find(key);
        return it == pod.annotations.end() ? std::string() : it->second;
    };
    gang.kai.required = objectValue(kKaiRequired);
    gang.kai.preferred = objectValue(kKaiPreferred);
    gang.topologyName = podValue(kKaiTopology);
    if (gang.topologyName.empty()) gang.topologyName = objectValue(kKaiTopology);

    const bool hasSize = pod.annotations.contains(kKaiSegmentSize);
    if (hasSize) {
        std::int64_t size = 0;
        const std::string text = podValue(kKaiSegmentSize);
        if (!parseAnnotationInt(text, size) || size < 1 || size > std::numeric_limits<std::int32_t>::max())
            reader.fail(pod.annotationNode(kKaiSegmentSize), pod.annotationPath(kKaiSegmentSize),
                        "want a whole number of pods of at least 1, got \"" + text + '"');
        gang.kai.segmentSize = static_cast<std::int32_t>(size);
    }
    for (const std::string* key : {&kKaiSegmentRequired, &kKaiSegmentPreferred}) {
        if (!pod.annotations.contains(*key)) continue;
        if (!hasSize)
            reader.fail(pod.annotationNode(*key), pod.annotationPath(*key),
                        "needs " + kKaiSegmentSize + " on the same pod template");
        (key == &kKaiSegmentRequired ? gang.kai.segmentRequired : gang.kai.segmentPreferred) = podValue(*key);
    }
}

GangRequest makeGang(const Reader& reader, const Object& object, const PodTemplate& pod, std::string name,
                     std::int32_t pods) {
    GangRequest gang;
    gang.name = std::move(name);
    gang.nameSpace = object.nameSpace;
    gang.pods = pods;
    gang.perPod = pod.perPod;
    gang.nodeSelector = pod.nodeSelector;
    gang.tolerations = pod.tolerations;
    gang.claims = pod.claims;
    gang.kueue = readKueue(reader, pod, pods);
    readKai(reader, object, pod, gang);
    gang.source = object.source;
    return gang;
}

// An annotation where its scheduler never looks would make the dry-run answer a different
// question than the scheduler: say so instead.
void checkAnnotationPlacement(const Reader& reader, const Object& object) {
    auto onAnyTemplate = [&](const std::string& key) {
        return std::any_of(object.templates.begin(), object.templates.end(),
                           [&](const PodTemplate& pod) { return pod.annotations.contains(key); });
    };
    for (const auto& [key, value] : object.annotations) {
        const bool kueue = std::string_view(key).starts_with(kKueuePodSetPrefix);
        const bool segment = key == kKaiSegmentSize || key == kKaiSegmentRequired || key == kKaiSegmentPreferred;
        if ((kueue || segment) && !onAnyTemplate(key))
            reader.fail(object.annotationNode(key), "metadata.annotations[" + key + ']',
                        std::string(kueue ? "Kueue" : "KAI") +
                            " reads this annotation from the pod template's metadata.annotations, not the " +
                            object.kind + "'s");
    }
    for (const PodTemplate& pod : object.templates)
        for (const std::string* key : {&kKaiRequired, &kKaiPreferred})
            if (pod.annotations.contains(*key) && !object.annotations.contains(*key))
                reader.fail(pod.annotationNode(*key), pod.annotationPath(*key),
                            "KAI reads this annotation from the " + object.kind +
                                "'s metadata.annotations, not the pod template's");
}

// ValidatePodSetGroupingTopology (jobframework/tas_validation.go), as the JobSet and LeaderWorkerSet
// webhooks run it on the PodSets (template i has counts[i] pods): a kueue.x-k8s.io/podset-group-name
// groups exactly two PodSets, one of them a single pod, that ask the same required or preferred level.
void checkPodSetGroups(const Reader& reader, const Object& object, const std::vector<std::int32_t>& counts) {
    std::vector<std::string> names;
    std::vector<std::vector<std::size_t>> groups;
    for (std::size_t i = 0; i < object.templates.size(); ++i) {
        const auto it = object.templates[i].annotations.find(kKueueGroup);
        if (it == object.templates[i].annotations.end()) continue;
        const auto found = std::find(names.begin(), names.end(), it->second);
        if (found == names.end()) {
            names.push_back(it->second);
            groups.push_back({i});
        } else {
            groups[static_cast<std::size_t>(found - names.begin())].push_back(i);
        }
    }
    for (std::size_t g = 0; g < groups.size(); ++g) {
        const PodTemplate& a = object.templates[groups[g].front()];
        const std::string invalid = "Invalid value: \"" + names[g] + "\": ";
        if (groups[g].size() != 2)
            reader.fail(a.annotationNode(kKueueGroup), a.annotationPath(kKueueGroup),
                        invalid + "can only define groups of exactly 2 pod sets, got: " +
                            std::to_string(groups[g].size()) + " pod set(s)");
        const PodTemplate& b = object.templates[groups[g][1]];
        const std::int32_t countA = counts[groups[g][0]];
        const std::int32_t countB = counts[groups[g][1]];
        if (countA != 1 && countB != 1)
            reader.fail(a.annotationNode(kKueueGroup), a.annotationPath(kKueueGroup),
                        invalid + "can only define groups where at least one pod set has only 1 replica, got: " +
                            std::to_string(countA) + " replica(s) and " + std::to_string(countB) +
                            " replica(s) in the group");
        // topologyRequestsValid: each asks a required or preferred level, and the same one.
        const auto value = [](const PodTemplate& t, const std::string& key) -> std::optional<std::string> {
            const auto it = t.annotations.find(key);
            return it == t.annotations.end() ? std::nullopt : std::optional<std::string>(it->second);
        };
        const bool levelled = (value(a, kKueueRequired) || value(a, kKueuePreferred)) &&
                              (value(b, kKueueRequired) || value(b, kKueuePreferred));
        if (!levelled || value(a, kKueueRequired) != value(b, kKueueRequired) ||
            value(a, kKueuePreferred) != value(b, kKueuePreferred))
            reader.fail(field(field(a.node, "metadata"), "annotations"), a.path + ".metadata.annotations",
                        "must specify '" + kKueueRequired + "' or '" + kKueuePreferred + "' topology consistent with '" +
                            b.path + ".metadata.annotations' in group '" + names[g] + "'");
    }
}

// A batch/v1 JobSpec's pod count as Kueue counts it: parallelism (defaulted to 1), capped by
// completions.
std::int32_t jobPods(const Reader& reader, const YAML::Node& jobSpec, const std::string& path) {
    const std::int32_t parallelism = reader.wholeNumber(field(jobSpec, "parallelism"), path + ".parallelism", 1, 0);
    const YAML::Node completionsNode = field(jobSpec, "completions");
    const std::int32_t completions = reader.wholeNumber(completionsNode, path + ".completions", parallelism, 0);
    return std::min(parallelism, completions);
}

void requirePods(const Reader& reader, const YAML::Node& at, const std::string& path, std::int32_t pods) {
    if (pods < 1) reader.fail(at, path, "asks for no pods");
}

// Two gangs that differ only in their name and size (and, for Volcano, the partition count).
bool sameShape(GangRequest a, GangRequest b) {
    a.name = b.name;
    a.pods = b.pods;
    a.volcano.minPartitions = b.volcano.minPartitions = 0;
    a.volcano.minAvailable = b.volcano.minAvailable = std::nullopt;
    return a == b;
}

// One scheduler object's gang from its parts, named after the object: a Kueue Workload's PodSets,
// KAI's subgroups, Volcano's tasks. Kueue places each PodSet under its own topology request, so
// parts stay apart unless `mergeAlike` (a Volcano Job, which Volcano places as one) and they are
// alike; then they add up into one shape.
GangRequest combineParts(const std::vector<GangRequest>& parts, const std::string& name, bool mergeAlike) {
    GangRequest gang = parts.front();
    gang.name = name;
    std::int64_t pods = 0;
    for (const GangRequest& part : parts) pods += part.pods;
    gang.pods = static_cast<std::int32_t>(pods);
    const bool alike = std::all_of(parts.begin(), parts.end(), [&](const GangRequest& part) {
        return sameShape(part, parts.front()) &&
               (part.volcano.minPartitions == 0) == (parts.front().volcano.minPartitions == 0);
    });
    if (parts.size() == 1 || (mergeAlike && alike)) {
        gang.volcano.minPartitions = 0;
        for (const GangRequest& part : parts) gang.volcano.minPartitions += part.volcano.minPartitions;
        return gang;
    }
    // The job-level networkTopology is the gang's; partitions are each task's own. KAI's segments
    // come from the part whose template carries them (a PyTorchJob's workers: KAI's podgrouper
    // cuts them into worker-<i> subgroups).
    gang.volcano = VolcanoConstraint{parts.front().volcano.networkTopology, 0, 0, std::nullopt};
    for (const GangRequest& part : parts)
        if (part.kai.segmentSize > 0) gang.kai = part.kai;
    for (const GangRequest& part : parts) gang.parts.push_back(part.asPart());
    return gang;
}

void readBatchJob(const Reader& reader, Object& object, std::vector<GangRequest>& out) {
    const YAML::Node spec = reader.map(field(object.root, "spec"), "spec");
    if (!present(spec)) reader.fail(object.root, "spec", "is missing");
    const std::int32_t pods = jobPods(reader, spec, "spec");
    requirePods(reader, spec, "spec.parallelism", pods);
    object.templates.push_back(readPodTemplate(reader, field(spec, "template"), "spec.template"));
    checkAnnotationPlacement(reader, object);
    out.push_back(makeGang(reader, object, object.templates.back(), object.name, pods));
}

void readJobSet(const Reader& reader, Object& object, std::vector<GangRequest>& out) {
    const YAML::Node spec = reader.map(field(object.root, "spec"), "spec");
    if (!present(spec)) reader.fail(object.root, "spec", "is missing");
    const YAML::Node jobs = reader.list(field(spec, "replicatedJobs"), "spec.replicatedJobs");
    if (!present(jobs) || jobs.size() == 0) reader.fail(spec, "spec.replicatedJobs", "is missing");
    std::vector<std::pair<std::string, std::int32_t>> podSets;
    for (std::size_t i = 0; i < jobs.size(); ++i) {
        const YAML::Node job = jobs[i];
        const std::string path = "spec.replicatedJobs[" + std::to_string(i) + ']';
        reader.map(job, path);
        const std::string name = reader.text(field(job, "name"), path + ".name");
        if (name.empty()) reader.fail(job, path + ".name", "is missing");
        const std::int32_t replicas = reader.wholeNumber(field(job, "replicas"), path + ".replicas", 1, 0);
        const YAML::Node jobTemplate = reader.map(field(job, "template"), path + ".template");
        const YAML::Node jobSpec = reader.map(field(jobTemplate, "spec"), path + ".template.spec");
        if (!present(jobSpec)) reader.fail(job, path + ".template.spec", "is missing");
        const std::int64_t pods = std::int64_t(replicas) * jobPods(reader, jobSpec, path + ".template.spec");
        if (pods > std::numeric_limits<std::int32_t>::max()) reader.fail(job, path, "asks for too many pods");
        object.templates.push_back(
            readPodTemplate(reader, field(jobSpec, "template"), path + ".template.spec.template"));
        podSets.emplace_back(name, static_cast<std::int32_t>(pods));
    }
    checkAnnotationPlacement(reader, object);
    std::vector<std::int32_t> counts;
    for (const auto& podSet : podSets) counts.push_back(podSet.second);
    std::vector<GangRequest> parts;
    for (std::size_t i = 0; i < podSets.size(); ++i) {
        // A replicatedJob scaled to zero forms no PodSet worth placing.
        if (podSets[i].second == 0) continue;
        parts.push_back(makeGang(reader, object, object.templates[i], podSets[i].first, podSets[i].second));
    }
    requirePods(reader, jobs, "spec.replicatedJobs", static_cast<std::int32_t>(parts.size()));
    checkPodSetGroups(reader, object, counts);
    out.push_back(combineParts(parts, object.name, false));
}

void readPyTorchJob(const Reader& reader, Object& object, std::vector<GangRequest>& out) {
    const YAML::Node spec = reader.map(field(object.root, "spec"), "spec");
    if (!present(spec)) reader.fail(object.root, "spec", "is missing");
    const YAML::Node replicaSpecs = reader.map(field(spec, "pytorchReplicaSpecs"), "spec.pytorchReplicaSpecs");
    if (!present(replicaSpecs) || replicaSpecs.size() == 0) reader.fail(spec, "spec.pytorchReplicaSpecs", "is missing");
    for (const auto& entry : replicaSpecs)
        if (entry.first.Scalar() != "Master" && entry.first.Scalar() != "Worker")
            reader.fail(entry.first, "spec.pytorchReplicaSpecs." + entry.first.Scalar(),
                        "a PyTorchJob has Master and Worker replicas only");
    std::vector<std::pair<std::string, std::int32_t>> podSets;
    // Master first, as Kueue lists the PodSets.
    for (const char* type : {"Master", "Worker"}) {
        const YAML::Node replicaSpec = field(replicaSpecs, type);
        if (!present(replicaSpec)) continue;
        const std::string path = std::string("spec.pytorchReplicaSpecs.") + type;
        reader.map(replicaSpec, path);
        const std::int32_t replicas = reader.wholeNumber(field(replicaSpec, "replicas"), path + ".replicas", 1, 0);
        object.templates.push_back(readPodTemplate(reader, field(replicaSpec, "template"), path + ".template"));
        std::string lower = type;
        std::transform(lower.begin(), lower.end(), lower.begin(),
                       [](unsigned char c) { return char(std::tolower(c)); });
        podSets.emplace_back(lower, replicas);
    }
    checkAnnotationPlacement(reader, object);
    std::vector<GangRequest> parts;
    for (std::size_t i = 0; i < podSets.size(); ++i)
        if (podSets[i].second > 0)
            parts.push_back(makeGang(reader, object, object.templates[i], podSets[i].first, podSets[i].second));
    requirePods(reader, replicaSpecs, "spec.pytorchReplicaSpecs", static_cast<std::int32_t>(parts.size()));
    out.push_back(combineParts(parts, object.name, false));
}

void readLeaderWorkerSet(const Reader& reader, Object& object, std::vector<GangRequest>& out) {
    const YAML::Node spec = reader.map(field(object.root, "spec"), "spec");
    if (!present(spec)) reader.fail(object.root, "spec", "is missing");
    const std::int32_t replicas = reader.wholeNumber(field(spec, "replicas"), "spec.replicas", 1, 0);
    const std::string lwtPath = "spec.leaderWorkerTemplate";
    const YAML::Node lwt = reader.map(field(spec, "leaderWorkerTemplate"), lwtPath);
    if (!present(lwt)) reader.fail(spec, lwtPath, "is missing");
    const std::int32_t size = reader.wholeNumber(field(lwt, "size"), lwtPath + ".size", 1, 1);
    const bool hasLeader = present(field(lwt, "leaderTemplate"));
    if (hasLeader)
        object.templates.push_back(readPodTemplate(reader, field(lwt, "leaderTemplate"), lwtPath + ".leaderTemplate"));
    object.templates.push_back(readPodTemplate(reader, field(lwt, "workerTemplate"), lwtPath + ".workerTemplate"));
    checkAnnotationPlacement(reader, object);

    std::vector<GangRequest> group;
    if (!hasLeader) {
        group.push_back(makeGang(reader, object, object.templates[0], "worker", size));
    } else {
        // Two PodSets even when the templates are alike (Kueue's leaderworkerset podSets()): Kueue
        // places each under its own topology request, or both in one pass when they share a
        // kueue.x-k8s.io/podset-group-name.
        group.push_back(makeGang(reader, object, object.templates[0], "leader", 1));
        if (size > 1) group.push_back(makeGang(reader, object, object.templates[1], "worker", size - 1));
    }
    checkPodSetGroups(reader, object, hasLeader ? std::vector<std::int32_t>{1, size - 1} : std::vector<std::int32_t>{size});
    // Every group is its own Workload (Kueue) and PodGroup (KAI).
    const GangRequest oneGroup = combineParts(group, object.name, false);
    for (std::int32_t i = 0; i < replicas; ++i) {
        out.push_back(oneGroup);
        out.back().name = object.name + "/group-" + std::to_string(i);
    }
}

std::optional<VolcanoTopology> readVolcanoTopology(const Reader& reader, const YAML::Node& node,
                                                   const std::string& path) {
    if (!present(reader.map(node, path))) return std::nullopt;
    VolcanoTopology topology;
    const std::string mode = reader.text(field(node, "mode"), path + ".mode");
    if (mode == "soft") {
        topology.hard = false;
    } else if (!mode.empty() && mode != "hard") {
        reader.fail(field(node, "mode"), path + ".mode", "want hard or soft, got \"" + mode + '"');
    }
    const YAML::Node tier = field(node, "highestTierAllowed");
    if (present(tier)) topology.highestTierAllowed = reader.wholeNumber(tier, path + ".highestTierAllowed", 0, 0);
    topology.highestTierName = reader.text(field(node, "highestTierName"), path + ".highestTierName");
    if (topology.highestTierAllowed && !topology.highestTierName.empty())
        reader.fail(node, path, "highestTierAllowed and highestTierName cannot be set together");
    return topology;
}

void readVolcanoJob(const Reader& reader, Object& object, std::vector<GangRequest>& out) {
    const YAML::Node spec = reader.map(field(object.root, "spec"), "spec");
    if (!present(spec)) reader.fail(object.root, "spec", "is missing");
    const YAML::Node tasks = reader.list(field(spec, "tasks"), "spec.tasks");
    if (!present(tasks) || tasks.size() == 0) reader.fail(spec, "spec.tasks", "is missing");
    const std::optional<VolcanoTopology> jobTopology =
        readVolcanoTopology(reader, field(spec, "networkTopology"), "spec.networkTopology");

    struct Task {
        std::string name;
        std::int32_t replicas;
        VolcanoConstraint volcano;
    };
    std::vector<Task> read;
    std::int64_t total = 0;
    for (std::size_t i = 0; i < tasks.size(); ++i) {
        const YAML::Node task = tasks[i];
        const std::string path = "spec.tasks[" + std::to_string(i) + ']';
        reader.map(task, path);
        Task t;
        t.name = reader.text(field(task, "name"), path + ".name");
        if (t.name.empty()) t.name = "default" + std::to_string(i); // Volcano's defaulting webhook
        t.replicas = reader.wholeNumber(field(task, "replicas"), path + ".replicas", 0, 0);
        const bool minGiven = present(field(task, "minAvailable"));
        const std::int32_t taskMin =
            reader.wholeNumber(field(task, "minAvailable"), path + ".minAvailable", t.replicas, 0);
        if (taskMin > t.replicas)
            reader.fail(field(task, "minAvailable"), path + ".minAvailable",
                        "is greater than replicas (" + std::to_string(t.replicas) + ')');
        t.volcano.minAvailable = taskMin;
        t.volcano.networkTopology = jobTopology;

        const std::string policyPath = path + ".partitionPolicy";
        const YAML::Node policy = reader.map(field(task, "partitionPolicy"), policyPath);
        if (present(policy)) {
            const std::int32_t partitions =
                reader.wholeNumber(field(policy, "totalPartitions"), policyPath + ".totalPartitions", 0, 1);
            const std::int32_t size =
                reader.wholeNumber(field(policy, "partitionSize"), policyPath + ".partitionSize", 0, 1);
            if (partitions == 0) reader.fail(policy, policyPath + ".totalPartitions", "is missing");
            if (size == 0) reader.fail(policy, policyPath + ".partitionSize", "is missing");
            if (std::int64_t(partitions) * size != t.replicas)
                reader.fail(policy, policyPath,
                            "totalPartitions x partitionSize (" + std::to_string(partitions) + " x " +
                                std::to_string(size) + ") must equal replicas (" + std::to_string(t.replicas) + ')');
            t.volcano.partitionSize = size;
            t.volcano.minPartitions =
                reader.wholeNumber(field(policy, "minPartitions"), policyPath + ".minPartitions", 0, 0);
            if (t.volcano.minPartitions > partitions)
                reader.fail(field(policy, "minPartitions"), policyPath + ".minPartitions",
                            "is greater than totalPartitions (" + std::to_string(partitions) + ')');
            t.volcano.partitionTopology =
                readVolcanoTopology(reader, field(policy, "networkTopology"), policyPath + ".networkTopology");
            // The mutating webhook's default for a task with minPartitions (mutateSpec).
            if (!minGiven && t.volcano.minPartitions > 0) t.volcano.minAvailable = t.volcano.minPartitions * size;
        }
        object.templates.push_back(readPodTemplate(reader, field(task, "template"), path + ".template"));
        total += t.replicas;
        read.push_back(std::move(t));
    }
    if (total > std::numeric_limits<std::int32_t>::max()) reader.fail(tasks, "spec.tasks", "asks for too many pods");
    requirePods(reader, tasks, "spec.tasks", static_cast<std::int32_t>(total));
    const YAML::Node minAvailable = field(spec, "minAvailable");
    std::int32_t jobMin = reader.wholeNumber(minAvailable, "spec.minAvailable", 0, 0);
    if (jobMin > total)
        reader.fail(minAvailable, "spec.minAvailable",
                    "should not be greater than total replicas in tasks (" + std::to_string(total) + ')');
    // patchDefaultMinAvailable: 0 is the tasks' minAvailable summed.
    if (jobMin == 0)
        for (const Task& t : read) jobMin += *t.volcano.minAvailable;
    checkAnnotationPlacement(reader, object);

    std::vector<GangRequest> perTask;
    bool everyPod = true; // every task needs all its pods: alike tasks may add up into one shape
    for (std::size_t i = 0; i < read.size(); ++i) {
        if (read[i].replicas == 0) continue;
        GangRequest gang = makeGang(reader, object, object.templates[i], read[i].name, read[i].replicas);
        gang.volcano = read[i].volcano;
        // A task's minimum is its own unless it is all its pods or what its minPartitions make.
        const VolcanoConstraint& v = read[i].volcano;
        everyPod = everyPod && (*v.minAvailable == read[i].replicas ||
                                (v.minPartitions > 0 && *v.minAvailable == v.minPartitions * v.partitionSize));
        perTask.push_back(std::move(gang));
    }
    // One gang, as Volcano's PodGroup is one, under the job's networkTopology, its minMember the
    // job's minAvailable; tasks with their own minimum stay apart (the PodGroup's minTaskMember).
    out.push_back(combineParts(perTask, object.name, everyPod));
    out.back().volcano.minAvailable = jobMin;
}

std::string_view apiGroup(std::string_view apiVersion) {
    const std::size_t slash = apiVersion.find('/');
    return slash == std::string_view::npos ? std::string_view() : apiVersion.substr(0, slash);
}

// What a manifest file holds: its gangs, and the claim templates and claims their pods name.
struct ManifestContents {
    std::vector<GangRequest> gangs;
    std::map<std::string, ResourceClaimSpec, std::less<>> claimSpecs; // "template:ns/name", "claim:ns/name"
};

// A ResourceClaimTemplate or ResourceClaim beside the gang, read as a snapshot reads it (every
// version of resource.k8s.io).
void readClaimDocument(const Reader& reader, const YAML::Node& root, std::string_view source, ManifestContents& out) {
    YAML::Emitter emitter;
    emitter << root;
    Result<Snapshot> read = readSnapshotText(emitter.c_str(), source);
    if (!read) reader.fail(root, {}, read.error().message);
    for (const ResourceClaimTemplate& claimTemplate : read->resourceClaimTemplates)
        out.claimSpecs["template:" + claimTemplate.key()] = claimTemplate.spec;
    for (const ResourceClaim& claim : read->resourceClaims) out.claimSpecs["claim:" + claim.key()] = claim.spec;
}

// The specs of the claims the manifest's own documents define.
void attachClaimSpecs(ManifestContents& contents) {
    auto attach = [&](const std::string& nameSpace, std::vector<GangClaim>& claims) {
        for (GangClaim& claim : claims) {
            const std::string key = claim.shared() ? "claim:" + nameSpace + '/' + claim.claimName
                                                   : "template:" + nameSpace + '/' + claim.templateName;
            if (const auto found = contents.claimSpecs.find(key); found != contents.claimSpecs.end())
                claim.spec = found->second;
        }
    };
    for (GangRequest& gang : contents.gangs) {
        attach(gang.nameSpace, gang.claims);
        for (GangPart& part : gang.parts) attach(gang.nameSpace, part.claims);
    }
}

void readObject(const Reader& base, const YAML::Node& root, std::string_view source, ManifestContents& contents) {
    std::vector<GangRequest>& out = contents.gangs;
    Reader reader = base;
    if (!root.IsMap()) reader.fail(root, {}, "want a Kubernetes object, got " + describe(root));
    Object object;
    object.root = root;
    object.kind = reader.text(field(root, "kind"), "kind");
    const std::string apiVersion = reader.text(field(root, "apiVersion"), "apiVersion");
    if (object.kind.empty()) reader.fail(root, "kind", "is missing");
    const YAML::Node metadata = reader.map(field(root, "metadata"), "metadata");
    object.name = reader.text(field(metadata, "name"), "metadata.name");
    if (object.name.empty()) object.name = reader.text(field(metadata, "generateName"), "metadata.generateName");
    reader.setObject(object.kind + (object.name.empty() ? std::string() : ' ' + object.name));
    if (object.name.empty()) reader.fail(root, "metadata.name", "is missing");
    if (apiVersion.empty()) reader.fail(root, "apiVersion", "is missing");
    object.nameSpace = reader.text(field(metadata, "namespace"), "metadata.namespace");
    if (object.nameSpace.empty()) object.nameSpace = "default";
    object.annotations = reader.stringMap(field(metadata, "annotations"), "metadata.annotations");
    object.source = std::string(source) + " (" + object.kind + ' ' + object.name + ')';

    const std::string_view group = apiGroup(apiVersion);
    if ((object.kind == "ResourceClaimTemplate" || object.kind == "ResourceClaim") && group == "resource.k8s.io")
        return readClaimDocument(reader, root, source, contents);
    if (object.kind == "Job" && apiVersion == "batch/v1") return readBatchJob(reader, object, out);
    if (object.kind == "JobSet" && group == "jobset.x-k8s.io") return readJobSet(reader, object, out);
    if (object.kind == "PyTorchJob" && group == "kubeflow.org") return readPyTorchJob(reader, object, out);
    if (object.kind == "LeaderWorkerSet" && group == "leaderworkerset.x-k8s.io")
        return readLeaderWorkerSet(reader, object, out);
    if (object.kind == "Job" && group == "batch.volcano.sh") return readVolcanoJob(reader, object, out);
    reader.fail(field(root, "kind"), {},
                apiVersion + ' ' + object.kind +
                    " is not a gang topodeck reads; supported: " + std::string(kSupportedKinds));
}

void readDocument(const YAML::Node& root, std::string_view source, int document, ManifestContents& out) {
    if (!present(root)) return; // an empty document
    const Reader reader(source, document, -1);
    if (root.IsMap() && field(root, "kind").IsScalar() && field(root, "kind").Scalar() == "List") {
        const YAML::Node items = field(root, "items");
        if (present(items) && !items.IsSequence()) reader.fail(items, "items", "want a list, got " + describe(items));
        if (!present(items)) return;
        for (std::size_t i = 0; i < items.size(); ++i)
            readObject(Reader(source, document, static_cast<long>(i)), items[i], source, out);
        return;
    }
    readObject(reader, root, source, out);
}

} // namespace

Result<std::vector<GangRequest>> readGangManifests(std::string_view text, std::string_view sourceName) {
    ManifestContents contents;
    std::vector<GangRequest>& gangs = contents.gangs;
    Result<std::vector<YAML::Node>> documents = loadYamlDocuments(text, sourceName);
    if (!documents) return documents.error();
    try {
        const bool several = documents->size() > 1;
        for (std::size_t i = 0; i < documents->size(); ++i)
            readDocument((*documents)[i], sourceName, several ? static_cast<int>(i + 1) : 0, contents);
        attachClaimSpecs(contents);
    } catch (const Failure& failure) {
        return Error{failure.message};
    } catch (const YAML::Exception& e) {
        return Error{std::string(sourceName) + ": " + e.what()};
    }
    if (gangs.empty())
        return Error{std::string(sourceName) + ": no gang to place; expected one of " + std::string(kSupportedKinds)};
    return gangs;
}

Result<std::vector<GangRequest>> readGangManifestFile(const std::string& path) {
    std::ifstream file(path, std::ios::binary);
    if (!file) return Error{"cannot open " + path + ": " + std::strerror(errno)};
    std::ostringstream text;
    text << file.rdbuf();
    if (file.bad()) return Error{"cannot read " + path + ": " + std::strerror(errno)};
    return readGangManifests(text.str(), path);
}

} // namespace topodeck
