// DRA dry-runs: the kube-scheduler's allocator per node (dra_allocator.h) and each engine's treatment
// of gangs that ask by claims (dra_placement.h). Cases follow the structured allocator's test table
// (k8s.io/dynamic-resource-allocation structured/internal/allocatortesting: "simple", "all-devices",
// "too-many-devices", "constraint", "prioritized-list", "already-allocated", "partitionable"...),
// written here as the objects a cluster would hold, and ../shared/reference/dra.md 6 and 8.

#include "core/formats/snapshot_reader.h"
#include "core/model/node_affinity.h"
#include "core/placement/engines/dra_allocator.h"
#include "core/placement/engines/dra_placement.h"
#include "core/placement/reports/plan_query.h"
#include "core/placement/requests/gang_manifest.h"
#include "core/placement/whatif/what_if_sequence.h"
#include "core/topology/topology_index.h"
#include "support/test_program.h"

#include <QtTest>

#include <algorithm>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

using namespace topodeck;

namespace {

const std::string kRack = "example.com/rack";

std::string nodeYaml(const std::string& name, const std::string& rack, int cpus = 64) {
    return "- apiVersion: v1\n  kind: Node\n  metadata: {name: " + name + ", labels: {" + kRack + ": " + rack +
           ", kubernetes.io/hostname: " + name + "}}\n  status:\n    allocatable: {cpu: \"" + std::to_string(cpus) +
           "\", memory: 1Ti, pods: \"110\"}\n    conditions: [{type: Ready, status: \"True\"}]\n";
}

// A node whose GPUs come through the device plugin.
std::string devicePluginNodeYaml(const std::string& name, const std::string& rack, int gpus) {
    std::string text = nodeYaml(name, rack);
    return text.replace(text.find("pods: \"110\""), 11, "pods: \"110\", nvidia.com/gpu: \"" + std::to_string(gpus) + '"');
}

// A DeviceClass serving an extended resource (KEP-5004), as NVIDIA's chart writes gpu.nvidia.com on v1.
std::string extendedResourceClassYaml(const std::string& name, const std::string& resource, const std::string& created,
                                      const std::string& product = "NVIDIA GB200") {
    return "- apiVersion: resource.k8s.io/v1\n  kind: DeviceClass\n  metadata: {name: " + name +
           ", creationTimestamp: \"" + created + "\"}\n  spec:\n    selectors:\n    - cel: {expression: "
           "'device.attributes[\"gpu.nvidia.com\"].productName == \"" + product + "\"'}\n    extendedResourceName: " +
           resource + "\n";
}

bool hasNoteStarting(const PlacementResult& result, const std::string& start) {
    return std::any_of(result.notes.begin(), result.notes.end(),
                       [&](const std::string& note) { return note.starts_with(start); });
}

struct TestGpu {
    std::string name;
    std::string product = "NVIDIA GB200";
    std::string extra; // more attributes, YAML flow entries
};

// A node's one-slice pool up to its device list.
std::string sliceHeaderYaml(const std::string& node, const std::string& driver, const std::string& name, int generation = 1) {
    return "- apiVersion: resource.k8s.io/v1\n  kind: ResourceSlice\n  metadata: {name: " + name + "}\n  spec:\n    driver: " +
           driver + "\n    pool: {name: " + node + ", generation: " + std::to_string(generation) +
           ", resourceSliceCount: 1}\n    nodeName: " + node + "\n    devices:\n";
}

std::string sliceYaml(const std::string& node, const std::vector<TestGpu>& gpus, const std::string& driver = "gpu.nvidia.com",
                      int generation = 1) {
    std::string text = sliceHeaderYaml(node, driver, node + '-' + driver, generation);
    for (const TestGpu& gpu : gpus)
        text += "    - name: " + gpu.name + "\n      attributes: {type: {string: gpu}, productName: {string: \"" +
                gpu.product + "\"}" + (gpu.extra.empty() ? "" : ", " + gpu.extra) +
                "}\n      capacity: {memory: {value: 192Gi}}\n";
    return text;
}

std::vector<TestGpu> gpus(int count, const std::string& product = "NVIDIA GB200") {
    std::vector<TestGpu> out;
    for (int i = 0; i < count; ++i) out.push_back({"gpu-" + std::to_string(i), product, {}});
    return out;
}

const std::string kGpuClass = R"(- apiVersion: resource.k8s.io/v1
  kind: DeviceClass
  metadata: {name: gpu.nvidia.com}
  spec:
    selectors:
    - cel: {expression: "device.driver == 'gpu.nvidia.com' && device.attributes['gpu.nvidia.com'].type == 'gpu'"}
)";

std::string allocatedClaimYaml(const std::string& name, const std::string& node, const std::vector<std::string>& devices) {
    std::string text = "- apiVersion: resource.k8s.io/v1\n  kind: ResourceClaim\n  metadata: {namespace: team, name: " +
                       name + "}\n  spec:\n    devices:\n      requests: [{name: gpus, exactly: {deviceClassName: "
                              "gpu.nvidia.com, count: " +
                       std::to_string(devices.size()) + "}}]\n  status:\n    allocation:\n      devices:\n        results:\n";
    for (const std::string& device : devices)
        text += "        - {request: gpus, driver: gpu.nvidia.com, pool: " + node + ", device: " + device + "}\n";
    text += "      nodeSelector:\n        nodeSelectorTerms:\n        - matchFields: [{key: metadata.name, operator: In, "
            "values: [" +
            node + "]}]\n";
    return text;
}

struct Cluster {
    ClusterState state;
    std::unique_ptr<TopologyIndex> index;
    std::unique_ptr<PlacementCluster> cluster;
};

std::unique_ptr<Cluster> makeCluster(const std::string& items) {
    auto snapshot = readSnapshotText("apiVersion: v1\nkind: List\nitems:\n" + items, "cluster.yaml");
    if (!snapshot) qFatal("%s", snapshot.error().message.c_str());
    auto made = std::make_unique<Cluster>();
    std::move(*snapshot).applyTo(made->state);
    made->index = std::make_unique<TopologyIndex>(TopologyIndex::build(made->state, TopologySpec::fromLabelKeys({kRack})));
    made->cluster = std::make_unique<PlacementCluster>(made->state, *made->index);
    return made;
}

// A claim spec as a ResourceClaimTemplate writes it (its `spec.spec`), in YAML.
ResourceClaimSpec claimSpec(const std::string& devicesYaml) {
    const std::string text = "apiVersion: resource.k8s.io/v1\nkind: ResourceClaimTemplate\nmetadata: {namespace: team, "
                             "name: t}\nspec:\n  spec:\n    devices:\n" +
                             devicesYaml;
    auto snapshot = readSnapshotText(text, "template.yaml");
    if (!snapshot) qFatal("%s", snapshot.error().message.c_str());
    return snapshot->resourceClaimTemplates.at(0).spec;
}

std::vector<PodClaimSpec> perPodClaim(const std::string& devicesYaml) {
    PodClaimSpec claim;
    claim.name = "gpus";
    claim.claimKey = "team/<pod>-gpus";
    claim.spec = claimSpec(devicesYaml);
    return {claim};
}

const std::string kFourGb200 = R"(      requests:
      - name: gpus
        exactly:
          deviceClassName: gpu.nvidia.com
          count: 4
          selectors:
          - cel: {expression: 'device.attributes["gpu.nvidia.com"].productName == "NVIDIA GB200"'}
)";

DraPodAllocator::NodeFit fitOn(const Cluster& made, const std::string& node, const std::string& devicesYaml,
                               std::int32_t limit = 16, DraFeatures features = DraFeatures::kubeScheduler()) {
    auto allocator = DraPodAllocator::prepare(made.state, perPodClaim(devicesYaml), features);
    if (!allocator) qFatal("%s", allocator.error().message.c_str());
    return allocator->podsThatFit(*made.state.findNode(node), limit);
}

// The text with its COUNT placeholder replaced.
std::string withCount(std::string text, int count) {
    return text.replace(text.find("COUNT"), 5, std::to_string(count));
}

// Node n1's five GPUs with the taints NVIDIA's driver sets from its health monitor
// (kubernetes-sigs/dra-driver-nvidia-gpu cmd/gpu-kubelet-plugin: gpu.nvidia.com/xid with the XID,
// gpu.nvidia.com/gpu-lost, gpu.nvidia.com/unmonitored; None when not critical): gpu-0 clean,
// gpu-1 XID 48 NoSchedule, gpu-2 XID 79 NoExecute, gpu-3 lost NoSchedule, gpu-4 unmonitored None.
const std::string kTaintedSlice = R"(- apiVersion: resource.k8s.io/v1
  kind: ResourceSlice
  metadata: {name: n1-gpu.nvidia.com}
  spec:
    driver: gpu.nvidia.com
    pool: {name: n1, generation: 1, resourceSliceCount: 1}
    nodeName: n1
    devices:
    - {name: gpu-0, attributes: {type: {string: gpu}}}
    - name: gpu-1
      attributes: {type: {string: gpu}}
      taints: [{key: gpu.nvidia.com/xid, value: "48", effect: NoSchedule}]
    - name: gpu-2
      attributes: {type: {string: gpu}}
      taints: [{key: gpu.nvidia.com/xid, value: "79", effect: NoExecute}]
    - name: gpu-3
      attributes: {type: {string: gpu}}
      taints: [{key: gpu.nvidia.com/gpu-lost, effect: NoSchedule}]
    - name: gpu-4
      attributes: {type: {string: gpu}}
      taints: [{key: gpu.nvidia.com/unmonitored, effect: None}]
)";

// Pool `pool` (default: the node's name) of `node` in two slices (resourceSliceCount 2) that both
// list gpu-1: gpu-0, gpu-1 and gpu-1 .. gpu-3 (the scheduler's buildPool: "duplicate device name gpu-1").
std::string duplicateDevicePoolYaml(const std::string& node, std::string pool = {}) {
    if (pool.empty()) pool = node;
    std::string text;
    for (const std::string& part : {std::string("a"), std::string("b")}) {
        text += "- apiVersion: resource.k8s.io/v1\n  kind: ResourceSlice\n  metadata: {name: " + pool +
                "-gpu.nvidia.com-" + part + "}\n  spec:\n    driver: gpu.nvidia.com\n    pool: {name: " + pool +
                ", generation: 1, resourceSliceCount: 2}\n    nodeName: " + node + "\n    devices:\n";
        for (int i = part == "a" ? 0 : 1; i <= (part == "a" ? 1 : 3); ++i)
            text += "    - {name: gpu-" + std::to_string(i) + ", attributes: {type: {string: gpu}}}\n";
    }
    return text;
}

// Fixture 4 of dra.md (the 1.35 split layout) on `node`, with `counters` as the counter slice's
// sharedCounters and `consumption` as what the MIG device draws (flow YAML).
std::string splitPoolYaml(const std::string& node, const std::string& counters, const std::string& consumption) {
    return "- apiVersion: resource.k8s.io/v1\n  kind: ResourceSlice\n  metadata: {name: " + node +
           "-counters}\n  spec:\n    driver: gpu.nvidia.com\n    pool: {name: " + node +
           ", generation: 1, resourceSliceCount: 2}\n    nodeName: " + node + "\n    sharedCounters: " + counters +
           "\n- apiVersion: resource.k8s.io/v1\n  kind: ResourceSlice\n  metadata: {name: " + node +
           "-devices}\n  spec:\n    driver: gpu.nvidia.com\n    pool: {name: " + node +
           ", generation: 1, resourceSliceCount: 2}\n    nodeName: " + node +
           "\n    devices:\n    - name: gpu-0-mig-1g10gb-19-0\n      attributes: {type: {string: mig}}\n"
           "      consumesCounters: " + consumption + "\n";
}

const std::string kGpu0CounterSet =
    "[{name: gpu-0-counter-set, counters: {memory: {value: 80Gi}, memory-slice-0: {value: \"1\"}}}]";

const std::string kMigClass = R"(- apiVersion: resource.k8s.io/v1
  kind: DeviceClass
  metadata: {name: mig.nvidia.com}
  spec:
    selectors: [{cel: {expression: "device.attributes['gpu.nvidia.com'].type == 'mig'"}}]
)";

// A gang of `pods` pods asking through the template `four-gb200` (kFourGb200), cpu=1 each.
GangRequest gangOf(std::int32_t pods, const std::string& devicesYaml = kFourGb200) {
    GangRequest gang;
    gang.name = "trainer";
    gang.nameSpace = "team";
    gang.pods = pods;
    gang.perPod.set("cpu", Quantity::fromUnits(1));
    gang.claims.push_back(GangClaim{"gpus", "four-gb200", "", claimSpec(devicesYaml)});
    return gang;
}

// gangOf(pods) as a manifest: the template beside a Job.
std::string jobManifest(int pods) {
    return "apiVersion: resource.k8s.io/v1\nkind: ResourceClaimTemplate\nmetadata: {name: four-gb200, namespace: team}\n"
           "spec:\n  spec:\n    devices:\n" +
           kFourGb200 + "---\napiVersion: batch/v1\nkind: Job\nmetadata: {name: trainer, namespace: team}\nspec:\n" +
           "  parallelism: " + std::to_string(pods) + "\n  completions: " + std::to_string(pods) +
           "\n  template:\n    spec:\n      resourceClaims: [{name: gpus, resourceClaimTemplateName: four-gb200}]\n"
           "      containers: [{name: c, image: x, resources: {requests: {cpu: \"1\"}, claims: [{name: gpus}]}}]\n";
}

} // namespace

class TestDraPlacement : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void exactCountTakesDistinctFreeDevices_data() {
        QTest::addColumn<int>("devices");
        QTest::addColumn<int>("allocated");
        QTest::addColumn<int>("count");
        QTest::addColumn<int>("pods");
        // "simple", "too-many-devices" and "already-allocated" of the allocator's table, and pods
        // one after another taking what the earlier left.
        QTest::newRow("one device, one asked") << 1 << 0 << 1 << 1;
        QTest::newRow("too many asked") << 1 << 0 << 2 << 0;
        QTest::newRow("eight GPUs, pods of four") << 8 << 0 << 4 << 2;
        QTest::newRow("eight GPUs, pods of three: two pods, two left") << 8 << 0 << 3 << 2;
        QTest::newRow("allocated devices excluded") << 8 << 5 << 4 << 0;
        QTest::newRow("allocated devices excluded, room left") << 8 << 4 << 4 << 1;
        QTest::newRow("every device allocated") << 4 << 4 << 1 << 0;
    }
    void exactCountTakesDistinctFreeDevices() {
        QFETCH(int, devices);
        QFETCH(int, allocated);
        QFETCH(int, count);
        QFETCH(int, pods);
        std::vector<std::string> taken;
        for (int i = 0; i < allocated; ++i) taken.push_back("gpu-" + std::to_string(i));
        const auto made = makeCluster(nodeYaml("n1", "r1") + sliceYaml("n1", gpus(devices)) + kGpuClass +
                                      (allocated > 0 ? allocatedClaimYaml("running", "n1", taken) : std::string()));
        const auto fit = fitOn(*made, "n1",
                               "      requests: [{name: gpus, exactly: {deviceClassName: gpu.nvidia.com, count: " +
                                   std::to_string(count) + "}}]\n");
        QCOMPARE(fit.pods, pods);
        QVERIFY(fit.stoppedBy == DraNodeVerdict::CannotAllocate);
    }

    void limitStopsBeforeTheDevicesDo() {
        const auto made = makeCluster(nodeYaml("n1", "r1") + sliceYaml("n1", gpus(8)) + kGpuClass);
        const auto fit = fitOn(*made, "n1", "      requests: [{name: gpus, exactly: {deviceClassName: gpu.nvidia.com}}]\n", 3);
        QCOMPARE(fit.pods, 3);
        QVERIFY(fit.stoppedBy == DraNodeVerdict::Fits);
    }

    void selectorsOfClassAndRequestBothHold() {
        // Two H100s and two GB200s on one node: the request's selector leaves two; a class whose
        // selector names another driver leaves none.
        std::vector<TestGpu> mixed = gpus(2, "NVIDIA H100 80GB HBM3");
        mixed.push_back({"gpu-2", "NVIDIA GB200", {}});
        mixed.push_back({"gpu-3", "NVIDIA GB200", {}});
        const auto made = makeCluster(nodeYaml("n1", "r1") + sliceYaml("n1", mixed) + kGpuClass + R"(- apiVersion: resource.k8s.io/v1
  kind: DeviceClass
  metadata: {name: other.example.com}
  spec:
    selectors: [{cel: {expression: "device.driver == 'other.example.com'"}}]
)");
        const std::string gb200 =
            "      requests: [{name: gpus, exactly: {deviceClassName: gpu.nvidia.com, count: COUNT, selectors: "
            "[{cel: {expression: 'device.attributes[\"gpu.nvidia.com\"].productName == \"NVIDIA GB200\"'}}]}}]\n";
        QCOMPARE(fitOn(*made, "n1", withCount(gb200, 2)).pods, 1);
        QCOMPARE(fitOn(*made, "n1", withCount(gb200, 3)).pods, 0);
        QCOMPARE(fitOn(*made, "n1", "      requests: [{name: gpus, exactly: {deviceClassName: other.example.com}}]\n").pods,
                 0);
    }

    void allModeTakesEveryMatchingDeviceOrNothing() {
        const std::string all = "      requests: [{name: gpus, exactly: {deviceClassName: gpu.nvidia.com, "
                                "allocationMode: All}}]\n";
        const auto free = makeCluster(nodeYaml("n1", "r1") + sliceYaml("n1", gpus(4)) + kGpuClass);
        QCOMPARE(fitOn(*free, "n1", all).pods, 1); // the second pod finds them taken
        const auto oneTaken = makeCluster(nodeYaml("n1", "r1") + sliceYaml("n1", gpus(4)) + kGpuClass +
                                          allocatedClaimYaml("running", "n1", {"gpu-2"}));
        QCOMPARE(fitOn(*oneTaken, "n1", all).pods, 0);
        const auto none = makeCluster(nodeYaml("n1", "r1") + kGpuClass);
        QCOMPARE(fitOn(*none, "n1", all).pods, 0);
        // A pool announcing two slices with one arrived: how many "all" is cannot be known, and the
        // allocator stops with the scheduler's error (allocator test "all-devices-slice-without-devices-
        // incomplete-pool"); ExactCount still takes its devices.
        std::string halfPool = sliceYaml("n1", gpus(4));
        halfPool.replace(halfPool.find("resourceSliceCount: 1"), 21, "resourceSliceCount: 2");
        const auto incomplete = makeCluster(nodeYaml("n1", "r1") + halfPool + kGpuClass);
        const auto refused = fitOn(*incomplete, "n1", all);
        QCOMPARE(refused.pods, 0);
        QVERIFY(refused.stoppedBy == DraNodeVerdict::AllocationError);
        QCOMPARE(refused.detail, std::string("claim team/<pod>-gpus, request gpus: asks for all devices, but resource "
                                             "pool gpu.nvidia.com/n1 is currently being updated"));
        QCOMPARE(fitOn(*incomplete, "n1", "      requests: [{name: gpus, exactly: {deviceClassName: gpu.nvidia.com, "
                                          "count: 2}}]\n").pods,
                 2);
    }

    void firstAvailableTriesAlternativesInOrder() {
        // Eight GPUs: the first alternative (8 of them) serves one pod, then the second (2) three more.
        const std::string prioritized = R"(      requests:
      - name: gpus
        firstAvailable:
        - {name: eight, deviceClassName: gpu.nvidia.com, count: 8}
        - {name: two, deviceClassName: gpu.nvidia.com, count: 2}
)";
        const auto made = makeCluster(nodeYaml("n1", "r1") + sliceYaml("n1", gpus(12)) + kGpuClass);
        QCOMPARE(fitOn(*made, "n1", prioritized).pods, 3);
        // KAI's stable allocator has no prioritized list: a PreFilter error for the whole pod.
        auto stable = DraPodAllocator::prepare(made->state, perPodClaim(prioritized), DraFeatures::stableOnly());
        QVERIFY(!stable);
        QCOMPARE(stable.error().message, std::string("claim team/<pod>-gpus, request gpus: has subrequests, but the "
                                                     "DRAPrioritizedList feature is disabled"));
    }

    void matchAttributeKeepsDevicesAlike() {
        // Four GPUs on two PCIe roots: a pair on one root fits twice; three on one root never.
        std::vector<TestGpu> devices = gpus(4);
        for (int i = 0; i < 4; ++i)
            devices[i].extra = std::string("resource.kubernetes.io/pcieRoot: {string: pci") + (i < 2 ? "0" : "1") + "}";
        devices.push_back({"gpu-4", "NVIDIA GB200", {}}); // no pcieRoot: refused by the constraint
        const auto made = makeCluster(nodeYaml("n1", "r1") + sliceYaml("n1", devices) + kGpuClass);
        const std::string constrained = R"(      requests: [{name: gpus, exactly: {deviceClassName: gpu.nvidia.com, count: COUNT}}]
      constraints: [{requests: [gpus], matchAttribute: resource.kubernetes.io/pcieRoot}]
)";
        QCOMPARE(fitOn(*made, "n1", withCount(constrained, 2)).pods, 2);
        QCOMPARE(fitOn(*made, "n1", withCount(constrained, 3)).pods, 0);
        QCOMPARE(fitOn(*made, "n1", withCount(constrained, 1)).pods, 4);
    }

    void podsTakeDevicesOneAtATimeAsTheSchedulerDoes() {
        // big, small, big, small: each pod wants one GPU of any kind and one big one. In the
        // scheduler's order the first pod takes both bigs (the first device it sees, then the next
        // big), and the second pod finds no big left, though a joint assignment serves two.
        std::vector<TestGpu> devices;
        for (int i = 0; i < 4; ++i)
            devices.push_back({"gpu-" + std::to_string(i), "NVIDIA GB200",
                               std::string("size: {string: ") + (i % 2 == 0 ? "big" : "small") + "}"});
        const auto made = makeCluster(nodeYaml("n1", "r1") + sliceYaml("n1", devices) + kGpuClass);
        const std::string twoRequests = R"(      requests:
      - {name: any, exactly: {deviceClassName: gpu.nvidia.com}}
      - name: big
        exactly:
          deviceClassName: gpu.nvidia.com
          selectors: [{cel: {expression: 'device.attributes["gpu.nvidia.com"].size == "big"'}}]
)";
        QCOMPARE(fitOn(*made, "n1", twoRequests).pods, 1);
    }

    void partitionableDevicesDrawOnSharedCounters() {
        // One GPU's counter set of 8 memory slices; its whole GPU draws 8, each 4g partition 4.
        const std::string slice = R"(- apiVersion: resource.k8s.io/v1
  kind: ResourceSlice
  metadata: {name: n1-gpu}
  spec:
    driver: gpu.nvidia.com
    pool: {name: n1, generation: 1, resourceSliceCount: 1}
    nodeName: n1
    sharedCounters:
    - name: gpu-0-counter-set
      counters: {memory: {value: "8"}}
    devices:
    - name: gpu-0
      attributes: {type: {string: gpu}}
      consumesCounters: [{counterSet: gpu-0-counter-set, counters: {memory: {value: "8"}}}]
    - name: gpu-0-mig-4g-0
      attributes: {type: {string: mig}, profile: {string: 4g.96gb}}
      consumesCounters: [{counterSet: gpu-0-counter-set, counters: {memory: {value: "4"}}}]
    - name: gpu-0-mig-4g-4
      attributes: {type: {string: mig}, profile: {string: 4g.96gb}}
      consumesCounters: [{counterSet: gpu-0-counter-set, counters: {memory: {value: "4"}}}]
    - name: gpu-0-mig-4g-2
      attributes: {type: {string: mig}, profile: {string: 4g.96gb}}
      consumesCounters: [{counterSet: gpu-0-counter-set, counters: {memory: {value: "4"}}}]
)";
        const auto made = makeCluster(nodeYaml("n1", "r1") + slice + kGpuClass + kMigClass);
        const std::string mig = "      requests: [{name: mig, exactly: {deviceClassName: mig.nvidia.com}}]\n";
        const std::string whole = "      requests: [{name: gpu, exactly: {deviceClassName: gpu.nvidia.com}}]\n";
        DraFeatures partitionable;
        partitionable.partitionableDevices = true;
        // Two 4g partitions fill the 8 slices; the third overlaps.
        QCOMPARE(fitOn(*made, "n1", mig, 16, partitionable).pods, 2);
        QCOMPARE(fitOn(*made, "n1", whole, 16, partitionable).pods, 1);
        // Without the gate (alpha in 1.35) devices that consume counters are never allocated.
        QCOMPARE(fitOn(*made, "n1", mig).pods, 0);
        // A partition already allocated leaves room for one more partition, not for the whole GPU.
        const auto oneCut = makeCluster(nodeYaml("n1", "r1") + slice + kGpuClass + kMigClass +
                                        allocatedClaimYaml("running", "n1", {"gpu-0-mig-4g-0"}));
        QCOMPARE(fitOn(*oneCut, "n1", mig, 16, partitionable).pods, 1);
        QCOMPARE(fitOn(*oneCut, "n1", whole, 16, partitionable).pods, 0);
    }

    void staleGenerationsAndOtherNodesDoNotCount() {
        // n1's pool at generation 2 publishes two GPUs; generation 1's slice still lists eight.
        const auto made = makeCluster(nodeYaml("n1", "r1") + nodeYaml("n2", "r1") + kGpuClass +
                                      R"(- apiVersion: resource.k8s.io/v1
  kind: ResourceSlice
  metadata: {name: n1-old}
  spec:
    driver: gpu.nvidia.com
    pool: {name: n1, generation: 1, resourceSliceCount: 1}
    nodeName: n1
    devices: [{name: gpu-0}, {name: gpu-1}, {name: gpu-2}, {name: gpu-3}]
)" + sliceYaml("n1", gpus(2), "gpu.nvidia.com", 2) + sliceYaml("n2", gpus(4)));
        const std::string one = "      requests: [{name: gpus, exactly: {deviceClassName: gpu.nvidia.com}}]\n";
        QCOMPARE(fitOn(*made, "n1", one).pods, 2);
        QCOMPARE(fitOn(*made, "n2", one).pods, 4);
    }

    void preFilterErrorsRefuseThePodEverywhere() {
        const auto made = makeCluster(nodeYaml("n1", "r1") + sliceYaml("n1", gpus(4)) + kGpuClass);
        auto missing = DraPodAllocator::prepare(
            made->state, perPodClaim("      requests: [{name: gpus, exactly: {deviceClassName: gpu.example.com}}]\n"),
            DraFeatures::kubeScheduler());
        QVERIFY(!missing);
        QCOMPARE(missing.error().message,
                 std::string("claim team/<pod>-gpus, request gpus: device class gpu.example.com does not exist"));
        auto badSelector = DraPodAllocator::prepare(
            made->state,
            perPodClaim("      requests: [{name: gpus, exactly: {deviceClassName: gpu.nvidia.com, selectors: "
                        "[{cel: {expression: 'device.attributes[\"x\"].y =='}}]}}]\n"),
            DraFeatures::kubeScheduler());
        QVERIFY(!badSelector);
        QVERIFY2(badSelector.error().message.starts_with("claim team/<pod>-gpus, request gpus: selector #0: "),
                 badSelector.error().message.c_str());
    }

    void selectorRuntimeErrorsStopTheNode() {
        // A selector reading an attribute the devices lack fails at run time, as CEL's "no such key".
        const auto made = makeCluster(nodeYaml("n1", "r1") + sliceYaml("n1", gpus(4)) + kGpuClass);
        const auto fit = fitOn(*made, "n1",
                               "      requests: [{name: gpus, exactly: {deviceClassName: gpu.nvidia.com, selectors: "
                               "[{cel: {expression: 'device.attributes[\"gpu.nvidia.com\"].missing == 1'}}]}}]\n");
        QCOMPARE(fit.pods, 0);
        QVERIFY(fit.stoppedBy == DraNodeVerdict::AllocationError);
        QVERIFY2(fit.detail.find("no such key") != std::string::npos, fit.detail.c_str());
    }

    void searchesAreBounded() {
        // Forty GPUs in pairs by serial: four alike never exist, and the search that proves it
        // is long. With a small budget the node answers as the scheduler's filter timeout does.
        std::vector<TestGpu> devices;
        for (int i = 0; i < 40; ++i)
            devices.push_back({"gpu-" + std::to_string(i), "NVIDIA GB200", "pair: {int: " + std::to_string(i / 2) + "}"});
        const auto made = makeCluster(nodeYaml("n1", "r1") + sliceYaml("n1", devices) + kGpuClass);
        const std::string four = R"(      requests: [{name: gpus, exactly: {deviceClassName: gpu.nvidia.com, count: 4}}]
      constraints: [{matchAttribute: gpu.nvidia.com/pair}]
)";
        auto small = DraPodAllocator::prepare(made->state, perPodClaim(four), DraFeatures::kubeScheduler(), nullptr, 500);
        QVERIFY(small);
        const auto fit = small->podsThatFit(*made->state.findNode("n1"), 1);
        QVERIFY(fit.stoppedBy == DraNodeVerdict::TimedOut);
        QCOMPARE(draVerdictText(fit.stoppedBy), std::string("timed out trying to allocate devices"));
        // With the default budget the same search ends with its answer.
        QVERIFY(fitOn(*made, "n1", four, 1).stoppedBy == DraNodeVerdict::CannotAllocate);
    }

    void countingAnswersAsTheSearchDoes() {
        // One ExactCount request without constraints is counted (free matching devices) instead of
        // searched. The same claim with a constraint every device meets takes the search: on
        // random nodes (devices allocated or not, of two products, some without productName so
        // that the selector fails, and small step budgets so that searches time out) both give
        // the same pods, verdict and error.
        std::mt19937 random(5);
        std::string items = kGpuClass;
        std::vector<std::string> nodes;
        for (int n = 0; n < 60; ++n) {
            const std::string node = "n" + std::to_string(n);
            nodes.push_back(node);
            items += nodeYaml(node, "r1");
            const int devices = static_cast<int>(random() % 13);
            if (devices == 0) continue;
            std::string slice = sliceHeaderYaml(node, "gpu.nvidia.com", node + "-gpu");
            std::vector<std::string> taken;
            for (int d = 0; d < devices; ++d) {
                const std::string name = "gpu-" + std::to_string(d);
                const unsigned kind = random() % 10;
                const std::string product = kind == 0  ? ""
                                            : kind < 4 ? ", productName: {string: \"NVIDIA H100\"}"
                                                       : ", productName: {string: \"NVIDIA GB200\"}";
                slice += "    - name: " + name + "\n      attributes: {type: {string: gpu}" + product + "}\n";
                if (random() % 3 == 0) taken.push_back(name);
            }
            items += slice;
            if (!taken.empty()) items += allocatedClaimYaml("busy-" + node, node, taken);
        }
        const auto made = makeCluster(items);
        int compared = 0;
        std::map<DraNodeVerdict, int> verdicts; // every kind of answer is met
        int severalPods = 0;
        for (int round = 0; round < 40; ++round) {
            const std::string count = std::to_string(1 + random() % 4);
            const std::string request =
                "      requests: [{name: gpus, exactly: {deviceClassName: gpu.nvidia.com, count: " + count +
                ", selectors: [{cel: {expression: 'device.attributes[\"gpu.nvidia.com\"].productName == \"NVIDIA "
                "GB200\"'}}]}}]\n";
            const std::string constrained = request + "      constraints: [{matchAttribute: gpu.nvidia.com/type}]\n";
            const std::int64_t budget = round % 2 == 0 ? DraPodAllocator::kStepBudget : 3 + random() % 40;
            auto counted =
                DraPodAllocator::prepare(made->state, perPodClaim(request), DraFeatures::kubeScheduler(), nullptr, budget);
            auto searched =
                DraPodAllocator::prepare(made->state, perPodClaim(constrained), DraFeatures::kubeScheduler(), nullptr, budget);
            QVERIFY(counted && searched);
            const auto workspace = counted->workspace();
            const auto limit = static_cast<std::int32_t>(1 + random() % 5);
            for (const std::string& node : nodes) {
                const NodeId id = *made->state.findNode(node);
                const auto a = counted->podsThatFit(id, limit, *workspace);
                const auto b = searched->podsThatFit(id, limit);
                const std::string where = node + ", round " + std::to_string(round);
                QVERIFY2(a.pods == b.pods, where.c_str());
                QVERIFY2(a.stoppedBy == b.stoppedBy, where.c_str());
                QVERIFY2(a.detail == b.detail, where.c_str());
                ++compared;
                ++verdicts[b.stoppedBy];
                severalPods += b.pods > 1;
            }
        }
        QCOMPARE(compared, 40 * 60);
        for (const DraNodeVerdict verdict : {DraNodeVerdict::Fits, DraNodeVerdict::CannotAllocate,
                                             DraNodeVerdict::TimedOut, DraNodeVerdict::AllocationError})
            QVERIFY2(verdicts[verdict] > 0, draVerdictText(verdict).c_str());
        QVERIFY(severalPods > 0);
    }

    void tolerationsLetTaintedDevicesServe_data() {
        QTest::addColumn<QString>("tolerations"); // flow YAML, or empty for none
        QTest::addColumn<bool>("gate");
        QTest::addColumn<int>("pods"); // of one GPU each, on kTaintedSlice's five
        // resourceclaim.ToleratesTaint: effect (empty: any), key (empty: any), then Equal's value.
        QTest::newRow("gate off: taints ignored") << QString() << false << 5;
        QTest::newRow("none: only clean and None") << QString() << true << 2;
        QTest::newRow("Exists without key: all") << "[{operator: Exists}]" << true << 5;
        QTest::newRow("Equal with value, any effect") << "[{key: gpu.nvidia.com/xid, operator: Equal, value: \"48\"}]"
                                                      << true << 3;
        QTest::newRow("Equal, operator not written") << "[{key: gpu.nvidia.com/xid, value: \"79\"}]" << true << 3;
        QTest::newRow("Equal, other effect") << "[{key: gpu.nvidia.com/xid, value: \"48\", effect: NoExecute}]" << true
                                             << 2;
        QTest::newRow("Equal without value") << "[{key: gpu.nvidia.com/gpu-lost, operator: Equal}]" << true << 3;
        QTest::newRow("Equal without key") << "[{operator: Equal, value: \"48\"}]" << true << 3;
        QTest::newRow("Exists with key, any effect") << "[{key: gpu.nvidia.com/xid, operator: Exists}]" << true << 4;
        QTest::newRow("Exists with key, NoSchedule")
            << "[{key: gpu.nvidia.com/xid, operator: Exists, effect: NoSchedule}]" << true << 3;
        QTest::newRow("Exists with key, NoExecute")
            << "[{key: gpu.nvidia.com/xid, operator: Exists, effect: NoExecute, tolerationSeconds: 0}]" << true << 3;
        QTest::newRow("Exists, NoSchedule, any key") << "[{operator: Exists, effect: NoSchedule}]" << true << 4;
        QTest::newRow("two tolerations")
            << "[{key: gpu.nvidia.com/xid, operator: Exists}, {key: gpu.nvidia.com/gpu-lost, operator: Exists}]" << true
            << 5;
    }
    void tolerationsLetTaintedDevicesServe() {
        QFETCH(QString, tolerations);
        QFETCH(bool, gate);
        QFETCH(int, pods);
        const auto made = makeCluster(nodeYaml("n1", "r1") + kTaintedSlice + kGpuClass);
        DraFeatures features;
        features.deviceTaints = gate;
        const std::string tolerating =
            tolerations.isEmpty() ? std::string() : ", tolerations: " + tolerations.toStdString();
        // Counted (one ExactCount request), searched (a constraint every device meets), and as
        // one alternative of firstAvailable (searched) after one no node serves.
        const std::string exactly =
            "      requests: [{name: gpus, exactly: {deviceClassName: gpu.nvidia.com" + tolerating + "}}]\n";
        const std::string constrained = exactly + "      constraints: [{matchAttribute: gpu.nvidia.com/type}]\n";
        const std::string alternative = "      requests: [{name: gpus, firstAvailable: [{name: eight, deviceClassName: "
                                        "gpu.nvidia.com, count: 8}, {name: one, deviceClassName: gpu.nvidia.com" +
                                        tolerating + "}]}]\n";
        for (const std::string& devices : {exactly, constrained, alternative}) {
            const auto fit = fitOn(*made, "n1", devices, 16, features);
            QCOMPARE(fit.pods, pods);
            QVERIFY(fit.stoppedBy == DraNodeVerdict::CannotAllocate);
        }
    }

    void eachAlternativeHasItsTolerations() {
        // Three clean devices first, else one of any: the first alternative's lack of tolerations
        // holds for it alone (two devices are clean or None-tainted), so each pod takes one of any.
        const auto made = makeCluster(nodeYaml("n1", "r1") + kTaintedSlice + kGpuClass);
        DraFeatures features;
        features.deviceTaints = true;
        const std::string prioritized = R"(      requests:
      - name: gpus
        firstAvailable:
        - {name: clean, deviceClassName: gpu.nvidia.com, count: 3}
        - {name: any, deviceClassName: gpu.nvidia.com, tolerations: [{operator: Exists}]}
)";
        QCOMPARE(fitOn(*made, "n1", prioritized, 16, features).pods, 5);
        // The other way round, the tolerant alternative takes three, and clean is left nothing.
        const std::string reversed = R"(      requests:
      - name: gpus
        firstAvailable:
        - {name: any, deviceClassName: gpu.nvidia.com, count: 3, tolerations: [{operator: Exists}]}
        - {name: clean, deviceClassName: gpu.nvidia.com}
)";
        QCOMPARE(fitOn(*made, "n1", reversed, 16, features).pods, 2); // gpu-0..2, then gpu-4
        // All takes every matching device; one it may not tolerate means no solution.
        const std::string all = "      requests: [{name: gpus, exactly: {deviceClassName: gpu.nvidia.com, "
                                "allocationMode: All, tolerations: TOLERATIONS}}]\n";
        std::string some = all;
        some.replace(some.find("TOLERATIONS"), 11, "[{key: gpu.nvidia.com/xid, operator: Exists}]");
        QCOMPARE(fitOn(*made, "n1", some, 16, features).pods, 0);
        std::string every = all;
        every.replace(every.find("TOLERATIONS"), 11, "[{operator: Exists}]");
        QCOMPARE(fitOn(*made, "n1", every, 16, features).pods, 1);
    }

    void invalidPoolsGiveNoDevices() {
        // n1: pool n1 lists gpu-1 twice (invalid) beside pool n1-spare's two valid GPUs; n2: only
        // the invalid pool. One-GPU pods: n1's spare pool serves two, then the node says what it
        // met, as the scheduler does when no solution is found and a pool was invalid.
        std::string spare = sliceYaml("n1", gpus(2));
        spare.replace(spare.find("name: n1-gpu.nvidia.com"), 23, "name: n1-spare");
        spare.replace(spare.find("pool: {name: n1,"), 16, "pool: {name: n1-spare,");
        const auto made = makeCluster(nodeYaml("n1", "r1") + nodeYaml("n2", "r1") + duplicateDevicePoolYaml("n1") +
                                      spare + duplicateDevicePoolYaml("n2") + kGpuClass);
        const std::string one = "      requests: [{name: gpus, exactly: {deviceClassName: gpu.nvidia.com}}]\n";
        const std::string constrained = one + "      constraints: [{matchAttribute: gpu.nvidia.com/type}]\n";
        for (const std::string& devices : {one, constrained}) { // counted, searched
            const auto served = fitOn(*made, "n1", devices);
            QCOMPARE(served.pods, 2);
            QVERIFY(served.stoppedBy == DraNodeVerdict::InvalidPools);
            QCOMPARE(draVerdictText(served.stoppedBy), std::string("invalid resource pools were encountered"));
            const auto none = fitOn(*made, "n2", devices);
            QCOMPARE(none.pods, 0);
            QVERIFY(none.stoppedBy == DraNodeVerdict::InvalidPools);
        }
        // The limit reached first: nothing to say.
        QVERIFY(fitOn(*made, "n1", one, 2).stoppedBy == DraNodeVerdict::Fits);
        // All cannot know what "all" is: the allocator's error, naming the pool.
        const auto all = fitOn(*made, "n1", "      requests: [{name: gpus, exactly: {deviceClassName: gpu.nvidia.com, "
                                            "allocationMode: All}}]\n");
        QCOMPARE(all.pods, 0);
        QVERIFY(all.stoppedBy == DraNodeVerdict::AllocationError);
        QCOMPARE(all.detail, std::string("claim team/<pod>-gpus, request gpus: asks for all devices, but resource pool "
                                         "gpu.nvidia.com/n1 is currently invalid"));
        // Every device the node reaches allocated: still the invalid pool's verdict.
        const auto busy = makeCluster(nodeYaml("n2", "r1") + duplicateDevicePoolYaml("n2") + kGpuClass +
                                      allocatedClaimYaml("running", "n2", {"gpu-0", "gpu-1", "gpu-2", "gpu-3"}));
        QVERIFY(fitOn(*busy, "n2", one).stoppedBy == DraNodeVerdict::InvalidPools);
    }

    void countersMakePoolsInvalidWithTheirGate_data() {
        QTest::addColumn<QString>("counters");
        QTest::addColumn<QString>("consumption");
        QTest::addColumn<QString>("reason"); // empty: valid
        const std::string draws = "[{counterSet: gpu-0-counter-set, counters: {memory: {value: 10Gi}, memory-slice-0: "
                                  "{value: \"1\"}}}]";
        QTest::newRow("valid") << QString::fromStdString(kGpu0CounterSet) << QString::fromStdString(draws) << QString();
        QTest::newRow("counter set twice")
            << "[{name: gpu-0-counter-set, counters: {memory: {value: 80Gi}, memory-slice-0: {value: \"1\"}}}, "
               "{name: gpu-0-counter-set, counters: {memory: {value: 80Gi}}}]"
            << QString::fromStdString(draws) << "duplicate counter set name gpu-0-counter-set";
        QTest::newRow("counter set missing")
            << QString::fromStdString(kGpu0CounterSet)
            << "[{counterSet: gpu-1-counter-set, counters: {memory: {value: 10Gi}}}]"
            << "counter set gpu-1-counter-set not found";
        QTest::newRow("counter missing") << QString::fromStdString(kGpu0CounterSet)
                                         << "[{counterSet: gpu-0-counter-set, counters: {memory-slice-7: {value: \"1\"}}}]"
                                         << "counter memory-slice-7 not found in counter set gpu-0-counter-set";
    }
    void countersMakePoolsInvalidWithTheirGate() {
        QFETCH(QString, counters);
        QFETCH(QString, consumption);
        QFETCH(QString, reason);
        // d1's split pool; d2 a plain node whose one GPU is taken.
        const auto made = makeCluster(nodeYaml("d1", "r1") + nodeYaml("d2", "r1") +
                                      splitPoolYaml("d1", counters.toStdString(), consumption.toStdString()) +
                                      sliceYaml("d2", gpus(1)) + kGpuClass + kMigClass +
                                      allocatedClaimYaml("running", "d2", {"gpu-0"}));
        const std::uint32_t slot = made->state.devices().nodeSliceSlots(*made->state.findNode("d1")).front();
        QCOMPARE(QString::fromStdString(std::string(made->state.devices().poolInvalidReason(slot, true))), reason);
        QVERIFY(made->state.devices().poolInvalidReason(slot, false).empty());
        DraFeatures partitionable;
        partitionable.partitionableDevices = true;
        const std::string mig = "      requests: [{name: mig, exactly: {deviceClassName: mig.nvidia.com}}]\n";
        const bool invalid = !reason.isEmpty();
        const auto gated = fitOn(*made, "d1", mig, 16, partitionable);
        QCOMPARE(gated.pods, invalid ? 0 : 1);
        QVERIFY(gated.stoppedBy == (invalid ? DraNodeVerdict::InvalidPools : DraNodeVerdict::CannotAllocate));
        // Without the gate the counters are not judged; the device, drawing on counters, never serves.
        const auto plain = fitOn(*made, "d1", mig);
        QCOMPARE(plain.pods, 0);
        QVERIFY(plain.stoppedBy == DraNodeVerdict::CannotAllocate);
        // With the gate the scheduler reckons a pool with counter sets among every node's pools
        // (incubating GatherPools): d2, with no solution, says an invalid pool was met, and its
        // All stops on d1's pool.
        const std::string one = "      requests: [{name: gpus, exactly: {deviceClassName: gpu.nvidia.com}}]\n";
        QVERIFY(fitOn(*made, "d2", one, 16, partitionable).stoppedBy ==
                (invalid ? DraNodeVerdict::InvalidPools : DraNodeVerdict::CannotAllocate));
        QVERIFY(fitOn(*made, "d2", one).stoppedBy == DraNodeVerdict::CannotAllocate);
        const auto all = fitOn(*made, "d2", "      requests: [{name: gpus, exactly: {deviceClassName: gpu.nvidia.com, "
                                            "allocationMode: All}}]\n", 16, partitionable);
        QCOMPARE(all.detail, invalid ? std::string("claim team/<pod>-gpus, request gpus: asks for all devices, but "
                                                   "resource pool gpu.nvidia.com/d1 is currently invalid")
                                     : std::string());
    }

    void countingAnswersAsTheSearchDoesWithTaintsAndInvalidPools() {
        // As countingAnswersAsTheSearchDoes, with DRADeviceTaints on: devices carry NVIDIA's
        // health taints, requests random tolerations, and some nodes an invalid pool beside theirs.
        std::mt19937 random(11);
        const std::vector<std::string> taints = {
            "", "[{key: gpu.nvidia.com/xid, value: \"48\", effect: NoSchedule}]",
            "[{key: gpu.nvidia.com/xid, value: \"79\", effect: NoExecute}]",
            "[{key: gpu.nvidia.com/gpu-lost, effect: NoSchedule}]", "[{key: gpu.nvidia.com/unmonitored, effect: None}]"};
        const std::vector<std::string> tolerations = {
            "", ", tolerations: [{operator: Exists}]", ", tolerations: [{key: gpu.nvidia.com/xid, value: \"48\"}]",
            ", tolerations: [{key: gpu.nvidia.com/xid, operator: Exists, effect: NoExecute}]",
            ", tolerations: [{operator: Exists, effect: NoSchedule}]"};
        std::string items = kGpuClass;
        std::vector<std::string> nodes;
        for (int n = 0; n < 40; ++n) {
            const std::string node = "n" + std::to_string(n);
            nodes.push_back(node);
            items += nodeYaml(node, "r1");
            if (random() % 5 == 0) items += duplicateDevicePoolYaml(node, node + "-bad");
            const int devices = static_cast<int>(random() % 9);
            if (devices == 0) continue;
            std::string slice = sliceHeaderYaml(node, "gpu.nvidia.com", node + "-gpu");
            std::vector<std::string> taken;
            for (int d = 0; d < devices; ++d) {
                const std::string name = "gpu-" + std::to_string(d);
                const std::string& taint = taints[random() % taints.size()];
                slice += "    - name: " + name + "\n      attributes: {type: {string: gpu}}\n" +
                         (taint.empty() ? "" : "      taints: " + taint + "\n");
                if (random() % 4 == 0) taken.push_back(name);
            }
            items += slice;
            if (!taken.empty()) items += allocatedClaimYaml("busy-" + node, node, taken);
        }
        const auto made = makeCluster(items);
        DraFeatures features;
        features.deviceTaints = true;
        std::map<DraNodeVerdict, int> verdicts;
        for (int round = 0; round < 30; ++round) {
            const std::string request = "      requests: [{name: gpus, exactly: {deviceClassName: gpu.nvidia.com, count: " +
                                        std::to_string(1 + random() % 3) + tolerations[random() % tolerations.size()] +
                                        "}}]\n";
            const std::string constrained = request + "      constraints: [{matchAttribute: gpu.nvidia.com/type}]\n";
            const std::int64_t budget = round % 2 == 0 ? DraPodAllocator::kStepBudget : 3 + random() % 30;
            auto counted = DraPodAllocator::prepare(made->state, perPodClaim(request), features, nullptr, budget);
            auto searched = DraPodAllocator::prepare(made->state, perPodClaim(constrained), features, nullptr, budget);
            QVERIFY(counted && searched);
            const auto limit = static_cast<std::int32_t>(1 + random() % 5);
            for (const std::string& node : nodes) {
                const NodeId id = *made->state.findNode(node);
                const auto a = counted->podsThatFit(id, limit);
                const auto b = searched->podsThatFit(id, limit);
                const std::string where = node + ", round " + std::to_string(round);
                QVERIFY2(a.pods == b.pods, where.c_str());
                QVERIFY2(a.stoppedBy == b.stoppedBy, where.c_str());
                QVERIFY2(a.detail == b.detail, where.c_str());
                ++verdicts[b.stoppedBy];
            }
        }
        for (const DraNodeVerdict verdict : {DraNodeVerdict::Fits, DraNodeVerdict::CannotAllocate,
                                             DraNodeVerdict::TimedOut, DraNodeVerdict::InvalidPools})
            QVERIFY2(verdicts[verdict] > 0, draVerdictText(verdict).c_str());
    }

    void sharedClaimAllocatedElsewhereIsNotAvailable() {
        const auto made = makeCluster(nodeYaml("n1", "r1") + nodeYaml("n2", "r1") + sliceYaml("n1", gpus(4)) +
                                      sliceYaml("n2", gpus(4)) + kGpuClass +
                                      allocatedClaimYaml("shared", "n1", {"gpu-0"}));
        GangRequest gang;
        gang.name = "pair";
        gang.nameSpace = "team";
        gang.pods = 2;
        gang.perPod.set("cpu", Quantity::fromUnits(1));
        gang.claims.push_back(GangClaim{"gpu", "", "shared", std::nullopt});
        auto claims = resolveGangClaims(made->state, "team", gang.claims);
        QVERIFY(claims);
        auto allocator = DraPodAllocator::prepare(made->state, *claims, DraFeatures::kubeScheduler());
        QVERIFY(allocator);
        QCOMPARE(allocator->podsThatFit(*made->state.findNode("n1"), 2).pods, 2);
        const auto elsewhere = allocator->podsThatFit(*made->state.findNode("n2"), 2);
        QCOMPARE(elsewhere.pods, 0);
        QCOMPARE(draVerdictText(elsewhere.stoppedBy), std::string("resourceclaim not available on the node"));
        // Volcano puts both pods on n1, where the claim is.
        const PlacementResult placed = placeGang(volcanoEngine(), *made->cluster, gang, EngineOptions{});
        QVERIFY2(placed.feasible, placed.message.c_str());
        QCOMPARE(placed.nodes, (std::vector<NodePods>{{"n1", 2}}));
        // A claim the cluster does not have is an error naming it.
        gang.claims.front().claimName = "absent";
        auto absent = resolveGangClaims(made->state, "team", gang.claims);
        QVERIFY(!absent);
        QVERIFY2(absent.error().message.starts_with("resourceclaim \"absent\" not found in namespace team"),
                 absent.error().message.c_str());
    }

    void whatIfStepsHoldTheDevicesTheyPlaced_data() {
        QTest::addColumn<QString>("engine");
        QTest::newRow("volcano") << "volcano";
        QTest::newRow("kai") << "kai";
        QTest::newRow("kueue-tas") << "kueue-tas";
    }
    void whatIfStepsHoldTheDevicesTheyPlaced() {
        // Two nodes of four GB200s. Each what-if step places one pod of four through the claim
        // template; the pod's claim is made and allocated on its node, so the second step goes to
        // the other node and the third finds no devices left (Kueue admits it by CPU, and the
        // kube-scheduler cannot bind it).
        QFETCH(QString, engine);
        auto made = makeCluster(nodeYaml("n1", "r1") + nodeYaml("n2", "r1") + sliceYaml("n1", gpus(4)) +
                                sliceYaml("n2", gpus(4)) + kGpuClass);
        const WhatIfStep step{WhatIfStep::Kind::Place, {}, gangOf(1), engine.toStdString()};
        const auto outcomes = applyWhatIfSteps(made->state, *made->index, {step, step, step});
        QVERIFY2(outcomes[0].applied && outcomes[1].applied, (outcomes[0].text + " | " + outcomes[1].text).c_str());
        QCOMPARE(outcomes[0].nodes.size(), std::size_t(1));
        QCOMPARE(outcomes[1].nodes.size(), std::size_t(1));
        QVERIFY(outcomes[0].nodes != outcomes[1].nodes);
        QVERIFY2(!outcomes[2].applied, outcomes[2].text.c_str());
        QVERIFY2(outcomes[2].text.find("does not fit") != std::string::npos, outcomes[2].text.c_str());

        // The first pod's claim, as the scheduler leaves it: made from the template, allocated
        // four devices of its node, usable there only, reserved for the pod the pod names it.
        const DeviceInventory& devices = made->state.devices();
        const NodeId first = outcomes[0].nodes.front();
        const std::string node = made->state.record(first).node->name;
        const auto claim = devices.claims().find("team/trainer-what-if-1-0-gpus");
        QVERIFY(claim != devices.claims().end());
        QVERIFY(claim->second->allocated);
        QCOMPARE(claim->second->devices.size(), std::size_t(4));
        for (const DeviceAllocation& device : claim->second->devices) {
            QCOMPARE(device.pool, node);
            QCOMPARE(device.request, std::string("gpus"));
        }
        QCOMPARE(claim->second->podClaimName, std::string("gpus"));
        QCOMPARE(claim->second->reservedFor, (std::vector<ClaimConsumer>{{"pods", "trainer-what-if-1-0", ""}}));
        QVERIFY(matchesNodeAffinity(claim->second->allocationNodeSelector, *made->state.record(first).node));
        QVERIFY(!matchesNodeAffinity(claim->second->allocationNodeSelector,
                                     *made->state.record(outcomes[1].nodes.front()).node));
        QCOMPARE(devices.node(first).allocatedDevices, 4);
        const Pod* pod = made->state.findPod("team", "trainer-what-if-1-0");
        QVERIFY(pod != nullptr);
        QCOMPARE(pod->resourceClaims, (std::vector<PodResourceClaim>{{"gpus", "", "four-gb200"}}));
        QCOMPARE(pod->claimStatuses,
                 (std::vector<std::pair<std::string, std::string>>{{"gpus", "trainer-what-if-1-0-gpus"}}));
    }

    void dryRunWhatIfTakesDevicesForLaterGangs() {
        // plan --then-place: each engine sees its own what-if, in which the gang placed first
        // holds its devices (the state is not changed). Two nodes of four GB200s; one pod of four
        // placed first leaves room for one more pod of four, not two.
        const auto made = makeCluster(nodeYaml("n1", "r1") + nodeYaml("n2", "r1") + sliceYaml("n1", gpus(4)) +
                                      sliceYaml("n2", gpus(4)) + kGpuClass);
        for (const char* engine : {"volcano", "kai", "kueue-tas"}) {
            PlanQuery query;
            query.engines = {engine};
            query.manifestText = jobManifest(2);
            query.whatIf = {{WhatIfStep::Kind::Place, {}, gangOf(1), {}}};
            auto inputs = preparePlan(made->state, TopologySpec::fromLabelKeys({kRack}), {}, query);
            QVERIFY(inputs);
            auto two = runPlanQuery(**inputs, query);
            QVERIFY2(two, two ? "" : two.error().message.c_str());
            QVERIFY2(!two->results.front().feasible, engine);
            query.manifestText = jobManifest(1);
            auto one = runPlanQuery(**inputs, query);
            QVERIFY(one);
            QVERIFY2(one->results.front().feasible, (engine + std::string(": ") + one->results.front().message).c_str());
            QCOMPARE(made->state.devices().node(*made->state.findNode("n1")).allocatedDevices, 0);
        }
    }

    void whatIfSharedClaimIsAllocatedOnce() {
        // A claim every pod of the gang names, from the manifest: the first pod allocates it, the
        // second finds it allocated on that node and only adds itself to reservedFor.
        auto made = makeCluster(nodeYaml("n1", "r1") + sliceYaml("n1", gpus(4)) + kGpuClass);
        GangRequest gang = gangOf(2);
        gang.claims = {GangClaim{"gpus", "", "shared", claimSpec(kFourGb200)}};
        const auto outcomes =
            applyWhatIfSteps(made->state, *made->index, {{WhatIfStep::Kind::Place, {}, gang, "volcano"}});
        QVERIFY2(outcomes[0].applied, outcomes[0].text.c_str());
        const auto claim = made->state.devices().claims().find("team/shared");
        QVERIFY(claim != made->state.devices().claims().end());
        QCOMPARE(claim->second->devices.size(), std::size_t(4));
        QCOMPARE(claim->second->reservedFor.size(), std::size_t(2));
        QCOMPARE(made->state.devices().node(*made->state.findNode("n1")).allocatedDevices, 4);
        const Pod* pod = made->state.findPod("team", "trainer-what-if-1-1");
        QVERIFY(pod != nullptr);
        QCOMPARE(pod->resourceClaims, (std::vector<PodResourceClaim>{{"gpus", "shared", ""}}));
        QVERIFY(pod->claimStatuses.empty());
    }

    void enginesPlaceByTheDevicesTheirSchedulerSees() {
        // Rack r1: two GB200 nodes with four free GPUs each, one GB200 node with two of them taken.
        // Rack r2: two H100 nodes with plenty of CPU. A gang of pods of four GB200s through a claim
        // template fits twice, on n1 and n2, for Volcano and KAI; a third pod has nowhere to go.
        const auto made = makeCluster(
            nodeYaml("n1", "r1") + nodeYaml("n2", "r1") + nodeYaml("n3", "r1") + nodeYaml("h1", "r2", 256) +
            nodeYaml("h2", "r2", 256) + sliceYaml("n1", gpus(4)) + sliceYaml("n2", gpus(4)) + sliceYaml("n3", gpus(4)) +
            sliceYaml("h1", gpus(8, "NVIDIA H100 80GB HBM3")) + sliceYaml("h2", gpus(8, "NVIDIA H100 80GB HBM3")) +
            kGpuClass + allocatedClaimYaml("running", "n3", {"gpu-1", "gpu-3"}));
        for (const PlacementEngine* engine : {&volcanoEngine(), &kaiEngine()}) {
            const PlacementResult two = placeGang(*engine, *made->cluster, gangOf(2), EngineOptions{});
            QVERIFY2(two.feasible, (engine->name().data() + std::string(": ") + two.message).c_str());
            QCOMPARE(two.nodes, (std::vector<NodePods>{{"n1", 1}, {"n2", 1}}));
            const PlacementResult three = placeGang(*engine, *made->cluster, gangOf(3), EngineOptions{});
            QVERIFY(!three.feasible);
            // Why, per node, in the notes: n3 (two GPUs left) and the H100s serve none.
            QVERIFY(std::find(three.notes.begin(), three.notes.end(),
                              "nodes serving no pod's claims: 3 cannot allocate all claims") != three.notes.end());
        }
        QCOMPARE(placeGang(kaiEngine(), *made->cluster, gangOf(3), EngineOptions{}).message,
                 std::string("PodSchedulingErrors.\nResources were found for 2 pods while 3 are required for gang "
                             "scheduling. Additional pods cannot be scheduled due to: no node in the domain has room "
                             "for another pod."));
        const PlacementResult volcano = placeGang(volcanoEngine(), *made->cluster, gangOf(3), EngineOptions{});
        // The failing task comes after n1 and n2 took theirs: no node serves it.
        QCOMPARE(volcano.message, std::string("0/5 nodes are unavailable: 5 cannot allocate all claims."));

        // Kueue TAS admits by CPU alone and puts pods where the devices cannot serve them: the
        // kube-scheduler leaves them Pending.
        const PlacementResult kueue = placeGang(kueueTasEngine(), *made->cluster, gangOf(3), EngineOptions{});
        QVERIFY(!kueue.feasible);
        QVERIFY2(kueue.message.starts_with("Kueue admits the workload (TAS counts no DRA devices), but kube-scheduler "
                                           "leaves "),
                 kueue.message.c_str());
        // Kueue's DRA quota refuses what it does not support.
        GangRequest prioritized = gangOf(1, R"(      requests:
      - name: gpus
        firstAvailable: [{name: four, deviceClassName: gpu.nvidia.com, count: 4}]
)");
        QCOMPARE(placeGang(kueueTasEngine(), *made->cluster, prioritized, EngineOptions{}).message,
                 std::string("FirstAvailable device selection is not supported"));
        QVERIFY(slurmTreeEngine().draTreatment() == DraTreatment::None);
    }

    void extendedResourcesAreServedByTheirClass() {
        // n1, n2: four GB200s each through DRA, one of n2's taken; p1: eight GPUs through the
        // device plugin. Pods ask nvidia.com/gpu: 4, which gpu.nvidia.com serves (KEP-5004).
        const auto made = makeCluster(nodeYaml("n1", "r1") + nodeYaml("n2", "r1") + devicePluginNodeYaml("p1", "r1", 8) +
                                      sliceYaml("n1", gpus(4)) + sliceYaml("n2", gpus(4)) +
                                      extendedResourceClassYaml("gpu.nvidia.com", "nvidia.com/gpu", "2026-01-01T00:00:00Z") +
                                      allocatedClaimYaml("running", "n2", {"gpu-0"}));
        const auto gangAsking = [](std::int32_t pods, const std::string& resource) {
            GangRequest gang;
            gang.name = "trainer";
            gang.nameSpace = "team";
            gang.pods = pods;
            gang.perPod.set("cpu", Quantity::fromUnits(1));
            gang.perPod.set(resource, Quantity::fromUnits(4));
            return gang;
        };
        const std::string notServed = "nvidia.com/gpu on 2 nodes without its device plugin is DeviceClass gpu.nvidia.com's "
                                      "devices (KEP-5004) only with kube-scheduler's DRAExtendedResource gate";
        // The gate is alpha in 1.34 and 1.35, off: only the device plugin's node serves, two pods.
        const PlacementResult byPlugin = placeGang(volcanoEngine(), *made->cluster, gangAsking(2, "nvidia.com/gpu"), {});
        QVERIFY2(byPlugin.feasible, byPlugin.message.c_str());
        QCOMPARE(byPlugin.nodes, (std::vector<NodePods>{{"p1", 2}}));
        QVERIFY(hasNoteStarting(byPlugin, notServed));
        const PlacementResult three = placeGang(volcanoEngine(), *made->cluster, gangAsking(3, "nvidia.com/gpu"), {});
        QVERIFY(!three.feasible);
        QVERIFY2(three.message.find("Insufficient nvidia.com/gpu") != std::string::npos, three.message.c_str());

        // With the gate, n1 serves one pod through a claim for four of its GPUs; n2 (three left) none.
        EngineOptions gated;
        gated.draFeatures.extendedResource = true;
        const PlacementResult served = placeGang(volcanoEngine(), *made->cluster, gangAsking(3, "nvidia.com/gpu"), gated);
        QVERIFY2(served.feasible, served.message.c_str());
        QCOMPARE(served.nodes, (std::vector<NodePods>{{"n1", 1}, {"p1", 2}}));
        QVERIFY(hasNoteStarting(served, "nvidia.com/gpu on 2 nodes without its device plugin is DeviceClass "
                                        "gpu.nvidia.com's devices (KEP-5004): each pod there gets a claim"));
        const PlacementResult four = placeGang(volcanoEngine(), *made->cluster, gangAsking(4, "nvidia.com/gpu"), gated);
        QVERIFY(!four.feasible);
        QVERIFY(hasNoteStarting(four, "nodes serving no pod's claims: 1 cannot allocate all claims"));

        // KAI's stable allocator and Kueue TAS's node capacity never serve it through DRA.
        QVERIFY(!placeGang(kaiEngine(), *made->cluster, gangAsking(3, "nvidia.com/gpu"), gated).feasible);
        QVERIFY(hasNoteStarting(placeGang(kaiEngine(), *made->cluster, gangAsking(2, "nvidia.com/gpu"), gated),
                                "nvidia.com/gpu on 2 nodes without its device plugin is DeviceClass gpu.nvidia.com's "
                                "devices (KEP-5004), but KAI's allocator serves no extended resource"));
        const PlacementResult kueue = placeGang(kueueTasEngine(), *made->cluster, gangAsking(3, "nvidia.com/gpu"), gated);
        QVERIFY(!kueue.feasible);
        QVERIFY(hasNoteStarting(kueue, "nvidia.com/gpu on 2 nodes without its device plugin is DeviceClass "
                                       "gpu.nvidia.com's devices (KEP-5004), but Kueue TAS counts nvidia.com/gpu"));

        // Every class also serves its implicit name; no device plugin advertises that one.
        const std::string implicitName = "deviceclass.resource.kubernetes.io/gpu.nvidia.com";
        const PlacementResult implicit = placeGang(volcanoEngine(), *made->cluster, gangAsking(1, implicitName), gated);
        QVERIFY2(implicit.feasible, implicit.message.c_str());
        QCOMPARE(implicit.nodes, (std::vector<NodePods>{{"n1", 1}}));
        QVERIFY(!placeGang(volcanoEngine(), *made->cluster, gangAsking(2, implicitName), gated).feasible);
        // A resource no class serves is the engine's own business, without a word on DRA.
        const PlacementResult other = placeGang(volcanoEngine(), *made->cluster, gangAsking(1, "example.com/fpga"), gated);
        QVERIFY(!other.feasible);
        QVERIFY(!hasNoteStarting(other, "example.com/fpga"));
    }

    void newerClassServesAnExtendedResource() {
        // Two classes name example.com/gpu: the newer wins, and of two equally old the lower name.
        const std::string older = extendedResourceClassYaml("a.example.com", "example.com/gpu", "2026-01-01T00:00:00Z");
        const std::string newerH100 = extendedResourceClassYaml("b.example.com", "example.com/gpu", "2026-03-01T00:00:00Z",
                                                                "NVIDIA H100 80GB HBM3");
        const std::string tiedH100 = extendedResourceClassYaml("b.example.com", "example.com/gpu", "2026-01-01T00:00:00Z",
                                                               "NVIDIA H100 80GB HBM3");
        const auto newer = makeCluster(nodeYaml("n1", "r1") + sliceYaml("n1", gpus(4)) + older + newerH100);
        QCOMPARE(newer->state.devices().classForExtendedResource("example.com/gpu")->name, std::string("b.example.com"));
        const auto tied = makeCluster(nodeYaml("n1", "r1") + sliceYaml("n1", gpus(4)) + older + tiedH100);
        QCOMPARE(tied->state.devices().classForExtendedResource("example.com/gpu")->name, std::string("a.example.com"));
        QVERIFY(tied->state.devices().classForExtendedResource("example.com/fpga") == nullptr);
        QCOMPARE(tied->state.devices().classForExtendedResource("deviceclass.resource.kubernetes.io/b.example.com")->name,
                 std::string("b.example.com"));
        // The winner's selectors decide: the node's GB200s serve a.example.com, not the newer H100 class.
        GangRequest gang;
        gang.name = "g";
        gang.nameSpace = "team";
        gang.pods = 1;
        gang.perPod.set("example.com/gpu", Quantity::fromUnits(2));
        EngineOptions gated;
        gated.draFeatures.extendedResource = true;
        QVERIFY(placeGang(volcanoEngine(), *tied->cluster, gang, gated).feasible);
        QVERIFY(!placeGang(volcanoEngine(), *newer->cluster, gang, gated).feasible);
    }

    void manifestCarriesItsClaimTemplate() {
        const std::string manifest = R"(apiVersion: resource.k8s.io/v1beta1
kind: ResourceClaimTemplate
metadata: {name: four-gb200, namespace: team}
spec:
  spec:
    devices:
      requests:
      - name: gpus
        deviceClassName: gpu.nvidia.com
        count: 4
---
apiVersion: batch/v1
kind: Job
metadata: {name: trainer, namespace: team}
spec:
  parallelism: 2
  template:
    spec:
      resourceClaims:
      - {name: gpus, resourceClaimTemplateName: four-gb200}
      - {name: channel, resourceClaimTemplateName: not-in-this-file}
      containers:
      - name: train
        resources:
          requests: {cpu: "1"}
          claims: [{name: gpus}]
)";
        auto gangs = readGangManifests(manifest, "job.yaml");
        QVERIFY2(gangs, gangs ? "" : gangs.error().message.c_str());
        QCOMPARE(gangs->size(), std::size_t(1));
        const GangRequest& gang = gangs->front();
        QCOMPARE(gang.claims.size(), std::size_t(2));
        QVERIFY(gang.claims[0].spec);
        QCOMPARE(gang.claims[0].spec->requests.at(0).exactly->count, std::int64_t(4));
        QVERIFY(!gang.claims[1].spec); // the cluster's, when the dry-run resolves it
        // Not in the cluster either: the dry-run says which template is missing.
        const auto made = makeCluster(nodeYaml("n1", "r1") + sliceYaml("n1", gpus(4)) + kGpuClass);
        const PlacementResult result = placeGang(volcanoEngine(), *made->cluster, gang, EngineOptions{});
        QVERIFY(!result.feasible);
        QVERIFY2(result.message.find("ResourceClaimTemplate team/not-in-this-file not found") != std::string::npos,
                 result.message.c_str());

        // A pod claim naming both or neither source is refused, naming the field.
        auto both = readGangManifests(R"(apiVersion: batch/v1
kind: Job
metadata: {name: j}
spec:
  template:
    spec:
      resourceClaims: [{name: gpus, resourceClaimName: a, resourceClaimTemplateName: b}]
      containers: [{name: c}]
)",
                                      "both.yaml");
        QVERIFY(!both);
        QVERIFY2(both.error().message.find("spec.template.spec.resourceClaims[0]: want exactly one of "
                                           "resourceClaimName and resourceClaimTemplateName") != std::string::npos,
                 both.error().message.c_str());
        // A broken template beside the Job is an error naming its field.
        auto broken = readGangManifests(R"(apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata: {name: t, namespace: team}
spec:
  spec:
    devices:
      requests: [{name: gpus, exactly: {deviceClassName: gpu.nvidia.com, count: many}}]
)",
                                        "broken.yaml");
        QVERIFY(!broken);
        QVERIFY2(broken.error().message.find("count") != std::string::npos, broken.error().message.c_str());
    }
};

TOPODECK_TEST_APPLESS_MAIN(TestDraPlacement)
#include "test_dra_placement.moc"
