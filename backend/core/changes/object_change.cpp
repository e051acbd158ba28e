#include "core/changes/object_change.h"

#include "core/exports/topology_exports.h"
#include "core/formats/object_manifests.h"
#include "core/text/json_text.h"
#include "core/text/json_writer.h"
#include "core/topology/hierarchy_sources.h"
#include "core/topology/label_selector.h"

#include <algorithm>
#include <set>

namespace topodeck {

namespace {

// What each kind is called and where the API server serves it: one row a kind.
struct KindFacts {
    ObjectKind kind;
    std::string_view name, title, group, plural, version;
};
constexpr KindFacts kKinds[] = {
    {ObjectKind::HyperNode, "HyperNode", "HyperNode", "topology.volcano.sh", "hypernodes", "v1alpha1"},
    {ObjectKind::KueueTopology, "Topology", "Kueue Topology", "kueue.x-k8s.io", "topologies", "v1beta2"},
    {ObjectKind::ResourceFlavor, "ResourceFlavor", "ResourceFlavor", "kueue.x-k8s.io", "resourceflavors", "v1beta2"},
    {ObjectKind::KaiTopology, "Topology", "KAI Topology", "kai.scheduler", "topologies", "v1alpha1"},
};
const KindFacts& facts(ObjectKind kind) {
    for (const KindFacts& row : kKinds)
        if (row.kind == kind) return row;
    return kKinds[0];
}

// "group/version", the kind's default version where none is given.
std::string apiVersionOf(ObjectKind kind, std::string_view version) {
    return std::string(objectGroup(kind)) + "/" + std::string(version.empty() ? defaultObjectVersion(kind) : version);
}

} // namespace

std::string_view objectKindName(ObjectKind kind) { return facts(kind).name; }
std::string_view objectKindTitle(ObjectKind kind) { return facts(kind).title; }
std::string_view objectGroup(ObjectKind kind) { return facts(kind).group; }
std::string_view objectPlural(ObjectKind kind) { return facts(kind).plural; }
std::string_view defaultObjectVersion(ObjectKind kind) { return facts(kind).version; }

std::string_view objectActionName(ObjectChange::Action action) {
    switch (action) {
    case ObjectChange::Action::Create:
        return "create";
    case ObjectChange::Action::Update:
        return "update";
    case ObjectChange::Action::Delete:
        return "delete";
    }
    return "update";
}

const std::string& objectName(const TopologyObject& object) {
    return std::visit([](const auto& o) -> const std::string& { return o.name; }, object);
}

const std::string& objectResourceVersion(const TopologyObject& object) {
    return std::visit([](const auto& o) -> const std::string& { return o.resourceVersion; }, object);
}

std::string ObjectChange::apiVersion() const { return apiVersionOf(kind, version); }

std::string ObjectChange::describe() const {
    return std::string(objectActionName(action())) + " " + std::string(objectKindTitle(kind)) + " " + name;
}

namespace {

std::string_view topologyOrigin(ObjectKind kind) {
    return kind == ObjectKind::KaiTopology ? "kai" : "kueue";
}

std::string yamlQuoted(std::string_view text) {
    std::string out;
    appendJsonString(out, text);
    return out;
}

// The object with its name set to the change's and no resourceVersion: what the change says it
// should be, compared with what a state holds.
TopologyObject normalised(TopologyObject object, ObjectKind kind, const std::string& name) {
    std::visit(
        [&](auto& o) {
            o.name = name;
            o.resourceVersion.clear();
        },
        object);
    if (auto* spec = std::get_if<TopologySpec>(&object)) {
        spec->origin = topologyOrigin(kind);
        spec->membership.reset();
        spec->notice.clear();
    }
    return object;
}

// A Topology says its levels' label keys; their short names are topodeck's own.
std::vector<std::string> levelKeys(const TopologySpec& spec) {
    std::vector<std::string> keys;
    for (const TopologyLevel& level : spec.levels) keys.push_back(level.nodeLabel);
    return keys;
}

bool sameObject(const TopologyObject& a, const TopologyObject& b) {
    if (a.index() != b.index()) return false;
    if (const auto* x = std::get_if<TopologySpec>(&a)) {
        const auto& y = std::get<TopologySpec>(b);
        return x->name == y.name && x->nvlinkLabel == y.nvlinkLabel && levelKeys(*x) == levelKeys(y);
    }
    return a == b;
}

} // namespace

std::optional<TopologyObject> findObject(const ClusterState& state, ObjectKind kind, std::string_view name) {
    switch (kind) {
    case ObjectKind::HyperNode:
        if (auto it = state.hyperNodes().find(name); it != state.hyperNodes().end()) return TopologyObject(it->second);
        break;
    case ObjectKind::ResourceFlavor:
        if (auto it = state.resourceFlavors().find(name); it != state.resourceFlavors().end())
            return TopologyObject(it->second);
        break;
    case ObjectKind::KueueTopology:
    case ObjectKind::KaiTopology:
        if (auto it = state.topologies().find(name);
            it != state.topologies().end() && it->second.origin == topologyOrigin(kind))
            return TopologyObject(it->second);
        break;
    }
    return std::nullopt;
}

std::optional<ObjectChange> objectChangeTo(const ClusterState& state, ObjectKind kind, std::string name,
                                           std::optional<TopologyObject> desired) {
    ObjectChange change;
    change.kind = kind;
    change.name = std::move(name);
    change.version = defaultObjectVersion(kind);
    if (std::optional<TopologyObject> found = findObject(state, kind, change.name)) {
        change.resourceVersion = objectResourceVersion(*found);
        change.before = normalised(std::move(*found), kind, change.name);
    }
    if (desired) change.after = normalised(std::move(*desired), kind, change.name);
    if (!change.before && !change.after) return std::nullopt;
    if (change.before && change.after && sameObject(*change.before, *change.after)) return std::nullopt;
    return change;
}

void applyObjectChanges(ClusterState& state, const std::vector<ObjectChange>& changes) {
    for (const ObjectChange& change : changes) {
        if (!change.after) {
            switch (change.kind) {
            case ObjectKind::HyperNode:
                state.apply(HyperNodeDeleted{change.name});
                break;
            case ObjectKind::ResourceFlavor:
                state.apply(ResourceFlavorDeleted{change.name});
                break;
            case ObjectKind::KueueTopology:
            case ObjectKind::KaiTopology:
                state.apply(TopologyDeleted{change.name, std::string(topologyOrigin(change.kind))});
                break;
            }
            continue;
        }
        TopologyObject object = normalised(*change.after, change.kind, change.name);
        if (auto* hyperNode = std::get_if<HyperNode>(&object))
            state.apply(HyperNodeUpserted{std::move(*hyperNode)});
        else if (auto* flavor = std::get_if<ResourceFlavor>(&object))
            state.apply(ResourceFlavorUpserted{std::move(*flavor)});
        else if (auto* spec = std::get_if<TopologySpec>(&object))
            state.apply(TopologyUpserted{std::move(*spec)});
    }
}

std::vector<std::string> objectDrift(const ClusterState& state, const std::vector<ObjectChange>& changes) {
    std::vector<std::string> drift;
    for (const ObjectChange& change : changes) {
        const std::string what = std::string(objectKindTitle(change.kind)) + " " + change.name;
        const std::optional<TopologyObject> found = findObject(state, change.kind, change.name);
        if (!change.before) {
            if (found) drift.push_back(what + ": exists now; the plan creates it");
            continue;
        }
        if (!found) {
            drift.push_back(what + ": is gone; the plan found it");
            continue;
        }
        const std::string& version = objectResourceVersion(*found);
        if (!change.resourceVersion.empty() && !version.empty() && version != change.resourceVersion)
            drift.push_back(what + ": resourceVersion is " + version + ", the plan found " + change.resourceVersion);
        else if (!sameObject(normalised(*found, change.kind, change.name), *change.before))
            drift.push_back(what + ": was changed since the plan was made");
    }
    return drift;
}

void takeResourceVersions(std::vector<ObjectChange>& changes, const ClusterState& state) {
    for (ObjectChange& change : changes) {
        if (!change.before || !change.resourceVersion.empty()) continue;
        if (std::optional<TopologyObject> found = findObject(state, change.kind, change.name);
            found && sameObject(normalised(*found, change.kind, change.name), *change.before))
            change.resourceVersion = objectResourceVersion(*found);
    }
}

namespace {

void hyperNodeProblems(const HyperNode& hyperNode, const std::string& what, std::vector<std::string>& problems) {
    if (hyperNode.tier < 0)
        problems.push_back(what + ": spec.tier must be 0 or more, not " + std::to_string(hyperNode.tier));
    if (hyperNode.members.empty()) problems.push_back(what + ": spec.members: Volcano needs at least one member");
    for (std::size_t i = 0; i < hyperNode.members.size(); ++i) {
        const HyperNodeMember& member = hyperNode.members[i];
        const std::string where = what + ": spec.members[" + std::to_string(i) + "]";
        if (member.selector != HyperNodeMember::Selector::Label && member.value.empty())
            problems.push_back(where + ": the selector names nothing");
        if (member.selector == HyperNodeMember::Selector::Exact && member.type == HyperNodeMember::Type::HyperNode)
            if (const std::string problem = nodeNameProblem(member.value); !problem.empty())
                problems.push_back(where + ": \"" + member.value + "\" is not a HyperNode name: " + problem);
    }
}

// Kueue's Topology CRD rules, which KAI's copies: 1 to 16 levels, each key once, hostname only lowest.
void levelsProblems(const TopologySpec& spec, const std::string& what, std::vector<std::string>& problems) {
    if (const std::string problem = kueueLevelsProblem(spec.levels); !problem.empty())
        problems.push_back(what + ": spec.levels: " + problem);
}

void flavorProblems(const ObjectChange& change, const ResourceFlavor& flavor, const std::string& what,
                    std::vector<std::string>& problems) {
    for (const auto& [key, value] : flavor.nodeLabels) {
        if (const std::string problem = labelKeyProblem(key); !problem.empty())
            problems.push_back(what + ": spec.nodeLabels: \"" + key + "\" is not a label key: " + problem);
        else if (const std::string valueProblem = labelValueProblem(value); !valueProblem.empty())
            problems.push_back(what + ": spec.nodeLabels." + key + ": \"" + value + "\": " + valueProblem);
    }
    if (!flavor.topologyName.empty() && flavor.nodeLabels.empty())
        problems.push_back(what + ": spec.topologyName needs spec.nodeLabels (Kueue's rule)");
    if (change.before) {
        const auto& before = std::get<ResourceFlavor>(*change.before);
        if (!before.topologyName.empty() && before.topologyName != flavor.topologyName)
            problems.push_back(what + ": spec.topologyName is immutable once set (\"" + before.topologyName +
                               "\"): delete the flavor and create it again");
    }
}

} // namespace

std::vector<std::string> objectChangeProblems(const std::vector<ObjectChange>& changes, const ClusterState& before,
                                              const ClusterState& after) {
    std::vector<std::string> problems;
    std::set<std::pair<ObjectKind, std::string>> named;
    bool hyperNodes = false;
    for (const ObjectChange& change : changes) {
        const std::string what = std::string(objectKindTitle(change.kind)) + " " + change.name;
        if (!named.emplace(change.kind, change.name).second) problems.push_back(what + ": changed twice in one plan");
        if (const std::string problem = nodeNameProblem(change.name); !problem.empty())
            problems.push_back(what + ": the name: " + problem);
        hyperNodes = hyperNodes || change.kind == ObjectKind::HyperNode;
        if (!change.after) continue;
        const TopologyObject& object = *change.after;
        if (const auto* hyperNode = std::get_if<HyperNode>(&object)) {
            hyperNodeProblems(*hyperNode, what, problems);
        } else if (const auto* flavor = std::get_if<ResourceFlavor>(&object)) {
            flavorProblems(change, *flavor, what, problems);
        } else if (const auto* spec = std::get_if<TopologySpec>(&object)) {
            levelsProblems(*spec, what, problems);
            if (change.before && levelKeys(std::get<TopologySpec>(*change.before)) != levelKeys(*spec))
                problems.push_back(
                    what + ": spec.levels are immutable (the CRD rule): delete the Topology and create it again");
        }
    }
    if (hyperNodes) {
        // Nodes claimed by two HyperNodes of one tier that the plan makes so (not those it found).
        auto claimedTwice = [](const ClusterState& state, Result<std::optional<TopologySpec>>* tree) {
            std::vector<std::string> warnings;
            Result<std::optional<TopologySpec>> read = hyperNodeHierarchy(state, &warnings);
            if (tree) *tree = std::move(read);
            std::erase_if(warnings,
                          [](const std::string& w) { return w.find(" is in HyperNodes ") == std::string::npos; });
            return warnings;
        };
        Result<std::optional<TopologySpec>> tree = std::optional<TopologySpec>();
        const std::vector<std::string> found = claimedTwice(before, nullptr);
        if (std::vector<std::string> made = claimedTwice(after, &tree); !tree) {
            problems.push_back("the HyperNode tree after the plan: " + tree.error().message);
        } else {
            for (const std::string& warning : made)
                if (std::find(found.begin(), found.end(), warning) == found.end())
                    problems.push_back("the HyperNode tree after the plan: " + warning);
        }
    }
    return problems;
}

std::vector<std::string> objectChangeRisks(const std::vector<ObjectChange>& changes, const ClusterState& after) {
    std::vector<std::string> risks;
    for (const ObjectChange& change : changes) {
        if (change.kind == ObjectKind::KueueTopology && !change.after)
            for (const auto& [name, flavor] : after.resourceFlavors())
                if (flavor.topologyName == change.name)
                    risks.push_back("Kueue Topology " + change.name + ": ResourceFlavor " + name +
                                    " still names it, so Kueue keeps it (its finalizer) until no flavor does");
        if (change.kind == ObjectKind::ResourceFlavor && change.after)
            if (const auto& flavor = std::get<ResourceFlavor>(*change.after);
                !flavor.topologyName.empty() && !findObject(after, ObjectKind::KueueTopology, flavor.topologyName))
                risks.push_back("ResourceFlavor " + change.name + ": names Kueue Topology " + flavor.topologyName +
                                ", which the cluster will not have: its workloads get no topology-aware placement");
    }
    return risks;
}

std::string objectManifestJson(ObjectKind kind, std::string_view version, const TopologyObject& object) {
    std::string out;
    JsonWriter json(out);
    const std::string apiVersion = apiVersionOf(kind, version);
    if (const auto* hyperNode = std::get_if<HyperNode>(&object))
        writeHyperNodeManifest(json, *hyperNode);
    else if (const auto* flavor = std::get_if<ResourceFlavor>(&object))
        writeResourceFlavorManifest(json, apiVersion, *flavor);
    else
        writeTopologyManifest(json, apiVersion, std::get<TopologySpec>(object));
    return out;
}

std::string objectManifestYaml(ObjectKind kind, std::string_view version, const TopologyObject& object,
                               std::string_view indent, bool withVersion) {
    const std::string pad(indent);
    const std::string apiVersion = apiVersionOf(kind, version);
    std::string out =
        "apiVersion: " + yamlQuoted(apiVersion) + "\n" + pad + "kind: " + yamlQuoted(objectKindName(kind)) + "\n";
    out += pad + "metadata:\n" + pad + "  name: " + yamlQuoted(objectName(object)) + "\n";
    if (withVersion && !objectResourceVersion(object).empty())
        out += pad + "  resourceVersion: " + yamlQuoted(objectResourceVersion(object)) + "\n";
    if (const auto* spec = std::get_if<TopologySpec>(&object); spec && !spec->nvlinkLabel.empty())
        out += pad + "  annotations:\n" + pad + "    " + yamlQuoted(kNvlinkLabelAnnotation) + ": " +
               yamlQuoted(spec->nvlinkLabel) + "\n";
    out += pad + "spec:\n";
    if (const auto* hyperNode = std::get_if<HyperNode>(&object)) {
        out += pad + "  tier: " + std::to_string(hyperNode->tier) + "\n";
        if (!hyperNode->tierName.empty()) out += pad + "  tierName: " + yamlQuoted(hyperNode->tierName) + "\n";
        out += pad + (hyperNode->members.empty() ? "  members: []\n" : "  members:\n");
        for (const HyperNodeMember& member : hyperNode->members) {
            std::string line; // flow style, one member a line: a reviewer's diff shows the member that moved
            JsonWriter json(line, kReadableJson);
            writeHyperNodeMember(json, member);
            out += pad + "  - " + line + "\n";
        }
    } else if (const auto* flavor = std::get_if<ResourceFlavor>(&object)) {
        out += pad + (flavor->nodeLabels.empty() ? "  nodeLabels: {}\n" : "  nodeLabels:\n");
        for (const auto& [key, value] : flavor->nodeLabels)
            out += pad + "    " + yamlQuoted(key) + ": " + yamlQuoted(value) + "\n";
        if (!flavor->topologyName.empty()) out += pad + "  topologyName: " + yamlQuoted(flavor->topologyName) + "\n";
    } else {
        const auto& spec = std::get<TopologySpec>(object);
        out += pad + (spec.levels.empty() ? "  levels: []\n" : "  levels:\n");
        for (const TopologyLevel& level : spec.levels)
            out += pad + "  - nodeLabel: " + yamlQuoted(level.nodeLabel) + "\n";
    }
    return out;
}

namespace {

// A JSON merge patch of the spec topodeck models, guarded by the object's resourceVersion.
// Lists (members, levels) are replaced whole; what the change takes away is set to null.
std::string updatePatchJson(const ObjectChange& change) {
    std::string out;
    JsonWriter json(out);
    json.beginObject().key("metadata").beginObject().field("resourceVersion", change.resourceVersion);
    auto stringOrNull = [&](std::string_view key, const std::string& value) {
        json.key(key);
        if (value.empty())
            json.null();
        else
            json.value(value);
    };
    if (const auto* spec = std::get_if<TopologySpec>(&*change.after)) {
        json.key("annotations").beginObject();
        stringOrNull(kNvlinkLabelAnnotation, spec->nvlinkLabel);
        json.endObject().endObject().key("spec").beginObject().key("levels").beginArray();
        for (const TopologyLevel& level : spec->levels)
            json.beginObject().field("nodeLabel", level.nodeLabel).endObject();
        json.endArray();
    } else if (const auto* hyperNode = std::get_if<HyperNode>(&*change.after)) {
        json.endObject().key("spec").beginObject().field("tier", hyperNode->tier);
        stringOrNull("tierName", hyperNode->tierName);
        json.key("members").beginArray();
        for (const HyperNodeMember& member : hyperNode->members) writeHyperNodeMember(json, member);
        json.endArray();
    } else {
        const auto& flavor = std::get<ResourceFlavor>(*change.after);
        json.endObject().key("spec").beginObject().key("nodeLabels").beginObject();
        for (const auto& [key, value] : flavor.nodeLabels) json.field(key, value);
        for (const auto& label : std::get<ResourceFlavor>(*change.before).nodeLabels)
            if (std::none_of(flavor.nodeLabels.begin(), flavor.nodeLabels.end(),
                             [&](const auto& kept) { return kept.first == label.first; }))
                json.key(label.first).null();
        json.endObject();
        stringOrNull("topologyName", flavor.topologyName);
    }
    json.endObject().endObject();
    return out;
}

} // namespace

ObjectRequest objectRequest(const ObjectChange& change, bool dryRun, std::string_view fieldManager) {
    ObjectRequest request;
    const std::string collection = "/apis/" + change.apiVersion() + "/" + std::string(objectPlural(change.kind));
    std::string query = dryRun ? "?dryRun=All" : "";
    switch (change.action()) {
    case ObjectChange::Action::Create: {
        request.method = "POST";
        request.pathAndQuery =
            collection + query + (query.empty() ? "?" : "&") + "fieldManager=" + std::string(fieldManager);
        request.contentType = "application/json";
        TopologyObject object = normalised(*change.after, change.kind, change.name);
        request.body = objectManifestJson(change.kind, change.version, object);
        break;
    }
    case ObjectChange::Action::Update:
        request.method = "PATCH";
        request.pathAndQuery = collection + "/" + change.name + query + (query.empty() ? "?" : "&") +
                               "fieldManager=" + std::string(fieldManager);
        request.contentType = "application/merge-patch+json";
        request.body = updatePatchJson(change);
        break;
    case ObjectChange::Action::Delete: {
        request.method = "DELETE";
        request.pathAndQuery = collection + "/" + change.name + query;
        request.contentType = "application/json";
        std::string body;
        JsonWriter json(body);
        json.beginObject().field("apiVersion", "v1").field("kind", "DeleteOptions");
        // A DELETE with a body takes its options from the body alone: the query's dryRun is not read.
        if (dryRun) json.key("dryRun").beginArray().value("All").endArray();
        if (!change.resourceVersion.empty())
            json.key("preconditions").beginObject().field("resourceVersion", change.resourceVersion).endObject();
        json.endObject();
        request.body = std::move(body);
        break;
    }
    }
    return request;
}

namespace {

std::vector<std::string> splitLines(const std::string& text) {
    std::vector<std::string> lines;
    std::size_t start = 0;
    while (start < text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string::npos) end = text.size();
        lines.push_back(text.substr(start, end - start));
        start = end + 1;
    }
    return lines;
}

} // namespace

std::string objectDiffText(const ObjectChange& change, bool colour) {
    auto paint = [&](std::string_view code, const std::string& text) {
        return colour ? "\x1b[" + std::string(code) + "m" + text + "\x1b[0m" : text;
    };
    const std::vector<std::string> a = change.before
                                           ? splitLines(objectManifestYaml(change.kind, change.version, *change.before))
                                           : std::vector<std::string>();
    const std::vector<std::string> b = change.after
                                           ? splitLines(objectManifestYaml(change.kind, change.version, *change.after))
                                           : std::vector<std::string>();
    std::string out = paint("1", change.describe() + (change.resourceVersion.empty()
                                                          ? std::string()
                                                          : " (resourceVersion " + change.resourceVersion + ")")) +
                      "\n";
    // Common prefix and suffix, then a longest common subsequence of what is left: manifests are
    // small, and a bound keeps a huge one linear (its middle shown as removed and added).
    std::size_t prefix = 0;
    while (prefix < a.size() && prefix < b.size() && a[prefix] == b[prefix]) ++prefix;
    std::size_t suffix = 0;
    while (suffix < a.size() - prefix && suffix < b.size() - prefix &&
           a[a.size() - 1 - suffix] == b[b.size() - 1 - suffix])
        ++suffix;
    const std::size_t n = a.size() - prefix - suffix, m = b.size() - prefix - suffix;
    std::vector<std::string> middle;
    if (n * m <= 4'000'000) {
        std::vector<std::vector<std::uint32_t>> lcs(n + 1, std::vector<std::uint32_t>(m + 1, 0));
        for (std::size_t i = n; i-- > 0;)
            for (std::size_t j = m; j-- > 0;)
                lcs[i][j] =
                    a[prefix + i] == b[prefix + j] ? lcs[i + 1][j + 1] + 1 : std::max(lcs[i + 1][j], lcs[i][j + 1]);
        std::size_t i = 0, j = 0;
        while (i < n || j < m) {
            if (i < n && j < m && a[prefix + i] == b[prefix + j]) {
                middle.push_back("  " + a[prefix + i]);
                ++i, ++j;
            } else if (j < m && (i == n || lcs[i][j + 1] >= lcs[i + 1][j])) {
                middle.push_back(paint("32", "+ " + b[prefix + j++]));
            } else {
                middle.push_back(paint("31", "- " + a[prefix + i++]));
            }
        }
    } else {
        for (std::size_t i = 0; i < n; ++i) middle.push_back(paint("31", "- " + a[prefix + i]));
        for (std::size_t j = 0; j < m; ++j) middle.push_back(paint("32", "+ " + b[prefix + j]));
    }
    // Context: up to 3 unchanged lines around the changes, and the heading lines of the object.
    const std::size_t context = 3;
    std::vector<std::string> lines;
    for (std::size_t i = 0; i < prefix; ++i)
        if (i < 4 || i + context >= prefix)
            lines.push_back("  " + a[i]);
        else if (lines.back() != "  ...")
            lines.push_back("  ...");
    lines.insert(lines.end(), middle.begin(), middle.end());
    for (std::size_t i = 0; i < suffix; ++i)
        if (i < context)
            lines.push_back("  " + a[a.size() - suffix + i]);
        else {
            lines.push_back("  ...");
            break;
        }
    for (const std::string& line : lines) out += "  " + line + "\n";
    return out;
}

TopologySpec hierarchyAfterChanges(const TopologySpec& before, const ClusterState& changed,
                                   const std::vector<ObjectChange>& changes) {
    if (before.origin == kHyperNodeOrigin && std::any_of(changes.begin(), changes.end(), [](const ObjectChange& c) {
            return c.kind == ObjectKind::HyperNode;
        })) {
        Result<std::optional<TopologySpec>> tree = hyperNodeHierarchy(changed);
        if (tree && *tree) {
            TopologySpec after = std::move(**tree);
            after.nvlinkLabel = before.nvlinkLabel;
            return after;
        }
        TopologySpec flat = before; // no tree left (all deleted, or a cycle): no levels
        flat.levels.clear();
        flat.membership = std::make_shared<TopologyMembership>();
        return flat;
    }
    for (const ObjectChange& change : changes) {
        const bool topology = change.kind == ObjectKind::KueueTopology || change.kind == ObjectKind::KaiTopology;
        if (!topology || change.name != before.name || before.origin != topologyOrigin(change.kind)) continue;
        if (!change.after) return before; // deleted: the hierarchy shown stays as it was read
        TopologySpec after = TopologySpec::fromLabelKeys(levelKeys(std::get<TopologySpec>(*change.after)));
        after.name = before.name;
        after.origin = before.origin;
        after.nvlinkLabel = std::get<TopologySpec>(*change.after).nvlinkLabel;
        return after;
    }
    return before;
}

} // namespace topodeck
