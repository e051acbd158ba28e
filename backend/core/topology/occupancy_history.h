#pragma once

#include "core/topology/topology_index.h"

#include <cstddef>
#include <cstdint>
#include <limits>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace topodeck {

// One point of one domain's GPU occupancy. 32 bits each: 4 billion GPUs is plenty, and 12 bytes a
// point keeps a day of the cluster and its top two levels in a few MB even at 65,536 nodes.
struct OccupancySample {
    static constexpr std::uint32_t kGap = std::numeric_limits<std::uint32_t>::max();
    std::uint32_t used = 0;
    std::uint32_t unavailable = 0; // on NotReady or cordoned nodes
    std::uint32_t total = kGap;    // kGap: the domain did not exist at that point

    bool present() const { return total != kGap; }
    friend bool operator==(const OccupancySample&, const OccupancySample&) = default;
};

struct OccupancyHistoryOptions {
    std::size_t capacity = 8640;   // points kept: 24 h at the default interval
    std::int64_t intervalMs = 10'000;
    int trackedLevels = 2;         // every domain of levels 0 .. trackedLevels-1 has a series
    std::size_t maxLevelSeries = 512; // a cap on those, for very wide top levels (about 50 MB)
    std::size_t maxExtraSeries = 16;  // selected domains below the tracked levels
};

// The cluster's GPU occupancy over time: a ring of points at a fixed interval, with a series for
// the cluster, for every domain of the top levels, and for a few domains the user selected (kept
// from their first selection). Domains are matched by path, so a relabel that removes a domain
// leaves its series with gaps (and drops it once its last point leaves the window), and a domain
// that comes back continues its own series. Pure and single-threaded.
class OccupancyHistory {
public:
    struct Series {
        std::string path;  // TopologyIndex::pathName; empty for the cluster
        int level = -1;    // -1 for the cluster
        bool extra = false; // kept because it was selected
        std::uint64_t first = 0;       // sequence number of its first point
        std::uint64_t lastPresent = 0; // sequence number of the last point where the domain existed
        std::uint64_t lastTracked = 0; // for extras: when it was last selected (least recent goes first)
        std::uint64_t recorded = 0;    // the record() call that last wrote it
        std::vector<std::pair<std::string, bool>> segments; // (value, unlabelled) from the top, to find it again
        std::vector<OccupancySample> ring; // aligned with the history's time ring
    };

    explicit OccupancyHistory(OccupancyHistoryOptions options = {});

    // Records the index at timeMs: a new point once intervalMs has passed since the newest point
    // opened, else the newest point is updated (the interval still running shows live). Returns
    // true when a point was added.
    bool record(const TopologyIndex& index, std::int64_t timeMs);
    // Whether record() at timeMs would add a point (a model announces rows before they change).
    bool wouldAdd(std::int64_t timeMs) const { return m_count == 0 || timeMs - m_newestOpened >= m_options.intervalMs; }
    // Keeps a series for the domain from now on (a top-level domain has one already); its current
    // value fills the newest point. False for an id that is not a live domain.
    bool track(const TopologyIndex& index, DomainId id);
    void clear();
    void setIntervalMs(std::int64_t ms) { m_options.intervalMs = ms > 0 ? ms : 1; }

    const OccupancyHistoryOptions& options() const { return m_options; }
    std::size_t size() const { return m_count; }
    bool empty() const { return m_count == 0; }
    // Sequence number of point 0 (the oldest kept); it grows by one with each point ever added.
    std::uint64_t firstSequence() const { return m_nextSequence - m_count; }
    std::int64_t timeAt(std::size_t i) const { return m_times[slot(i)]; }

    const Series* find(std::string_view path) const;
    const Series* cluster() const { return find({}); } // null before the first point
    // Point i (0 = oldest) of a series; a gap where the series has none.
    OccupancySample at(const Series& series, std::size_t i) const;
    std::size_t seriesCount() const { return m_series.size(); }
    std::vector<const Series*> allSeries() const;

    // What the buffers take: capacity-sized rings are allocated when a series starts.
    std::size_t memoryBytes() const;

private:
    std::size_t slot(std::size_t i) const { return (m_head + i) % m_options.capacity; }
    std::size_t newestSlot() const { return slot(m_count - 1); }
    Series& seriesFor(const TopologyIndex& index, DomainId id, bool extra);
    void write(Series& series, const Domain& domain);
    DomainId resolve(const TopologyIndex& index, const Series& series) const;
    void dropExpired();

    OccupancyHistoryOptions m_options;
    std::vector<std::int64_t> m_times;
    std::size_t m_head = 0;  // slot of point 0
    std::size_t m_count = 0; // points held
    std::uint64_t m_nextSequence = 0;
    std::int64_t m_newestOpened = 0; // when the newest point's interval began
    std::uint64_t m_trackClock = 0;
    std::uint64_t m_records = 0;
    std::map<std::string, Series, std::less<>> m_series;
};

} // namespace topodeck
