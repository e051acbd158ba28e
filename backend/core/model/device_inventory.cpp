#include "core/model/device_inventory.h"

#include "core/cel/selector_memo.h"
#include "core/text/command_args.h"

#include <algorithm>
#include <utility>

namespace topodeck {
namespace {

constexpr std::string_view kNvidiaGpuClass = "gpu.nvidia.com";
constexpr std::string_view kNvidiaGpuDriver = "gpu.nvidia.com";

std::string claimKey(std::string_view nameSpace, std::string_view name) {
    std::string key(nameSpace);
    key += '/';
    key += name;
    return key;
}

const std::string* stringAttribute(const Device& device, std::string_view name, std::string_view driver) {
    const DeviceAttributeValue* value = device.attribute(name, driver);
    return value != nullptr ? std::get_if<std::string>(value) : nullptr;
}

// The GPU a partition is cut from, among the node's GPUs of the same driver.
struct GpuOnNode {
    const Device* device;
    const ResourceSlice* slice;
    bool allocated = false;
    bool partitionLike = false; // SliceRecord::partitionLike
    GpuAmount partitionsAllocated;
};

bool sharesCounterSet(const Device& a, const Device& b) {
    for (const DeviceCounterConsumption& x : a.consumesCounters)
        for (const DeviceCounterConsumption& y : b.consumesCounters)
            if (x.counterSet == y.counterSet) return true;
    return false;
}

// Whether the partition names the GPU as its parent (its parentUUID is the GPU's uuid).
bool namesParent(const Device& partition, const ResourceSlice& partitionSlice, const GpuOnNode& gpu) {
    if (gpu.slice->driver != partitionSlice.driver) return false;
    const std::string* parentUuid = stringAttribute(partition, "parentUUID", partitionSlice.driver);
    const std::string* uuid = stringAttribute(*gpu.device, "uuid", gpu.slice->driver);
    return parentUuid != nullptr && uuid != nullptr && *parentUuid == *uuid;
}

// Whether the two draw on one counter set of their pool (KEP-4815 partitions of one GPU).
bool sharesCounters(const Device& partition, const ResourceSlice& partitionSlice, const GpuOnNode& gpu) {
    return gpu.slice->driver == partitionSlice.driver && gpu.slice->pool == partitionSlice.pool &&
           sharesCounterSet(partition, *gpu.device);
}

const Quantity* counterIn(const NamedQuantities& counters, std::string_view name) {
    for (const auto& [counter, amount] : counters)
        if (counter == name) return &amount;
    return nullptr;
}

GpuAmount ratio(const Quantity& part, const Quantity& whole) {
    // Whole units (bytes, slices) are exact here, and bytes of any device fit 64 bits.
    if (whole.value() <= 0 || part.value() <= 0) return {};
    return GpuAmount::fraction(part.value(), whole.value());
}

} // namespace

GpuDeviceClasses::GpuDeviceClasses() : m_names{std::string(kNvidiaGpuClass)} {}

GpuDeviceClasses::GpuDeviceClasses(std::vector<std::string> classNames) : m_names(std::move(classNames)) {}

GpuDeviceClasses GpuDeviceClasses::fromList(std::string_view commaSeparated) {
    return GpuDeviceClasses(splitList(commaSeparated));
}

DeviceInventory::DeviceInventory() = default;

void DeviceInventory::reserve(std::size_t slices, std::size_t devices) {
    m_sliceRecords.reserve(m_sliceRecords.size() + slices);
    m_pools.reserve(m_pools.size() + slices);
    m_devices.reserve(m_devices.size() + devices);
    m_allocations.reserve(m_allocations.size() + devices);
}

std::size_t DeviceInventory::poolHash(std::string_view driver, std::string_view pool) const {
    return hashCombine(hashName(driver), hashName(pool));
}

std::size_t DeviceInventory::deviceHash(PoolId pool, std::string_view device) {
    return hashCombine(hashName(device), hashNumber(pool));
}

DeviceInventory::PoolId DeviceInventory::findPool(std::string_view driver, std::string_view pool) const {
    return m_poolIds.find(poolHash(driver, pool),
                          [&](std::uint32_t id) { return m_pools[id].name == pool && m_pools[id].driver == driver; });
}

DeviceInventory::PoolId DeviceInventory::internPool(std::string_view driver, std::string_view pool) {
    if (const PoolId found = findPool(driver, pool); found != kNone) return found;
    PoolId id;
    if (!m_freePools.empty()) {
        id = m_freePools.back();
        m_freePools.pop_back();
    } else {
        id = static_cast<PoolId>(m_pools.size());
        m_pools.emplace_back();
    }
    Pool& record = m_pools[id];
    record.driver = driver;
    record.name = pool;
    record.live = true;
    m_poolIds.insert(poolHash(driver, pool), id);
    return id;
}

void DeviceInventory::releasePoolIfUnused(PoolId id) {
    Pool& pool = m_pools[id];
    if (!pool.slices.empty() || !pool.identities.empty()) return;
    m_poolIds.erase(poolHash(pool.driver, pool.name), id);
    pool = Pool{};
    m_freePools.push_back(id);
}

namespace {
// Pools up to this many identities are searched in place; hashed past it, and searched in place
// again once they shrink to half of it (not at once, so that a pool at the edge does not flip).
constexpr std::size_t kInPlaceIdentities = 32;
} // namespace

void DeviceInventory::hashPool(Pool& pool, bool hashed) {
    for (const DeviceId id : pool.identities) {
        const DeviceRecord& device = m_devices[id];
        if (hashed)
            m_deviceIds.insert(deviceHash(device.pool, device.name), id);
        else
            m_deviceIds.erase(deviceHash(device.pool, device.name), id);
    }
    pool.hashed = hashed;
}

DeviceInventory::DeviceId DeviceInventory::findDevice(PoolId pool, std::string_view device) const {
    if (pool == kNone) return kNone;
    const Pool& record = m_pools[pool];
    if (!record.hashed) {
        for (const DeviceId id : record.identities)
            if (m_devices[id].name == device) return id;
        return kNone;
    }
    return m_deviceIds.find(deviceHash(pool, device), [&](std::uint32_t id) {
        return m_devices[id].pool == pool && m_devices[id].name == device;
    });
}

DeviceInventory::DeviceId DeviceInventory::internDevice(PoolId pool, std::string_view device) {
    if (const DeviceId found = findDevice(pool, device); found != kNone) return found;
    DeviceId id;
    if (!m_freeDevices.empty()) {
        id = m_freeDevices.back();
        m_freeDevices.pop_back();
    } else {
        id = static_cast<DeviceId>(m_devices.size());
        m_devices.emplace_back();
        m_allocations.push_back(0);
    }
    Pool& owner = m_pools[pool];
    DeviceRecord& record = m_devices[id];
    record.pool = pool;
    record.inPool = static_cast<std::uint32_t>(owner.identities.size());
    record.name = device;
    owner.identities.push_back(id);
    if (owner.hashed)
        m_deviceIds.insert(deviceHash(pool, device), id);
    else if (owner.identities.size() > kInPlaceIdentities)
        hashPool(owner, true);
    return id;
}

void DeviceInventory::releaseDeviceIfUnused(DeviceId id) {
    DeviceRecord& device = m_devices[id];
    if (device.listings > 0 || m_allocations[id] > 0) return;
    const PoolId pool = device.pool;
    Pool& owner = m_pools[pool];
    if (owner.hashed) m_deviceIds.erase(deviceHash(pool, device.name), id);
    // The pool's last identity takes this one's place.
    const DeviceId last = owner.identities.back();
    owner.identities[device.inPool] = last;
    m_devices[last].inPool = device.inPool;
    owner.identities.pop_back();
    device = DeviceRecord{};
    m_freeDevices.push_back(id);
    if (owner.hashed && owner.identities.size() <= kInPlaceIdentities / 2) hashPool(owner, false);
    releasePoolIfUnused(pool);
}

void DeviceInventory::touch(Touched& touched, NodeId id) {
    if (id == kNoNode) return;
    if (std::find(touched.nodes.begin(), touched.nodes.end(), id) == touched.nodes.end()) touched.nodes.push_back(id);
}

const NodeDevices& DeviceInventory::node(NodeId id) const {
    static const NodeDevices none;
    return id < m_nodes.size() ? m_nodes[id] : none;
}

bool DeviceInventory::isCurrent(const ResourceSlice& slice) const {
    const PoolId pool = findPool(slice.driver, slice.pool);
    return pool != kNone && !m_pools[pool].slices.empty() && m_pools[pool].generation == slice.poolGeneration;
}

int DeviceInventory::allocations(std::string_view driver, std::string_view pool, std::string_view device) const {
    const DeviceId id = findDevice(findPool(driver, pool), device);
    return id == kNone ? 0 : m_allocations[id];
}

const std::vector<std::uint32_t>& DeviceInventory::nodeSliceSlots(NodeId id) const {
    static const std::vector<std::uint32_t> none;
    return id < m_nodeSlices.size() ? m_nodeSlices[id] : none;
}

bool DeviceInventory::isGpu(const Device& device, std::string_view driver) const {
    return selectsGpu(device, driver, nullptr);
}

bool DeviceInventory::selectsGpu(const Device& device, std::string_view driver, GpuMemos* memos) const {
    for (const std::string& className : m_gpuClasses.names()) {
        const auto selectors = m_gpuSelectors.find(className);
        if (selectors == m_gpuSelectors.end()) {
            // The class object is not known (a snapshot without DeviceClasses): NVIDIA's chart
            // selects device.driver == 'gpu.nvidia.com' && attributes type == 'gpu'.
            if (className != kNvidiaGpuClass || driver != kNvidiaGpuDriver) continue;
            const std::string* type = stringAttribute(device, "type", driver);
            if (type != nullptr && *type == "gpu") return true;
            continue;
        }
        const cel::DeviceView view{driver, device.attributes, device.capacity, false};
        // As the scheduler: an evaluation error does not select the device.
        const auto warn = [&](const std::string& message) {
            if (m_classWarnings.size() < 16)
                m_classWarnings.push_back("DeviceClass " + className + ", device " + device.name + ": " + message);
        };
        cel::SelectorMemo* memo = nullptr;
        if (memos != nullptr) {
            memo = &memos->byClass.at(className);
            if (const cel::SelectorMemo::Entry* known = memo->find(view, memos->probe)) {
                if (!known->error.empty()) warn(known->error);
                if (known->result != 0) return true;
                continue;
            }
        }
        bool all = true;
        std::string error;
        for (const cel::Program& program : selectors->second) {
            const Result<bool> matched = cel::matches(program, view);
            if (!matched) {
                error = matched.error().message;
                warn(error);
                all = false;
                break;
            }
            all = all && *matched;
            if (!all) break;
        }
        if (memo != nullptr)
            memo->remember(memos->probe, view, {static_cast<std::int8_t>(all ? 1 : 0), std::move(error)});
        if (all) return true;
    }
    return false;
}

bool DeviceInventory::isGpuDevice(std::string_view driver, std::string_view pool, std::string_view device) const {
    const PoolId poolId = findPool(driver, pool);
    const DeviceId id = findDevice(poolId, device);
    if (id == kNone) return false;
    const Pool& found = m_pools[poolId];
    for (const std::uint32_t slot : found.slices) {
        const SliceRecord& record = m_sliceRecords[slot];
        if (record.slice->poolGeneration != found.generation) continue;
        for (std::size_t i = 0; i < record.devices.size(); ++i)
            if (record.devices[i] == id) return record.gpus[i];
    }
    return false;
}

void DeviceInventory::classify(SliceRecord& record) {
    const ResourceSlice& slice = *record.slice;
    // The selectors read every device's attributes, which a reader or a source wrote long before:
    // ask for all of them at once, so that the reads overlap instead of queueing.
    for (const Device& device : slice.devices) {
        const auto* begin = reinterpret_cast<const char*>(device.attributes.data());
        const auto* end = reinterpret_cast<const char*>(device.attributes.data() + device.attributes.size());
        for (const char* line = begin; line < end; line += 64) __builtin_prefetch(line);
    }
    record.gpus.assign(slice.devices.size(), false);
    record.partitionLike.assign(slice.devices.size(), false);
    for (std::size_t i = 0; i < slice.devices.size(); ++i) {
        const Device& device = slice.devices[i];
        record.gpus[i] = selectsGpu(device, slice.driver, &m_gpuMemos);
        record.partitionLike[i] =
            !device.consumesCounters.empty() || stringAttribute(device, "parentUUID", slice.driver) != nullptr;
    }
}

void DeviceInventory::compileGpuClasses() {
    m_gpuSelectors.clear();
    m_gpuMemos.byClass.clear();
    m_classWarnings.clear();
    for (const std::string& className : m_gpuClasses.names()) {
        const auto found = m_classes.find(className);
        if (found == m_classes.end()) continue;
        std::vector<cel::Program>& programs = m_gpuSelectors[className];
        for (const std::string& expression : found->second.selectors) {
            Result<cel::Program> program = cel::compile(expression);
            if (program) {
                programs.push_back(std::move(*program));
                continue;
            }
            // A selector that does not compile selects nothing (the API server refuses such a class).
            m_classWarnings.push_back("DeviceClass " + className + ": " + program.error().message);
            programs.clear();
            Result<cel::Program> nothing = cel::compile("false");
            if (nothing) programs.push_back(std::move(*nothing));
            break;
        }
        std::vector<cel::FieldUse> reads;
        for (const cel::Program& program : programs) reads.push_back(cel::fieldsRead(program));
        m_gpuMemos.byClass.insert_or_assign(className, cel::SelectorMemo(reads));
    }
}

void DeviceInventory::indexDevices(const SliceRecord& record, bool add) {
    if (record.node == kNoNode) return;
    for (const DeviceId id : record.devices) {
        NodeId& node = m_devices[id].node;
        if (add)
            node = record.node;
        else if (node == record.node)
            node = kNoNode;
    }
}

void DeviceInventory::poolChanged(PoolId id, Touched& touched) {
    Pool& pool = m_pools[id];
    // Which generation counts may have moved: the nodes of every slice of the pool, and the
    // device-to-node index, follow it.
    std::int64_t generation = 0;
    for (const std::uint32_t slot : pool.slices)
        generation = std::max(generation, m_sliceRecords[slot].slice->poolGeneration);
    pool.generation = generation;
    for (const std::uint32_t slot : pool.slices) indexDevices(m_sliceRecords[slot], false);
    for (const std::uint32_t slot : pool.slices) {
        const SliceRecord& record = m_sliceRecords[slot];
        if (record.slice->poolGeneration == generation) indexDevices(record, true);
        touch(touched, record.node);
    }
    judgePool(pool);
}

void DeviceInventory::judgePool(Pool& pool) {
    // The checks of the scheduler's buildPool (1.35), in its order, on the current slices in
    // arrival order; each keeps the first problem it meets.
    pool.invalidDevices.clear();
    pool.invalidCounters.clear();
    pool.counterSets = false;
    if (m_deviceSeen.size() < m_devices.size()) m_deviceSeen.resize(m_devices.size(), 0);
    if (++m_judgePass == 0) { // wrapped: no stamp may look like this pass
        std::fill(m_deviceSeen.begin(), m_deviceSeen.end(), 0);
        m_judgePass = 1;
    }
    std::map<std::string_view, const CounterSet*> sets;
    for (const std::uint32_t slot : pool.slices) {
        const SliceRecord& record = m_sliceRecords[slot];
        if (record.slice->poolGeneration != pool.generation) continue;
        for (std::size_t i = 0; i < record.devices.size() && pool.invalidDevices.empty(); ++i)
            if (std::exchange(m_deviceSeen[record.devices[i]], m_judgePass) == m_judgePass)
                pool.invalidDevices = "duplicate device name " + record.slice->devices[i].name;
        for (const CounterSet& set : record.slice->sharedCounters) {
            pool.counterSets = true;
            if (!sets.emplace(set.name, &set).second && pool.invalidCounters.empty())
                pool.invalidCounters = "duplicate counter set name " + set.name;
        }
    }
    if (!pool.invalidCounters.empty()) return;
    for (const std::uint32_t slot : pool.slices) {
        const ResourceSlice& slice = *m_sliceRecords[slot].slice;
        if (slice.poolGeneration != pool.generation) continue;
        for (const Device& device : slice.devices)
            for (const DeviceCounterConsumption& consumption : device.consumesCounters) {
                const auto set = sets.find(consumption.counterSet);
                if (set == sets.end()) {
                    pool.invalidCounters = "counter set " + consumption.counterSet + " not found";
                    return;
                }
                for (const auto& counter : consumption.counters)
                    if (counterIn(set->second->counters, counter.first) == nullptr) {
                        pool.invalidCounters =
                            "counter " + counter.first + " not found in counter set " + consumption.counterSet;
                        return;
                    }
            }
    }
}

void DeviceInventory::upsertSliceOn(ResourceSlice slice, NodeId node, Touched& touched) {
    std::string name = slice.name;
    // One descent of the name map: where the slice goes, after the one it replaces is gone.
    auto place = m_slices.lower_bound(name);
    if (place != m_slices.end() && place->first == name) {
        deleteSlice(name, touched);
        place = m_slices.lower_bound(name);
    }
    std::uint32_t slot;
    if (!m_freeSlices.empty()) {
        slot = m_freeSlices.back();
        m_freeSlices.pop_back();
    } else {
        slot = static_cast<std::uint32_t>(m_sliceRecords.size());
        m_sliceRecords.emplace_back();
    }
    const PoolId pool = internPool(slice.driver, slice.pool);
    SliceRecord& record = m_sliceRecords[slot];
    record.slice = std::make_shared<const ResourceSlice>(std::move(slice));
    record.node = node;
    record.pool = pool;
    record.devices.reserve(record.slice->devices.size());
    for (const Device& device : record.slice->devices) {
        const DeviceId id = internDevice(pool, device.name);
        ++m_devices[id].listings;
        record.devices.push_back(id);
    }
    classify(record);
    if (node != kNoNode) {
        if (m_nodeSlices.size() <= node) m_nodeSlices.resize(node + 1);
        m_nodeSlices[node].push_back(slot);
    } else {
        m_sharedSlices.push_back(slot);
    }
    m_pools[pool].slices.push_back(slot);
    m_slices.emplace_hint(place, std::move(name), PublishedSlice{record.slice, node, slot});
    poolChanged(pool, touched);
    for (NodeId id : touched.nodes) recompute(id);
}

void DeviceInventory::deleteSlice(std::string_view name, Touched& touched) {
    const auto found = m_slices.find(name);
    if (found == m_slices.end()) return;
    const std::uint32_t slot = found->second.slot;
    SliceRecord record = std::move(m_sliceRecords[slot]);
    m_sliceRecords[slot] = SliceRecord{};
    m_freeSlices.push_back(slot);
    m_slices.erase(found);
    indexDevices(record, false);
    std::vector<std::uint32_t>& slots = record.node != kNoNode ? m_nodeSlices[record.node] : m_sharedSlices;
    slots.erase(std::remove(slots.begin(), slots.end(), slot), slots.end());
    touch(touched, record.node);
    Pool& pool = m_pools[record.pool];
    pool.slices.erase(std::remove(pool.slices.begin(), pool.slices.end(), slot), pool.slices.end());
    const bool poolLeft = !pool.slices.empty();
    if (poolLeft) poolChanged(record.pool, touched);
    for (const DeviceId id : record.devices) {
        --m_devices[id].listings;
        releaseDeviceIfUnused(id); // releases the pool with its last identity
    }
    if (!poolLeft && m_pools[record.pool].live) releasePoolIfUnused(record.pool);
    for (NodeId id : touched.nodes) recompute(id);
}

void DeviceInventory::addAllocations(const ResourceClaim& claim, int sign, Touched& touched) {
    if (!claim.allocated) return;
    PoolId pool = kNone;
    const DeviceAllocation* previous = nullptr;
    for (const DeviceAllocation& result : claim.devices) {
        if (result.adminAccess) continue;
        // A claim's results mostly share one pool: look it up once for a run of them.
        if (previous == nullptr || previous->pool != result.pool || previous->driver != result.driver)
            pool = sign > 0 ? internPool(result.driver, result.pool) : findPool(result.driver, result.pool);
        previous = &result;
        const DeviceId id = sign > 0 ? internDevice(pool, result.device) : findDevice(pool, result.device);
        if (id == kNone) continue; // taking back what was never counted
        std::int32_t& count = m_allocations[id];
        count = std::max(count + sign, 0);
        touch(touched, m_devices[id].node);
    }
}

void DeviceInventory::releaseUnheld(const ResourceClaim& claim) {
    if (!claim.allocated) return;
    for (const DeviceAllocation& result : claim.devices) {
        if (result.adminAccess) continue;
        const DeviceId id = findDevice(findPool(result.driver, result.pool), result.device);
        if (id != kNone) releaseDeviceIfUnused(id);
    }
}

void DeviceInventory::upsertClaim(ResourceClaim claim, Touched& touched) {
    std::string key = claimKey(claim.nameSpace, claim.name);
    const auto place = m_claims.lower_bound(key);
    const bool known = place != m_claims.end() && place->first == key;
    auto stored = std::make_shared<const ResourceClaim>(std::move(claim));
    if (known) addAllocations(*place->second, -1, touched);
    addAllocations(*stored, +1, touched);
    if (known) {
        // The identities only the old allocation held go after the new one took its own.
        std::shared_ptr<const ResourceClaim> old = std::exchange(place->second, std::move(stored));
        releaseUnheld(*old);
    } else {
        m_claims.emplace_hint(place, std::move(key), std::move(stored));
    }
    for (NodeId id : touched.nodes) recompute(id);
}

void DeviceInventory::deleteClaim(std::string_view nameSpace, std::string_view name, Touched& touched) {
    const auto found = m_claims.find(claimKey(nameSpace, name));
    if (found == m_claims.end()) return;
    addAllocations(*found->second, -1, touched);
    releaseUnheld(*found->second);
    m_claims.erase(found);
    for (NodeId id : touched.nodes) recompute(id);
}

void DeviceInventory::upsertClaimTemplate(ResourceClaimTemplate claimTemplate) {
    std::string key = claimKey(claimTemplate.nameSpace, claimTemplate.name);
    m_templates[std::move(key)] = std::move(claimTemplate);
}

void DeviceInventory::deleteClaimTemplate(std::string_view nameSpace, std::string_view name) {
    if (const auto found = m_templates.find(claimKey(nameSpace, name)); found != m_templates.end()) m_templates.erase(found);
}

void DeviceInventory::upsertDeviceClass(DeviceClass deviceClass, Touched& touched) {
    std::string name = deviceClass.name;
    const auto found = m_classes.find(name);
    if (found != m_classes.end() && found->second == deviceClass) return;
    m_classes[name] = std::move(deviceClass);
    const auto& gpuClasses = m_gpuClasses.names();
    if (std::find(gpuClasses.begin(), gpuClasses.end(), name) != gpuClasses.end()) recomputeAll(touched);
}

void DeviceInventory::deleteDeviceClass(std::string_view name, Touched& touched) {
    if (const auto found = m_classes.find(name); found != m_classes.end()) {
        m_classes.erase(found);
        const auto& gpuClasses = m_gpuClasses.names();
        if (std::find(gpuClasses.begin(), gpuClasses.end(), name) != gpuClasses.end()) recomputeAll(touched);
    }
}

void DeviceInventory::setGpuClasses(GpuDeviceClasses classes, Touched& touched) {
    m_gpuClasses = std::move(classes);
    recomputeAll(touched);
}

void DeviceInventory::recomputeAll(Touched& touched) {
    compileGpuClasses();
    for (SliceRecord& record : m_sliceRecords)
        if (record.slice) classify(record);
    if (m_slices.empty()) return;
    touched.allNodes = true;
    for (NodeId id = 0; id < m_nodeSlices.size(); ++id)
        if (!m_nodeSlices[id].empty()) recompute(id);
}

void DeviceInventory::recompute(NodeId id) {
    if (m_nodes.size() <= id) m_nodes.resize(id + 1);
    NodeDevices out;
    // Most nodes hold a handful of GPUs and no allocated partition: no allocation for them.
    thread_local std::vector<GpuOnNode> gpus;
    thread_local std::vector<std::pair<const Device*, const ResourceSlice*>> others;
    thread_local std::vector<DeviceId> listedTwice; // met in a pool that lists a device name twice
    gpus.clear();
    others.clear();
    listedTwice.clear();
    if (id < m_nodeSlices.size())
        for (const std::uint32_t slot : m_nodeSlices[id]) {
            const SliceRecord& record = m_sliceRecords[slot];
            const ResourceSlice& slice = *record.slice;
            const Pool& pool = m_pools[record.pool];
            if (pool.generation != slice.poolGeneration) continue;
            for (std::size_t i = 0; i < slice.devices.size(); ++i) {
                // An invalid pool's devices are counted as published: the node has them, though
                // the scheduler allocates none of them (draWarnings says so). A name listed twice
                // is one device, as claims' results name it: counted once.
                if (!pool.invalidDevices.empty()) {
                    if (std::find(listedTwice.begin(), listedTwice.end(), record.devices[i]) != listedTwice.end())
                        continue;
                    listedTwice.push_back(record.devices[i]);
                }
                const Device& device = slice.devices[i];
                ++out.devices;
                const bool allocated = m_allocations[record.devices[i]] > 0;
                if (allocated) ++out.allocatedDevices;
                if (record.gpus[i])
                    gpus.push_back({&device, &slice, allocated, record.partitionLike[i], {}});
                else if (allocated)
                    others.emplace_back(&device, &slice);
            }
        }
    // When the GPU classes also select partitions (mig.nvidia.com beside gpu.nvidia.com), a
    // selected device cut from another selected one (its parentUUID is that one's uuid, or it
    // draws less than the whole of a counter set they share) is a partition, not one more GPU.
    const bool anyPartition =
        std::any_of(gpus.begin(), gpus.end(), [](const GpuOnNode& gpu) { return gpu.partitionLike; });
    if (anyPartition) {
        std::vector<bool> partition(gpus.size(), false);
        for (std::size_t i = 0; i < gpus.size(); ++i)
            for (std::size_t j = 0; j < gpus.size() && !partition[i]; ++j)
                partition[i] =
                    i != j && !partition[j] &&
                    (namesParent(*gpus[i].device, *gpus[i].slice, gpus[j]) ||
                     (sharesCounters(*gpus[i].device, *gpus[i].slice, gpus[j]) &&
                      partitionShare(*gpus[i].device, *gpus[j].device, *gpus[i].slice) < GpuAmount::whole(1)));
        std::vector<GpuOnNode> whole;
        for (std::size_t i = 0; i < gpus.size(); ++i) {
            if (!partition[i])
                whole.push_back(gpus[i]);
            else if (gpus[i].allocated)
                others.emplace_back(gpus[i].device, gpus[i].slice);
        }
        gpus = std::move(whole);
    }
    // Allocated partitions: each takes its share of the GPU it is cut from.
    for (const auto& [device, slice] : others) {
        for (GpuOnNode& gpu : gpus) {
            if (!namesParent(*device, *slice, gpu) && !sharesCounters(*device, *slice, gpu)) continue;
            gpu.partitionsAllocated += partitionShare(*device, *gpu.device, *slice);
            break;
        }
    }
    out.gpus = static_cast<std::int32_t>(gpus.size());
    for (const GpuOnNode& gpu : gpus) {
        if (gpu.allocated) {
            out.gpusAllocated += GpuAmount::whole(1);
        } else if (!gpu.partitionsAllocated.isZero()) {
            out.gpusAllocated += std::min(gpu.partitionsAllocated, GpuAmount::whole(1));
            if (gpu.partitionsAllocated < GpuAmount::whole(1)) ++out.gpusPartlyAllocated;
        }
    }
    m_nodes[id] = out;
}

GpuAmount DeviceInventory::partitionShare(const Device& partition, const Device& gpu, const ResourceSlice& slice) const {
    // By the memory it takes of its GPU: drawn from a counter set (partitionable devices), else
    // the two devices' memory capacity (static MIG); the largest share of any counter when neither
    // names memory. A partition that says nothing takes the whole GPU.
    for (const DeviceCounterConsumption& consumption : partition.consumesCounters) {
        const CounterSet* set = counterSet(slice, consumption.counterSet);
        if (set == nullptr) continue;
        if (const Quantity* used = counterIn(consumption.counters, "memory"))
            if (const Quantity* total = counterIn(set->counters, "memory")) return ratio(*used, *total);
        GpuAmount largest;
        for (const auto& [name, used] : consumption.counters)
            if (const Quantity* total = counterIn(set->counters, name)) largest = std::max(largest, ratio(used, *total));
        if (!largest.isZero()) return largest;
    }
    const Quantity* partMemory = partition.capacityOf("memory", slice.driver);
    const Quantity* gpuMemory = gpu.capacityOf("memory", slice.driver);
    if (partMemory != nullptr && gpuMemory != nullptr) return ratio(*partMemory, *gpuMemory);
    return GpuAmount::whole(1);
}

const CounterSet* DeviceInventory::counterSet(const ResourceSlice& slice, std::string_view name) const {
    // In 1.33-1.34 a pool's counter sets sit beside its devices; from 1.35 in slices of their own.
    const PoolId id = findPool(slice.driver, slice.pool);
    if (id == kNone) return nullptr;
    const Pool& pool = m_pools[id];
    for (const std::uint32_t slot : pool.slices) {
        const ResourceSlice& other = *m_sliceRecords[slot].slice;
        if (other.poolGeneration != pool.generation) continue;
        for (const CounterSet& set : other.sharedCounters)
            if (set.name == name) return &set;
    }
    return nullptr;
}

std::string_view DeviceInventory::poolInvalidReason(std::uint32_t slot, bool partitionableDevices) const {
    const Pool& pool = m_pools[m_sliceRecords[slot].pool];
    const std::string& reason =
        !pool.invalidDevices.empty() || !partitionableDevices ? pool.invalidDevices : pool.invalidCounters;
    return reason.empty() || !isPoolComplete(slot) ? std::string_view() : std::string_view(reason);
}

std::string_view DeviceInventory::poolCountersInvalidReason(std::uint32_t slot) const {
    const std::string& reason = m_pools[m_sliceRecords[slot].pool].invalidCounters;
    return reason.empty() || !isPoolComplete(slot) ? std::string_view() : std::string_view(reason);
}

bool DeviceInventory::isPoolComplete(std::uint32_t slot) const {
    const SliceRecord& record = m_sliceRecords[slot];
    const Pool& pool = m_pools[record.pool];
    std::int64_t current = 0;
    for (const std::uint32_t other : pool.slices)
        current += m_sliceRecords[other].slice->poolGeneration == pool.generation ? 1 : 0;
    return current == record.slice->poolSliceCount;
}

const DeviceClass* DeviceInventory::classForExtendedResource(std::string_view name) const {
    constexpr std::string_view kImplicitPrefix = "deviceclass.resource.kubernetes.io/";
    if (name.starts_with(kImplicitPrefix)) {
        const auto found = m_classes.find(name.substr(kImplicitPrefix.size()));
        return found != m_classes.end() ? &found->second : nullptr;
    }
    const DeviceClass* chosen = nullptr;
    for (const auto& [className, deviceClass] : m_classes) {
        if (deviceClass.extendedResourceName != name) continue;
        // Kubernetes writes creationTimestamp as RFC 3339 in UTC to the second, so text order is
        // time order; the map walks names in ascending order, so a tie keeps the lower name.
        if (chosen == nullptr || deviceClass.creationTimestamp > chosen->creationTimestamp) chosen = &deviceClass;
    }
    return chosen;
}

} // namespace topodeck
