// Applying label changes to a real kube-apiserver 1.20 + etcd on loopback (issue: change plans),
// side by side with kubectl in the same run: 1,000 nodes each get a new value of one label.
//  - BM_TopodeckApply: applyPlan with the Kubernetes sender (8 connections): the server's dry
//    run of every patch, then the patches in batches of 200, each testing the value it replaces;
//  - BM_KubectlLabel: `kubectl label nodes <1,000 names> --overwrite key=value`, one process, as
//    an operator would run it (kubectl gets each node, then patches it, one after another).
// Counter changes_per_s for both; the README gives the ratio. Skipped (exit 1) without the test
// server; BM_KubectlLabel is left out when kubectl is not on PATH.
#include "kube_test_cluster.h"

#include "core/changes/plan_apply.h"
#include "net/kubeconfig.h"
#include "net/label_patch_sender.h"

#include <benchmark/benchmark.h>

#include <QCoreApplication>
#include <QProcess>
#include <QTemporaryDir>

#include <cstdio>

using namespace topodeck;
using Clock = std::chrono::steady_clock;

namespace {

constexpr int kNodes = 1000;
const std::string kKey = "bench.topodeck.io/round";

struct Fixture {
    std::unique_ptr<KubeTestCluster> cluster;
    QTemporaryDir dir;
    std::string kubeconfig;
    KubeConnection connection;
    int round = 0; // the label's value on every node: "r<round>" (absent at 0)
};
Fixture* g_fixture = nullptr;

std::string nodeName(int i) {
    char name[32];
    std::snprintf(name, sizeof name, "node-%04d", i);
    return name;
}

std::string roundValue(int round) {
    return "r" + std::to_string(round);
}

void BM_TopodeckApply(benchmark::State& state) {
    Fixture& f = *g_fixture;
    const PatchSender send = kubePatchSender(std::make_shared<KubeCredentials>(f.connection, ExecEnvironment{}));
    for (auto _ : state) {
        ChangePlan plan;
        plan.name = "bench";
        for (int i = 0; i < kNodes; ++i)
            plan.labelChanges.push_back({nodeName(i), kKey,
                                         f.round ? std::optional<std::string>(roundValue(f.round)) : std::nullopt,
                                         roundValue(f.round + 1)});
        const auto started = Clock::now();
        const ApplyResult result = applyPlan(plan, {}, send);
        state.SetIterationTime(std::chrono::duration<double>(Clock::now() - started).count());
        if (result.stage != ApplyResult::Stage::Applied) {
            state.SkipWithError("the apply did not complete");
            return;
        }
        ++f.round;
    }
    state.counters["changes_per_s"] = benchmark::Counter(double(kNodes) * double(state.iterations()), benchmark::Counter::kIsRate);
}

void BM_KubectlLabel(benchmark::State& state) {
    Fixture& f = *g_fixture;
    for (auto _ : state) {
        QStringList args = {QStringLiteral("--kubeconfig"), QString::fromStdString(f.kubeconfig), QStringLiteral("--context"),
                            QStringLiteral("direct"), QStringLiteral("label"), QStringLiteral("nodes")};
        for (int i = 0; i < kNodes; ++i) args << QString::fromStdString(nodeName(i));
        args << QStringLiteral("--overwrite") << QString::fromStdString(kKey + "=" + roundValue(f.round + 1));
        QProcess kubectl;
        kubectl.setProcessChannelMode(QProcess::MergedChannels);
        const auto started = Clock::now();
        kubectl.start(QStringLiteral("kubectl"), args);
        const bool done = kubectl.waitForFinished(600000);
        state.SetIterationTime(std::chrono::duration<double>(Clock::now() - started).count());
        if (!done || kubectl.exitCode() != 0) {
            state.SkipWithError(("kubectl failed: " + kubectl.readAll().left(400).toStdString()).c_str());
            return;
        }
        ++f.round;
    }
    state.counters["changes_per_s"] = benchmark::Counter(double(kNodes) * double(state.iterations()), benchmark::Counter::kIsRate);
}

} // namespace

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    benchmark::Initialize(&argc, argv);
    Fixture fixture;
    QString why;
    fixture.cluster = KubeTestCluster::start(why);
    if (!fixture.cluster) {
        std::fprintf(stderr, "no test API server: %s\n", qPrintable(why));
        return 1;
    }
    fixture.kubeconfig = fixture.cluster->writeKubeconfig(fixture.dir.path().toStdString(), "direct", "admin");
    Result<Kubeconfig> config = loadKubeconfig(KubeconfigLocation{fixture.kubeconfig, {}, {}});
    Result<KubeConnection> connection = config ? resolveKubeContext(*config, "direct") : Result<KubeConnection>(config.error());
    if (!connection) return 1;
    fixture.connection = *connection;
    std::vector<std::pair<std::string, std::string>> nodes;
    for (int i = 0; i < kNodes; ++i)
        nodes.emplace_back("/api/v1/nodes", nodeJson(nodeName(i), {{"kubernetes.io/hostname", nodeName(i)}}, 8));
    if (const Status created = fixture.cluster->sendMany("POST", nodes, 8); !created) {
        std::fprintf(stderr, "loading the server failed: %s\n", created.error().message.c_str());
        return 1;
    }
    g_fixture = &fixture;

    benchmark::RegisterBenchmark("BM_TopodeckApply", BM_TopodeckApply)->Iterations(1)->Repetitions(3)->UseManualTime()->Unit(benchmark::kMillisecond);
    if (QProcess::execute(QStringLiteral("kubectl"), {QStringLiteral("version"), QStringLiteral("--client")}) == 0)
        // Once: kubectl's own client-side rate limit sets its pace (about 200 s a run, 0.02 % apart).
        benchmark::RegisterBenchmark("BM_KubectlLabel", BM_KubectlLabel)->Iterations(1)->UseManualTime()->Unit(benchmark::kMillisecond);
    else
        std::fprintf(stderr, "kubectl is not on PATH: BM_KubectlLabel left out\n");
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    g_fixture = nullptr;
    return 0;
}
