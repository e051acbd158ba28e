#include "views/map/topology_map_layout.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <unordered_map>

namespace topodeck {

namespace {

constexpr double kCellGap = 0.2;
constexpr double kNodePadding = 0.3;
constexpr double kNodeGap = 0.4;
constexpr double kMinHeader = 2.0;
constexpr double kHeaderFraction = 0.045;
constexpr double kMinPadding = 0.45;
constexpr double kPaddingFraction = 0.015;
// Target shapes (width / height), preferred first: lowest domains look like racks, higher ones
// like squares, unless another shape lets the whole map fill the widget clearly better.
constexpr double kLeafAspects[] = {0.7, 1.4, 1.0};
constexpr double kDomainAspects[] = {1.0, 0.7, 1.4, 0.5, 2.0, 0.35, 2.8};
// Shape combinations tried one by one at most (7^2); deeper hierarchies use coordinate descent.
constexpr std::size_t kMaxExhaustiveShapes = 49;
// How much an arrangement is penalised for empty area, against being off the target aspect.
constexpr double kWasteWeight = 0.6;

std::uint64_t mix(std::uint64_t h, std::uint64_t v) {
    h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
    return h;
}

// GPU cells per node row: 4 GPUs in a row (a GB200 tray), 8 as 4x2 (an HGX board).
int gpuColumnsFor(int gpus) {
    if (gpus <= 4) return std::max(1, gpus);
    if (gpus <= 16) return gpus % 4 == 0 ? 4 : (gpus + 1) / 2;
    return static_cast<int>(std::ceil(std::sqrt(double(gpus))));
}

int maxGpusPerNode(const TopologyIndex& index) {
    std::int64_t most = 0;
    for (NodeId id = 0; id < index.nodeSlots(); ++id) {
        const NodeStats& stats = index.node(id);
        if (stats.leaf != kNoDomain) most = std::max(most, stats.gpusTotal);
    }
    // A node's cells must stay countable by eye; beyond 64 the map shows the share instead.
    return static_cast<int>(std::clamp<std::int64_t>(most, 1, 64));
}

} // namespace

void TopologyMapLayout::clear() {
    *this = TopologyMapLayout();
}

std::uint64_t TopologyMapLayout::signatureOf(const TopologyIndex& index) {
    std::uint64_t h = mix(0, index.structureVersion());
    h = mix(h, index.domainSlots());
    h = mix(h, index.nodeSlots());
    for (DomainId id = 0; id < index.domainSlots(); ++id) {
        const Domain& d = index.domain(id);
        if (!d.alive) {
            h = mix(h, 0xdeadULL);
            continue;
        }
        h = mix(h, d.children.size());
        for (DomainId child : d.children) h = mix(h, child);
        h = mix(h, d.nodes.size());
        for (NodeId node : d.nodes) h = mix(h, node);
    }
    return mix(h, static_cast<std::uint64_t>(maxGpusPerNode(index)));
}

void TopologyMapLayout::build(const TopologyIndex& index, double targetAspect) {
    m_signature = signatureOf(index);
    m_targetAspect = targetAspect > 0 ? targetAspect : 1.0;
    const int gpus = maxGpusPerNode(index);
    m_gpuColumns = gpuColumnsFor(gpus);
    m_gpuRows = (gpus + m_gpuColumns - 1) / m_gpuColumns;
    m_nodeSize = QSizeF(2 * kNodePadding + m_gpuColumns + (m_gpuColumns - 1) * kCellGap,
                        2 * kNodePadding + m_gpuRows + (m_gpuRows - 1) * kCellGap);

    const std::size_t domains = index.domainSlots();
    m_domainRects.assign(domains, QRectF());
    m_headerHeights.assign(domains, 0.0);
    m_paddings.assign(domains, 0.0);
    m_perRow.assign(domains, 1);
    m_collapseBelow.assign(domains, 0.0);
    m_nodeRects.assign(index.nodeSlots(), QRectF());
    m_outlines.clear();
    m_outlineRanges.assign(domains, {0, 0});
    m_physicalOf.assign(index.nvlinkDomainCount(), kNoNvlinkDomain);
    std::unordered_map<std::string_view, std::int32_t> physicalIds;
    for (std::size_t clique = 0; clique < m_physicalOf.size(); ++clique) {
        const std::string_view physical = physicalNvlinkDomain(index.nvlinkName(static_cast<std::int32_t>(clique)));
        m_physicalOf[clique] = physicalIds.try_emplace(physical, static_cast<std::int32_t>(physicalIds.size())).first->second;
    }

    if (domains == 0 || !index.root().alive) {
        m_bounds = QRectF();
        return;
    }
    // Choose a target shape per level (and for racks) so that the whole map shows largest: mixing
    // shapes (wide blocks of tall racks) avoids half-empty grids. Only domains above the lowest
    // level are re-measured per try, so this stays cheap. The lowest level's shape is the leaf's.
    const int depth = std::max(1, index.spec().depth());
    const int shaped = std::max(1, depth - 1);
    std::vector<double> bestAspects;
    double bestLeafAspect = kLeafAspects[0];
    double bestScale = 0;
    auto fitScale = [&] {
        const QSizeF size = measure(index, kRootDomain, true);
        return std::min(m_targetAspect / size.width(), 1.0 / size.height());
    };
    // Every combination of shapes when there are few (a cluster of two or three levels); else
    // coordinate descent over the levels, twice.
    std::size_t combinations = 1;
    for (int level = 0; level < shaped && combinations <= kMaxExhaustiveShapes; ++level)
        combinations *= std::size(kDomainAspects);
    for (double leafAspect : kLeafAspects) {
        for (DomainId id = 1; id < domains; ++id) {
            const Domain& domain = index.domain(id);
            if (domain.alive && domain.children.empty()) measureLeaf(index, id, leafAspect, false);
        }
        m_levelAspects.assign(std::size_t(depth), kDomainAspects[0]);
        double scale = fitScale();
        if (combinations <= kMaxExhaustiveShapes) {
            std::vector<double> best = m_levelAspects;
            for (std::size_t combination = 1; combination < combinations; ++combination) {
                std::size_t rest = combination;
                for (int level = 0; level < shaped; ++level, rest /= std::size(kDomainAspects))
                    m_levelAspects[std::size_t(level)] = kDomainAspects[rest % std::size(kDomainAspects)];
                if (const double s = fitScale(); s > scale * 1.01) {
                    scale = s;
                    best = m_levelAspects;
                }
            }
            m_levelAspects = best;
        } else {
            for (int round = 0; round < 2; ++round)
                for (int level = 0; level < shaped; ++level) {
                    const double kept = m_levelAspects[std::size_t(level)];
                    double chosen = kept;
                    for (double aspect : kDomainAspects) {
                        if (aspect == kept) continue;
                        m_levelAspects[std::size_t(level)] = aspect;
                        const double s = fitScale();
                        if (s > scale * 1.01) {
                            scale = s;
                            chosen = aspect;
                        }
                    }
                    m_levelAspects[std::size_t(level)] = chosen;
                }
        }
        if (scale > bestScale * 1.02) {
            bestScale = scale;
            bestAspects = m_levelAspects;
            bestLeafAspect = leafAspect;
        }
    }
    for (DomainId id = 1; id < domains; ++id) {
        const Domain& domain = index.domain(id);
        if (domain.alive && domain.children.empty()) measureLeaf(index, id, bestLeafAspect, false);
    }
    m_levelAspects = bestAspects;
    measure(index, kRootDomain, true);
    place(index, kRootDomain, QPointF(0, 0));
    m_bounds = m_domainRects[kRootDomain];
}

TopologyMapLayout::Arrangement TopologyMapLayout::arrange(std::span<const QSizeF> sizes, double gap,
                                                          double targetAspect) const {
    Arrangement best;
    const std::size_t count = sizes.size();
    if (count == 0) return best;
    double itemArea = 0;
    for (const QSizeF& s : sizes) itemArea += s.width() * s.height();

    double bestScore = std::numeric_limits<double>::max();
    std::size_t previousPerRow = 0;
    for (std::size_t rows = 1; rows <= count; ++rows) {
        const std::size_t perRow = (count + rows - 1) / rows;
        if (perRow == previousPerRow) continue;
        previousPerRow = perRow;
        double width = 0, height = 0, rowWidth = 0, rowHeight = 0;
        for (std::size_t i = 0; i < count; ++i) {
            if (i % perRow == 0 && i > 0) {
                width = std::max(width, rowWidth);
                height += rowHeight + gap;
                rowWidth = rowHeight = 0;
            }
            rowWidth += (i % perRow ? gap : 0) + sizes[i].width();
            rowHeight = std::max(rowHeight, sizes[i].height());
        }
        width = std::max(width, rowWidth);
        height += rowHeight;
        const double aspect = width / height;
        const double waste = 1.0 - itemArea / (width * height);
        const double score = std::abs(std::log(aspect / targetAspect)) + kWasteWeight * waste;
        if (score < bestScore) {
            bestScore = score;
            best = Arrangement{width, height, static_cast<int>(perRow)};
        }
    }
    return best;
}

QSizeF TopologyMapLayout::measure(const TopologyIndex& index, DomainId id, bool isRoot) {
    const Domain& domain = index.domain(id);
    if (domain.children.empty())
        return isRoot ? measureLeaf(index, id, m_targetAspect, true) : m_domainRects[id].size();

    std::vector<QSizeF> sizes;
    sizes.reserve(domain.children.size());
    double smallest = std::numeric_limits<double>::max();
    for (DomainId child : domain.children) {
        if (!index.domain(child).alive) continue;
        const QSizeF s = measure(index, child, false);
        sizes.push_back(s);
        smallest = std::min({smallest, s.width(), s.height()});
    }
    QSizeF content = m_nodeSize;
    if (!sizes.empty()) {
        const double aspect =
            isRoot ? m_targetAspect
                   : m_levelAspects[std::size_t(std::clamp(domain.level, 0, int(m_levelAspects.size()) - 1))];
        const Arrangement a = arrange(sizes, std::max(kMinPadding, 0.05 * smallest), aspect);
        content = QSizeF(a.width, a.height);
        m_perRow[id] = a.perRow;
        m_collapseBelow[id] = kMinDomainPixels / smallest;
    }
    return frame(id, content, isRoot);
}

QSizeF TopologyMapLayout::measureLeaf(const TopologyIndex& index, DomainId id, double aspect, bool isRoot) {
    const Domain& domain = index.domain(id);
    QSizeF content = m_nodeSize;
    if (!domain.nodes.empty()) {
        m_scratchSizes.assign(domain.nodes.size(), m_nodeSize);
        const Arrangement a = arrange(m_scratchSizes, kNodeGap, aspect);
        content = QSizeF(a.width, a.height);
        m_perRow[id] = a.perRow;
        m_collapseBelow[id] = kMinNodePixels / std::min(m_nodeSize.width(), m_nodeSize.height());
    }
    return frame(id, content, isRoot);
}

QSizeF TopologyMapLayout::frame(DomainId id, QSizeF content, bool isRoot) {
    double header = 0, padding = 0;
    if (!isRoot) {
        const double side = std::sqrt(content.width() * content.height());
        header = std::max(kMinHeader, kHeaderFraction * side);
        padding = std::max(kMinPadding, kPaddingFraction * side);
    }
    m_headerHeights[id] = header;
    m_paddings[id] = padding;
    const QSizeF size(content.width() + 2 * padding, header + content.height() + padding);
    m_domainRects[id] = QRectF(QPointF(0, 0), size);
    return size;
}

void TopologyMapLayout::place(const TopologyIndex& index, DomainId id, QPointF topLeft) {
    QRectF& rect = m_domainRects[id];
    rect.moveTopLeft(topLeft);
    const Domain& domain = index.domain(id);
    const double padding = m_paddings[id];
    const QPointF origin = topLeft + QPointF(padding, m_headerHeights[id]);
    const int perRow = std::max(1, m_perRow[id]);

    if (!domain.children.empty()) {
        double smallest = std::numeric_limits<double>::max();
        for (DomainId child : domain.children)
            if (index.domain(child).alive)
                smallest = std::min({smallest, m_domainRects[child].width(), m_domainRects[child].height()});
        const double gap = std::max(kMinPadding, 0.05 * smallest);
        double x = 0, y = 0, rowHeight = 0;
        int column = 0;
        for (DomainId child : domain.children) {
            if (!index.domain(child).alive) continue;
            if (column == perRow) {
                column = 0;
                x = 0;
                y += rowHeight + gap;
                rowHeight = 0;
            }
            const QSizeF size = m_domainRects[child].size();
            place(index, child, origin + QPointF(x, y));
            x += size.width() + gap;
            rowHeight = std::max(rowHeight, size.height());
            ++column;
        }
        return;
    }

    const double stepX = m_nodeSize.width() + kNodeGap;
    const double stepY = m_nodeSize.height() + kNodeGap;
    for (std::size_t i = 0; i < domain.nodes.size(); ++i) {
        const NodeId node = domain.nodes[i];
        if (node >= m_nodeRects.size()) continue;
        const QPointF at = origin + QPointF(double(i % perRow) * stepX, double(i / perRow) * stepY);
        m_nodeRects[node] = QRectF(at, m_nodeSize);
    }
    collectOutlines(index, id);
}

std::string_view TopologyMapLayout::physicalNvlinkDomain(std::string_view clique) {
    const std::size_t dot = clique.rfind('.');
    if (dot == std::string_view::npos || dot == 0 || dot + 1 == clique.size()) return clique;
    const std::string_view id = clique.substr(dot + 1);
    const bool numeric = std::all_of(id.begin(), id.end(), [](char c) { return c >= '0' && c <= '9'; });
    return numeric ? clique.substr(0, dot) : clique;
}

void TopologyMapLayout::collectOutlines(const TopologyIndex& index, DomainId leaf) {
    const auto first = static_cast<std::ptrdiff_t>(m_outlines.size());
    auto physicalOf = [this](const NvlinkOutline& o) { return m_physicalOf[std::size_t(o.nvlinkDomain)]; };
    // The outline of the physical domain (ClusterUUID) a clique belongs to, among this leaf's.
    auto ownerOf = [&](std::int32_t nvlink, std::ptrdiff_t end) {
        return std::find_if(m_outlines.begin() + first, m_outlines.begin() + end, [&](const NvlinkOutline& o) {
            return o.partition < 0 && physicalOf(o) == m_physicalOf[std::size_t(nvlink)];
        });
    };
    const std::vector<NodeId>& nodes = index.domain(leaf).nodes;
    for (NodeId node : nodes) {
        const std::int32_t nvlink = node < m_nodeRects.size() ? index.node(node).nvlinkDomain : kNoNvlinkDomain;
        if (nvlink == kNoNvlinkDomain) continue;
        const auto owner = ownerOf(nvlink, std::ptrdiff_t(m_outlines.size()));
        if (owner == m_outlines.end()) {
            m_outlines.push_back(NvlinkOutline{m_nodeRects[node], nvlink, 1, -1, 0});
        } else {
            owner->rect = owner->rect.united(m_nodeRects[node]);
            ++owner->nodeCount;
        }
    }
    // A node alone in its NVLink domain (an HGX board) needs no outline: the node box says it.
    m_outlines.erase(std::remove_if(m_outlines.begin() + first, m_outlines.end(),
                                    [](const NvlinkOutline& o) { return o.nodeCount < 2; }),
                     m_outlines.end());
    const auto physicalEnd = std::ptrdiff_t(m_outlines.size());
    for (NodeId node : nodes) {
        const std::int32_t nvlink = node < m_nodeRects.size() ? index.node(node).nvlinkDomain : kNoNvlinkDomain;
        if (nvlink == kNoNvlinkDomain) continue;
        const auto owner = ownerOf(nvlink, physicalEnd);
        if (owner == m_outlines.begin() + physicalEnd) continue;
        const auto part = std::find_if(m_outlines.begin() + physicalEnd, m_outlines.end(),
                                       [nvlink](const NvlinkOutline& o) { return o.nvlinkDomain == nvlink; });
        if (part == m_outlines.end()) {
            const int number = owner->partitions++;
            m_outlines.push_back(NvlinkOutline{m_nodeRects[node], nvlink, 1, number, 0});
        } else {
            part->rect = part->rect.united(m_nodeRects[node]);
            ++part->nodeCount;
        }
    }
    // An unsplit domain is its own one partition: the physical outline says it all.
    m_outlines.erase(std::remove_if(m_outlines.begin() + physicalEnd, m_outlines.end(),
                                    [&](const NvlinkOutline& o) {
                                        return ownerOf(o.nvlinkDomain, physicalEnd)->partitions < 2;
                                    }),
                     m_outlines.end());
    const double margin = kNodeGap * 0.5;
    for (auto it = m_outlines.begin() + first; it != m_outlines.end(); ++it) {
        const double inset = it->partition < 0 ? margin : margin * 0.35;
        it->rect.adjust(-inset, -inset, inset, inset);
    }
    m_outlineRanges[leaf] = {static_cast<std::uint32_t>(first), static_cast<std::uint32_t>(m_outlines.size() - std::size_t(first))};
}

QRectF TopologyMapLayout::domainRect(DomainId id) const {
    return id < m_domainRects.size() ? m_domainRects[id] : QRectF();
}

QRectF TopologyMapLayout::headerRect(DomainId id) const {
    if (id >= m_domainRects.size() || m_headerHeights[id] <= 0) return QRectF();
    const QRectF& r = m_domainRects[id];
    return QRectF(r.left(), r.top(), r.width(), m_headerHeights[id]);
}

QRectF TopologyMapLayout::contentRect(DomainId id) const {
    if (id >= m_domainRects.size()) return QRectF();
    const double padding = m_paddings[id];
    return m_domainRects[id].adjusted(padding, m_headerHeights[id], -padding, -padding);
}

QRectF TopologyMapLayout::nodeRect(NodeId id) const {
    return id < m_nodeRects.size() ? m_nodeRects[id] : QRectF();
}

QRectF TopologyMapLayout::gpuRect(NodeId id, int gpu) const {
    const QRectF node = nodeRect(id);
    if (node.isEmpty() || gpu < 0) return QRectF();
    const int column = gpu % m_gpuColumns;
    const int row = gpu / m_gpuColumns;
    return QRectF(node.left() + kNodePadding + column * (1.0 + kCellGap),
                  node.top() + kNodePadding + row * (1.0 + kCellGap), 1.0, 1.0);
}

std::span<const TopologyMapLayout::NvlinkOutline> TopologyMapLayout::nvlinkOutlines(DomainId leaf) const {
    if (leaf >= m_outlineRanges.size()) return {};
    const auto [first, count] = m_outlineRanges[leaf];
    return std::span<const NvlinkOutline>(m_outlines.data() + first, count);
}

bool TopologyMapLayout::collapsedAt(DomainId id, double scale) const {
    return id < m_collapseBelow.size() && scale < m_collapseBelow[id];
}

TopologyMapLayout::Hit TopologyMapLayout::hitTest(const TopologyIndex& index, QPointF world, double scale) const {
    Hit hit;
    if (isEmpty() || !m_bounds.contains(world) || index.domainSlots() != m_domainRects.size()) return hit;
    DomainId current = kRootDomain;
    for (;;) {
        hit.domain = current;
        if (collapsedAt(current, scale)) return hit;
        const Domain& domain = index.domain(current);
        if (domain.children.empty()) {
            for (NodeId node : domain.nodes)
                if (nodeRect(node).contains(world)) {
                    hit.node = node;
                    break;
                }
            return hit;
        }
        DomainId next = kNoDomain;
        for (DomainId child : domain.children)
            if (index.domain(child).alive && m_domainRects[child].contains(world)) {
                next = child;
                break;
            }
        if (next == kNoDomain) return hit;
        current = next;
    }
}

} // namespace topodeck
