#include "core/demo/dra_demo.h"

#include "core/demo/demo_parts.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>
#include <string_view>
#include <utility>

namespace topodeck {
namespace {

constexpr std::string_view kDriver = "gpu.nvidia.com";
constexpr std::string_view kChannelClass = "compute-domain-default-channel.nvidia.com";

std::uint64_t fnv(std::string_view text) {
    std::uint64_t hash = 1469598103934665603ULL;
    for (const char c : text) hash = (hash ^ static_cast<unsigned char>(c)) * 1099511628211ULL;
    return hash;
}

// A stable, made-up GPU UUID per node and device, shaped like nvidia-smi's.
std::string gpuUuid(std::string_view node, int device) {
    std::uint64_t hash = fnv(node);
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

std::string computeDomainName(std::string_view workload) {
    return std::string(workload) + "-cd";
}

// As NVIDIA's example specs name it: the ComputeDomain's name and "-channel".
std::string channelTemplateName(std::string_view workload) {
    return computeDomainName(workload) + "-channel";
}

// A stable, made-up object UID (RFC 4122 version 4 shape).
std::string objectUid(std::string_view key) {
    const std::uint64_t a = fnv(key);
    const std::uint64_t b = fnv(std::string(key) + "/uid");
    char text[40];
    std::snprintf(text, sizeof text, "%08x-%04x-4%03x-8%03x-%012llx", static_cast<unsigned>(a >> 32),
                  static_cast<unsigned>(a >> 16) & 0xFFFF, static_cast<unsigned>(a) & 0xFFF,
                  static_cast<unsigned>(b >> 52) & 0xFFF, static_cast<unsigned long long>(b & 0xFFFFFFFFFFFFULL));
    return text;
}

// A stable, made-up node address in 10.0.0.0/8, as a status.nodes entry carries it.
std::string nodeAddress(std::string_view node) {
    const std::uint64_t hash = fnv(node);
    return "10." + std::to_string((hash >> 16) & 0xFF) + '.' + std::to_string((hash >> 8) & 0xFF) + '.' +
           std::to_string(1 + (hash & 0xFF) % 254);
}

// The channel template NVIDIA's ComputeDomain controller makes: one channel of the default
// channel class (the opaque ComputeDomainChannelConfig naming the domain is not modelled).
ResourceClaimTemplate channelTemplate(const std::string& nameSpace, std::string_view workload) {
    ResourceClaimTemplate claimTemplate;
    claimTemplate.nameSpace = nameSpace;
    claimTemplate.name = channelTemplateName(workload);
    claimTemplate.spec.requests = {{"channel", DeviceSubRequest{"", std::string(kChannelClass), {}, {}, 1, false}, {}}};
    return claimTemplate;
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
    // The chart installs the ComputeDomain classes too (resources.computeDomains.enabled).
    DeviceClass channel;
    channel.name = std::string(kChannelClass);
    channel.selectors = {"device.driver == 'compute-domain.nvidia.com' && "
                         "device.attributes['compute-domain.nvidia.com'].type == 'channel' && "
                         "device.attributes['compute-domain.nvidia.com'].id == 0"};
    DeviceClass daemon;
    daemon.name = "compute-domain-daemon.nvidia.com";
    daemon.selectors = {"device.driver == 'compute-domain.nvidia.com' && "
                        "device.attributes['compute-domain.nvidia.com'].type == 'daemon'"};
    std::vector<ClusterEvent> out;
    out.emplace_back(DeviceClassUpserted{std::move(gpu)});
    out.emplace_back(DeviceClassUpserted{std::move(mig)});
    out.emplace_back(DeviceClassUpserted{std::move(channel)});
    out.emplace_back(DeviceClassUpserted{std::move(daemon)});
    return out;
}

void DraDemoConverter::learnGangs(const std::vector<ClusterEvent>& events) {
    for (const ClusterEvent& event : events) {
        if (const auto* upserted = std::get_if<NodeUpserted>(&event)) {
            const Node& node = upserted->node;
            NodeFacts& facts = m_nodeFacts[node.name];
            const std::string* clique = node.label(kGpuCliqueLabel);
            facts.clique = clique ? *clique : std::string();
            facts.ready = node.ready;
            // The domains with a daemon there say whether it is ready.
            for (const auto& [key, gang] : m_gangs)
                for (const auto& [pod, where] : gang.running)
                    if (gang.hasDomain && where == node.name) {
                        m_touchedGangs.insert(key);
                        break;
                    }
        } else if (const auto* podUpserted = std::get_if<PodUpserted>(&event)) {
            const Pod& pod = podUpserted->pod;
            if (pod.workload.empty() || demo_parts::gpusIn(pod.requests) <= 0) continue;
            const std::string gangKey = pod.nameSpace + '/' + pod.workload;
            Gang& gang = m_gangs[gangKey];
            gang.nameSpace = pod.nameSpace;
            gang.workload = pod.workload;
            if (pod.holdsResources())
                gang.running[pod.name] = pod.nodeName;
            else
                gang.running.erase(pod.name);
            if (m_podGangs.try_emplace(pod.key(), gangKey).second) ++gang.pods;
            m_touchedGangs.insert(gangKey);
        } else if (const auto* deleted = std::get_if<PodDeleted>(&event)) {
            const auto found = m_podGangs.find(deleted->nameSpace + '/' + deleted->name);
            if (found == m_podGangs.end()) continue;
            if (const auto gang = m_gangs.find(found->second); gang != m_gangs.end()) {
                gang->second.running.erase(deleted->name);
                --gang->second.pods;
            }
            m_touchedGangs.insert(found->second);
            m_podGangs.erase(found);
        }
    }
    // A gang running on two nodes or more, some in an NVLink clique, asks for a ComputeDomain.
    for (const std::string& key : m_touchedGangs) {
        Gang& gang = m_gangs[key];
        if (gang.hasDomain) continue;
        std::set<std::string_view> nodes;
        bool inClique = false;
        for (const auto& [pod, node] : gang.running) {
            nodes.insert(node);
            const auto facts = m_nodeFacts.find(node);
            inClique = inClique || (facts != m_nodeFacts.end() && !facts->second.clique.empty());
        }
        gang.hasDomain = nodes.size() >= 2 && inClique;
    }
}

ComputeDomain DraDemoConverter::computeDomainOf(const Gang& gang) const {
    ComputeDomain domain;
    domain.nameSpace = gang.nameSpace;
    domain.name = computeDomainName(gang.workload);
    domain.uid = objectUid(domain.key());
    domain.channelTemplate = channelTemplateName(gang.workload);
    std::set<std::string_view> nodes;
    for (const auto& [pod, node] : gang.running) nodes.insert(node);
    std::map<std::string_view, std::int32_t> perClique; // the daemons' index inside each clique
    bool ready = true;
    for (const std::string_view node : nodes) {
        const auto facts = m_nodeFacts.find(node);
        ComputeDomainNode entry;
        entry.name = std::string(node);
        entry.ipAddress = nodeAddress(node);
        entry.cliqueID = facts != m_nodeFacts.end() ? facts->second.clique : std::string();
        entry.index = perClique[entry.cliqueID]++;
        const bool nodeReady = facts == m_nodeFacts.end() || facts->second.ready;
        entry.status = nodeReady ? ComputeDomainReadiness::Ready : ComputeDomainReadiness::NotReady;
        ready = ready && nodeReady;
        domain.nodes.push_back(std::move(entry));
    }
    // The controller's rule with numNodes 0: Ready when every daemon is.
    domain.status = ready ? ComputeDomainReadiness::Ready : ComputeDomainReadiness::NotReady;
    return domain;
}

void DraDemoConverter::updateComputeDomains(std::vector<ClusterEvent>& out) {
    for (const std::string& key : m_touchedGangs) {
        const auto it = m_gangs.find(key);
        if (it == m_gangs.end()) continue;
        Gang& gang = it->second;
        if (gang.pods <= 0) {
            if (gang.announced) {
                out.emplace_back(ComputeDomainDeleted{gang.nameSpace, computeDomainName(gang.workload)});
                out.emplace_back(ResourceClaimTemplateDeleted{gang.nameSpace, channelTemplateName(gang.workload)});
            }
            m_gangs.erase(it);
            continue;
        }
        if (!gang.hasDomain) continue;
        if (!gang.announced)
            out.emplace_back(ResourceClaimTemplateUpserted{channelTemplate(gang.nameSpace, gang.workload)});
        gang.announced = true;
        out.emplace_back(ComputeDomainUpserted{computeDomainOf(gang)});
    }
    m_touchedGangs.clear();
}

std::vector<ClusterEvent> DraDemoConverter::convert(std::vector<ClusterEvent> events) {
    std::vector<ClusterEvent> out;
    out.reserve(events.size() * 2 + 2);
    if (!m_classesSent) {
        out = deviceClasses();
        m_classesSent = true;
    }
    learnGangs(events);
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
    updateComputeDomains(out);
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
    if (const auto gang = m_gangs.find(pod.nameSpace + '/' + pod.workload);
        gang != m_gangs.end() && gang->second.hasDomain)
        pod.resourceClaims.push_back({"channel", "", channelTemplateName(pod.workload)});
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
