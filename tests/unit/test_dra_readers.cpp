// The DRA readers (resource.k8s.io ResourceSlice, ResourceClaim, ResourceClaimTemplate,
// DeviceClass in v1alpha3, v1beta1, v1beta2 and v1), the pods' DRA fields and KAI GPU sharing, on
// kubectl-shaped files in YAML and JSON; their error messages on broken input; and the snapshot
// writer's round trip of all of it.
//
// The data files, tests/data/dra/ (each .json is the .yaml beside it as `kubectl -o json` prints
// it; the .yaml files name their sources in comments):
//  - f1 .. f9: the test-fixture objects of ../shared/reference/dra.md section 11, one List each
//    (f8's ComputeDomain itself: test_compute_domains); f4-partitionable-v1beta1 is fixture 4 as
//    a 1.33 server serves it (`basic`).
//  - nvidia-h100-v1: NVIDIA's k8s-dra-driver-gpu on 8x H100, from NVIDIA/aicr
//    docs/conformance/cncf/evidence/secure-accelerator-access.md (GPU and ComputeDomain devices).
//  - nvidia-v25.3-v1beta1: the driver's v25.3 devices as kubernetes-sigs/dra-driver-nvidia-gpu
//    issue #744 shows them (`basic`, minor, index, pcieBusID), and that issue's template.
//  - nvidia-mig-v1beta2: static MIG (v25.8 names, memorySlice0..7), attribute and capacity names
//    from kubernetes-sigs/dra-driver-nvidia-gpu cmd/gpu-kubelet-plugin/mig.go, deviceinfo.go.
//  - f3-static-mig: v25.12 static MIG as in kubernetes-sigs/dra-driver-nvidia-gpu issue #719.
//  - v1alpha3: a 1.31 server's shape (kubernetes/api resource/v1alpha3/types.go @ 1.31.0), with
//    kubernetes-sigs/dra-example-driver's devices.
//  - node-access, claim-states: kubernetes/api resource/v1/types.go @ 1.35.0.
//  - device-taints: NVIDIA's health taints and requests tolerating them (v1 exactly and
//    firstAvailable, v1beta1 flat), DeviceToleration of resource/v1/types.go @ 1.35.0.
//  - invalid-pools: pools the scheduler holds invalid (dynamic-resource-allocation @ 1.35.0
//    structured/internal/incubating/pools.go).
//  - apiserver-*.json: List kinds as the API server returns them (items without kind).
#include "core/formats/kube_response_reader.h"
#include "core/formats/snapshot_reader.h"
#include "core/formats/snapshot_writer.h"
#include "core/model/cluster_state.h"
#include "support/dra_test_data.h"
#include "support/test_program.h"

#include <QtTest>

#include <algorithm>
#include <optional>
#include <string>
#include <variant>
#include <vector>

using namespace topodeck;
using topodeck::testing::draDataPath;
using topodeck::testing::readDraData;

namespace {

QString qs(std::string_view text) {
    return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}

Quantity q(const char* text) {
    auto quantity = Quantity::parse(text);
    if (!quantity) qFatal("bad quantity in test: %s", quantity.error().message.c_str());
    return *quantity;
}

QStringList warningsOf(const Snapshot& snapshot) {
    QStringList list;
    for (const std::string& warning : snapshot.warnings) list << qs(warning);
    return list;
}

template <class T> const T* named(const std::vector<T>& objects, std::string_view name) {
    for (const T& object : objects)
        if (object.name == name) return &object;
    return nullptr;
}

const Device* device(const ResourceSlice& slice, std::string_view name) {
    return named(slice.devices, name);
}

// The attribute's value, as the model keeps it (names as written).
const DeviceAttributeValue* attribute(const Device& device, std::string_view name) {
    for (const DeviceAttribute& entry : device.attributes)
        if (entry.name == name) return &entry.value;
    return nullptr;
}

QString stringAttribute(const Device& device, std::string_view name) {
    const DeviceAttributeValue* value = attribute(device, name);
    return value && std::holds_alternative<std::string>(*value) ? qs(std::get<std::string>(*value)) : QString();
}

QString versionAttribute(const Device& device, std::string_view name) {
    const DeviceAttributeValue* value = attribute(device, name);
    return value && std::holds_alternative<Version>(*value) ? qs(std::get<Version>(*value).toString()) : QString();
}

std::vector<std::string> capacityNames(const Device& device) {
    std::vector<std::string> names;
    for (const DeviceCapacity& capacity : device.capacity) names.push_back(capacity.name);
    return names;
}

NodeSelectorTerm nodeNameTerm(std::vector<std::string> names) {
    NodeSelectorTerm term;
    term.matchFields.push_back({"metadata.name", NodeSelectorRequirement::Operator::In, std::move(names)});
    return term;
}

const Pod* findPod(const Snapshot& snapshot, std::string_view nameSpace, std::string_view name) {
    for (const Pod& pod : snapshot.pods)
        if (pod.nameSpace == nameSpace && pod.name == name) return &pod;
    return nullptr;
}

// Everything two snapshots of the same objects must agree on.
void compareSnapshots(const Snapshot& a, const Snapshot& b) {
    QVERIFY(a.nodes == b.nodes);
    QVERIFY(a.pods == b.pods);
    QVERIFY(a.resourceSlices == b.resourceSlices);
    QVERIFY(a.resourceClaims == b.resourceClaims);
    QVERIFY(a.resourceClaimTemplates == b.resourceClaimTemplates);
    QVERIFY(a.deviceClasses == b.deviceClasses);
    QVERIFY(a.computeDomains == b.computeDomains);
    QCOMPARE(warningsOf(a), warningsOf(b));
}

const char* const kFixtures[] = {
    "f1-device-plugin-node", "f2-dra-gpu-node",   "f3-static-mig",        "f4-partitionable-split",
    "f4-partitionable-v1beta1", "f5-shared-claim", "f6-template-claim",   "f7-pending-claim",
    "f8-compute-domain",     "f9-kai-sharing",    "nvidia-h100-v1",       "nvidia-v25.3-v1beta1",
    "nvidia-mig-v1beta2",    "v1alpha3",          "node-access",          "claim-states",
    "device-taints",         "invalid-pools",
};

} // namespace

class TestDraReaders : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void yamlAndJsonAgree_data();
    void yamlAndJsonAgree();
    void devicePluginNode();
    void draGpuNode();
    void staticMig();
    void partitionableSplit();
    void partitionableV1beta1();
    void sharedClaim();
    void templateClaim();
    void pendingClaim();
    void computeDomain();
    void kaiSharing();
    void nvidiaV1();
    void nvidiaV1beta1();
    void nvidiaMigV1beta2();
    void v1alpha3();
    void nodeAccess();
    void claimStates();
    void deviceTolerations();
    void apiServerLists();
    void otherVersionsAreSkipped();
    void eventsCarryTheObjects();
    void badInput_data();
    void badInput();
    void writerRoundTrip();
    void writerRoundTripEdges();
};

namespace {

void row(const char* name, const std::string& text, const char* expected) {
    QTest::newRow(name) << QString::fromStdString(text) << QString::fromUtf8(expected);
}

// A v1 slice of node-b-gpu-x with gpu-0, gpu-1 and `devices`, as JSON.
std::string slice(const std::string& devices, const std::string& more = {}) {
    return R"({"apiVersion": "resource.k8s.io/v1", "kind": "ResourceSlice", "metadata": {"name": "node-b-gpu-x"},
        "spec": {"driver": "gpu.nvidia.com", "pool": {"name": "node-b", "generation": 1, "resourceSliceCount": 1},
                 "nodeName": "node-b", "devices": [{"name": "gpu-0"}, {"name": "gpu-1"})" +
           (devices.empty() ? "" : ", " + devices) + "]" + more + "}}";
}

// A ResourceClaim team-a/c of `version` with `spec` and `status`, as JSON.
std::string claim(const std::string& version, const std::string& spec, const std::string& status = "{}") {
    return "{\"apiVersion\": \"resource.k8s.io/" + version +
           R"(", "kind": "ResourceClaim", "metadata": {"name": "c", "namespace": "team-a"}, "spec": )" + spec +
           R"(, "status": )" + status + "}";
}

// Broken slices: each error names the object, the device and the field.
void sliceRows() {
    row("version not semver", slice(R"({"name": "gpu-2", "attributes": {"cudaComputeCapability": {"version": "9.0"}}})"),
        R"(ResourceSlice node-b-gpu-x: spec.devices[2].attributes.cudaComputeCapability.version: invalid semantic version "9.0")");
    row("version leading zero", slice(R"({"name": "gpu-2", "attributes": {"driverVersion": {"version": "570.124.06"}}})"),
        R"(spec.devices[2].attributes.driverVersion.version: invalid semantic version "570.124.06": patch number must not contain leading zeroes)");
    row("two value types", slice(R"({"name": "gpu-2", "attributes": {"index": {"int": 1, "string": "1"}}})"),
        "ResourceSlice node-b-gpu-x: spec.devices[2].attributes.index: holds both int and string; an attribute has "
        "exactly one of int, bool, string and version");
    row("no value type", slice(R"({"name": "gpu-2", "attributes": {"resource.kubernetes.io/pcieRoot": {"float": 1.5}}})"),
        R"(spec.devices[2].attributes["resource.kubernetes.io/pcieRoot"]: needs one of int, bool, string and version)");
    row("int not a number", slice(R"({"name": "gpu-2", "attributes": {"index": {"int": "one"}}})"),
        R"(spec.devices[2].attributes.index.int: expected an integer, got "one")");
    row("bool as a string", slice(R"({"name": "gpu-2", "attributes": {"rdma": {"bool": "yes"}}})"),
        "spec.devices[2].attributes.rdma.bool: expected true or false, got a string");
    row("string as a number", slice(R"({"name": "gpu-2", "attributes": {"type": {"string": 5}}})"),
        "spec.devices[2].attributes.type.string: expected a string, got a number");
    row("attribute not a map", slice(R"({"name": "gpu-2", "attributes": {"type": "gpu"}})"),
        "spec.devices[2].attributes.type: expected a map, got a string");
    row("attributes a list", slice(R"({"name": "gpu-2", "attributes": [{"type": "gpu"}]})"),
        "spec.devices[2].attributes: expected a map, got a list");
    row("attribute twice", slice(R"({"name": "gpu-2", "attributes": {"type": {"string": "gpu"}, "type": {"string": "mig"}}})"),
        "spec.devices[2].attributes.type appears twice");
    row("bad capacity", slice(R"({"name": "gpu-2", "capacity": {"memory": {"value": "80GB"}}})"),
        R"(ResourceSlice node-b-gpu-x: spec.devices[2].capacity.memory.value: invalid quantity "80GB")");
    row("capacity without value", slice(R"({"name": "gpu-2", "capacity": {"memory": {"requestPolicy": {}}}})"),
        "spec.devices[2].capacity.memory.value is missing");
    row("capacity a list", slice(R"({"name": "gpu-2", "capacity": {"memory": [1]}})"),
        "spec.devices[2].capacity.memory: expected a quantity or {value: quantity}, got a list");
    row("device without name", slice(R"({"attributes": {}})"), "spec.devices[2].name is missing");
    row("devices not maps", slice(R"("gpu-2")"), "spec.devices[2]: expected a map, got a string");
    row("counter set unnamed", slice(R"({"name": "gpu-2", "consumesCounters": [{"counters": {}}]})"),
        "spec.devices[2].consumesCounters[0].counterSet is missing");
    row("taint without effect", slice(R"({"name": "gpu-2", "taints": [{"key": "k"}]})"),
        "spec.devices[2].taints[0].effect is missing");
    row("device access without per-device selection", slice(R"({"name": "gpu-2", "nodeName": "node-c"})"),
        "spec.devices[2]: a device says where it is only when spec.perDeviceNodeSelection is true");
    row("device with two node forms", slice(R"({"name": "gpu-2", "nodeName": "n", "allNodes": true})"),
        "spec.devices[2]: nodeName, allNodes, nodeSelector and perDeviceNodeSelection are exclusive");
    row("slice with two node forms", slice("", R"(, "allNodes": true)"),
        "ResourceSlice node-b-gpu-x: spec: nodeName, allNodes, nodeSelector and perDeviceNodeSelection are exclusive");
    row("missing driver",
        R"({"apiVersion": "resource.k8s.io/v1", "kind": "ResourceSlice", "metadata": {"name": "s"}, "spec": {"pool": {"name": "p"}, "devices": []}})",
        "ResourceSlice s: spec.driver is missing");
    row("missing pool", "apiVersion: resource.k8s.io/v1beta1\nkind: ResourceSlice\nmetadata: {name: s}\nspec: {driver: d}\n",
        "ResourceSlice s: spec.pool is missing");
    row("missing pool name",
        "apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: s}\nspec: {driver: d, pool: {generation: 1}}\n",
        "ResourceSlice s: spec.pool.name is missing");
    row("slice count zero",
        "apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: s}\nspec: {driver: d, pool: {name: p, "
        "resourceSliceCount: 0}}\n",
        "ResourceSlice s: spec.pool.resourceSliceCount: must be at least 1, got 0");
    row("generation not a number",
        "apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: s}\nspec: {driver: d, pool: {name: p, "
        "generation: two}}\n",
        R"(ResourceSlice s: spec.pool.generation: expected an integer, got "two")");
    row("slice without spec", "apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: s}\n",
        "ResourceSlice s: spec is missing");
    row("slice without name", "apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nspec: {driver: d, pool: {name: p}}\n",
        "ResourceSlice: metadata.name is missing");
    row("yaml version not semver",
        "apiVersion: resource.k8s.io/v1\nkind: List\nitems:\n- kind: ResourceSlice\n  apiVersion: resource.k8s.io/v1\n"
        "  metadata: {name: s}\n  spec:\n    driver: d\n    pool: {name: p}\n    devices:\n    - name: gpu-0\n"
        "      attributes:\n        cudaDriverVersion: {version: v13}\n",
        R"(input:4:3: ResourceSlice s: spec.devices[0].attributes.cudaDriverVersion.version: invalid semantic version "v13")");
}

// Broken claims, templates and classes.
void claimRows() {
    row("v1beta1 request without class", claim("v1beta1", R"({"devices": {"requests": [{"name": "gpu", "count": 2}]}})"),
        "ResourceClaim team-a/c: spec.devices.requests[0].deviceClassName is missing");
    row("v1 request without a way", claim("v1", R"({"devices": {"requests": [{"name": "gpu"}]}})"),
        "ResourceClaim team-a/c: spec.devices.requests[0]: needs exactly or firstAvailable");
    row("v1 exactly without class", claim("v1", R"({"devices": {"requests": [{"name": "gpu", "exactly": {"count": 1}}]}})"),
        "spec.devices.requests[0].exactly.deviceClassName is missing");
    row("exactly and firstAvailable",
        claim("v1", R"({"devices": {"requests": [{"name": "gpu", "exactly": {"deviceClassName": "a"},
                       "firstAvailable": [{"name": "x", "deviceClassName": "b"}]}]}})"),
        "spec.devices.requests[0]: exactly, firstAvailable and the request's own deviceClassName are exclusive");
    row("request without name", claim("v1", R"({"devices": {"requests": [{"exactly": {"deviceClassName": "a"}}]}})"),
        "spec.devices.requests[0].name is missing");
    row("sub-request without name",
        claim("v1", R"({"devices": {"requests": [{"name": "gpu", "firstAvailable": [{"deviceClassName": "b"}]}]}})"),
        "spec.devices.requests[0].firstAvailable[0].name is missing");
    row("bad allocation mode",
        claim("v1", R"({"devices": {"requests": [{"name": "gpu", "exactly": {"deviceClassName": "a", "allocationMode": "Some"}}]}})"),
        R"(spec.devices.requests[0].exactly.allocationMode: expected ExactCount or All, got "Some")");
    row("count zero", claim("v1beta2", R"({"devices": {"requests": [{"name": "gpu", "exactly": {"deviceClassName": "a", "count": 0}}]}})"),
        "spec.devices.requests[0].exactly.count: must be at least 1, got 0");
    row("count as text", claim("v1", R"({"devices": {"requests": [{"name": "gpu", "exactly": {"deviceClassName": "a", "count": "two"}}]}})"),
        R"(spec.devices.requests[0].exactly.count: expected an integer, got "two")");
    row("selector without expression",
        claim("v1", R"({"devices": {"requests": [{"name": "gpu", "exactly": {"deviceClassName": "a", "selectors": [{"cel": {}}]}}]}})"),
        "spec.devices.requests[0].exactly.selectors[0].cel.expression is missing");
    row("requests a map", claim("v1", R"({"devices": {"requests": {"name": "gpu"}}})"),
        "ResourceClaim team-a/c: spec.devices.requests: expected a list, got a map");
    row("result without pool",
        claim("v1", R"({"devices": {"requests": [{"name": "g", "exactly": {"deviceClassName": "a"}}]}})",
              R"({"allocation": {"devices": {"results": [{"request": "g", "driver": "gpu.nvidia.com", "device": "gpu-0"}]}}})"),
        "ResourceClaim team-a/c: status.allocation.devices.results[0].pool is missing");
    row("result without driver",
        claim("v1", R"({})", R"({"allocation": {"devices": {"results": [{"request": "g", "pool": "p", "device": "gpu-0"}]}}})"),
        "status.allocation.devices.results[0].driver is missing");
    row("adminAccess as text",
        claim("v1", R"({})", R"({"allocation": {"devices": {"results": [{"request": "g", "driver": "d", "pool": "p", "device": "x", "adminAccess": "no"}]}}})"),
        "status.allocation.devices.results[0].adminAccess: expected true or false, got a string");
    row("consumer without name", claim("v1", R"({})", R"({"reservedFor": [{"resource": "pods", "uid": "u"}]})"),
        "ResourceClaim team-a/c: status.reservedFor[0].name is missing");
    row("bad allocation selector",
        claim("v1", R"({})", R"({"allocation": {"nodeSelector": {"nodeSelectorTerms": [{"matchFields": [{"key": "metadata.name", "operator": "Near"}]}]}}})"),
        R"(status.allocation.nodeSelector.nodeSelectorTerms[0].matchFields[0].operator: expected In, NotIn, Exists, DoesNotExist, Gt or Lt, got "Near")");
    row("template spec wrong",
        "apiVersion: resource.k8s.io/v1\nkind: ResourceClaimTemplate\nmetadata: {name: t, namespace: ns}\nspec: {spec: {devices: [1]}}\n",
        "ResourceClaimTemplate ns/t: spec.spec.devices: expected a map, got a list");
    row("toleration operator unknown",
        claim("v1", R"({"devices": {"requests": [{"name": "gpu", "exactly": {"deviceClassName": "a", "tolerations":
                       [{"operator": "Exists"}, {"key": "gpu.nvidia.com/xid", "operator": "In", "value": "48"}]}}]}})"),
        R"(ResourceClaim team-a/c: spec.devices.requests[0].exactly.tolerations[1].operator: expected Equal or Exists, got "In")");
    row("toleration Exists with a value",
        claim("v1", R"({"devices": {"requests": [{"name": "gpu", "firstAvailable": [{"name": "x", "deviceClassName": "b",
                       "tolerations": [{"key": "k", "operator": "Exists", "value": "v"}]}]}]}})"),
        "spec.devices.requests[0].firstAvailable[0].tolerations[0].value: must be empty with operator Exists");
    row("tolerationSeconds as text",
        claim("v1beta1", R"({"devices": {"requests": [{"name": "gpu", "deviceClassName": "a", "tolerations":
                            [{"operator": "Exists", "effect": "NoExecute", "tolerationSeconds": "soon"}]}]}})"),
        R"(ResourceClaim team-a/c: spec.devices.requests[0].tolerations[0].tolerationSeconds: expected an integer, got "soon")");
    row("tolerations a map",
        claim("v1", R"({"devices": {"requests": [{"name": "gpu", "exactly": {"deviceClassName": "a", "tolerations": {"operator": "Exists"}}}]}})"),
        "spec.devices.requests[0].exactly.tolerations: expected a list, got a map");
    row("toleration not a map",
        "apiVersion: resource.k8s.io/v1\nkind: ResourceClaimTemplate\nmetadata: {name: t, namespace: ns}\nspec:\n  spec:\n"
        "    devices: {requests: [{name: g, exactly: {deviceClassName: a, tolerations: [Exists]}}]}\n",
        "ResourceClaimTemplate ns/t: spec.spec.devices.requests[0].exactly.tolerations[0]: expected a map, got a string");
    row("v1beta1 tolerations beside firstAvailable",
        claim("v1beta1", R"({"devices": {"requests": [{"name": "gpu", "tolerations": [{"operator": "Exists"}],
                            "firstAvailable": [{"name": "x", "deviceClassName": "b"}]}]}})"),
        "spec.devices.requests[0]: exactly, firstAvailable and the request's own deviceClassName are exclusive");
    row("class selectors a map",
        "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: gpu}\nspec: {selectors: {cel: x}}\n",
        "DeviceClass gpu: spec.selectors: expected a list, got a map");
}

// Broken pods' DRA fields and GPU-sharing annotations.
void podRows() {
    row("pod claim with both names",
        "kind: Pod\nmetadata: {name: p, namespace: ns}\nspec: {resourceClaims: [{name: g, resourceClaimName: a, "
        "resourceClaimTemplateName: b}]}\n",
        "Pod ns/p: spec.resourceClaims[0]: resourceClaimName and resourceClaimTemplateName are exclusive");
    row("pod claim with neither", "kind: Pod\nmetadata: {name: p, namespace: ns}\nspec: {resourceClaims: [{name: g}]}\n",
        "Pod ns/p: spec.resourceClaims[0]: needs resourceClaimName or resourceClaimTemplateName");
    row("pod claim without name", "kind: Pod\nmetadata: {name: p}\nspec: {resourceClaims: [{resourceClaimName: a}]}\n",
        "Pod p: spec.resourceClaims[0].name is missing");
    row("claim status not a list", R"({"kind": "Pod", "metadata": {"name": "p"}, "status": {"resourceClaimStatuses": {"name": "g"}}})",
        "Pod p: status.resourceClaimStatuses: expected a list, got a map");
    row("gpu devices not a number",
        "kind: Pod\nmetadata: {name: p, namespace: ns, annotations: {gpu-fraction: '0.5', gpu-fraction-num-devices: two}}\n",
        R"(Pod ns/p: metadata.annotations["gpu-fraction-num-devices"]: expected a number of GPUs, got "two")");
}

} // namespace

void TestDraReaders::yamlAndJsonAgree_data() {
    QTest::addColumn<QString>("name");
    for (const char* name : kFixtures) QTest::newRow(name) << QString::fromLatin1(name);
}

void TestDraReaders::yamlAndJsonAgree() {
    QFETCH(QString, name);
    const Snapshot yaml = readDraData(name.toStdString() + ".yaml");
    const Snapshot json = readDraData(name.toStdString() + ".json");
    compareSnapshots(yaml, json);
    QVERIFY(!yaml.nodes.empty() || !yaml.pods.empty() || !yaml.resourceSlices.empty() || !yaml.resourceClaims.empty() ||
            !yaml.resourceClaimTemplates.empty() || !yaml.deviceClasses.empty());
}

// Fixture 1: no DRA objects at all; the device plugin's GPUs are the node's and the pods'.
void TestDraReaders::devicePluginNode() {
    const Snapshot snapshot = readDraData("f1-device-plugin-node.yaml");
    QCOMPARE(snapshot.nodes.size(), std::size_t(1));
    QCOMPARE(snapshot.nodes[0].allocatable.get("nvidia.com/gpu"), q("8"));
    QCOMPARE(snapshot.pods.size(), std::size_t(2));
    QCOMPARE(snapshot.pods[0].requests.get("nvidia.com/gpu") + snapshot.pods[1].requests.get("nvidia.com/gpu"), q("5"));
    for (const Pod& pod : snapshot.pods) {
        QVERIFY(pod.resourceClaims.empty() && pod.claimStatuses.empty() && pod.gpuShare.empty());
    }
    QVERIFY(snapshot.resourceSlices.empty() && snapshot.resourceClaims.empty() && snapshot.deviceClasses.empty());
    QVERIFY(snapshot.warnings.empty());
}

// Fixture 2: a current and a stale slice of one pool, a claim with an empty reservedFor.
void TestDraReaders::draGpuNode() {
    const Snapshot snapshot = readDraData("f2-dra-gpu-node.yaml");
    QVERIFY(snapshot.warnings.empty());
    QCOMPARE(snapshot.resourceSlices.size(), std::size_t(2));
    const ResourceSlice* current = named(snapshot.resourceSlices, "node-b-gpu.nvidia.com-x7k2q");
    const ResourceSlice* stale = named(snapshot.resourceSlices, "node-b-gpu.nvidia.com-stale");
    QVERIFY(current && stale);
    QCOMPARE(qs(current->driver), QStringLiteral("gpu.nvidia.com"));
    QCOMPARE(qs(current->pool), QStringLiteral("node-b"));
    QCOMPARE(current->poolGeneration, std::int64_t(2));
    QCOMPARE(current->poolSliceCount, std::int64_t(1));
    QCOMPARE(qs(current->nodeName), QStringLiteral("node-b"));
    QVERIFY(!current->allNodes && current->nodeSelector.empty() && !current->perDeviceNodeSelection);
    QCOMPARE(qs(current->resourceVersion), QStringLiteral("5120"));
    QCOMPARE(current->devices.size(), std::size_t(4));
    // The stale generation is kept: which slices count is the inventory's business.
    QCOMPARE(stale->poolGeneration, std::int64_t(1));
    QCOMPARE(stale->devices.size(), std::size_t(5));
    QCOMPARE(qs(stale->pool), QStringLiteral("node-b"));

    const Device* gpu1 = device(*current, "gpu-1");
    QVERIFY(gpu1);
    QCOMPARE(gpu1->attributes.size(), std::size_t(4));
    QVERIFY(std::is_sorted(gpu1->attributes.begin(), gpu1->attributes.end(),
                           [](const DeviceAttribute& a, const DeviceAttribute& b) { return a.name < b.name; }));
    QCOMPARE(stringAttribute(*gpu1, "type"), QStringLiteral("gpu"));
    QCOMPARE(stringAttribute(*gpu1, "uuid"), QStringLiteral("GPU-4c1f3e0b-8d2a-4f6e-9b1c-7a5d3e2f1b01"));
    QCOMPARE(stringAttribute(*gpu1, "productName"), QStringLiteral("NVIDIA H100 80GB HBM3"));
    QVERIFY(std::get<Version>(*attribute(*gpu1, "cudaComputeCapability")) == Version(9, 0, 0));
    // Looked up qualified or bare, as CEL names it.
    const DeviceAttributeValue* type = gpu1->attribute("gpu.nvidia.com/type", current->driver);
    QVERIFY(type && std::get<std::string>(*type) == "gpu");
    QCOMPARE(gpu1->capacity.size(), std::size_t(1));
    QCOMPARE(*gpu1->capacityOf("memory", current->driver), q("80Gi"));
    QVERIFY(gpu1->consumesCounters.empty() && gpu1->taints.empty() && gpu1->nodeName.empty());

    QCOMPARE(snapshot.deviceClasses.size(), std::size_t(1));
    const DeviceClass& gpuClass = snapshot.deviceClasses[0];
    QCOMPARE(qs(gpuClass.name), QStringLiteral("gpu.nvidia.com"));
    QCOMPARE(qs(gpuClass.extendedResourceName), QStringLiteral("nvidia.com/gpu"));
    QCOMPARE(gpuClass.selectors.size(), std::size_t(1));
    QCOMPARE(qs(gpuClass.selectors[0]),
             QStringLiteral("device.driver == 'gpu.nvidia.com' && device.attributes['gpu.nvidia.com'].type == 'gpu'"));
    QCOMPARE(qs(gpuClass.resourceVersion), QStringLiteral("310"));
    QCOMPARE(qs(gpuClass.creationTimestamp), QStringLiteral("2026-03-10T03:29:18Z")); // the newer of two classes wins

    QCOMPARE(snapshot.resourceClaims.size(), std::size_t(1));
    const ResourceClaim& claim = snapshot.resourceClaims[0];
    QCOMPARE(qs(claim.key()), QStringLiteral("team-b/held-gpu"));
    QCOMPARE(qs(claim.uid), QStringLiteral("9e1d7c2a-55b1-4f0e-8a3c-1b2d3e4f5a60"));
    QVERIFY(claim.allocated);
    QVERIFY(claim.reservedFor.empty()); // allocated, reserved for nobody: it still holds gpu-1
    QCOMPARE(claim.devices.size(), std::size_t(1));
    QCOMPARE(claim.devices[0], (DeviceAllocation{"gpu", "gpu.nvidia.com", "node-b", "gpu-1", false}));
    QCOMPARE(claim.allocationNodeSelector.size(), std::size_t(1));
    QVERIFY(claim.allocationNodeSelector[0] == nodeNameTerm({"node-b"}));
    QVERIFY(!claim.deleting);
    QCOMPARE(claim.spec.requests.size(), std::size_t(1));
    const DeviceRequest& request = claim.spec.requests[0];
    QCOMPARE(qs(request.name), QStringLiteral("gpu"));
    QVERIFY(request.exactly && request.firstAvailable.empty());
    QCOMPARE(qs(request.exactly->deviceClassName), QStringLiteral("gpu.nvidia.com"));
    QCOMPARE(request.exactly->mode, DeviceSubRequest::Mode::ExactCount);
    QCOMPARE(request.exactly->count, std::int64_t(1));
}

// Fixture 3: a whole GPU and two MIG devices cut from it, as separate devices.
void TestDraReaders::staticMig() {
    const Snapshot snapshot = readDraData("f3-static-mig.yaml");
    QCOMPARE(snapshot.resourceSlices.size(), std::size_t(1));
    const ResourceSlice& slice = snapshot.resourceSlices[0];
    QCOMPARE(slice.devices.size(), std::size_t(3));
    const Device* gpu = device(slice, "gpu-0");
    const Device* mig = device(slice, "gpu-0-mig-1g10gb-19-1");
    QVERIFY(gpu && mig);
    QCOMPARE(stringAttribute(*gpu, "type"), QStringLiteral("gpu"));
    QCOMPARE(stringAttribute(*mig, "type"), QStringLiteral("mig"));
    QCOMPARE(stringAttribute(*mig, "parentUUID"), stringAttribute(*gpu, "uuid"));
    QCOMPARE(stringAttribute(*mig, "profile"), QStringLiteral("1g.10gb"));
    QCOMPARE(stringAttribute(*mig, "resource.kubernetes.io/pcieRoot"), QStringLiteral("pci0000:16"));
    QCOMPARE(stringAttribute(*mig, "resource.kubernetes.io/pciBusID"), QStringLiteral("0000:17:00.0"));
    QCOMPARE(versionAttribute(*mig, "driverVersion"), QStringLiteral("580.95.5"));
    QCOMPARE(capacityNames(*mig), (std::vector<std::string>{"copyEngines", "decoders", "encoders", "jpegEngines",
                                                           "memory", "memorySlice1", "multiprocessors", "ofaEngines"}));
    QCOMPARE(*mig->capacityOf("memory", slice.driver), q("9728Mi"));
    QCOMPARE(*mig->capacityOf("multiprocessors", slice.driver), q("14"));
    QVERIFY(mig->consumesCounters.empty()); // static MIG: nothing links it to its parent but parentUUID

    QCOMPARE(snapshot.resourceClaims.size(), std::size_t(1));
    const ResourceClaim& claim = snapshot.resourceClaims[0];
    QCOMPARE(claim.devices.size(), std::size_t(1));
    QCOMPARE(qs(claim.devices[0].device), QStringLiteral("gpu-0-mig-1g10gb-19-1"));
    QCOMPARE(claim.reservedFor, (std::vector<ClaimConsumer>{{"pods", "infer-0", "6c1e2d3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f"}}));
    QCOMPARE(claim.spec.requests[0].exactly->selectors,
             std::vector<std::string>{"device.attributes['gpu.nvidia.com'].profile == '1g.10gb'"});
}

// Fixture 4, 1.35 split layout: one slice holds only the counter set, the other the devices.
void TestDraReaders::partitionableSplit() {
    const Snapshot snapshot = readDraData("f4-partitionable-split.yaml");
    QCOMPARE(snapshot.resourceSlices.size(), std::size_t(2));
    const ResourceSlice* counters = named(snapshot.resourceSlices, "node-d-gpu.nvidia.com-counters");
    const ResourceSlice* devices = named(snapshot.resourceSlices, "node-d-gpu.nvidia.com-devices");
    QVERIFY(counters && devices);
    QVERIFY(counters->devices.empty());
    QCOMPARE(counters->poolSliceCount, std::int64_t(2));
    QCOMPARE(devices->poolSliceCount, std::int64_t(2));
    QCOMPARE(counters->sharedCounters.size(), std::size_t(1));
    const CounterSet& set = counters->sharedCounters[0];
    QCOMPARE(qs(set.name), QStringLiteral("gpu-0-counter-set"));
    QCOMPARE(set.counters.size(), std::size_t(9));
    QCOMPARE(qs(set.counters[0].first), QStringLiteral("memory"));
    QCOMPARE(set.counters[0].second, q("80Gi"));
    QCOMPARE(qs(set.counters[8].first), QStringLiteral("memory-slice-7"));
    QCOMPARE(set.counters[8].second, q("1"));
    QVERIFY(devices->sharedCounters.empty());

    const Device* gpu = device(*devices, "gpu-0");
    const Device* mig = device(*devices, "gpu-0-mig-1g10gb-19-0");
    QVERIFY(gpu && mig);
    QCOMPARE(gpu->consumesCounters.size(), std::size_t(1));
    QCOMPARE(qs(gpu->consumesCounters[0].counterSet), QStringLiteral("gpu-0-counter-set"));
    QVERIFY(gpu->consumesCounters[0].counters == set.counters); // the whole GPU takes everything
    QCOMPARE(mig->consumesCounters.size(), std::size_t(1));
    QVERIFY(mig->consumesCounters[0].counters ==
            (NamedQuantities{{"memory", q("10Gi")}, {"memory-slice-0", q("1")}}));
    QCOMPARE(snapshot.resourceClaims.size(), std::size_t(1));
    QCOMPARE(qs(snapshot.resourceClaims[0].devices[0].device), QStringLiteral("gpu-0-mig-1g10gb-19-0"));
}

// Fixture 4 as v1beta1 serves it (1.33): `basic`, the counter set in the devices' slice. The
// devices and the counter set read exactly as v1's.
void TestDraReaders::partitionableV1beta1() {
    const Snapshot v1 = readDraData("f4-partitionable-split.yaml");
    const Snapshot beta = readDraData("f4-partitionable-v1beta1.yaml");
    QCOMPARE(beta.resourceSlices.size(), std::size_t(1));
    const ResourceSlice& combined = beta.resourceSlices[0];
    const ResourceSlice* devices = named(v1.resourceSlices, "node-d-gpu.nvidia.com-devices");
    const ResourceSlice* counters = named(v1.resourceSlices, "node-d-gpu.nvidia.com-counters");
    QVERIFY(devices && counters);
    QVERIFY(combined.devices == devices->devices);
    QVERIFY(combined.sharedCounters == counters->sharedCounters);
    QCOMPARE(qs(combined.nodeName), QStringLiteral("node-d"));
    QVERIFY(!combined.allNodes); // a plain `allNodes: false`, as v1beta1 writes it
    QCOMPARE(combined.poolSliceCount, std::int64_t(1));
}

// Fixture 5: one claim, two pods naming it, both in its reservedFor.
void TestDraReaders::sharedClaim() {
    const Snapshot snapshot = readDraData("f5-shared-claim.yaml");
    QCOMPARE(snapshot.resourceClaims.size(), std::size_t(1));
    const ResourceClaim& claim = snapshot.resourceClaims[0];
    QCOMPARE(qs(claim.key()), QStringLiteral("team-e/shared-gpu"));
    QCOMPARE(claim.devices, (std::vector<DeviceAllocation>{{"g", "gpu.nvidia.com", "node-b", "gpu-2", false}}));
    QCOMPARE(claim.reservedFor.size(), std::size_t(2));
    QCOMPARE(qs(claim.reservedFor[1].name), QStringLiteral("pair-1"));
    QCOMPARE(qs(claim.reservedFor[1].resource), QStringLiteral("pods"));
    QVERIFY(claim.allocationNodeSelector == std::vector<NodeSelectorTerm>{nodeNameTerm({"node-b"})});
    for (const char* name : {"pair-0", "pair-1", "pair-2"}) {
        const Pod* pod = findPod(snapshot, "team-e", name);
        QVERIFY2(pod, name);
        QCOMPARE(pod->resourceClaims, (std::vector<PodResourceClaim>{{"g", "shared-gpu", ""}}));
        QVERIFY(pod->claimStatuses.empty());
    }
    QCOMPARE(findPod(snapshot, "team-e", "pair-2")->phase, PodPhase::Pending);
}

// Fixture 6: a template, the claim made from it, the pod's status naming that claim.
void TestDraReaders::templateClaim() {
    const Snapshot snapshot = readDraData("f6-template-claim.yaml");
    QCOMPARE(snapshot.resourceClaimTemplates.size(), std::size_t(1));
    const ResourceClaimTemplate& rct = snapshot.resourceClaimTemplates[0];
    QCOMPARE(qs(rct.key()), QStringLiteral("team-f/two-gpus"));
    QCOMPARE(qs(rct.resourceVersion), QStringLiteral("880"));
    QCOMPARE(rct.spec.requests.size(), std::size_t(2));
    QCOMPARE(rct.spec.requests[0].exactly->count, std::int64_t(2));
    QCOMPARE(rct.spec.requests[1].exactly->mode, DeviceSubRequest::Mode::ExactCount); // the default
    QCOMPARE(rct.spec.constraints.size(), std::size_t(1));
    QCOMPARE(rct.spec.constraints[0],
             (DeviceConstraint{{"gpu", "peer"}, "resource.kubernetes.io/pcieRoot"}));

    QCOMPARE(snapshot.resourceClaims.size(), std::size_t(1));
    const ResourceClaim& claim = snapshot.resourceClaims[0];
    QCOMPARE(qs(claim.name), QStringLiteral("p1-gpu-x7k2q"));
    QCOMPARE(qs(claim.podClaimName), QStringLiteral("gpu"));
    QVERIFY(claim.spec == rct.spec);
    QCOMPARE(claim.devices.size(), std::size_t(3));
    QCOMPARE(qs(claim.devices[2].request), QStringLiteral("peer"));

    const Pod* pod = findPod(snapshot, "team-f", "p1");
    QVERIFY(pod);
    QCOMPARE(pod->resourceClaims, (std::vector<PodResourceClaim>{{"gpu", "", "two-gpus"}}));
    QCOMPARE(pod->claimStatuses, (std::vector<std::pair<std::string, std::string>>{{"gpu", "p1-gpu-x7k2q"}}));
}

// Fixture 7: firstAvailable, no status; a null claim name; the extended-resource claim.
void TestDraReaders::pendingClaim() {
    const Snapshot snapshot = readDraData("f7-pending-claim.yaml");
    QCOMPARE(snapshot.resourceClaims.size(), std::size_t(1));
    const ResourceClaim& claim = snapshot.resourceClaims[0];
    QVERIFY(!claim.allocated && claim.devices.empty() && claim.reservedFor.empty());
    QCOMPARE(claim.spec.requests.size(), std::size_t(1));
    const DeviceRequest& request = claim.spec.requests[0];
    QVERIFY(!request.exactly);
    QCOMPARE(request.firstAvailable.size(), std::size_t(2));
    QCOMPARE(qs(request.firstAvailable[0].name), QStringLiteral("h100"));
    QCOMPARE(request.firstAvailable[0].selectors,
             std::vector<std::string>{"device.attributes['gpu.nvidia.com'].productName.contains('H100')"});
    QCOMPARE(qs(request.firstAvailable[1].name), QStringLiteral("any"));
    QCOMPARE(qs(request.firstAvailable[1].deviceClassName), QStringLiteral("gpu.nvidia.com"));
    QCOMPARE(request.firstAvailable[1].count, std::int64_t(1));

    const Pod* waiting = findPod(snapshot, "team-g", "waiting-0");
    QVERIFY(waiting && waiting->phase == PodPhase::Pending && waiting->nodeName.empty());
    const Pod* ext = findPod(snapshot, "team-g", "ext-0");
    QVERIFY(ext);
    QCOMPARE(qs(ext->extendedResourceClaim), QStringLiteral("ext-0-extended-resources-4xz9k"));
    QCOMPARE(ext->claimStatuses, (std::vector<std::pair<std::string, std::string>>{{"optional", ""}}));
    QCOMPARE(ext->requests.get("nvidia.com/gpu"), q("1"));
}

// Fixture 8: the compute-domain devices (the ComputeDomain itself: test_compute_domains).
void TestDraReaders::computeDomain() {
    const Snapshot snapshot = readDraData("f8-compute-domain.yaml");
    QVERIFY(snapshot.warnings.empty());
    QCOMPARE(snapshot.computeDomains.size(), std::size_t(1));
    QCOMPARE(snapshot.nodes.size(), std::size_t(3));
    QCOMPARE(snapshot.resourceSlices.size(), std::size_t(3));
    for (const ResourceSlice& slice : snapshot.resourceSlices) {
        QCOMPARE(qs(slice.driver), QStringLiteral("compute-domain.nvidia.com"));
        QCOMPARE(slice.pool, slice.nodeName);
        QCOMPARE(slice.devices.size(), std::size_t(2));
        const Device* channel = device(slice, "channel-0");
        QVERIFY(channel);
        QCOMPARE(stringAttribute(*channel, "type"), QStringLiteral("channel"));
        QVERIFY(std::get<std::int64_t>(*attribute(*channel, "id")) == 0);
        QCOMPARE(stringAttribute(*device(slice, "daemon-0"), "type"), QStringLiteral("daemon"));
    }
    QCOMPARE(snapshot.resourceClaimTemplates.size(), std::size_t(1));
    QCOMPARE(qs(snapshot.resourceClaimTemplates[0].spec.requests[0].exactly->deviceClassName),
             QStringLiteral("compute-domain-default-channel.nvidia.com"));
    QCOMPARE(snapshot.deviceClasses.size(), std::size_t(1));
}

// Fixture 9: KAI's GPU sharing in labels and annotations.
void TestDraReaders::kaiSharing() {
    const Snapshot snapshot = readDraData("f9-kai-sharing.yaml");
    QVERIFY(snapshot.warnings.empty());
    const Pod* reservation = findPod(snapshot, "kai-resource-reservation", "gpu-reservation-node-k-8xq2c");
    QVERIFY(reservation);
    QVERIFY(reservation->gpuShare.reservation);
    QCOMPARE(qs(reservation->gpuShare.group), QStringLiteral("g1"));
    QCOMPARE(reservation->requests.get("nvidia.com/gpu"), q("1"));

    const Pod* half = findPod(snapshot, "team-k", "notebook-1");
    const Pod* quarter = findPod(snapshot, "team-k", "notebook-2");
    QVERIFY(half && quarter);
    QCOMPARE(half->gpuShare, (PodGpuShare{"g1", "0.5", "", 0, false, {}}));
    QCOMPARE(quarter->gpuShare, (PodGpuShare{"g1", "0.25", "", 0, false, {}}));
    QCOMPARE(qs(half->workload), QStringLiteral("pg-notebook-1")); // the gang is read as before
    QVERIFY(!half->requests.contains("nvidia.com/gpu"));

    const Pod* memory = findPod(snapshot, "team-k", "small-infer");
    QVERIFY(memory);
    QCOMPARE(memory->gpuShare, (PodGpuShare{"g4", "", "2000", 0, false, {}}));

    // Only runai-gpu-group/<group> labels: the first names the group, the others follow, sorted.
    const Pod* multi = findPod(snapshot, "team-k", "multigpu-pod");
    QVERIFY(multi);
    QCOMPARE(multi->gpuShare, (PodGpuShare{"gpu-group-0", "0.5", "", 3, false, {"gpu-group-1", "gpu-group-2"}}));
}

// NVIDIA's driver on 8x H100, v1: every attribute it publishes, of every type.
void TestDraReaders::nvidiaV1() {
    const Snapshot snapshot = readDraData("nvidia-h100-v1.yaml");
    QCOMPARE(snapshot.resourceSlices.size(), std::size_t(2));
    const ResourceSlice* gpus = named(snapshot.resourceSlices, "gpu-node-1-gpu.nvidia.com-7cbz2");
    QVERIFY(gpus);
    QCOMPARE(gpus->devices.size(), std::size_t(8));
    const Device& gpu = gpus->devices[7];
    QCOMPARE(qs(gpu.name), QStringLiteral("gpu-7"));
    QCOMPARE(gpu.attributes.size(), std::size_t(11));
    QCOMPARE(stringAttribute(gpu, "addressingMode"), QStringLiteral("HMM"));
    QCOMPARE(stringAttribute(gpu, "architecture"), QStringLiteral("Hopper"));
    QCOMPARE(stringAttribute(gpu, "brand"), QStringLiteral("Nvidia"));
    QCOMPARE(versionAttribute(gpu, "cudaComputeCapability"), QStringLiteral("9.0.0"));
    QCOMPARE(versionAttribute(gpu, "cudaDriverVersion"), QStringLiteral("13.0.0"));
    QCOMPARE(versionAttribute(gpu, "driverVersion"), QStringLiteral("580.105.8"));
    QCOMPARE(stringAttribute(gpu, "resource.kubernetes.io/pciBusID"), QStringLiteral("0000:ca:00.0"));
    QCOMPARE(stringAttribute(gpu, "resource.kubernetes.io/pcieRoot"), QStringLiteral("pci0000:bb"));
    QVERIFY(stringAttribute(gpu, "uuid").startsWith(QStringLiteral("GPU-")));
    QCOMPARE(*gpu.capacityOf("memory", gpus->driver), q("81559Mi"));
    const ResourceSlice* domain = named(snapshot.resourceSlices, "gpu-node-1-compute-domain.nvidia.com-q9xqc");
    QVERIFY(domain);
    QCOMPARE(qs(domain->devices[0].name), QStringLiteral("daemon-0"));
    QCOMPARE(qs(domain->resourceVersion), QStringLiteral("1169500"));
}

// NVIDIA's driver v25.3 through v1beta1: `basic` unwrapped, flat requests into `exactly`.
void TestDraReaders::nvidiaV1beta1() {
    const Snapshot snapshot = readDraData("nvidia-v25.3-v1beta1.yaml");
    QCOMPARE(snapshot.resourceSlices.size(), std::size_t(1));
    const ResourceSlice& slice = snapshot.resourceSlices[0];
    QCOMPARE(slice.poolGeneration, std::int64_t(0));
    const Device* gpu = device(slice, "gpu-1");
    QVERIFY(gpu);
    QCOMPARE(gpu->attributes.size(), std::size_t(12));
    QVERIFY(std::get<std::int64_t>(*attribute(*gpu, "index")) == 1);
    QVERIFY(std::get<std::int64_t>(*attribute(*gpu, "minor")) == 1);
    QCOMPARE(stringAttribute(*gpu, "pcieBusID"), QStringLiteral("0009:06:00.0"));
    QCOMPARE(versionAttribute(*gpu, "cudaComputeCapability"), QStringLiteral("10.0.0"));
    QCOMPARE(*gpu->capacityOf("memory", slice.driver), q("189471Mi"));

    QCOMPARE(snapshot.resourceClaimTemplates.size(), std::size_t(1));
    const DeviceRequest& flat = snapshot.resourceClaimTemplates[0].spec.requests[0];
    QVERIFY(flat.exactly && flat.firstAvailable.empty());
    QCOMPARE(qs(flat.exactly->deviceClassName), QStringLiteral("gpu.nvidia.com"));
    QCOMPARE(flat.exactly->selectors.size(), std::size_t(1));
    QVERIFY(flat.exactly->selectors[0].starts_with("device.attributes['gpu.nvidia.com'].productName.lowerAscii()"));

    QCOMPARE(snapshot.resourceClaims.size(), std::size_t(2));
    const ResourceClaim* either = named(snapshot.resourceClaims, "a-or-any");
    QVERIFY(either);
    const DeviceRequest& alternatives = either->spec.requests[0];
    QVERIFY(!alternatives.exactly);
    QCOMPARE(alternatives.firstAvailable.size(), std::size_t(2));
    QCOMPARE(alternatives.firstAvailable[1].mode, DeviceSubRequest::Mode::All);
    QCOMPARE(either->devices, (std::vector<DeviceAllocation>{{"gpu/gb200", "gpu.nvidia.com", "gb200-node-3", "gpu-1", false}}));
    const ResourceClaim* pair = named(snapshot.resourceClaims, "pair");
    QVERIFY(pair && pair->spec.requests[0].exactly);
    QCOMPARE(pair->spec.requests[0].exactly->count, std::int64_t(2));
    QVERIFY(!pair->spec.requests[0].exactly->adminAccess);
}

// Static MIG through v1beta2: a 7g instance with all eight memory slices.
void TestDraReaders::nvidiaMigV1beta2() {
    const Snapshot snapshot = readDraData("nvidia-mig-v1beta2.yaml");
    const ResourceSlice& slice = snapshot.resourceSlices.at(0);
    const Device* mig = device(slice, "gpu-1-mig-0-0-8");
    QVERIFY(mig);
    QCOMPARE(capacityNames(*mig),
             (std::vector<std::string>{"copyEngines", "jpegEngines", "memory", "memorySlice0", "memorySlice1",
                                       "memorySlice2", "memorySlice3", "memorySlice4", "memorySlice5",
                                       "memorySlice6", "memorySlice7", "multiprocessors"}));
    QCOMPARE(stringAttribute(*mig, "parentUUID"), stringAttribute(*device(slice, "gpu-1"), "uuid"));
    QCOMPARE(snapshot.deviceClasses.size(), std::size_t(1));
    QCOMPARE(snapshot.resourceClaims.at(0).spec.requests.at(0).exactly->selectors.size(), std::size_t(1));
}

// v1alpha3 (1.31): bare capacity quantities, flat requests.
void TestDraReaders::v1alpha3() {
    const Snapshot snapshot = readDraData("v1alpha3.yaml");
    QVERIFY(snapshot.warnings.empty());
    const ResourceSlice& slice = snapshot.resourceSlices.at(0);
    QCOMPARE(slice.devices.size(), std::size_t(2));
    QCOMPARE(*slice.devices[1].capacityOf("memory", slice.driver), q("80Gi"));
    QCOMPARE(versionAttribute(slice.devices[1], "driverVersion"), QStringLiteral("1.0.0"));
    QCOMPARE(stringAttribute(slice.devices[1], "model"), QStringLiteral("LATEST-GPU-MODEL"));
    const ResourceClaim& claim = snapshot.resourceClaims.at(0);
    QCOMPARE(qs(claim.spec.requests.at(0).exactly->deviceClassName), QStringLiteral("example-device-class"));
    QVERIFY(claim.allocated);
    QCOMPARE(claim.reservedFor.size(), std::size_t(1));
    QCOMPARE(qs(snapshot.deviceClasses.at(0).selectors.at(0)), QStringLiteral("device.driver == \"gpu.example.com\""));
}

// allNodes, a node selector, and per-device node selection with taints.
void TestDraReaders::nodeAccess() {
    const Snapshot snapshot = readDraData("node-access.yaml");
    const ResourceSlice* shared = named(snapshot.resourceSlices, "fabric.example.com-shared");
    const ResourceSlice* rack = named(snapshot.resourceSlices, "rack.example.com-r1");
    const ResourceSlice* multi = named(snapshot.resourceSlices, "gpu.example.com-multi-host");
    QVERIFY(shared && rack && multi);
    QVERIFY(shared->allNodes && shared->nodeName.empty());
    QVERIFY(std::get<bool>(*attribute(shared->devices[0], "rdma")));
    QVERIFY(std::get<std::int64_t>(*attribute(shared->devices[0], "bandwidthGbps")) == 400);
    QCOMPARE(rack->nodeSelector.size(), std::size_t(1));
    QCOMPARE(rack->nodeSelector[0].matchExpressions.size(), std::size_t(1));
    QCOMPARE(rack->nodeSelector[0].matchExpressions[0].values, (std::vector<std::string>{"r1", "r2"}));
    QCOMPARE(*rack->devices[0].capacityOf("memory", rack->driver), q("1Ti"));
    QVERIFY(multi->perDeviceNodeSelection && multi->nodeName.empty() && !multi->allNodes);
    const Device* a = device(*multi, "dev-a");
    const Device* b = device(*multi, "dev-b");
    const Device* c = device(*multi, "dev-c");
    QVERIFY(a && b && c);
    QCOMPARE(qs(a->nodeName), QStringLiteral("n1"));
    QCOMPARE(a->taints, (std::vector<DeviceTaint>{{"maintenance.example.com/planned", "2025-11-07", "NoSchedule"}}));
    QVERIFY(b->allNodes);
    QCOMPARE(b->taints, (std::vector<DeviceTaint>{{"example.com/unhealthy", "", "NoExecute"}}));
    QVERIFY(c->nodeSelector == std::vector<NodeSelectorTerm>{nodeNameTerm({"n2", "n3"})});
}

void TestDraReaders::claimStates() {
    const Snapshot snapshot = readDraData("claim-states.yaml");
    const ResourceClaim* leaving = named(snapshot.resourceClaims, "leaving");
    const ResourceClaim* monitor = named(snapshot.resourceClaims, "gpu-monitor");
    QVERIFY(leaving && monitor);
    QVERIFY(leaving->deleting && leaving->allocated);
    QVERIFY(leaving->allocationNodeSelector.empty()); // no selector: usable on every node
    QCOMPARE(qs(leaving->spec.requests[0].exactly->deviceClassName), QStringLiteral("gpu.nvidia.com"));
    QVERIFY(!monitor->deleting);
    QVERIFY(monitor->spec.requests[0].exactly->adminAccess);
    QCOMPARE(monitor->spec.requests[0].exactly->mode, DeviceSubRequest::Mode::All);
    QCOMPARE(monitor->devices.size(), std::size_t(2));
    QVERIFY(monitor->devices[0].adminAccess && monitor->devices[1].adminAccess);
    QCOMPARE(qs(monitor->nameSpace), QStringLiteral("monitoring"));
}

// The API server's List kinds, through the snapshot reader and the live response reader.
// NVIDIA's health taints on node-t's devices, and the requests that tolerate them: on `exactly`,
// on a firstAvailable alternative, flat on a v1beta1 request; the operator Equal when not written.
void TestDraReaders::deviceTolerations() {
    const Snapshot snapshot = readDraData("device-taints.yaml");
    QVERIFY(snapshot.warnings.empty());
    const ResourceSlice& slice = snapshot.resourceSlices.at(0);
    QCOMPARE(device(slice, "gpu-0")->taints.size(), std::size_t(0));
    QCOMPARE(device(slice, "gpu-1")->taints, (std::vector<DeviceTaint>{{"gpu.nvidia.com/xid", "48", "NoSchedule"}}));
    QCOMPARE(device(slice, "gpu-2")->taints, (std::vector<DeviceTaint>{{"gpu.nvidia.com/gpu-lost", "", "NoExecute"}}));
    QCOMPARE(device(slice, "gpu-3")->taints, (std::vector<DeviceTaint>{{"gpu.nvidia.com/unmonitored", "", "None"}}));
    using Op = DeviceToleration::Operator;
    const ResourceClaim* tolerant = named(snapshot.resourceClaims, "xid-48-tolerant");
    QVERIFY(tolerant);
    QCOMPARE(tolerant->spec.requests.at(0).exactly->tolerations,
             (std::vector<DeviceToleration>{{"gpu.nvidia.com/xid", Op::Equal, "48", "NoSchedule", std::nullopt},
                                            {"gpu.nvidia.com/gpu-lost", Op::Exists, "", "", std::nullopt}}));
    const ResourceClaim* prioritized = named(snapshot.resourceClaims, "any-taint-else-clean");
    QVERIFY(prioritized);
    const std::vector<DeviceSubRequest>& alternatives = prioritized->spec.requests.at(0).firstAvailable;
    QCOMPARE(alternatives.size(), std::size_t(2));
    QCOMPARE(alternatives[0].tolerations, (std::vector<DeviceToleration>{{"", Op::Exists, "", "", std::nullopt}}));
    QVERIFY(alternatives[1].tolerations.empty());
    const ResourceClaimTemplate& flat = snapshot.resourceClaimTemplates.at(0);
    QCOMPARE(qs(flat.name), QStringLiteral("ride-out-eviction"));
    QCOMPARE(flat.spec.requests.at(0).exactly->tolerations,
             (std::vector<DeviceToleration>{{"gpu.nvidia.com/gpu-lost", Op::Exists, "", "NoExecute", 300}}));
    // v1beta1: an empty tolerations list beside firstAvailable says nothing of the request's own.
    Result<Snapshot> empty = readSnapshotText(claim("v1beta1", R"({"devices": {"requests": [{"name": "gpu",
        "tolerations": [], "firstAvailable": [{"name": "x", "deviceClassName": "b"}]}]}})"));
    QVERIFY2(empty.ok(), empty.ok() ? "" : empty.error().message.c_str());
    QVERIFY(!empty->resourceClaims.at(0).spec.requests.at(0).exactly);
}

void TestDraReaders::apiServerLists() {
    const Snapshot claims = readDraData("apiserver-resourceclaimlist.json");
    QCOMPARE(claims.resourceClaims.size(), std::size_t(2));
    QVERIFY(claims.warnings.empty());
    const Snapshot fixture = readDraData("f5-shared-claim.yaml");
    ResourceClaim shared = fixture.resourceClaims[0];
    shared.reservedFor.resize(1);
    QVERIFY(claims.resourceClaims[0] == shared); // v1beta2 reads as v1 does
    QCOMPARE(qs(claims.resourceClaims[0].resourceVersion), QStringLiteral("7100"));

    std::string body;
    {
        QFile file(QString::fromStdString(draDataPath("apiserver-resourceslicelist.json")));
        QVERIFY(file.open(QIODevice::ReadOnly));
        body = file.readAll().toStdString();
    }
    KubeResponseReader reader;
    Result<KubeListPage> page = reader.readListPage(body, "resourceslices");
    QVERIFY2(page.ok(), page.ok() ? "" : page.error().message.c_str());
    QCOMPARE(page->objects.resourceSlices.size(), std::size_t(2));
    QCOMPARE(page->resourceVersions, (std::vector<std::string>{"5119", "5120"}));
    QCOMPARE(qs(page->resourceVersion), QStringLiteral("918290"));
    QCOMPARE(page->remainingItemCount, std::int64_t(1));
    const Device& gpu = page->objects.resourceSlices[1].devices[0];
    QCOMPARE(qs(gpu.attributes[0].name), QStringLiteral("cudaComputeCapability")); // sorted as read
}

// Versions whose objects have another shape, and kinds topodeck does not read, are skipped with
// a warning that names the version.
void TestDraReaders::otherVersionsAreSkipped() {
    Result<Snapshot> read = readSnapshotText(R"(apiVersion: v1
kind: List
items:
- {apiVersion: resource.k8s.io/v1alpha2, kind: ResourceClaim, metadata: {name: old}, spec: {resourceClassName: gpu}}
- {apiVersion: resource.k8s.io/v1alpha2, kind: ResourceClass, metadata: {name: gpu}, driverName: gpu.example.com}
- {apiVersion: resource.k8s.io/v1alpha3, kind: DeviceTaintRule, metadata: {name: drain}}
- {apiVersion: example.com/v1, kind: ResourceSlice, metadata: {name: not-dra}}
- {apiVersion: resource.k8s.io/v1, kind: DeviceClass, metadata: {name: gpu}}
)");
    QVERIFY2(read.ok(), read.ok() ? "" : read.error().message.c_str());
    QCOMPARE(read->deviceClasses.size(), std::size_t(1));
    QVERIFY(read->resourceClaims.empty() && read->resourceSlices.empty());
    QCOMPARE(warningsOf(*read), (QStringList{QStringLiteral("skipped 1 object of kind ResourceClaim (resource.k8s.io/v1alpha2)"),
                                              QStringLiteral("skipped 1 object of kind ResourceClass"),
                                              QStringLiteral("skipped 1 object of kind DeviceTaintRule"),
                                              QStringLiteral("skipped 1 object of kind ResourceSlice (example.com/v1)")}));
}

// A snapshot's DRA objects become events, classes first, and a state keeps them.
void TestDraReaders::eventsCarryTheObjects() {
    Snapshot snapshot = readDraData("f2-dra-gpu-node.json");
    ClusterState state;
    for (const ClusterEvent& event : snapshot.takeEvents()) state.apply(event);
    QCOMPARE(state.devices().slices().size(), std::size_t(2));
    QCOMPARE(state.devices().claims().size(), std::size_t(1));
    QCOMPARE(state.devices().deviceClasses().size(), std::size_t(1));
    QVERIFY(snapshot.resourceSlices.empty() && snapshot.resourceClaims.empty());
}

void TestDraReaders::badInput_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("expected");
    sliceRows();
    claimRows();
    podRows();
}

void TestDraReaders::badInput() {
    QFETCH(QString, text);
    QFETCH(QString, expected);
    const QByteArray utf8 = text.toUtf8();
    Result<Snapshot> result = readSnapshotText(std::string_view(utf8.constData(), static_cast<std::size_t>(utf8.size())));
    QVERIFY2(!result.ok(), "expected an error");
    const QString message = qs(result.error().message);
    QVERIFY2(message.startsWith(QStringLiteral("input")), qPrintable(message));
    QVERIFY2(message.contains(expected), qPrintable(message + QStringLiteral("\n  does not contain\n") + expected));
}

namespace {

// Every fixture in one state, as a snapshot's events build it.
ClusterState allFixtures() {
    ClusterState state;
    for (const char* name : kFixtures) {
        Snapshot snapshot = readDraData(std::string(name) + ".yaml");
        for (const ClusterEvent& event : snapshot.takeEvents()) state.apply(event);
    }
    return state;
}

// The DRA objects and pods of two states are the same.
void compareStates(const ClusterState& original, const ClusterState& copy) {
    const DeviceInventory& a = original.devices();
    const DeviceInventory& b = copy.devices();
    QCOMPARE(b.slices().size(), a.slices().size());
    for (const auto& [name, published] : a.slices()) {
        const auto found = b.slices().find(name);
        QVERIFY2(found != b.slices().end() && *found->second.slice == *published.slice, name.c_str());
        QCOMPARE(found->second.slice->resourceVersion, published.slice->resourceVersion);
    }
    QCOMPARE(b.claims().size(), a.claims().size());
    for (const auto& [key, claim] : a.claims()) {
        const auto found = b.claims().find(key);
        QVERIFY2(found != b.claims().end() && *found->second == *claim, key.c_str());
    }
    QVERIFY(b.claimTemplates() == a.claimTemplates());
    QVERIFY(b.deviceClasses() == a.deviceClasses());
    QVERIFY(copy.computeDomains() == original.computeDomains());
    QCOMPARE(copy.podCount(), original.podCount());
    original.forEachPod([&](const Pod& pod) {
        const Pod* copied = copy.findPod(pod.nameSpace, pod.name);
        QVERIFY2(copied && *copied == pod, pod.key().c_str());
    });
}

ClusterState readBack(const std::string& json) {
    Result<Snapshot> read = readSnapshotText(json, "written.json");
    if (!read) qFatal("%s", read.error().message.c_str());
    if (!read->warnings.empty()) qFatal("%s", read->warnings.front().c_str());
    ClusterState copy;
    for (const ClusterEvent& event : read->takeEvents()) copy.apply(event);
    return copy;
}

} // namespace

// Every fixture, written as resource.k8s.io/v1 and read back, gives equal objects and pods.
void TestDraReaders::writerRoundTrip() {
    const ClusterState original = allFixtures();
    QVERIFY(original.devices().slices().size() > 15);
    QVERIFY(original.devices().claims().size() > 10);
    QCOMPARE(original.computeDomains().size(), std::size_t(1)); // f8's
    const std::string json = writeSnapshotJson(original);
    QVERIFY(json.find(R"("apiVersion":"resource.k8s.io/v1","kind":"ResourceSlice")") != std::string::npos);
    QVERIFY(json.find("resource.k8s.io/v1beta") == std::string::npos);
    QVERIFY(json.find("\"basic\"") == std::string::npos);
    const ClusterState copy = readBack(json);
    compareStates(original, copy);
    QVERIFY(writeSnapshotJson(copy) == json); // the same state writes the same bytes
}

// What the fixtures do not hold: odd versions, quantities, strings, empty parts.
void TestDraReaders::writerRoundTripEdges() {
    ClusterState state;
    ResourceSlice slice;
    slice.name = "edge";
    slice.driver = "edge.example.com";
    slice.pool = "p";
    slice.poolGeneration = 9000000000;
    slice.poolSliceCount = 3;
    slice.nodeSelector.push_back({{{"zone", NodeSelectorRequirement::Operator::NotIn, {"a", "b"}},
                                   {"gpus", NodeSelectorRequirement::Operator::Gt, {"4"}},
                                   {"spare", NodeSelectorRequirement::Operator::DoesNotExist, {}}},
                                  {}});
    Device& device = slice.devices.emplace_back();
    device.name = "d0";
    device.attributes = {{"a.example.com/text", std::string("quote \" backslash \\ é ✓")},
                         {"count", std::int64_t(-42)},
                         {"flag", false},
                         {"v", *Version::parse("1.2.3-rc.1+build.5")}};
    device.capacity = {{"big", q("1.5Ti")}, {"exp", q("1e3")}, {"milli", q("250m")}};
    Device& empty = slice.devices.emplace_back();
    empty.name = "d1";
    slice.sharedCounters.push_back({"set", {{"c", q("0")}}});
    state.apply(ResourceSliceUpserted{slice});

    ResourceClaim claim;
    claim.nameSpace = "ns";
    claim.name = "c";
    claim.deleting = true;
    DeviceRequest& request = claim.spec.requests.emplace_back();
    request.name = "r";
    DeviceSubRequest sub;
    sub.name = "first";
    sub.deviceClassName = "cls";
    sub.count = 7;
    request.firstAvailable.push_back(sub);
    sub.name = "second";
    sub.mode = DeviceSubRequest::Mode::All;
    sub.count = 1;
    // Equal with neither key nor value, an unknown effect, a negative tolerationSeconds (treated
    // as 0 by eviction): kept as written.
    sub.tolerations = {{"", DeviceToleration::Operator::Equal, "", "", std::nullopt},
                       {"example.com/k", DeviceToleration::Operator::Exists, "", "Someday", -5}};
    request.firstAvailable.push_back(sub);
    claim.spec.constraints.push_back({{}, "edge.example.com/v"});
    claim.allocated = true; // allocated, to nothing on no node (an empty allocation)
    state.apply(ResourceClaimUpserted{claim});

    DeviceClass deviceClass;
    deviceClass.name = "cls";
    state.apply(DeviceClassUpserted{deviceClass});

    Pod pod;
    pod.nameSpace = "ns";
    pod.name = "p";
    pod.claimStatuses = {{"a", ""}, {"b", "made-b"}};
    pod.gpuShare.group = "g";
    pod.gpuShare.moreGroups = {"h"};
    pod.gpuShare.memory = "512";
    pod.gpuShare.devices = 2;
    pod.workload = "job";
    pod.workloadKind = WorkloadKind::KaiPodGroup;
    pod.topology = {PodTopologyRequest::Mode::Required, "rack"};
    state.apply(PodUpserted{pod});

    const std::string json = writeSnapshotJson(state);
    const ClusterState copy = readBack(json);
    compareStates(state, copy);
    const ResourceSlice& read = *copy.devices().slices().at("edge").slice;
    QCOMPARE(std::get<Version>(read.devices[0].attributes[3].value).toString(), std::string("1.2.3-rc.1+build.5"));
    QCOMPARE(copy.devices().claims().at("ns/c")->spec.requests[0].firstAvailable[0].count, std::int64_t(7));
    QCOMPARE(copy.devices().claims().at("ns/c")->spec.requests[0].firstAvailable[1].tolerations.size(), std::size_t(2));
}

TOPODECK_TEST_GUILESS_MAIN(TestDraReaders)
#include "test_dra_readers.moc"
