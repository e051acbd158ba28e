#include "core/placement/engines/dra_allocator.h"

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

bool untoleratedTaint(const Device& device) {
    // Requests' device tolerations are not read: every NoSchedule/NoExecute taint counts.
    return std::any_of(device.taints.begin(), device.taints.end(),
                       [](const DeviceTaint& taint) { return taint.effect == "NoSchedule" || taint.effect == "NoExecute"; });
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
    case DraNodeVerdict::SelectorError:
        return "cannot allocate all claims (a selector failed)";
    }
    return {};
}

struct DraPodAllocator::Prepared {
    const ClusterState* state = nullptr;
    DraFeatures features;
    std::int64_t stepBudget = DraPodAllocator::kStepBudget;
    std::map<std::string, std::vector<cel::Program>, std::less<>> classSelectors;
    std::vector<Alternative> alternatives;
    std::vector<Request> requests;
    std::vector<ClaimPlan> claims;
    // The current slices each node reaches: its own, then those of every node (allNodes, node
    // selectors, per-device node selection), in name order (pool order is the scheduler's map
    // order, not deterministic; slices and devices keep theirs).
    std::vector<std::vector<const ResourceSlice*>> nodeLocal;
    std::vector<const ResourceSlice*> shared;
    // Counter sets by pool: what they hold, less what allocated devices draw.
    std::map<std::string, std::map<std::string, NamedQuantities>, std::less<>> counters;
};

namespace {

// One node's search: the devices it reaches and what this dry-run has taken of them.
class NodeSearch {
public:
    NodeSearch(const DraPodAllocator::Prepared& prepared, const Node& node, NodeId id)
        : m_p(prepared), m_inventory(prepared.state->devices()) {
        auto add = [&](const ResourceSlice& slice, bool sliceReaches) {
            for (const Device& device : slice.devices) {
                if (!sliceReaches && !(slice.perDeviceNodeSelection && deviceReaches(device, node))) continue;
                m_devices.push_back({&slice, &device,
                                     m_inventory.allocations(slice.driver, slice.pool, device.name) > 0});
            }
        };
        if (id < prepared.nodeLocal.size())
            for (const ResourceSlice* slice : prepared.nodeLocal[id]) add(*slice, true);
        for (const ResourceSlice* slice : prepared.shared) {
            const bool reaches = slice->allNodes || (!slice->nodeSelector.empty() && matchesNodeAffinity(slice->nodeSelector, node));
            add(*slice, reaches);
        }
        m_taken.assign(m_devices.size(), 0);
        m_match.assign(prepared.alternatives.size() * m_devices.size(), kUnknown);
        m_counters = prepared.counters;
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
        m_constraintValue.assign(m_p.claims.size(), {});
        for (std::size_t c = 0; c < m_p.claims.size(); ++c)
            m_constraintValue[c].assign(m_p.claims[c].constraints.size(), {nullptr, 0});
        const bool found = allocateFrom(0);
        if (!m_error.empty()) {
            detail = m_error;
            return DraNodeVerdict::SelectorError;
        }
        if (m_timedOut) return DraNodeVerdict::TimedOut;
        if (!found) return DraNodeVerdict::CannotAllocate;
        for (std::size_t d = 0; d < m_devices.size(); ++d)
            if (m_pickedBy[d] >= 0 && !m_p.alternatives[static_cast<std::size_t>(m_pickedBy[d])].adminAccess) m_taken[d] = 1;
        return DraNodeVerdict::Fits;
    }

private:
    static constexpr std::int8_t kUnknown = -1;
    struct Candidate {
        const ResourceSlice* slice;
        const Device* device;
        bool allocated; // by a claim of the cluster
    };
    struct HeldValue {
        const DeviceAttributeValue* value;
        int holders;
    };

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
        if (m_p.features.deviceTaints && untoleratedTaint(*candidate.device)) return false;
        return true;
    }

    bool matches(std::size_t a, std::size_t d) {
        std::int8_t& cached = m_match[a * m_devices.size() + d];
        if (cached != kUnknown) return cached != 0;
        const Alternative& alternative = m_p.alternatives[a];
        const Candidate& candidate = m_devices[d];
        const cel::DeviceView view{candidate.slice->driver, candidate.device->attributes, candidate.device->capacity, false};
        bool result = true;
        auto run = [&](const std::vector<cel::Program>& programs, std::string_view what) {
            for (std::size_t i = 0; result && i < programs.size(); ++i) {
                Result<bool> matched = cel::matches(programs[i], view);
                if (!matched) {
                    m_error = "request " + alternative.name + ": " + std::string(what) + " selector #" + std::to_string(i) +
                              ": CEL runtime error: " + matched.error().message;
                    result = false;
                } else {
                    result = *matched;
                }
            }
        };
        if (alternative.classSelectors) run(*alternative.classSelectors, "class");
        if (result) run(alternative.selectors, "request");
        cached = result ? 1 : 0;
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
        auto pool = m_counters.find(poolKey(*candidate.slice));
        if (pool == m_counters.end()) return sign > 0;
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
    std::vector<Candidate> m_devices;
    std::vector<std::int8_t> m_taken;    // by earlier pods of this dry-run
    std::vector<std::int8_t> m_match;    // [alternative][device]: -1 unknown, 0, 1
    std::vector<std::int32_t> m_pickedBy; // alternative that took it in this attempt, or -1
    std::vector<std::size_t> m_pickedClaimOf;
    std::vector<std::size_t> m_results;  // per claim
    std::vector<std::vector<HeldValue>> m_constraintValue;
    std::map<std::string, std::map<std::string, NamedQuantities>, std::less<>> m_counters;
    std::int64_t m_budget = 0;
    bool m_timedOut = false;
    bool m_withShared = true;
    std::string m_error;
};

Status addAlternative(DraPodAllocator::Prepared& p, const ClusterState& state, const std::string& requestName,
                      const DeviceSubRequest& sub, bool firstAvailable, Request& request) {
    Alternative alternative;
    alternative.requestName = requestName;
    alternative.name = firstAvailable ? requestName + '/' + sub.name : requestName;
    alternative.mode = sub.mode;
    alternative.count = sub.count;
    alternative.adminAccess = sub.adminAccess;
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
    request.alternatives.push_back(p.alternatives.size());
    p.alternatives.push_back(std::move(alternative));
    return {};
}

void indexSlices(DraPodAllocator::Prepared& p, const ClusterState& state) {
    const DeviceInventory& inventory = state.devices();
    p.nodeLocal.assign(state.nodeSlots(), {});
    for (const auto& [name, published] : inventory.slices()) {
        const ResourceSlice& slice = *published.slice;
        if (!inventory.isCurrent(slice)) continue;
        if (published.node != DeviceInventory::kNoNode) {
            if (published.node < p.nodeLocal.size()) p.nodeLocal[published.node].push_back(&slice);
        } else if (slice.nodeName.empty()) {
            p.shared.push_back(&slice);
        }
        if (!p.features.partitionableDevices) continue;
        auto& sets = p.counters[poolKey(slice)];
        for (const CounterSet& set : slice.sharedCounters) sets[set.name] = set.counters;
    }
    if (!p.features.partitionableDevices) return;
    // What allocated devices already draw from their pools' counters.
    for (const auto& [name, published] : inventory.slices()) {
        const ResourceSlice& slice = *published.slice;
        if (!inventory.isCurrent(slice)) continue;
        auto pool = p.counters.find(poolKey(slice));
        if (pool == p.counters.end()) continue;
        for (const Device& device : slice.devices) {
            if (device.consumesCounters.empty() || inventory.allocations(slice.driver, slice.pool, device.name) == 0)
                continue;
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
                                                 DraFeatures features, std::int64_t stepBudget) {
    auto p = std::make_shared<Prepared>();
    p->state = &state;
    p->features = features;
    p->stepBudget = stepBudget;
    for (std::size_t c = 0; c < claims.size(); ++c) {
        const PodClaimSpec& claim = claims[c];
        ClaimPlan plan;
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
    DraPodAllocator allocator;
    allocator.m_prepared = std::move(p);
    allocator.m_claims = std::move(claims);
    return allocator;
}

bool DraPodAllocator::anyShared() const {
    return std::any_of(m_claims.begin(), m_claims.end(), [](const PodClaimSpec& claim) { return claim.shared; });
}

DraPodAllocator::NodeFit DraPodAllocator::podsThatFit(NodeId id, std::int32_t limit) const {
    NodeFit fit;
    const Prepared& p = *m_prepared;
    const Node& node = *p.state->record(id).node;
    for (const ClaimPlan& claim : p.claims)
        if (!claim.allocate && !claim.allocatedOn.empty() && !matchesNodeAffinity(claim.allocatedOn, node)) {
            fit.stoppedBy = DraNodeVerdict::NotAvailable;
            return fit;
        }
    NodeSearch search(p, node, id);
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

} // namespace topodeck
