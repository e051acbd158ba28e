#pragma once

// Shared by the real-Slurm integration tests: slurm-fixture.sh driven from a test (a temp dir,
// a watchdog tied to this process, the env file read back), and the Slurm commands run against it.

#include "live_test_support.h"

#include <QtCore/QCoreApplication>
#include <QtCore/QDir>
#include <QtCore/QElapsedTimer>
#include <QtCore/QFile>
#include <QtCore/QRegularExpression>
#include <QtCore/QStandardPaths>
#include <QtCore/QTemporaryDir>
#include <QtCore/QThread>

#include <unistd.h>

#include <memory>

namespace slurmtest {

using livetest::ProcessRun;

// Why this machine cannot run a real Slurm, or "" when it can.
inline QString unavailableReason() {
    if (geteuid() != 0) return QStringLiteral("not running as root (slurmd launches jobs, munged runs as munge)");
    const QStringList sbin = {QStringLiteral("/usr/sbin"), QStringLiteral("/sbin")};
    for (const QString& tool : {QStringLiteral("slurmctld"), QStringLiteral("slurmd"), QStringLiteral("munged"),
                                QStringLiteral("slurmrestd")})
        if (QStandardPaths::findExecutable(tool).isEmpty() && QStandardPaths::findExecutable(tool, sbin).isEmpty())
            return tool + QStringLiteral(" is not installed (installer/install-deps.sh --tests installs Slurm and munge)");
    for (const QString& tool : {QStringLiteral("sbatch"), QStringLiteral("scontrol"), QStringLiteral("squeue")})
        if (QStandardPaths::findExecutable(tool).isEmpty())
            return tool + QStringLiteral(" is not installed (package slurm-client)");
    return {};
}

// In initTestCase: skips, or fails when TOPODECK_REQUIRE_SLURM=1 (CI), without a real Slurm.
#define SLURMTEST_REQUIRE_SLURM()                                                                    \
    do {                                                                                            \
        if (const QString why = slurmtest::unavailableReason(); !why.isEmpty()) {                   \
            if (qEnvironmentVariable("TOPODECK_REQUIRE_SLURM") == QLatin1String("1"))               \
                QFAIL(qPrintable(QStringLiteral("TOPODECK_REQUIRE_SLURM=1 but ") + why));            \
            QSKIP(qPrintable(QStringLiteral("real Slurm not available: ") + why));                  \
        }                                                                                           \
    } while (false)

// One fixture cluster. TOPODECK_SLURM_PORT moves its ports (default 16817 and up).
class SlurmFixture {
public:
    ~SlurmFixture() { stop(); }

    // `up` with these options (-n, -s, -W, ...); "" or what went wrong.
    QString start(const QStringList& options) {
        stop();
        m_dir = std::make_unique<QTemporaryDir>(QDir::tempPath() + QStringLiteral("/topodeck-slurm-XXXXXX"));
        if (!m_dir->isValid()) return QStringLiteral("cannot make a temp dir: ") + m_dir->errorString();
        int port = 16817;
        if (const QString value = qEnvironmentVariable("TOPODECK_SLURM_PORT"); !value.isEmpty()) port = value.toInt();
        QStringList args = {QStringLiteral("-d"), m_dir->path(), QStringLiteral("-P"), QString::number(port),
                            QStringLiteral("-o"), QString::number(QCoreApplication::applicationPid())};
        args << options << QStringLiteral("up");
        const ProcessRun up = fixture(args, 120000);
        m_running = true; // even a failed `up` may have left something to stop
        if (up.exitCode != 0) return QStringLiteral("slurm-fixture.sh up failed:\n") + up.describe();

        QFile envFile(m_dir->path() + QStringLiteral("/env"));
        if (!envFile.open(QIODevice::ReadOnly)) return QStringLiteral("the fixture wrote no env file");
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        for (QString line : QString::fromUtf8(envFile.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
            line.remove(QRegularExpression(QStringLiteral("^export ")));
            const qsizetype eq = line.indexOf(QLatin1Char('='));
            if (eq > 0) env.insert(line.left(eq), line.mid(eq + 1));
        }
        // A caller's Slurm variables would change what sbatch asks for (and SLURM_JWT how it logs in).
        for (const QString& key : env.keys())
            if ((key.startsWith(QLatin1String("SLURM_")) || key.startsWith(QLatin1String("SBATCH_"))) &&
                key != QLatin1String("SLURM_CONF") && key != QLatin1String("SBATCH_OUTPUT"))
                env.remove(key);
        m_env = env;
        return {};
    }

    void stop() {
        if (!m_running || !m_dir) return;
        m_running = false;
        const ProcessRun down = fixture({QStringLiteral("-d"), m_dir->path(), QStringLiteral("down")}, 60000);
        if (down.exitCode != 0) qWarning("slurm-fixture.sh down failed: %s", qPrintable(down.describe()));
    }

    // Keeps the directory (logs, configuration) for a look after a failure.
    void keep() {
        if (!m_dir) return;
        m_dir->setAutoRemove(false);
        qInfo("kept the cluster's logs and configuration in %s", qPrintable(m_dir->path()));
    }

    // slurmctld alone: "ctld-stop" or "ctld-start".
    QString controller(const QString& command) {
        const ProcessRun run = fixture({QStringLiteral("-d"), m_dir->path(), command}, 60000);
        return run.exitCode == 0 ? QString() : command + QStringLiteral(" failed:\n") + run.describe();
    }

    ProcessRun slurm(const QString& tool, const QStringList& args, int timeoutMs = 60000) const {
        return livetest::runProcess(tool, args, m_env, timeoutMs);
    }
    ProcessRun ctl(const QStringList& args, int timeoutMs = 60000) const {
        return livetest::runCtl(args, timeoutMs, m_env);
    }
    QString value(const char* name) const { return m_env.value(QString::fromLatin1(name)); }
    const QProcessEnvironment& environment() const { return m_env; }
    QString path() const { return m_dir ? m_dir->path() : QString(); }

    // sbatch --parsable ...; the job id, or "" with *error set.
    QString submit(const QStringList& args, QString* error) const {
        QStringList argv = {QStringLiteral("--parsable")};
        argv << args;
        const ProcessRun run = slurm(QStringLiteral("sbatch"), argv);
        const QString id = QString::fromUtf8(run.out).trimmed().section(QLatin1Char(';'), 0, 0);
        if (run.exitCode != 0 || id.isEmpty()) *error = QStringLiteral("sbatch failed:\n") + run.describe();
        return id;
    }

    // Waits until no job is pending and no node is completing; "" or what it waited for.
    QString waitUntilSettled(const QString& what, int timeoutMs = 60000) const {
        QElapsedTimer timer;
        timer.start();
        while (true) {
            const ProcessRun pending =
                slurm(QStringLiteral("squeue"), {QStringLiteral("-h"), QStringLiteral("-t"), QStringLiteral("PD,CF,CG"),
                                                 QStringLiteral("-o"), QStringLiteral("%i %T %r")});
            const ProcessRun completing =
                slurm(QStringLiteral("sinfo"), {QStringLiteral("-h"), QStringLiteral("-t"), QStringLiteral("completing"),
                                                QStringLiteral("-o"), QStringLiteral("%N")});
            if (pending.exitCode == 0 && completing.exitCode == 0 && pending.out.trimmed().isEmpty() &&
                completing.out.trimmed().isEmpty())
                return {};
            if (timer.elapsed() > timeoutMs)
                return QStringLiteral("timed out waiting for %1; squeue: %2 sinfo completing: %3")
                    .arg(what, QString::fromUtf8(pending.out + pending.err),
                         QString::fromUtf8(completing.out + completing.err));
            QThread::msleep(200);
        }
    }

    QStringList expandHostlist(const QString& hostlist) const {
        const ProcessRun expanded =
            slurm(QStringLiteral("scontrol"), {QStringLiteral("show"), QStringLiteral("hostnames"), hostlist});
        QStringList names = QString::fromUtf8(expanded.out).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        names.sort();
        return names;
    }

private:
    static ProcessRun fixture(const QStringList& args, int timeoutMs) {
        return livetest::runProcess(QStringLiteral(TOPODECK_SLURM_FIXTURE), args,
                                    QProcessEnvironment::systemEnvironment(), timeoutMs);
    }

    std::unique_ptr<QTemporaryDir> m_dir;
    QProcessEnvironment m_env;
    bool m_running = false;
};

} // namespace slurmtest
