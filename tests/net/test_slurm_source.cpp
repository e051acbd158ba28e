// SlurmSource says which Slurm it reads: slurmrestd's version from its replies' meta; through the
// commands, slurmctld's own from `scontrol show config` once per connection, else the commands'
// release (`sinfo --version`, else `scontrol version`), against a scripted slurmrestd and fake
// Slurm commands. The real Slurm 22.05 is in tests/integration.
#include "core/text/base64.h"
#include "net/slurm_source.h"

#include "net_test_support.h"
#include "test_server.h"
#include "support/test_program.h"

#include <QElapsedTimer>
#include <QTest>

#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>

using namespace topodeck;
using namespace nettest;

namespace {

std::string readData(const std::string& relative) {
    std::ifstream in(std::string(TOPODECK_TEST_DATA_DIR) + "/slurm/" + relative, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    if (!in) qWarning("cannot read %s", relative.c_str());
    return text.str();
}

std::string base64url(std::string_view bytes) {
    std::string text = encodeBase64(bytes);
    for (char& c : text) c = c == '+' ? '-' : c == '/' ? '_' : c;
    while (!text.empty() && text.back() == '=') text.pop_back();
    return text;
}

// A token of the shape `scontrol token` prints, valid for an hour.
std::string token() {
    const auto now = std::chrono::system_clock::now().time_since_epoch();
    const auto expires = std::chrono::duration_cast<std::chrono::seconds>(now).count() + 3600;
    return base64url(R"({"alg":"HS256","typ":"JWT"})") + "." +
           base64url(R"({"exp":)" + std::to_string(expires) + R"(,"sun":"root"})") + ".c2lnbmF0dXJl";
}

SlurmSourceOptions quick() {
    SlurmSourceOptions options;
    options.pollInterval = std::chrono::milliseconds(100);
    options.requestTimeout = std::chrono::seconds(5);
    return options;
}

// The status once the source is synced and `done` holds, or after 10 s.
LiveStatus syncedStatus(
    SlurmSource& source, const std::function<bool()>& done = [] { return true; }) {
    QElapsedTimer timer;
    timer.start();
    LiveStatus status = source.status();
    while (timer.elapsed() < 10000 && (status.state != LinkState::Synced || !done())) {
        QTest::qWait(20);
        status = source.status();
    }
    return status;
}

// What the fake `scontrol show config` does: fail as an unknown command, print the real 22.05
// output (tests/data, SLURM_VERSION = 22.05.8) with its version line replaced, or say slurmctld
// cannot be reached as Slurm's commands do.
struct ConfigAnswer {
    enum class Kind { Fails, Prints, Unreachable };
    Kind kind = Kind::Fails;
    std::string version; // Prints: SLURM_VERSION's value
};

// A directory of fake sinfo, squeue and scontrol answering from tests/data (22.05's replies);
// each call is appended to calls.log. `sinfoVersion` / `scontrolVersion`: what `--version` /
// `version` print, or "" for a command that fails there.
std::string fakeCommands(const QTemporaryDir& dir, const std::string& sinfoVersion, const std::string& scontrolVersion,
                         const ConfigAnswer& config = {}) {
    const std::string data = std::string(TOPODECK_TEST_DATA_DIR) + "/slurm/live/";
    const std::string log = pathIn(dir, "calls.log");
    const auto versionLine = [](const std::string& text) {
        return text.empty() ? std::string("echo 'unrecognized option' >&2; exit 1") : "echo '" + text + "'";
    };
    std::string showConfig = "exit 2";
    if (config.kind == ConfigAnswer::Kind::Prints)
        showConfig = "sed 's/^SLURM_VERSION .*/SLURM_VERSION           = " + config.version + "/' '" + data +
                     "scontrol-config.txt'";
    else if (config.kind == ConfigAnswer::Kind::Unreachable)
        showConfig = "echo 'slurm_load_ctl_conf error: Unable to contact slurm controller (connect failure)' >&2; "
                     "exit 1";
    const std::pair<const char*, std::string> scripts[] = {
        {"sinfo", "case \"$*\" in\n  --version) " + versionLine(sinfoVersion) + " ;;\n  --json) cat '" + data +
                      "nodes-v0.0.38.json' ;;\n  *) exit 2 ;;\nesac\n"},
        {"squeue", "cat '" + data + "jobs-v0.0.38.json'\n"},
        {"scontrol", "case \"$*\" in\n  version) " + versionLine(scontrolVersion) + " ;;\n  'show topology') cat '" +
                         data + "scontrol-topology.txt' ;;\n  'show config') " + showConfig +
                         " ;;\n  *) exit 2 ;;\nesac\n"},
    };
    for (const auto& [name, body] : scripts) {
        const std::string path =
            writeFile(dir, std::string("bin/") + name,
                      "#!/bin/sh\necho \"" + std::string(name) + " $*\" >> '" + log + "'\n" + body);
        std::filesystem::permissions(path, std::filesystem::perms::owner_all);
    }
    return pathIn(dir, "bin");
}

int countLines(const std::string& path, const std::string& line) {
    std::ifstream in(path);
    int count = 0;
    for (std::string text; std::getline(in, text);) count += text == line ? 1 : 0;
    return count;
}

} // namespace

class SlurmSourceTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // slurmrestd 22.05 (v0.0.38): meta.Slurm.release of the replies.
    void restReportsItsVersion() {
        QTemporaryDir dir;
        const std::string tokenFile = writeFile(dir, "jwt", token() + "\n");
        const std::string nodes = readData("live/nodes-v0.0.38.json");
        const std::string jobs = readData("live/jobs-v0.0.38.json");
        TestServer server(20, [&](int fd, const std::string& request) {
            if (request.starts_with("GET /openapi/v3 ")) return writeAll(fd, httpResponse(404, "not here"));
            if (request.starts_with("GET /openapi "))
                return writeAll(fd,
                                httpResponse(200, R"({"paths":{"/slurm/v0.0.38/nodes":{},"/slurm/v0.0.38/jobs":{}}})"));
            if (request.starts_with("GET /slurm/v0.0.38/nodes")) return writeAll(fd, httpResponse(200, nodes));
            return writeAll(fd, httpResponse(200, jobs));
        });
        SlurmTarget target;
        target.kind = SlurmTarget::Kind::Rest;
        target.url = server.url("");
        target.tokenFile = tokenFile;
        SlurmSource source(target, quick());
        source.start([] {});
        const LiveStatus status = syncedStatus(source);
        source.stop();
        QCOMPARE(status.state, LinkState::Synced);
        QCOMPARE(QString::fromStdString(status.serverVersion), QStringLiteral("22.05.8"));
        QCOMPARE(QString::fromStdString(status.serverVersionSource), QStringLiteral("slurmrestd"));
    }

    // slurmctld's release decides, whatever the commands are: Slurm 23.11's slurmctld serves
    // 22.05 clients (two releases older), and follows 23.11's rules.
    void cliAsksSlurmctld_data() {
        QTest::addColumn<QString>("configVersion");
        QTest::addColumn<QString>("sinfoVersion");
        QTest::newRow("same release") << "22.05.8"
                                      << "slurm-wlm 22.05.8";
        QTest::newRow("clients two releases older") << "23.11.10"
                                                    << "slurm-wlm 22.05.8";
    }

    void cliAsksSlurmctld() {
        QFETCH(QString, configVersion);
        QFETCH(QString, sinfoVersion);
        QTemporaryDir dir;
        const std::string bin = fakeCommands(dir, sinfoVersion.toStdString(), sinfoVersion.toStdString(),
                                             {ConfigAnswer::Kind::Prints, configVersion.toStdString()});
        const std::string log = pathIn(dir, "calls.log");
        EnvGuard path("PATH");
        qputenv("PATH", QByteArray::fromStdString(bin + ":" + qEnvironmentVariable("PATH").toStdString()));
        SlurmTarget target;
        target.kind = SlurmTarget::Kind::Cli;
        SlurmSource source(target, quick());
        source.start([] {});
        const LiveStatus status = syncedStatus(source, [&] { return countLines(log, "sinfo --json") >= 4; });
        source.stop();
        QCOMPARE(status.state, LinkState::Synced);
        QCOMPARE(QString::fromStdString(status.serverVersion), configVersion);
        QCOMPARE(QString::fromStdString(status.serverVersionSource), QStringLiteral("slurmctld (scontrol show config)"));
        QCOMPARE(countLines(log, "scontrol show config"), 1);
        QCOMPARE(countLines(log, "sinfo --version"), 0);
    }

    // slurmctld down when the source starts: the commands' release stands in, and slurmctld is
    // asked every cycle until it answers (here it never does).
    void cliAsksSlurmctldAgainWhileUnreachable() {
        QTemporaryDir dir;
        const std::string bin =
            fakeCommands(dir, "slurm-wlm 22.05.8", "slurm-wlm 22.05.8", {ConfigAnswer::Kind::Unreachable, {}});
        const std::string log = pathIn(dir, "calls.log");
        EnvGuard path("PATH");
        qputenv("PATH", QByteArray::fromStdString(bin + ":" + qEnvironmentVariable("PATH").toStdString()));
        SlurmTarget target;
        target.kind = SlurmTarget::Kind::Cli;
        SlurmSource source(target, quick());
        source.start([] {});
        const LiveStatus status = syncedStatus(source, [&] { return countLines(log, "sinfo --json") >= 4; });
        source.stop();
        QCOMPARE(QString::fromStdString(status.serverVersion), QStringLiteral("slurm-wlm 22.05.8"));
        QCOMPARE(QString::fromStdString(status.serverVersionSource),
                 QStringLiteral("sinfo --version (the commands' own; slurmctld's was not read)"));
        QVERIFY2(countLines(log, "scontrol show config") >= 3, "slurmctld is asked again each cycle");
    }

    // scontrol show config not answering (an old or restricted scontrol): the commands' release,
    // asked once.
    void cliAsksOnce_data() {
        QTest::addColumn<QString>("sinfoVersion");
        QTest::addColumn<QString>("scontrolVersion");
        QTest::addColumn<QString>("version");
        QTest::addColumn<QString>("from");
        QTest::newRow("Debian's sinfo") << "slurm-wlm 22.05.8"
                                        << "slurm-wlm 22.05.8"
                                        << "slurm-wlm 22.05.8"
                                        << "sinfo --version (the commands' own; slurmctld's was not read)";
        QTest::newRow("scontrol when sinfo cannot say")
            << ""
            << "slurm 24.05.3"
            << "slurm 24.05.3"
            << "scontrol version (the commands' own; slurmctld's was not read)";
        // Neither says: the cluster still shows; the version is unknown.
        QTest::newRow("neither") << ""
                                 << ""
                                 << ""
                                 << "";
    }

    void cliAsksOnce() {
        QFETCH(QString, sinfoVersion);
        QFETCH(QString, scontrolVersion);
        QTemporaryDir dir;
        const std::string bin = fakeCommands(dir, sinfoVersion.toStdString(), scontrolVersion.toStdString());
        const std::string log = pathIn(dir, "calls.log");
        EnvGuard path("PATH");
        qputenv("PATH", QByteArray::fromStdString(bin + ":" + qEnvironmentVariable("PATH").toStdString()));
        SlurmTarget target;
        target.kind = SlurmTarget::Kind::Cli;
        SlurmSource source(target, quick());
        source.start([] {});
        // Three polls after the first: the version was asked in the first only.
        const LiveStatus status = syncedStatus(source, [&] { return countLines(log, "sinfo --json") >= 4; });
        source.stop();
        QCOMPARE(status.state, LinkState::Synced);
        QTEST(QString::fromStdString(status.serverVersion), "version");
        QTEST(QString::fromStdString(status.serverVersionSource), "from");
        QCOMPARE(countLines(log, "scontrol show config"), 1);
        QCOMPARE(countLines(log, "sinfo --version"), 1);
        QCOMPARE(countLines(log, "scontrol version"), sinfoVersion.isEmpty() ? 1 : 0);
    }

    // A command that prints without end is stopped at the limit: the source says so (failing,
    // with the limit and how to raise it) and does not ask scontrol instead; once the command
    // behaves again, the source syncs.
    void endlessCommandOutputIsRefused() {
        QTemporaryDir dir;
        const std::string bin = fakeCommands(dir, "slurm-wlm 22.05.8", "slurm-wlm 22.05.8");
        const std::string log = pathIn(dir, "calls.log");
        const std::string flood = writeFile(dir, "flood", "");
        const std::string sinfo = writeFile(
            dir, "bin/sinfo",
            "#!/bin/sh\necho \"sinfo $*\" >> '" + log + "'\ncase \"$*\" in\n  --version) echo 'slurm-wlm 22.05.8' ;;\n"
            "  --json) [ -e '" + flood + "' ] && exec yes\n    cat '" + std::string(TOPODECK_TEST_DATA_DIR) +
            "/slurm/live/nodes-v0.0.38.json' ;;\n  *) exit 2 ;;\nesac\n");
        std::filesystem::permissions(sinfo, std::filesystem::perms::owner_all);
        EnvGuard path("PATH");
        qputenv("PATH", QByteArray::fromStdString(bin + ":" + qEnvironmentVariable("PATH").toStdString()));
        SlurmTarget target;
        target.kind = SlurmTarget::Kind::Cli;
        SlurmSourceOptions options = quick();
        options.limits.slurmReply = std::size_t{1} << 20;
        SlurmSource source(target, options);
        source.start([] {});
        const std::string refusal = "sinfo --json printed more than the limit of 1 MiB and was stopped; raise it with "
                                    "TOPODECK_MAX_SLURM_REPLY (e.g. TOPODECK_MAX_SLURM_REPLY=2MiB)";
        QElapsedTimer timer;
        timer.start();
        LiveStatus status = source.status();
        while (timer.elapsed() < 10000 && status.message.find(refusal) == std::string::npos) {
            QTest::qWait(20);
            status = source.status();
        }
        QVERIFY2(status.message.find(refusal) != std::string::npos, status.message.c_str());
        QVERIFY(status.state != LinkState::Synced);
        QCOMPARE(countLines(log, "scontrol -o -d show nodes"), 0);

        std::filesystem::remove(flood);
        status = syncedStatus(source);
        source.stop();
        QCOMPARE(status.state, LinkState::Synced);
    }
};

TOPODECK_TEST_GUILESS_MAIN(SlurmSourceTest)
#include "test_slurm_source.moc"
