#pragma once

#include "core/topology/topology_index.h"

#include <QPointF>
#include <QRectF>
#include <QSizeF>

#include <cstdint>
#include <limits>
#include <span>
#include <string_view>
#include <vector>

namespace topodeck {

// Pure geometry of the topology map, in world units (one GPU cell = 1.0): every domain as a box
// with a header, nested inside its parent; nodes as small boxes inside the lowest domains; each
// node's GPUs as cells. Built once per structure (domains, node membership) and target aspect,
// then reused for every occupancy update, so painting never allocates or measures.
class TopologyMapLayout {
public:
    static constexpr NodeId kNoNode = std::numeric_limits<NodeId>::max();
    // Below these on-screen sizes detail is dropped: a domain whose nodes (or child domains)
    // would be smaller is drawn as one block coloured by occupancy.
    static constexpr double kMinNodePixels = 5.0;
    static constexpr double kMinDomainPixels = 8.0;

    struct Hit {
        DomainId domain = kNoDomain; // the deepest domain drawn under the point; kNoDomain outside
        NodeId node = kNoNode;
        friend bool operator==(const Hit&, const Hit&) = default;
    };

    // Nodes of one NVLink domain inside one lowest-level domain, outlined together. The clique
    // label is `<ClusterUUID>.<CliqueID>`: the ClusterUUID names the physical NVLink domain (one
    // NVL72 rack), the CliqueID a partition of it. A physical domain gets one outline; when it is
    // split into several partitions, each partition gets one more, inside it.
    struct NvlinkOutline {
        QRectF rect;
        std::int32_t nvlinkDomain = kNoNvlinkDomain; // a partition's clique; the first member's for the whole
        std::uint32_t nodeCount = 0;
        int partition = -1; // -1: the physical domain; else which of its partitions, in order of appearance
        int partitions = 0; // on the physical domain's outline: how many partitions it has (1: not split)
    };
    // The physical NVLink domain of a clique value: the part before the last '.' when a CliqueID
    // follows it, else the whole value.
    static std::string_view physicalNvlinkDomain(std::string_view clique);

    // targetAspect = width / height the whole map should approach (the widget's).
    void build(const TopologyIndex& index, double targetAspect);
    void clear();

    // Changes when anything the layout depends on changes (domains, membership, GPUs per node);
    // occupancy changes leave it alone.
    static std::uint64_t signatureOf(const TopologyIndex& index);
    std::uint64_t signature() const { return m_signature; }
    double targetAspect() const { return m_targetAspect; }
    bool isEmpty() const { return m_bounds.isEmpty(); }

    QRectF bounds() const { return m_bounds; }
    QRectF domainRect(DomainId id) const;
    // The strip at the top of a domain box that carries its name; empty for the root.
    QRectF headerRect(DomainId id) const;
    // Inside the header and padding: where the children or nodes are.
    QRectF contentRect(DomainId id) const;
    QRectF nodeRect(NodeId id) const;
    QRectF gpuRect(NodeId id, int gpu) const;
    int gpuColumns() const { return m_gpuColumns; }
    int gpuRows() const { return m_gpuRows; }
    std::span<const NvlinkOutline> nvlinkOutlines(DomainId leaf) const;

    // True when, at scale pixels per world unit, the domain is drawn as one block.
    bool collapsedAt(DomainId id, double scale) const;
    Hit hitTest(const TopologyIndex& index, QPointF world, double scale) const;

private:
    struct Arrangement {
        double width = 0;
        double height = 0;
        int perRow = 1;
    };
    QSizeF measure(const TopologyIndex& index, DomainId id, bool isRoot);
    QSizeF measureLeaf(const TopologyIndex& index, DomainId id, double aspect, bool isRoot);
    // Adds header and padding around content; records and returns the domain's size.
    QSizeF frame(DomainId id, QSizeF content, bool isRoot);
    void place(const TopologyIndex& index, DomainId id, QPointF topLeft);
    Arrangement arrange(std::span<const QSizeF> sizes, double gap, double targetAspect) const;
    void collectOutlines(const TopologyIndex& index, DomainId leaf);

    std::uint64_t m_signature = 0;
    double m_targetAspect = 1.0;
    std::vector<double> m_levelAspects; // by level: the shape domains above the lowest aim for
    QRectF m_bounds;
    int m_gpuColumns = 1;
    int m_gpuRows = 1;
    QSizeF m_nodeSize;
    std::vector<QRectF> m_domainRects;   // by DomainId
    std::vector<double> m_headerHeights; // by DomainId
    std::vector<double> m_paddings;      // by DomainId
    std::vector<int> m_perRow;           // by DomainId: children or nodes per row
    std::vector<double> m_collapseBelow; // by DomainId: the scale below which it is one block
    std::vector<QRectF> m_nodeRects;     // by NodeId
    std::vector<std::int32_t> m_physicalOf; // by nvlinkDomain: an id shared by the cliques of one ClusterUUID
    std::vector<NvlinkOutline> m_outlines;
    std::vector<std::pair<std::uint32_t, std::uint32_t>> m_outlineRanges; // by DomainId: first, count
    std::vector<QSizeF> m_scratchSizes;
};

} // namespace topodeck
