#include "core/topology/level_capacity.h"

#include <algorithm>

namespace topodeck {

double LevelCapacity::fragmentation() const {
    return gpusFree > 0 ? double(gpusFreeScattered()) / double(gpusFree) : 0.0;
}

std::int64_t gangsThatFit(std::span<const std::uint32_t> histogram, std::int64_t gangGpus, std::int64_t gpusPerNode) {
    if (gangGpus <= 0 || gpusPerNode <= 0) return 0;
    const std::int64_t podGpus = std::min(gangGpus, gpusPerNode);
    const std::int64_t podsPerGang = (gangGpus + podGpus - 1) / podGpus;
    return podsThatFit(histogram, podGpus) / podsPerGang;
}

std::int64_t podsThatFit(std::span<const std::uint32_t> histogram, std::int64_t gpusPerPod) {
    if (gpusPerPod <= 0) return 0;
    std::int64_t pods = 0;
    for (auto free = static_cast<std::size_t>(gpusPerPod); free < histogram.size(); ++free)
        pods += std::int64_t(histogram[free]) * (std::int64_t(free) / gpusPerPod);
    return pods;
}

std::int64_t largestNodeGpus(const TopologyIndex& index) {
    std::int64_t gpusPerNode = 0;
    for (NodeId id = 0; id < index.nodeSlots(); ++id) {
        const NodeStats& node = index.node(id);
        if (node.leaf != kNoDomain) gpusPerNode = std::max(gpusPerNode, node.gpusTotal);
    }
    return gpusPerNode;
}

DomainSlots domainSlots(const Domain& domain, std::int64_t gpusPerNode, std::span<const std::int64_t> gangSizes) {
    DomainSlots slots;
    for (std::int64_t size : gangSizes) slots.gangs.push_back(gangsThatFit(domain.freeGpuHistogram, size, gpusPerNode));
    if (gpusPerNode <= 0) return slots;
    slots.wholeNodes = domain.nodesWithFreeGpus(gpusPerNode);
    slots.largestGang = std::max(std::min(domain.maxFreeGpusOnNode(), gpusPerNode), slots.wholeNodes * gpusPerNode);
    return slots;
}

std::vector<LevelCapacity> levelCapacity(const TopologyIndex& index, std::span<const std::int64_t> gangSizes) {
    const std::int64_t gpusPerNode = largestNodeGpus(index);
    const std::int64_t free = index.root().totals.gpusFree;
    const auto depth = index.spec().levels.size();
    std::vector<LevelCapacity> rows(depth);
    for (std::size_t level = 0; level < depth; ++level) {
        rows[level].level = static_cast<int>(level);
        rows[level].name = index.spec().levels[level].name;
        rows[level].gpusFree = free;
        rows[level].gangs.assign(gangSizes.size(), 0);
    }
    for (DomainId id = 1; id < index.domainSlots(); ++id) {
        const Domain& domain = index.domain(id);
        if (!domain.alive || domain.unlabelled || domain.level < 0 || std::size_t(domain.level) >= depth) continue;
        LevelCapacity& row = rows[std::size_t(domain.level)];
        ++row.domains;
        if (domain.totals.gpusUsed == 0) row.gpusFreeWhole += domain.totals.gpusFree;
        for (std::size_t s = 0; s < gangSizes.size(); ++s)
            row.gangs[s] += gangsThatFit(domain.freeGpuHistogram, gangSizes[s], gpusPerNode);
    }

    // NVLink domains are not in the tree: gather their nodes' free GPUs here.
    if (index.nvlinkDomainCount() > 0) {
        struct Nvlink {
            std::vector<std::uint32_t> histogram;
            std::int64_t free = 0;
            std::int64_t used = 0;
        };
        std::vector<Nvlink> domains(index.nvlinkDomainCount());
        for (NodeId id = 0; id < index.nodeSlots(); ++id) {
            const NodeStats& node = index.node(id);
            if (node.leaf == kNoDomain || node.nvlinkDomain == kNoNvlinkDomain) continue;
            Nvlink& nv = domains[std::size_t(node.nvlinkDomain)];
            nv.used += node.gpusUsed;
            if (!node.schedulable) continue;
            const auto bucket = std::size_t(std::min(node.gpusFree(), Domain::kMaxFreeGpuBucket));
            if (nv.histogram.size() <= bucket) nv.histogram.resize(bucket + 1, 0);
            ++nv.histogram[bucket];
            nv.free += node.gpusFree();
        }
        LevelCapacity row;
        row.kind = LevelCapacity::Kind::Nvlink;
        row.name = "NVLink domain";
        row.gpusFree = free;
        row.gangs.assign(gangSizes.size(), 0);
        for (const Nvlink& nv : domains) {
            if (nv.histogram.empty() && nv.used == 0 && nv.free == 0) continue; // no member left
            ++row.domains;
            if (nv.used == 0) row.gpusFreeWhole += nv.free;
            for (std::size_t s = 0; s < gangSizes.size(); ++s)
                row.gangs[s] += gangsThatFit(nv.histogram, gangSizes[s], gpusPerNode);
        }
        rows.push_back(std::move(row));
    }

    // A node is a domain of one: its histogram is a single bucket.
    LevelCapacity nodes;
    nodes.kind = LevelCapacity::Kind::Node;
    nodes.name = "node";
    nodes.gpusFree = free;
    nodes.gpusFreeWhole = free - index.root().totals.gpusFragmented;
    nodes.domains = index.root().totals.nodesSchedulable;
    const std::vector<std::uint32_t>& histogram = index.root().freeGpuHistogram;
    for (std::int64_t size : gangSizes) {
        std::int64_t gangs = 0;
        if (size <= gpusPerNode)
            for (std::size_t f = 0; f < histogram.size(); ++f) gangs += std::int64_t(histogram[f]) * (std::int64_t(f) / size);
        nodes.gangs.push_back(gangs);
    }
    rows.push_back(std::move(nodes));
    return rows;
}

} // namespace topodeck
