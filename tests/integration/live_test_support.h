#pragma once

// Shared by the integration tests: programs run with a deadline, and a live source (Kubernetes
// or Slurm) followed in-process, its events applied to a ClusterState on the test's thread.

#include "core/model/cluster_state.h"
#include "net/live_source.h"

#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QProcess>
#include <QtCore/QProcessEnvironment>
#include <QtCore/QString>
#include <QtCore/QStringList>

#include <chrono>
#include <functional>
#include <memory>
#include <thread>
#include <vector>

namespace livetest {

struct ProcessRun {
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
    QJsonObject json() const { return QJsonDocument::fromJson(out).object(); }
    QString describe() const {
        return QStringLiteral("exit %1\nstderr: %2\nstdout: %3")
            .arg(exitCode)
            .arg(QString::fromUtf8(err).trimmed(), QString::fromUtf8(out.left(2000)).trimmed());
    }
};

// Runs a program without a shell or stdin; a timeout kills it (exit code -1, err says so).
inline ProcessRun runProcess(const QString& program, const QStringList& args,
                             const QProcessEnvironment& env = QProcessEnvironment::systemEnvironment(),
                             int timeoutMs = 60000) {
    QProcess process;
    process.setProcessEnvironment(env);
    process.setStandardInputFile(QProcess::nullDevice());
    process.start(program, args);
    ProcessRun run;
    if (!process.waitForStarted(10000)) {
        run.err = "could not start " + program.toUtf8();
        return run;
    }
    if (!process.waitForFinished(timeoutMs)) {
        process.kill();
        process.waitForFinished();
        run.err = "timed out: " + program.toUtf8() + ' ' + args.join(QLatin1Char(' ')).toUtf8();
        return run;
    }
    run.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    run.out = process.readAllStandardOutput();
    run.err = process.readAllStandardError();
    return run;
}

inline ProcessRun runCtl(const QStringList& args, int timeoutMs = 60000,
                         const QProcessEnvironment& env = QProcessEnvironment::systemEnvironment()) {
    return runProcess(QStringLiteral(TOPODECKCTL_PATH), args, env, timeoutMs);
}

// A live source applied to a ClusterState on the test's thread, with every event kept for checks.
class LiveFollower {
public:
    explicit LiveFollower(std::unique_ptr<topodeck::LiveSource> source) : m_source(std::move(source)) {
        m_source->start([] {});
    }
    ~LiveFollower() { m_source->stop(); }
    LiveFollower(const LiveFollower&) = delete;
    LiveFollower& operator=(const LiveFollower&) = delete;

    // Applies what arrived; true once `done(state)` holds, false after `timeout`.
    bool waitUntil(const std::function<bool(const topodeck::ClusterState&)>& done,
                   std::chrono::milliseconds timeout = std::chrono::seconds(20)) {
        const auto deadline = std::chrono::steady_clock::now() + timeout;
        while (true) {
            pump();
            if (done(state)) return true;
            if (std::chrono::steady_clock::now() >= deadline) return false;
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
    }
    bool waitForStatus(topodeck::LinkState wanted, std::chrono::milliseconds timeout = std::chrono::seconds(20)) {
        const auto deadline = std::chrono::steady_clock::now() + timeout;
        while (m_source->status().state != wanted) {
            pump();
            if (std::chrono::steady_clock::now() >= deadline) return false;
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
        pump();
        return true;
    }
    void pump() {
        for (topodeck::ClusterEvent& event : m_source->takeEvents()) {
            events.push_back(event);
            (void)state.apply(std::move(event));
        }
    }
    topodeck::LiveStatus status() const { return m_source->status(); }
    topodeck::ResourceHealth resource(const std::string& name) const {
        for (const topodeck::ResourceHealth& r : m_source->status().resources)
            if (r.resource == name) return r;
        return {};
    }
    void stop() { m_source->stop(); }

    topodeck::ClusterState state;
    std::vector<topodeck::ClusterEvent> events;

private:
    std::unique_ptr<topodeck::LiveSource> m_source;
};

// GPUs requested by the pods bound to present nodes.
inline long long usedGpus(const topodeck::ClusterState& state) {
    long long used = 0;
    for (topodeck::NodeId id = 0; id < state.nodeSlots(); ++id) {
        const topodeck::NodeRecord& record = state.record(id);
        if (record.present) used += record.usage.requested.get("nvidia.com/gpu").value();
    }
    return used;
}

} // namespace livetest
