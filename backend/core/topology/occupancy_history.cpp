#include "core/topology/occupancy_history.h"

#include <algorithm>

namespace topodeck {

namespace {

std::uint32_t clamp32(std::int64_t value) {
    return static_cast<std::uint32_t>(std::clamp<std::int64_t>(value, 0, OccupancySample::kGap - 1));
}

} // namespace

OccupancyHistory::OccupancyHistory(OccupancyHistoryOptions options) : m_options(options) {
    m_options.capacity = std::max<std::size_t>(m_options.capacity, 1);
    m_options.intervalMs = std::max<std::int64_t>(m_options.intervalMs, 1);
    m_times.assign(m_options.capacity, 0);
}

void OccupancyHistory::clear() {
    m_series.clear();
    m_head = 0;
    m_count = 0;
    m_newestOpened = 0;
}

bool OccupancyHistory::record(const TopologyIndex& index, std::int64_t timeMs) {
    const std::int64_t interval = m_options.intervalMs;
    const bool add = wouldAdd(timeMs);
    if (add) {
        if (m_count < m_options.capacity)
            ++m_count;
        else
            m_head = (m_head + 1) % m_options.capacity;
        ++m_nextSequence;
        // Points open on a grid of whole intervals, so sampling jitter does not drift them.
        m_newestOpened = m_count == 1 ? timeMs : m_newestOpened + (timeMs - m_newestOpened) / interval * interval;
    }
    m_times[newestSlot()] = timeMs;
    ++m_records;

    // The cluster and the top levels, walked from the root.
    std::vector<DomainId> level{kRootDomain};
    std::vector<DomainId> next;
    for (int depth = -1; !level.empty() && depth < m_options.trackedLevels; ++depth) {
        next.clear();
        for (DomainId id : level) {
            const Domain& domain = index.domain(id);
            if (!domain.alive) continue;
            Series* series = nullptr;
            if (auto found = m_series.find(index.pathName(id)); found != m_series.end())
                series = &found->second;
            else if (id == kRootDomain || std::count_if(m_series.begin(), m_series.end(), [](const auto& entry) {
                                              return !entry.second.extra;
                                          }) <= static_cast<std::ptrdiff_t>(m_options.maxLevelSeries))
                series = &seriesFor(index, id, false);
            if (series) write(*series, domain);
            next.insert(next.end(), domain.children.begin(), domain.children.end());
        }
        std::swap(level, next);
    }
    // The selected domains, found again by path (their ids may have changed with a relabel).
    for (auto& [path, series] : m_series) {
        if (!series.extra || series.recorded == m_records) continue;
        const DomainId id = resolve(index, series);
        if (id != kNoDomain) write(series, index.domain(id));
    }
    // What no longer exists is a gap at this point.
    for (auto& [path, series] : m_series)
        if (series.recorded != m_records) series.ring[newestSlot()] = OccupancySample{};
    if (add) dropExpired();
    return add;
}

bool OccupancyHistory::track(const TopologyIndex& index, DomainId id) {
    if (id >= index.domainSlots() || !index.domain(id).alive) return false;
    const std::string path = index.pathName(id);
    if (auto found = m_series.find(path); found != m_series.end()) {
        found->second.lastTracked = ++m_trackClock;
        return true;
    }
    Series& series = seriesFor(index, id, true);
    series.lastTracked = ++m_trackClock;
    if (m_count > 0) write(series, index.domain(id));
    // Over the cap, the selection made longest ago goes.
    std::vector<std::map<std::string, Series, std::less<>>::iterator> extras;
    for (auto it = m_series.begin(); it != m_series.end(); ++it)
        if (it->second.extra) extras.push_back(it);
    if (extras.size() > m_options.maxExtraSeries) {
        auto oldest = *std::min_element(extras.begin(), extras.end(), [](const auto& a, const auto& b) {
            return a->second.lastTracked < b->second.lastTracked;
        });
        m_series.erase(oldest);
    }
    return true;
}

OccupancyHistory::Series& OccupancyHistory::seriesFor(const TopologyIndex& index, DomainId id, bool extra) {
    std::string path = index.pathName(id);
    Series series;
    series.path = path;
    series.level = index.domain(id).level;
    series.extra = extra;
    series.first = m_count > 0 ? m_nextSequence - 1 : m_nextSequence;
    for (DomainId d : index.pathTo(id)) {
        const Domain& domain = index.domain(d);
        if (domain.level >= 0) series.segments.emplace_back(domain.value, domain.unlabelled);
    }
    series.ring.assign(m_options.capacity, OccupancySample{});
    return m_series.emplace(std::move(path), std::move(series)).first->second;
}

void OccupancyHistory::write(Series& series, const Domain& domain) {
    if (m_count == 0) return;
    series.ring[newestSlot()] = OccupancySample{clamp32(domain.totals.gpusUsed), clamp32(domain.totals.gpusUnavailable),
                                                clamp32(domain.totals.gpusTotal)};
    series.lastPresent = m_nextSequence - 1;
    series.recorded = m_records;
}

DomainId OccupancyHistory::resolve(const TopologyIndex& index, const Series& series) const {
    DomainId id = kRootDomain;
    for (const auto& [value, unlabelled] : series.segments) {
        id = index.findChild(id, value, unlabelled);
        if (id == kNoDomain || !index.domain(id).alive) return kNoDomain;
    }
    return id;
}

void OccupancyHistory::dropExpired() {
    const std::uint64_t oldest = firstSequence();
    std::erase_if(m_series, [oldest](const auto& entry) { return entry.second.lastPresent < oldest; });
}

const OccupancyHistory::Series* OccupancyHistory::find(std::string_view path) const {
    auto found = m_series.find(path);
    return found == m_series.end() ? nullptr : &found->second;
}

OccupancySample OccupancyHistory::at(const Series& series, std::size_t i) const {
    if (i >= m_count || firstSequence() + i < series.first) return {};
    return series.ring[slot(i)];
}

std::vector<const OccupancyHistory::Series*> OccupancyHistory::allSeries() const {
    std::vector<const Series*> all;
    all.reserve(m_series.size());
    for (const auto& [path, series] : m_series) all.push_back(&series);
    return all;
}

std::size_t OccupancyHistory::memoryBytes() const {
    std::size_t bytes = sizeof(*this) + m_times.capacity() * sizeof(std::int64_t);
    for (const auto& [path, series] : m_series) {
        bytes += sizeof(series) + 2 * path.capacity() + 64; // the map node and its key
        bytes += series.ring.capacity() * sizeof(OccupancySample);
        for (const auto& segment : series.segments) bytes += sizeof(segment) + segment.first.capacity();
    }
    return bytes;
}

} // namespace topodeck
