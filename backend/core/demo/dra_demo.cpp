#include "core/demo/dra_demo.h"

#include "core/demo/demo_parts.h"

#include <algorithm>
#include <cstdio>
#include <utility>

namespace topodeck {
namespace {

constexpr std::string_view kDriver = "gpu.nvidia.com";

// A stable, made-up GPU UUID per node and device, shaped like nvidia-smi's.
std::string gpuUuid(std::string_view node, int device) {
    std::uint64_t hash = 1469598103934665603ULL;
    for (const char c : node) hash = (hash ^ static_cast<unsigned char>(c)) * 1099511628211ULL;
    hash = (hash ^ static_cast<std::uint64_t>(device)) * 1099511628211ULL;
    char text[64];
    std::snprintf(text, sizeof text, "GPU-%08x-%04x-%04x-%04x-%012llx", static_cast<unsigned>(hash >> 32),
                  static_cast<unsigned>(hash >> 16) & 0xFFFF, static_cast<unsigned>(hash) & 0xFFFF,
                  static_cast<unsigned>(device), static_cast<unsigned long long>(hash & 0xFFFFFFFFFFFFULL));
    return text;
}

Device gpuDevice(std::string_view node, int index, const std::string& product) {
    Device device;
    device.name = "gpu-" + std::to_string(index);
    // As NVIDIA's driver (v25.12) publishes a GPU, attributes sorted by name.
    device.attributes = {
        {"architecture", std::string("Blackwell")},
        {"brand", std::string("Nvidia")},
        {"cudaComputeCapability", *Version::parse("10.0.0")},
        {"cudaDriverVersion", *Version::parse("12.9.0")},
        {"driverVersion", *Version::parse("575.57.8")},
        {"productName", product},
        {"resource.kubernetes.io/pcieRoot", "pci0000:" + std::to_string(index * 16)},
        {"type", std::string("gpu")},
        {"uuid", gpuUuid(node, index)},
    };
    device.capacity = {{"memory", Quantity::fromUnits(189'471LL * 1024 * 1024)}};
    return device;
}

// The two 1g.23gb MIG devices a GB200 could be cut into first (static MIG: published beside their
// parent, linked by parentUUID).
std::vector<Device> migDevices(std::string_view node, int index) {
    std::vector<Device> out;
    for (int start = 0; start < 2; ++start) {
        Device device;
        device.name = "gpu-" + std::to_string(index) + "-mig-1g23gb-" + std::to_string(start);
        device.attributes = {{"parentUUID", gpuUuid(node, index)},
                             {"profile", std::string("1g.23gb")},
                             {"type", std::string("mig")},
                             {"uuid", "MIG-" + gpuUuid(node, index * 16 + start).substr(4)}};
        device.capacity = {{"memory", Quantity::fromUnits(23'552LL * 1024 * 1024)},
                           {"multiprocessors", Quantity::fromUnits(20)}};
        out.push_back(std::move(device));
    }
    return out;
}

std::string claimName(const Pod& pod) {
    return pod.name + "-gpus";
}

} // namespace

std::vector<ClusterEvent> DraDemoConverter::deviceClasses() {
    // As NVIDIA's Helm chart installs them.
    DeviceClass gpu;
    gpu.name = "gpu.nvidia.com";
    gpu.selectors = {"device.driver == 'gpu.nvidia.com' && device.attributes['gpu.nvidia.com'].type == 'gpu'"};
    gpu.extendedResourceName = "nvidia.com/gpu";
    DeviceClass mig;
    mig.name = "mig.nvidia.com";
    mig.selectors = {"device.driver == 'gpu.nvidia.com' && device.attributes['gpu.nvidia.com'].type == 'mig'"};
    std::vector<ClusterEvent> out;
    out.emplace_back(DeviceClassUpserted{std::move(gpu)});
    out.emplace_back(DeviceClassUpserted{std::move(mig)});
    return out;
}

std::vector<ClusterEvent> DraDemoConverter::convert(std::vector<ClusterEvent> events) {
    std::vector<ClusterEvent> out;
    out.reserve(events.size() * 2 + 2);
    if (!m_classesSent) {
        out = deviceClasses();
        m_classesSent = true;
    }
    for (ClusterEvent& event : events) {
        if (auto* node = std::get_if<NodeUpserted>(&event))
            convertNode(std::move(node->node), out);
        else if (auto* pod = std::get_if<PodUpserted>(&event))
            convertPod(std::move(pod->pod), out);
        else if (auto* deleted = std::get_if<PodDeleted>(&event))
            convertPodDeleted(std::move(*deleted), out);
        else
            out.push_back(std::move(event));
    }
    return out;
}

void DraDemoConverter::convertNode(Node node, std::vector<ClusterEvent>& out) {
    const auto gpus = static_cast<int>(demo_parts::gpusIn(node.allocatable));
    node.allocatable.erase(demo_parts::kGpuResource);
    const bool known = m_nodes.count(node.name) > 0;
    const std::string name = node.name;
    const std::string* product = node.label("nvidia.com/gpu.product");
    // NVML's name, as the driver publishes it; GPU Feature Discovery's label writes its spaces as
    // dashes ("NVIDIA H100 80GB HBM3" -> "NVIDIA-H100-80GB-HBM3").
    std::string productName = product != nullptr ? *product : std::string("NVIDIA GPU");
    std::replace(productName.begin(), productName.end(), '-', ' ');
    // One rack in eight publishes its MIG devices too.
    const bool withMig = name.find("-r01-") != std::string::npos;
    out.emplace_back(NodeUpserted{std::move(node)});
    if (known || gpus <= 0) return;
    m_nodes[name].allocated.assign(static_cast<std::size_t>(gpus), false);
    ResourceSlice slice;
    slice.name = name + "-gpu.nvidia.com";
    slice.driver = std::string(kDriver);
    slice.pool = name;
    slice.poolGeneration = 1;
    slice.nodeName = name;
    for (int i = 0; i < gpus; ++i) {
        slice.devices.push_back(gpuDevice(name, i, productName));
        if (withMig)
            for (Device& mig : migDevices(name, i)) slice.devices.push_back(std::move(mig));
    }
    out.emplace_back(ResourceSliceUpserted{std::move(slice)});
}

void DraDemoConverter::convertPod(Pod pod, std::vector<ClusterEvent>& out) {
    const auto gpus = static_cast<int>(demo_parts::gpusIn(pod.requests));
    pod.requests.erase(demo_parts::kGpuResource);
    if (gpus <= 0) {
        out.emplace_back(PodUpserted{std::move(pod)});
        return;
    }
    const std::string key = pod.key();
    pod.resourceClaims = {{"gpus", "", "gpus-" + std::to_string(gpus)}};
    pod.claimStatuses = {{"gpus", claimName(pod)}};
    auto existing = m_claims.find(key);
    if (existing == m_claims.end() && pod.holdsResources()) {
        // Allocate the first free devices of its node, as the scheduler's allocator would.
        PodClaim claim{pod.nodeName, {}};
        std::vector<bool>& allocated = m_nodes[pod.nodeName].allocated;
        for (std::size_t i = 0; i < allocated.size() && static_cast<int>(claim.devices.size()) < gpus; ++i)
            if (!allocated[i]) {
                allocated[i] = true;
                claim.devices.push_back(static_cast<int>(i));
            }
        ResourceClaim resourceClaim;
        resourceClaim.nameSpace = pod.nameSpace;
        resourceClaim.name = claimName(pod);
        resourceClaim.podClaimName = "gpus";
        resourceClaim.spec.requests = {{"gpus", DeviceSubRequest{"", "gpu.nvidia.com", {}, {}, gpus, false}, {}}};
        resourceClaim.allocated = true;
        for (const int device : claim.devices)
            resourceClaim.devices.push_back({"gpus", std::string(kDriver), pod.nodeName, "gpu-" + std::to_string(device)});
        resourceClaim.reservedFor = {{"pods", pod.name, ""}};
        out.emplace_back(ResourceClaimUpserted{std::move(resourceClaim)});
        m_claims.emplace(key, std::move(claim));
    }
    out.emplace_back(PodUpserted{std::move(pod)});
}

void DraDemoConverter::convertPodDeleted(PodDeleted deleted, std::vector<ClusterEvent>& out) {
    const auto found = m_claims.find(deleted.nameSpace + '/' + deleted.name);
    if (found != m_claims.end()) {
        std::vector<bool>& allocated = m_nodes[found->second.node].allocated;
        for (const int device : found->second.devices) allocated[static_cast<std::size_t>(device)] = false;
        out.emplace_back(ResourceClaimDeleted{deleted.nameSpace, deleted.name + "-gpus"});
        m_claims.erase(found);
    }
    out.emplace_back(PodDeleted{std::move(deleted)});
}

} // namespace topodeck
