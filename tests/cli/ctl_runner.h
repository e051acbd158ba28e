#pragma once
// Runs the built topodeckctl for the CLI tests and compares outputs line by line.

#include <QtCore/QByteArray>
#include <QtCore/QProcess>
#include <QtCore/QProcessEnvironment>
#include <QtCore/QString>
#include <QtCore/QStringList>

#include <algorithm>

namespace ctl {

struct Run {
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};

const QString kDataDir = QStringLiteral(TOPODECK_TEST_DATA_DIR);

// Runs topodeckctl in the test data folder (so file names in the output are relative and the
// golden files do not depend on where the checkout is), without NO_COLOR from the caller.
inline Run runCtl(const QStringList& args, const QByteArray& input = {}, const QProcessEnvironment* env = nullptr) {
    QProcess process;
    process.setWorkingDirectory(kDataDir);
    QProcessEnvironment environment = env != nullptr ? *env : QProcessEnvironment::systemEnvironment();
    if (env == nullptr) environment.remove(QStringLiteral("NO_COLOR"));
    process.setProcessEnvironment(environment);
    process.start(QStringLiteral(TOPODECKCTL_PATH), args);
    Run run;
    if (!process.waitForStarted(10000)) {
        run.err = "could not start " TOPODECKCTL_PATH;
        return run;
    }
    if (!input.isEmpty()) process.write(input);
    process.closeWriteChannel();
    if (!process.waitForFinished(60000)) {
        process.kill();
        process.waitForFinished();
        run.err = "timed out";
        return run;
    }
    run.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    run.out = process.readAllStandardOutput();
    run.err = process.readAllStandardError();
    return run;
}

inline QString firstDifference(const QByteArray& actual, const QByteArray& expected) {
    const QList<QByteArray> a = actual.split('\n');
    const QList<QByteArray> e = expected.split('\n');
    for (qsizetype i = 0; i < std::max(a.size(), e.size()); ++i) {
        const QByteArray lineA = i < a.size() ? a[i] : QByteArray("<end of output>");
        const QByteArray lineE = i < e.size() ? e[i] : QByteArray("<end of file>");
        if (lineA != lineE)
            return QStringLiteral("line %1\n  actual:   %2\n  expected: %3")
                .arg(i + 1)
                .arg(QString::fromUtf8(lineA), QString::fromUtf8(lineE));
    }
    return {};
}

} // namespace ctl

using namespace ctl;
