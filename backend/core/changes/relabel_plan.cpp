#include "core/changes/relabel_plan.h"

#include "core/text/command_args.h"
#include "core/text/natural_order.h"
#include "core/topology/label_selector.h"

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>
#include <unordered_set>

namespace topodeck {
namespace {

constexpr std::string_view kHostnameKey = "kubernetes.io/hostname";
constexpr std::string_view kSkipLevel = "-";

bool removedByPattern(const std::string& key, const std::vector<std::string>& patterns) {
    return std::any_of(patterns.begin(), patterns.end(), [&](const std::string& pattern) {
        if (pattern.ends_with('*')) return std::string_view(key).starts_with(std::string_view(pattern).substr(0, pattern.size() - 1));
        return key == pattern;
    });
}

Status checkRequest(const TopologyIndex& index, const RelabelRequest& request) {
    const TopologySpec& spec = index.spec();
    if (int(request.keys.size()) != spec.depth()) {
        std::string levels;
        for (const TopologyLevel& level : spec.levels) levels += (levels.empty() ? "" : ", ") + level.name;
        return Error{"give one key per level of the hierarchy, top level first: it has " + std::to_string(spec.depth()) +
                     " (" + levels + "), the keys are " + std::to_string(request.keys.size()) + " (- leaves a level out)"};
    }
    std::set<std::string_view> seen;
    for (std::size_t level = 0; level < request.keys.size(); ++level) {
        const std::string& key = request.keys[level];
        const std::string& name = spec.levels[level].name;
        if (key == kSkipLevel) continue;
        if (key == kHostnameKey)
            return Error{"level " + name + ": " + std::string(kHostnameKey) + " is the kubelet's own label; give - to leave the level out"};
        if (std::string problem = labelKeyProblem(key); !problem.empty()) return Error{"level " + name + ": " + problem};
        if (!seen.insert(key).second) return Error{"level " + name + ": key " + key + " is given for two levels"};
    }
    for (const std::string& pattern : request.remove) {
        const std::string exact = pattern.ends_with('*') ? pattern.substr(0, pattern.size() - 1) : pattern;
        if (exact.empty()) return Error{"--remove: \"" + pattern + "\" would remove every label"};
        if (!pattern.ends_with('*'))
            if (std::string problem = labelKeyProblem(pattern); !problem.empty()) return Error{"--remove: " + problem};
    }
    return {};
}

// Edits as a comparable key, so that nodes ending alike share an operation.
std::string editsKey(const std::vector<LabelEdit>& edits) {
    std::string key;
    for (const LabelEdit& edit : edits) {
        key += edit.key;
        key += edit.value ? '=' + *edit.value : std::string("-");
        key += '\n';
    }
    return key;
}

// A node's domains at the levels `keep` marks, top first.
std::vector<DomainId> keptDomains(const TopologyIndex& index, NodeId id, const std::vector<bool>& keep) {
    std::vector<DomainId> domains;
    for (DomainId d : index.pathTo(index.node(id).leaf)) {
        const int level = index.domain(d).level;
        if (level >= 0 && keep[std::size_t(level)]) domains.push_back(d);
    }
    return domains;
}

} // namespace

Result<std::vector<LabelOperation>> relabelOperations(const ClusterState& state, const TopologyIndex& index,
                                                      const RelabelRequest& request) {
    if (Status checked = checkRequest(index, request); !checked) return checked.error();
    const std::set<std::string_view> levelKeys(request.keys.begin(), request.keys.end());
    // Each domain's value is checked once, not once per node.
    std::vector<std::uint8_t> valueChecked(index.domainSlots(), 0);

    std::map<std::string, LabelOperation> byEdits;
    for (NodeId id = 0; id < state.nodeSlots(); ++id) {
        const NodeRecord& record = state.record(id);
        if (!record.present || id >= index.nodeSlots() || index.node(id).leaf == kNoDomain) continue;
        const Node& node = *record.node;
        std::vector<LabelEdit> edits;
        for (DomainId domainId : index.pathTo(index.node(id).leaf)) {
            const Domain& domain = index.domain(domainId);
            if (domain.level < 0 || request.keys[std::size_t(domain.level)] == kSkipLevel) continue;
            const std::string& key = request.keys[std::size_t(domain.level)];
            const std::string* now = node.label(key);
            if (domain.unlabelled) {
                if (now) edits.push_back({key, std::nullopt});
                continue;
            }
            if (!valueChecked[domainId]) {
                if (std::string problem = labelValueProblem(domain.value); !problem.empty())
                    return Error{"domain " + index.pathName(domainId) + ": its name is no label value (" + problem +
                                 "); give - for level " + index.spec().levels[std::size_t(domain.level)].name +
                                 " to leave it out"};
                valueChecked[domainId] = 1;
            }
            if (!now || *now != domain.value) edits.push_back({key, domain.value});
        }
        for (const auto& [key, value] : node.labels)
            if (!levelKeys.contains(key) && removedByPattern(key, request.remove)) edits.push_back({key, std::nullopt});
        if (edits.empty()) continue;
        LabelOperation& operation = byEdits[editsKey(edits)];
        if (operation.edits.empty()) operation.edits = std::move(edits);
        operation.target.nodes.push_back(node.name);
    }

    std::vector<LabelOperation> operations;
    operations.reserve(byEdits.size());
    for (auto& [key, operation] : byEdits) {
        std::sort(operation.target.nodes.begin(), operation.target.nodes.end(), naturalLess);
        operations.push_back(std::move(operation));
    }
    std::sort(operations.begin(), operations.end(), [](const LabelOperation& a, const LabelOperation& b) {
        return naturalLess(a.target.nodes.front(), b.target.nodes.front());
    });
    return operations;
}

std::vector<std::string> relabelMismatches(const ClusterState& after, const TopologyIndex& source,
                                           const RelabelRequest& request) {
    std::vector<bool> keep;
    std::vector<std::string> keys;
    for (const std::string& key : request.keys) {
        keep.push_back(key != kSkipLevel);
        if (keep.back()) keys.push_back(key);
    }
    const TopologyIndex labelled = TopologyIndex::build(after, TopologySpec::fromLabelKeys(keys), source.gpuResources());
    const std::vector<bool> keepAll(keys.size(), true);
    const auto placed = [&](NodeId id) {
        return id < source.nodeSlots() && after.record(id).present && source.node(id).leaf != kNoDomain;
    };
    // Faithful means one to one: each source domain becomes one labelled domain of the same
    // value, and no labelled domain gathers two source domains.
    std::unordered_map<DomainId, DomainId> toLabelled, toSource;
    std::unordered_set<DomainId> splitSource, mergedLabelled;
    for (NodeId id = 0; id < after.nodeSlots(); ++id) {
        if (!placed(id)) continue;
        const std::vector<DomainId> from = keptDomains(source, id, keep), to = keptDomains(labelled, id, keepAll);
        for (std::size_t k = 0; k < from.size() && k < to.size(); ++k) {
            if (toLabelled.try_emplace(from[k], to[k]).first->second != to[k]) splitSource.insert(from[k]);
            if (toSource.try_emplace(to[k], from[k]).first->second != from[k]) mergedLabelled.insert(to[k]);
        }
    }
    std::vector<std::string> mismatches;
    for (NodeId id = 0; id < after.nodeSlots(); ++id) {
        if (!placed(id)) continue;
        const std::vector<DomainId> from = keptDomains(source, id, keep), to = keptDomains(labelled, id, keepAll);
        bool faithful = from.size() == to.size();
        for (std::size_t k = 0; faithful && k < from.size(); ++k) {
            const Domain& a = source.domain(from[k]);
            const Domain& b = labelled.domain(to[k]);
            faithful = a.unlabelled == b.unlabelled && (a.unlabelled || a.value == b.value) &&
                       !splitSource.contains(from[k]) && !mergedLabelled.contains(to[k]);
        }
        if (!faithful) mismatches.push_back(after.record(id).node->name);
    }
    return mismatches;
}

std::string relabelDescription(const RelabelRequest& request, std::string_view origin) {
    return "The " + std::string(origin) + " hierarchy as node labels: " + joinList(request.keys) +
           (request.remove.empty() ? std::string() : "; removed: " + joinList(request.remove));
}

std::string relabelCheckText(const std::vector<std::string>& mismatches, const RelabelRequest& request,
                             std::string_view origin) {
    std::vector<std::string> kept;
    for (const std::string& key : request.keys)
        if (key != kSkipLevel) kept.push_back(key);
    std::string text = "Read as --levels " + joinList(kept) + ", the labels ";
    if (mismatches.empty()) return text + "place every node where the " + std::string(origin) + " hierarchy does.";
    const std::size_t shown = std::min<std::size_t>(mismatches.size(), 5);
    return text + "would not place " + std::to_string(mismatches.size()) + (mismatches.size() == 1 ? " node" : " nodes") +
           " where the " + std::string(origin) +
           " hierarchy does (a level left out merges domains of one name under different parents): " +
           joinList({mismatches.begin(), mismatches.begin() + std::ptrdiff_t(shown)}) + (mismatches.size() > shown ? ",..." : "");
}

} // namespace topodeck
