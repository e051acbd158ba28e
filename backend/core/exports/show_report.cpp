#include "core/exports/show_report.h"

#include "core/topology/compute_domain_usage.h"
#include "core/topology/hierarchy_sources.h"

#include "core/slurm/slurm_cluster.h"
#include "core/text/command_args.h"
#include "core/text/json_writer.h"
#include "core/text/text_format.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <string_view>
#include <vector>

namespace topodeck {
namespace {

// ---------------------------------------------------------------------------------------------
// Shared helpers

std::int64_t nodesNotReady(const DomainTotals& t) {
    return t.nodesTotal - t.nodesReady;
}
std::int64_t nodesCordoned(const DomainTotals& t) {
    return t.nodesReady - t.nodesSchedulable;
}

// Rounded percentage that never claims 0% or 100% unless it is exactly so; -1 when there is no GPU.
int occupancyPercent(std::int64_t used, std::int64_t total) {
    if (total <= 0) return -1;
    used = std::clamp<std::int64_t>(used, 0, total);
    // In 128 bits: a file may claim any GPU count, and used * 200 would overflow.
    auto percent = static_cast<int>((static_cast<__int128>(used) * 200 + total) / (static_cast<__int128>(total) * 2));
    if (used > 0 && percent == 0) percent = 1;
    if (used < total && percent == 100) percent = 99;
    return percent;
}

// GPUs in use: the exact share when MIG slices or shared GPUs make some only partly used, else
// whole GPUs (the two agree then).
std::string usedText(const DomainTotals& t) {
    return t.gpusPartlyUsed > 0 ? t.gpuShareUsed.text() : groupThousands(t.gpusUsed);
}

int usedPercent(const DomainTotals& t) {
    if (t.gpusPartlyUsed == 0) return occupancyPercent(t.gpusUsed, t.gpusTotal);
    return occupancyPercent(t.gpuShareUsed.unitCount(), t.gpusTotal * GpuAmount::kUnits);
}

// The domains to show in tree order, and the nodes under the deepest ones shown.
struct Walker {
    const TopologyIndex& index;
    int maxDepth; // levels below the root to descend; -1 = all

    bool expands(const Domain& domain) const {
        const int below = domain.level + 1; // levels already descended
        return (maxDepth < 0 || below < maxDepth) && !domain.children.empty();
    }

    std::vector<DomainId> visibleChildren(const Domain& domain) const {
        std::vector<DomainId> out;
        if (!expands(domain)) return out;
        out.reserve(domain.children.size());
        for (DomainId child : domain.children)
            if (index.domain(child).alive) out.push_back(child);
        return out;
    }

    // Every node below a domain, in tree order (children are sorted, and so are leaf members).
    void collectNodes(DomainId id, std::vector<NodeId>& out) const {
        const Domain& domain = index.domain(id);
        out.insert(out.end(), domain.nodes.begin(), domain.nodes.end());
        for (DomainId child : domain.children)
            if (index.domain(child).alive) collectNodes(child, out);
    }
};

// ---------------------------------------------------------------------------------------------
// Table

namespace ansi {
constexpr std::string_view reset = "\x1b[0m";
constexpr std::string_view bold = "\x1b[1m";
constexpr std::string_view dim = "\x1b[2m";
constexpr std::string_view red = "\x1b[31m";
constexpr std::string_view green = "\x1b[32m";
constexpr std::string_view yellow = "\x1b[33m";
constexpr std::string_view cyan = "\x1b[36m";
constexpr std::string_view grey = "\x1b[90m";
} // namespace ansi

constexpr std::string_view kUsedGlyph = "█";
constexpr std::string_view kFreeGlyph = "░";
constexpr std::string_view kUnavailableGlyph = "▒";
constexpr std::string_view kPartlyGlyph = "▓"; // the unused rest of partly used GPUs: not free whole

std::string_view occupancyColor(int percent) {
    if (percent > 90) return ansi::red;
    if (percent >= 50) return ansi::yellow;
    return ansi::cyan;
}

// Wraps text in an ANSI style, only when colour is on.
class Styler {
public:
    explicit Styler(bool color) : m_color(color) {}

    void append(std::string& out, std::string_view text, std::string_view style) const {
        if (m_color && !style.empty() && !text.empty()) {
            out += style;
            out += text;
            out += ansi::reset;
        } else {
            out += text;
        }
    }

private:
    bool m_color;
};

struct TableRow {
    std::string branches; // tree prefix, e.g. "│  ├─ "
    std::string name;
    std::string_view nameStyle;
    bool isNode = false;
    DomainTotals totals;
    std::int64_t maxFreeOnNode = 0;
};

std::string domainLabel(const TopologySpec& spec, const Domain& domain) {
    const std::string& level = spec.levels[static_cast<std::size_t>(domain.level)].name;
    if (domain.unlabelled) return "(no " + level + ")";
    // "rack-3" already says it is a rack; "rack a1f3" needs the level to be understood.
    const bool namesLevel = domain.value.size() > level.size() &&
                            std::equal(level.begin(), level.end(), domain.value.begin(),
                                       [](char a, char b) { return (a | 0x20) == (b | 0x20); }) &&
                            !std::isalpha(static_cast<unsigned char>(domain.value[level.size()]));
    if (namesLevel || level.empty()) return domain.value;
    return level + ' ' + domain.value;
}

class TableBuilder {
public:
    TableBuilder(const TopologyIndex& index, const ClusterState& state, const ShowOptions& options)
        : m_index(index), m_state(state), m_options(options), m_walker{index, options.depth} {}

    void collect() {
        const Domain& root = m_index.root();
        TableRow row;
        row.name = "cluster";
        row.nameStyle = ansi::bold;
        row.totals = root.totals;
        row.maxFreeOnNode = root.maxFreeGpusOnNode();
        m_rows.push_back(std::move(row));
        addChildren(kRootDomain, "");
    }

    const std::vector<TableRow>& rows() const { return m_rows; }

private:
    void addChildren(DomainId id, const std::string& indent) {
        const Domain& domain = m_index.domain(id);
        const std::vector<DomainId> children = m_walker.visibleChildren(domain);
        std::vector<NodeId> nodes;
        if (m_options.showNodes && children.empty()) m_walker.collectNodes(id, nodes);

        const std::size_t count = children.size() + nodes.size();
        std::size_t position = 0;
        for (DomainId childId : children) {
            const bool last = ++position == count;
            const Domain& child = m_index.domain(childId);
            TableRow row;
            row.branches = indent + (last ? "└─ " : "├─ ");
            row.name = domainLabel(m_index.spec(), child);
            row.nameStyle = child.unlabelled ? ansi::grey : std::string_view{};
            row.totals = child.totals;
            row.maxFreeOnNode = child.maxFreeGpusOnNode();
            m_rows.push_back(std::move(row));
            addChildren(childId, indent + (last ? "   " : "│  "));
        }
        for (NodeId nodeId : nodes) {
            const bool last = ++position == count;
            const NodeStats& stats = m_index.node(nodeId);
            TableRow row;
            row.branches = indent + (last ? "└─ " : "├─ ");
            row.name = m_state.record(nodeId).node->name;
            // Which world counted the node's GPUs, where it is not the device plugin alone.
            if (stats.gpuSource == GpuSource::Dra || stats.gpuSource == GpuSource::Both)
                row.name += " (" + std::string(gpuSourceName(stats.gpuSource)) + ")";
            row.isNode = true;
            row.totals = stats.totals();
            m_rows.push_back(std::move(row));
        }
    }

    const TopologyIndex& m_index;
    const ClusterState& m_state;
    const ShowOptions& m_options;
    Walker m_walker;
    std::vector<TableRow> m_rows;
};

void padTo(std::string& out, std::size_t width, std::size_t used) {
    if (used < width) out.append(width - used, ' ');
}

void appendRight(std::string& out, const Styler& styler, std::string_view text, std::size_t width,
                 std::string_view style = {}) {
    padTo(out, width, displayWidth(text));
    styler.append(out, text, style);
}

void appendLeft(std::string& out, const Styler& styler, std::string_view text, std::size_t width,
                std::string_view style = {}) {
    styler.append(out, text, style);
    padTo(out, width, displayWidth(text));
}

void appendBar(std::string& out, const Styler& styler, const DomainTotals& t, int width, int percent) {
    if (t.gpusTotal <= 0) {
        out.append(static_cast<std::size_t>(width), ' ');
        return;
    }
    const std::int64_t total = t.gpusTotal;
    const auto cells = [&](std::int64_t n) {
        n = std::clamp<std::int64_t>(n, 0, total);
        return static_cast<int>((static_cast<__int128>(n) * width * 2 + total) / (static_cast<__int128>(total) * 2));
    };
    // Something present is never rounded away, and free capacity never hides behind a full bar.
    // Partly used GPUs (MIG slices, shared GPUs) show their share as used and the rest apart.
    const std::int64_t shareUnits = std::clamp<std::int64_t>(t.gpuShareUsed.unitCount(), 0, total * GpuAmount::kUnits);
    int used = t.gpusPartlyUsed > 0
                   ? static_cast<int>((static_cast<__int128>(shareUnits) * width * 2 + total * GpuAmount::kUnits) /
                                      (static_cast<__int128>(total) * GpuAmount::kUnits * 2))
                   : cells(t.gpusUsed);
    int partly = t.gpusPartlyUsed > 0 ? std::max(0, cells(t.gpusUsed) - used) : 0;
    int unavailable = cells(t.gpusUnavailable);
    if ((t.gpusUsed > 0 || shareUnits > 0) && used == 0) used = 1;
    if (t.gpusUnavailable > 0 && unavailable == 0) unavailable = 1;
    const int wantFree = t.gpusFree > 0 ? 1 : 0;
    while (used + partly + unavailable + wantFree > width && (used > 1 || unavailable > 1 || partly > 0)) {
        if (partly > 0)
            --partly;
        else if (used >= unavailable)
            --used;
        else
            --unavailable;
    }
    const int freeCells = std::max(0, width - used - partly - unavailable);

    const auto run = [&](int n, std::string_view glyph, std::string_view style) {
        if (n <= 0) return;
        std::string text;
        text.reserve(static_cast<std::size_t>(n) * glyph.size());
        for (int i = 0; i < n; ++i) text += glyph;
        styler.append(out, text, style);
    };
    run(used, kUsedGlyph, occupancyColor(percent));
    run(partly, kPartlyGlyph, occupancyColor(percent));
    run(unavailable, kUnavailableGlyph, ansi::grey);
    run(freeCells, kFreeGlyph, ansi::green);
}

// Where the hierarchy came from, in the words of the object or flag that defined it.
std::string describeOrigin(const TopologySpec& spec) {
    const std::string quotedName = '"' + spec.name + '"';
    if (spec.origin == "kueue") return "Kueue Topology " + quotedName;
    if (spec.origin == "kai") return "KAI Topology " + quotedName;
    if (spec.origin == "flags") return "levels given";
    if (spec.origin == kHyperNodeOrigin) return "Volcano HyperNodes";
    if (spec.origin == kSlurmTopologyOrigin) return "Slurm topology " + quotedName;
    if (spec.origin == kNoTopologyOrigin) return "no topology";
    if (spec.name.empty()) return spec.origin;
    if (spec.origin.empty()) return quotedName;
    return spec.origin + ' ' + quotedName;
}

std::string topologyLine(const TopologySpec& spec) {
    std::string line;
    if (spec.levels.empty()) line = "no levels (every node directly under the cluster)";
    for (std::size_t i = 0; i < spec.levels.size(); ++i) {
        if (i > 0) line += " › ";
        line += spec.levels[i].name;
    }
    const std::string origin = describeOrigin(spec);
    if (!origin.empty()) line += "  (" + origin + ')';
    return line;
}

constexpr std::size_t kHeaderLabelWidth = 10;
constexpr std::size_t kHeaderWrapWidth = 100;

void appendHeader(std::string& out, const Styler& styler, const TopologyIndex& index, const ClusterState& cluster,
                  const ShowOptions& options) {
    const DomainTotals& t = index.root().totals;
    const auto label = [&](std::string_view text) {
        styler.append(out, text, ansi::bold);
        padTo(out, kHeaderLabelWidth, text.size());
    };
    const auto field = [&](std::string_view text, const std::string& value) {
        label(text);
        out += value;
        out += '\n';
    };
    // Items joined by a separator (words: by a space, when it is empty), wrapped under the first
    // one when the line gets long; each line in `style`.
    const auto listField = [&](std::string_view text, const std::vector<std::string>& items, std::string_view separator,
                               std::string_view style = {}) {
        if (items.empty()) return;
        label(text);
        const std::string gap = separator.empty() ? std::string(" ") : ' ' + std::string(separator) + ' ';
        const std::string lineEnd = separator.empty() ? std::string() : ' ' + std::string(separator);
        std::string line;
        std::size_t column = kHeaderLabelWidth;
        for (std::size_t i = 0; i < items.size(); ++i) {
            const std::size_t width = displayWidth(items[i]);
            if (i > 0) {
                if (column + displayWidth(gap) + width > kHeaderWrapWidth) {
                    styler.append(out, line + lineEnd, style);
                    out += '\n';
                    out.append(kHeaderLabelWidth, ' ');
                    column = kHeaderLabelWidth;
                    line.clear();
                } else {
                    line += gap;
                    column += displayWidth(gap);
                }
            }
            line += items[i];
            column += width;
        }
        styler.append(out, line, style);
        out += '\n';
    };

    field("Source:", options.source.empty() ? std::string("-") : options.source);
    if (options.live) {
        const LinkState state = options.live->state;
        const std::string_view style =
            state == LinkState::Synced ? ansi::green : state == LinkState::Error ? ansi::red : ansi::yellow;
        label("Live:");
        styler.append(out, describeLinkState(*options.live), style);
        out += '\n';
        for (const std::string& problem : resourceProblems(*options.live)) {
            out.append(kHeaderLabelWidth, ' ');
            styler.append(out, "⚠ " + problem, ansi::yellow);
            out += '\n';
        }
    }
    field("Topology:", topologyLine(index.spec()));
    if (index.spec().readFromLabels()) {
        // The label keys in level order: what to put on a node to place it in the hierarchy.
        std::vector<std::string> keys;
        for (const TopologyLevel& level : index.spec().levels) keys.push_back(level.nodeLabel);
        listField("Labels:", keys, "›");
    } else {
        field("Members:", index.spec().origin == kHyperNodeOrigin
                              ? "each HyperNode's members, not node labels"
                              : "the topology's switches or blocks, not node labels");
    }
    if (!index.spec().notice.empty()) {
        // Word-wrapped under its label: it names what was looked for, which runs long.
        std::vector<std::string> words;
        std::string_view rest = index.spec().notice;
        while (!rest.empty()) {
            const std::size_t space = std::min(rest.find(' '), rest.size());
            words.emplace_back(rest.substr(0, space));
            rest.remove_prefix(std::min(space + 1, rest.size()));
        }
        listField("Notice:", words, {}, ansi::yellow);
    }
    if (!index.spec().nvlinkLabel.empty()) {
        const std::size_t count = index.nvlinkDomainCount();
        field("NVLink:", index.spec().nvlinkLabel + " (" + groupThousands(static_cast<std::int64_t>(count)) +
                             (count == 1 ? " domain)" : " domains)"));
    }

    std::string gpus = usedText(t) + '/' + groupThousands(t.gpusTotal) + " used";
    if (t.gpusTotal == 0) {
        // Most often the cluster names its GPUs differently; say what was counted.
        gpus = "none found (counting " + joinList(index.gpuResources().patterns()) + " and DRA devices of class " +
               joinList(cluster.devices().gpuClasses().names()) + ')';
    }
    const int percent = usedPercent(t);
    if (percent >= 0) gpus += " (" + std::to_string(percent) + "%) · " + groupThousands(t.gpusFree) + " free";
    if (t.gpusPartlyUsed > 0) gpus += " · " + groupThousands(t.gpusPartlyUsed) + " partly used (MIG or shared)";
    if (t.gpusUnavailable > 0) gpus += " · " + groupThousands(t.gpusUnavailable) + " unavailable";
    if (t.gpusFragmented > 0) gpus += " · " + groupThousands(t.gpusFragmented) + " free on partly used nodes";
    field("GPUs:", gpus);
    if (t.nodesDraGpus + t.nodesBothGpus > 0) {
        std::string counted = "DRA on " + groupThousands(t.nodesDraGpus) + (t.nodesDraGpus == 1 ? " node" : " nodes") +
                              " · device plugin on " + groupThousands(t.nodesPluginGpus) +
                              (t.nodesPluginGpus == 1 ? " node" : " nodes");
        if (t.nodesBothGpus > 0)
            counted += " · both on " + groupThousands(t.nodesBothGpus) + " (each GPU counted once)";
        field("Counted:", counted);
    }

    std::string nodes = groupThousands(t.nodesReady) + '/' + groupThousands(t.nodesTotal) + " ready";
    nodes += " · " + groupThousands(nodesNotReady(t)) + " not ready";
    nodes += " · " + groupThousands(nodesCordoned(t)) + " cordoned";
    if (index.spec().origin == kSlurmOrigin)
        nodes += " · " + groupThousands(t.pods) + (t.pods == 1 ? " job allocation" : " job allocations");
    else
        nodes += " · " + groupThousands(t.pods) + (t.pods == 1 ? " pod" : " pods");
    field("Nodes:", nodes);
    // One line, so that `show --watch` stays a tree: `gangs` lists them.
    if (!cluster.computeDomains().empty()) {
        const std::vector<ComputeDomainUsage> domains = computeDomainUsage(cluster, nullptr);
        const auto spanning = std::count_if(domains.begin(), domains.end(),
                                            [](const ComputeDomainUsage& d) { return d.spansCliques(); });
        std::vector<std::string> imex = {groupThousands(static_cast<std::int64_t>(domains.size())) +
                                         (domains.size() == 1 ? " ComputeDomain" : " ComputeDomains")};
        if (spanning > 0)
            imex.push_back(groupThousands(spanning) +
                           " across more than one NVLink clique (memory shared only inside each)");
        imex.push_back("listed by `topodeckctl gangs`");
        listField("IMEX:", imex, "·");
    }
}

std::string countOrDash(std::int64_t value) {
    return value > 0 ? groupThousands(value) : std::string("-");
}

} // namespace

std::string renderShowTable(const TopologyIndex& index, const ClusterState& state, const ShowOptions& options) {
    const Styler styler(options.color);
    const int barWidth = std::max(1, options.barWidth);

    TableBuilder builder(index, state, options);
    builder.collect();
    const std::vector<TableRow>& rows = builder.rows();

    // Text of every cell first, then widths, then output: columns line up whatever the values.
    struct Cells {
        std::string used, total, percent, free, maxFree, notReady, cordoned;
    };
    std::vector<Cells> cells;
    cells.reserve(rows.size());

    const std::string_view hName = "DOMAIN", hUsed = "USED", hTotal = "GPUS", hBar = "OCCUPANCY", hFree = "FREE",
                           hMaxFree = "MAX/NODE", hNotReady = "NOT READY", hCordoned = "CORDONED";
    std::size_t wName = hName.size(), wUsed = hUsed.size(), wTotal = hTotal.size(), wFree = hFree.size(),
                wMaxFree = hMaxFree.size(), wNotReady = hNotReady.size(), wCordoned = hCordoned.size();
    const std::size_t wPercent = 4; // "100%"
    for (const TableRow& row : rows) {
        const DomainTotals& t = row.totals;
        Cells c;
        c.used = usedText(t);
        c.total = groupThousands(t.gpusTotal);
        const int percent = usedPercent(t);
        c.percent = percent < 0 ? std::string("-") : std::to_string(percent) + '%';
        c.free = groupThousands(t.gpusFree);
        if (row.isNode) {
            // A node is its own largest free block; say plainly what is wrong with it instead.
            c.notReady = t.nodesReady == 0 ? "yes" : "";
            c.cordoned = t.nodesReady > 0 && t.nodesSchedulable == 0 ? "yes" : "";
        } else {
            c.maxFree = groupThousands(row.maxFreeOnNode);
            c.notReady = countOrDash(nodesNotReady(t));
            c.cordoned = countOrDash(nodesCordoned(t));
        }
        wName = std::max(wName, displayWidth(row.branches) + displayWidth(row.name));
        wUsed = std::max(wUsed, c.used.size());
        wTotal = std::max(wTotal, c.total.size());
        wFree = std::max(wFree, c.free.size());
        wMaxFree = std::max(wMaxFree, c.maxFree.size());
        wNotReady = std::max(wNotReady, c.notReady.size());
        wCordoned = std::max(wCordoned, c.cordoned.size());
        cells.push_back(std::move(c));
    }
    const std::size_t wBar = static_cast<std::size_t>(barWidth) + 1 + wPercent;
    const std::string_view gap = "  ";

    std::string out;
    out.reserve(rows.size() * (wName + wBar * 3 + 64) + 512);
    appendHeader(out, styler, index, state, options);
    out += '\n';

    // Column titles; "USED/GPUS" puts its slash over the slashes of the rows.
    appendLeft(out, styler, hName, wName, ansi::bold);
    out += gap;
    appendRight(out, styler, hUsed, wUsed, ansi::bold);
    styler.append(out, "/", ansi::bold);
    appendLeft(out, styler, hTotal, wTotal, ansi::bold);
    out += gap;
    appendLeft(out, styler, hBar, wBar, ansi::bold);
    out += gap;
    appendRight(out, styler, hFree, wFree, ansi::bold);
    out += gap;
    appendRight(out, styler, hMaxFree, wMaxFree, ansi::bold);
    out += gap;
    appendRight(out, styler, hNotReady, wNotReady, ansi::bold);
    out += gap;
    appendRight(out, styler, hCordoned, wCordoned, ansi::bold);
    out += '\n';

    for (std::size_t i = 0; i < rows.size(); ++i) {
        const TableRow& row = rows[i];
        const Cells& c = cells[i];
        const DomainTotals& t = row.totals;
        const int percent = usedPercent(t);

        styler.append(out, row.branches, ansi::dim);
        appendLeft(out, styler, row.name, wName - displayWidth(row.branches), row.nameStyle);
        out += gap;
        appendRight(out, styler, c.used, wUsed);
        out += '/';
        appendLeft(out, styler, c.total, wTotal);
        out += gap;
        appendBar(out, styler, t, barWidth, percent);
        out += ' ';
        appendRight(out, styler, c.percent, wPercent, percent < 0 ? ansi::dim : occupancyColor(percent));
        out += gap;
        appendRight(out, styler, c.free, wFree);
        out += gap;
        appendRight(out, styler, c.maxFree, wMaxFree);
        out += gap;
        appendRight(out, styler, c.notReady, wNotReady, c.notReady == "-" ? ansi::dim : ansi::red);
        out += gap;
        appendRight(out, styler, c.cordoned, wCordoned, c.cordoned == "-" ? ansi::dim : ansi::yellow);
        // Trailing blanks only come from padding the last column; drop them.
        while (!out.empty() && out.back() == ' ') out.pop_back();
        out += '\n';
    }

    out += '\n';
    styler.append(out, kUsedGlyph, occupancyColor(0));
    styler.append(out, " used  ", ansi::dim);
    styler.append(out, kFreeGlyph, ansi::green);
    styler.append(out, " free  ", ansi::dim);
    styler.append(out, kUnavailableGlyph, ansi::grey);
    styler.append(out, " unavailable (node not ready or cordoned)  ·  MAX/NODE: most free GPUs on one node", ansi::dim);
    out += '\n';
    if (index.root().totals.gpusPartlyUsed > 0) {
        styler.append(out, kPartlyGlyph, occupancyColor(0));
        styler.append(out, " rest of partly used GPUs (MIG slices, shared): not free whole; USED counts the share",
                      ansi::dim);
        out += '\n';
    }
    return out;
}

// ---------------------------------------------------------------------------------------------
// JSON

namespace {

// The domain tree as nested objects; nodes one per line (at 65,536 nodes a nested layout would be
// tens of MB of blanks).
class ShowJson {
public:
    ShowJson(const TopologyIndex& index, const ClusterState& state, const ShowOptions& options, std::string& out)
        : m_index(index), m_state(state), m_options(options), m_walker{index, options.depth},
          m_json(out, kReadableJson) {}

    void write() {
        m_json.beginObject(Block).field("source", m_options.source);
        if (m_options.live) writeLive(*m_options.live);
        writeTopology();
        writeDomainBody(kRootDomain);
        if (!m_state.computeDomains().empty()) writeComputeDomains();
        m_json.endObject();
    }

private:
    static constexpr JsonWriter::Layout Block = JsonWriter::Layout::Block;

    void writeLive(const LiveStatus& live) {
        m_json.key("live").beginObject(Block);
        m_json.field("state", linkStateName(live.state));
        m_json.field("since", live.since.time_since_epoch().count() == 0 ? std::string() : formatUtc(live.since));
        m_json.field("message", live.message);
        m_json.key("resources").beginArray(Block);
        for (const ResourceHealth& r : live.resources)
            m_json.beginObject()
                .field("resource", r.resource)
                .field("state", resourceStateName(r.state))
                .field("objects", r.objects)
                .field("message", r.message)
                .endObject();
        m_json.endArray().endObject();
    }

    void writeTopology() {
        const TopologySpec& spec = m_index.spec();
        m_json.key("topology").beginObject(Block).field("name", spec.name).field("origin", spec.origin);
        m_json.key("levels").beginArray(Block);
        for (const TopologyLevel& level : spec.levels)
            m_json.beginObject().field("name", level.name).field("nodeLabel", level.nodeLabel).endObject();
        m_json.endArray().field("nvlinkLabel", spec.nvlinkLabel).field("notice", spec.notice).endObject();
    }

    void writeTotals(const DomainTotals& t, std::int64_t maxFree) {
        m_json.field("gpus_total", t.gpusTotal)
            .field("gpus_used", t.gpusUsed)
            .field("gpus_free", t.gpusFree)
            .field("gpus_unavailable", t.gpusUnavailable)
            .field("gpus_fragmented", t.gpusFragmented)
            .field("gpus_partly_used", t.gpusPartlyUsed)
            .key("gpus_share_used")
            .raw(t.gpuShareUsed.text(6))
            .field("nodes_gpus_device_plugin", t.nodesPluginGpus)
            .field("nodes_gpus_dra", t.nodesDraGpus)
            .field("nodes_gpus_both", t.nodesBothGpus)
            .field("nodes_total", t.nodesTotal)
            .field("nodes_ready", t.nodesReady)
            .field("nodes_schedulable", t.nodesSchedulable)
            .field("nodes_not_ready", nodesNotReady(t))
            .field("nodes_cordoned", nodesCordoned(t))
            .field("nodes_free", t.nodesFree)
            .field("pods", t.pods)
            .field("max_free_gpus_on_node", maxFree);
    }

    // The members of one domain object (inside its braces), children last.
    void writeDomainBody(DomainId id) {
        const Domain& domain = m_index.domain(id);
        writeTotals(domain.totals, domain.maxFreeGpusOnNode());

        const std::vector<DomainId> children = m_walker.visibleChildren(domain);
        if (m_options.showNodes && children.empty()) {
            std::vector<NodeId> nodes;
            m_walker.collectNodes(id, nodes);
            writeNodes(nodes);
        }
        m_json.key("children").beginArray(Block);
        for (const DomainId childId : children) {
            const Domain& child = m_index.domain(childId);
            m_json.beginObject(Block)
                .field("level", m_index.spec().levels[static_cast<std::size_t>(child.level)].name)
                .field("name", child.value);
            if (child.unlabelled) m_json.field("unlabelled", true);
            writeDomainBody(childId);
            m_json.endObject();
        }
        m_json.endArray();
    }

    // Ready, NotReady, or null while not reported.
    void readiness(std::string_view key, ComputeDomainReadiness value) {
        m_json.key(key);
        if (value == ComputeDomainReadiness::None)
            m_json.null();
        else
            m_json.value(computeDomainReadinessName(value));
    }

    // Every ComputeDomain: what it says, its nodes with their cliques, and the workload using it.
    void writeComputeDomains() {
        m_json.key("compute_domains").beginArray(Block);
        for (const ComputeDomainUsage& domain : computeDomainUsage(m_state, &m_index)) {
            m_json.beginObject(Block).field("name", domain.qualifiedName()).field("namespace", domain.nameSpace);
            readiness("status", domain.status);
            m_json.field("num_nodes", domain.numNodes)
                .field("channel_template", domain.channelTemplate)
                .field("allocation_mode",
                       domain.allocationMode == ComputeDomain::ChannelAllocation::All ? "All" : "Single")
                .field("pods", domain.pods);
            m_json.key("cliques").stringArray(domain.cliques);
            m_json.field("spans_cliques", domain.spansCliques());
            m_json.key("nodes").beginArray(Block);
            for (const ComputeDomainMember& member : domain.members) {
                m_json.beginObject().field("name", member.node).key("clique");
                if (member.clique.empty())
                    m_json.null();
                else
                    m_json.value(member.clique);
                m_json.field("in_status", member.listed);
                readiness("status", member.status);
                m_json.field("pods", member.pods).endObject();
            }
            m_json.endArray().key("workloads").beginArray(Block);
            for (const ComputeDomainWorkload& workload : domain.workloads)
                m_json.beginObject()
                    .field("name", workload.name)
                    .field("kind", workloadKindName(workload.kind))
                    .field("pods", workload.pods)
                    .endObject();
            m_json.endArray().endObject();
        }
        m_json.endArray();
    }

    void writeNodes(const std::vector<NodeId>& nodes) {
        m_json.key("nodes").beginArray(Block);
        for (const NodeId id : nodes) {
            const NodeStats& stats = m_index.node(id);
            const DomainTotals t = stats.totals();
            m_json.beginObject()
                .field("name", m_state.record(id).node->name)
                .field("ready", stats.ready)
                .field("cordoned", stats.ready && !stats.schedulable)
                .field("gpus_total", t.gpusTotal)
                .field("gpus_used", t.gpusUsed)
                .field("gpus_free", t.gpusFree)
                .field("gpus_unavailable", t.gpusUnavailable)
                .field("gpus_partly_used", t.gpusPartlyUsed)
                .key("gpus_share_used")
                .raw(t.gpuShareUsed.text(6))
                .key("gpu_source");
            if (stats.gpuSource == GpuSource::None)
                m_json.null();
            else
                m_json.value(gpuSourceName(stats.gpuSource));
            m_json.field("pods", t.pods).key("nvlink_domain");
            if (stats.nvlinkDomain == kNoNvlinkDomain)
                m_json.null();
            else
                m_json.value(m_index.nvlinkName(stats.nvlinkDomain));
            m_json.endObject();
        }
        m_json.endArray();
    }

    const TopologyIndex& m_index;
    const ClusterState& m_state;
    const ShowOptions& m_options;
    Walker m_walker;
    JsonWriter m_json;
};

} // namespace

std::string renderShowJson(const TopologyIndex& index, const ClusterState& state, const ShowOptions& options) {
    std::string out;
    out.reserve(4096 + index.domainSlots() * 600 + (options.showNodes ? index.nodeSlots() * 240 : 0));
    ShowJson(index, state, options, out).write();
    out += '\n';
    return out;
}

} // namespace topodeck
