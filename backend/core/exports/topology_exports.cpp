#include "core/exports/topology_exports.h"

#include "core/exports/slurm_topology_from_index.h"
#include "core/text/hostlist.h"
#include "core/text/json_text.h"
#include "core/text/text_file.h"
#include "core/topology/label_selector.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <unordered_map>

namespace topodeck {

namespace {

constexpr std::string_view kHostnameLabel = "kubernetes.io/hostname";

// JSON string literals are YAML double-quoted scalars: one escaping for every value written.
std::string jsonQuoted(std::string_view text) {
    std::string out;
    appendJsonString(out, text);
    return out;
}

bool fromLabels(const TopologyIndex& index, std::string& why) {
    if (index.spec().readFromLabels() && index.spec().depth() > 0) return true;
    why = index.spec().depth() == 0
              ? "the hierarchy has no levels: give --levels KEYS"
              : "the hierarchy comes from " + (index.spec().origin.empty() ? std::string("objects") : index.spec().origin) +
                    ", not node labels; a Topology names label keys, so label the nodes first";
    return false;
}

// Single-quoted for sh when it holds anything but plain characters (an annotation's value has
// commas and colons; a label's never needs it, so its lines stay as kubectl prints them).
std::string shellQuoted(const std::string& word) {
    if (word.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:,") ==
        std::string::npos)
        return word;
    std::string out = "'";
    for (char c : word) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

std::string levelsYaml(const TopologySpec& spec) {
    std::string out = "  levels:\n";
    for (const TopologyLevel& level : spec.levels) out += "  - nodeLabel: " + jsonQuoted(level.nodeLabel) + "\n";
    return out;
}

// The label a ResourceFlavor selects its nodes by: of those every present node carries alike
// (level and hostname keys aside), the one that names the hardware, else the first. One label:
// a reviewer reads what the flavor means, and a node that gains another shared label later is
// not left out.
std::vector<std::pair<std::string, std::string>> flavorLabel(const ClusterState& state, const TopologySpec& spec) {
    std::optional<std::vector<std::pair<std::string, std::string>>> shared;
    for (NodeId id = 0; id < state.nodeSlots(); ++id) {
        const NodeRecord& record = state.record(id);
        if (!record.present) continue;
        const std::vector<std::pair<std::string, std::string>>& labels = record.node->labels; // sorted
        if (!shared) {
            shared = labels;
        } else {
            std::vector<std::pair<std::string, std::string>> both;
            std::set_intersection(shared->begin(), shared->end(), labels.begin(), labels.end(), std::back_inserter(both));
            shared = std::move(both);
        }
        if (shared->empty()) break;
    }
    std::vector<std::pair<std::string, std::string>> out = shared.value_or(decltype(out)());
    std::erase_if(out, [&](const auto& label) {
        return label.first == kHostnameLabel || label.first == "kubernetes.io/os" || spec.levelIndex(label.first) >= 0;
    });
    for (std::string_view preferred : {"node.kubernetes.io/instance-type", "nvidia.com/gpu.product",
                                       "cloud.google.com/gke-accelerator", "karpenter.k8s.aws/instance-gpu-name",
                                       "nvidia.com/gpu.present"})
        for (const auto& label : out)
            if (label.first == preferred) return {label};
    if (out.size() > 1) out.resize(1);
    return out;
}

// A DNS subdomain from any text: lowercase, runs of other characters as one '-', trimmed.
std::string dnsName(std::string_view text) {
    std::string out;
    for (char c : text) {
        const char lower = (c >= 'A' && c <= 'Z') ? char(c - 'A' + 'a') : c;
        const bool ok = (lower >= 'a' && lower <= 'z') || (lower >= '0' && lower <= '9') || lower == '.';
        if (ok) out += lower;
        else if (!out.empty() && out.back() != '-') out += '-';
    }
    while (!out.empty() && (out.back() == '-' || out.back() == '.')) out.pop_back();
    while (!out.empty() && (out.front() == '-' || out.front() == '.')) out.erase(out.begin());
    if (out.size() > 253) out.resize(253);
    return out.empty() ? std::string("x") : out;
}

} // namespace

std::string kueueLevelsProblem(const std::vector<TopologyLevel>& levels) {
    if (levels.empty() || levels.size() > 16) return "Kueue takes 1 to 16 levels, not " + std::to_string(levels.size());
    std::set<std::string_view> seen;
    for (std::size_t i = 0; i < levels.size(); ++i) {
        const std::string& key = levels[i].nodeLabel;
        if (const std::string problem = labelKeyProblem(key); !problem.empty())
            return "level " + std::to_string(i + 1) + ": \"" + key + "\" is not a label key: " + problem;
        if (!seen.insert(key).second) return "level " + std::to_string(i + 1) + ": \"" + key + "\" is given twice";
        if (key == kHostnameLabel && i + 1 != levels.size())
            return "kubernetes.io/hostname may only be the lowest level";
    }
    return {};
}

Result<KueueTopologyObjects> kueueTopologyObjects(const ClusterState& state, const TopologyIndex& index,
                                                  const KueueExportOptions& options) {
    std::string why;
    if (!fromLabels(index, why)) return Error{"Kueue Topology: " + why};
    const TopologySpec& spec = index.spec();
    if (const std::string problem = kueueLevelsProblem(spec.levels); !problem.empty())
        return Error{"Kueue Topology: " + problem};
    if (options.apiVersion != "v1beta2" && options.apiVersion != "v1beta1")
        return Error{"Kueue Topology: --api-version is v1beta2 or v1beta1, not \"" + options.apiVersion + '"'};
    KueueTopologyObjects out;
    out.topology.name = !options.topologyName.empty() ? options.topologyName
                        : !spec.name.empty()          ? dnsName(spec.name)
                                                      : std::string("default");
    out.flavor.name = options.flavorName.empty() ? out.topology.name : options.flavorName;
    for (const std::string& object : {out.topology.name, out.flavor.name})
        if (const std::string problem = nodeNameProblem(object); !problem.empty())
            return Error{"Kueue Topology: the name \"" + object + "\": " + problem};
    out.flavor.nodeLabels = options.flavorLabels.empty() ? flavorLabel(state, spec) : options.flavorLabels;
    if (out.flavor.nodeLabels.empty())
        return Error{"Kueue ResourceFlavor: no label is shared by every node, and a flavor with a topologyName needs "
                     "nodeLabels: give --flavor-labels KEY=VALUE,..."};
    out.flavor.topologyName = out.topology.name;
    out.topology.origin = "kueue";
    out.topology.levels = spec.levels;
    return out;
}

Result<std::string> kueueTopologyYaml(const ClusterState& state, const TopologyIndex& index,
                                      const KueueExportOptions& options) {
    Result<KueueTopologyObjects> objects = kueueTopologyObjects(state, index, options);
    if (!objects) return objects.error();
    const std::string& name = objects->topology.name;
    const std::string apiVersion = "kueue.x-k8s.io/" + options.apiVersion;
    std::string out = "# Kueue Topology and ResourceFlavor, from the " + std::to_string(index.spec().depth()) +
                      " levels topodeck reads. Levels are immutable once created" +
                      (options.apiVersion == "v1beta1" ? " (v1beta1)" : "") + "; a flavor's topologyName too.\n";
    out += "apiVersion: " + jsonQuoted(apiVersion) + "\nkind: \"Topology\"\nmetadata:\n  name: " + jsonQuoted(name) + "\n";
    out += "spec:\n" + levelsYaml(index.spec());
    out += "---\napiVersion: " + jsonQuoted(apiVersion) +
           "\nkind: \"ResourceFlavor\"\nmetadata:\n  name: " + jsonQuoted(objects->flavor.name) +
           "\nspec:\n  nodeLabels:\n";
    for (const auto& [key, value] : objects->flavor.nodeLabels)
        out += "    " + jsonQuoted(key) + ": " + jsonQuoted(value) + "\n";
    out += "  topologyName: " + jsonQuoted(name) + "\n";
    return out;
}

Result<TopologySpec> kaiTopologyObject(const TopologyIndex& index, const std::string& name) {
    std::string why;
    if (!fromLabels(index, why)) return Error{"KAI Topology: " + why};
    TopologySpec out;
    out.name = !name.empty() ? name : !index.spec().name.empty() ? dnsName(index.spec().name) : "default";
    if (const std::string problem = nodeNameProblem(out.name); !problem.empty())
        return Error{"KAI Topology: the name \"" + out.name + "\": " + problem};
    out.origin = "kai";
    out.levels = index.spec().levels;
    return out;
}

Result<std::string> kaiTopologyYaml(const TopologyIndex& index, const std::string& name) {
    Result<TopologySpec> object = kaiTopologyObject(index, name);
    if (!object) return object.error();
    return "# KAI Topology, top level first.\napiVersion: \"kai.scheduler/v1alpha1\"\nkind: \"Topology\"\nmetadata:\n"
           "  name: " +
           jsonQuoted(object->name) + "\nspec:\n" + levelsYaml(index.spec());
}

std::vector<HyperNode> hyperNodesFromIndex(const ClusterState& state, const TopologyIndex& index) {
    const TopologySpec& spec = index.spec();
    const int depth = spec.depth();
    std::vector<HyperNode> out;
    if (depth == 0) return out;
    // Names first: "<level>-<value>", and where that is taken, with the parent's name before it.
    std::unordered_map<DomainId, std::string> names;
    std::set<std::string> taken;
    std::vector<DomainId> order; // top-down, each level in the index's order
    std::vector<DomainId> frontier = {kRootDomain};
    while (!frontier.empty()) {
        std::vector<DomainId> next;
        for (DomainId parent : frontier)
            for (DomainId child : index.domain(parent).children) {
                next.push_back(child);
                const Domain& domain = index.domain(child);
                if (domain.unlabelled) continue;
                const std::string levelName = spec.levels[std::size_t(domain.level)].name;
                // "rack-1-03" stays itself; "r7" at level rack becomes "rack-r7".
                const std::string own = dnsName(domain.value);
                std::string name = own.starts_with(dnsName(levelName)) ? own : dnsName(levelName + "-" + domain.value);
                if (taken.contains(name)) {
                    const auto parentName = names.find(parent);
                    name = dnsName((parentName == names.end() ? std::string() : parentName->second + "-") + name);
                    for (int n = 2; taken.contains(name); ++n) name = dnsName(levelName + "-" + domain.value + "-" + std::to_string(n));
                }
                taken.insert(name);
                names[child] = name;
                order.push_back(child);
            }
        frontier = std::move(next);
    }
    for (DomainId id : order) {
        const Domain& domain = index.domain(id);
        HyperNode hyperNode;
        hyperNode.name = names[id];
        hyperNode.tier = depth - domain.level;
        hyperNode.tierName = spec.levels[std::size_t(domain.level)].name;
        if (domain.level == depth - 1) {
            for (NodeId node : domain.nodes)
                hyperNode.members.push_back({HyperNodeMember::Type::Node, HyperNodeMember::Selector::Exact,
                                             state.record(node).node->name, {}, {}});
        } else {
            for (DomainId child : domain.children)
                if (const auto found = names.find(child); found != names.end())
                    hyperNode.members.push_back(
                        {HyperNodeMember::Type::HyperNode, HyperNodeMember::Selector::Exact, found->second, {}, {}});
        }
        if (!hyperNode.members.empty()) out.push_back(std::move(hyperNode)); // Volcano wants at least one
    }
    return out;
}

std::string hyperNodesYaml(const std::vector<HyperNode>& hyperNodes) {
    std::string out = "# Volcano HyperNodes, highest tier first; tier 1 holds the nodes.\n";
    for (std::size_t i = 0; i < hyperNodes.size(); ++i) {
        const HyperNode& hyperNode = hyperNodes[i];
        if (i) out += "---\n";
        out += "apiVersion: \"topology.volcano.sh/v1alpha1\"\nkind: \"HyperNode\"\nmetadata:\n  name: " +
               jsonQuoted(hyperNode.name) + "\nspec:\n  tier: " + std::to_string(hyperNode.tier) + "\n";
        if (!hyperNode.tierName.empty()) out += "  tierName: " + jsonQuoted(hyperNode.tierName) + "\n";
        out += "  members:\n";
        for (const HyperNodeMember& member : hyperNode.members)
            out += std::string("  - {type: ") + (member.type == HyperNodeMember::Type::Node ? "Node" : "HyperNode") +
                   ", selector: {exactMatch: {name: " + jsonQuoted(member.value) + "}}}\n";
    }
    return out;
}

std::string writeTopologyYaml(const std::vector<SlurmTopology>& topologies) {
    std::string out = "# Slurm topology.yaml (Slurm 25.05 and later).\n";
    for (std::size_t i = 0; i < topologies.size(); ++i) {
        const SlurmTopology& topology = topologies[i];
        out += "- topology: " + jsonQuoted(topology.name) + "\n  cluster_default: " + (i == 0 ? "true" : "false") + "\n";
        switch (topology.kind) {
        case SlurmTopology::Kind::Flat:
            out += "  flat: true\n";
            break;
        case SlurmTopology::Kind::Tree:
            out += "  tree:\n    switches:\n";
            for (const SlurmSwitch& sw : topology.switches) {
                out += "    - switch: " + jsonQuoted(sw.name) + "\n";
                if (!sw.switches.empty()) out += "      children: " + jsonQuoted(compressHostlist(sw.switches)) + "\n";
                if (!sw.nodes.empty()) out += "      nodes: " + jsonQuoted(compressHostlist(sw.nodes)) + "\n";
            }
            break;
        case SlurmTopology::Kind::Block:
            out += "  block:\n";
            if (!topology.blockSizes.empty()) {
                out += "    block_sizes: [";
                for (std::size_t s = 0; s < topology.blockSizes.size(); ++s)
                    out += (s ? ", " : "") + std::to_string(topology.blockSizes[s]);
                out += "]\n";
            }
            out += "    blocks:\n";
            for (const SlurmBlock& block : topology.blocks)
                out += "    - block: " + jsonQuoted(block.name) + "\n      nodes: " + jsonQuoted(compressHostlist(block.nodes)) + "\n";
            break;
        }
    }
    return out;
}

NodeLabelsExport nodeLabelsExport(const ClusterState& state, const TopologyIndex& index, const ChangePlan* plan) {
    // node -> (key -> value, nullopt: remove), in node name order.
    std::map<std::string, std::map<std::string, std::optional<std::string>>> labels, annotations;
    if (plan) {
        for (const LabelChange& change : plan->labelChanges)
            (change.annotation ? annotations : labels)[change.node][change.key] = change.after;
    } else {
        std::vector<std::string> keys;
        for (const TopologyLevel& level : index.spec().levels) keys.push_back(level.nodeLabel);
        if (!index.spec().nvlinkLabel.empty()) keys.push_back(index.spec().nvlinkLabel);
        for (NodeId id = 0; id < state.nodeSlots(); ++id) {
            const NodeRecord& record = state.record(id);
            if (!record.present) continue;
            auto& nodeLabels = labels[record.node->name];
            for (const std::string& key : keys)
                if (const std::string* value = record.node->label(key)) nodeLabels[key] = *value;
        }
    }
    NodeLabelsExport out;
    out.objects =
        "# Partial Nodes (names and labels only) for\n"
        "#   kubectl apply --server-side --force-conflicts --field-manager=topodeck -f FILE\n"
        "# A label another manager set (kubectl label, a controller) is a conflict without --force-conflicts;\n"
        "# with it, topodeck's manager takes the label over.\n";
    out.kubectlLines = "#!/bin/sh\n# The same labels with kubectl label.\nset -e\n";
    bool first = true;
    for (const auto& [field, byNode] : {std::pair{"labels", &labels}, std::pair{"annotations", &annotations}}) {
        const std::string verb = field == std::string_view("labels") ? "label" : "annotate";
        for (const auto& [node, changes] : *byNode) {
            std::string set, removed, line;
            for (const auto& [key, value] : changes) {
                if (value)
                    set += "    " + jsonQuoted(key) + ": " + jsonQuoted(*value) + "\n";
                else
                    removed += " " + key;
                line += " " + shellQuoted(key + (value ? "=" + *value : "-"));
            }
            out.kubectlLines += "kubectl " + verb + " node " + node + " --overwrite" + line + "\n";
            out.objects += std::string(first ? "" : "---\n") +
                           "apiVersion: \"v1\"\nkind: \"Node\"\nmetadata:\n  name: " + jsonQuoted(node) + "\n";
            if (!removed.empty())
                out.objects += "  # Removed, which apply cannot say:" + removed + " (see the kubectl lines)\n";
            out.objects += "  " + std::string(field) + (set.empty() ? ": {}\n" : ":\n" + set);
            first = false;
        }
    }
    return out;
}

TopologyExportFiles topologyExportFiles(const ClusterState& state, const TopologyIndex& index,
                                        const TopologyExportOptions& options, std::string_view format) {
    TopologyExportFiles out;
    const bool all = format == "all";
    auto add = [&](const char* name, Result<std::string> text) {
        if (text) out.files.push_back({name, std::move(*text)});
        else out.leftOut.push_back(std::string(name) + " left out: " + text.error().message);
    };
    if (all || format == "kueue") add("kueue-topology.yaml", kueueTopologyYaml(state, index, options.kueue));
    if (all || format == "kai") add("kai-topology.yaml", kaiTopologyYaml(index, options.kaiName));
    if (all || format == "hypernodes") add("hypernodes.yaml", hyperNodesYaml(hyperNodesFromIndex(state, index)));
    if (all || format == "topology.conf" || format == "topology.yaml") {
        const SlurmTopology slurm = options.blocks ? slurmBlocksFromIndex(state, index, options.blockPerRack)
                                                   : slurmTreeFromIndex(state, index);
        if (all || format == "topology.conf") add("topology.conf", writeTopologyConf(slurm));
        if (all || format == "topology.yaml") add("topology.yaml", writeTopologyYaml({slurm}));
    }
    return out;
}

Result<std::vector<std::string>> writeExportFolder(const std::string& folder, const std::vector<ExportFile>& files,
                                                   bool mustBeEmpty) {
    std::error_code error;
    if (mustBeEmpty && std::filesystem::exists(folder, error) && !std::filesystem::is_empty(folder, error))
        return Error{folder + " is not empty: a review bundle goes into a new or empty folder"};
    std::filesystem::create_directories(folder, error);
    if (error) return Error{folder + ": " + error.message()};
    std::vector<std::string> written;
    for (const ExportFile& file : files) {
        const std::string path = (std::filesystem::path(folder) / file.name).string();
        if (Status status = writeFileAtomically(path, file.text); !status) return status.error();
        written.push_back(path);
    }
    return written;
}

} // namespace topodeck
