#include "core/changes/plan_preview.h"

#include "core/text/text_format.h"

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

// Whether the preview speaks of labels: a plan of objects alone says nothing of them.
bool showsLabels(const ChangePlan& plan) {
    return !plan.labelChanges.empty() || plan.objectChanges.empty();
}

// "3 label changes and 1 annotation change on 2 nodes"; a plan of annotations alone says nothing
// of labels.
std::string nodeChangesText(const ChangePlan& plan) {
    std::set<std::string_view> nodes;
    std::size_t annotations = 0;
    for (const LabelChange& c : plan.labelChanges) {
        nodes.insert(c.node);
        annotations += c.annotation ? 1 : 0;
    }
    const std::size_t labelCount = plan.labelChanges.size() - annotations;
    return (labelCount > 0 || annotations == 0
                ? plural(labelCount, "label change", "label changes", CountDigits::Grouped)
                : std::string()) +
           (labelCount > 0 && annotations > 0 ? " and " : "") +
           (annotations > 0 ? plural(annotations, "annotation change", "annotation changes", CountDigits::Grouped)
                            : std::string()) +
           " on " + plural(nodes.size(), "node", "nodes", CountDigits::Grouped);
}

// Writes the preview a section at a time, each list cut at the options' limits.
class PreviewWriter {
public:
    explicit PreviewWriter(const PlanPreviewOptions& options) : m_options(options), m_paint{options.colour} {}

    // What the plan changes, in one line, then its description and operations.
    void heading(const ChangePlan& plan) {
        const bool withLabels = showsLabels(plan);
        m_out = m_paint(kBold, "Plan \"" + visibleText(plan.name) + "\"") + ": " +
                (withLabels ? nodeChangesText(plan) : std::string()) +
                (plan.objectChanges.empty()
                     ? std::string()
                     : (withLabels ? ", " : "") +
                           plural(plan.objectChanges.size(), "object change", "object changes", CountDigits::Grouped)) +
                (plan.cluster.empty() ? std::string() : " (planned on " + visibleText(plan.cluster) + ")") + "\n";
        if (!plan.description.empty()) m_out += visibleText(plan.description, true) + "\n";
        for (std::size_t i = 0; i < plan.operations.size(); ++i) {
            const LabelOperation& op = plan.operations[i];
            std::string edits;
            for (const LabelEdit& e : op.edits)
                edits += ' ' + visibleText(e.key) + (e.value ? "=" + visibleText(*e.value) : "-");
            m_out += "  " + std::to_string(i + 1) + ". " + op.target.describe() + ":" + edits + "\n";
        }
    }

    // Node by node, grouped by the same lines (a rack relabelled is one group of 18 nodes).
    void labels(const ChangePlan& plan) {
        std::map<std::vector<std::string>, std::vector<std::string>> groups;
        std::vector<const std::vector<std::string>*> order;
        for (std::size_t i = 0; i < plan.labelChanges.size();) {
            std::vector<const LabelChange*> ofNode;
            const std::string& node = plan.labelChanges[i].node;
            for (; i < plan.labelChanges.size() && plan.labelChanges[i].node == node; ++i)
                ofNode.push_back(&plan.labelChanges[i]);
            auto [it, inserted] = groups.try_emplace(changeLines(ofNode, m_paint));
            if (inserted) order.push_back(&it->first);
            it->second.push_back(node);
        }
        const bool shown = showsLabels(plan);
        if (shown) m_out += "\nLabels:\n";
        if (shown && order.empty()) m_out += "  nothing to change\n";
        for (std::size_t g = 0; g < order.size() && g < m_options.maxGroups; ++g) {
            const std::vector<std::string>& members = groups[*order[g]];
            m_out +=
                "  " +
                (members.size() == 1 ? "node " : plural(members.size(), "node", "nodes", CountDigits::Grouped) + ": ") +
                listed(members, m_options.maxListed) + "\n";
            for (const std::string& line : *order[g]) m_out += "      " + line + "\n";
        }
        if (order.size() > m_options.maxGroups)
            m_out += "  ... and " +
                     plural(order.size() - m_options.maxGroups, "more group", "more groups", CountDigits::Grouped) +
                     " of nodes\n";
    }

    void objects(const ChangePlan& plan) {
        if (plan.objectChanges.empty()) return;
        m_out += "\nObjects:\n";
        for (std::size_t i = 0; i < plan.objectChanges.size(); ++i) {
            if (i == m_options.maxGroups) {
                m_out += "  ... and " +
                         plural(plan.objectChanges.size() - i, "more object", "more objects", CountDigits::Grouped) +
                         "\n";
                break;
            }
            m_out += objectDiffText(plan.objectChanges[i], m_options.colour);
        }
    }

    // How the topology's domains change: added, removed, split, merged, nodes moved, capacity.
    void topology(const TopologyDiff& diff) {
        m_out += "\nTopology:\n";
        if (diff.empty()) m_out += "  unchanged\n";
        names("domains added", diff.domainsAdded, kGreen);
        names("domains removed", diff.domainsRemoved, kRed);
        names("domains split", diff.domainsSplit);
        names("domains merged", diff.domainsMerged);
        nodeMoves(diff);
        names("leave Kueue TAS capacity (a level label missing)", diff.leftLevelCapacity, kRed);
        names("join Kueue TAS capacity", diff.joinedLevelCapacity, kGreen);
        names("NVLink domains now across racks", diff.nvlinkSplit, kYellow);
        capacity(diff);
    }

    void stranded(const TopologyDiff& diff) {
        if (diff.stranded.empty()) return;
        m_out +=
            "\n" +
            m_paint(kRed, "Risks: running workloads whose pods' nodeSelector or node affinity stops matching their "
                          "nodes (" +
                              plural(diff.stranded.size(), "workload", "workloads", CountDigits::Grouped) +
                              "); a pod that restarts cannot come back:") +
            "\n";
        for (std::size_t i = 0; i < diff.stranded.size() && i < m_options.maxGroups; ++i) {
            const TopologyDiff::Stranded& s = diff.stranded[i];
            m_out += "  " + visibleText(s.workload) + ": " + plural(s.pods, "pod", "pods", CountDigits::Grouped) +
                     "; " + visibleText(s.example) + "\n";
        }
        if (diff.stranded.size() > m_options.maxGroups)
            m_out += "  ... and " + std::to_string(diff.stranded.size() - m_options.maxGroups) + " more\n";
    }

    void ownedElsewhere(const TopologyDiff& diff) {
        if (diff.ownedElsewhere.empty()) return;
        m_out += "\n" +
                 m_paint(kYellow, "Risks: labels another field manager owns (managedFields); the controller that set "
                                  "them is likely to put them back:") +
                 "\n";
        for (std::size_t i = 0; i < diff.ownedElsewhere.size() && i < m_options.maxGroups; ++i) {
            const TopologyDiff::OwnedElsewhere& o = diff.ownedElsewhere[i];
            m_out += "  " + visibleText(o.key) + " on " + plural(o.nodes, "node", "nodes", CountDigits::Grouped) +
                     " (" + visibleText(o.example) + (o.nodes > 1 ? ", ...): " : "): ") + "managed by " +
                     visibleText(o.manager) + "\n";
        }
        if (diff.ownedElsewhere.size() > m_options.maxGroups)
            m_out += "  ... and " + std::to_string(diff.ownedElsewhere.size() - m_options.maxGroups) + " more\n";
    }

    // A heading and the list under it, when there is anything to list.
    void problems(std::string_view code, const std::string& title, const std::vector<std::string>& list) {
        if (list.empty()) return;
        m_out += "\n" + m_paint(code, title) + "\n";
        for (std::size_t i = 0; i < list.size() && i < m_options.maxGroups; ++i)
            m_out += "  " + visibleText(list[i]) + "\n";
        if (list.size() > m_options.maxGroups)
            m_out += "  ... and " + std::to_string(list.size() - m_options.maxGroups) + " more\n";
    }

    void drift(const std::vector<std::string>& lines) {
        if (lines.empty()) return;
        m_out += "\n" +
                 m_paint(kYellow, "Drift: the cluster no longer holds what the plan found (" +
                                      plural(lines.size(), "label", "labels", CountDigits::Grouped) +
                                      "); applying would refuse these:") +
                 "\n";
        for (std::size_t i = 0; i < lines.size() && i < m_options.maxGroups; ++i) m_out += "  " + lines[i] + "\n";
        if (lines.size() > m_options.maxGroups)
            m_out += "  ... and " + std::to_string(lines.size() - m_options.maxGroups) + " more\n";
    }

    std::string text() && { return std::move(m_out); }

private:
    // "what (count): a, b, ...", coloured when code is given.
    void names(const char* what, const std::vector<std::string>& list, std::string_view code = {}) {
        if (list.empty()) return;
        const std::string line = std::string(what) + " (" + groupThousands(static_cast<std::int64_t>(list.size())) +
                                 "): " + listed(list, m_options.maxListed);
        m_out += "  " + (code.empty() ? line : m_paint(code, line)) + "\n";
    }

    // Moves grouped by where from and where to: a relabelled rack is one line.
    void nodeMoves(const TopologyDiff& diff) {
        std::map<std::pair<std::string, std::string>, std::size_t> moves;
        for (const TopologyDiff::Move& m : diff.moved) ++moves[{m.from, m.to}];
        if (!moves.empty())
            m_out += "  nodes moved (" + groupThousands(static_cast<std::int64_t>(diff.moved.size())) + "):\n";
        std::size_t shown = 0;
        for (const auto& [fromTo, n] : moves) {
            if (shown++ == m_options.maxGroups) {
                m_out += "    ... and " +
                         plural(moves.size() - m_options.maxGroups, "more move", "more moves", CountDigits::Grouped) +
                         "\n";
                break;
            }
            m_out += "    " + visibleText(fromTo.first) + " -> " + visibleText(fromTo.second) + ": " +
                     plural(n, "node", "nodes", CountDigits::Grouped) + "\n";
        }
    }

    void capacity(const TopologyDiff& diff) {
        if (diff.capacity.empty()) return;
        m_out += "  GPUs per domain, as Kueue TAS counts them:\n";
        for (std::size_t i = 0; i < diff.capacity.size(); ++i) {
            if (i == m_options.maxGroups) {
                m_out += "    ... and " +
                         plural(diff.capacity.size() - i, "more domain", "more domains", CountDigits::Grouped) + "\n";
                break;
            }
            const TopologyDiff::Capacity& c = diff.capacity[i];
            m_out += "    " + visibleText(c.domain) + ": " + groupThousands(c.gpusBefore) + " -> " +
                     groupThousands(c.gpusAfter) + " GPUs (" + groupThousands(c.nodesBefore) + " -> " +
                     groupThousands(c.nodesAfter) + " nodes)\n";
        }
    }

    const PlanPreviewOptions& m_options;
    const Painter m_paint;
    std::string m_out;
};

} // namespace

std::string planPreviewText(const ChangePlan& plan, const TopologyDiff& diff, const std::vector<std::string>& drift,
                            const PlanPreviewOptions& options) {
    PreviewWriter preview(options);
    preview.heading(plan);
    preview.labels(plan);
    preview.objects(plan);
    preview.topology(diff);
    preview.stranded(diff);
    preview.ownedElsewhere(diff);
    preview.problems(kRed, "Refused: what the target CRDs or controllers would not take; apply refuses the plan:",
                     diff.objectProblems);
    preview.problems(kYellow, "Risks of the object changes:", diff.objectRisks);
    preview.drift(drift);
    return std::move(preview).text();
}

} // namespace topodeck
