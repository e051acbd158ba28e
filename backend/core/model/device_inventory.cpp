#include "core/model/device_inventory.h"

#include "core/text/command_args.h"

#include <algorithm>
#include <utility>

namespace topodeck {
namespace {

constexpr std::string_view kNvidiaGpuClass = "gpu.nvidia.com";
constexpr std::string_view kNvidiaGpuDriver = "gpu.nvidia.com";

std::string poolKey(std::string_view driver, std::string_view pool) {
    std::string key(driver);
    key += '\0';
    key += pool;
    return key;
}

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

std::string DeviceInventory::deviceKey(std::string_view driver, std::string_view pool, std::string_view device) {
    std::string key = poolKey(driver, pool);
    key += '\0';
    key += device;
    return key;
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
    const auto pool = m_pools.find(poolKey(slice.driver, slice.pool));
    return pool != m_pools.end() && pool->second.generation == slice.poolGeneration;
}

int DeviceInventory::allocations(std::string_view driver, std::string_view pool, std::string_view device) const {
    const auto found = m_allocated.find(deviceKey(driver, pool, device));
    return found == m_allocated.end() ? 0 : found->second;
}

bool DeviceInventory::isGpu(const Device& device, std::string_view driver) const {
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
        bool all = true;
        for (const cel::Program& program : selectors->second) {
            const Result<bool> matched = cel::matches(program, view);
            if (!matched) {
                // As the scheduler: an evaluation error does not select the device.
                if (m_classWarnings.size() < 16)
                    m_classWarnings.push_back("DeviceClass " + className + ", device " + device.name + ": " +
                                              matched.error().message);
                all = false;
                break;
            }
            all = all && *matched;
            if (!all) break;
        }
        if (all) return true;
    }
    return false;
}

bool DeviceInventory::isGpuDevice(std::string_view driver, std::string_view pool, std::string_view device) const {
    const auto found = m_pools.find(poolKey(driver, pool));
    if (found == m_pools.end()) return false;
    for (const std::string& name : found->second.slices) {
        const PublishedSlice& published = m_slices.at(name);
        if (published.slice->poolGeneration != found->second.generation) continue;
        const std::vector<Device>& devices = published.slice->devices;
        for (std::size_t i = 0; i < devices.size(); ++i)
            if (devices[i].name == device) return published.gpus[i];
    }
    return false;
}

void DeviceInventory::classify(PublishedSlice& published) const {
    const ResourceSlice& slice = *published.slice;
    published.gpus.assign(slice.devices.size(), false);
    for (std::size_t i = 0; i < slice.devices.size(); ++i) published.gpus[i] = isGpu(slice.devices[i], slice.driver);
}

void DeviceInventory::compileGpuClasses() {
    m_gpuSelectors.clear();
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
    }
}

void DeviceInventory::indexDevices(const PublishedSlice& published, bool add) {
    if (published.node == kNoNode) return;
    const ResourceSlice& slice = *published.slice;
    for (const Device& device : slice.devices) {
        const std::string key = deviceKey(slice.driver, slice.pool, device.name);
        if (add)
            m_deviceNodes[key] = published.node;
        else if (const auto found = m_deviceNodes.find(key); found != m_deviceNodes.end() && found->second == published.node)
            m_deviceNodes.erase(found);
    }
}

void DeviceInventory::poolChanged(const std::string& key, Touched& touched) {
    const auto pool = m_pools.find(key);
    if (pool == m_pools.end()) return;
    // Which generation counts may have moved: the nodes of every slice of the pool, and the
    // device-to-node index, follow it.
    std::int64_t generation = 0;
    for (const std::string& name : pool->second.slices)
        generation = std::max(generation, m_slices.at(name).slice->poolGeneration);
    pool->second.generation = generation;
    for (const std::string& name : pool->second.slices) {
        const PublishedSlice& published = m_slices.at(name);
        indexDevices(published, false);
    }
    for (const std::string& name : pool->second.slices) {
        const PublishedSlice& published = m_slices.at(name);
        if (published.slice->poolGeneration == generation) indexDevices(published, true);
        touch(touched, published.node);
    }
}

void DeviceInventory::upsertSliceOn(ResourceSlice slice, NodeId node, Touched& touched) {
    std::string name = slice.name;
    if (const auto old = m_slices.find(name); old != m_slices.end()) deleteSlice(name, touched);
    const std::string key = poolKey(slice.driver, slice.pool);
    PublishedSlice published{std::make_shared<const ResourceSlice>(std::move(slice)), node, {}};
    classify(published);
    if (node != kNoNode) {
        if (m_nodeSlices.size() <= node) m_nodeSlices.resize(node + 1);
        m_nodeSlices[node].push_back(name);
    }
    m_pools[key].slices.push_back(name);
    m_slices.emplace(std::move(name), std::move(published));
    poolChanged(key, touched);
    for (NodeId id : touched.nodes) recompute(id);
}

void DeviceInventory::deleteSlice(std::string_view name, Touched& touched) {
    const auto found = m_slices.find(name);
    if (found == m_slices.end()) return;
    const PublishedSlice published = found->second;
    const std::string key = poolKey(published.slice->driver, published.slice->pool);
    indexDevices(published, false);
    if (published.node != kNoNode) {
        std::vector<std::string>& names = m_nodeSlices[published.node];
        names.erase(std::remove(names.begin(), names.end(), found->first), names.end());
        touch(touched, published.node);
    }
    Pool& pool = m_pools[key];
    pool.slices.erase(std::remove(pool.slices.begin(), pool.slices.end(), found->first), pool.slices.end());
    m_slices.erase(found);
    if (pool.slices.empty())
        m_pools.erase(key);
    else
        poolChanged(key, touched);
    for (NodeId id : touched.nodes) recompute(id);
}

void DeviceInventory::addAllocations(const ResourceClaim& claim, int sign, Touched& touched) {
    if (!claim.allocated) return;
    for (const DeviceAllocation& result : claim.devices) {
        if (result.adminAccess) continue;
        const std::string key = deviceKey(result.driver, result.pool, result.device);
        int& count = m_allocated[key];
        count += sign;
        if (count <= 0) m_allocated.erase(key);
        if (const auto node = m_deviceNodes.find(key); node != m_deviceNodes.end()) touch(touched, node->second);
    }
}

void DeviceInventory::upsertClaim(ResourceClaim claim, Touched& touched) {
    std::string key = claimKey(claim.nameSpace, claim.name);
    auto found = m_claims.find(key);
    if (found != m_claims.end()) addAllocations(*found->second, -1, touched);
    auto stored = std::make_shared<const ResourceClaim>(std::move(claim));
    addAllocations(*stored, +1, touched);
    if (found != m_claims.end())
        found->second = std::move(stored);
    else
        m_claims.emplace(std::move(key), std::move(stored));
    for (NodeId id : touched.nodes) recompute(id);
}

void DeviceInventory::deleteClaim(std::string_view nameSpace, std::string_view name, Touched& touched) {
    const auto found = m_claims.find(claimKey(nameSpace, name));
    if (found == m_claims.end()) return;
    addAllocations(*found->second, -1, touched);
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
    for (auto& [name, published] : m_slices) classify(published);
    if (m_slices.empty()) return;
    touched.allNodes = true;
    for (NodeId id = 0; id < m_nodeSlices.size(); ++id)
        if (!m_nodeSlices[id].empty()) recompute(id);
}

void DeviceInventory::recompute(NodeId id) {
    if (m_nodes.size() <= id) m_nodes.resize(id + 1);
    NodeDevices out;
    std::vector<GpuOnNode> gpus;
    std::vector<std::pair<const Device*, const ResourceSlice*>> others;
    const std::vector<std::string> none;
    for (const std::string& name : id < m_nodeSlices.size() ? m_nodeSlices[id] : none) {
        const PublishedSlice& published = m_slices.at(name);
        const ResourceSlice& slice = *published.slice;
        if (!isCurrent(slice)) continue;
        for (std::size_t i = 0; i < slice.devices.size(); ++i) {
            const Device& device = slice.devices[i];
            ++out.devices;
            const bool allocated = allocations(slice.driver, slice.pool, device.name) > 0;
            if (allocated) ++out.allocatedDevices;
            if (published.gpus[i])
                gpus.push_back({&device, &slice, allocated, {}});
            else if (allocated)
                others.emplace_back(&device, &slice);
        }
    }
    // When the GPU classes also select partitions (mig.nvidia.com beside gpu.nvidia.com), a
    // selected device cut from another selected one (its parentUUID is that one's uuid, or it
    // draws less than the whole of a counter set they share) is a partition, not one more GPU.
    const bool anyPartition = std::any_of(gpus.begin(), gpus.end(), [](const GpuOnNode& gpu) {
        return !gpu.device->consumesCounters.empty() ||
               stringAttribute(*gpu.device, "parentUUID", gpu.slice->driver) != nullptr;
    });
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
    const auto pool = m_pools.find(poolKey(slice.driver, slice.pool));
    if (pool == m_pools.end()) return nullptr;
    for (const std::string& sliceName : pool->second.slices) {
        const ResourceSlice& other = *m_slices.at(sliceName).slice;
        if (other.poolGeneration != pool->second.generation) continue;
        for (const CounterSet& set : other.sharedCounters)
            if (set.name == name) return &set;
    }
    return nullptr;
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
