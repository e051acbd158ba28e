// Dynamic Resource Allocation against a real kube-apiserver (1.20, kube-fixture.sh) through
// FaultProxy. A 1.20 server does not serve resource.k8s.io, so the tests install it as CRDs
// (tests/data/crds: ResourceSlice, DeviceClass, ResourceClaim, ResourceClaimTemplate in v1, v1beta2
// and v1beta1, and NVIDIA's ComputeDomain) and check first what the server makes of them:
// discovery, the approval annotation a k8s.io group needs, each version's shape, the status
// subresource. Then the cluster as the GUI sees it: two device-plugin nodes and three nodes whose
// GPUs NVIDIA's DRA driver publishes (H100s; A100s with static MIG; a stale pool generation;
// claims allocated, reserved or not, pending, with admin access; an IMEX channel), listed,
// watched (claims allocated and deleted, a pool's newer generation) and followed through dropped
// watches and 410 Gone with exact GPU figures; a server without the CRDs, and one serving only
// v1beta1.
//
// Pods cannot name their claims here: a 1.20 server drops spec.resourceClaims. GPU occupancy
// comes from the claims' allocations, as the scheduler counts it.

#include "kube_test_support.h"
#include "session_test_support.h"

#include "core/model/node_gpus.h"
#include "net/kubeconfig.h"
#include "session/cluster_session.h"
#include "support/test_program.h"

#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>

#include <set>

using namespace topodeck;
using namespace kubetest;
using namespace std::chrono_literals;

using topodeck::testing::waitForSnapshot;

namespace {

const std::vector<std::string> kDraCrdFiles = {
    "resource.k8s.io_deviceclasses.yaml", "resource.k8s.io_resourceslices.yaml",
    "resource.k8s.io_resourceclaimtemplates.yaml", "resource.k8s.io_resourceclaims.yaml"};
const std::vector<std::string> kDraResources = {"deviceclasses", "resourceslices", "resourceclaimtemplates",
                                                "resourceclaims"};

std::string crdFile(const std::string& name) {
    return std::string(TOPODECK_TEST_DATA_DIR) + "/crds/" + name;
}

// ---- DRA objects as NVIDIA's driver and chart write them (tests/data/dra/nvidia-h100-v1.yaml,
// f3-static-mig.yaml: kubernetes-sigs/dra-driver-nvidia-gpu cmd/gpu-kubelet-plugin/deviceinfo.go).

struct GpuModel {
    const char* product;
    const char* architecture;
    const char* computeCapability;
    const char* memory;
};
constexpr GpuModel kH100{"NVIDIA H100 80GB HBM3", "Hopper", "9.0.0", "81559Mi"};
constexpr GpuModel kA100{"NVIDIA A100 80GB PCIe", "Ampere", "8.0.0", "80Gi"};
constexpr const char* kMigMemory = "9728Mi"; // a 1g.10gb instance of an A100 80GB: 9728 of its 81920 MiB

std::string gpuUuid(const std::string& node, int index) {
    return "GPU-" + node + "-000" + std::to_string(index);
}

std::string commonAttributes(const GpuModel& model, int index) {
    return std::string(R"("architecture":{"string":")") + model.architecture + R"("},"brand":{"string":"Nvidia"},)" +
           R"("cudaComputeCapability":{"version":")" + model.computeCapability + R"("},)" +
           R"("cudaDriverVersion":{"version":"13.0.0"},"driverVersion":{"version":"580.105.8"},)" +
           R"("productName":{"string":")" + model.product + R"("},)" +
           R"("resource.kubernetes.io/pcieRoot":{"string":"pci0000:)" + std::to_string(16 + index) + R"("})";
}

// A device: its name and fields, the fields under `basic` in v1beta1.
std::string device(const std::string& name, const std::string& fields, bool basic) {
    return R"({"name":")" + name + "\"," + (basic ? R"("basic":{)" + fields + "}" : fields) + "}";
}

std::string gpuDevice(const GpuModel& model, const std::string& node, int index, bool basic = false) {
    const std::string fields = R"("attributes":{)" + commonAttributes(model, index) +
                               R"(,"type":{"string":"gpu"},"uuid":{"string":")" + gpuUuid(node, index) +
                               R"("}},"capacity":{"memory":{"value":")" + model.memory + R"("}})";
    return device("gpu-" + std::to_string(index), fields, basic);
}

// NVIDIA's static MIG device names (v25.12: gpu-<minor>-mig-<profile>-<profileId>-<start>).
std::string migName(int index, int start) {
    return "gpu-" + std::to_string(index) + "-mig-1g10gb-19-" + std::to_string(start);
}

// A static MIG instance (1g.10gb) of GPU `index`, published beside it.
std::string migDevice(const std::string& node, int index, int start) {
    const std::string fields =
        R"("attributes":{)" + commonAttributes(kA100, index) + R"(,"parentUUID":{"string":")" + gpuUuid(node, index) +
        R"("},"profile":{"string":"1g.10gb"},"type":{"string":"mig"},"uuid":{"string":"MIG-)" + node + '-' +
        std::to_string(start) + R"("}},"capacity":{"memory":{"value":")" + kMigMemory +
        R"("},"multiprocessors":{"value":"14"},"memorySlice)" + std::to_string(start) + R"(":{"value":"1"}})";
    return device(migName(index, start), fields, false);
}

std::string gpuDevices(const GpuModel& model, const std::string& node, int count, bool basic = false) {
    std::string out;
    for (int i = 0; i < count; ++i) out += (i ? "," : "") + gpuDevice(model, node, i, basic);
    return out;
}

std::string draPath(const std::string& version, const std::string& plural, const std::string& nameSpace = {}) {
    return "/apis/resource.k8s.io/" + version + (nameSpace.empty() ? "" : "/namespaces/" + nameSpace) + '/' + plural;
}

// A node-local slice of `driver` for the pool named after the node.
std::string sliceJson(const std::string& version, const std::string& name, const std::string& driver,
                      const std::string& node, int generation, const std::string& devices) {
    return R"({"apiVersion":"resource.k8s.io/)" + version + R"(","kind":"ResourceSlice","metadata":{"name":")" + name +
           R"("},"spec":{"driver":")" + driver + R"(","nodeName":")" + node + R"(","pool":{"name":")" + node +
           R"(","generation":)" + std::to_string(generation) + R"(,"resourceSliceCount":1},"devices":[)" + devices +
           "]}}";
}

// NVIDIA's chart's classes select by the device's type (deviceclass-*.yaml).
std::string deviceClassJson(const std::string& version, const std::string& name, const std::string& expression,
                            const std::string& extendedResource = {}) {
    return R"({"apiVersion":"resource.k8s.io/)" + version + R"(","kind":"DeviceClass","metadata":{"name":")" + name +
           R"("},"spec":{"selectors":[{"cel":{"expression":")" + expression + "\"}}]" +
           (extendedResource.empty() ? "" : R"(,"extendedResourceName":")" + extendedResource + "\"") + "}}";
}

// A claim asking for `count` devices of `deviceClass` in one request named "gpu": `exactly` in
// v1beta2 and v1, flat in v1beta1.
std::string claimJson(const std::string& version, const std::string& nameSpace, const std::string& name,
                      const std::string& deviceClass, int count, bool adminAccess = false) {
    const std::string ask = R"("deviceClassName":")" + deviceClass + R"(","count":)" + std::to_string(count) +
                            (adminAccess ? R"(,"adminAccess":true)" : "");
    const std::string request =
        version == "v1beta1" ? R"({"name":"gpu",)" + ask + "}" : R"({"name":"gpu","exactly":{)" + ask + "}}";
    return R"({"apiVersion":"resource.k8s.io/)" + version + R"(","kind":"ResourceClaim","metadata":{"name":")" + name +
           R"(","namespace":")" + nameSpace + R"("},"spec":{"devices":{"requests":[)" + request + "]}}}";
}

struct Allocated {
    std::string driver;
    std::string device;
    bool adminAccess = false;
};

// status for a claim allocated on `node` (its node-local pool), reserved for `pod` unless empty.
std::string allocationStatus(const std::string& node, const std::vector<Allocated>& devices, const std::string& pod) {
    std::string results;
    for (const Allocated& d : devices)
        results += (results.empty() ? "" : ",") + std::string(R"({"request":"gpu","driver":")") + d.driver +
                   R"(","pool":")" + node + R"(","device":")" + d.device + "\"" +
                   (d.adminAccess ? R"(,"adminAccess":true)" : "") + "}";
    std::string status =
        R"({"allocation":{"devices":{"results":[)" + results +
        R"(]},"nodeSelector":{"nodeSelectorTerms":[{"matchFields":[{"key":"metadata.name","operator":"In","values":[")" +
        node + R"("]}]}]}})";
    if (!pod.empty())
        status += R"(,"reservedFor":[{"resource":"pods","name":")" + pod + R"(","uid":"uid-)" + pod + R"("}])";
    return status + "}";
}

std::vector<Allocated> gpus(std::initializer_list<int> indexes) {
    std::vector<Allocated> out;
    for (const int i : indexes) out.push_back({"gpu.nvidia.com", "gpu-" + std::to_string(i)});
    return out;
}

// ---- What topodeck makes of it

struct GpuFigures {
    std::int64_t total = 0;
    std::int64_t used = 0; // not free whole
    std::int64_t partlyUsed = 0;
    GpuAmount share;
    std::int64_t draNodes = 0;
    std::int64_t pluginNodes = 0;
    friend bool operator==(const GpuFigures&, const GpuFigures&) = default;
    std::string text() const {
        return "total " + std::to_string(total) + ", used " + std::to_string(used) + ", partly used " +
               std::to_string(partlyUsed) + ", share " + share.text(5) + ", DRA nodes " + std::to_string(draNodes) +
               ", device-plugin nodes " + std::to_string(pluginNodes);
    }
};

GpuFigures figuresOf(const DomainTotals& t) {
    return {t.gpusTotal, t.gpusUsed, t.gpusPartlyUsed, t.gpuShareUsed, t.nodesDraGpus, t.nodesPluginGpus};
}

GpuFigures figuresOf(const ClusterState& state) {
    GpuFigures out;
    for (NodeId id = 0; id < state.nodeSlots(); ++id) {
        if (!state.record(id).present) continue;
        const NodeGpus node = countNodeGpus(state, id, GpuResources{});
        out.total += node.total;
        out.used += node.busy;
        out.partlyUsed += node.partlyUsed;
        out.share += node.used;
        out.draNodes += node.source == GpuSource::Dra;
        out.pluginNodes += node.source == GpuSource::DevicePlugin;
    }
    return out;
}

// The cluster of listCountsDraGpus: device plugin dp-01 (3 of 8 used) and dp-02 (8 of 8); DRA
// dra-01 (8 H100, 5 busy: train-0's 4 and idle's 1; inspect's admin access does not count),
// dra-02 (8 H100 of the pool's generation 2, all train-1's; generation 1's 9 devices do not
// count) and dra-03 (4 A100, one 1g.10gb MIG instance of gpu-0 allocated: partly used).
const GpuFigures kBaseline{36, 25, 1, GpuAmount::whole(24) + GpuAmount::fraction(9728, 81920), 3, 2};

// What the DRA objects of a state are, comparable: slices with their pool generation and devices,
// claims with what they hold, classes, templates, and each node's GPU figures.
std::set<std::string> draContentOf(const ClusterState& state) {
    std::set<std::string> out;
    const DeviceInventory& inventory = state.devices();
    for (const auto& [name, published] : inventory.slices())
        out.insert("slice " + name + " pool " + published.slice->pool + " generation " +
                   std::to_string(published.slice->poolGeneration) + " devices " +
                   std::to_string(published.slice->devices.size()));
    for (const auto& [key, claim] : inventory.claims()) {
        std::string line = "claim " + key + (claim->allocated ? " allocated" : " pending");
        for (const DeviceAllocation& d : claim->devices) line += ' ' + d.pool + '/' + d.device;
        out.insert(line);
    }
    for (const auto& [name, deviceClass] : inventory.deviceClasses()) out.insert("class " + name);
    for (const auto& [key, claimTemplate] : inventory.claimTemplates()) out.insert("template " + key);
    for (NodeId id = 0; id < state.nodeSlots(); ++id) {
        if (!state.record(id).present) continue;
        const NodeGpus node = countNodeGpus(state, id, GpuResources{});
        out.insert("node " + state.record(id).node->name + ' ' + std::to_string(node.total) + ' ' +
                   std::to_string(node.busy) + ' ' + node.used.text(5) + ' ' + std::string(gpuSourceName(node.source)));
    }
    return out;
}

QString describeDifference(const std::set<std::string>& followed, const std::set<std::string>& truth) {
    QString text;
    for (const std::string& line : followed)
        if (!truth.count(line)) text += QStringLiteral("\n  only followed: ") + QString::fromStdString(line);
    for (const std::string& line : truth)
        if (!followed.count(line)) text += QStringLiteral("\n  only on the server: ") + QString::fromStdString(line);
    return text;
}

const NodeStats* nodeStats(const ClusterSnapshot& snapshot, std::string_view name) {
    for (NodeId id = 0; id < snapshot.nodes.size(); ++id)
        if (snapshot.nodes[id] && snapshot.nodes[id]->name == name) return &snapshot.index.node(id);
    return nullptr;
}

const ResourceHealth* resourceHealth(const std::vector<ResourceHealth>& resources, std::string_view name) {
    for (const ResourceHealth& r : resources)
        if (r.resource == name) return &r;
    return nullptr;
}

} // namespace

class TestKubeDra : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() {
        QString why;
        m_cluster = KubeTestCluster::start(why);
        if (!m_cluster) {
            if (kubeTestsRequired()) QFAIL(qPrintable(why));
            QSKIP(qPrintable(why));
        }
        const Status populated = populateNodes();
        QVERIFY2(populated.ok(), populated.ok() ? "" : populated.error().message.c_str());
        m_proxy = proxyFor(*m_cluster);
        QVERIFY(m_proxy->ok());
        m_kubeconfig = QString::fromStdString(
            m_cluster->writeKubeconfig(m_dir.path().toStdString(), "proxied", "admin", m_proxy->url()));
        Result<AdminConnections> connections = adminConnections(*m_cluster, *m_proxy);
        QVERIFY2(connections.ok(), connections.ok() ? "" : connections.error().message.c_str());
        m_direct = connections->direct;
        m_proxied = connections->proxied;
    }

    void cleanupTestCase() {
        m_proxy.reset();
        m_cluster.reset();
    }

    void init() {
        m_proxy->refuseConnections(false);
        m_proxy->resume();
    }

    // A 1.20 server as it is: the four DRA kinds are "not installed", which is no problem (the
    // session is live), and the device plugin's GPUs count as before.
    void withoutTheCrdsDraIsNotInstalled() {
        ClusterSession session;
        session.setTopologyChoice({}, {QStringLiteral("example.com/rack")});
        session.openKubernetes(QStringLiteral("proxied"), m_kubeconfig);
        ClusterSnapshotPtr snapshot;
        QVERIFY(waitForSnapshot(
            session, [](const ClusterSnapshot& s) { return s.status.health == SourceHealth::Live; }, &snapshot));
        for (const std::string& plural : kDraResources) {
            const ResourceHealth* health = resourceHealth(snapshot->status.resources, plural + ".resource.k8s.io");
            QVERIFY2(health, plural.c_str());
            QCOMPARE(health->state, ResourceHealth::State::NotInstalled);
        }
        const GpuFigures plugin{16, 11, 0, GpuAmount::whole(11), 0, 2};
        QVERIFY2(figuresOf(snapshot->index.root().totals) == plugin,
                 figuresOf(snapshot->index.root().totals).text().c_str());
        QCOMPARE(nodeStats(*snapshot, "dra-01")->gpuSource, GpuSource::None);
        QCOMPARE(nodeStats(*snapshot, "dp-01")->gpuSource, GpuSource::DevicePlugin);
    }

    // A k8s.io group is protected: the 1.20 server refuses a CRD in it without the annotation
    // api-approved.kubernetes.io, and takes a URL or a reason starting with "unapproved".
    void crdsNeedTheApprovalAnnotation() {
        QFile file(QString::fromStdString(crdFile("resource.k8s.io_deviceclasses.yaml")));
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(file.readAll());
        const QString line = QStringLiteral("    api-approved.kubernetes.io: ");
        QVERIFY(text.contains(line + QStringLiteral("\"https://github.com/kubernetes/enhancements/")));
        const auto withAnnotation = [&](const QString& value) {
            QStringList lines = text.split(QLatin1Char('\n'));
            for (QString& l : lines)
                if (l.startsWith(line)) l = value.isEmpty() ? QString() : line + value;
            return lines.join(QLatin1Char('\n')).toStdString();
        };
        const std::string collection = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions?dryRun=All";
        Result<HttpResponse> missing = m_cluster->call("POST", collection, withAnnotation({}), "application/yaml");
        QVERIFY(missing.ok());
        QCOMPARE(missing->status, 422L);
        QVERIFY2(
            missing->body.find("protected groups must have approval annotation \\\"api-approved.kubernetes.io\\\"") !=
                std::string::npos,
            missing->body.c_str());
        Result<HttpResponse> notUrl =
            m_cluster->call("POST", collection, withAnnotation(QStringLiteral("\"see the KEP\"")), "application/yaml");
        QVERIFY(notUrl.ok());
        QCOMPARE(notUrl->status, 422L);
        Result<HttpResponse> unapproved = m_cluster->call(
            "POST", collection, withAnnotation(QStringLiteral("\"unapproved, tests only\"")), "application/yaml");
        QVERIFY(unapproved.ok());
        QCOMPARE(unapproved->status, 201L);
    }

    // The four CRDs installed: discovery lists v1, v1beta2, v1beta1 and prefers v1, as a 1.34
    // server does, and the source reads v1 (it never asks for the betas). The annotation is
    // accepted as an approval.
    void discoveryPrefersV1() {
        for (const std::string& file : kDraCrdFiles) {
            const Status installed = m_cluster->installCrdFile(crdFile(file));
            QVERIFY2(installed.ok(), installed.ok() ? "" : installed.error().message.c_str());
        }
        Result<HttpResponse> group = m_cluster->call("GET", "/apis/resource.k8s.io");
        QVERIFY(group.ok() && group->status == 200);
        const QJsonObject discovery = QJsonDocument::fromJson(QByteArray::fromStdString(group->body)).object();
        QStringList versions;
        for (const QJsonValue v : discovery[QLatin1String("versions")].toArray())
            versions << v[QLatin1String("version")].toString();
        QCOMPARE(versions, (QStringList{QStringLiteral("v1"), QStringLiteral("v1beta2"), QStringLiteral("v1beta1")}));
        QCOMPARE(discovery[QLatin1String("preferredVersion")][QLatin1String("version")].toString(),
                 QStringLiteral("v1"));

        Result<HttpResponse> crd = m_cluster->call(
            "GET", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/resourceclaims.resource.k8s.io");
        QVERIFY(crd.ok() && crd->status == 200);
        QString approval;
        for (const QJsonValue condition : QJsonDocument::fromJson(QByteArray::fromStdString(crd->body))
                                              .object()[QLatin1String("status")][QLatin1String("conditions")]
                                              .toArray())
            if (condition[QLatin1String("type")].toString() == QLatin1String("KubernetesAPIApprovalPolicyConformant"))
                approval = condition[QLatin1String("status")].toString();
        QCOMPARE(approval, QStringLiteral("True"));

        const int betaRequests = m_proxy->count("/apis/resource.k8s.io/v1beta");
        const int v1Lists = m_proxy->count("GET /apis/resource.k8s.io/v1/resourceslices?limit");
        FollowedSource followed(m_proxied, fastOptions());
        QVERIFY(followed.waitForStatus(LinkState::Synced));
        for (const std::string& plural : kDraResources) {
            const ResourceHealth health = followed.resource(plural + ".resource.k8s.io");
            QCOMPARE(health.state, ResourceHealth::State::Synced);
            QVERIFY(m_proxy->count("GET /apis/resource.k8s.io/v1/" + plural + "?limit") >= 1);
        }
        QCOMPARE(m_proxy->count("GET /apis/resource.k8s.io/v1/resourceslices?limit"), v1Lists + 1);
        QCOMPARE(m_proxy->count("/apis/resource.k8s.io/v1beta"), betaRequests);
        m_installed = true;
    }

    // Each version has its own shape and the server keeps to it: a device is flat in v1 (a
    // v1beta1 `basic` is pruned) and wrapped in v1beta1; a v1 request needs `exactly` or
    // `firstAvailable` (a flat one is refused). Conversion is None: an object is only relabelled,
    // and pruned to the shape of the version it is read in and of v1, the one it is stored in.
    void eachVersionHasItsShape() {
        QVERIFY(m_installed);
        const std::string devices = device("gpu-0", R"("basic":{"attributes":{"type":{"string":"gpu"}}})", false) +
                                    "," + gpuDevice(kH100, "shape", 1);
        Result<HttpResponse> created = m_cluster->call("POST", draPath("v1", "resourceslices") + "?dryRun=All",
                                                       sliceJson("v1", "shape", "gpu.nvidia.com", "shape", 1, devices));
        QVERIFY(created.ok());
        QCOMPARE(created->status, 201L);
        QJsonArray stored = QJsonDocument::fromJson(QByteArray::fromStdString(created->body))
                                .object()[QLatin1String("spec")][QLatin1String("devices")]
                                .toArray();
        QCOMPARE(stored.size(), 2);
        QCOMPARE(stored[0].toObject(),
                 (QJsonObject{{QStringLiteral("name"), QStringLiteral("gpu-0")}})); // basic pruned
        QCOMPARE(
            stored[1][QLatin1String("attributes")][QLatin1String("productName")][QLatin1String("string")].toString(),
            QString::fromLatin1(kH100.product));

        // A quantity the API would refuse is refused.
        std::string badMemory = sliceJson("v1", "shape", "gpu.nvidia.com", "shape", 1, gpuDevice(kH100, "shape", 0));
        badMemory.replace(badMemory.find("81559Mi"), 7, "80 GiB");
        Result<HttpResponse> refused =
            m_cluster->call("POST", draPath("v1", "resourceslices") + "?dryRun=All", badMemory);
        QVERIFY(refused.ok());
        QCOMPARE(refused->status, 422L);

        // A v1beta1 claim's flat request sent as v1: pruned to nothing, so refused.
        std::string flat = claimJson("v1beta1", "default", "flat", "gpu.nvidia.com", 2);
        flat.replace(flat.find("v1beta1"), 7, "v1");
        Result<HttpResponse> flatAsV1 =
            m_cluster->call("POST", draPath("v1", "resourceclaims", "default") + "?dryRun=All", flat);
        QVERIFY(flatAsV1.ok());
        QCOMPARE(flatAsV1->status, 422L);
        QVERIFY2(flatAsV1->body.find("spec.devices.requests.exactly: Required value") != std::string::npos,
                 flatAsV1->body.c_str());
        // firstAvailable is the other way to ask.
        const std::string firstAvailable =
            R"({"apiVersion":"resource.k8s.io/v1","kind":"ResourceClaim","metadata":{"name":"either","namespace":"default"},)"
            R"("spec":{"devices":{"requests":[{"name":"gpu","firstAvailable":[{"name":"h100","deviceClassName":"gpu.nvidia.com",)"
            R"x("selectors":[{"cel":{"expression":"device.attributes['gpu.nvidia.com'].productName.startsWith('NVIDIA H100')"}}]},)x"
            R"({"name":"any","deviceClassName":"gpu.nvidia.com"}]}]}}})";
        Result<HttpResponse> either =
            m_cluster->call("POST", draPath("v1", "resourceclaims", "default") + "?dryRun=All", firstAvailable);
        QVERIFY(either.ok());
        QCOMPARE(either->status, 201L);

        // Written in v1, read in v1beta1: relabelled, not converted (the devices lose their fields).
        QVERIFY(
            m_cluster
                ->expect("POST", draPath("v1", "resourceslices"),
                         sliceJson("v1", "relabelled", "gpu.nvidia.com", "nowhere", 1, gpuDevice(kH100, "nowhere", 0)))
                .ok());
        Result<HttpResponse> beta = m_cluster->call("GET", draPath("v1beta1", "resourceslices") + "/relabelled");
        QVERIFY(beta.ok() && beta->status == 200);
        const QJsonObject asBeta = QJsonDocument::fromJson(QByteArray::fromStdString(beta->body)).object();
        QCOMPARE(asBeta[QLatin1String("apiVersion")].toString(), QStringLiteral("resource.k8s.io/v1beta1"));
        QCOMPARE(asBeta[QLatin1String("spec")][QLatin1String("devices")].toArray()[0].toObject(),
                 (QJsonObject{{QStringLiteral("name"), QStringLiteral("gpu-0")}}));
        QVERIFY(m_cluster->expect("DELETE", draPath("v1", "resourceslices") + "/relabelled").ok());

        // Written in v1beta1, stored as v1: the `basic` wrapper does not survive the storage version.
        Result<HttpResponse> wrapped = m_cluster->call(
            "POST", draPath("v1beta1", "resourceslices"),
            sliceJson("v1beta1", "wrapped", "gpu.nvidia.com", "nowhere", 1, gpuDevice(kH100, "nowhere", 0, true)));
        QVERIFY(wrapped.ok());
        QCOMPARE(wrapped->status, 201L);
        QCOMPARE(QJsonDocument::fromJson(QByteArray::fromStdString(wrapped->body))
                     .object()[QLatin1String("spec")][QLatin1String("devices")]
                     .toArray()[0]
                     .toObject(),
                 (QJsonObject{{QStringLiteral("name"), QStringLiteral("gpu-0")}}));
        QVERIFY(m_cluster->expect("DELETE", draPath("v1", "resourceslices") + "/wrapped").ok());
    }

    // NVIDIA's ComputeDomain CRD is served as the chart defines it: namespaced, a status
    // subresource, its defaults and enums (ComputeDomains are not followed yet; a later test will).
    void computeDomainCrdIsServed() {
        const Status installed = m_cluster->installCrdFile(crdFile("resource.nvidia.com_computedomains.yaml"));
        QVERIFY2(installed.ok(), installed.ok() ? "" : installed.error().message.c_str());
        Result<HttpResponse> resources = m_cluster->call("GET", "/apis/resource.nvidia.com/v1beta1");
        QVERIFY(resources.ok() && resources->status == 200);
        std::set<std::string> names;
        for (const QJsonValue r : QJsonDocument::fromJson(QByteArray::fromStdString(resources->body))
                                      .object()[QLatin1String("resources")]
                                      .toArray()) {
            QVERIFY(r[QLatin1String("namespaced")].toBool());
            names.insert(r[QLatin1String("name")].toString().toStdString());
        }
        QCOMPARE(names, (std::set<std::string>{"computedomains", "computedomains/status"}));

        const std::string path = "/apis/resource.nvidia.com/v1beta1/namespaces/default/computedomains";
        // Status sent with the object is not taken: the controller writes it through /status.
        Result<HttpResponse> created = m_cluster->call(
            "POST", path,
            R"({"apiVersion":"resource.nvidia.com/v1beta1","kind":"ComputeDomain","metadata":{"name":"imex-a"},)"
            R"("spec":{"channel":{"resourceClaimTemplate":{"name":"imex-a-channel"}}},"status":{"status":"Ready"}})");
        QVERIFY(created.ok());
        QCOMPARE(created->status, 201L);
        const QJsonObject object = QJsonDocument::fromJson(QByteArray::fromStdString(created->body)).object();
        QCOMPARE(
            object[QLatin1String("spec")].toObject(),
            (QJsonObject{{QStringLiteral("numNodes"), 0},
                         {QStringLiteral("channel"),
                          QJsonObject{{QStringLiteral("allocationMode"), QStringLiteral("Single")},
                                      {QStringLiteral("resourceClaimTemplate"),
                                       QJsonObject{{QStringLiteral("name"), QStringLiteral("imex-a-channel")}}}}}}));
        QVERIFY(!object.contains(QLatin1String("status")));

        const Status status = m_cluster->patch(
            path + "/imex-a/status",
            R"({"status":{"status":"NotReady","nodes":[{"name":"dra-01","ipAddress":"10.0.0.1","cliqueID":"c7f2.0","index":0},)"
            R"({"name":"dra-02","ipAddress":"10.0.0.2","cliqueID":"c7f2.1","index":0,"status":"Ready"}]}})");
        QVERIFY2(status.ok(), status.ok() ? "" : status.error().message.c_str());
        Result<HttpResponse> read = m_cluster->call("GET", path + "/imex-a");
        QVERIFY(read.ok() && read->status == 200);
        const QJsonArray nodes = QJsonDocument::fromJson(QByteArray::fromStdString(read->body))
                                     .object()[QLatin1String("status")][QLatin1String("nodes")]
                                     .toArray();
        QCOMPARE(nodes.size(), 2);
        QCOMPARE(nodes[0][QLatin1String("status")].toString(), QStringLiteral("NotReady")); // the default
        QCOMPARE(nodes[1][QLatin1String("cliqueID")].toString(), QStringLiteral("c7f2.1"));

        for (const char* bad :
             {R"({"apiVersion":"resource.nvidia.com/v1beta1","kind":"ComputeDomain","metadata":{"name":"bad"},)"
              R"("spec":{"channel":{"resourceClaimTemplate":{"name":"c"},"allocationMode":"Some"}}})",
              R"({"apiVersion":"resource.nvidia.com/v1beta1","kind":"ComputeDomain","metadata":{"name":"bad"},)"
              R"("spec":{"numNodes":-1,"channel":{}}})"}) {
            Result<HttpResponse> answer = m_cluster->call("POST", path + "?dryRun=All", bad);
            QVERIFY(answer.ok());
            QVERIFY2(answer->status == 422, answer->body.c_str());
        }
    }

    // The cluster listed: the session (as the GUI opens it) and `show` count 36 GPUs, 25 not free
    // whole; the DRA nodes say their GPUs come through DRA; stale generations, pending claims,
    // admin access and IMEX channels count for nothing.
    void listCountsDraGpus() {
        QVERIFY(m_installed);
        const Status populated = populateDra();
        QVERIFY2(populated.ok(), populated.ok() ? "" : populated.error().message.c_str());
        m_populated = true;

        ClusterSession session;
        session.setTopologyChoice({}, {QStringLiteral("example.com/rack")});
        session.openKubernetes(QStringLiteral("proxied"), m_kubeconfig);
        ClusterSnapshotPtr snapshot;
        QVERIFY(waitForSnapshot(
            session, [](const ClusterSnapshot& s) { return s.status.health == SourceHealth::Live; }, &snapshot));
        const GpuFigures figures = figuresOf(snapshot->index.root().totals);
        QVERIFY2(figures == kBaseline, figures.text().c_str());
        const NodeStats* dra01 = nodeStats(*snapshot, "dra-01");
        QCOMPARE(dra01->gpuSource, GpuSource::Dra);
        QCOMPARE(dra01->gpusTotal, std::int64_t(8));
        QCOMPARE(dra01->gpusUsed, std::int64_t(5));
        QCOMPARE(nodeStats(*snapshot, "dra-02")->gpusTotal, std::int64_t(8));
        const NodeStats* dra03 = nodeStats(*snapshot, "dra-03");
        QCOMPARE(dra03->gpusTotal, std::int64_t(4));
        QCOMPARE(dra03->gpusPartlyUsed, std::int64_t(1));
        QVERIFY(dra03->gpuShareUsed == GpuAmount::fraction(9728, 81920));
        QCOMPARE(nodeStats(*snapshot, "dp-02")->gpuSource, GpuSource::DevicePlugin);
        for (const auto& [plural, objects] : std::vector<std::pair<std::string, std::size_t>>{
                 {"deviceclasses", 3}, {"resourceslices", 5}, {"resourceclaimtemplates", 1}, {"resourceclaims", 7}}) {
            const ResourceHealth* health = resourceHealth(snapshot->status.resources, plural + ".resource.k8s.io");
            QVERIFY(health);
            QCOMPARE(health->state, ResourceHealth::State::Synced);
            QCOMPARE(health->objects, objects);
        }

        const CtlRun show =
            runCtl({QStringLiteral("show"), QStringLiteral("--kubeconfig"), m_kubeconfig, QStringLiteral("--levels"),
                    QStringLiteral("example.com/rack"), QStringLiteral("-o"), QStringLiteral("json")});
        QVERIFY2(show.exitCode == 0, qPrintable(show.describe()));
        const QJsonObject json = show.json();
        QCOMPARE(json[QLatin1String("gpus_total")].toInt(), 36);
        QCOMPARE(json[QLatin1String("gpus_used")].toInt(), 25);
        QCOMPARE(json[QLatin1String("gpus_partly_used")].toInt(), 1);
        QCOMPARE(json[QLatin1String("nodes_gpus_dra")].toInt(), 3);
        QCOMPARE(json[QLatin1String("nodes_gpus_device_plugin")].toInt(), 2);
    }

    // Changes while watching move the figures: a claim allocated (its status PUT, as the
    // scheduler writes it), another deleted, a pool's newer generation taking the old one's place.
    void watchMovesTheCounts() {
        QVERIFY(m_populated);
        ClusterSession session;
        session.setTopologyChoice({}, {QStringLiteral("example.com/rack")});
        session.openKubernetes(QStringLiteral("proxied"), m_kubeconfig);
        const auto figuresAre = [&](const GpuFigures& wanted) {
            ClusterSnapshotPtr last;
            const bool reached = waitForSnapshot(
                session,
                [&](const ClusterSnapshot& s) {
                    return s.status.health == SourceHealth::Live && figuresOf(s.index.root().totals) == wanted;
                },
                &last);
            if (!reached)
                qWarning("wanted %s, have %s", wanted.text().c_str(),
                         last ? figuresOf(last->index.root().totals).text().c_str() : "nothing");
            return reached;
        };
        QVERIFY(figuresAre(kBaseline));

        // Allocated: dra-01's gpu-6 and gpu-7, reserved for no pod yet.
        QVERIFY(m_cluster
                    ->expect("POST", draPath("v1", "resourceclaims", "default"),
                             claimJson("v1", "default", "late", "gpu.nvidia.com", 2))
                    .ok());
        QVERIFY(putClaimStatus("default", "late", allocationStatus("dra-01", gpus({6, 7}), {})).ok());
        GpuFigures figures = kBaseline;
        figures.used += 2;
        figures.share += GpuAmount::whole(2);
        QVERIFY(figuresAre(figures));

        // Deleted: train-1's 8 GPUs on dra-02 are free.
        QVERIFY(m_cluster->expect("DELETE", draPath("v1", "resourceclaims", "team-a") + "/train-1").ok());
        figures.used -= 8;
        figures.share -= GpuAmount::whole(8);
        QVERIFY(figuresAre(figures));

        // dra-01's pool at generation 2 publishes 6 GPUs (gpu-6 and gpu-7 gone): late's allocation
        // no longer holds a published device. The driver then deletes the old slice: no change.
        QVERIFY(m_cluster
                    ->expect("POST", draPath("v1", "resourceslices"),
                             sliceJson("v1", "dra-01-gpu.nvidia.com-g2", "gpu.nvidia.com", "dra-01", 2,
                                       gpuDevices(kH100, "dra-01", 6)))
                    .ok());
        figures.total -= 2;
        figures.used -= 2;
        figures.share -= GpuAmount::whole(2);
        QVERIFY(figuresAre(figures));
        QVERIFY(m_cluster->expect("DELETE", draPath("v1", "resourceslices") + "/dra-01-gpu.nvidia.com-g1").ok());
        QTest::qWait(300);
        QVERIFY(figuresAre(figures));

        // Put it back as it was.
        QVERIFY(restoreBaseline().ok());
        QVERIFY(figuresAre(kBaseline));
    }

    // Watches dropped, and 410 Gone for the DRA kinds: the source relists what it must and ends
    // with the server's objects and exact figures, no claim lost or counted twice; a reconnect
    // with nothing changed brings nothing.
    void reconnectsConvergeOnTheServer() {
        QVERIFY(m_populated);
        FollowedSource followed(m_proxied, fastOptions());
        QVERIFY(followed.waitForStatus(LinkState::Synced));
        QVERIFY2(figuresOf(followed.state) == kBaseline, figuresOf(followed.state).text().c_str());

        // Dropped mid-stream again and again while the claims and a slice change.
        QVERIFY(m_cluster
                    ->expect("POST", draPath("v1", "resourceclaims", "default"),
                             claimJson("v1", "default", "late", "gpu.nvidia.com", 1))
                    .ok());
        m_proxy->dropWatches();
        QVERIFY(m_cluster
                    ->patch(draPath("v1", "resourceclaims", "default") + "/late/status",
                            "{\"status\":" + allocationStatus("dra-01", gpus({6}), "late-pod") + "}")
                    .ok());
        m_proxy->dropWatches();
        QVERIFY(m_cluster->expect("DELETE", draPath("v1", "resourceclaims", "default") + "/idle").ok());
        m_proxy->dropWatches();
        QVERIFY(m_cluster
                    ->expect("POST", draPath("v1", "resourceslices"),
                             sliceJson("v1", "dra-03-gpu.nvidia.com-g2", "gpu.nvidia.com", "dra-03", 2,
                                       gpuDevices(kA100, "dra-03", 4)))
                    .ok());
        QVERIFY2(converges(followed), qPrintable(m_lastDifference));
        // dra-01: +gpu-6, -gpu-4; dra-03's generation 2 has no MIG instances: the allocated one is gone.
        GpuFigures figures = kBaseline;
        figures.used -= 1;
        figures.partlyUsed = 0;
        figures.share = GpuAmount::whole(24);
        QVERIFY2(figuresOf(followed.state) == figures, figuresOf(followed.state).text().c_str());

        // 410 Gone for the claims and slices while the server was away: one relist each, and the
        // relist emits exactly what changed.
        QVERIFY(followed.waitForStatus(LinkState::Synced));
        m_proxy->refuseConnections(true);
        m_proxy->dropWatches();
        QTRY_COMPARE_WITH_TIMEOUT(m_proxy->watchesOpen(), 0, 10000);
        QVERIFY(m_cluster->expect("DELETE", draPath("v1", "resourceclaims", "default") + "/train-0").ok());
        QVERIFY(m_cluster->expect("DELETE", draPath("v1", "resourceslices") + "/dra-03-gpu.nvidia.com-g2").ok());
        m_proxy->expireNextWatch("GET /apis/resource.k8s.io/v1/resourceclaims?watch=1");
        m_proxy->expireNextWatch("GET /apis/resource.k8s.io/v1/resourceslices?watch=1");
        const int claimLists = m_proxy->count("GET /apis/resource.k8s.io/v1/resourceclaims?limit");
        const int sliceLists = m_proxy->count("GET /apis/resource.k8s.io/v1/resourceslices?limit");
        const std::size_t before = followed.events.size();
        m_proxy->refuseConnections(false);
        QVERIFY2(converges(followed), qPrintable(m_lastDifference));
        QCOMPARE(m_proxy->count("GET /apis/resource.k8s.io/v1/resourceclaims?limit"), claimLists + 1);
        QCOMPARE(m_proxy->count("GET /apis/resource.k8s.io/v1/resourceslices?limit"), sliceLists + 1);
        int claimEvents = 0, sliceEvents = 0;
        for (std::size_t i = before; i < followed.events.size(); ++i) {
            const ClusterEvent& event = followed.events[i];
            claimEvents += std::holds_alternative<ResourceClaimUpserted>(event) ||
                           std::holds_alternative<ResourceClaimDeleted>(event);
            sliceEvents += std::holds_alternative<ResourceSliceUpserted>(event) ||
                           std::holds_alternative<ResourceSliceDeleted>(event);
        }
        QCOMPARE(claimEvents, 1); // train-0 deleted
        QCOMPARE(sliceEvents, 1); // generation 2 deleted: generation 1 and its MIG instance count again
        figures.used -= 4;
        figures.share -= GpuAmount::whole(4);
        figures.used += 1; // dra-03's gpu-0, partly used again
        figures.partlyUsed = 1;
        figures.share += GpuAmount::fraction(9728, 81920);
        QVERIFY2(figuresOf(followed.state) == figures, figuresOf(followed.state).text().c_str());

        // Quiet: dropped again, the watches resume and bring nothing.
        QVERIFY(followed.waitForStatus(LinkState::Synced));
        followed.pump();
        const std::size_t quiet = followed.events.size();
        const int watches = m_proxy->count("watch=1");
        int watched = 0; // the resources installed here; the others have no watch
        for (const ResourceHealth& r : followed.status().resources) watched += r.state == ResourceHealth::State::Synced;
        m_proxy->dropWatches();
        QTRY_VERIFY_WITH_TIMEOUT(m_proxy->count("watch=1") >= watches + watched, 20000);
        QVERIFY(followed.waitForStatus(LinkState::Synced));
        followed.pump();
        QCOMPARE(followed.events.size(), quiet);

        QVERIFY(restoreBaseline().ok());
        QVERIFY(followed.waitUntil([](const ClusterState& s) { return figuresOf(s) == kBaseline; }));
    }

    // A server that serves only v1beta1 (a 1.32 cluster with the beta enabled): the CRDs with
    // v1beta1 alone, objects in its shape (devices under `basic`, flat requests). A source
    // following the cluster while the v1 CRDs go sees the DRA GPUs go with them, finds v1beta1
    // when it looks again, and reads its objects as it read v1's.
    void v1beta1OnlyServerIsRead() {
        QVERIFY(m_installed);
        KubeSourceOptions options = fastOptions();
        options.rediscoverEvery = 500ms;
        FollowedSource followed(m_proxied, options);
        QVERIFY(followed.waitForStatus(LinkState::Synced));
        QVERIFY(followed.waitUntil([](const ClusterState& s) { return figuresOf(s) == kBaseline; }));
        for (const std::string& plural : kDraResources) {
            const Status removed = m_cluster->removeCrd("resource.k8s.io", plural);
            QVERIFY2(removed.ok(), removed.ok() ? "" : removed.error().message.c_str());
        }
        m_installed = m_populated = false;
        const GpuFigures pluginOnly{16, 11, 0, GpuAmount::whole(11), 0, 2};
        QVERIFY2(followed.waitUntil([&](const ClusterState& s) {
            bool absent = true;
            for (const std::string& plural : kDraResources)
                absent = absent &&
                         followed.resource(plural + ".resource.k8s.io").state == ResourceHealth::State::NotInstalled;
            return absent && figuresOf(s) == pluginOnly && s.devices().empty();
        }),
                 figuresOf(followed.state).text().c_str());
        for (const std::string& file : kDraCrdFiles) {
            const Status installed = m_cluster->installCrdFile(crdFile(file), {"v1beta1"});
            QVERIFY2(installed.ok(), installed.ok() ? "" : installed.error().message.c_str());
        }
        Result<HttpResponse> group = m_cluster->call("GET", "/apis/resource.k8s.io");
        QVERIFY(group.ok() && group->status == 200);
        const QJsonObject discovery = QJsonDocument::fromJson(QByteArray::fromStdString(group->body)).object();
        QCOMPARE(discovery[QLatin1String("versions")].toArray().size(), 1);
        QCOMPARE(discovery[QLatin1String("preferredVersion")][QLatin1String("version")].toString(),
                 QStringLiteral("v1beta1"));

        const std::string v = "v1beta1";
        QVERIFY(
            m_cluster
                ->expect("POST", draPath(v, "deviceclasses"),
                         deviceClassJson(
                             v, "gpu.nvidia.com",
                             "device.driver == 'gpu.nvidia.com' && device.attributes['gpu.nvidia.com'].type == 'gpu'"))
                .ok());
        QVERIFY(m_cluster
                    ->expect("POST", draPath(v, "resourceslices"),
                             sliceJson(v, "dra-01-gpu.nvidia.com-b1", "gpu.nvidia.com", "dra-01", 1,
                                       gpuDevices(kH100, "dra-01", 8, true)))
                    .ok());
        QVERIFY(m_cluster
                    ->expect("POST", draPath(v, "resourceclaims", "default"),
                             claimJson(v, "default", "beta-0", "gpu.nvidia.com", 3))
                    .ok());
        QVERIFY(m_cluster
                    ->patch(draPath(v, "resourceclaims", "default") + "/beta-0/status",
                            "{\"status\":" + allocationStatus("dra-01", gpus({0, 1, 2}), "beta-pod") + "}")
                    .ok());
        // The shape is what the server keeps: the wrapped devices are there.
        Result<HttpResponse> slice = m_cluster->call("GET", draPath(v, "resourceslices") + "/dra-01-gpu.nvidia.com-b1");
        QVERIFY(slice.ok() && slice->body.find(R"("basic")") != std::string::npos);

        const GpuFigures figures{24, 14, 0, GpuAmount::whole(14), 1, 2};
        if (!followed.waitUntil([&](const ClusterState& s) { return figuresOf(s) == figures; })) {
            std::string states = figuresOf(followed.state).text();
            for (const ResourceHealth& r : followed.status().resources)
                states += "\n  " + r.resource + ": " + std::to_string(int(r.state)) + ' ' + r.message + " objects " +
                          std::to_string(r.objects);
            QFAIL(states.c_str());
        }
        QVERIFY2(converges(followed), qPrintable(m_lastDifference));
        QVERIFY(m_proxy->count("GET /apis/resource.k8s.io/v1beta1/resourceslices?limit") >= 1);
        const auto& claims = followed.state.devices().claims();
        const auto claim = claims.find("default/beta-0");
        QVERIFY(claim != claims.end());
        QCOMPARE(claim->second->spec.requests.size(), std::size_t(1));
        QVERIFY(claim->second->spec.requests[0].exactly.has_value());
        QCOMPARE(claim->second->spec.requests[0].exactly->deviceClassName, std::string("gpu.nvidia.com"));
        QCOMPARE(claim->second->spec.requests[0].exactly->count, std::int64_t(3));
        const auto& slices = followed.state.devices().slices();
        QCOMPARE(slices.at("dra-01-gpu.nvidia.com-b1").slice->devices.size(), std::size_t(8));
        QCOMPARE(slices.at("dra-01-gpu.nvidia.com-b1").slice->devices[0].attributes.size(), std::size_t(9));
    }

private:
    static KubeSourceOptions fastOptions() {
        KubeSourceOptions options;
        options.backoffInitial = 100ms;
        options.backoffMax = 1000ms;
        options.requestTimeout = 10000ms;
        return options;
    }

    // Two device-plugin nodes with their pods, three nodes without device-plugin GPUs (their
    // GPUs will come through DRA), and a second namespace.
    Status populateNodes() {
        for (const auto& [name, gpus, rack] :
             std::vector<std::tuple<std::string, int, std::string>>{{"dp-01", 8, "r1"},
                                                                    {"dp-02", 8, "r1"},
                                                                    {"dra-01", 0, "r2"},
                                                                    {"dra-02", 0, "r2"},
                                                                    {"dra-03", 0, "r3"}}) {
            const std::map<std::string, std::string> labels = {{"example.com/rack", rack},
                                                               {"kubernetes.io/hostname", name}};
            if (Status s = m_cluster->expect("POST", "/api/v1/nodes", nodeJson(name, labels, gpus)); !s) return s;
        }
        if (Status s = m_cluster->expect("POST", "/api/v1/namespaces",
                                         R"({"apiVersion":"v1","kind":"Namespace","metadata":{"name":"team-a"}})");
            !s)
            return s;
        if (Status s = m_cluster->expect("POST", "/api/v1/namespaces/default/pods",
                                         podJson("default", "plugin-0", "dp-01", 3));
            !s)
            return s;
        return m_cluster->expect("POST", "/api/v1/namespaces/default/pods", podJson("default", "plugin-1", "dp-02", 8));
    }

    // The DRA objects of kBaseline, in v1.
    Status populateDra() {
        const std::string v = "v1";
        const std::vector<std::pair<std::string, std::string>> objects = {
            {draPath(v, "deviceclasses"),
             deviceClassJson(v, "gpu.nvidia.com",
                             "device.driver == 'gpu.nvidia.com' && device.attributes['gpu.nvidia.com'].type == 'gpu'",
                             "nvidia.com/gpu")},
            {draPath(v, "deviceclasses"),
             deviceClassJson(v, "mig.nvidia.com",
                             "device.driver == 'gpu.nvidia.com' && device.attributes['gpu.nvidia.com'].type == 'mig'")},
            {draPath(v, "deviceclasses"),
             deviceClassJson(v, "compute-domain-default-channel.nvidia.com",
                             "device.driver == 'compute-domain.nvidia.com' && "
                             "device.attributes['compute-domain.nvidia.com'].type == 'channel' && "
                             "device.attributes['compute-domain.nvidia.com'].id == 0")},
            {draPath(v, "resourceslices"),
             sliceJson(v, "dra-01-gpu.nvidia.com-g1", "gpu.nvidia.com", "dra-01", 1, gpuDevices(kH100, "dra-01", 8))},
            {draPath(v, "resourceslices"),
             sliceJson(v, "dra-01-compute-domain.nvidia.com-g1", "compute-domain.nvidia.com", "dra-01", 1,
                       R"({"name":"daemon-0","attributes":{"id":{"int":0},"type":{"string":"daemon"}}},)"
                       R"({"name":"channel-0","attributes":{"id":{"int":0},"type":{"string":"channel"}}})")},
            {draPath(v, "resourceslices"),
             sliceJson(v, "dra-02-gpu.nvidia.com-g2", "gpu.nvidia.com", "dra-02", 2, gpuDevices(kH100, "dra-02", 8))},
            {draPath(v, "resourceslices"), // left behind by the driver's previous start
             sliceJson(v, "dra-02-gpu.nvidia.com-g1", "gpu.nvidia.com", "dra-02", 1, gpuDevices(kH100, "dra-02", 9))},
            {draPath(v, "resourceslices"), dra03Slice()},
            {draPath(v, "resourceclaimtemplates", "default"),
             R"({"apiVersion":"resource.k8s.io/v1","kind":"ResourceClaimTemplate","metadata":{"name":"two-gpus","namespace":"default"},)"
             R"("spec":{"spec":{"devices":{"requests":[{"name":"a","exactly":{"deviceClassName":"gpu.nvidia.com"}},)"
             R"({"name":"b","exactly":{"deviceClassName":"gpu.nvidia.com"}}],)"
             R"("constraints":[{"requests":["a","b"],"matchAttribute":"resource.kubernetes.io/pcieRoot"}]}}}})"},
        };
        for (const auto& [path, body] : objects)
            if (Status s = m_cluster->expect("POST", path, body); !s) return s;
        struct Claim {
            std::string nameSpace, name, deviceClass;
            int count;
            std::string node;
            std::vector<Allocated> devices;
            std::string pod;
            bool adminAccess = false;
        };
        const std::vector<Claim> claims = {
            {"default", "train-0", "gpu.nvidia.com", 4, "dra-01", gpus({0, 1, 2, 3}), "train-0"},
            {"team-a", "train-1", "gpu.nvidia.com", 8, "dra-02", gpus({0, 1, 2, 3, 4, 5, 6, 7}), "train-1"},
            {"default", "idle", "gpu.nvidia.com", 1, "dra-01", gpus({4}),
             ""}, // allocated, reserved for nobody: still busy
            {"default", "pending", "gpu.nvidia.com", 2, "", {}, ""},
            {"default", "inspect", "gpu.nvidia.com", 1, "dra-01", {{"gpu.nvidia.com", "gpu-5", true}}, "monitor", true},
            {"default", "mig-0", "mig.nvidia.com", 1, "dra-03", {{"gpu.nvidia.com", migName(0, 0)}}, "notebook"},
            {"default",
             "channel",
             "compute-domain-default-channel.nvidia.com",
             1,
             "dra-01",
             {{"compute-domain.nvidia.com", "channel-0"}},
             "train-0"},
        };
        for (const Claim& c : claims) {
            if (Status s = m_cluster->expect("POST", draPath(v, "resourceclaims", c.nameSpace),
                                             claimJson(v, c.nameSpace, c.name, c.deviceClass, c.count, c.adminAccess));
                !s)
                return s;
            if (c.devices.empty()) continue;
            if (Status s = m_cluster->patch(draPath(v, "resourceclaims", c.nameSpace) + '/' + c.name + "/status",
                                            "{\"status\":" + allocationStatus(c.node, c.devices, c.pod) + "}");
                !s)
                return s;
        }
        return {};
    }

    // dra-03: 4 A100s, gpu-0 in MIG mode with two 1g.10gb instances published beside it.
    static std::string dra03Slice() {
        return sliceJson("v1", "dra-03-gpu.nvidia.com-g1", "gpu.nvidia.com", "dra-03", 1,
                         gpuDevices(kA100, "dra-03", 4) + "," + migDevice("dra-03", 0, 0) + "," +
                             migDevice("dra-03", 0, 1));
    }

    // A status PUT on the claim's status subresource, as the scheduler writes an allocation.
    Status putClaimStatus(const std::string& nameSpace, const std::string& name, const std::string& status) {
        const std::string path = draPath("v1", "resourceclaims", nameSpace) + '/' + name;
        Result<HttpResponse> current = m_cluster->call("GET", path);
        if (!current) return current.error();
        QJsonObject object = QJsonDocument::fromJson(QByteArray::fromStdString(current->body)).object();
        object[QLatin1String("status")] = QJsonDocument::fromJson(QByteArray::fromStdString(status)).object();
        return m_cluster->expect("PUT", path + "/status",
                                 QJsonDocument(object).toJson(QJsonDocument::Compact).toStdString());
    }

    // Back to kBaseline from whatever the tests changed (objects deleted again are fine).
    Status restoreBaseline() {
        const std::string v = "v1";
        for (const auto& [nameSpace, name] : std::vector<std::pair<std::string, std::string>>{{"default", "late"}}) {
            Result<HttpResponse> gone = m_cluster->call("DELETE", draPath(v, "resourceclaims", nameSpace) + '/' + name);
            if (!gone) return gone.error();
        }
        for (const char* name : {"dra-01-gpu.nvidia.com-g2", "dra-03-gpu.nvidia.com-g2"}) {
            Result<HttpResponse> gone = m_cluster->call("DELETE", draPath(v, "resourceslices") + '/' + name);
            if (!gone) return gone.error();
        }
        const std::vector<std::pair<std::string, std::string>> slices = {
            {"dra-01-gpu.nvidia.com-g1",
             sliceJson(v, "dra-01-gpu.nvidia.com-g1", "gpu.nvidia.com", "dra-01", 1, gpuDevices(kH100, "dra-01", 8))},
            {"dra-03-gpu.nvidia.com-g1", dra03Slice()}};
        for (const auto& [name, body] : slices) {
            Result<HttpResponse> put = m_cluster->call("POST", draPath(v, "resourceslices"), body);
            if (!put || (put->status != 201 && put->status != 409)) return Error{"cannot put back slice " + name};
        }
        struct Claim {
            std::string nameSpace, name;
            int count;
            std::string node;
            std::vector<Allocated> devices;
            std::string pod;
        };
        for (const Claim& c :
             std::vector<Claim>{{"default", "train-0", 4, "dra-01", gpus({0, 1, 2, 3}), "train-0"},
                                {"team-a", "train-1", 8, "dra-02", gpus({0, 1, 2, 3, 4, 5, 6, 7}), "train-1"},
                                {"default", "idle", 1, "dra-01", gpus({4}), ""}}) {
            Result<HttpResponse> created =
                m_cluster->call("POST", draPath(v, "resourceclaims", c.nameSpace),
                                claimJson(v, c.nameSpace, c.name, "gpu.nvidia.com", c.count));
            if (!created) return created.error();
            if (created->status == 409) continue; // still there
            if (created->status != 201) return Error{"cannot put back claim " + c.name + ": " + created->body};
            if (Status s = m_cluster->patch(draPath(v, "resourceclaims", c.nameSpace) + '/' + c.name + "/status",
                                            "{\"status\":" + allocationStatus(c.node, c.devices, c.pod) + "}");
                !s)
                return s;
        }
        return {};
    }

    // The followed state ends with the DRA objects and figures of a fresh list (within 20 s).
    bool converges(FollowedSource& followed) {
        FollowedSource truth(m_direct);
        if (!truth.waitForStatus(LinkState::Synced)) {
            m_lastDifference = QStringLiteral("the direct source did not sync");
            return false;
        }
        const std::set<std::string> expected = draContentOf(truth.state);
        const bool same = followed.waitUntil([&](const ClusterState& s) { return draContentOf(s) == expected; });
        m_lastDifference = same ? QString() : describeDifference(draContentOf(followed.state), expected);
        return same;
    }

    std::unique_ptr<KubeTestCluster> m_cluster;
    std::unique_ptr<FaultProxy> m_proxy;
    QTemporaryDir m_dir;
    QString m_kubeconfig;
    KubeConnection m_direct;
    KubeConnection m_proxied;
    QString m_lastDifference;
    bool m_installed = false;
    bool m_populated = false;
};

TOPODECK_TEST_GUILESS_MAIN(TestKubeDra)
#include "test_kube_dra.moc"
