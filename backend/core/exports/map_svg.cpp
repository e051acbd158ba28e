#include "core/exports/map_svg.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace topodeck {

namespace {

constexpr int kPageWidth = 1600;
constexpr int kMargin = 16;
constexpr int kCell = 10;    // a node
constexpr int kGap = 2;
constexpr int kRackCell = 22; // a whole rack, past kMapSvgNodeCells nodes
constexpr int kTitle = 14;    // a rack's caption
constexpr int kHeading = 22;  // a group's heading, then its summary line

// The console's occupancy colours (views/occupancy_palette, light theme).
constexpr const char* kFree = "#3a9e4f";
constexpr const char* kUsed = "#2f6db5";
constexpr const char* kFragmented = "#e29a2d";
constexpr const char* kUnavailable = "#8a8a8a";
constexpr const char* kNoGpus = "#dcdcdc";
constexpr const char* kMarked = "#c2185b";

std::string escaped(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (char c : text) {
        switch (c) {
        case '&': out += "&amp;"; break;
        case '<': out += "&lt;"; break;
        case '>': out += "&gt;"; break;
        case '"': out += "&quot;"; break;
        default: out += c;
        }
    }
    return out;
}

std::string fitted(std::string text, int width, int charWidth) {
    const std::size_t room = static_cast<std::size_t>(std::max(1, width / charWidth));
    if (text.size() > room) text = text.substr(0, room > 1 ? room - 1 : room) + "…";
    return text;
}

const char* nodeColour(const NodeStats& node) {
    if (!node.ready || !node.schedulable) return kUnavailable;
    if (node.gpusTotal == 0) return kNoGpus;
    if (node.gpusUsed == 0) return kFree;
    return node.gpusUsed >= node.gpusTotal ? kUsed : kFragmented;
}

std::string domainLabel(const TopologyIndex& index, DomainId id) {
    const Domain& domain = index.domain(id);
    if (domain.level < 0) return "cluster";
    if (domain.unlabelled)
        return "(no " + index.spec().levels[static_cast<std::size_t>(domain.level)].name + " label)";
    return domain.value;
}

// The lowest domains in the index's order, each with the domain heading its group.
struct Rack {
    DomainId id;
    DomainId group;
};

void collectRacks(const TopologyIndex& index, DomainId id, std::vector<Rack>& out) {
    const Domain& domain = index.domain(id);
    if (!domain.alive) return;
    if (domain.children.empty()) {
        if (!domain.nodes.empty()) out.push_back({id, domain.parent == kNoDomain ? id : domain.parent});
        return;
    }
    for (DomainId child : domain.children) collectRacks(index, child, out);
}

class Svg {
public:
    void rect(int x, int y, int w, int h, const char* fill, const std::string& title = {}, bool marked = false) {
        m_body += "<rect x=\"" + std::to_string(x) + "\" y=\"" + std::to_string(y) + "\" width=\"" + std::to_string(w) +
                  "\" height=\"" + std::to_string(h) + "\" fill=\"" + fill + '"';
        if (title.empty()) {
            m_body += "/>\n";
        } else {
            m_body += "><title>" + escaped(title) + "</title></rect>\n";
        }
        // Around the cell, not on it, so its colour still reads.
        if (marked)
            m_body += "<rect x=\"" + std::to_string(x - 1) + "\" y=\"" + std::to_string(y - 1) + "\" width=\"" +
                      std::to_string(w + 2) + "\" height=\"" + std::to_string(h + 2) + "\" fill=\"none\" stroke=\"" +
                      kMarked + "\" stroke-width=\"1\"/>\n";
    }
    void frame(int x, int y, int w, int h, bool marked) {
        m_body += "<rect x=\"" + std::to_string(x) + "\" y=\"" + std::to_string(y) + "\" width=\"" +
                  std::to_string(w) + "\" height=\"" + std::to_string(h) + "\" fill=\"none\" stroke=\"" +
                  (marked ? kMarked : "#b0b0b0") + "\" stroke-width=\"" + (marked ? "2" : "1") + "\" rx=\"3\"/>\n";
    }
    void text(int x, int y, std::string_view content, int size, bool bold = false) {
        m_body += "<text x=\"" + std::to_string(x) + "\" y=\"" + std::to_string(y) + "\" font-size=\"" +
                  std::to_string(size) + '"' + (bold ? " font-weight=\"bold\"" : "") + '>' + escaped(content) +
                  "</text>\n";
    }
    std::string finish(int width, int height) const {
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" +
               std::to_string(width) + "\" height=\"" + std::to_string(height) + "\" viewBox=\"0 0 " +
               std::to_string(width) + ' ' + std::to_string(height) +
               "\" font-family=\"sans-serif\">\n<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n" + m_body +
               "</svg>\n";
    }

private:
    std::string m_body;
};

// 524,288 rather than 524288: the figures are read by people.
std::string counted(std::int64_t value) {
    std::string digits = std::to_string(value < 0 ? -value : value);
    for (std::size_t at = digits.size(); at > 3; at -= 3) digits.insert(at - 3, ",");
    return (value < 0 ? "-" : "") + digits;
}

std::string gpuSummary(const DomainTotals& t) {
    return counted(t.gpusUsed) + " of " + counted(t.gpusTotal) + " GPUs used, " + counted(t.gpusFree) + " free (" +
           counted(t.gpusFragmented) + " fragmented), " + counted(t.gpusUnavailable) + " not available; " +
           counted(t.nodesTotal) + " nodes";
}

// What every part of one map's drawing reads: the inputs and the size of a rack's box.
struct MapContext {
    const ClusterState& state;
    const TopologyIndex& index;
    const MapSvgOptions& options;
    bool perNode; // a cell per node; otherwise a cell per rack
    int columns;  // node cells across a rack's box
    int boxWidth;
    int boxHeight;

    bool isMarked(NodeId id) const { return id < options.marked.size() && options.marked[id]; }
};

MapContext mapContext(const ClusterState& state, const TopologyIndex& index, const MapSvgOptions& options,
                      std::size_t nodes, std::size_t widest) {
    const bool perNode = nodes <= kMapSvgNodeCells;
    // A rack's cells in a block about as wide as it is tall, at most 16 across.
    const int columns = perNode ? std::clamp(static_cast<int>(std::ceil(std::sqrt(double(widest)))), 4, 16) : 1;
    const int rows = perNode ? static_cast<int>((widest + std::size_t(columns) - 1) / std::size_t(columns)) : 1;
    const int boxWidth = perNode ? std::max(columns * (kCell + kGap) + 6, 64) : kRackCell + 4;
    const int boxHeight = perNode ? rows * (kCell + kGap) + kTitle + 6 : kRackCell + 4;
    return MapContext{state, index, options, perNode, columns, boxWidth, boxHeight};
}

// The title, the cluster's totals, the legend and, when racks are single cells, how to read one.
// Moves y below them; returns where the legend ends, which the page's width must take in.
int drawHeading(Svg& svg, const MapContext& map, std::size_t nodes, int& y) {
    const MapSvgOptions& options = map.options;
    svg.text(kMargin, y, options.title.empty() ? std::string("Occupancy") : options.title, 16, true);
    y += 18;
    svg.text(kMargin, y, gpuSummary(map.index.root().totals), 12);
    y += 10;
    // The legend.
    int x = kMargin;
    const std::pair<const char*, const char*> legend[] = {{kFree, "free"},
                                                          {kFragmented, "fragmented (partly used)"},
                                                          {kUsed, "used"},
                                                          {kUnavailable, "not ready or cordoned"},
                                                          {kNoGpus, "no GPUs"}};
    for (const auto& [colour, meaning] : legend) {
        svg.rect(x, y, 12, 12, colour);
        svg.text(x + 16, y + 10, meaning, 11);
        x += 30 + static_cast<int>(std::string_view(meaning).size()) * 6;
    }
    if (!options.marked.empty()) {
        svg.frame(x, y, 12, 12, true);
        svg.text(x + 16, y + 10, "outlined: " + options.markedMeaning, 11);
    }
    y += 24;
    if (!map.perNode) {
        const TopologySpec& spec = map.index.spec();
        svg.text(kMargin, y,
                 counted(static_cast<std::int64_t>(nodes)) + " nodes: one cell per " +
                     (spec.depth() > 0 ? spec.levels.back().name : std::string("domain")) +
                     ", its height split by its GPUs' states",
                 11);
        y += 8;
    }
    return x;
}

// A rack as a frame of node cells, each coloured as the console colours the node.
void drawNodeCells(Svg& svg, const MapContext& map, DomainId rack, int bx, int by, bool rackMarked) {
    const Domain& domain = map.index.domain(rack);
    svg.frame(bx, by, map.boxWidth, map.boxHeight, rackMarked);
    svg.text(bx + 3, by + 11, fitted(domainLabel(map.index, rack), map.boxWidth - 6, 6), 10);
    for (std::size_t i = 0; i < domain.nodes.size(); ++i) {
        const NodeId id = domain.nodes[i];
        const NodeStats& stats = map.index.node(id);
        const int cx = bx + 3 + static_cast<int>(i % std::size_t(map.columns)) * (kCell + kGap);
        const int cy = by + kTitle + 2 + static_cast<int>(i / std::size_t(map.columns)) * (kCell + kGap);
        svg.rect(cx, cy, kCell, kCell, nodeColour(stats),
                 map.state.record(id).node->name + ": " + std::to_string(stats.gpusUsed) + '/' +
                     std::to_string(stats.gpusTotal) + " GPUs used" +
                     (map.isMarked(id) ? ", " + map.options.markedMeaning : ""),
                 map.isMarked(id));
    }
}

// A rack as one cell: its GPUs as stacked states, used at the bottom.
void drawRackCell(Svg& svg, const MapContext& map, DomainId rack, int bx, int by, bool rackMarked) {
    const DomainTotals& t = map.index.domain(rack).totals;
    const double total = double(std::max<std::int64_t>(t.gpusTotal, 1));
    const std::pair<std::int64_t, const char*> parts[] = {{t.gpusUsed, kUsed},
                                                          {t.gpusFragmented, kFragmented},
                                                          {t.gpusFree - t.gpusFragmented, kFree},
                                                          {t.gpusUnavailable, kUnavailable}};
    int bottom = by + 2 + kRackCell;
    if (t.gpusTotal == 0) svg.rect(bx + 2, by + 2, kRackCell, kRackCell, kNoGpus);
    for (const auto& [gpus, colour] : parts) {
        const int height = static_cast<int>(std::lround(kRackCell * double(gpus) / total));
        if (height <= 0) continue;
        svg.rect(bx + 2, bottom - height, kRackCell, height, colour);
        bottom -= height;
    }
    svg.rect(bx + 2, by + 2, kRackCell, kRackCell, "none",
             map.index.pathName(rack) + ": " + gpuSummary(t) + (rackMarked ? "; " + map.options.markedMeaning : ""),
             rackMarked);
}

// One rack's box at (bx, by), outlined when it holds a marked node.
void drawRack(Svg& svg, const MapContext& map, DomainId rack, int bx, int by) {
    bool rackMarked = false;
    for (NodeId id : map.index.domain(rack).nodes) rackMarked = rackMarked || map.isMarked(id);
    if (map.perNode)
        drawNodeCells(svg, map, rack, bx, by, rackMarked);
    else
        drawRackCell(svg, map, rack, bx, by, rackMarked);
}

// The racks under one group domain, in the index's order.
using RackGroup = std::pair<DomainId, std::vector<DomainId>>;

std::vector<RackGroup> groupRacks(const std::vector<Rack>& racks) {
    std::vector<RackGroup> groups;
    for (const Rack& rack : racks) {
        if (groups.empty() || groups.back().first != rack.group) groups.push_back({rack.group, {}});
        groups.back().second.push_back(rack.id);
    }
    return groups;
}

// One group's panel at (x, y): its heading and totals, then its racks in a grid as wide as the
// panel allows. Returns the panel's height.
int drawPanel(Svg& svg, const MapContext& map, const RackGroup& group, int x, int y, int panelWidth) {
    const auto& [groupId, members] = group;
    const TopologyIndex& index = map.index;
    const std::string heading =
        (groupId == kRootDomain || index.domain(groupId).level < 0) ? std::string("cluster") : index.pathName(groupId);
    const DomainTotals& totals = index.domain(groupId).totals;
    const std::string summary = counted(totals.gpusUsed) + " of " + counted(totals.gpusTotal) + " GPUs used, " +
                                counted(totals.gpusFree) + " free";
    const int columnsHere = std::max(1, std::min(panelWidth / (map.boxWidth + 4), static_cast<int>(members.size())));
    const int rowsHere = (static_cast<int>(members.size()) + columnsHere - 1) / columnsHere;
    svg.text(x, y + 14, fitted(heading, panelWidth, 7), 12, true);
    svg.text(x, y + 28, fitted(summary, panelWidth, 6), 11);
    for (std::size_t r = 0; r < members.size(); ++r) {
        const int bx = x + static_cast<int>(r % std::size_t(columnsHere)) * (map.boxWidth + 4);
        const int by = y + kHeading + 14 + static_cast<int>(r / std::size_t(columnsHere)) * (map.boxHeight + 4);
        drawRack(svg, map, members[r], bx, by);
    }
    return kHeading + 14 + rowsHere * (map.boxHeight + 4);
}

} // namespace

std::string topologyMapSvg(const ClusterState& state, const TopologyIndex& index, const MapSvgOptions& options) {
    std::vector<Rack> racks;
    collectRacks(index, kRootDomain, racks);
    std::size_t nodes = 0, widest = 1;
    for (const Rack& rack : racks) {
        nodes += index.domain(rack.id).nodes.size();
        widest = std::max(widest, index.domain(rack.id).nodes.size());
    }
    const MapContext map = mapContext(state, index, options, nodes, widest);

    Svg svg;
    int y = kMargin + 18;
    const int legendEnd = drawHeading(svg, map, nodes, y);

    // One panel per group (the racks' parent), its racks in a grid; panels flow across the page,
    // so a cluster of many small groups stays about as tall as it is wide.
    const std::vector<RackGroup> groups = groupRacks(racks);
    const int usable = kPageWidth - 2 * kMargin;
    const int perRowMost = std::max(1, usable / (map.boxWidth + 4));
    // The page is as wide as what it shows: the title, the legend, the panels.
    int right = std::max(
        legendEnd + (options.marked.empty() ? 0 : 16 + static_cast<int>(10 + options.markedMeaning.size()) * 6),
        kMargin + static_cast<int>(std::max(options.title.size(), std::size_t(9)) * 9));
    // Every panel as wide as the widest, so panels line up in columns.
    const int columnsMost = map.perNode ? perRowMost : std::min(perRowMost, 16);
    int panelWidth = 0;
    for (const auto& group : groups)
        panelWidth = std::max(panelWidth,
                              std::min<int>(static_cast<int>(group.second.size()), columnsMost) * (map.boxWidth + 4));
    panelWidth = std::min(usable, std::max(panelWidth, 220));
    int x = kMargin;
    int rowHeight = 0;
    for (const RackGroup& group : groups) {
        if (x > kMargin && x + panelWidth > kPageWidth - kMargin) {
            x = kMargin;
            y += rowHeight + 12;
            rowHeight = 0;
        }
        const int panelHeight = drawPanel(svg, map, group, x, y, panelWidth);
        right = std::max(right, x + panelWidth);
        x += panelWidth + 24;
        rowHeight = std::max(rowHeight, panelHeight);
    }
    y += rowHeight + kMargin;
    return svg.finish(std::min(kPageWidth, right + kMargin), y);
}

} // namespace topodeck
