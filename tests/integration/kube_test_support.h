#pragma once

// Shared by the Kubernetes integration tests: a small labelled GPU cluster on a real API server,
// topodeckctl runs, and a KubeSource followed in-process.

#include "fault_proxy.h"
#include "kube_test_cluster.h"
#include "live_test_support.h"

#include "core/model/cluster_state.h"
#include "net/kube_source.h"
#include "net/kubeconfig.h"

#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QProcess>
#include <QtCore/QString>
#include <QtCore/QStringList>

#include <chrono>
#include <functional>
#include <map>
#include <thread>

namespace kubetest {

inline constexpr int kNodes = 16;        // gpu-01 .. gpu-16, 4 per rack, 2 racks per block
inline constexpr int kGpusPerNode = 8;
inline constexpr int kUsedGpus = 38;     // 4 x 8 (train-a) + 4 (infer-0) + 2 (debug-0)
inline constexpr int kUnavailableGpus = 16; // gpu-04 NotReady, gpu-08 cordoned
inline constexpr int kPods = 6;          // bound and not finished

inline std::string nodeName(int i) {
    char name[16];
    std::snprintf(name, sizeof name, "gpu-%02d", i);
    return name;
}
inline std::string rackOf(int i) {
    return "r" + std::to_string((i - 1) / 4 + 1);
}
inline std::string blockOf(int i) {
    return "b" + std::to_string((i - 1) / 8 + 1);
}

inline const std::string kHyperNodeB2 =
    R"({"apiVersion":"topology.volcano.sh/v1alpha1","kind":"HyperNode","metadata":{"name":"hn-b2"},)"
    R"("spec":{"tier":2,"tierName":"block","members":[{"type":"HyperNode","selector":{"exactMatch":{"name":"hn-r4"}}}]}})";

// The CRDs, the nodes, the pods and the topology objects every Kubernetes test starts from.
inline topodeck::Status populate(KubeTestCluster& cluster) {
    using topodeck::Status;
    if (Status s = cluster.installCrd("kueue.x-k8s.io", "topologies", "Topology", {"v1beta2", "v1beta1", "v1alpha1"}); !s) return s;
    if (Status s = cluster.installCrd("kueue.x-k8s.io", "resourceflavors", "ResourceFlavor", {"v1beta2", "v1beta1"}); !s) return s;
    if (Status s = cluster.installCrd("kai.scheduler", "topologies", "Topology", {"v1alpha1"}); !s) return s;
    if (Status s = cluster.installCrd("topology.volcano.sh", "hypernodes", "HyperNode", {"v1alpha1"}); !s) return s;
    for (int i = 1; i <= kNodes; ++i) {
        const std::map<std::string, std::string> labels = {{"example.com/block", blockOf(i)},
                                                           {"example.com/rack", rackOf(i)},
                                                           {"kubernetes.io/hostname", nodeName(i)},
                                                           {"nvidia.com/gpu.clique", "clique-" + rackOf(i)},
                                                           {"pool", "gpu"}};
        if (Status s = cluster.expect("POST", "/api/v1/nodes", nodeJson(nodeName(i), labels, kGpusPerNode, i != 4, i == 8));
            !s)
            return s;
    }
    const std::vector<std::tuple<std::string, std::string, int, std::string>> pods = {
        {"train-a-0", "gpu-01", 8, "train-a"}, {"train-a-1", "gpu-02", 8, "train-a"},
        {"train-a-2", "gpu-03", 8, "train-a"}, {"train-a-3", "gpu-05", 8, "train-a"},
        {"infer-0", "gpu-09", 4, "infer"},     {"debug-0", "gpu-10", 2, ""},
        {"done-0", "gpu-11", 8, "done"}};
    for (const auto& [name, node, gpus, job] : pods)
        if (Status s = cluster.expect("POST", "/api/v1/namespaces/default/pods", podJson("default", name, node, gpus, job)); !s)
            return s;
    // A finished pod holds nothing, and the source does not even list it.
    if (Status s = cluster.patch("/api/v1/namespaces/default/pods/done-0/status", R"({"status":{"phase":"Succeeded"}})"); !s)
        return s;
    // A pod the scheduler has not placed: not bound, not listed.
    if (Status s = cluster.expect("POST", "/api/v1/namespaces/default/pods",
                                  R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"pending-0"},)"
                                  R"("spec":{"containers":[{"name":"c","image":"x"}]}})");
        !s)
        return s;
    const std::vector<std::pair<std::string, std::string>> objects = {
        {"/apis/kueue.x-k8s.io/v1beta1/topologies",
         R"({"apiVersion":"kueue.x-k8s.io/v1beta1","kind":"Topology","metadata":{"name":"gpu-topology"},)"
         R"("spec":{"levels":[{"nodeLabel":"example.com/block"},{"nodeLabel":"example.com/rack"},)"
         R"({"nodeLabel":"kubernetes.io/hostname"}]}})"},
        {"/apis/kueue.x-k8s.io/v1beta1/resourceflavors",
         R"({"apiVersion":"kueue.x-k8s.io/v1beta1","kind":"ResourceFlavor","metadata":{"name":"h100"},)"
         R"("spec":{"nodeLabels":{"pool":"gpu"},"topologyName":"gpu-topology"}})"},
        {"/apis/kai.scheduler/v1alpha1/topologies",
         R"({"apiVersion":"kai.scheduler/v1alpha1","kind":"Topology","metadata":{"name":"kai-topology"},)"
         R"("spec":{"levels":[{"nodeLabel":"example.com/block"},{"nodeLabel":"example.com/rack"}]}})"},
        {"/apis/topology.volcano.sh/v1alpha1/hypernodes",
         R"({"apiVersion":"topology.volcano.sh/v1alpha1","kind":"HyperNode","metadata":{"name":"hn-r4"},)"
         R"("spec":{"tier":1,"tierName":"rack","members":[{"type":"Node","selector":{"regexMatch":{"pattern":"^gpu-1[3-6]$"}}}]}})"},
        {"/apis/topology.volcano.sh/v1alpha1/hypernodes", kHyperNodeB2},
    };
    for (const auto& [path, body] : objects)
        if (Status s = cluster.expect("POST", path, body); !s) return s;
    return {};
}

inline std::unique_ptr<KubeTestCluster> startPopulated(QString& why) {
    std::unique_ptr<KubeTestCluster> cluster = KubeTestCluster::start(why);
    if (!cluster) return nullptr;
    if (const topodeck::Status populated = populate(*cluster); !populated) {
        why = QString::fromStdString(populated.error().message);
        return nullptr;
    }
    return cluster;
}

// A fault proxy in front of the cluster's API server, with the server's own certificate.
inline std::unique_ptr<FaultProxy> proxyFor(const KubeTestCluster& cluster) {
    return std::make_unique<FaultProxy>(FaultProxy::Options{cluster.port(), cluster.value("CA"),
                                                           cluster.value("SERVER_CERT"), cluster.value("SERVER_KEY")});
}

// The test cluster's admin context, straight to the server and through the proxy.
struct AdminConnections {
    topodeck::KubeConnection direct;
    topodeck::KubeConnection proxied;
};
inline topodeck::Result<AdminConnections> adminConnections(const KubeTestCluster& cluster, const FaultProxy& proxy) {
    auto config = topodeck::loadKubeconfig(topodeck::KubeconfigLocation{cluster.value("KUBECONFIG"), {}, {}});
    if (!config) return config.error();
    auto direct = topodeck::resolveKubeContext(*config, "admin");
    if (!direct) return direct.error();
    AdminConnections connections{*direct, *direct};
    connections.proxied.server = proxy.url();
    return connections;
}

// Every node's labels as the server holds them: node -> key -> value.
using NodeLabels = std::map<std::string, std::map<std::string, std::string>>;
inline NodeLabels serverNodeLabels(KubeTestCluster& cluster) {
    NodeLabels out;
    topodeck::Result<topodeck::HttpResponse> response = cluster.call("GET", "/api/v1/nodes");
    if (!response) return out;
    const QJsonArray items = QJsonDocument::fromJson(QByteArray::fromStdString(response->body)).object()[QLatin1String("items")].toArray();
    for (const QJsonValue node : items) {
        auto& labels = out[node[QLatin1String("metadata")][QLatin1String("name")].toString().toStdString()];
        const QJsonObject map = node[QLatin1String("metadata")][QLatin1String("labels")].toObject();
        for (auto it = map.begin(); it != map.end(); ++it) labels[it.key().toStdString()] = it.value().toString().toStdString();
    }
    return out;
}

// Puts every node's labels back as `original` has them (a merge patch per node that differs).
inline bool restoreNodeLabels(KubeTestCluster& cluster, const NodeLabels& original) {
    const NodeLabels now = serverNodeLabels(cluster);
    for (const auto& [node, labels] : original) {
        const auto current = now.find(node);
        if (current == now.end()) return false;
        if (current->second == labels) continue;
        QJsonObject patch;
        for (const auto& [key, value] : labels) patch[QString::fromStdString(key)] = QString::fromStdString(value);
        for (const auto& [key, value] : current->second)
            if (!labels.contains(key)) patch[QString::fromStdString(key)] = QJsonValue::Null;
        const QJsonObject body{{QStringLiteral("metadata"), QJsonObject{{QStringLiteral("labels"), patch}}}};
        if (!cluster.patch("/api/v1/nodes/" + node, QJsonDocument(body).toJson().toStdString()).ok()) return false;
    }
    return serverNodeLabels(cluster) == original;
}

// The start of every Kubernetes integration test (in initTestCase): the populated cluster, or the
// test skipped with the reason, which is a failure when CI requires these tests.
#define KUBETEST_START(cluster)                                                                   \
    do {                                                                                         \
        QString why;                                                                             \
        cluster = kubetest::startPopulated(why);                                                 \
        if (!cluster) {                                                                          \
            if (kubeTestsRequired()) QFAIL(qPrintable(why));                                     \
            QSKIP(qPrintable(why));                                                              \
        }                                                                                        \
    } while (false)

using CtlRun = livetest::ProcessRun;
using livetest::runCtl;
using livetest::usedGpus;

// A KubeSource followed in-process.
class FollowedSource : public livetest::LiveFollower {
public:
    explicit FollowedSource(topodeck::KubeConnection connection, topodeck::KubeSourceOptions options = {})
        : LiveFollower(std::make_unique<topodeck::KubeSource>(std::move(connection), topodeck::ExecEnvironment{}, options)) {}
};

} // namespace kubetest
