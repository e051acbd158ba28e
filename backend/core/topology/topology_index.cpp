#include "core/topology/topology_index.h"

#include "core/text/natural_order.h"

#include <algorithm>
#include <cstring>
#include <functional>

namespace topodeck {

namespace {

std::string childKey(DomainId parent, const std::string* value) {
    std::string key(sizeof parent + 1 + (value ? value->size() : 0), '\0');
    std::memcpy(key.data(), &parent, sizeof parent);
    key[sizeof parent] = value ? 'L' : 'U';
    if (value) std::memcpy(key.data() + sizeof parent + 1, value->data(), value->size());
    return key;
}

void trimHistogram(std::vector<std::uint32_t>& histogram) {
    while (!histogram.empty() && histogram.back() == 0) histogram.pop_back();
}

} // namespace

DomainTotals& DomainTotals::operator+=(const DomainTotals& o) {
    gpusTotal += o.gpusTotal;
    gpusUsed += o.gpusUsed;
    gpusFree += o.gpusFree;
    gpusUnavailable += o.gpusUnavailable;
    gpusFragmented += o.gpusFragmented;
    gpuShareUsed += o.gpuShareUsed;
    gpusPartlyUsed += o.gpusPartlyUsed;
    nodesPluginGpus += o.nodesPluginGpus;
    nodesDraGpus += o.nodesDraGpus;
    nodesBothGpus += o.nodesBothGpus;
    nodesTotal += o.nodesTotal;
    nodesReady += o.nodesReady;
    nodesSchedulable += o.nodesSchedulable;
    nodesFree += o.nodesFree;
    pods += o.pods;
    return *this;
}

DomainTotals& DomainTotals::operator-=(const DomainTotals& o) {
    gpusTotal -= o.gpusTotal;
    gpusUsed -= o.gpusUsed;
    gpusFree -= o.gpusFree;
    gpusUnavailable -= o.gpusUnavailable;
    gpusFragmented -= o.gpusFragmented;
    gpuShareUsed -= o.gpuShareUsed;
    gpusPartlyUsed -= o.gpusPartlyUsed;
    nodesPluginGpus -= o.nodesPluginGpus;
    nodesDraGpus -= o.nodesDraGpus;
    nodesBothGpus -= o.nodesBothGpus;
    nodesTotal -= o.nodesTotal;
    nodesReady -= o.nodesReady;
    nodesSchedulable -= o.nodesSchedulable;
    nodesFree -= o.nodesFree;
    pods -= o.pods;
    return *this;
}

std::int64_t NodeStats::gpusFree() const {
    return schedulable ? std::max<std::int64_t>(0, gpusTotal - gpusUsed) : 0;
}

DomainTotals NodeStats::totals() const {
    DomainTotals t;
    const std::int64_t idle = std::max<std::int64_t>(0, gpusTotal - gpusUsed);
    t.gpusTotal = gpusTotal;
    t.gpusUsed = gpusUsed;
    t.gpuShareUsed = gpuShareUsed;
    t.gpusPartlyUsed = gpusPartlyUsed;
    t.nodesPluginGpus = gpuSource == GpuSource::DevicePlugin ? 1 : 0;
    t.nodesDraGpus = gpuSource == GpuSource::Dra ? 1 : 0;
    t.nodesBothGpus = gpuSource == GpuSource::Both ? 1 : 0;
    if (schedulable) {
        t.gpusFree = idle;
        t.gpusFragmented = gpusUsed > 0 ? idle : 0;
        t.nodesFree = gpusTotal > 0 && gpusUsed == 0 ? 1 : 0;
    } else {
        t.gpusUnavailable = idle;
    }
    t.nodesTotal = 1;
    t.nodesReady = ready ? 1 : 0;
    t.nodesSchedulable = schedulable ? 1 : 0;
    t.pods = pods;
    return t;
}

std::int64_t Domain::maxFreeGpusOnNode() const {
    for (std::size_t k = freeGpuHistogram.size(); k-- > 0;)
        if (freeGpuHistogram[k] > 0) return static_cast<std::int64_t>(k);
    return 0;
}

std::int64_t Domain::nodesWithFreeGpus(std::int64_t k) const {
    std::int64_t count = 0;
    for (std::size_t i = static_cast<std::size_t>(std::max<std::int64_t>(k, 0)); i < freeGpuHistogram.size(); ++i)
        count += freeGpuHistogram[i];
    return count;
}

TopologyIndex::TopologyIndex() {
    m_domains.emplace_back();
}

TopologyIndex TopologyIndex::build(const ClusterState& state, TopologySpec spec, GpuResources gpus) {
    TopologyIndex index;
    index.m_spec = std::move(spec);
    index.m_gpus = std::move(gpus);
    index.m_nodeStats.resize(state.nodeSlots());
    for (NodeId id = 0; id < state.nodeSlots(); ++id) {
        const NodeRecord& record = state.record(id);
        if (!record.present) continue;
        const DomainId leaf = index.leafFor(*record.node, /*keepSorted=*/false);
        const NodeStats stats = index.statsFor(state, id, leaf);
        index.m_domains[leaf].nodes.push_back(id);
        index.addToPath(leaf, stats, +1);
        index.m_nodeStats[id] = stats;
    }
    // Sorting once at the end keeps the build O(n log n) however wide a level is.
    for (DomainId id = 0; id < index.m_domains.size(); ++id) {
        Domain& d = index.m_domains[id];
        std::sort(d.children.begin(), d.children.end(),
                  [&index](DomainId a, DomainId b) { return index.childBefore(a, b); });
        std::sort(d.nodes.begin(), d.nodes.end(), [&state](NodeId a, NodeId b) {
            const std::string& na = state.record(a).node->name;
            const std::string& nb = state.record(b).node->name;
            return naturalLess(na, nb) || (!naturalLess(nb, na) && a < b);
        });
    }
    return index;
}

bool TopologyIndex::childBefore(DomainId a, DomainId b) const {
    const Domain& da = m_domains[a];
    const Domain& db = m_domains[b];
    if (da.unlabelled != db.unlabelled) return db.unlabelled;
    return naturalLess(da.value, db.value);
}

DomainId TopologyIndex::childFor(DomainId parent, int level, const std::string* value, bool keepSorted) {
    std::string key = childKey(parent, value);
    if (auto it = m_childIds.find(key); it != m_childIds.end()) return it->second;

    const auto id = static_cast<DomainId>(m_domains.size());
    Domain child;
    child.parent = parent;
    child.level = level;
    child.unlabelled = value == nullptr;
    if (value) child.value = *value;
    m_domains.push_back(std::move(child));
    m_childIds.emplace(std::move(key), id);

    std::vector<DomainId>& siblings = m_domains[parent].children;
    if (keepSorted) {
        auto pos = std::upper_bound(siblings.begin(), siblings.end(), id,
                                    [this](DomainId a, DomainId b) { return childBefore(a, b); });
        siblings.insert(pos, id);
    } else {
        siblings.push_back(id);
    }
    ++m_structureVersion;
    return id;
}

DomainId TopologyIndex::leafFor(const Node& node, bool keepSorted) {
    const std::vector<std::string>* path = nullptr;
    int membershipLevels = 0;
    if (const TopologyMembership* membership = m_spec.membership.get()) {
        membershipLevels = membership->levels;
        if (auto it = membership->pathByNode.find(node.name); it != membership->pathByNode.end()) path = &it->second;
    }
    DomainId domain = kRootDomain;
    for (int level = 0; level < m_spec.depth(); ++level) {
        const std::string* value = nullptr;
        if (level >= membershipLevels)
            value = node.label(m_spec.levels[static_cast<std::size_t>(level)].nodeLabel);
        else if (path && static_cast<std::size_t>(level) < path->size() &&
                 !(*path)[static_cast<std::size_t>(level)].empty())
            value = &(*path)[static_cast<std::size_t>(level)];
        domain = childFor(domain, level, value, keepSorted);
    }
    return domain;
}

std::int32_t TopologyIndex::nvlinkFor(const Node& node) {
    if (m_spec.nvlinkLabel.empty()) return kNoNvlinkDomain;
    const std::string* value = node.label(m_spec.nvlinkLabel);
    if (!value) return kNoNvlinkDomain;
    auto [it, inserted] = m_nvlinkIds.try_emplace(*value, static_cast<std::int32_t>(m_nvlinkNames.size()));
    if (inserted) m_nvlinkNames.push_back(*value);
    return it->second;
}

NodeStats TopologyIndex::statsFor(const ClusterState& state, NodeId id, DomainId leaf) {
    const NodeRecord& record = state.record(id);
    NodeStats stats;
    stats.leaf = leaf;
    const NodeGpus gpus = countNodeGpus(state, id, m_gpus);
    stats.gpusTotal = gpus.total;
    stats.gpusUsed = gpus.busy;
    stats.gpuShareUsed = gpus.used;
    stats.gpusPartlyUsed = gpus.partlyUsed;
    stats.gpuSource = gpus.source;
    stats.pods = record.usage.pods;
    stats.ready = record.node->ready;
    stats.schedulable = record.node->schedulable();
    stats.nvlinkDomain = nvlinkFor(*record.node);
    return stats;
}

void TopologyIndex::addToPath(DomainId leaf, const NodeStats& stats, int sign) {
    const DomainTotals totals = stats.totals();
    // A node reporting absurdly many GPUs (a fuzzed or broken 1e17) counts in the last bucket
    // rather than sizing every domain's histogram after it.
    const auto bucket = static_cast<std::size_t>(std::min(stats.gpusFree(), Domain::kMaxFreeGpuBucket));
    for (DomainId d = leaf; d != kNoDomain; d = m_domains[d].parent) {
        Domain& domain = m_domains[d];
        if (sign > 0) {
            domain.totals += totals;
        } else {
            domain.totals -= totals;
        }
        if (!stats.schedulable) continue;
        if (sign > 0) {
            if (domain.freeGpuHistogram.size() <= bucket) domain.freeGpuHistogram.resize(bucket + 1, 0);
            ++domain.freeGpuHistogram[bucket];
        } else {
            --domain.freeGpuHistogram[bucket];
            trimHistogram(domain.freeGpuHistogram);
        }
    }
}

void TopologyIndex::insertNodeSorted(const ClusterState& state, DomainId leaf, NodeId id) {
    std::vector<NodeId>& nodes = m_domains[leaf].nodes;
    auto pos = std::upper_bound(nodes.begin(), nodes.end(), id, [&state](NodeId a, NodeId b) {
        const std::string& na = state.record(a).node->name;
        const std::string& nb = state.record(b).node->name;
        return naturalLess(na, nb) || (!naturalLess(nb, na) && a < b);
    });
    nodes.insert(pos, id);
}

void TopologyIndex::pruneIfEmpty(DomainId id) {
    while (id != kRootDomain) {
        Domain& domain = m_domains[id];
        if (!domain.nodes.empty() || !domain.children.empty()) return;
        const DomainId parent = domain.parent;
        std::vector<DomainId>& siblings = m_domains[parent].children;
        siblings.erase(std::find(siblings.begin(), siblings.end(), id));
        m_childIds.erase(childKey(parent, domain.unlabelled ? nullptr : &domain.value));
        domain = Domain{};
        domain.alive = false;
        ++m_structureVersion;
        id = parent;
    }
}

void TopologyIndex::update(const ClusterState& state, NodeId id) {
    if (id >= m_nodeStats.size()) m_nodeStats.resize(state.nodeSlots());
    const NodeStats old = m_nodeStats[id];
    const NodeRecord& record = state.record(id);

    DomainId leaf = kNoDomain;
    NodeStats fresh;
    if (record.present) {
        leaf = leafFor(*record.node, /*keepSorted=*/true);
        fresh = statsFor(state, id, leaf);
        if (leaf != old.leaf) insertNodeSorted(state, leaf, id);
    }
    if (old.leaf != kNoDomain) addToPath(old.leaf, old, -1);
    if (leaf != kNoDomain) addToPath(leaf, fresh, +1);
    m_nodeStats[id] = fresh;
    if (old.leaf != kNoDomain && old.leaf != leaf) {
        std::vector<NodeId>& nodes = m_domains[old.leaf].nodes;
        nodes.erase(std::find(nodes.begin(), nodes.end(), id));
        pruneIfEmpty(old.leaf);
    }
}

void TopologyIndex::apply(const ClusterState& state, const AppliedEvent& event) {
    if (event.allNodes) {
        for (NodeId id = 0; id < state.nodeSlots(); ++id) update(state, id);
        return;
    }
    for (int i = 0; i < event.nodeCount; ++i) update(state, event.nodes[i]);
}

DomainId TopologyIndex::findChild(DomainId parent, std::string_view value, bool unlabelled) const {
    const std::string text(value);
    auto it = m_childIds.find(childKey(parent, unlabelled ? nullptr : &text));
    return it == m_childIds.end() ? kNoDomain : it->second;
}

std::vector<DomainId> TopologyIndex::pathTo(DomainId id) const {
    std::vector<DomainId> path;
    for (DomainId d = id; d != kNoDomain; d = m_domains[d].parent) path.push_back(d);
    std::reverse(path.begin(), path.end());
    return path;
}

std::string TopologyIndex::pathName(DomainId id) const {
    std::string name;
    for (DomainId d : pathTo(id)) {
        const Domain& domain = m_domains[d];
        if (domain.level < 0) continue;
        if (!name.empty()) name += '/';
        name += domain.unlabelled ? "(no " + m_spec.levels[static_cast<std::size_t>(domain.level)].name + ")"
                                  : domain.value;
    }
    return name;
}

bool TopologyIndex::sameContent(const TopologyIndex& a, const TopologyIndex& b, std::string* why) {
    auto fail = [why](std::string message) {
        if (why) *why = std::move(message);
        return false;
    };
    if (!(a.m_spec == b.m_spec)) return fail("topology specs differ");
    if (a.m_nodeStats.size() != b.m_nodeStats.size()) return fail("node slot counts differ");
    for (NodeId id = 0; id < a.m_nodeStats.size(); ++id) {
        NodeStats sa = a.m_nodeStats[id], sb = b.m_nodeStats[id];
        const std::string na = sa.nvlinkDomain == kNoNvlinkDomain ? std::string() : a.nvlinkName(sa.nvlinkDomain);
        const std::string nb = sb.nvlinkDomain == kNoNvlinkDomain ? std::string() : b.nvlinkName(sb.nvlinkDomain);
        if (na != nb) return fail("node " + std::to_string(id) + ": NVLink domains differ");
        if ((sa.leaf == kNoDomain) != (sb.leaf == kNoDomain))
            return fail("node " + std::to_string(id) + ": presence differs");
        if (sa.leaf != kNoDomain && a.pathName(sa.leaf) != b.pathName(sb.leaf))
            return fail("node " + std::to_string(id) + ": placed in " + a.pathName(sa.leaf) + " vs " +
                        b.pathName(sb.leaf));
        sa.leaf = sb.leaf = 0;
        sa.nvlinkDomain = sb.nvlinkDomain = 0;
        if (!(sa == sb)) return fail("node " + std::to_string(id) + ": stats differ");
    }
    std::function<bool(DomainId, DomainId)> compare = [&](DomainId ia, DomainId ib) {
        const Domain& da = a.m_domains[ia];
        const Domain& db = b.m_domains[ib];
        const std::string where = "domain '" + a.pathName(ia) + "'";
        if (da.level != db.level || da.value != db.value || da.unlabelled != db.unlabelled || da.alive != db.alive)
            return fail(where + ": identity differs from '" + b.pathName(ib) + "'");
        if (!(da.totals == db.totals)) return fail(where + ": totals differ");
        if (da.freeGpuHistogram != db.freeGpuHistogram) return fail(where + ": free-GPU histograms differ");
        if (da.nodes != db.nodes) return fail(where + ": member nodes differ");
        if (da.children.size() != db.children.size()) return fail(where + ": child counts differ");
        for (std::size_t i = 0; i < da.children.size(); ++i)
            if (!compare(da.children[i], db.children[i])) return false;
        return true;
    };
    return compare(kRootDomain, kRootDomain);
}

std::vector<NodeId> nodesUnder(const TopologyIndex& index, DomainId id) {
    std::vector<NodeId> nodes;
    std::vector<DomainId> pending{id};
    while (!pending.empty()) { // depth first, children in order, without recursion
        const Domain& domain = index.domain(pending.back());
        pending.pop_back();
        nodes.insert(nodes.end(), domain.nodes.begin(), domain.nodes.end());
        pending.insert(pending.end(), domain.children.rbegin(), domain.children.rend());
    }
    return nodes;
}

Result<DomainId> findDomainByName(const TopologyIndex& index, std::string_view name, std::string_view what,
                                  std::string_view lookedFor) {
    std::vector<DomainId> matches;
    for (DomainId id = 0; id < index.domainSlots(); ++id) {
        const Domain& domain = index.domain(id);
        if (!domain.alive || domain.level < 0 || domain.unlabelled) continue;
        if (domain.value == name || index.pathName(id) == name) matches.push_back(id);
    }
    if (matches.empty()) return Error{std::string(what) + ": no " + std::string(lookedFor) + " has that name"};
    if (matches.size() == 1) return matches.front();
    std::string names;
    for (std::size_t i = 0; i < matches.size() && i < 5; ++i) names += (i ? ", " : "") + index.pathName(matches[i]);
    return Error{std::string(what) + " names " + std::to_string(matches.size()) + " domains (" + names +
                 (matches.size() > 5 ? ", ..." : "") + "): give the full path"};
}

} // namespace topodeck
