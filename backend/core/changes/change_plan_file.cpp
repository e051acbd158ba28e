#include "core/changes/change_plan_file.h"

#include "core/text/text_file.h"

#include "core/changes/change_journal.h"

#include "core/formats/kube_document_reader.h"
#include "core/formats/yaml_document.h"
#include "core/text/json_text.h"
#include "core/text/text_format.h"
#include "core/topology/label_selector.h"

#include <algorithm>
#include <set>

namespace topodeck {

namespace {

std::optional<ChangeOutcome> changeOutcomeNamed(std::string_view name);

// JSON string literals are YAML double-quoted scalars: one escaping for every value written.
std::string yamlQuoted(std::string_view text) {
    std::string out;
    appendJsonString(out, text);
    return out;
}

std::string quotedList(const std::vector<std::string>& values) {
    std::string out = "[";
    for (std::size_t i = 0; i < values.size(); ++i) out += (i ? ", " : "") + yamlQuoted(values[i]);
    return out + "]";
}

// Reading: every step checks the node's type first (yaml-cpp throws on a wrong one) and an error
// carries the field's path and the node's line and column.
class PlanReader {
public:
    explicit PlanReader(std::string_view source) : m_source(source) {}

    Error error(const YAML::Node& node, const std::string& path, const std::string& message) const {
        const YAML::Mark mark = node.Mark();
        std::string where(m_source);
        if (mark.line >= 0) where += ':' + std::to_string(mark.line + 1) + ':' + std::to_string(mark.column + 1);
        return Error{where + ": " + path + ": " + message};
    }

    Result<std::string> string(const YAML::Node& node, const std::string& path) const {
        if (!node.IsScalar()) return error(node, path, "expected a string");
        const std::string& text = node.Scalar();
        if (unprintableAt(text, true) != std::string_view::npos)
            return error(node, path,
                         "holds " + std::string(unprintableKind(text, unprintableAt(text, true))) + ": \"" +
                             visibleText(text) + '"');
        return text;
    }

    // An optional string field of a map: nullopt when absent or null.
    Result<std::optional<std::string>> optionalString(const YAML::Node& map, const char* key,
                                                      const std::string& path) const {
        const YAML::Node node = map[key];
        if (!node || node.IsNull()) return std::optional<std::string>();
        Result<std::string> text = string(node, path + "." + key);
        if (!text) return text.error();
        return std::optional<std::string>(std::move(*text));
    }

    Result<std::vector<std::string>> stringList(const YAML::Node& node, const std::string& path) const {
        std::vector<std::string> values;
        if (!node || node.IsNull()) return values;
        if (!node.IsSequence()) return error(node, path, "expected a list of strings");
        for (std::size_t i = 0; i < node.size(); ++i) {
            Result<std::string> text = string(node[i], path + "[" + std::to_string(i) + "]");
            if (!text) return text.error();
            values.push_back(std::move(*text));
        }
        return values;
    }

    Status knownFields(const YAML::Node& map, const std::string& path,
                       std::initializer_list<std::string_view> keys) const {
        for (auto it = map.begin(); it != map.end(); ++it) {
            if (!it->first.IsScalar()) return error(it->first, path, "a key is not a string");
            const std::string& key = it->first.Scalar();
            if (std::find(keys.begin(), keys.end(), key) == keys.end())
                return error(it->first, path, "unknown field \"" + visibleText(key) + "\"");
        }
        return {};
    }

    Status labelKey(const YAML::Node& node, const std::string& path, const std::string& key) const {
        if (const std::string problem = labelKeyProblem(key); !problem.empty())
            return error(node, path, "invalid label key \"" + visibleText(key) + "\": " + problem);
        return {};
    }
    Status labelValue(const YAML::Node& node, const std::string& path, const std::optional<std::string>& value) const {
        if (!value) return {};
        if (const std::string problem = labelValueProblem(*value); !problem.empty())
            return error(node, path, "invalid label value \"" + visibleText(*value) + "\": " + problem);
        return {};
    }

    Result<LabelOperation> operation(const YAML::Node& node, const std::string& path) const {
        if (!node.IsMap()) return error(node, path, "expected a map (nodes, selector, domain, set, remove)");
        if (Status s = knownFields(node, path, {"nodes", "selector", "domain", "set", "remove"}); !s) return s.error();
        LabelOperation op;
        Result<std::vector<std::string>> nodes = stringList(node["nodes"], path + ".nodes");
        if (!nodes) return nodes.error();
        op.target.nodes = std::move(*nodes);
        for (auto [key, out] : {std::pair{"selector", &op.target.selector}, std::pair{"domain", &op.target.domain}}) {
            Result<std::optional<std::string>> text = optionalString(node, key, path);
            if (!text) return text.error();
            *out = text->value_or(std::string());
        }
        if (!op.target.selector.empty())
            if (Result<LabelSelector> selector = LabelSelector::parse(op.target.selector); !selector)
                return error(node["selector"], path + ".selector", selector.error().message);
        if (op.target.empty()) return error(node, path, "names no nodes: give nodes, selector or domain");
        std::set<std::string, std::less<>> keys;
        if (const YAML::Node set = node["set"]; set && !set.IsNull()) {
            if (!set.IsMap()) return error(set, path + ".set", "expected a map of label keys to values");
            for (auto it = set.begin(); it != set.end(); ++it) {
                Result<std::string> key = string(it->first, path + ".set");
                if (!key) return key.error();
                const std::string field = path + ".set." + *key;
                Result<std::string> value = string(it->second, field);
                if (!value) return value.error();
                if (Status s = labelKey(it->first, field, *key); !s) return s.error();
                if (Status s = labelValue(it->second, field, *value); !s) return s.error();
                if (!keys.insert(*key).second) return error(it->first, field, "given more than once");
                op.edits.push_back({*key, std::move(*value)});
            }
        }
        Result<std::vector<std::string>> removed = stringList(node["remove"], path + ".remove");
        if (!removed) return removed.error();
        for (std::size_t i = 0; i < removed->size(); ++i) {
            const std::string field = path + ".remove[" + std::to_string(i) + "]";
            if (Status s = labelKey(node["remove"][i], field, (*removed)[i]); !s) return s.error();
            if (!keys.insert((*removed)[i]).second)
                return error(node["remove"][i], field, "set and removed, or given twice");
            op.edits.push_back({(*removed)[i], std::nullopt});
        }
        if (op.edits.empty()) return error(node, path, "sets and removes no labels");
        return op;
    }

    // A plan's change, or with `journaled` a journal's (which also says what became of it).
    Result<LabelChange> labelChange(const YAML::Node& node, const std::string& path, bool journaled = false) const {
        if (!node.IsMap())
            return error(node, path,
                         journaled ? "expected a map (node, key, annotation, before, after, outcome, message)"
                                   : "expected a map (node, key, annotation, before, after)");
        if (Status s = journaled ? knownFields(node, path,
                                               {"node", "key", "annotation", "before", "after", "outcome", "message"})
                                 : knownFields(node, path, {"node", "key", "annotation", "before", "after"});
            !s)
            return s.error();
        LabelChange change;
        if (const YAML::Node flag = node["annotation"]; flag && !flag.IsNull()) {
            if (!flag.IsScalar() || (flag.Scalar() != "true" && flag.Scalar() != "false"))
                return error(flag, path + ".annotation", "expected true or false");
            change.annotation = flag.Scalar() == "true";
        }
        for (auto [key, out] : {std::pair{"node", &change.node}, std::pair{"key", &change.key}}) {
            Result<std::optional<std::string>> text = optionalString(node, key, path);
            if (!text) return text.error();
            if (!*text || (*text)->empty()) return error(node, path + "." + key, "missing");
            *out = std::move(**text);
        }
        if (const std::string problem = nodeNameProblem(change.node); !problem.empty())
            return error(node["node"], path + ".node", "invalid node name \"" + visibleText(change.node) + "\": " + problem);
        if (Status s = labelKey(node["key"], path + ".key", change.key); !s) return s.error();
        for (auto [key, out] : {std::pair{"before", &change.before}, std::pair{"after", &change.after}}) {
            Result<std::optional<std::string>> text = optionalString(node, key, path);
            if (!text) return text.error();
            *out = std::move(*text);
        }
        if (change.annotation && !keptAnnotation(change.key))
            return error(node["key"], path + ".key",
                         "topodeck changes only the annotations under " + std::string(kSlinkyAnnotationPrefix) +
                             ", not \"" + visibleText(change.key) + '"');
        if (!change.annotation) // an annotation's value is any text
            if (Status s = labelValue(node["after"], path + ".after", change.after); !s) return s.error();
        if (change.before == change.after) return error(node, path, "before and after are the same: nothing to change");
        return change;
    }

    // One Kubernetes object of a change (before or after), read by the snapshot reader: the kind
    // and version it is, and what it says.
    Result<std::pair<ObjectKind, std::string>> objectKind(const YAML::Node& node, const std::string& path) const {
        std::string apiVersion, kind;
        if (Status s = stringFields(node, path, {{"apiVersion", &apiVersion}, {"kind", &kind}}); !s) return s.error();
        const std::size_t slash = apiVersion.find('/');
        const std::string group = apiVersion.substr(0, slash == std::string::npos ? 0 : slash);
        const std::string version = slash == std::string::npos ? apiVersion : apiVersion.substr(slash + 1);
        for (ObjectKind known :
             {ObjectKind::HyperNode, ObjectKind::KueueTopology, ObjectKind::ResourceFlavor, ObjectKind::KaiTopology})
            if (objectGroup(known) == group && objectKindName(known) == kind && !version.empty())
                return std::pair{known, version};
        return error(node, path,
                     "expected a HyperNode (topology.volcano.sh), a Topology or ResourceFlavor (kueue.x-k8s.io) or a "
                     "Topology (kai.scheduler), not " +
                         visibleText(kind.empty() ? std::string("an object without kind") : kind) +
                         (apiVersion.empty() ? std::string() : " (" + visibleText(apiVersion) + ")"));
    }

    Result<TopologyObject> object(const YAML::Node& node, const std::string& path, ObjectKind kind) const {
        object_reader::SnapshotBuilder builder;
        object_reader::YamlValue value(node);
        if (Status s = object_reader::readKubeDocument(value, builder, m_source, 0); !s) {
            // "plan.yaml:5:13: HyperNode x: spec.tier: ..." with the plan's field after the place.
            const std::string& message = s.error().message;
            const std::size_t place = message.starts_with(m_source) ? message.find(": ") : std::string::npos;
            if (place == std::string::npos) return Error{std::string(m_source) + ": " + path + ": " + message};
            return Error{message.substr(0, place) + ": " + path + ": " + message.substr(place + 2)};
        }
        Snapshot& read = builder.snapshot;
        if (kind == ObjectKind::HyperNode && read.hyperNodes.size() == 1) return TopologyObject(read.hyperNodes[0]);
        if (kind == ObjectKind::ResourceFlavor && read.resourceFlavors.size() == 1)
            return TopologyObject(read.resourceFlavors[0]);
        if (read.topologies.size() == 1) return TopologyObject(read.topologies[0]);
        return error(node, path, "not an object topodeck reads");
    }

    // A plan's object change, or with `journaled` a journal's.
    Result<JournalObjectChange> objectChange(const YAML::Node& node, const std::string& path, bool journaled) const {
        if (!node.IsMap()) return error(node, path, "expected a map (action, resourceVersion, before, after)");
        if (Status s = journaled ? knownFields(node, path,
                                               {"action", "resourceVersion", "before", "after", "outcome", "message",
                                                "resourceVersionAfter"})
                                 : knownFields(node, path, {"action", "resourceVersion", "before", "after"});
            !s)
            return s.error();
        JournalObjectChange entry;
        ObjectChange& change = entry.change;
        std::string action, outcome;
        if (Status s = stringFields(node, path,
                                    {{"action", &action},
                                     {"resourceVersion", &change.resourceVersion},
                                     {"outcome", &outcome},
                                     {"message", &entry.message},
                                     {"resourceVersionAfter", &entry.resourceVersionAfter}});
            !s)
            return s.error();
        std::optional<std::pair<ObjectKind, std::string>> kindSeen;
        for (auto [key, out] : {std::pair{"before", &change.before}, std::pair{"after", &change.after}}) {
            const YAML::Node side = node[key];
            if (!side || side.IsNull()) continue;
            const std::string sidePath = path + "." + key;
            if (!side.IsMap()) return error(side, sidePath, "expected a Kubernetes object");
            Result<std::pair<ObjectKind, std::string>> kind = objectKind(side, sidePath);
            if (!kind) return kind.error();
            if (kindSeen && *kindSeen != *kind)
                return error(side, sidePath, "is not the same kind and version as before");
            kindSeen = *kind;
            Result<TopologyObject> read = object(side, sidePath, kind->first);
            if (!read) return read.error();
            if (!change.name.empty() && change.name != objectName(*read))
                return error(side, sidePath + ".metadata.name",
                             "is not the same object as before (" + change.name + ")");
            change.name = objectName(*read);
            *out = std::move(*read);
        }
        if (!kindSeen) return error(node, path, "has neither before nor after: nothing to change");
        change.kind = kindSeen->first;
        change.version = kindSeen->second;
        if (!action.empty() && action != objectActionName(change.action()))
            return error(node["action"], path + ".action",
                         "says " + visibleText(action) + ", but before and after make it " +
                             std::string(objectActionName(change.action())));
        if (journaled) {
            const std::optional<ChangeOutcome> known = changeOutcomeNamed(outcome);
            if (!known)
                return error(node["outcome"] ? node["outcome"] : node, path + ".outcome", outcomeExpected(outcome));
            entry.outcome = *known;
        }
        return entry;
    }

    static std::string outcomeExpected(const std::string& outcome) {
        return "expected one of applied, conflict, forbidden, gone, failed, not-attempted, not \"" +
               visibleText(outcome) + '"';
    }

    // apiVersion and kind, each as expected.
    Status header(const YAML::Node& root, std::string_view expectedKind, const std::string& path) const {
        if (!root.IsMap())
            return error(root, path, "expected a " + std::string(expectedKind) + " (a map with apiVersion and kind)");
        Result<std::optional<std::string>> apiVersion = optionalString(root, "apiVersion", path);
        Result<std::optional<std::string>> kind = optionalString(root, "kind", path);
        if (!apiVersion) return apiVersion.error();
        if (!kind) return kind.error();
        if (*kind != std::optional<std::string>(expectedKind))
            return error(root, "kind",
                         "expected " + std::string(expectedKind) + ", not " +
                             (*kind ? '"' + visibleText(**kind) + '"' : std::string("nothing")));
        if (*apiVersion != std::optional<std::string>(ChangePlan::kApiVersion))
            return error(root, "apiVersion",
                         "expected " + std::string(ChangePlan::kApiVersion) + " (this topodeck reads no other), not " +
                             (*apiVersion ? '"' + visibleText(**apiVersion) + '"' : std::string("nothing")));
        return {};
    }

    // The string fields of a map, each into its place (absent: empty).
    Status stringFields(const YAML::Node& map, const std::string& path,
                        std::initializer_list<std::pair<const char*, std::string*>> fields) const {
        for (auto [key, out] : fields) {
            Result<std::optional<std::string>> text = optionalString(map, key, path);
            if (!text) return text.error();
            *out = text->value_or(std::string());
        }
        return {};
    }

    Result<ChangePlan> plan(const YAML::Node& root) const {
        if (Status s = header(root, ChangePlan::kKind, "plan"); !s) return s.error();
        if (Status s = knownFields(root, "plan", {"apiVersion", "kind", "metadata", "spec"}); !s) return s.error();
        ChangePlan plan;
        if (const YAML::Node metadata = root["metadata"]; metadata && !metadata.IsNull()) {
            if (!metadata.IsMap()) return error(metadata, "metadata", "expected a map");
            if (Status s = knownFields(metadata, "metadata", {"name", "cluster", "description"}); !s) return s.error();
            if (Status s = stringFields(metadata, "metadata",
                                        {{"name", &plan.name}, {"cluster", &plan.cluster}, {"description", &plan.description}});
                !s)
                return s.error();
        }
        const YAML::Node spec = root["spec"];
        if (!spec || spec.IsNull()) return plan;
        if (!spec.IsMap()) return error(spec, "spec", "expected a map (operations, labelChanges, objectChanges)");
        if (Status s = knownFields(spec, "spec", {"operations", "labelChanges", "objectChanges"}); !s) return s.error();
        Result<std::vector<JournalObjectChange>> objects = objectChanges(spec, false);
        if (!objects) return objects.error();
        for (JournalObjectChange& entry : *objects) plan.objectChanges.push_back(std::move(entry.change));
        for (auto [key, isOperations] : {std::pair{"operations", true}, std::pair{"labelChanges", false}}) {
            const YAML::Node list = spec[key];
            if (!list || list.IsNull()) continue;
            const std::string path = std::string("spec.") + key;
            if (!list.IsSequence()) return error(list, path, "expected a list");
            for (std::size_t i = 0; i < list.size(); ++i) {
                const std::string item = path + "[" + std::to_string(i) + "]";
                if (isOperations) {
                    Result<LabelOperation> op = operation(list[i], item);
                    if (!op) return op.error();
                    plan.operations.push_back(std::move(*op));
                } else {
                    Result<LabelChange> change = labelChange(list[i], item);
                    if (!change) return change.error();
                    plan.labelChanges.push_back(std::move(*change));
                }
            }
        }
        std::sort(plan.labelChanges.begin(), plan.labelChanges.end(), labelChangeBefore);
        for (std::size_t i = 1; i < plan.labelChanges.size(); ++i)
            if (plan.labelChanges[i].node == plan.labelChanges[i - 1].node &&
                plan.labelChanges[i].key == plan.labelChanges[i - 1].key &&
                plan.labelChanges[i].annotation == plan.labelChanges[i - 1].annotation)
                return error(spec["labelChanges"], "spec.labelChanges",
                             "node " + plan.labelChanges[i].node +
                                 (plan.labelChanges[i].annotation ? ", annotation " : ", label ") +
                                 plan.labelChanges[i].key + ": changed twice");
        return plan;
    }

    // spec.objectChanges of a plan or a journal; an object changed twice is refused.
    Result<std::vector<JournalObjectChange>> objectChanges(const YAML::Node& spec, bool journaled) const {
        std::vector<JournalObjectChange> out;
        const YAML::Node list = spec["objectChanges"];
        if (!list || list.IsNull()) return out;
        if (!list.IsSequence()) return error(list, "spec.objectChanges", "expected a list");
        std::set<std::pair<ObjectKind, std::string>> seen;
        for (std::size_t i = 0; i < list.size(); ++i) {
            const std::string item = "spec.objectChanges[" + std::to_string(i) + "]";
            Result<JournalObjectChange> entry = objectChange(list[i], item, journaled);
            if (!entry) return entry.error();
            if (!seen.emplace(entry->change.kind, entry->change.name).second)
                return error(list[i], item,
                             std::string(objectKindTitle(entry->change.kind)) + " " + entry->change.name +
                                 ": changed twice");
            out.push_back(std::move(*entry));
        }
        return out;
    }

    Result<ChangeJournal> journal(const YAML::Node& root) const {
        if (Status s = header(root, ChangeJournal::kKind, "journal"); !s) return s.error();
        if (Status s = knownFields(root, "journal", {"apiVersion", "kind", "metadata", "spec"}); !s) return s.error();
        ChangeJournal journal;
        if (const YAML::Node metadata = root["metadata"]; metadata && !metadata.IsNull()) {
            if (!metadata.IsMap()) return error(metadata, "metadata", "expected a map");
            if (Status s = knownFields(metadata, "metadata", {"plan", "cluster"}); !s) return s.error();
            if (Status s = stringFields(metadata, "metadata", {{"plan", &journal.plan}, {"cluster", &journal.cluster}}); !s)
                return s.error();
        }
        const YAML::Node spec = root["spec"];
        if (!spec || spec.IsNull()) return journal;
        if (!spec.IsMap())
            return error(spec, "spec", "expected a map (fieldManager, started, finished, changes, objectChanges)");
        if (Status s = knownFields(spec, "spec", {"fieldManager", "started", "finished", "changes", "objectChanges"});
            !s)
            return s.error();
        Result<std::vector<JournalObjectChange>> objects = objectChanges(spec, true);
        if (!objects) return objects.error();
        journal.objectChanges = std::move(*objects);
        if (Status s = stringFields(spec, "spec",
                                    {{"fieldManager", &journal.fieldManager},
                                     {"started", &journal.started},
                                     {"finished", &journal.finished}});
            !s)
            return s.error();
        const YAML::Node list = spec["changes"];
        if (!list || list.IsNull()) return journal;
        if (!list.IsSequence()) return error(list, "spec.changes", "expected a list");
        for (std::size_t i = 0; i < list.size(); ++i) {
            const std::string item = "spec.changes[" + std::to_string(i) + "]";
            Result<LabelChange> change = labelChange(list[i], item, true);
            if (!change) return change.error();
            JournalChange entry;
            entry.change = std::move(*change);
            std::string outcome;
            if (Status s = stringFields(list[i], item, {{"outcome", &outcome}, {"message", &entry.message}}); !s)
                return s.error();
            const std::optional<ChangeOutcome> known = changeOutcomeNamed(outcome);
            if (!known)
                return error(list[i]["outcome"] ? list[i]["outcome"] : list[i], item + ".outcome",
                             outcomeExpected(outcome));
            entry.outcome = *known;
            journal.changes.push_back(std::move(entry));
        }
        return journal;
    }

private:
    std::string_view m_source;
};

std::optional<ChangeOutcome> changeOutcomeNamed(std::string_view name) {
    for (ChangeOutcome outcome : {ChangeOutcome::Applied, ChangeOutcome::Conflict, ChangeOutcome::Forbidden,
                                  ChangeOutcome::Gone, ChangeOutcome::Failed, ChangeOutcome::NotAttempted})
        if (changeOutcomeName(outcome) == name) return outcome;
    return std::nullopt;
}

// The one YAML document of a plan or journal, within the limits such files need. Plans and
// journals are written by topodeck without aliases; a hand-edited one may share a node list or
// two. An anchored operation repeated a thousand times would expand into a million node changes
// to resolve, preview and apply from a few kilobytes (the fuzz target found it).
Result<YAML::Node> loadOneDocument(std::string_view text, std::string_view source, std::string_view kind) {
    YamlLimits limits;
    limits.maxAliasNodes = 10'000;
    Result<std::vector<YAML::Node>> documents = loadYamlDocuments(text, source, limits);
    if (!documents) return documents.error();
    if (documents->empty()) return Error{std::string(source) + ": empty: expected a " + std::string(kind)};
    if (documents->size() > 1)
        return Error{std::string(source) + ": holds " + std::to_string(documents->size()) + " documents: expected one " +
                     std::string(kind)};
    return documents->front();
}

// The change's fields as a flow map's entries, shared by plans and journals.
std::string changeFields(const LabelChange& change) {
    std::string out = "node: " + yamlQuoted(change.node) + ", key: " + yamlQuoted(change.key);
    if (change.annotation) out += ", annotation: true";
    if (change.before) out += ", before: " + yamlQuoted(*change.before);
    if (change.after) out += ", after: " + yamlQuoted(*change.after);
    return out;
}

// An object change as a list item: its action and precondition, and the objects as manifests.
// A journal's adds what became of it.
std::string objectChangeItem(const ObjectChange& change, const JournalObjectChange* entry = nullptr) {
    std::string out = "  - action: " + yamlQuoted(objectActionName(change.action())) + "\n";
    if (!change.resourceVersion.empty()) out += "    resourceVersion: " + yamlQuoted(change.resourceVersion) + "\n";
    for (auto [key, side] : {std::pair{"before", &change.before}, std::pair{"after", &change.after}})
        if (*side)
            out += std::string("    ") + key + ":\n      " +
                   objectManifestYaml(change.kind, change.version, **side, "      ");
    if (entry) {
        out += "    outcome: " + std::string(changeOutcomeName(entry->outcome)) + "\n";
        if (!entry->resourceVersionAfter.empty())
            out += "    resourceVersionAfter: " + yamlQuoted(entry->resourceVersionAfter) + "\n";
        if (!entry->message.empty()) out += "    message: " + yamlQuoted(entry->message) + "\n";
    }
    return out;
}

} // namespace

std::string writeChangePlan(const ChangePlan& plan) {
    std::string out;
    out += "apiVersion: " + std::string(ChangePlan::kApiVersion) + "\n";
    out += "kind: " + std::string(ChangePlan::kKind) + "\n";
    out += "metadata:\n";
    out += "  name: " + yamlQuoted(plan.name) + "\n";
    if (!plan.cluster.empty()) out += "  cluster: " + yamlQuoted(plan.cluster) + "\n";
    if (!plan.description.empty()) out += "  description: " + yamlQuoted(plan.description) + "\n";
    out += "spec:\n";
    out += "  # As asked, in order.\n";
    out += plan.operations.empty() ? "  operations: []\n" : "  operations:\n";
    for (const LabelOperation& op : plan.operations) {
        std::string line = "  - {";
        auto field = [&](const std::string& text) { line += (line.size() > 5 ? ", " : "") + text; };
        if (!op.target.nodes.empty()) field("nodes: " + quotedList(op.target.nodes));
        if (!op.target.selector.empty()) field("selector: " + yamlQuoted(op.target.selector));
        if (!op.target.domain.empty()) field("domain: " + yamlQuoted(op.target.domain));
        std::string set;
        std::vector<std::string> removed;
        for (const LabelEdit& edit : op.edits) {
            if (edit.value)
                set += (set.empty() ? "" : ", ") + yamlQuoted(edit.key) + ": " + yamlQuoted(*edit.value);
            else
                removed.push_back(edit.key);
        }
        if (!set.empty()) field("set: {" + set + "}");
        if (!removed.empty()) field("remove: " + quotedList(removed));
        out += line + "}\n";
    }
    out += "  # Node by node: each label as it was when planned (left out: absent) and as it becomes.\n";
    out += plan.labelChanges.empty() ? "  labelChanges: []\n" : "  labelChanges:\n";
    for (const LabelChange& change : plan.labelChanges) out += "  - {" + changeFields(change) + "}\n";
    if (!plan.objectChanges.empty()) {
        out += "  # Topology objects, applied after the labels in this order: each as found when planned (before,\n"
               "  # resourceVersion: the precondition of an update or delete) and as it becomes (after).\n"
               "  objectChanges:\n";
        for (const ObjectChange& change : plan.objectChanges) out += objectChangeItem(change);
    }
    return out;
}

std::string writeChangeJournal(const ChangeJournal& journal) {
    std::string out;
    out += "apiVersion: " + std::string(ChangePlan::kApiVersion) + "\n";
    out += "kind: " + std::string(ChangeJournal::kKind) + "\n";
    out += "metadata:\n";
    out += "  plan: " + yamlQuoted(journal.plan) + "\n";
    out += "  cluster: " + yamlQuoted(journal.cluster) + "\n";
    out += "spec:\n";
    out += "  fieldManager: " + yamlQuoted(journal.fieldManager) + "\n";
    out += "  started: " + yamlQuoted(journal.started) + "\n";
    if (!journal.finished.empty()) out += "  finished: " + yamlQuoted(journal.finished) + "\n";
    out += "  # Each label as it was before the apply (left out: absent), as it became, and what the server said.\n";
    out += journal.changes.empty() ? "  changes: []\n" : "  changes:\n";
    for (const JournalChange& entry : journal.changes) {
        out += "  - {" + changeFields(entry.change) + ", outcome: " + std::string(changeOutcomeName(entry.outcome));
        if (!entry.message.empty()) out += ", message: " + yamlQuoted(entry.message);
        out += "}\n";
    }
    if (!journal.objectChanges.empty()) {
        out += "  # Topology objects as they were (before) and became (after), and what the server said.\n"
               "  objectChanges:\n";
        for (const JournalObjectChange& entry : journal.objectChanges) out += objectChangeItem(entry.change, &entry);
    }
    return out;
}

Result<ChangeJournal> readChangeJournal(std::string_view text, std::string_view source) {
    Result<YAML::Node> root = loadOneDocument(text, source, ChangeJournal::kKind);
    if (!root) return root.error();
    try {
        return PlanReader(source).journal(*root);
    } catch (const YAML::Exception& e) {
        return Error{std::string(source) + ": " + e.what()};
    }
}

Result<ChangePlan> readChangePlan(std::string_view text, std::string_view source) {
    Result<YAML::Node> root = loadOneDocument(text, source, ChangePlan::kKind);
    if (!root) return root.error();
    try {
        return PlanReader(source).plan(*root);
    } catch (const YAML::Exception& e) { // a conversion the checks above did not foresee
        return Error{std::string(source) + ": " + e.what()};
    }
}

Result<ChangePlan> readChangePlanFile(const std::string& path) {
    auto text = readTextFile(path);
    if (!text) return text.error();
    return readChangePlan(*text, path);
}

Result<ChangeJournal> readChangeJournalFile(const std::string& path) {
    auto text = readTextFile(path);
    if (!text) return text.error();
    return readChangeJournal(*text, path);
}

} // namespace topodeck
