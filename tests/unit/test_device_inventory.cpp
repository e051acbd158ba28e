// How the DeviceInventory keeps device identities (core/model/device_inventory.h): a device is
// interned once per (driver, pool, name), shared by the slices that list it and the claims that
// hold it, and lives while either does; small pools are searched in place and large ones through
// a hash, with the same answers. Checked through the ClusterState's events, against the by-name
// look-ups (allocations(driver, pool, device)) and the per-node figures, as slices and claims
// come and go in every order a watch may deliver them. Devices are shaped like NVIDIA's
// (gpu-<n>, type gpu); the shared slice is a network-attached pool (allNodes), as in
// ../shared/reference/dra.md.
#include "core/model/cluster_state.h"
#include "support/test_program.h"
#include "unit_builders.h"

#include <QtTest>

#include <string>
#include <utility>
#include <vector>

using namespace topodeck;
using namespace topodeck::testing;

namespace {

constexpr std::string_view kDriver = "gpu.nvidia.com";

Device gpuDevice(int index) {
    Device device;
    device.name = "gpu-" + std::to_string(index);
    device.attributes = {{"type", std::string("gpu")}, {"uuid", "GPU-" + std::to_string(index)}};
    return device;
}

ResourceSlice nodeSlice(const std::string& node, int devices, std::int64_t generation = 1,
                        const std::string& suffix = "") {
    ResourceSlice slice;
    slice.name = node + "-gpu.nvidia.com" + suffix;
    slice.driver = std::string(kDriver);
    slice.pool = node;
    slice.poolGeneration = generation;
    slice.nodeName = node;
    for (int i = 0; i < devices; ++i) slice.devices.push_back(gpuDevice(i));
    return slice;
}

ResourceClaim claimOn(const std::string& name, const std::string& pool, const std::vector<int>& devices) {
    ResourceClaim claim;
    claim.nameSpace = "team";
    claim.name = name;
    claim.allocated = true;
    for (const int device : devices)
        claim.devices.push_back({"gpus", std::string(kDriver), pool, "gpu-" + std::to_string(device)});
    return claim;
}

Node draNode(const std::string& name) {
    Node node = makeNode(name, "b1", "r1", 0);
    node.allocatable.erase("nvidia.com/gpu");
    return node;
}

// The judgement of the pool of the node's first slice: whatever the gates, and with
// PartitionableDevices.
std::pair<std::string, std::string> judgement(const ClusterState& state, const std::string& node) {
    const DeviceInventory& inventory = state.devices();
    const std::uint32_t slot = inventory.nodeSliceSlots(*state.findNode(node)).front();
    return {std::string(inventory.poolInvalidReason(slot, false)), std::string(inventory.poolInvalidReason(slot, true))};
}

using Judgement = std::pair<std::string, std::string>;

// Fixture 4 of ../shared/reference/dra.md (the 1.35 split layout): pool `node` in two slices,
// one with the counter set gpu-0-counter-set (memory, memory-slice-0..7), one with gpu-0 drawing
// all of it and a MIG placement drawing memory and memory-slice-0.
std::vector<ResourceSlice> splitPool(const std::string& node) {
    ResourceSlice counters = nodeSlice(node, 0, 1, "-counters");
    counters.poolSliceCount = 2;
    CounterSet set{"gpu-0-counter-set", {{"memory", *Quantity::parse("80Gi")}}};
    for (int i = 0; i < 8; ++i) set.counters.emplace_back("memory-slice-" + std::to_string(i), *Quantity::parse("1"));
    counters.sharedCounters = {set};
    ResourceSlice devices = nodeSlice(node, 1, 1, "-devices");
    devices.poolSliceCount = 2;
    devices.devices[0].consumesCounters = {{"gpu-0-counter-set", set.counters}};
    Device mig;
    mig.name = "gpu-0-mig-1g10gb-19-0";
    mig.attributes = {{"type", std::string("mig")}};
    mig.consumesCounters = {
        {"gpu-0-counter-set", {{"memory", *Quantity::parse("10Gi")}, {"memory-slice-0", *Quantity::parse("1")}}}};
    devices.devices.push_back(mig);
    return {counters, devices};
}

int held(const ClusterState& state, const std::string& pool, int device) {
    return state.devices().allocations(kDriver, pool, "gpu-" + std::to_string(device));
}

const NodeDevices& figures(const ClusterState& state, const std::string& node) {
    return state.devices().node(*state.findNode(node));
}

// Every current slice of the node read by slot agrees with the by-name look-up.
bool slotsAgree(const ClusterState& state, const std::string& node) {
    const DeviceInventory& inventory = state.devices();
    for (const std::uint32_t slot : inventory.nodeSliceSlots(*state.findNode(node))) {
        const ResourceSlice& slice = inventory.sliceAt(slot);
        for (std::size_t i = 0; i < slice.devices.size(); ++i)
            if (inventory.allocations(slot, i) !=
                inventory.allocations(slice.driver, slice.pool, slice.devices[i].name))
                return false;
    }
    return true;
}

} // namespace

class TestDeviceInventory : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void anIdentityOutlivesItsSliceWhileAClaimHoldsIt() {
        ClusterState state;
        (void)state.apply(NodeUpserted{draNode("n1")});
        (void)state.apply(ResourceSliceUpserted{nodeSlice("n1", 4)});
        (void)state.apply(ResourceClaimUpserted{claimOn("c1", "n1", {1})});
        QCOMPARE(held(state, "n1", 1), 1);
        QCOMPARE(figures(state, "n1").allocatedDevices, 1);
        QVERIFY(slotsAgree(state, "n1"));

        // The driver withdraws the slice: nothing is published, the claim still holds gpu-1.
        (void)state.apply(ResourceSliceDeleted{"n1-gpu.nvidia.com"});
        QCOMPARE(figures(state, "n1").devices, 0);
        QCOMPARE(held(state, "n1", 1), 1);
        QCOMPARE(held(state, "n1", 0), 0);

        // Published again, the held device is in use again.
        (void)state.apply(ResourceSliceUpserted{nodeSlice("n1", 4)});
        QCOMPARE(figures(state, "n1").allocatedDevices, 1);
        QVERIFY(slotsAgree(state, "n1"));

        (void)state.apply(ResourceClaimDeleted{"team", "c1"});
        QCOMPARE(held(state, "n1", 1), 0);
        QCOMPARE(figures(state, "n1").allocatedDevices, 0);
        QVERIFY(slotsAgree(state, "n1"));
    }

    void aClaimBeforeAnyOfItsPool() {
        ClusterState state;
        (void)state.apply(ResourceClaimUpserted{claimOn("early", "n1", {0, 2})});
        QCOMPARE(held(state, "n1", 2), 1);
        (void)state.apply(NodeUpserted{draNode("n1")});
        (void)state.apply(ResourceSliceUpserted{nodeSlice("n1", 4)});
        QCOMPARE(figures(state, "n1").allocatedDevices, 2);
        QCOMPARE(figures(state, "n1").gpus, 4);
        QVERIFY(slotsAgree(state, "n1"));
    }

    void aClaimUpdatedMovesItsDevices() {
        ClusterState state;
        (void)state.apply(NodeUpserted{draNode("n1")});
        (void)state.apply(NodeUpserted{draNode("n2")});
        (void)state.apply(ResourceSliceUpserted{nodeSlice("n1", 4)});
        (void)state.apply(ResourceSliceUpserted{nodeSlice("n2", 4)});
        (void)state.apply(ResourceClaimUpserted{claimOn("c", "n1", {0, 1})});
        const AppliedEvent moved = state.apply(ResourceClaimUpserted{claimOn("c", "n2", {3})});
        QCOMPARE(moved.nodeCount, 2); // both nodes' figures changed
        QCOMPARE(held(state, "n1", 0), 0);
        QCOMPARE(held(state, "n2", 3), 1);
        QCOMPARE(figures(state, "n1").allocatedDevices, 0);
        QCOMPARE(figures(state, "n2").allocatedDevices, 1);
        // The same devices again: nothing moves, nothing is released on the way.
        (void)state.apply(ResourceClaimUpserted{claimOn("c", "n2", {3})});
        QCOMPARE(held(state, "n2", 3), 1);
        QVERIFY(slotsAgree(state, "n1") && slotsAgree(state, "n2"));
    }

    void twoClaimsOnOneDeviceBothCount() {
        // Not valid, but a file may say it: the device is free only when both let go.
        ClusterState state;
        (void)state.apply(NodeUpserted{draNode("n1")});
        (void)state.apply(ResourceSliceUpserted{nodeSlice("n1", 2)});
        (void)state.apply(ResourceClaimUpserted{claimOn("a", "n1", {0})});
        (void)state.apply(ResourceClaimUpserted{claimOn("b", "n1", {0})});
        QCOMPARE(held(state, "n1", 0), 2);
        (void)state.apply(ResourceClaimDeleted{"team", "a"});
        QCOMPARE(figures(state, "n1").allocatedDevices, 1);
        (void)state.apply(ResourceClaimDeleted{"team", "b"});
        QCOMPARE(figures(state, "n1").allocatedDevices, 0);
    }

    void largePoolsAnswerAsSmallOnes() {
        // 100 devices in one pool are found through the hash; shrunk to 10 (with two identities
        // kept by claims) the pool is searched in place again. The answers do not change.
        ClusterState state;
        (void)state.apply(NodeUpserted{draNode("n1")});
        (void)state.apply(ResourceSliceUpserted{nodeSlice("n1", 100)});
        (void)state.apply(ResourceClaimUpserted{claimOn("c", "n1", {0, 50, 99})});
        QCOMPARE(figures(state, "n1").devices, 100);
        QCOMPARE(figures(state, "n1").allocatedDevices, 3);
        QCOMPARE(held(state, "n1", 50), 1);
        QCOMPARE(held(state, "n1", 51), 0);
        QVERIFY(slotsAgree(state, "n1"));

        (void)state.apply(ResourceSliceUpserted{nodeSlice("n1", 10)});
        QCOMPARE(figures(state, "n1").devices, 10);
        QCOMPARE(figures(state, "n1").allocatedDevices, 1); // gpu-0; gpu-50 and gpu-99 are gone
        QCOMPARE(held(state, "n1", 99), 1);
        QVERIFY(slotsAgree(state, "n1"));

        (void)state.apply(ResourceClaimDeleted{"team", "c"});
        QCOMPARE(held(state, "n1", 99), 0);
        QCOMPARE(figures(state, "n1").allocatedDevices, 0);
        // Grown again past the bound.
        (void)state.apply(ResourceSliceUpserted{nodeSlice("n1", 64)});
        (void)state.apply(ResourceClaimUpserted{claimOn("d", "n1", {63})});
        QCOMPARE(figures(state, "n1").allocatedDevices, 1);
        QVERIFY(slotsAgree(state, "n1"));
    }

    void manyPoolsKeepTheirDevicesApart() {
        // Every node names its devices gpu-0..7: the pool tells them apart.
        ClusterState state;
        for (int n = 0; n < 300; ++n) {
            const std::string name = "node-" + std::to_string(n);
            (void)state.apply(NodeUpserted{draNode(name)});
            (void)state.apply(ResourceSliceUpserted{nodeSlice(name, 8)});
        }
        (void)state.apply(ResourceClaimUpserted{claimOn("c", "node-150", {3, 4})});
        for (int n = 0; n < 300; ++n) {
            const std::string name = "node-" + std::to_string(n);
            QCOMPARE(figures(state, name).allocatedDevices, n == 150 ? 2 : 0);
        }
        QCOMPARE(held(state, "node-151", 3), 0);
    }

    void onlyTheCurrentGenerationCounts() {
        ClusterState state;
        (void)state.apply(NodeUpserted{draNode("n1")});
        (void)state.apply(ResourceSliceUpserted{nodeSlice("n1", 4, 1, "-old")});
        (void)state.apply(ResourceSliceUpserted{nodeSlice("n1", 2, 2, "-new")});
        const DeviceInventory& inventory = state.devices();
        const auto& slots = inventory.nodeSliceSlots(*state.findNode("n1"));
        QCOMPARE(slots.size(), std::size_t(2));
        int current = 0;
        for (const std::uint32_t slot : slots) {
            QCOMPARE(inventory.isCurrent(slot), inventory.sliceAt(slot).poolGeneration == 2);
            current += inventory.isCurrent(slot);
        }
        QCOMPARE(current, 1);
        QCOMPARE(figures(state, "n1").devices, 2);
        // The newer generation withdrawn: the older one counts again.
        (void)state.apply(ResourceSliceDeleted{"n1-gpu.nvidia.com-new"});
        QCOMPARE(figures(state, "n1").devices, 4);
    }

    void slicesOfNoOneNode() {
        ClusterState state;
        ResourceSlice shared = nodeSlice("fabric", 4);
        shared.nodeName.clear();
        shared.allNodes = true;
        (void)state.apply(ResourceSliceUpserted{shared});
        const DeviceInventory& inventory = state.devices();
        QCOMPARE(inventory.sharedSliceSlots().size(), std::size_t(1));
        (void)state.apply(ResourceClaimUpserted{claimOn("c", "fabric", {2})});
        QCOMPARE(inventory.allocations(inventory.sharedSliceSlots().front(), 2), 1);
        (void)state.apply(ResourceSliceDeleted{shared.name});
        QVERIFY(inventory.sharedSliceSlots().empty());
        QCOMPARE(held(state, "fabric", 2), 1);
    }

    void aDeviceNameTwiceMakesThePoolInvalid() {
        // n1's pool in two slices that both list gpu-1 (the scheduler's buildPool: "duplicate
        // device name"), judged whatever the gates; the node counts gpu-0 .. gpu-3 once each.
        ClusterState state;
        (void)state.apply(NodeUpserted{draNode("n1")});
        ResourceSlice first = nodeSlice("n1", 2, 1, "-a");
        first.poolSliceCount = 2;
        ResourceSlice second = nodeSlice("n1", 4, 1, "-b");
        second.poolSliceCount = 2;
        second.devices.erase(second.devices.begin()); // gpu-1, gpu-2, gpu-3
        (void)state.apply(ResourceSliceUpserted{first});
        // One slice of two: incomplete, being updated, not invalid.
        QCOMPARE(judgement(state, "n1"), Judgement());
        (void)state.apply(ResourceSliceUpserted{second});
        QCOMPARE(judgement(state, "n1"), Judgement("duplicate device name gpu-1", "duplicate device name gpu-1"));
        QCOMPARE(figures(state, "n1").devices, 4);
        QCOMPARE(figures(state, "n1").gpus, 4);
        (void)state.apply(ResourceClaimUpserted{claimOn("c", "n1", {1})});
        QCOMPARE(figures(state, "n1").allocatedDevices, 1);
        // Twice in one slice too.
        ResourceSlice twice = nodeSlice("n2", 2);
        twice.devices.push_back(gpuDevice(0));
        (void)state.apply(NodeUpserted{draNode("n2")});
        (void)state.apply(ResourceSliceUpserted{twice});
        QCOMPARE(judgement(state, "n2").first, std::string("duplicate device name gpu-0"));
        QCOMPARE(figures(state, "n2").devices, 2);
        // The second slice published again without gpu-1: valid again, gpu-0 .. gpu-3 still.
        second.devices.erase(second.devices.begin());
        (void)state.apply(ResourceSliceUpserted{second});
        QCOMPARE(judgement(state, "n1"), Judgement());
        QCOMPARE(figures(state, "n1").devices, 4);
        // A stale generation listing the same names does not count.
        ResourceSlice stale = nodeSlice("n3", 4, 1, "-old");
        (void)state.apply(NodeUpserted{draNode("n3")});
        (void)state.apply(ResourceSliceUpserted{stale});
        (void)state.apply(ResourceSliceUpserted{nodeSlice("n3", 4, 2, "-new")});
        QCOMPARE(judgement(state, "n3"), Judgement());
    }

    void countersMakeAPoolInvalidWithTheirGate() {
        // The scheduler checks counters only with PartitionableDevices: a counter set named twice,
        // a device drawing on a counter set, or a counter, that no slice has.
        ClusterState state;
        (void)state.apply(NodeUpserted{draNode("d1")});
        std::vector<ResourceSlice> pool = splitPool("d1");
        for (const ResourceSlice& slice : pool) (void)state.apply(ResourceSliceUpserted{slice});
        QCOMPARE(judgement(state, "d1"), Judgement());
        const DeviceInventory& inventory = state.devices();
        QVERIFY(inventory.poolHasCounterSets(inventory.nodeSliceSlots(*state.findNode("d1")).front()));

        ResourceSlice devices = pool[1];
        devices.sharedCounters = pool[0].sharedCounters; // the 1.34 layout beside the 1.35 one
        (void)state.apply(ResourceSliceUpserted{devices});
        QCOMPARE(judgement(state, "d1"), Judgement("", "duplicate counter set name gpu-0-counter-set"));

        devices = pool[1];
        devices.devices[1].consumesCounters[0].counterSet = "gpu-1-counter-set";
        (void)state.apply(ResourceSliceUpserted{devices});
        QCOMPARE(judgement(state, "d1"), Judgement("", "counter set gpu-1-counter-set not found"));

        devices = pool[1];
        devices.devices[1].consumesCounters[0].counters[1].first = "memory-slice-8";
        (void)state.apply(ResourceSliceUpserted{devices});
        QCOMPARE(judgement(state, "d1"),
                 Judgement("", "counter memory-slice-8 not found in counter set gpu-0-counter-set"));
        QCOMPARE(figures(state, "d1").gpus, 1);

        // A device name twice comes first, as in the scheduler.
        devices.devices[1].name = "gpu-0";
        (void)state.apply(ResourceSliceUpserted{devices});
        QCOMPARE(judgement(state, "d1"), Judgement("duplicate device name gpu-0", "duplicate device name gpu-0"));
        // Without its counter set's slice the pool is incomplete: not judged.
        (void)state.apply(ResourceSliceDeleted{pool[0].name});
        QCOMPARE(judgement(state, "d1"), Judgement());
        QVERIFY(!inventory.poolHasCounterSets(inventory.nodeSliceSlots(*state.findNode("d1")).front()));
    }

    void aCopyGoesItsOwnWay() {
        // Snapshots copy the state: the copy's slots and identities are its own.
        ClusterState state;
        (void)state.apply(NodeUpserted{draNode("n1")});
        (void)state.apply(ResourceSliceUpserted{nodeSlice("n1", 4)});
        ClusterState copy = state;
        (void)copy.apply(ResourceClaimUpserted{claimOn("c", "n1", {0})});
        (void)copy.apply(ResourceSliceDeleted{"n1-gpu.nvidia.com"});
        (void)copy.apply(ResourceSliceUpserted{nodeSlice("n1", 6)});
        QCOMPARE(figures(state, "n1").devices, 4);
        QCOMPARE(figures(state, "n1").allocatedDevices, 0);
        QCOMPARE(figures(copy, "n1").devices, 6);
        QCOMPARE(figures(copy, "n1").allocatedDevices, 1);
        QVERIFY(slotsAgree(state, "n1") && slotsAgree(copy, "n1"));
    }
};

TOPODECK_TEST_APPLESS_MAIN(TestDeviceInventory)
#include "test_device_inventory.moc"
