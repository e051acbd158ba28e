// GPUs counted from both worlds (core/model/node_gpus.h, core/model/device_inventory.h), on the
// input classes of ../shared/reference/dra.md section 11: device plugin only, DRA only with a
// stale pool generation and an allocated but unreserved claim, static MIG (parentUUID),
// partitionable devices in the 1.35 split layout (counter sets), a claim shared by two pods, a
// node published by both, KAI's fractional sharing, time-slicing replicas, and device-plugin MIG.
// Device shapes follow NVIDIA's k8s-dra-driver-gpu (gpu-<n> with type/uuid, MIG with parentUUID
// and profile; partitions drawing on gpu-<n>-counter-set).
#include "core/model/cluster_state.h"
#include "core/model/node_gpus.h"
#include "unit_builders.h"
#include "support/test_program.h"

#include <QtTest>

#include <string>
#include <vector>

using namespace topodeck;
using namespace topodeck::testing;

namespace {

constexpr std::string_view kDriver = "gpu.nvidia.com";

Quantity q(const char* text) {
    return *Quantity::parse(text);
}

Device gpuDevice(const std::string& name, const std::string& uuid, const char* memory = "80Gi") {
    Device device;
    device.name = name;
    device.attributes = {{"productName", std::string("NVIDIA H100 80GB HBM3")}, {"type", std::string("gpu")},
                         {"uuid", uuid}};
    device.capacity = {{"memory", q(memory)}};
    return device;
}

Device migDevice(const std::string& name, const std::string& parentUuid, const char* memory) {
    Device device;
    device.name = name;
    device.attributes = {{"parentUUID", parentUuid}, {"profile", std::string("1g.10gb")}, {"type", std::string("mig")}};
    device.capacity = {{"memory", q(memory)}, {"multiprocessors", q("16")}};
    return device;
}

ResourceSlice nodeSlice(const std::string& node, std::int64_t generation, std::vector<Device> devices) {
    ResourceSlice slice;
    slice.name = node + "-gpu.nvidia.com-" + std::to_string(generation);
    slice.driver = std::string(kDriver);
    slice.pool = node;
    slice.poolGeneration = generation;
    slice.nodeName = node;
    slice.devices = std::move(devices);
    return slice;
}

ResourceClaim allocatedClaim(const std::string& name, const std::string& pool, std::vector<std::string> devices,
                             std::vector<std::string> reservedFor = {}) {
    ResourceClaim claim;
    claim.nameSpace = "team";
    claim.name = name;
    claim.allocated = true;
    for (const std::string& device : devices) claim.devices.push_back({"gpu", std::string(kDriver), pool, device});
    for (const std::string& pod : reservedFor) claim.reservedFor.push_back({"pods", pod, pod + "-uid"});
    return claim;
}

Node draNode(const std::string& name) {
    Node node = makeNode(name, "b1", "r1", 0);
    node.allocatable.erase("nvidia.com/gpu");
    return node;
}

// Fixture 4's split layout (1.35): one slice of the pool holds only gpu-0's counter set (memory
// and eight memory slices), the other the devices; returns the counters' slice and the whole GPU,
// which draws all of the set.
struct SplitLayoutCounters {
    ResourceSlice counters;
    Device whole;
};
SplitLayoutCounters splitLayoutCounters(const std::string& node) {
    ResourceSlice counters = nodeSlice(node, 1, {});
    counters.name = node + "-counters";
    counters.poolSliceCount = 2;
    CounterSet set{"gpu-0-counter-set", {{"memory", q("80Gi")}}};
    for (int i = 0; i < 8; ++i) set.counters.emplace_back("memory-slice-" + std::to_string(i), q("1"));
    counters.sharedCounters = {set};
    Device whole = gpuDevice("gpu-0", "GPU-d0");
    whole.consumesCounters = {{"gpu-0-counter-set", set.counters}};
    return {std::move(counters), std::move(whole)};
}
// The layout's other slice, holding these devices.
ResourceSlice splitLayoutDevices(const std::string& node, std::vector<Device> devices) {
    ResourceSlice slice = nodeSlice(node, 1, std::move(devices));
    slice.poolSliceCount = 2;
    return slice;
}

NodeGpus gpusOf(const ClusterState& state, const std::string& node, const GpuResources& resources = {}) {
    return countNodeGpus(state, *state.findNode(node), resources);
}

} // namespace

class TestNodeGpus : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void devicePluginOnly() {
        // Fixture 1: 8 allocatable, pods asking 2 and 3.
        ClusterState state;
        (void)state.apply(NodeUpserted{makeNode("node-a", "b1", "r1", 8)});
        (void)state.apply(PodUpserted{makePod("p1", "node-a", 2)});
        (void)state.apply(PodUpserted{makePod("p2", "node-a", 3)});
        const NodeGpus gpus = gpusOf(state, "node-a");
        QCOMPARE(gpus.total, 8);
        QCOMPARE(gpus.used, GpuAmount::whole(5));
        QCOMPARE(gpus.busy, 5);
        QCOMPARE(gpus.partlyUsed, 0);
        QCOMPARE(gpus.source, GpuSource::DevicePlugin);
    }

    void draOnlyCountsTheCurrentGenerationAndUnreservedClaims() {
        // Fixture 2: gpu-0..3 at generation 2; a stale generation-1 slice with a fifth device; a
        // claim allocated to gpu-1 that no pod is reserved for yet still holds it.
        ClusterState state;
        (void)state.apply(NodeUpserted{draNode("node-b")});
        std::vector<Device> devices;
        for (int i = 0; i < 4; ++i) devices.push_back(gpuDevice("gpu-" + std::to_string(i), "GPU-b" + std::to_string(i)));
        (void)state.apply(ResourceSliceUpserted{nodeSlice("node-b", 2, devices)});
        devices.push_back(gpuDevice("gpu-4", "GPU-b4"));
        (void)state.apply(ResourceSliceUpserted{nodeSlice("node-b", 1, devices)});
        QCOMPARE(gpusOf(state, "node-b").total, 4);
        QCOMPARE(gpusOf(state, "node-b").source, GpuSource::Dra);
        QCOMPARE(gpusOf(state, "node-b").used, GpuAmount());

        const AppliedEvent applied = state.apply(ResourceClaimUpserted{allocatedClaim("c1", "node-b", {"gpu-1"})});
        QCOMPARE(applied.nodeCount, 1);
        QCOMPARE(applied.nodes[0], *state.findNode("node-b"));
        QCOMPARE(gpusOf(state, "node-b").used, GpuAmount::whole(1));
        QCOMPARE(state.devices().node(*state.findNode("node-b")).allocatedDevices, 1);

        // A claim on a device only the stale slice has holds nothing that counts.
        (void)state.apply(ResourceClaimUpserted{allocatedClaim("c2", "node-b", {"gpu-4"})});
        QCOMPARE(gpusOf(state, "node-b").used, GpuAmount::whole(1));

        (void)state.apply(ResourceClaimDeleted{"team", "c1"});
        QCOMPARE(gpusOf(state, "node-b").used, GpuAmount());
    }

    void adminAccessDoesNotHoldADevice() {
        ClusterState state;
        (void)state.apply(NodeUpserted{draNode("node-b")});
        (void)state.apply(ResourceSliceUpserted{nodeSlice("node-b", 1, {gpuDevice("gpu-0", "GPU-0")})});
        ResourceClaim claim = allocatedClaim("monitor", "node-b", {"gpu-0"});
        claim.devices.front().adminAccess = true;
        (void)state.apply(ResourceClaimUpserted{claim});
        QCOMPARE(gpusOf(state, "node-b").used, GpuAmount());
    }

    void claimBeforeItsSlice() {
        // Watches deliver kinds in any order: a claim may name a device not published yet.
        ClusterState state;
        (void)state.apply(ResourceClaimUpserted{allocatedClaim("early", "node-b", {"gpu-0"})});
        (void)state.apply(NodeUpserted{draNode("node-b")});
        (void)state.apply(ResourceSliceUpserted{nodeSlice("node-b", 1, {gpuDevice("gpu-0", "GPU-0")})});
        QCOMPARE(gpusOf(state, "node-b").used, GpuAmount::whole(1));
        (void)state.apply(ResourceSliceDeleted{"node-b-gpu.nvidia.com-1"});
        QCOMPARE(gpusOf(state, "node-b").total, 0);
        QCOMPARE(gpusOf(state, "node-b").source, GpuSource::None);
    }

    void staticMigFoldsIntoItsGpu() {
        // Fixture 3: gpu-0 and two MIG devices whose parentUUID is gpu-0's uuid; one allocated.
        ClusterState state;
        (void)state.apply(NodeUpserted{draNode("node-c")});
        (void)state.apply(ResourceSliceUpserted{nodeSlice(
            "node-c", 1,
            {gpuDevice("gpu-0", "GPU-c0"), migDevice("gpu-0-mig-19-0-1", "GPU-c0", "10Gi"),
             migDevice("gpu-0-mig-19-1-1", "GPU-c0", "10Gi")})});
        (void)state.apply(ResourceClaimUpserted{allocatedClaim("mig", "node-c", {"gpu-0-mig-19-0-1"})});
        const NodeGpus gpus = gpusOf(state, "node-c");
        QCOMPARE(gpus.total, 1);
        QCOMPARE(gpus.used, GpuAmount::fraction(1, 8)); // 10Gi of 80Gi
        QCOMPARE(gpus.busy, 1);
        QCOMPARE(gpus.partlyUsed, 1);
        QCOMPARE(state.devices().node(*state.findNode("node-c")).devices, 3);
    }

    void partitionsAGpuClassSelectsStayPartitions() {
        // --gpu-classes gpu.nvidia.com,mig.nvidia.com: the MIG devices are selected too, but each
        // is cut from a selected GPU (parentUUID), so the node still has one GPU, partly used.
        ClusterState state;
        (void)state.apply(NodeUpserted{draNode("node-c")});
        (void)state.apply(ResourceSliceUpserted{nodeSlice(
            "node-c", 1,
            {gpuDevice("gpu-0", "GPU-c0"), migDevice("gpu-0-mig-19-0-1", "GPU-c0", "10Gi"),
             migDevice("gpu-0-mig-19-1-1", "GPU-c0", "10Gi")})});
        (void)state.apply(DeviceClassUpserted{DeviceClass{"mig.nvidia.com",
                                                          {"device.attributes['gpu.nvidia.com'].type == 'mig'"}, {}}});
        (void)state.apply(ResourceClaimUpserted{allocatedClaim("mig", "node-c", {"gpu-0-mig-19-0-1"})});
        (void)state.setGpuDeviceClasses(GpuDeviceClasses::fromList("gpu.nvidia.com,mig.nvidia.com"));
        NodeGpus gpus = gpusOf(state, "node-c");
        QCOMPARE(gpus.total, 1);
        QCOMPARE(gpus.used, GpuAmount::fraction(1, 8));
        QCOMPARE(gpus.partlyUsed, 1);
        // MIG alone: no selected GPU to fold into, so each MIG device is a GPU of its own.
        (void)state.setGpuDeviceClasses(GpuDeviceClasses::fromList("mig.nvidia.com"));
        gpus = gpusOf(state, "node-c");
        QCOMPARE(gpus.total, 2);
        QCOMPARE(gpus.used, GpuAmount::whole(1));
    }

    void draWarningsSayWhatTheCountsCannot() {
        ClusterState state;
        (void)state.apply(NodeUpserted{draNode("node-a")});
        QVERIFY(draWarnings(state).empty());
        // A slice of a node without a Node object: its devices are counted nowhere.
        (void)state.apply(ResourceSliceUpserted{nodeSlice("gone", 1, {gpuDevice("gpu-0", "G0")})});
        // node-a's pool says two slices and one arrived; then a device listed twice.
        ResourceSlice half = nodeSlice("node-a", 1, {gpuDevice("gpu-0", "A0")});
        half.poolSliceCount = 2;
        (void)state.apply(ResourceSliceUpserted{half});
        std::vector<std::string> warnings = draWarnings(state);
        QCOMPARE(warnings.size(), std::size_t(2));
        QCOMPARE(warnings[0], std::string("1 ResourceSlice publishes devices of 1 node the cluster has no Node for "
                                          "(gone): they are counted nowhere"));
        QVERIFY2(warnings[1].starts_with("pool node-a of gpu.nvidia.com is incomplete (1 of 2 slices at its "
                                         "generation)"),
                 warnings[1].c_str());
        ResourceSlice rest = nodeSlice("node-a", 1, {gpuDevice("gpu-0", "A0-again")});
        rest.name = "node-a-second";
        rest.poolSliceCount = 2;
        (void)state.apply(ResourceSliceUpserted{rest});
        warnings = draWarnings(state);
        QCOMPARE(warnings.size(), std::size_t(2));
        QCOMPARE(warnings[1], std::string("pool node-a of gpu.nvidia.com is invalid (duplicate device name gpu-0): "
                                          "counted as published; the scheduler allocates nothing from it"));
        // gpu-0 listed twice is one device: node-a has one GPU, not two.
        QCOMPARE(gpusOf(state, "node-a").total, 1);
        QCOMPARE(state.devices().node(*state.findNode("node-a")).devices, 1);
        // The Node arrives: its slice counts.
        (void)state.apply(NodeUpserted{draNode("gone")});
        QCOMPARE(draWarnings(state).size(), std::size_t(1));
    }

    void invalidCountersWarnWithTheirGate() {
        // Fixture 4's split layout, its MIG device drawing memory-slice-9 of a set with 0 .. 7:
        // invalid only for a scheduler with DRAPartitionableDevices. Its GPU still counts.
        ClusterState state;
        (void)state.apply(NodeUpserted{draNode("node-d")});
        const auto [counters, whole] = splitLayoutCounters("node-d");
        Device slice = migDevice("gpu-0-mig-1g10gb-19-0", "GPU-d0", "10Gi");
        slice.consumesCounters = {{"gpu-0-counter-set", {{"memory", q("10Gi")}, {"memory-slice-9", q("1")}}}};
        const ResourceSlice devices = splitLayoutDevices("node-d", {whole, slice});
        (void)state.apply(ResourceSliceUpserted{counters});
        (void)state.apply(ResourceSliceUpserted{devices});
        const std::vector<std::string> warnings = draWarnings(state);
        QCOMPARE(warnings.size(), std::size_t(1));
        QCOMPARE(warnings[0], std::string("pool node-d of gpu.nvidia.com is invalid with DRAPartitionableDevices on "
                                          "(counter memory-slice-9 not found in counter set gpu-0-counter-set): "
                                          "counted as published; with the gate the scheduler allocates nothing from it"));
        QCOMPARE(gpusOf(state, "node-d").total, 1);
    }

    void partitionableSplitLayout() {
        // Fixture 4 (1.35): one slice holds only the counter set, the other the devices drawing on it.
        ClusterState state;
        (void)state.apply(NodeUpserted{draNode("node-d")});
        const auto [counters, whole] = splitLayoutCounters("node-d");
        Device slice = migDevice("gpu-0-mig-1g10gb-19-0", "", "10Gi");
        slice.attributes.erase(slice.attributes.begin()); // DynamicMIG partitions name no parentUUID
        slice.consumesCounters = {{"gpu-0-counter-set", {{"memory", q("10Gi")}, {"memory-slice-0", q("1")}}}};
        const ResourceSlice devices = splitLayoutDevices("node-d", {whole, slice});
        (void)state.apply(ResourceSliceUpserted{counters});
        (void)state.apply(ResourceSliceUpserted{devices});
        (void)state.apply(ResourceClaimUpserted{allocatedClaim("part", "node-d", {"gpu-0-mig-1g10gb-19-0"})});
        const NodeGpus gpus = gpusOf(state, "node-d");
        QCOMPARE(gpus.total, 1);
        QCOMPARE(gpus.used, GpuAmount::fraction(1, 8));
        QCOMPARE(gpus.busy, 1); // gpu-0 cannot be handed out whole any more
        QCOMPARE(gpus.partlyUsed, 1);
    }

    void podsKnowTheGpusTheirClaimsHold() {
        // A pod naming its claim directly, one whose claim was made from its template, and one
        // with a MIG slice (not a whole GPU) or an unallocated claim.
        ClusterState state;
        (void)state.apply(NodeUpserted{draNode("node-k")});
        (void)state.apply(ResourceSliceUpserted{nodeSlice(
            "node-k", 1, {gpuDevice("gpu-0", "K0"), gpuDevice("gpu-1", "K1"), gpuDevice("gpu-2", "K2"),
                          migDevice("gpu-2-mig-0", "K2", "10Gi")})});
        (void)state.apply(ResourceClaimUpserted{allocatedClaim("two", "node-k", {"gpu-0", "gpu-1"})});
        (void)state.apply(ResourceClaimUpserted{allocatedClaim("p2-gpu-x7k2q", "node-k", {"gpu-2"})});
        (void)state.apply(ResourceClaimUpserted{allocatedClaim("slice", "node-k", {"gpu-2-mig-0"})});
        Pod direct = makePod("p1", "node-k", 0);
        direct.resourceClaims = {{"gpus", "two", ""}};
        QCOMPARE(claimedGpus(state, direct), 2);
        Pod templated = makePod("p2", "node-k", 0);
        templated.resourceClaims = {{"gpu", "", "one-gpu"}};
        templated.claimStatuses = {{"gpu", "p2-gpu-x7k2q"}};
        QCOMPARE(claimedGpus(state, templated), 1);
        Pod mig = makePod("p3", "node-k", 0);
        mig.resourceClaims = {{"mig", "slice", ""}, {"missing", "not-there", ""}};
        QCOMPARE(claimedGpus(state, mig), 0);
    }

    void claimSharedByTwoPodsCountsOnce() {
        // Fixture 5: one claim, allocated once, reserved for two pods.
        ClusterState state;
        (void)state.apply(NodeUpserted{draNode("node-b")});
        (void)state.apply(ResourceSliceUpserted{
            nodeSlice("node-b", 1, {gpuDevice("gpu-0", "G0"), gpuDevice("gpu-1", "G1"), gpuDevice("gpu-2", "G2")})});
        (void)state.apply(ResourceClaimUpserted{allocatedClaim("shared-gpu", "node-b", {"gpu-2"}, {"p1", "p2"})});
        QCOMPARE(gpusOf(state, "node-b").used, GpuAmount::whole(1));
    }

    void bothWorldsCountEachGpuOnce() {
        // The device plugin and the DRA driver both publish the node's 4 GPUs.
        ClusterState state;
        (void)state.apply(NodeUpserted{makeNode("node-e", "b1", "r1", 4)});
        (void)state.apply(PodUpserted{makePod("p1", "node-e", 1)});
        std::vector<Device> devices;
        for (int i = 0; i < 4; ++i) devices.push_back(gpuDevice("gpu-" + std::to_string(i), "E" + std::to_string(i)));
        (void)state.apply(ResourceSliceUpserted{nodeSlice("node-e", 1, devices)});
        (void)state.apply(ResourceClaimUpserted{allocatedClaim("c", "node-e", {"gpu-3"})});
        const NodeGpus gpus = gpusOf(state, "node-e");
        QCOMPARE(gpus.total, 4);
        QCOMPARE(gpus.used, GpuAmount::whole(2));
        QCOMPARE(gpus.source, GpuSource::Both);
    }

    void otherDriversAndClassesAreNotGpus() {
        // ComputeDomain channels are devices, not GPUs; a class list without gpu.nvidia.com counts none.
        ClusterState state;
        (void)state.apply(NodeUpserted{draNode("node-f")});
        ResourceSlice channels = nodeSlice("node-f", 1, {});
        channels.driver = "compute-domain.nvidia.com";
        channels.name = "node-f-compute-domain.nvidia.com-1";
        Device channel;
        channel.name = "channel-0";
        channel.attributes = {{"id", std::int64_t{0}}, {"type", std::string("channel")}};
        channels.devices = {channel};
        (void)state.apply(ResourceSliceUpserted{channels});
        (void)state.apply(ResourceSliceUpserted{nodeSlice("node-f", 1, {gpuDevice("gpu-0", "F0")})});
        QCOMPARE(gpusOf(state, "node-f").total, 1);
        QCOMPARE(state.devices().node(*state.findNode("node-f")).devices, 2);
        const AppliedEvent applied = state.setGpuDeviceClasses(GpuDeviceClasses::fromList("gpu.example.com"));
        QVERIFY(applied.allNodes);
        QCOMPARE(gpusOf(state, "node-f").total, 0);
    }

    void deviceClassSelectorsDecideWhatIsAGpu() {
        // The class object, when known, decides by its CEL selectors (NVIDIA's chart's selector
        // plus one of an operator's own): an A100 is no longer counted.
        ClusterState state;
        (void)state.apply(NodeUpserted{draNode("node-j")});
        Device a100 = gpuDevice("gpu-1", "J1");
        a100.attributes[0].value = std::string("NVIDIA A100-SXM4-80GB");
        (void)state.apply(ResourceSliceUpserted{nodeSlice("node-j", 1, {gpuDevice("gpu-0", "J0"), a100})});
        QCOMPARE(gpusOf(state, "node-j").total, 2);
        DeviceClass gpuClass;
        gpuClass.name = "gpu.nvidia.com";
        gpuClass.selectors = {"device.driver == 'gpu.nvidia.com' && device.attributes['gpu.nvidia.com'].type == 'gpu'",
                              "device.attributes['gpu.nvidia.com'].productName.lowerAscii().matches('^.*h100.*$')"};
        const AppliedEvent applied = state.apply(DeviceClassUpserted{gpuClass});
        QVERIFY(applied.allNodes);
        QCOMPARE(gpusOf(state, "node-j").total, 1);
        QVERIFY(state.devices().classWarnings().empty());

        // A selector that reads an attribute the device lacks is an evaluation error: not selected.
        gpuClass.selectors = {"device.attributes['gpu.nvidia.com'].architecture == 'Hopper'"};
        (void)state.apply(DeviceClassUpserted{gpuClass});
        QCOMPARE(gpusOf(state, "node-j").total, 0);
        QVERIFY(!state.devices().classWarnings().empty());

        // Without the class object, the chart's rule applies again.
        (void)state.apply(DeviceClassDeleted{"gpu.nvidia.com"});
        QCOMPARE(gpusOf(state, "node-j").total, 2);
    }

    void kaiFractionsCountAsTheShareTheyTake() {
        // Fixture 9: a reservation pod holds one GPU for group g1; its two sharers take 0.5 and 0.25.
        ClusterState state;
        (void)state.apply(NodeUpserted{makeNode("node-g", "b1", "r1", 8)});
        Pod reservation = makePod("gpu-reservation-g1", "node-g", 1);
        reservation.nameSpace = "kai-resource-reservation";
        reservation.gpuShare.group = "g1";
        reservation.gpuShare.reservation = true;
        (void)state.apply(PodUpserted{reservation});
        for (const auto& [name, fraction] : {std::pair{"half", "0.5"}, std::pair{"quarter", "0.25"}}) {
            Pod pod = makePod(name, "node-g", 0);
            pod.gpuShare.group = "g1";
            pod.gpuShare.fraction = fraction;
            (void)state.apply(PodUpserted{pod});
        }
        (void)state.apply(PodUpserted{makePod("whole", "node-g", 2)});
        const NodeGpus gpus = gpusOf(state, "node-g");
        QCOMPARE(gpus.total, 8);
        QCOMPARE(gpus.used, GpuAmount::whole(2) + GpuAmount::fraction(3, 4));
        QCOMPARE(gpus.busy, 3);
        QCOMPARE(gpus.partlyUsed, 1);
    }

    void timeSlicedReplicas() {
        // GPU operator time-slicing: 4 replicas a GPU, 8 GPUs advertised as 32.
        ClusterState state;
        Node node = makeNode("node-h", "b1", "r1", 32);
        node.setLabel("nvidia.com/gpu.replicas", "4");
        (void)state.apply(NodeUpserted{node});
        (void)state.apply(PodUpserted{makePod("p", "node-h", 6)});
        const NodeGpus gpus = gpusOf(state, "node-h");
        QCOMPARE(gpus.total, 8);
        QCOMPARE(gpus.used, GpuAmount::fraction(3, 2));
        QCOMPARE(gpus.busy, 2);
    }

    void devicePluginMig() {
        // Mixed strategy: MIG profiles as resources; GFD's gpu.count says how many GPUs they are cut from.
        ClusterState state;
        Node node = makeNode("node-i", "b1", "r1", 0);
        node.allocatable.erase("nvidia.com/gpu");
        node.allocatable.set("nvidia.com/mig-1g.10gb", Quantity::fromUnits(14));
        node.allocatable.set("nvidia.com/mig-3g.40gb", Quantity::fromUnits(4));
        node.setLabel("nvidia.com/gpu.count", "4");
        (void)state.apply(NodeUpserted{node});
        Pod pod = makePod("p", "node-i", 0);
        pod.requests.set("nvidia.com/mig-1g.10gb", Quantity::fromUnits(2));
        (void)state.apply(PodUpserted{pod});
        const GpuResources resources = GpuResources::fromList("nvidia.com/gpu,nvidia.com/mig-*");
        const NodeGpus gpus = gpusOf(state, "node-i", resources);
        QCOMPARE(gpus.total, 4);
        QCOMPARE(gpus.used, GpuAmount::fraction(2, 7));
        QCOMPARE(gpus.partlyUsed, 1);
    }

    void gpuAmountText() {
        QCOMPARE(GpuAmount::whole(12).text(), std::string("12"));
        QCOMPARE((GpuAmount::whole(2) + GpuAmount::fraction(3, 4)).text(), std::string("2.75"));
        QCOMPARE(GpuAmount::fraction(1, 7).text(), std::string("0.14"));
        QCOMPARE(GpuAmount::fraction(1, 8).text(6), std::string("0.125"));
        QCOMPARE(GpuAmount::fraction(1, 7).text(6), std::string("0.142857"));
        QCOMPARE(GpuAmount::fraction(1, 20).text(), std::string("0.05"));
        QCOMPARE((GpuAmount::fraction(1, 7) * 7), GpuAmount::whole(1));
        GpuAmount parsed;
        QVERIFY(GpuAmount::parseDecimal("0.25", parsed));
        QCOMPARE(parsed, GpuAmount::fraction(1, 4));
        QVERIFY(GpuAmount::parseDecimal(".5", parsed));
        QVERIFY(!GpuAmount::parseDecimal("-0.5", parsed));
        QVERIFY(!GpuAmount::parseDecimal("half", parsed));
        QVERIFY(!GpuAmount::parseDecimal(".", parsed));
    }
};

TOPODECK_TEST_APPLESS_MAIN(TestNodeGpus)
#include "test_node_gpus.moc"
