// Live Kubernetes at scale (issue: live Kubernetes). A real kube-apiserver 1.20 + etcd on loopback
// (kube-fixture.sh) is loaded once per run with 5,000 Nodes and 50,000 Pods, then:
//  - BM_SourceSync: a KubeSource lists and watches it until synced (counters: synced_s, the
//    source's memory as the process RSS it added, MiB);
//  - BM_WindowSync: the GUI (MainWindow on a session) opens the live cluster and shows it, while a
//    5 ms timer on the GUI thread measures the longest event-loop stall; then 10,000 pods are
//    created as fast as the server takes them while the window follows (events/s end to end);
//  - BM_WindowBacklog: 10,000 pod events held back by the fault proxy, then released at once
//    (events/s topodeck itself applies, and the GUI's longest stall meanwhile).
// Needs etcd and the kube-apiserver (installer/install-deps.sh --tests, build-kube-apiserver.sh).
// Figures go in the README and the closing note.

#include "fault_proxy.h"
#include "kube_test_cluster.h"

#include "app/gui/command_line.h"
#include "app/gui/main_window.h"
#include "core/model/cluster_state.h"
#include "core/topology/topology_index.h"
#include "core/topology/topology_presets.h"
#include "net/kube_source.h"
#include "session/cluster_session.h"

#include <benchmark/benchmark.h>

#include <QApplication>
#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QTimer>

#include <malloc.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <memory>
#include <thread>

using namespace topodeck;
using Clock = std::chrono::steady_clock;

namespace {

constexpr int kNodes = 5000;
constexpr int kPodsPerNode = 10; // one GPU job pod and nine small ones (daemons, sidecars), as on real nodes
constexpr int kChanges = 10000;

struct Fixture {
    std::unique_ptr<KubeTestCluster> cluster;
    std::unique_ptr<FaultProxy> proxy;
    QTemporaryDir dir;
    std::string kubeconfig;        // straight to the server
    std::string proxiedKubeconfig; // through the proxy
    KubeConnection connection;
};
Fixture* g_fixture = nullptr;

double rssMiB() {
    std::ifstream statm("/proc/self/statm");
    long pages = 0, resident = 0;
    statm >> pages >> resident;
    return static_cast<double>(resident) * static_cast<double>(sysconf(_SC_PAGESIZE)) / (1024.0 * 1024.0);
}

std::string nodeName(int i) {
    char name[32];
    std::snprintf(name, sizeof name, "gpu-%05d", i);
    return name;
}

bool load(Fixture& f) {
    std::vector<std::pair<std::string, std::string>> objects;
    objects.reserve(kNodes * (1 + kPodsPerNode));
    for (int i = 0; i < kNodes; ++i) {
        const std::map<std::string, std::string> labels = {
            {"topology.k8s.aws/network-node-layer-1", "nn-" + std::to_string(i / 2500)},
            {"topology.k8s.aws/network-node-layer-2", "nn-" + std::to_string(i / 500)},
            {"topology.k8s.aws/network-node-layer-3", "nn-" + std::to_string(i / 32)},
            {"kubernetes.io/hostname", nodeName(i)}};
        objects.emplace_back("/api/v1/nodes", nodeJson(nodeName(i), labels, 8, i % 97 != 0, i % 193 == 0));
    }
    for (int i = 0; i < kNodes; ++i) {
        const int gpus = i % 10 < 6 ? 8 : i % 10 < 8 ? 4 : 0;
        for (int p = 0; p < kPodsPerNode; ++p) {
            const std::string name = "p-" + std::to_string(i) + '-' + std::to_string(p);
            objects.emplace_back("/api/v1/namespaces/default/pods",
                                 podJson("default", name, nodeName(i), p == 0 ? gpus : 0, "job-" + std::to_string(i / 16)));
        }
    }
    const auto started = Clock::now();
    const Status created = f.cluster->sendMany("POST", objects, 8);
    if (!created) {
        std::fprintf(stderr, "loading the server failed: %s\n", created.error().message.c_str());
        return false;
    }
    std::fprintf(stderr, "loaded %d nodes and %d pods into the test server in %.0f s\n", kNodes, kNodes * kPodsPerNode,
                 std::chrono::duration<double>(Clock::now() - started).count());
    return true;
}

// Runs the GUI thread's event loop until `done`, measuring the longest gap between 5 ms ticks.
struct StallProbe {
    QTimer timer;
    QElapsedTimer sinceTick;
    qint64 worstMs = 0;
    StallProbe() {
        timer.setInterval(5);
        QObject::connect(&timer, &QTimer::timeout, [this] {
            worstMs = std::max(worstMs, sinceTick.restart() - 5);
        });
        sinceTick.start();
        timer.start();
    }
};

bool spin(const std::function<bool()>& done, std::chrono::seconds limit) {
    const auto deadline = Clock::now() + limit;
    while (!done()) {
        if (Clock::now() > deadline) return false;
        QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
    }
    return true;
}

void BM_SourceSync(benchmark::State& state) {
    for (auto _ : state) {
        malloc_trim(0);
        const double before = rssMiB();
        const auto started = Clock::now();
        ClusterState cluster;
        KubeSource source(g_fixture->connection, {});
        source.start([] {});
        while (source.status().state != LinkState::Synced) {
            for (ClusterEvent& event : source.takeEvents()) (void)cluster.apply(std::move(event));
            std::this_thread::sleep_for(std::chrono::milliseconds(2));
        }
        for (ClusterEvent& event : source.takeEvents()) (void)cluster.apply(std::move(event));
        const TopologyIndex index = TopologyIndex::build(cluster, *resolveTopology(cluster, "eks", {}));
        const double seconds = std::chrono::duration<double>(Clock::now() - started).count();
        state.SetIterationTime(seconds);
        state.counters["synced_s"] = seconds;
        state.counters["nodes"] = static_cast<double>(cluster.presentNodeCount());
        state.counters["pods"] = static_cast<double>(cluster.podCount());
        state.counters["rss_added_MiB"] = rssMiB() - before;
        benchmark::DoNotOptimize(index.root().totals.gpusUsed);
        source.stop();
    }
}

// A main window following the live cluster, through the fault proxy or straight to the server.
struct Window {
    std::unique_ptr<MainWindow> window = std::make_unique<MainWindow>();
    bool shown = false;

    explicit Window(const std::string& kubeconfig, const char* context) {
        window->resize(1600, 1000);
        window->show();
        QObject::connect(window.get(), &MainWindow::dataShown, [this] { shown = true; });
        LaunchOptions launch;
        launch.contexts = QStringList{QString::fromLatin1(context)};
        launch.kubeconfig = QString::fromStdString(kubeconfig);
        window->open(launch);
    }
    std::int64_t pods() const {
        return window->shownSnapshot() ? window->shownSnapshot()->index.root().totals.pods : 0;
    }
};

std::vector<std::pair<std::string, std::string>> burst(const char* method) {
    std::vector<std::pair<std::string, std::string>> requests;
    for (int i = 0; i < kChanges; ++i) {
        const std::string name = "burst-" + std::to_string(i);
        if (std::string_view(method) == "POST")
            requests.emplace_back("/api/v1/namespaces/default/pods", podJson("default", name, nodeName(i % kNodes), 0));
        else
            requests.emplace_back("/api/v1/namespaces/default/pods/" + name + "?gracePeriodSeconds=0", std::string());
    }
    return requests;
}

// Opens the live cluster in a window and follows 10,000 pod creations as fast as the server
// makes them: the figures of an operator's window on a busy cluster.
void BM_WindowSync(benchmark::State& state) {
    for (auto _ : state) {
        malloc_trim(0);
        const double before = rssMiB();
        StallProbe syncProbe;
        const auto started = Clock::now();
        Window w(g_fixture->kubeconfig, "direct");
        if (!spin([&] { return w.shown; }, std::chrono::seconds(120))) return state.SkipWithError("not shown in 120 s");
        const double syncSeconds = std::chrono::duration<double>(Clock::now() - started).count();
        state.SetIterationTime(syncSeconds);
        state.counters["synced_s"] = syncSeconds;
        state.counters["sync_max_stall_ms"] = static_cast<double>(syncProbe.worstMs);
        state.counters["rss_MiB"] = rssMiB();
        state.counters["rss_added_MiB"] = rssMiB() - before;

        const std::int64_t basePods = w.pods();
        StallProbe streamProbe;
        const auto streamStart = Clock::now();
        Status created;
        std::thread writer([&] { created = g_fixture->cluster->sendMany("POST", burst("POST"), 8); });
        const bool followed = spin([&] { return w.pods() == basePods + kChanges; }, std::chrono::seconds(300));
        writer.join();
        if (!created) return state.SkipWithError(created.error().message.c_str());
        if (!followed) return state.SkipWithError("the window did not follow the new pods");
        state.counters["live_events_per_s"] = kChanges / std::chrono::duration<double>(Clock::now() - streamStart).count();
        state.counters["live_max_stall_ms"] = static_cast<double>(streamProbe.worstMs);
        if (const Status deleted = g_fixture->cluster->sendMany("DELETE", burst("DELETE"), 8); !deleted)
            return state.SkipWithError(deleted.error().message.c_str());
        if (!spin([&] { return w.pods() == basePods; }, std::chrono::seconds(300)))
            return state.SkipWithError("the window did not follow the deletions");
    }
}

// 10,000 pod events held back by the fault proxy, then released at once: how fast topodeck
// applies them with the server out of the way, and how long the GUI thread stalls meanwhile.
void BM_WindowBacklog(benchmark::State& state) {
    for (auto _ : state) {
        Window w(g_fixture->proxiedKubeconfig, "proxied");
        if (!spin([&] { return w.shown; }, std::chrono::seconds(120))) return state.SkipWithError("not shown in 120 s");
        const std::int64_t basePods = w.pods();
        for (const char* method : {"POST", "DELETE"}) {
            g_fixture->proxy->holdWatches(true);
            if (const Status sent = g_fixture->cluster->sendMany(method, burst(method), 8); !sent)
                return state.SkipWithError(sent.error().message.c_str());
            std::this_thread::sleep_for(std::chrono::seconds(2)); // the server's events reach the proxy
            const std::int64_t wanted = std::string_view(method) == "POST" ? basePods + kChanges : basePods;
            StallProbe probe;
            const auto released = Clock::now();
            g_fixture->proxy->holdWatches(false);
            if (!spin([&] { return w.pods() == wanted; }, std::chrono::seconds(120)))
                return state.SkipWithError("the window did not follow the released events");
            const double seconds = std::chrono::duration<double>(Clock::now() - released).count();
            state.SetIterationTime(seconds);
            const std::string prefix = std::string_view(method) == "POST" ? "added" : "deleted";
            state.counters[prefix + "_events_per_s"] = kChanges / seconds;
            state.counters[prefix + "_max_stall_ms"] = static_cast<double>(probe.worstMs);
        }
    }
}

} // namespace

int main(int argc, char** argv) {
    if (!qEnvironmentVariableIsSet("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    benchmark::Initialize(&argc, argv);
    Fixture fixture;
    QString why;
    fixture.cluster = KubeTestCluster::start(why);
    if (!fixture.cluster) {
        std::fprintf(stderr, "no test API server: %s\n", qPrintable(why));
        return 1;
    }
    fixture.proxy = std::make_unique<FaultProxy>(FaultProxy::Options{fixture.cluster->port(), fixture.cluster->value("CA"),
                                                                    fixture.cluster->value("SERVER_CERT"),
                                                                    fixture.cluster->value("SERVER_KEY")});
    fixture.kubeconfig = fixture.cluster->writeKubeconfig(fixture.dir.path().toStdString(), "direct", "admin");
    fixture.proxiedKubeconfig =
        fixture.cluster->writeKubeconfig(fixture.dir.path().toStdString(), "proxied", "admin", fixture.proxy->url());
    Result<Kubeconfig> config = loadKubeconfig(KubeconfigLocation{fixture.kubeconfig, {}, {}});
    Result<KubeConnection> connection = config ? resolveKubeContext(*config, "direct") : Result<KubeConnection>(config.error());
    if (!connection || !load(fixture)) return 1;
    fixture.connection = *connection;
    g_fixture = &fixture;

    benchmark::RegisterBenchmark("BM_SourceSync", BM_SourceSync)->Iterations(1)->Repetitions(3)->UseManualTime()->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark("BM_WindowSync", BM_WindowSync)->Iterations(1)->Repetitions(3)->UseManualTime()->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark("BM_WindowBacklog", BM_WindowBacklog)->Iterations(1)->Repetitions(3)->UseManualTime()->Unit(benchmark::kMillisecond);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    g_fixture = nullptr;
    return 0;
}
