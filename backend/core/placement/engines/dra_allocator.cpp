#include "core/placement/engines/dra_allocator.h"

#include "core/cel/selector_memo.h"
#include "core/model/node_affinity.h"

#include <algorithm>
#include <map>
#include <string_view>

namespace topodeck {
namespace {

constexpr std::size_t kMaxResultsPerClaim = 32; // AllocationResultsMaxSize

// One way to satisfy a request: `exactly`, or one firstAvailable alternative.
struct Alternative {
    std::string name; // "gpu", or "gpu/big" for a firstAvailable alternative
    std::string requestName;
    const std::vector<cel::Program>* classSelectors = nullptr;
    std::vector<cel::Program> selectors;
    DeviceSubRequest::Mode mode = DeviceSubRequest::Mode::ExactCount;
    std::int64_t count = 1;
    bool adminAccess = false;
    std::vector<DeviceToleration> tolerations;
};

struct Request {
    std::size_t claim = 0; // index into Prepared::claims
    std::vector<std::size_t> alternatives; // into Prepared::alternatives, in order
};

struct Constraint {
    std::vector<std::string> requests; // empty: every request of the claim
    std::string attribute;             // fully qualified
    bool appliesTo(const Alternative& alternative) const {
        if (requests.empty()) return true;
        return std::find_if(requests.begin(), requests.end(), [&](const std::string& name) {
                   return name == alternative.requestName || name == alternative.name;
               }) != requests.end();
    }
};

struct ClaimPlan {
    std::string key; // "namespace/name", for errors
    bool shared = false;
    bool allocate = true; // false: allocated already, only its node selector is checked
    std::vector<NodeSelectorTerm> allocatedOn;
    std::vector<Constraint> constraints;
};

bool deviceReaches(const Device& device, const Node& node) {
    if (device.allNodes) return true;
    if (!device.nodeName.empty()) return device.nodeName == node.name;
    return !device.nodeSelector.empty() && matchesNodeAffinity(device.nodeSelector, node);
}

// resourceclaim.ToleratesTaint: the effect (empty: any), the key (empty: any), then with Equal the
// value; Exists takes any value.
bool tolerates(const DeviceToleration& toleration, const DeviceTaint& taint) {
    if (!toleration.effect.empty() && toleration.effect != taint.effect) return false;
    if (!toleration.key.empty() && toleration.key != taint.key) return false;
    return toleration.op == DeviceToleration::Operator::Exists || toleration.value == taint.value;
}

// The scheduler's taintPreventsAllocation (1.35): a NoSchedule or NoExecute taint that none of the
// request's tolerations tolerates; other effects (None, unknown ones) never keep a device.
bool untoleratedTaint(const Device& device, const std::vector<DeviceToleration>& tolerations) {
    return std::any_of(device.taints.begin(), device.taints.end(), [&](const DeviceTaint& taint) {
        if (taint.effect != "NoSchedule" && taint.effect != "NoExecute") return false;
        return std::none_of(tolerations.begin(), tolerations.end(),
                            [&](const DeviceToleration& toleration) { return tolerates(toleration, taint); });
    });
}

void prefetchAttributes(const Device& device) {
    const auto* begin = reinterpret_cast<const char*>(device.attributes.data());
    const auto* end = reinterpret_cast<const char*>(device.attributes.data() + device.attributes.size());
    for (const char* line = begin; line < end; line += 64) __builtin_prefetch(line);
}

std::string poolKey(const ResourceSlice& slice) {
    std::string key = slice.driver;
    key += '\0';
    key += slice.pool;
    return key;
}

} // namespace

std::string draVerdictText(DraNodeVerdict verdict) {
    switch (verdict) {
    case DraNodeVerdict::Fits:
        return {};
    case DraNodeVerdict::CannotAllocate:
        return "cannot allocate all claims";
    case DraNodeVerdict::NotAvailable:
        return "resourceclaim not available on the node";
    case DraNodeVerdict::TimedOut:
        return "timed out trying to allocate devices";
    case DraNodeVerdict::InvalidPools:
        return "invalid resource pools were encountered";
    case DraNodeVerdict::AllocationError:
        return "cannot allocate all claims (allocation error)";
    }
    return {};
}

struct DraPodAllocator::Prepared {
    const ClusterState* state = nullptr;
    std::shared_ptr<const TakenDevices> taken; // by what-if steps before; nullptr: none
    DraFeatures features;
    std::int64_t stepBudget = DraPodAllocator::kStepBudget;
    std::map<std::string, std::vector<cel::Program>, std::less<>> classSelectors;
    std::vector<Alternative> alternatives;
    std::vector<Request> requests;
    std::vector<ClaimPlan> claims;
    // What each alternative's selectors (class, then request) read, for the results remembered
    // across nodes (cel/selector_memo.h).
    std::vector<std::vector<cel::FieldUse>> reads;
    // One claim of one ExactCount request, nothing else: a node's answer is counted from its
    // matching free devices (NodeSearch::countPods) rather than searched.
    bool countOnly = false;
    // The current slices of no one node (allNodes, node selectors, per-device node selection),
    // by slot in name order: a node reaches its own slices, then these (pool order is the
    // scheduler's map order, not deterministic; slices and devices keep theirs).
    std::vector<std::uint32_t> shared;
    // Counter sets by pool: what they hold, less what allocated devices draw.
    std::map<std::string, std::map<std::string, NamedQuantities>, std::less<>> counters;
    // With PartitionableDevices the scheduler reckons a pool with counter sets among every node's
    // pools: the first of them `All` cannot take from ("driver/pool is currently being updated"
    // or "... invalid"), and whether one is invalid by its counters.
    std::string unsettledCounterPool;
    bool invalidCounterPool = false;
};

namespace {

struct Candidate {
    const ResourceSlice* slice;
    const Device* device;
    bool allocated; // by a claim of the cluster, or taken by a what-if step
    DeviceSlot slot;
};

struct HeldValue {
    const DeviceAttributeValue* value;
    int holders;
};

} // namespace

// One thread's reusable space for node searches: the buffers a search fills per node, and the
// selector results remembered by the values they read, which hold on every node.
class DraPodAllocator::Workspace {
public:
    explicit Workspace(const Prepared& prepared) : prepared(&prepared) {
        for (const std::vector<cel::FieldUse>& reads : prepared.reads) memos.emplace_back(reads);
    }

    const Prepared* prepared;
    std::vector<cel::SelectorMemo> memos; // by alternative
    cel::SelectorMemo::Probe probe;
    std::vector<Candidate> devices;
    std::vector<std::int8_t> taken;
    std::vector<std::int8_t> match;
    std::vector<std::int32_t> pickedBy;
    std::vector<std::size_t> pickedClaimOf;
    std::vector<std::size_t> results;
    std::vector<std::vector<HeldValue>> constraintValue;
    // The counter sets of the pools this node's devices drew on, copied from Prepared::counters
    // when first drawn.
    std::map<std::string, std::map<std::string, NamedQuantities>, std::less<>> counters;
    std::vector<std::int64_t> failSteps; // countPods' table
    std::vector<std::uint32_t> ownSlices;
};

namespace {

// One node's search: the devices it reaches and what this dry-run has taken of them.
class NodeSearch {
public:
    NodeSearch(const DraPodAllocator::Prepared& prepared, DraPodAllocator::Workspace& space, const Node& node,
               NodeId id)
        : m_p(prepared), m_inventory(prepared.state->devices()), m_space(space), m_devices(space.devices),
          m_taken(space.taken), m_match(space.match), m_pickedBy(space.pickedBy), m_pickedClaimOf(space.pickedClaimOf),
          m_results(space.results), m_constraintValue(space.constraintValue), m_counters(space.counters) {
        m_devices.clear();
        m_unsettledPool.clear();
        m_invalidPool = false;
        auto add = [&](std::uint32_t slot, bool sliceReaches) {
            const ResourceSlice& slice = m_inventory.sliceAt(slot);
            // An invalid pool's devices are no candidates (the scheduler skips the pool).
            const bool invalid = !m_inventory.poolInvalidReason(slot, prepared.features.partitionableDevices).empty();
            bool reached = sliceReaches;
            for (std::size_t i = 0; i < slice.devices.size(); ++i) {
                const Device& device = slice.devices[i];
                if (!sliceReaches && !(slice.perDeviceNodeSelection && deviceReaches(device, node))) continue;
                reached = true;
                if (invalid) continue;
                const bool taken = prepared.taken && prepared.taken->contains(slot, i);
                m_devices.push_back({&slice, &device, taken || m_inventory.allocations(slot, i) > 0,
                                     {slot, static_cast<std::uint32_t>(i)}});
            }
            if (!reached) return;
            m_invalidPool |= invalid;
            if (!m_unsettledPool.empty()) return;
            if (!m_inventory.isPoolComplete(slot))
                m_unsettledPool = slice.driver + '/' + slice.pool + " is currently being updated";
            else if (invalid)
                m_unsettledPool = slice.driver + '/' + slice.pool + " is currently invalid";
        };
        // The node's own current slices in name order (nearly always one).
        std::vector<std::uint32_t>& own = space.ownSlices;
        own.clear();
        for (const std::uint32_t slot : m_inventory.nodeSliceSlots(id))
            if (m_inventory.isCurrent(slot)) own.push_back(slot);
        if (own.size() > 1)
            std::sort(own.begin(), own.end(), [&](std::uint32_t a, std::uint32_t b) {
                return m_inventory.sliceAt(a).name < m_inventory.sliceAt(b).name;
            });
        for (const std::uint32_t slot : own) add(slot, true);
        for (const std::uint32_t slot : prepared.shared) {
            const ResourceSlice& slice = m_inventory.sliceAt(slot);
            const bool reaches =
                slice.allNodes || (!slice.nodeSelector.empty() && matchesNodeAffinity(slice.nodeSelector, node));
            add(slot, reaches);
        }
        if (m_unsettledPool.empty()) m_unsettledPool = prepared.unsettledCounterPool;
        m_invalidPool |= prepared.invalidCounterPool;
        m_taken.assign(m_devices.size(), 0);
        m_match.assign(prepared.alternatives.size() * m_devices.size(), kUnknown);
        m_counters.clear();
    }

    // One pod: its claims (shared ones only with the first pod); the devices stay taken.
    DraNodeVerdict allocatePod(bool withShared, std::string& detail) {
        m_withShared = withShared;
        m_budget = m_p.stepBudget;
        m_timedOut = false;
        m_error.clear();
        m_pickedBy.assign(m_devices.size(), -1);
        m_pickedClaimOf.assign(m_devices.size(), 0);
        m_results.assign(m_p.claims.size(), 0);
        m_constraintValue.resize(m_p.claims.size());
        for (std::size_t c = 0; c < m_p.claims.size(); ++c)
            m_constraintValue[c].assign(m_p.claims[c].constraints.size(), {nullptr, 0});
        const bool found = allocateFrom(0);
        if (!m_error.empty()) {
            detail = m_error;
            return DraNodeVerdict::AllocationError;
        }
        if (m_timedOut) return DraNodeVerdict::TimedOut;
        // As the scheduler: no solution, and a pool it skipped was invalid.
        if (!found) return m_invalidPool ? DraNodeVerdict::InvalidPools : DraNodeVerdict::CannotAllocate;
        for (std::size_t d = 0; d < m_devices.size(); ++d)
            if (m_pickedBy[d] >= 0 && !m_p.alternatives[static_cast<std::size_t>(m_pickedBy[d])].adminAccess) m_taken[d] = 1;
        return DraNodeVerdict::Fits;
    }

    // For Prepared::countOnly: the pods allocatePod() would fit one after another, counted. Each
    // pod's search takes the first `count` eligible devices in device order, so pods fit while
    // `count` eligible devices are left, and no successful search takes more steps than the node
    // has devices; the first pod that does not fit fails after exploring every way to pick from
    // the devices left, whose steps are counted (failingSteps) to tell a timeout as the search
    // does. False, changing nothing the search reads, where counting cannot answer as the search
    // would: a selector error on a free device (the search may meet it or not), a device drawing
    // on counters under PartitionableDevices, more devices than the step budget.
    bool countPods(std::int32_t limit, DraPodAllocator::NodeFit& fit) {
        const Alternative& alternative = m_p.alternatives.front();
        const auto count = static_cast<std::size_t>(alternative.count);
        if (static_cast<std::int64_t>(m_devices.size()) > m_p.stepBudget) return false;
        // Too few free devices for one pod: the search fails at once, looking at the few devices
        // its order reaches (counting would look at them all).
        const auto freeDevices = static_cast<std::size_t>(
            std::count_if(m_devices.begin(), m_devices.end(), [](const Candidate& c) { return !c.allocated; }));
        if (freeDevices < count) return false;
        // The selectors read the free devices' attributes, which sit in memory no earlier step
        // touched: ask for all of them at once, so that the reads overlap instead of queueing.
        for (const Candidate& candidate : m_devices)
            if (!candidate.allocated) prefetchAttributes(*candidate.device);
        std::size_t eligibleCount = 0;
        for (std::size_t d = 0; d < m_devices.size(); ++d) {
            const Candidate& candidate = m_devices[d];
            m_taken[d] = 0; // here: 1 when eligible for the pod that fails
            if (candidate.allocated) continue;
            const bool matched = matches(0, d);
            if (!m_error.empty()) {
                m_error.clear();
                std::fill(m_match.begin(), m_match.end(), kUnknown);
                std::fill(m_taken.begin(), m_taken.end(), 0);
                return false;
            }
            if (!matched) continue;
            if (!candidate.device->consumesCounters.empty()) {
                if (!m_p.features.partitionableDevices) continue;
                std::fill(m_taken.begin(), m_taken.end(), 0);
                return false;
            }
            if (m_p.features.deviceTaints && untoleratedTaint(*candidate.device, alternative.tolerations)) continue;
            m_taken[d] = 1;
            ++eligibleCount;
        }
        const std::size_t fitting = std::min<std::size_t>(static_cast<std::size_t>(limit), eligibleCount / count);
        fit.pods = static_cast<std::int32_t>(fitting);
        if (fit.pods == limit) {
            fit.stoppedBy = DraNodeVerdict::Fits;
            return true;
        }
        // The devices the fitting pods took are the first fitting * count eligible ones.
        std::size_t skip = fitting * count;
        for (std::size_t d = 0; d < m_devices.size() && skip > 0; ++d)
            if (m_taken[d]) {
                m_taken[d] = 0;
                --skip;
            }
        fit.stoppedBy = failingSteps(count) > m_p.stepBudget ? DraNodeVerdict::TimedOut
                        : m_invalidPool                      ? DraNodeVerdict::InvalidPools
                                                             : DraNodeVerdict::CannotAllocate;
        return true;
    }

    // After allocatePod() fitted a pod: the devices it took, per claim, in request order.
    void pickedDevices(DraPodAllocator::PodAllocation& out) const {
        out.claims.assign(m_p.claims.size(), {});
        std::vector<std::pair<std::size_t, std::size_t>> picked; // (alternative, device)
        for (std::size_t d = 0; d < m_devices.size(); ++d)
            if (m_pickedBy[d] >= 0) picked.emplace_back(static_cast<std::size_t>(m_pickedBy[d]), d);
        std::sort(picked.begin(), picked.end());
        for (const auto& [a, d] : picked) {
            const Alternative& alternative = m_p.alternatives[a];
            const Candidate& candidate = m_devices[d];
            DraPodAllocator::PodAllocation::Claim& claim = out.claims[m_pickedClaimOf[d]];
            claim.devices.push_back({alternative.name, candidate.slice->driver, candidate.slice->pool,
                                     candidate.device->name, alternative.adminAccess});
            if (!alternative.adminAccess) out.inUse.push_back(candidate.slot);
            claim.nodeLocal = claim.nodeLocal || !candidate.slice->nodeName.empty() || !candidate.device->nodeName.empty();
        }
    }

private:
    static constexpr std::int8_t kUnknown = -1;

    // Steps pickCount(count, 0) takes to fail where m_taken marks the eligible devices (fewer
    // than `count`): at each position from `from` on, while enough devices are left, one step,
    // and for an eligible device the steps of picking the rest after it. At most budget + 1.
    std::int64_t failingSteps(std::size_t count) {
        const std::size_t n = m_devices.size();
        const std::int64_t cap = m_p.stepBudget + 1;
        // Nothing eligible left: one step for each position with enough devices after it.
        if (std::find(m_taken.begin(), m_taken.end(), 1) == m_taken.end())
            return std::min<std::int64_t>(cap, n >= count ? static_cast<std::int64_t>(n - count + 1) : 0);
        // steps[r][from], r = 1..count; from = n (no device left) takes none.
        std::vector<std::int64_t>& steps = m_space.failSteps;
        steps.assign((count + 1) * (n + 1), 0);
        for (std::size_t r = 1; r <= count; ++r)
            for (std::size_t from = n; from-- > 0;) {
                std::int64_t total = 0;
                // pickCount's loop from `from`: it stops when fewer than r devices are left.
                if (n - from >= r) {
                    const std::int64_t here = 1 + (m_taken[from] && r > 1 ? steps[(r - 1) * (n + 1) + from + 1] : 0);
                    total = std::min(cap, here + steps[r * (n + 1) + from + 1]);
                }
                steps[r * (n + 1) + from] = total;
            }
        return steps[count * (n + 1)];
    }

    bool active(const Request& request) const { return m_withShared || !m_p.claims[request.claim].shared; }

    bool allocateFrom(std::size_t r) {
        if (r == m_p.requests.size()) return true;
        const Request& request = m_p.requests[r];
        if (!active(request) || !m_p.claims[request.claim].allocate) return allocateFrom(r + 1);
        for (std::size_t a : request.alternatives) {
            const Alternative& alternative = m_p.alternatives[a];
            const bool found = alternative.mode == DeviceSubRequest::Mode::All
                                   ? pickAll(r, a)
                                   : pickCount(r, a, alternative.count, 0);
            if (found) return true;
            if (m_timedOut || !m_error.empty()) return false;
        }
        return false;
    }

    bool pickCount(std::size_t r, std::size_t a, std::int64_t remaining, std::size_t from) {
        if (remaining == 0) return allocateFrom(r + 1);
        const std::size_t claim = m_p.requests[r].claim;
        for (std::size_t d = from; d < m_devices.size(); ++d) {
            if (static_cast<std::int64_t>(m_devices.size() - d) < remaining) return false; // too few left
            if (--m_budget < 0) {
                m_timedOut = true;
                return false;
            }
            if (!eligible(a, d, claim)) continue;
            if (!m_error.empty()) return false;
            if (!take(a, d, claim)) continue;
            if (pickCount(r, a, remaining - 1, d + 1)) return true;
            release(a, d, claim);
            if (m_timedOut || !m_error.empty()) return false;
        }
        return false;
    }

    bool pickAll(std::size_t r, std::size_t a) {
        // Every matching device the node reaches, taken or not: any of them taken means no solution.
        const std::size_t claim = m_p.requests[r].claim;
        // How many "all" is cannot be known while a pool the node reaches lacks slices or is invalid.
        if (!m_unsettledPool.empty()) {
            m_error = "claim " + m_p.claims[claim].key + ", request " + m_p.alternatives[a].name +
                      ": asks for all devices, but resource pool " + m_unsettledPool;
            return false;
        }
        std::vector<std::size_t> matching;
        for (std::size_t d = 0; d < m_devices.size(); ++d) {
            if (--m_budget < 0) {
                m_timedOut = true;
                return false;
            }
            if (matches(a, d)) matching.push_back(d);
            if (!m_error.empty()) return false;
        }
        if (matching.empty()) return false;
        std::size_t taken = 0;
        bool ok = true;
        for (std::size_t d : matching) {
            if (!eligible(a, d, claim) || !take(a, d, claim)) {
                ok = false;
                break;
            }
            ++taken;
        }
        if (ok && allocateFrom(r + 1)) return true;
        for (std::size_t i = 0; i < taken; ++i) release(a, matching[i], claim);
        return false;
    }

    bool eligible(std::size_t a, std::size_t d, std::size_t claim) {
        const Alternative& alternative = m_p.alternatives[a];
        const Candidate& candidate = m_devices[d];
        if (alternative.adminAccess) {
            // Admin access sees devices in use; it only may not take one twice within its claim.
            if (m_pickedBy[d] >= 0 && m_pickedClaimOf[d] == claim) return false;
        } else if (candidate.allocated || m_taken[d] || m_pickedBy[d] >= 0) {
            return false;
        }
        if (!matches(a, d)) return false;
        if (!candidate.device->consumesCounters.empty() && !m_p.features.partitionableDevices) return false;
        if (m_p.features.deviceTaints && untoleratedTaint(*candidate.device, alternative.tolerations)) return false;
        return true;
    }

    bool matches(std::size_t a, std::size_t d) {
        std::int8_t& cached = m_match[a * m_devices.size() + d];
        if (cached != kUnknown) return cached != 0;
        const Candidate& candidate = m_devices[d];
        const cel::DeviceView view{candidate.slice->driver, candidate.device->attributes, candidate.device->capacity, false};
        // Another device with the same values the selectors read had this answer.
        cel::SelectorMemo& memo = m_space.memos[a];
        if (const cel::SelectorMemo::Entry* known = memo.find(view, m_space.probe)) {
            if (!known->error.empty()) m_error = known->error;
            cached = known->result;
            return cached != 0;
        }
        const Alternative& alternative = m_p.alternatives[a];
        bool result = true;
        std::string error;
        auto run = [&](const std::vector<cel::Program>& programs, std::string_view what) {
            for (std::size_t i = 0; result && i < programs.size(); ++i) {
                Result<bool> matched = cel::matches(programs[i], view);
                if (!matched) {
                    error = "request " + alternative.name + ": " + std::string(what) + " selector #" +
                            std::to_string(i) + ": CEL runtime error: " + matched.error().message;
                    result = false;
                } else {
                    result = *matched;
                }
            }
        };
        if (alternative.classSelectors) run(*alternative.classSelectors, "class");
        if (result) run(alternative.selectors, "request");
        cached = result ? 1 : 0;
        if (!error.empty()) m_error = error;
        memo.remember(m_space.probe, view, {cached, std::move(error)});
        return result;
    }

    // Takes the device for the alternative if the claim's constraints and the pool's counters
    // allow it.
    bool take(std::size_t a, std::size_t d, std::size_t claim) {
        const Alternative& alternative = m_p.alternatives[a];
        const Candidate& candidate = m_devices[d];
        if (m_results[claim] >= kMaxResultsPerClaim) return false;
        const std::vector<Constraint>& constraints = m_p.claims[claim].constraints;
        for (std::size_t c = 0; c < constraints.size(); ++c) {
            if (!constraints[c].appliesTo(alternative)) continue;
            const DeviceAttributeValue* value = candidate.device->attribute(constraints[c].attribute, candidate.slice->driver);
            if (value == nullptr) return false;
            const HeldValue& held = m_constraintValue[claim][c];
            if (held.holders > 0 && !(*held.value == *value)) return false;
        }
        if (!drawCounters(candidate, -1)) return false;
        for (std::size_t c = 0; c < constraints.size(); ++c) {
            if (!constraints[c].appliesTo(alternative)) continue;
            HeldValue& held = m_constraintValue[claim][c];
            if (held.holders++ == 0) held.value = candidate.device->attribute(constraints[c].attribute, candidate.slice->driver);
        }
        m_pickedBy[d] = static_cast<std::int32_t>(a);
        m_pickedClaimOf[d] = claim;
        ++m_results[claim];
        return true;
    }

    void release(std::size_t a, std::size_t d, std::size_t claim) {
        const Alternative& alternative = m_p.alternatives[a];
        const std::vector<Constraint>& constraints = m_p.claims[claim].constraints;
        for (std::size_t c = 0; c < constraints.size(); ++c)
            if (constraints[c].appliesTo(alternative)) --m_constraintValue[claim][c].holders;
        drawCounters(m_devices[d], +1);
        m_pickedBy[d] = -1;
        --m_results[claim];
    }

    // Draws (sign -1) or gives back (+1) what the device consumes; false, changing nothing, when
    // a counter is short.
    bool drawCounters(const Candidate& candidate, int sign) {
        if (candidate.device->consumesCounters.empty()) return true;
        const std::string key = poolKey(*candidate.slice);
        auto pool = m_counters.find(key);
        if (pool == m_counters.end()) {
            // First draw on this pool at this node: from what the cluster left of it.
            const auto cluster = m_p.counters.find(key);
            if (cluster == m_p.counters.end()) return sign > 0;
            pool = m_counters.emplace(key, cluster->second).first;
        }
        if (sign < 0)
            for (const DeviceCounterConsumption& consumption : candidate.device->consumesCounters) {
                const auto set = pool->second.find(consumption.counterSet);
                if (set == pool->second.end()) return false;
                for (const auto& counter : consumption.counters) {
                    const std::string& name = counter.first; // clang 14 cannot capture a structured binding
                    const Quantity& amount = counter.second;
                    const auto held = std::find_if(set->second.begin(), set->second.end(),
                                                   [&](const auto& entry) { return entry.first == name; });
                    if (held == set->second.end() || held->second < amount) return false;
                }
            }
        for (const DeviceCounterConsumption& consumption : candidate.device->consumesCounters) {
            auto set = pool->second.find(consumption.counterSet);
            if (set == pool->second.end()) continue;
            for (const auto& [name, amount] : consumption.counters)
                for (auto& [heldName, held] : set->second)
                    if (heldName == name)
                        held = Quantity::fromNanos(held.nanos() + (sign > 0 ? amount.nanos() : -amount.nanos()));
        }
        return true;
    }

    const DraPodAllocator::Prepared& m_p;
    const DeviceInventory& m_inventory;
    DraPodAllocator::Workspace& m_space;
    // The workspace's buffers, filled for this node.
    std::vector<Candidate>& m_devices;
    std::vector<std::int8_t>& m_taken;     // by earlier pods of this dry-run
    std::vector<std::int8_t>& m_match;     // [alternative][device]: -1 unknown, 0, 1
    std::vector<std::int32_t>& m_pickedBy; // alternative that took it in this attempt, or -1
    std::vector<std::size_t>& m_pickedClaimOf;
    std::vector<std::size_t>& m_results; // per claim
    std::vector<std::vector<HeldValue>>& m_constraintValue;
    std::map<std::string, std::map<std::string, NamedQuantities>, std::less<>>& m_counters;
    std::int64_t m_budget = 0;
    bool m_timedOut = false;
    bool m_withShared = true;
    std::string m_error;
    // The first pool the node reaches that `All` cannot take from: "driver/pool is currently being
    // updated" (it lacks slices) or "... is currently invalid"; or "".
    std::string m_unsettledPool;
    bool m_invalidPool = false; // the node reaches an invalid pool
};

Status addAlternative(DraPodAllocator::Prepared& p, const ClusterState& state, const std::string& requestName,
                      const DeviceSubRequest& sub, bool firstAvailable, Request& request) {
    Alternative alternative;
    alternative.requestName = requestName;
    alternative.name = firstAvailable ? requestName + '/' + sub.name : requestName;
    alternative.mode = sub.mode;
    alternative.count = sub.count;
    alternative.adminAccess = sub.adminAccess;
    alternative.tolerations = sub.tolerations;
    if (sub.adminAccess && !p.features.adminAccess)
        return Error{"request " + alternative.name + ": admin access is requested, but the feature is disabled"};
    auto compiled = p.classSelectors.find(sub.deviceClassName);
    if (compiled == p.classSelectors.end()) {
        const auto& classes = state.devices().deviceClasses();
        const auto found = classes.find(sub.deviceClassName);
        if (found == classes.end())
            return Error{"request " + alternative.name + ": device class " + sub.deviceClassName + " does not exist"};
        std::vector<cel::Program> programs;
        for (const std::string& expression : found->second.selectors) {
            Result<cel::Program> program = cel::compile(expression);
            if (!program)
                return Error{"device class " + sub.deviceClassName + ": selector #" + std::to_string(programs.size()) +
                             ": " + program.error().message};
            programs.push_back(std::move(*program));
        }
        compiled = p.classSelectors.emplace(sub.deviceClassName, std::move(programs)).first;
    }
    alternative.classSelectors = &compiled->second;
    for (const std::string& expression : sub.selectors) {
        Result<cel::Program> program = cel::compile(expression);
        if (!program)
            return Error{"request " + alternative.name + ": selector #" + std::to_string(alternative.selectors.size()) +
                         ": " + program.error().message};
        alternative.selectors.push_back(std::move(*program));
    }
    std::vector<cel::FieldUse> reads;
    for (const cel::Program& program : compiled->second) reads.push_back(cel::fieldsRead(program));
    for (const cel::Program& program : alternative.selectors) reads.push_back(cel::fieldsRead(program));
    p.reads.push_back(std::move(reads));
    request.alternatives.push_back(p.alternatives.size());
    p.alternatives.push_back(std::move(alternative));
    return {};
}

void indexSlices(DraPodAllocator::Prepared& p, const ClusterState& state) {
    const DeviceInventory& inventory = state.devices();
    for (const std::uint32_t slot : inventory.sharedSliceSlots())
        if (inventory.isCurrent(slot)) p.shared.push_back(slot);
    std::sort(p.shared.begin(), p.shared.end(),
              [&](std::uint32_t a, std::uint32_t b) { return inventory.sliceAt(a).name < inventory.sliceAt(b).name; });
    if (!p.features.partitionableDevices) return;
    for (const auto& [name, published] : inventory.slices()) {
        const ResourceSlice& slice = *published.slice;
        if (!inventory.isCurrent(published)) continue;
        auto& sets = p.counters[poolKey(slice)];
        for (const CounterSet& set : slice.sharedCounters) sets[set.name] = set.counters;
        if (slice.sharedCounters.empty()) continue;
        // A pool every node reckons (its counter sets): incomplete, or invalid by its counters.
        const bool complete = inventory.isPoolComplete(published.slot);
        const bool invalid = !inventory.poolCountersInvalidReason(published.slot).empty();
        p.invalidCounterPool |= invalid;
        if (p.unsettledCounterPool.empty() && (!complete || invalid))
            p.unsettledCounterPool = slice.driver + '/' + slice.pool +
                                     (complete ? " is currently invalid" : " is currently being updated");
    }
    // What allocated devices already draw from their pools' counters.
    for (const auto& [name, published] : inventory.slices()) {
        const ResourceSlice& slice = *published.slice;
        if (!inventory.isCurrent(published)) continue;
        auto pool = p.counters.find(poolKey(slice));
        if (pool == p.counters.end()) continue;
        for (std::size_t i = 0; i < slice.devices.size(); ++i) {
            const Device& device = slice.devices[i];
            const bool taken = p.taken && p.taken->contains(published.slot, i);
            if (device.consumesCounters.empty() || (inventory.allocations(published, i) == 0 && !taken)) continue;
            for (const DeviceCounterConsumption& consumption : device.consumesCounters) {
                auto set = pool->second.find(consumption.counterSet);
                if (set == pool->second.end()) continue;
                for (const auto& [counter, amount] : consumption.counters)
                    for (auto& [heldName, held] : set->second)
                        if (heldName == counter) held = Quantity::fromNanos(held.nanos() - amount.nanos());
            }
        }
    }
}

} // namespace

Result<DraPodAllocator> DraPodAllocator::prepare(const ClusterState& state, std::vector<PodClaimSpec> claims,
                                                 DraFeatures features, std::shared_ptr<const TakenDevices> taken,
                                                 std::int64_t stepBudget) {
    auto p = std::make_shared<Prepared>();
    p->state = &state;
    p->taken = std::move(taken);
    p->features = features;
    p->stepBudget = stepBudget;
    for (std::size_t c = 0; c < claims.size(); ++c) {
        const PodClaimSpec& claim = claims[c];
        ClaimPlan plan;
        plan.key = claim.claimKey;
        plan.shared = claim.shared;
        if (claim.existing) {
            if (claim.existing->deleting) return Error{"resourceclaim \"" + claim.existing->name + "\" is being deleted"};
            if (claim.existing->allocated) {
                plan.allocate = false;
                plan.allocatedOn = claim.existing->allocationNodeSelector;
            }
        }
        for (const DeviceConstraint& constraint : claim.spec.constraints)
            plan.constraints.push_back({constraint.requests, constraint.matchAttribute});
        p->claims.push_back(std::move(plan));
        if (!p->claims.back().allocate) continue;
        for (const DeviceRequest& deviceRequest : claim.spec.requests) {
            Request request;
            request.claim = c;
            if (deviceRequest.exactly) {
                if (Status s = addAlternative(*p, state, deviceRequest.name, *deviceRequest.exactly, false, request); !s)
                    return Error{"claim " + claim.claimKey + ", " + s.error().message};
            } else {
                if (!features.prioritizedList)
                    return Error{"claim " + claim.claimKey + ", request " + deviceRequest.name +
                                 ": has subrequests, but the DRAPrioritizedList feature is disabled"};
                for (const DeviceSubRequest& sub : deviceRequest.firstAvailable)
                    if (Status s = addAlternative(*p, state, deviceRequest.name, sub, true, request); !s)
                        return Error{"claim " + claim.claimKey + ", " + s.error().message};
            }
            p->requests.push_back(std::move(request));
        }
    }
    indexSlices(*p, state);
    if (p->claims.size() == 1 && p->requests.size() == 1 && p->alternatives.size() == 1) {
        const ClaimPlan& plan = p->claims.front();
        const Alternative& alternative = p->alternatives.front();
        p->countOnly = plan.allocate && !plan.shared && plan.constraints.empty() &&
                       alternative.mode == DeviceSubRequest::Mode::ExactCount && !alternative.adminAccess &&
                       alternative.count >= 1 && alternative.count <= static_cast<std::int64_t>(kMaxResultsPerClaim);
    }
    DraPodAllocator allocator;
    allocator.m_prepared = std::move(p);
    allocator.m_claims = std::move(claims);
    return allocator;
}

bool DraPodAllocator::anyShared() const {
    return std::any_of(m_claims.begin(), m_claims.end(), [](const PodClaimSpec& claim) { return claim.shared; });
}

std::shared_ptr<DraPodAllocator::Workspace> DraPodAllocator::workspace() const {
    return std::make_shared<Workspace>(*m_prepared);
}

DraPodAllocator::NodeFit DraPodAllocator::podsThatFit(NodeId id, std::int32_t limit) const {
    Workspace space(*m_prepared);
    return podsThatFit(id, limit, space);
}

DraPodAllocator::NodeFit DraPodAllocator::podsThatFit(NodeId id, std::int32_t limit, Workspace& space) const {
    NodeFit fit;
    const Prepared& p = *m_prepared;
    if (space.prepared != &p) space = Workspace(p);
    const Node& node = *p.state->record(id).node;
    for (const ClaimPlan& claim : p.claims)
        if (!claim.allocate && !claim.allocatedOn.empty() && !matchesNodeAffinity(claim.allocatedOn, node)) {
            fit.stoppedBy = DraNodeVerdict::NotAvailable;
            return fit;
        }
    if (p.countOnly && limit > 0 && p.shared.empty()) {
        // Every device the node reaches is allocated: the search skips each without reading its
        // selectors and fails after one step per position (countPods' failingSteps), so the
        // answer needs no device read at all. At cluster size most busy nodes are such.
        // Not so when an invalid pool's devices, no candidates, are among them (and the verdict
        // says that pool).
        const DeviceInventory& inventory = p.state->devices();
        const NodeDevices& devices = inventory.node(id);
        const auto invalid = [&](std::uint32_t slot) {
            return inventory.isCurrent(slot) &&
                   !inventory.poolInvalidReason(slot, p.features.partitionableDevices).empty();
        };
        if (devices.allocatedDevices == devices.devices && devices.devices <= p.stepBudget && !p.invalidCounterPool &&
            std::none_of(inventory.nodeSliceSlots(id).begin(), inventory.nodeSliceSlots(id).end(), invalid)) {
            fit.stoppedBy = DraNodeVerdict::CannotAllocate;
            return fit;
        }
    }
    NodeSearch search(p, space, node, id);
    if (p.countOnly && search.countPods(limit, fit)) return fit;
    while (fit.pods < limit) {
        const DraNodeVerdict verdict = search.allocatePod(fit.pods == 0, fit.detail);
        if (verdict != DraNodeVerdict::Fits) {
            fit.stoppedBy = verdict;
            return fit;
        }
        ++fit.pods;
    }
    return fit;
}

DraPodAllocator::PodAllocation DraPodAllocator::allocateOnePod(NodeId id) const {
    PodAllocation allocation;
    const Prepared& p = *m_prepared;
    const Node& node = *p.state->record(id).node;
    for (const ClaimPlan& claim : p.claims)
        if (!claim.allocate && !claim.allocatedOn.empty() && !matchesNodeAffinity(claim.allocatedOn, node)) {
            allocation.verdict = DraNodeVerdict::NotAvailable;
            return allocation;
        }
    Workspace space(p);
    NodeSearch search(p, space, node, id);
    allocation.verdict = search.allocatePod(true, allocation.detail);
    if (allocation.verdict == DraNodeVerdict::Fits) search.pickedDevices(allocation);
    return allocation;
}

} // namespace topodeck
