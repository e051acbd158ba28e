#include "core/changes/plan_preview.h"

#include "core/text_format.h"

#include <map>
#include <set>
#include <tuple>

namespace topodeck {

namespace {

struct Painter {
    bool colour;
    std::string operator()(std::string_view code, const std::string& text) const {
        return colour ? "\x1b[" + std::string(code) + "m" + text + "\x1b[0m" : text;
    }
};
constexpr std::string_view kGreen = "32";
constexpr std::string_view kRed = "31";
constexpr std::string_view kYellow = "33";
constexpr std::string_view kBold = "1";

std::string plural(std::size_t n, std::string_view one, std::string_view many) {
    return groupThousands(static_cast<std::int64_t>(n)) + ' ' + std::string(n == 1 ? one : many);
}

std::string listed(const std::vector<std::string>& names, std::size_t most) {
    std::string out;
    for (std::size_t i = 0; i < names.size() && i < most; ++i) out += (i ? ", " : "") + visibleText(names[i]);
    if (names.size() > most) out += ", ... (" + groupThousands(static_cast<std::int64_t>(names.size())) + ")";
    return out;
}

// One node's changes as the lines that show them; nodes with the same lines form a group.
std::vector<std::string> changeLines(const std::vector<const LabelChange*>& changes, const Painter& paint) {
    std::vector<std::string> lines;
    for (const LabelChange* c : changes) {
        const std::string key = (c->annotation ? "annotation " : "") + visibleText(c->key);
        if (!c->before)
            lines.push_back(paint(kGreen, "+ " + key + "=" + visibleText(*c->after)));
        else if (!c->after)
            lines.push_back(paint(kRed, "- " + key + "=" + visibleText(*c->before)));
        else
            lines.push_back(
                paint(kYellow, "~ " + key + ": " + visibleText(*c->before) + " -> " + visibleText(*c->after)));
    }
    return lines;
}

} // namespace

std::string planPreviewText(const ChangePlan& plan, const TopologyDiff& diff, const std::vector<std::string>& drift,
                            const PlanPreviewOptions& options) {
    const Painter paint{options.colour};
    std::set<std::string_view> nodes;
    std::size_t annotations = 0;
    for (const LabelChange& c : plan.labelChanges) {
        nodes.insert(c.node);
        annotations += c.annotation ? 1 : 0;
    }
    // A plan of objects alone says nothing of labels, one of annotations alone nothing of labels.
    const bool labels = !plan.labelChanges.empty() || plan.objectChanges.empty();
    const std::size_t labelCount = plan.labelChanges.size() - annotations;
    const std::string nodeChanges =
        (labelCount > 0 || annotations == 0 ? plural(labelCount, "label change", "label changes") : std::string()) +
        (labelCount > 0 && annotations > 0 ? " and " : "") +
        (annotations > 0 ? plural(annotations, "annotation change", "annotation changes") : std::string()) + " on " +
        plural(nodes.size(), "node", "nodes");
    std::string out =
        paint(kBold, "Plan \"" + visibleText(plan.name) + "\"") + ": " + (labels ? nodeChanges : std::string()) +
        (plan.objectChanges.empty()
             ? std::string()
             : (labels ? ", " : "") + plural(plan.objectChanges.size(), "object change", "object changes")) +
        (plan.cluster.empty() ? std::string() : " (planned on " + visibleText(plan.cluster) + ")") + "\n";
    if (!plan.description.empty()) out += visibleText(plan.description, true) + "\n";
    for (std::size_t i = 0; i < plan.operations.size(); ++i) {
        const LabelOperation& op = plan.operations[i];
        std::string edits;
        for (const LabelEdit& e : op.edits)
            edits += ' ' + visibleText(e.key) + (e.value ? "=" + visibleText(*e.value) : "-");
        out += "  " + std::to_string(i + 1) + ". " + op.target.describe() + ":" + edits + "\n";
    }

    // Node by node, grouped by the same lines (a rack relabelled is one group of 18 nodes).
    std::map<std::vector<std::string>, std::vector<std::string>> groups;
    std::vector<const std::vector<std::string>*> order;
    for (std::size_t i = 0; i < plan.labelChanges.size();) {
        std::vector<const LabelChange*> ofNode;
        const std::string& node = plan.labelChanges[i].node;
        for (; i < plan.labelChanges.size() && plan.labelChanges[i].node == node; ++i)
            ofNode.push_back(&plan.labelChanges[i]);
        auto [it, inserted] = groups.try_emplace(changeLines(ofNode, paint));
        if (inserted) order.push_back(&it->first);
        it->second.push_back(node);
    }
    if (labels) out += "\nLabels:\n";
    if (labels && order.empty()) out += "  nothing to change\n";
    for (std::size_t g = 0; g < order.size() && g < options.maxGroups; ++g) {
        const std::vector<std::string>& members = groups[*order[g]];
        out += "  " + (members.size() == 1 ? "node " : plural(members.size(), "node", "nodes") + ": ") +
               listed(members, options.maxListed) + "\n";
        for (const std::string& line : *order[g]) out += "      " + line + "\n";
    }
    if (order.size() > options.maxGroups)
        out += "  ... and " + plural(order.size() - options.maxGroups, "more group", "more groups") + " of nodes\n";

    if (!plan.objectChanges.empty()) {
        out += "\nObjects:\n";
        for (std::size_t i = 0; i < plan.objectChanges.size(); ++i) {
            if (i == options.maxGroups) {
                out += "  ... and " + plural(plan.objectChanges.size() - i, "more object", "more objects") + "\n";
                break;
            }
            out += objectDiffText(plan.objectChanges[i], options.colour);
        }
    }

    out += "\nTopology:\n";
    if (diff.empty()) out += "  unchanged\n";
    const auto names = [&](const char* what, const std::vector<std::string>& list, std::string_view code = {}) {
        if (list.empty()) return;
        const std::string line = std::string(what) + " (" + groupThousands(static_cast<std::int64_t>(list.size())) +
                                 "): " + listed(list, options.maxListed);
        out += "  " + (code.empty() ? line : paint(code, line)) + "\n";
    };
    names("domains added", diff.domainsAdded, kGreen);
    names("domains removed", diff.domainsRemoved, kRed);
    names("domains split", diff.domainsSplit);
    names("domains merged", diff.domainsMerged);
    // Moves grouped by where from and where to: a relabelled rack is one line.
    std::map<std::pair<std::string, std::string>, std::size_t> moves;
    for (const TopologyDiff::Move& m : diff.moved) ++moves[{m.from, m.to}];
    if (!moves.empty())
        out += "  nodes moved (" + groupThousands(static_cast<std::int64_t>(diff.moved.size())) + "):\n";
    std::size_t shown = 0;
    for (const auto& [fromTo, n] : moves) {
        if (shown++ == options.maxGroups) {
            out += "    ... and " + plural(moves.size() - options.maxGroups, "more move", "more moves") + "\n";
            break;
        }
        out += "    " + visibleText(fromTo.first) + " -> " + visibleText(fromTo.second) + ": " +
               plural(n, "node", "nodes") + "\n";
    }
    names("leave Kueue TAS capacity (a level label missing)", diff.leftLevelCapacity, kRed);
    names("join Kueue TAS capacity", diff.joinedLevelCapacity, kGreen);
    names("NVLink domains now across racks", diff.nvlinkSplit, kYellow);
    if (!diff.capacity.empty()) {
        out += "  GPUs per domain, as Kueue TAS counts them:\n";
        for (std::size_t i = 0; i < diff.capacity.size(); ++i) {
            if (i == options.maxGroups) {
                out += "    ... and " + plural(diff.capacity.size() - i, "more domain", "more domains") + "\n";
                break;
            }
            const TopologyDiff::Capacity& c = diff.capacity[i];
            out += "    " + visibleText(c.domain) + ": " + groupThousands(c.gpusBefore) + " -> " +
                   groupThousands(c.gpusAfter) + " GPUs (" + groupThousands(c.nodesBefore) + " -> " +
                   groupThousands(c.nodesAfter) + " nodes)\n";
        }
    }
    if (!diff.stranded.empty()) {
        out += "\n" +
               paint(kRed, "Risks: running workloads whose pods' nodeSelector or node affinity stops matching their nodes (" +
                               plural(diff.stranded.size(), "workload", "workloads") +
                               "); a pod that restarts cannot come back:") +
               "\n";
        for (std::size_t i = 0; i < diff.stranded.size() && i < options.maxGroups; ++i) {
            const TopologyDiff::Stranded& s = diff.stranded[i];
            out += "  " + visibleText(s.workload) + ": " + plural(s.pods, "pod", "pods") + "; " + visibleText(s.example) +
                   "\n";
        }
        if (diff.stranded.size() > options.maxGroups)
            out += "  ... and " + std::to_string(diff.stranded.size() - options.maxGroups) + " more\n";
    }
    if (!diff.ownedElsewhere.empty()) {
        out += "\n" +
               paint(kYellow, "Risks: labels another field manager owns (managedFields); the controller that set "
                              "them is likely to put them back:") +
               "\n";
        for (std::size_t i = 0; i < diff.ownedElsewhere.size() && i < options.maxGroups; ++i) {
            const TopologyDiff::OwnedElsewhere& o = diff.ownedElsewhere[i];
            out += "  " + visibleText(o.key) + " on " + plural(o.nodes, "node", "nodes") + " (" + visibleText(o.example) +
                   (o.nodes > 1 ? ", ...): " : "): ") + "managed by " + visibleText(o.manager) + "\n";
        }
        if (diff.ownedElsewhere.size() > options.maxGroups)
            out += "  ... and " + std::to_string(diff.ownedElsewhere.size() - options.maxGroups) + " more\n";
    }
    const auto problems = [&](std::string_view code, const std::string& heading, const std::vector<std::string>& list) {
        if (list.empty()) return;
        out += "\n" + paint(code, heading) + "\n";
        for (std::size_t i = 0; i < list.size() && i < options.maxGroups; ++i)
            out += "  " + visibleText(list[i]) + "\n";
        if (list.size() > options.maxGroups)
            out += "  ... and " + std::to_string(list.size() - options.maxGroups) + " more\n";
    };
    problems(kRed, "Refused: what the target CRDs or controllers would not take; apply refuses the plan:",
             diff.objectProblems);
    problems(kYellow, "Risks of the object changes:", diff.objectRisks);
    if (!drift.empty()) {
        out += "\n" +
               paint(kYellow, "Drift: the cluster no longer holds what the plan found (" +
                                  plural(drift.size(), "label", "labels") + "); applying would refuse these:") +
               "\n";
        for (std::size_t i = 0; i < drift.size() && i < options.maxGroups; ++i) out += "  " + drift[i] + "\n";
        if (drift.size() > options.maxGroups)
            out += "  ... and " + std::to_string(drift.size() - options.maxGroups) + " more\n";
    }
    return out;
}

} // namespace topodeck
