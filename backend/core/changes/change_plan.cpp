#include "core/changes/change_plan.h"

#include "core/text/json_writer.h"
#include "core/text/text_format.h"
#include "core/topology/label_selector.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>
#include <unordered_map>

namespace topodeck {

namespace {

std::string quotedValue(const std::optional<std::string>& value) {
    return value ? '"' + visibleText(*value) + '"' : std::string("absent");
}

// RFC 6901: "~" is "~0" and "/" is "~1" inside a reference token.
std::string pointerToken(std::string_view key) {
    std::string token;
    for (char c : key) {
        if (c == '~')
            token += "~0";
        else if (c == '/')
            token += "~1";
        else
            token += c;
    }
    return token;
}

} // namespace

bool labelChangeBefore(const LabelChange& a, const LabelChange& b) {
    return std::tie(a.node, a.annotation, a.key) < std::tie(b.node, b.annotation, b.key);
}

std::string NodeTarget::describe() const {
    std::vector<std::string> parts;
    if (!nodes.empty()) {
        std::string list = nodes.size() == 1 ? "node " : "nodes ";
        for (std::size_t i = 0; i < nodes.size() && i < 5; ++i) list += (i ? ", " : "") + nodes[i];
        if (nodes.size() > 5) list += ", ... (" + std::to_string(nodes.size()) + ")";
        parts.push_back(std::move(list));
    }
    if (!selector.empty()) parts.push_back("-l " + selector);
    if (!domain.empty()) parts.push_back("--domain " + domain);
    std::string text;
    for (const std::string& part : parts) text += (text.empty() ? "" : " + ") + part;
    return text.empty() ? std::string("no nodes") : text;
}

Result<std::vector<LabelEdit>> parseLabelEdits(const std::vector<std::string>& arguments) {
    std::vector<LabelEdit> edits;
    std::set<std::string, std::less<>> seen;
    for (const std::string& argument : arguments) {
        LabelEdit edit;
        if (const std::size_t equals = argument.find('='); equals != std::string::npos) {
            edit.key = argument.substr(0, equals);
            edit.value = argument.substr(equals + 1);
        } else if (argument.ends_with('-') && argument.size() > 1) {
            edit.key = argument.substr(0, argument.size() - 1);
        } else {
            return Error{"label \"" + visibleText(argument) + "\": expected key=value to set it or key- to remove it"};
        }
        if (const std::string problem = labelKeyProblem(edit.key); !problem.empty())
            return Error{"label \"" + visibleText(argument) + "\": invalid key: " + problem};
        if (edit.value)
            if (const std::string problem = labelValueProblem(*edit.value); !problem.empty())
                return Error{"label \"" + visibleText(argument) + "\": invalid value: " + problem};
        if (!seen.insert(edit.key).second) return Error{"label " + visibleText(edit.key) + ": given more than once"};
        edits.push_back(std::move(edit));
    }
    if (edits.empty()) return Error{"no labels to set or remove (give key=value or key-)"};
    return edits;
}

Result<std::vector<NodeId>> targetNodes(const ClusterState& state, const TopologyIndex& index,
                                        const NodeTarget& target) {
    if (target.empty()) return Error{"no nodes named: give node names, a label selector or a domain"};
    std::vector<NodeId> ids;
    for (const std::string& name : target.nodes) {
        const std::optional<NodeId> id = state.findNode(name);
        if (!id || !state.record(*id).present) return Error{"node \"" + visibleText(name) + "\" is not in the cluster"};
        ids.push_back(*id);
    }
    if (!target.selector.empty()) {
        Result<LabelSelector> selector = LabelSelector::parse(target.selector);
        if (!selector) return Error{"selector \"" + visibleText(target.selector) + "\": " + selector.error().message};
        const NodeMask mask = matchNodes(*selector, state);
        for (NodeId id = 0; id < mask.size(); ++id)
            if (mask[id]) ids.push_back(id);
    }
    if (!target.domain.empty()) {
        const Result<DomainId> domain = findDomainByName(index, target.domain, "domain " + visibleText(target.domain));
        if (!domain) return domain.error();
        const std::vector<NodeId> under = nodesUnder(index, *domain);
        ids.insert(ids.end(), under.begin(), under.end());
    }
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    return ids;
}

Status addLabelOperations(ChangePlan& plan, const ClusterState& state, const TopologyIndex& index,
                          std::vector<LabelOperation> operations) {
    // The plan so far by node and key, kept across the operations, so that a later one on the same
    // label amends it and the plan is sorted once, not once per operation.
    std::unordered_map<std::string, std::size_t> existing;
    const auto keyOf = [](std::string_view node, std::string_view key) {
        std::string text(node);
        text += '\n';
        text += key;
        return text;
    };
    for (std::size_t i = 0; i < plan.labelChanges.size(); ++i)
        if (!plan.labelChanges[i].annotation)
            existing.emplace(keyOf(plan.labelChanges[i].node, plan.labelChanges[i].key), i);
    for (LabelOperation& operation : operations) {
        const std::string where =
            "operation " + std::to_string(plan.operations.size() + 1) + " (" + operation.target.describe() + ")";
        if (operation.edits.empty()) return Error{where + ": no labels to set or remove"};
        for (const LabelEdit& edit : operation.edits) {
            if (const std::string problem = labelKeyProblem(edit.key); !problem.empty())
                return Error{where + ": invalid label key \"" + visibleText(edit.key) + "\": " + problem};
            if (edit.value)
                if (const std::string problem = labelValueProblem(*edit.value); !problem.empty())
                    return Error{where + ": label " + edit.key + ": invalid value \"" + visibleText(*edit.value) +
                                 "\": " + problem};
        }
        Result<std::vector<NodeId>> nodes = targetNodes(state, index, operation.target);
        if (!nodes) return Error{where + ": " + nodes.error().message};
        for (NodeId id : *nodes) {
            const Node& node = *state.record(id).node;
            for (const LabelEdit& edit : operation.edits) {
                const auto [it, isNew] = existing.try_emplace(keyOf(node.name, edit.key), plan.labelChanges.size());
                if (!isNew) {
                    plan.labelChanges[it->second].after = edit.value;
                    continue;
                }
                const std::string* now = node.label(edit.key);
                plan.labelChanges.push_back(
                    {node.name, edit.key, now ? std::optional<std::string>(*now) : std::nullopt, edit.value});
            }
        }
        plan.operations.push_back(std::move(operation));
    }
    std::erase_if(plan.labelChanges, [](const LabelChange& c) { return c.before == c.after; });
    std::sort(plan.labelChanges.begin(), plan.labelChanges.end(), labelChangeBefore);
    return {};
}

Status addLabelOperation(ChangePlan& plan, const ClusterState& state, const TopologyIndex& index,
                         LabelOperation operation) {
    std::vector<LabelOperation> one;
    one.push_back(std::move(operation));
    return addLabelOperations(plan, state, index, std::move(one));
}

ClusterState withPlanApplied(const ClusterState& state, const ChangePlan& plan) {
    ClusterState after = state;
    // labelChanges are sorted by node: one upsert per node; a node gone since has nothing to change.
    for (std::size_t i = 0; i < plan.labelChanges.size();) {
        const std::string& name = plan.labelChanges[i].node;
        std::size_t end = i;
        while (end < plan.labelChanges.size() && plan.labelChanges[end].node == name) ++end;
        const std::optional<NodeId> id = state.findNode(name);
        if (id && state.record(*id).present) {
            Node node = *state.record(*id).node;
            for (std::size_t c = i; c < end; ++c) {
                const LabelChange& change = plan.labelChanges[c];
                if (change.after && change.annotation)
                    node.setAnnotation(change.key, *change.after);
                else if (change.after)
                    node.setLabel(change.key, *change.after);
                else
                    std::erase_if(change.annotation ? node.annotations : node.labels,
                                  [&](const auto& entry) { return entry.first == change.key; });
            }
            (void)after.apply(NodeUpserted{std::move(node)});
        }
        i = end;
    }
    applyObjectChanges(after, plan.objectChanges);
    return after;
}

TopologySpec specAfterPlan(const TopologySpec& before, const ClusterState& changed, const ChangePlan& plan) {
    return plan.objectChanges.empty() ? before : hierarchyAfterChanges(before, changed, plan.objectChanges);
}

std::vector<std::string> planDrift(const ClusterState& state, const ChangePlan& plan) {
    std::vector<std::string> drift;
    for (const LabelChange& change : plan.labelChanges) {
        const std::optional<NodeId> id = state.findNode(change.node);
        if (!id || !state.record(*id).present) {
            if (drift.empty() || !drift.back().starts_with("node " + change.node + ":"))
                drift.push_back("node " + change.node + ": no longer in the cluster");
            continue;
        }
        const Node& node = *state.record(*id).node;
        const std::string* now = change.annotation ? node.annotation(change.key) : node.label(change.key);
        const std::optional<std::string> value = now ? std::optional<std::string>(*now) : std::nullopt;
        if (value != change.before)
            drift.push_back("node " + change.node + (change.annotation ? ": annotation " : ": label ") + change.key +
                            " is " + quotedValue(value) + ", the plan found " + quotedValue(change.before));
    }
    for (std::string& objectDrifted : objectDrift(state, plan.objectChanges)) drift.push_back(std::move(objectDrifted));
    return drift;
}

std::string labelPatchJson(const std::vector<const LabelChange*>& changes) {
    std::string out;
    JsonWriter json(out);
    json.beginArray();
    for (const LabelChange* change : changes) {
        const std::string path =
            (change->annotation ? "/metadata/annotations/" : "/metadata/labels/") + pointerToken(change->key);
        json.beginObject().field("op", "test").field("path", path).key("value");
        if (change->before)
            json.value(*change->before);
        else
            json.null();
        json.endObject();
        json.beginObject().field("op", change->after ? "add" : "remove").field("path", path);
        if (change->after) json.field("value", *change->after);
        json.endObject();
    }
    json.endArray();
    return out;
}

} // namespace topodeck
