#include "net/exec_credential.h"
#include "net/kube_credentials.h"
#include "net/kubeconfig.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include "net_test_support.h"
#include "support/test_program.h"

#include <QTest>

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

using namespace topodeck;
using namespace std::chrono_literals;
using namespace Qt::StringLiterals;
namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

constexpr const char* kV1 = "client.authentication.k8s.io/v1";
constexpr const char* kV1beta1 = "client.authentication.k8s.io/v1beta1";

const std::string kCertPem = "-----BEGIN CERTIFICATE-----\nMIIBplugin-cert\n-----END CERTIFICATE-----\n";
const std::string kKeyPem = "-----BEGIN EC PRIVATE KEY-----\nMHcplugin-key\n-----END EC PRIVATE KEY-----\n";

QString q(const std::string& text) {
    return QString::fromStdString(text);
}

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

template <class T>
const char* why(const Result<T>& result) {
    static thread_local std::string text;
    text = result ? std::string("no error") : result.error().message;
    return text.c_str();
}


std::string readText(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

bool exists(const std::string& path) {
    std::error_code ec;
    return fs::exists(path, ec);
}

// An executable /bin/sh script.
std::string writeScript(const QTemporaryDir& dir, const std::string& name, const std::string& body) {
    const std::string path = writeFile(dir, name, "#!/bin/sh\n" + body);
    fs::permissions(path, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                              fs::perms::others_read | fs::perms::others_exec);
    return path;
}

// JSON string escaping for the few characters the tests use.
std::string jsonString(const std::string& text) {
    std::string out = "\"";
    for (const char c : text) {
        if (c == '\n')
            out += "\\n";
        else if (c == '"' || c == '\\')
            out += std::string("\\") + c;
        else
            out += c;
    }
    return out + '"';
}

std::string credentialJson(const std::string& apiVersion, const std::string& status,
                           const std::string& kind = "ExecCredential") {
    return "{\"apiVersion\":" + jsonString(apiVersion) + ",\"kind\":" + jsonString(kind) + ",\"status\":" + status + "}";
}

std::string tokenStatus(const std::string& token, const std::string& expiration = {}) {
    std::string status = "{\"token\":" + jsonString(token);
    if (!expiration.empty()) status += ",\"expirationTimestamp\":" + jsonString(expiration);
    return status + "}";
}

// A script body that prints `text` on stdout.
std::string printing(const std::string& text) {
    return "cat <<'END_OF_OUTPUT'\n" + text + "\nEND_OF_OUTPUT\n";
}

KubeExecConfig execConfig(const std::string& command, const std::string& apiVersion = kV1,
                          const std::string& mode = "Never") {
    KubeExecConfig exec;
    exec.command = command;
    exec.apiVersion = apiVersion;
    exec.interactiveMode = mode;
    return exec;
}

ExecEnvironment quietEnvironment(std::chrono::milliseconds timeout = 20s) {
    ExecEnvironment environment;
    environment.timeout = timeout;
    return environment;
}

std::chrono::system_clock::time_point at(std::int64_t seconds, std::int64_t nanos = 0) {
    return std::chrono::system_clock::time_point(std::chrono::duration_cast<std::chrono::system_clock::duration>(
        std::chrono::seconds(seconds) + std::chrono::nanoseconds(nanos)));
}

qint64 nanosSinceEpoch(std::chrono::system_clock::time_point time) {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(time.time_since_epoch()).count();
}

QJsonObject jsonObject(const std::string& text) {
    QJsonParseError error{};
    const QJsonDocument document = QJsonDocument::fromJson(QByteArray::fromStdString(text), &error);
    if (error.error != QJsonParseError::NoError || !document.isObject()) return {};
    return document.object();
}

qint64 millisSince(Clock::time_point start) {
    return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start).count();
}

// Whether the process has ended (gone, or a zombie nobody reaped yet), waiting up to `patience`.
bool processEnds(pid_t pid, std::chrono::milliseconds patience) {
    const auto deadline = Clock::now() + patience;
    do {
        std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
        if (!stat) return true;
        std::string line;
        std::getline(stat, line);
        const auto close = line.rfind(')');
        if (close != std::string::npos && close + 2 < line.size() && (line[close + 2] == 'Z' || line[close + 2] == 'X'))
            return true;
        std::this_thread::sleep_for(20ms);
    } while (Clock::now() < deadline);
    return false;
}

// Makes a file this process's standard input for the scope, so a plugin that gets our stdin can be
// told from one that gets /dev/null.
class StdinFrom {
public:
    explicit StdinFrom(const std::string& file) : m_saved(::dup(STDIN_FILENO)) {
        const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
        if (fd >= 0) {
            ::dup2(fd, STDIN_FILENO);
            ::close(fd);
        }
    }
    ~StdinFrom() {
        if (m_saved >= 0) {
            ::dup2(m_saved, STDIN_FILENO);
            ::close(m_saved);
        }
    }
    StdinFrom(const StdinFrom&) = delete;
    StdinFrom& operator=(const StdinFrom&) = delete;

private:
    int m_saved;
};

// A plugin that appends a line to `count` each run and answers token tok-<run number>.
std::string countingPlugin(const QTemporaryDir& dir, const std::string& name, const std::string& count,
                           const std::string& expiration = {}) {
    const std::string expires = expiration.empty() ? "" : ",\"expirationTimestamp\":\"" + expiration + "\"";
    return writeScript(dir, name,
                       "echo run >> '" + count + "'\n"
                       "n=$(wc -l < '" + count + "')\n"
                       "n=$((n + 0))\n"
                       "printf '{\"apiVersion\":\"client.authentication.k8s.io/v1\",\"kind\":\"ExecCredential\","
                       "\"status\":{\"token\":\"tok-%s\"" + expires + "}}\\n' \"$n\"\n");
}

int runs(const std::string& count) {
    const std::string text = readText(count);
    return int(std::count(text.begin(), text.end(), '\n'));
}

} // namespace

class ExecCredentialTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // ---- runExecPlugin: answers ---------------------------------------------------------------

    void returnsAToken() {
        QTemporaryDir dir;
        const std::string plugin =
            writeScript(dir, "plugin", printing(credentialJson(kV1, tokenStatus("tok-123", "2030-01-02T03:04:05Z"))));
        const Result<ExecCredential> credential = runExecPlugin(execConfig(plugin), "", quietEnvironment());
        QVERIFY2(credential, why(credential));
        QCOMPARE(q(credential->token), u"tok-123"_s);
        QVERIFY(credential->clientCertificateData.empty());
        QVERIFY(credential->clientKeyData.empty());
        QVERIFY(credential->expiration);
        QCOMPARE(nanosSinceEpoch(*credential->expiration), nanosSinceEpoch(at(1893553445)));
        QVERIFY(!credential->expired(at(1893553444)));
        QVERIFY(credential->expired(at(1893553445)));
    }

    void returnsAClientCertificate() {
        QTemporaryDir dir;
        const std::string status = "{\"clientCertificateData\":" + jsonString(kCertPem) +
                                   ",\"clientKeyData\":" + jsonString(kKeyPem) + "}";
        const std::string plugin = writeScript(dir, "plugin", printing(credentialJson(kV1beta1, status)));
        const Result<ExecCredential> credential = runExecPlugin(execConfig(plugin, kV1beta1), "", quietEnvironment());
        QVERIFY2(credential, why(credential));
        QVERIFY(credential->token.empty());
        QCOMPARE(q(credential->clientCertificateData), q(kCertPem));
        QCOMPARE(q(credential->clientKeyData), q(kKeyPem));
        QVERIFY2(!credential->expiration, "no expirationTimestamp: no expiry");
        QVERIFY(!credential->expired(at(4102444800)));
    }

    void argumentsArePassedWithoutAShell() {
        QTemporaryDir dir;
        const std::string dump = pathIn(dir, "args");
        const std::string plugin = writeScript(dir, "plugin",
                                               "printf '%s\\n' \"$#\" > '" + dump + "'\n"
                                               "for a in \"$@\"; do printf '[%s]\\n' \"$a\" >> '" + dump + "'; done\n" +
                                                   printing(credentialJson(kV1, tokenStatus("t"))));
        KubeExecConfig exec = execConfig(plugin);
        exec.args = {"get-token", "two words", "$HOME", "*", "a;touch injected", "", "--flag=x"};
        const Result<ExecCredential> credential = runExecPlugin(exec, "", quietEnvironment());
        QVERIFY2(credential, why(credential));
        QCOMPARE(q(readText(dump)), u"7\n[get-token]\n[two words]\n[$HOME]\n[*]\n[a;touch injected]\n[]\n[--flag=x]\n"_s);
        QVERIFY(!exists(pathIn(dir, "injected")));
    }

    void environmentIsOursWithTheKubeconfigsOverIt() {
        EnvGuard parent("TOPODECK_EXEC_TEST_PARENT"), overridden("TOPODECK_EXEC_TEST_OVERRIDE"),
            added("TOPODECK_EXEC_TEST_NEW"), info("KUBERNETES_EXEC_INFO");
        qputenv("TOPODECK_EXEC_TEST_PARENT", "from-parent");
        qputenv("TOPODECK_EXEC_TEST_OVERRIDE", "parent-value");
        qunsetenv("TOPODECK_EXEC_TEST_NEW");
        qputenv("KUBERNETES_EXEC_INFO", "stale");
        QTemporaryDir dir;
        const std::string dump = pathIn(dir, "env");
        const std::string plugin =
            writeScript(dir, "plugin",
                        "printf '%s\\n' \"$TOPODECK_EXEC_TEST_PARENT\" \"$TOPODECK_EXEC_TEST_OVERRIDE\" "
                        "\"$TOPODECK_EXEC_TEST_NEW\" \"${PATH:+path-set}\" > '" + dump + "'\n"
                        "printf '%s' \"$KUBERNETES_EXEC_INFO\" > '" + dump + ".info'\n" +
                            printing(credentialJson(kV1, tokenStatus("t"))));
        KubeExecConfig exec = execConfig(plugin);
        exec.env = {{"TOPODECK_EXEC_TEST_OVERRIDE", "from-kubeconfig"}, {"TOPODECK_EXEC_TEST_NEW", "a = b c"}};
        const Result<ExecCredential> credential = runExecPlugin(exec, "", quietEnvironment());
        QVERIFY2(credential, why(credential));
        QCOMPARE(q(readText(dump)), u"from-parent\nfrom-kubeconfig\na = b c\npath-set\n"_s);
        const QJsonObject request = jsonObject(readText(dump + ".info"));
        QCOMPARE(request.value(u"kind"_s).toString(), u"ExecCredential"_s);
        // The plugin's view of our environment is unchanged for us.
        QCOMPARE(qgetenv("TOPODECK_EXEC_TEST_OVERRIDE"), QByteArray("parent-value"));
    }

    void execInfoDescribesTheRequest_data() {
        QTest::addColumn<QString>("apiVersion");
        QTest::addColumn<QString>("clusterInfo");
        QTest::newRow("v1 without cluster") << q(kV1) << QString();
        QTest::newRow("v1beta1 without cluster") << q(kV1beta1) << QString();
        QTest::newRow("v1 with cluster")
            << q(kV1) << u"{\"server\":\"https://k8s.example:6443\",\"config\":{\"audience\":\"sts\"}}"_s;
        QTest::newRow("v1beta1 with cluster") << q(kV1beta1) << u"{\"server\":\"https://other\"}"_s;
    }
    void execInfoDescribesTheRequest() {
        QFETCH(QString, apiVersion);
        QFETCH(QString, clusterInfo);
        QTemporaryDir dir;
        const std::string dump = pathIn(dir, "info");
        const std::string plugin = writeScript(dir, "plugin",
                                               "printf '%s' \"$KUBERNETES_EXEC_INFO\" > '" + dump + "'\n" +
                                                   printing(credentialJson(apiVersion.toStdString(), tokenStatus("t"))));
        const Result<ExecCredential> credential =
            runExecPlugin(execConfig(plugin, apiVersion.toStdString()), clusterInfo.toStdString(), quietEnvironment());
        QVERIFY2(credential, why(credential));
        const std::string text = readText(dump);
        const QJsonObject request = jsonObject(text);
        QVERIFY2(!request.isEmpty(), text.c_str());
        QCOMPARE(request.value(u"apiVersion"_s).toString(), apiVersion);
        QCOMPARE(request.value(u"kind"_s).toString(), u"ExecCredential"_s);
        const QJsonObject spec = request.value(u"spec"_s).toObject();
        QVERIFY2(spec.value(u"interactive"_s).isBool(), text.c_str());
        QCOMPARE(spec.value(u"interactive"_s).toBool(), false);
        if (clusterInfo.isEmpty())
            QVERIFY2(!spec.contains(u"cluster"_s), text.c_str());
        else
            QCOMPARE(spec.value(u"cluster"_s).toObject(), jsonObject(clusterInfo.toStdString()));
    }

    void interactiveModes_data() {
        QTest::addColumn<QString>("mode");
        QTest::addColumn<bool>("terminal");
        QTest::addColumn<bool>("interactive");
        QTest::newRow("Never, no terminal") << u"Never"_s << false << false;
        QTest::newRow("Never, terminal") << u"Never"_s << true << false;
        QTest::newRow("IfAvailable, no terminal") << u"IfAvailable"_s << false << false;
        QTest::newRow("IfAvailable, terminal") << u"IfAvailable"_s << true << true;
        QTest::newRow("Always, terminal") << u"Always"_s << true << true;
    }
    void interactiveModes() {
        QFETCH(QString, mode);
        QFETCH(bool, terminal);
        QFETCH(bool, interactive);
        QTemporaryDir dir;
        const std::string dump = pathIn(dir, "dump");
        const std::string plugin =
            writeScript(dir, "plugin",
                        "printf '%s' \"$KUBERNETES_EXEC_INFO\" > '" + dump + ".info'\n"
                        "readlink /proc/$$/fd/0 > '" + dump + ".stdin'\n"
                        "line=''\n"
                        "IFS= read -r line || true\n"
                        "printf '%s\\n' \"$line\" > '" + dump + ".line'\n" +
                            printing(credentialJson(kV1, tokenStatus("t"))));
        const std::string answer = writeFile(dir, "typed", "typed-answer\n");
        ExecEnvironment environment = quietEnvironment();
        environment.terminalAvailable = terminal;
        Result<ExecCredential> credential = Error{"not run"};
        {
            StdinFrom input(answer);
            credential = runExecPlugin(execConfig(plugin, kV1, mode.toStdString()), "", environment);
        }
        QVERIFY2(credential, why(credential));
        const QJsonObject spec = jsonObject(readText(dump + ".info")).value(u"spec"_s).toObject();
        QCOMPARE(spec.value(u"interactive"_s).toBool(!interactive), interactive);
        if (interactive) {
            QCOMPARE(q(readText(dump + ".line")), u"typed-answer\n"_s);
        } else {
            QCOMPARE(q(readText(dump + ".stdin")), u"/dev/null\n"_s);
            QCOMPARE(q(readText(dump + ".line")), u"\n"_s);
        }
    }

    void alwaysWithoutATerminalIsAnError() {
        QTemporaryDir dir;
        const std::string ran = pathIn(dir, "ran");
        const std::string plugin =
            writeScript(dir, "plugin", "touch '" + ran + "'\n" + printing(credentialJson(kV1, tokenStatus("t"))));
        ExecEnvironment environment = quietEnvironment();
        environment.terminalAvailable = false;
        const Result<ExecCredential> credential = runExecPlugin(execConfig(plugin, kV1, "Always"), "", environment);
        QVERIFY2(!credential, "Always without a terminal must fail");
        QVERIFY2(contains(credential.error().message, "Always"), why(credential));
        QVERIFY2(contains(credential.error().message, plugin), why(credential));
        QVERIFY2(!exists(ran), "the plugin must not run");
    }

    void stderrLinesGoToOnMessage() {
        QTemporaryDir dir;
        const std::string plugin =
            writeScript(dir, "plugin",
                        "printf 'first\\nsecond\\r\\n' >&2\n"
                        "printf 'Open https://login.example/device and enter ABCD-EFGH\\n' >&2\n"
                        "printf 'last without newline' >&2\n" +
                            printing(credentialJson(kV1, tokenStatus("t"))));
        std::vector<std::string> lines;
        ExecEnvironment environment = quietEnvironment();
        environment.onMessage = [&lines](std::string_view line) { lines.emplace_back(line); };
        const Result<ExecCredential> credential = runExecPlugin(execConfig(plugin), "", environment);
        QVERIFY2(credential, why(credential));
        QCOMPARE(q(credential->token), u"t"_s);
        QStringList got;
        for (const std::string& line : lines) got << q(line);
        QCOMPARE(got, (QStringList{u"first"_s, u"second"_s, u"Open https://login.example/device and enter ABCD-EFGH"_s,
                                   u"last without newline"_s}));
    }

    void bareCommandIsLookedUpInPath() {
        EnvGuard path("PATH");
        const QByteArray oldPath = qgetenv("PATH");
        QTemporaryDir dir;
        const std::string name = "topodeck-test-plugin-" + std::to_string(::getpid());
        writeScript(dir, "bin/" + name, printing(credentialJson(kV1, tokenStatus("from-path"))));
        qputenv("PATH", QByteArray::fromStdString(pathIn(dir, "bin")) + ':' + oldPath);
        const Result<ExecCredential> credential = runExecPlugin(execConfig(name), "", quietEnvironment());
        QVERIFY2(credential, why(credential));
        QCOMPARE(q(credential->token), u"from-path"_s);
    }

    void pipelineFromAKubeconfig() {
        // resolveKubeContext's exec config and cluster info, as they reach a real plugin.
        QTemporaryDir dir;
        const std::string dump = pathIn(dir, "info");
        writeScript(dir, "bin/plugin",
                    "printf '%s' \"$KUBERNETES_EXEC_INFO\" > '" + dump + "'\n"
                    "printf '%s\\n' \"$1\" \"$PLUGIN_MODE\" > '" + dump + ".args'\n" +
                        printing(credentialJson(kV1beta1, tokenStatus("piped"))));
        const std::string yaml = "current-context: ctx\n"
                                 "clusters:\n"
                                 "- name: prod\n"
                                 "  cluster:\n"
                                 "    server: https://k8s.example:6443/\n"
                                 "    insecure-skip-tls-verify: true\n"
                                 "    extensions:\n"
                                 "    - name: client.authentication.k8s.io/exec\n"
                                 "      extension: {audience: sts.example}\n"
                                 "users:\n"
                                 "- name: alice\n"
                                 "  user:\n"
                                 "    exec:\n"
                                 "      command: bin/plugin\n"
                                 "      args: [get-token]\n"
                                 "      env: [{name: PLUGIN_MODE, value: fast}]\n"
                                 "      apiVersion: client.authentication.k8s.io/v1beta1\n"
                                 "      provideClusterInfo: true\n"
                                 "contexts:\n"
                                 "- name: ctx\n"
                                 "  context: {cluster: prod, user: alice}\n";
        const Result<Kubeconfig> config = parseKubeconfig(yaml, pathIn(dir, "config"));
        QVERIFY2(config, why(config));
        const Result<KubeConnection> connection = resolveKubeContext(*config, "");
        QVERIFY2(connection, why(connection));
        QVERIFY(connection->exec);
        const Result<ExecCredential> credential =
            runExecPlugin(*connection->exec, connection->execClusterInfo, quietEnvironment());
        QVERIFY2(credential, why(credential));
        QCOMPARE(q(credential->token), u"piped"_s);
        QCOMPARE(q(readText(dump + ".args")), u"get-token\nfast\n"_s);
        const QJsonObject request = jsonObject(readText(dump));
        QCOMPARE(request.value(u"apiVersion"_s).toString(), q(kV1beta1));
        const QJsonObject spec = request.value(u"spec"_s).toObject();
        QCOMPARE(spec.value(u"interactive"_s).toBool(true), false); // v1beta1 default IfAvailable, no terminal
        const QJsonObject cluster = spec.value(u"cluster"_s).toObject();
        QCOMPARE(cluster.value(u"server"_s).toString(), u"https://k8s.example:6443"_s);
        QCOMPARE(cluster.value(u"insecure-skip-tls-verify"_s).toBool(), true);
        QCOMPARE(cluster.value(u"config"_s).toObject().value(u"audience"_s).toString(), u"sts.example"_s);
    }

    // ---- runExecPlugin: failures --------------------------------------------------------------

    void notFoundNamesTheInstallHint_data() {
        QTest::addColumn<QString>("command");
        QTest::newRow("absolute path") << u"/nonexistent/topodeck/plugin"_s;
        QTest::newRow("bare name") << u"topodeck-no-such-credential-plugin"_s;
    }
    void notFoundNamesTheInstallHint() {
        QFETCH(QString, command);
        KubeExecConfig exec = execConfig(command.toStdString());
        exec.installHint = "Install it with: brew install topodeck-auth";
        const Result<ExecCredential> credential = runExecPlugin(exec, "", quietEnvironment());
        QVERIFY2(!credential, "expected an error");
        const std::string& message = credential.error().message;
        QVERIFY2(contains(message, "not found"), message.c_str());
        QVERIFY2(contains(message, command.toStdString()), message.c_str());
        QVERIFY2(contains(message, exec.installHint), message.c_str());
    }

    void notExecutableIsAnError() {
        QTemporaryDir dir;
        const std::string plugin = writeFile(dir, "plugin", "#!/bin/sh\necho hi\n");
        fs::permissions(plugin, fs::perms::owner_read | fs::perms::owner_write);
        const Result<ExecCredential> credential = runExecPlugin(execConfig(plugin), "", quietEnvironment());
        QVERIFY2(!credential, "expected an error");
        QVERIFY2(contains(credential.error().message, plugin), why(credential));
        QVERIFY2(contains(credential.error().message, "ermission denied"), why(credential));
    }

    void nonZeroExitCarriesTheEndOfStderr() {
        QTemporaryDir dir;
        const std::string plugin = writeScript(dir, "plugin",
                                               "echo 'line 1' >&2\necho 'line 2' >&2\necho 'line 3' >&2\n"
                                               "echo 'line 4' >&2\necho 'error: refresh token expired' >&2\n" +
                                                   printing(credentialJson(kV1, tokenStatus("ignored"))) + "exit 3\n");
        std::vector<std::string> lines;
        ExecEnvironment environment = quietEnvironment();
        environment.onMessage = [&lines](std::string_view line) { lines.emplace_back(line); };
        const Result<ExecCredential> credential = runExecPlugin(execConfig(plugin), "", environment);
        QVERIFY2(!credential, "a non-zero exit is an error, whatever the plugin printed");
        const std::string& message = credential.error().message;
        QVERIFY2(contains(message, plugin), message.c_str());
        QVERIFY2(contains(message, "exit status 3"), message.c_str());
        QVERIFY2(contains(message, "error: refresh token expired"), message.c_str());
        QVERIFY2(contains(message, "line 4"), message.c_str());
        QCOMPARE(lines.size(), std::size_t(5));
        QCOMPARE(q(lines.front()), u"line 1"_s);
        QCOMPARE(q(lines.back()), u"error: refresh token expired"_s);
    }

    void killedBySignal_data() {
        QTest::addColumn<QString>("signalName");
        QTest::addColumn<int>("number");
        QTest::newRow("KILL") << u"KILL"_s << 9;
        QTest::newRow("TERM") << u"TERM"_s << 15;
    }
    void killedBySignal() {
        QFETCH(QString, signalName);
        QFETCH(int, number);
        QTemporaryDir dir;
        const std::string plugin =
            writeScript(dir, "plugin", "echo 'about to die' >&2\nkill -" + signalName.toStdString() + " $$\nsleep 5\n");
        const Result<ExecCredential> credential = runExecPlugin(execConfig(plugin), "", quietEnvironment());
        QVERIFY2(!credential, "expected an error");
        const std::string& message = credential.error().message;
        QVERIFY2(contains(message, plugin), message.c_str());
        QVERIFY2(contains(message, "signal " + std::to_string(number)), message.c_str());
        QVERIFY2(contains(message, "about to die"), message.c_str());
    }

    void timeoutStopsThePluginAndWhatItStarted() {
        QTemporaryDir dir;
        const std::string pidFile = pathIn(dir, "child.pid");
        const std::string plugin =
            writeScript(dir, "plugin", "sleep 30 &\necho $! > '" + pidFile + "'\necho 'waiting for login' >&2\nsleep 30\n");
        const auto start = Clock::now();
        const Result<ExecCredential> credential = runExecPlugin(execConfig(plugin), "", quietEnvironment(300ms));
        const qint64 elapsed = millisSince(start);
        QVERIFY2(!credential, "expected a timeout");
        QVERIFY2(elapsed >= 250 && elapsed < 3000, qPrintable(QString::number(elapsed) + u" ms"_s));
        QVERIFY2(contains(credential.error().message, plugin), why(credential));
        QVERIFY2(!contains(credential.error().message, "not JSON"), why(credential));
        const pid_t child = std::atoi(readText(pidFile).c_str());
        QVERIFY(child > 0);
        QVERIFY2(processEnds(child, 2s), "the plugin's own child outlived the timeout");
    }

    void timeoutAppliesAfterThePluginClosesItsOutput() {
        QTemporaryDir dir;
        const std::string plugin = writeScript(dir, "plugin", "exec >/dev/null 2>&1\nsleep 3\n");
        const auto start = Clock::now();
        const Result<ExecCredential> credential = runExecPlugin(execConfig(plugin), "", quietEnvironment(300ms));
        const qint64 elapsed = millisSince(start);
        QVERIFY2(!credential, "expected a timeout");
        QVERIFY2(elapsed < 2000, qPrintable(u"timeout of 300 ms took "_s + QString::number(elapsed) + u" ms: "_s +
                                            q(credential ? std::string() : credential.error().message)));
    }

    void cancellationStopsThePlugin_data() {
        QTest::addColumn<int>("cancelAfterMs"); // 0: cancelled before the call
        QTest::newRow("before the call") << 0;
        QTest::newRow("while running") << 200;
    }
    void cancellationStopsThePlugin() {
        QFETCH(int, cancelAfterMs);
        QTemporaryDir dir;
        const std::string plugin = writeScript(dir, "plugin", "sleep 30\n");
        std::atomic<bool> cancelled{cancelAfterMs == 0};
        ExecEnvironment environment = quietEnvironment(20s);
        environment.cancelled = &cancelled;
        std::thread canceller([&] {
            if (cancelAfterMs == 0) return;
            std::this_thread::sleep_for(std::chrono::milliseconds(cancelAfterMs));
            cancelled = true;
        });
        const auto start = Clock::now();
        const Result<ExecCredential> credential = runExecPlugin(execConfig(plugin), "", environment);
        const qint64 elapsed = millisSince(start);
        canceller.join();
        QVERIFY2(!credential, "expected cancellation");
        QVERIFY2(contains(credential.error().message, "cancel"), why(credential));
        QVERIFY2(elapsed < 3000, qPrintable(QString::number(elapsed) + u" ms"_s));
    }

    void badOutputIsAnError_data() {
        QTest::addColumn<QString>("output");
        QTest::addColumn<QString>("expected");
        const std::string cert = jsonString(kCertPem);
        const std::string key = jsonString(kKeyPem);
        auto row = [](const char* name, const std::string& output, const char* expected) {
            QTest::newRow(name) << q(output) << QString::fromUtf8(expected);
        };
        row("not JSON", "hello, I am not JSON", "not JSON");
        row("nothing at all", "", "its output is empty");
        row("truncated JSON", "{\"apiVersion\":", "not JSON");
        row("a list", "[1, 2]", "not an ExecCredential");
        row("wrong apiVersion", credentialJson(kV1beta1, tokenStatus("t")), kV1beta1);
        row("unknown apiVersion", credentialJson("client.authentication.k8s.io/v1alpha1", tokenStatus("t")),
            "client.authentication.k8s.io/v1alpha1");
        row("no apiVersion", "{\"kind\":\"ExecCredential\",\"status\":{\"token\":\"t\"}}", "apiVersion");
        row("wrong kind", credentialJson(kV1, tokenStatus("t"), "Secret"), "Secret");
        row("no kind", "{\"apiVersion\":\"client.authentication.k8s.io/v1\",\"status\":{\"token\":\"t\"}}",
            "ExecCredential");
        row("no status", "{\"apiVersion\":\"client.authentication.k8s.io/v1\",\"kind\":\"ExecCredential\"}", "status");
        row("empty status", credentialJson(kV1, "{}"), "neither");
        row("empty token", credentialJson(kV1, "{\"token\":\"\"}"), "neither");
        row("certificate without key", credentialJson(kV1, "{\"clientCertificateData\":" + cert + "}"), "only one");
        row("key without certificate", credentialJson(kV1, "{\"clientKeyData\":" + key + "}"), "only one");
        row("token and a lone key", credentialJson(kV1, "{\"token\":\"t\",\"clientKeyData\":" + key + "}"),
            "only one");
        row("bad expirationTimestamp", credentialJson(kV1, tokenStatus("t", "next tuesday")), "next tuesday");
        row("expirationTimestamp without zone", credentialJson(kV1, tokenStatus("t", "2030-01-01T00:00:00")),
            "RFC 3339");
    }
    void badOutputIsAnError() {
        QFETCH(QString, output);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        const std::string plugin = writeScript(dir, "plugin", "printf '%s' '" + output.toStdString() + "'\n");
        const Result<ExecCredential> credential = runExecPlugin(execConfig(plugin), "", quietEnvironment());
        QVERIFY2(!credential, "expected an error");
        const std::string& message = credential.error().message;
        QVERIFY2(contains(message, plugin), message.c_str());
        QVERIFY2(contains(message, expected.toStdString()), message.c_str());
    }

    void hugeOutputIsAnError() {
        QTemporaryDir dir;
        const std::string plugin = writeScript(dir, "plugin", "head -c 3000000 /dev/zero | tr '\\000' 'a'\n");
        const Result<ExecCredential> credential = runExecPlugin(execConfig(plugin), "", quietEnvironment());
        QVERIFY2(!credential, "expected an error");
        QVERIFY2(contains(credential.error().message, plugin), why(credential));
        QVERIFY2(contains(credential.error().message,
                          "printed more than the limit of 1 MiB and was stopped; raise it with TOPODECK_MAX_CREDENTIAL_OUTPUT "
                          "(e.g. TOPODECK_MAX_CREDENTIAL_OUTPUT=2MiB)"),
                 why(credential));
    }

    // A plugin that prints forever is stopped as soon as it passes the limit, long before its
    // deadline, and so is a stderr line without end (it is handed on in pieces, not gathered).
    void endlessOutputStopsThePlugin_data() {
        QTest::addColumn<QString>("stream");
        QTest::newRow("stdout") << QStringLiteral("");
        QTest::newRow("stderr without newlines, then stdout") << QStringLiteral("stderr");
    }
    void endlessOutputStopsThePlugin() {
        QFETCH(QString, stream);
        QTemporaryDir dir;
        const std::string pidFile = pathIn(dir, "plugin.pid");
        const std::string flood = stream.isEmpty() ? "" : "head -c 4000000 /dev/zero | tr '\\000' 'e' >&2\n";
        const std::string plugin = writeScript(dir, "plugin", "echo $$ > '" + pidFile + "'\n" + flood + "exec yes\n");
        ExecEnvironment environment = quietEnvironment(20s);
        environment.maxOutput = 64 * 1024;
        std::size_t longestMessage = 0;
        environment.onMessage = [&](std::string_view line) { longestMessage = std::max(longestMessage, line.size()); };
        const auto start = Clock::now();
        const Result<ExecCredential> credential = runExecPlugin(execConfig(plugin), "", environment);
        QVERIFY2(!credential, "expected an error");
        QVERIFY(millisSince(start) < 5000);
        QVERIFY2(contains(credential.error().message, "printed more than the limit of 64 KiB and was stopped"), why(credential));
        QVERIFY2(processEnds(std::atoi(readText(pidFile).c_str()), 2s), "the plugin outlived its refusal");
        QVERIFY2(longestMessage <= 128 * 1024, std::to_string(longestMessage).c_str());
    }

    // ---- parseExecCredential ------------------------------------------------------------------

    void parseExecCredential_data() {
        QTest::addColumn<QString>("json");
        QTest::addColumn<QString>("apiVersion");
        QTest::addColumn<QString>("error"); // empty: a credential
        QTest::addColumn<QString>("token");
        QTest::addColumn<bool>("certificate");
        QTest::addColumn<qint64>("expirationNanos"); // -1: none
        const QString v1 = q(kV1);
        const QString v1beta1 = q(kV1beta1);
        const std::string pair = "\"clientCertificateData\":" + jsonString(kCertPem) +
                                 ",\"clientKeyData\":" + jsonString(kKeyPem);
        QTest::newRow("token") << q(credentialJson(kV1, tokenStatus("abc"))) << v1 << QString() << u"abc"_s << false
                               << qint64(-1);
        QTest::newRow("token with expiry")
            << q(credentialJson(kV1beta1, tokenStatus("abc", "2026-12-01T09:30:00.5Z"))) << v1beta1 << QString()
            << u"abc"_s << false << nanosSinceEpoch(at(1796117400, 500000000));
        QTest::newRow("certificate and key") << q(credentialJson(kV1, "{" + pair + "}")) << v1 << QString()
                                             << QString() << true << qint64(-1);
        QTest::newRow("token, certificate and key")
            << q(credentialJson(kV1, "{\"token\":\"both\"," + pair + "}")) << v1 << QString() << u"both"_s << true
            << qint64(-1);
        QTest::newRow("extra fields ignored")
            << q("{\"apiVersion\":\"client.authentication.k8s.io/v1\",\"kind\":\"ExecCredential\",\"spec\":{},"
                 "\"status\":{\"token\":\"x\",\"other\":1},\"metadata\":{}}")
            << v1 << QString() << u"x"_s << false << qint64(-1);
        QTest::newRow("empty expiry is none") << q(credentialJson(kV1, "{\"token\":\"abc\",\"expirationTimestamp\":\"\"}")) << v1 << QString()
                                              << u"abc"_s << false << qint64(-1);
        QTest::newRow("version mismatch") << q(credentialJson(kV1, tokenStatus("abc"))) << v1beta1
                                          << u"client.authentication.k8s.io/v1beta1"_s << QString() << false
                                          << qint64(-1);
        QTest::newRow("not an object") << u"\"token\""_s << v1 << u"ExecCredential"_s << QString() << false
                                       << qint64(-1);
        QTest::newRow("status is a string")
            << u"{\"apiVersion\":\"client.authentication.k8s.io/v1\",\"kind\":\"ExecCredential\",\"status\":\"ok\"}"_s
            << v1 << u"status"_s << QString() << false << qint64(-1);
        QTest::newRow("not JSON") << u"token=abc"_s << v1 << u"not JSON"_s << QString() << false << qint64(-1);
    }
    void parseExecCredential() {
        QFETCH(QString, json);
        QFETCH(QString, apiVersion);
        QFETCH(QString, error);
        QFETCH(QString, token);
        QFETCH(bool, certificate);
        QFETCH(qint64, expirationNanos);
        const std::string text = json.toStdString();
        const Result<ExecCredential> credential = topodeck::parseExecCredential(text, apiVersion.toStdString());
        if (!error.isEmpty()) {
            QVERIFY2(!credential, "expected an error");
            QVERIFY2(q(credential.error().message).contains(error), why(credential));
            return;
        }
        QVERIFY2(credential, why(credential));
        QCOMPARE(q(credential->token), token);
        QCOMPARE(q(credential->clientCertificateData), certificate ? q(kCertPem) : QString());
        QCOMPARE(q(credential->clientKeyData), certificate ? q(kKeyPem) : QString());
        QCOMPARE(credential->expiration ? nanosSinceEpoch(*credential->expiration) : qint64(-1), expirationNanos);
    }

    // ---- parseRfc3339 -------------------------------------------------------------------------

    void parseRfc3339_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("valid");
        QTest::addColumn<qint64>("seconds");
        QTest::addColumn<qint64>("nanos");
        auto good = [](const char* text, qint64 seconds, qint64 nanos = 0) {
            QTest::newRow(text) << QString::fromUtf8(text) << true << seconds << nanos;
        };
        auto bad = [](const char* name, const char* text) {
            QTest::newRow(name) << QString::fromUtf8(text) << false << qint64(0) << qint64(0);
        };
        good("1970-01-01T00:00:00Z", 0);
        good("2026-12-01T09:30:00Z", 1796117400);
        good("2026-12-01t09:30:00z", 1796117400);
        good("2024-02-29T12:00:00Z", 1709208000);
        good("1999-12-31T23:59:59Z", 946684799);
        good("2026-01-01T00:00:00.5Z", 1767225600, 500000000);
        good("2026-01-01T00:00:00.123456789Z", 1767225600, 123456789);
        good("2026-01-01T00:00:00.000000001Z", 1767225600, 1);
        good("2026-01-01T00:00:00.120Z", 1767225600, 120000000);
        good("2026-01-01T02:00:00+02:00", 1767225600);
        good("2025-12-31T18:30:00-05:30", 1767225600);
        good("2026-01-01T00:00:00-00:00", 1767225600);
        good("2026-01-01T00:00:00.25+01:00", 1767222000, 250000000);
        good("2026-01-01T05:45:00+05:45", 1767225600);
        bad("empty", "");
        bad("word", "tomorrow");
        bad("date only", "2026-01-01");
        bad("no zone", "2026-01-01T00:00:00");
        bad("space for T", "2026-01-01 00:00:00Z");
        bad("month 13", "2026-13-01T00:00:00Z");
        bad("month 0", "2026-00-10T00:00:00Z");
        bad("day 32", "2026-01-32T00:00:00Z");
        bad("day 0", "2026-01-00T00:00:00Z");
        bad("hour 24", "2026-01-01T24:00:00Z");
        bad("minute 60", "2026-01-01T00:60:00Z");
        bad("dot without digits", "2026-01-01T00:00:00.Z");
        bad("offset without colon", "2026-01-01T00:00:00+0200");
        bad("offset hours only", "2026-01-01T00:00:00+02");
        bad("trailing text", "2026-01-01T00:00:00Zjunk");
        bad("trailing after offset", "2026-01-01T00:00:00+02:00:00");
        bad("one-digit month", "2026-1-01T00:00:00Z");
        bad("two-digit year", "26-01-01T00:00:00Z");
        bad("letters in time", "2026-01-01T0a:00:00Z");
        bad("February 30", "2026-02-30T00:00:00Z");
        bad("February 29 of a common year", "2025-02-29T00:00:00Z");
        bad("April 31", "2026-04-31T00:00:00Z");
        bad("offset out of range", "2026-01-01T00:00:00+99:99");
    }
    void parseRfc3339() {
        QFETCH(QString, text);
        QFETCH(bool, valid);
        QFETCH(qint64, seconds);
        QFETCH(qint64, nanos);
        const std::string input = text.toStdString();
        const auto time = topodeck::parseRfc3339(input);
        if (!valid) {
            QVERIFY2(!time, qPrintable(u"accepted, as "_s + QString::number(time ? nanosSinceEpoch(*time) : 0)));
            return;
        }
        QVERIFY2(time, "rejected");
        QCOMPARE(nanosSinceEpoch(*time), nanosSinceEpoch(at(seconds, nanos)));
    }

    // ---- KubeCredentials ----------------------------------------------------------------------

    void execAnswerIsCachedUntilItExpires_data() {
        QTest::addColumn<QString>("expiration"); // "" = none
        QTest::addColumn<int>("expectedRuns");   // after two current() calls
        QTest::newRow("expires in the future") << u"2099-01-01T00:00:00Z"_s << 1;
        QTest::newRow("no expiration") << QString() << 1;
        QTest::newRow("expired already") << u"2000-01-01T00:00:00Z"_s << 2;
    }
    void execAnswerIsCachedUntilItExpires() {
        QFETCH(QString, expiration);
        QFETCH(int, expectedRuns);
        QTemporaryDir dir;
        const std::string count = pathIn(dir, "count");
        KubeConnection connection;
        connection.server = "https://k8s.example";
        connection.exec = execConfig(countingPlugin(dir, "plugin", count, expiration.toStdString()));
        KubeCredentials credentials(connection, quietEnvironment());
        const Result<KubeAuth> first = credentials.current();
        QVERIFY2(first, why(first));
        QCOMPARE(q(first->bearerToken), u"tok-1"_s);
        QCOMPARE(runs(count), 1);
        const Result<KubeAuth> second = credentials.current();
        QVERIFY2(second, why(second));
        QCOMPARE(runs(count), expectedRuns);
        QCOMPARE(q(second->bearerToken), u"tok-"_s + QString::number(expectedRuns));
        QCOMPARE(second->version == first->version, expectedRuns == 1);
    }

    void rejectedRefetchesOnlyTheCachedVersion() {
        QTemporaryDir dir;
        const std::string count = pathIn(dir, "count");
        KubeConnection connection;
        connection.server = "https://k8s.example";
        connection.exec = execConfig(countingPlugin(dir, "plugin", count, "2099-01-01T00:00:00Z"));
        KubeCredentials credentials(connection, quietEnvironment());
        const Result<KubeAuth> first = credentials.current();
        QVERIFY2(first, why(first));
        QCOMPARE(q(first->bearerToken), u"tok-1"_s);

        credentials.rejected(*first); // a 401 for the cached credential
        QCOMPARE(runs(count), 1);     // not at once: on the next request
        const Result<KubeAuth> second = credentials.current();
        QVERIFY2(second, why(second));
        QCOMPARE(runs(count), 2);
        QCOMPARE(q(second->bearerToken), u"tok-2"_s);
        QVERIFY(second->version != first->version);

        credentials.rejected(*first); // a late 401 for the old credential
        const Result<KubeAuth> third = credentials.current();
        QVERIFY2(third, why(third));
        QCOMPARE(runs(count), 2);
        QCOMPARE(q(third->bearerToken), u"tok-2"_s);
        QCOMPARE(third->version, second->version);
    }

    void sameExecConfigSharesOneAnswer() {
        QTemporaryDir dir;
        const std::string count = pathIn(dir, "count");
        KubeConnection connection;
        connection.server = "https://k8s.example";
        connection.exec = execConfig(countingPlugin(dir, "plugin", count, "2099-01-01T00:00:00Z"));
        KubeCredentials one(connection, quietEnvironment());
        KubeCredentials two(connection, quietEnvironment());
        const Result<KubeAuth> a = one.current();
        const Result<KubeAuth> b = two.current();
        QVERIFY2(a, why(a));
        QVERIFY2(b, why(b));
        QCOMPARE(runs(count), 1);
        QCOMPARE(q(b->bearerToken), u"tok-1"_s);
        QCOMPARE(a->version, b->version);

        // A rejection seen by one is seen by the other.
        two.rejected(*b);
        const Result<KubeAuth> c = one.current();
        QVERIFY2(c, why(c));
        QCOMPARE(runs(count), 2);
        QCOMPARE(q(c->bearerToken), u"tok-2"_s);

        // Other arguments or environment are another plugin configuration.
        KubeConnection otherArgs = connection;
        otherArgs.exec->args = {"--profile", "b"};
        const Result<KubeAuth> d = KubeCredentials(otherArgs, quietEnvironment()).current();
        QVERIFY2(d, why(d));
        QCOMPARE(runs(count), 3);
        QCOMPARE(q(d->bearerToken), u"tok-3"_s);
        KubeConnection otherEnv = connection;
        otherEnv.exec->env = {{"PROFILE", "c"}};
        const Result<KubeAuth> e = KubeCredentials(otherEnv, quietEnvironment()).current();
        QVERIFY2(e, why(e));
        QCOMPARE(runs(count), 4);
    }

    void concurrentCallersWaitForOneRun() {
        QTemporaryDir dir;
        const std::string count = pathIn(dir, "count");
        const std::string plugin = writeScript(dir, "plugin",
                                               "echo run >> '" + count + "'\nsleep 0.3\n" +
                                                   printing(credentialJson(kV1, tokenStatus("shared"))));
        KubeConnection connection;
        connection.server = "https://k8s.example";
        connection.exec = execConfig(plugin);
        KubeCredentials credentials(connection, quietEnvironment());
        std::vector<std::string> tokens(4);
        std::vector<std::thread> threads;
        for (std::size_t i = 0; i < tokens.size(); ++i)
            threads.emplace_back([&, i] {
                const Result<KubeAuth> auth = credentials.current();
                tokens[i] = auth ? auth->bearerToken : "error: " + auth.error().message;
            });
        for (std::thread& thread : threads) thread.join();
        QCOMPARE(runs(count), 1);
        for (const std::string& token : tokens) QCOMPARE(q(token), u"shared"_s);
    }

    void pluginCertificateGoesIntoTheAuth() {
        QTemporaryDir dir;
        const std::string status = "{\"clientCertificateData\":" + jsonString(kCertPem) +
                                   ",\"clientKeyData\":" + jsonString(kKeyPem) + "}";
        const std::string plugin = writeScript(dir, "plugin", printing(credentialJson(kV1, status)));
        KubeConnection connection;
        connection.server = "https://k8s.example";
        connection.exec = execConfig(plugin);
        KubeCredentials credentials(connection, quietEnvironment());
        const Result<KubeAuth> auth = credentials.current();
        QVERIFY2(auth, why(auth));
        QCOMPARE(q(auth->clientCertificateData), q(kCertPem));
        QCOMPARE(q(auth->clientKeyData), q(kKeyPem));
        QVERIFY(auth->bearerToken.empty());
    }

    void failedPluginRunIsNotCached() {
        QTemporaryDir dir;
        const std::string count = pathIn(dir, "count");
        const std::string flag = pathIn(dir, "fixed");
        const std::string plugin = writeScript(dir, "plugin",
                                               "echo run >> '" + count + "'\n"
                                               "if [ ! -e '" + flag + "' ]; then echo 'login required' >&2; exit 1; fi\n" +
                                                   printing(credentialJson(kV1, tokenStatus("recovered"))));
        KubeConnection connection;
        connection.server = "https://k8s.example";
        connection.exec = execConfig(plugin);
        KubeCredentials credentials(connection, quietEnvironment());
        const Result<KubeAuth> failed = credentials.current();
        QVERIFY2(!failed, "expected the plugin's failure");
        QVERIFY2(contains(failed.error().message, "login required"), why(failed));
        writeFile(dir, "fixed", "");
        const Result<KubeAuth> recovered = credentials.current();
        QVERIFY2(recovered, why(recovered));
        QCOMPARE(q(recovered->bearerToken), u"recovered"_s);
        QCOMPARE(runs(count), 2);
    }

    void tokenFileIsReadAgainAfterARejection() {
        QTemporaryDir dir;
        const std::string file = writeFile(dir, "token", "first-token\n");
        KubeConnection connection;
        connection.server = "https://k8s.example";
        connection.token = "first-token"; // as resolveKubeContext read it
        connection.tokenFile = file;
        KubeCredentials credentials(connection, quietEnvironment());
        const Result<KubeAuth> first = credentials.current();
        QVERIFY2(first, why(first));
        QCOMPARE(q(first->bearerToken), u"first-token"_s);

        writeFile(dir, "token", "second-token\n");
        const Result<KubeAuth> cached = credentials.current(); // within the refresh interval
        QVERIFY2(cached, why(cached));
        QCOMPARE(q(cached->bearerToken), u"first-token"_s);
        QCOMPARE(cached->version, first->version);

        credentials.rejected(*first);
        const Result<KubeAuth> second = credentials.current();
        QVERIFY2(second, why(second));
        QCOMPARE(q(second->bearerToken), u"second-token"_s);
        QVERIFY(second->version != first->version);

        // Read again, but unchanged: the same credential.
        credentials.rejected(*second);
        const Result<KubeAuth> third = credentials.current();
        QVERIFY2(third, why(third));
        QCOMPARE(q(third->bearerToken), u"second-token"_s);
        QCOMPARE(third->version, second->version);
    }

    void tokenFileFromAKubeconfig() {
        QTemporaryDir dir;
        writeFile(dir, "sa/token", "kubeconfig-token\n");
        const std::string yaml = "current-context: ctx\n"
                                 "clusters: [{name: prod, cluster: {server: https://k8s.example}}]\n"
                                 "users: [{name: sa, user: {tokenFile: sa/token}}]\n"
                                 "contexts: [{name: ctx, context: {cluster: prod, user: sa}}]\n";
        const Result<Kubeconfig> config = parseKubeconfig(yaml, pathIn(dir, "config"));
        QVERIFY2(config, why(config));
        const Result<KubeConnection> connection = resolveKubeContext(*config, "");
        QVERIFY2(connection, why(connection));
        KubeCredentials credentials(*connection, quietEnvironment());
        const Result<KubeAuth> first = credentials.current();
        QVERIFY2(first, why(first));
        QCOMPARE(q(first->bearerToken), u"kubeconfig-token"_s);
        writeFile(dir, "sa/token", "rotated-token\n");
        credentials.rejected(*first);
        const Result<KubeAuth> second = credentials.current();
        QVERIFY2(second, why(second));
        QCOMPARE(q(second->bearerToken), u"rotated-token"_s);
    }

    void staticTokenIsReturnedAsIs() {
        KubeConnection connection;
        connection.server = "https://k8s.example";
        connection.token = "static-token";
        KubeCredentials credentials(connection, quietEnvironment());
        const Result<KubeAuth> first = credentials.current();
        QVERIFY2(first, why(first));
        QCOMPARE(q(first->bearerToken), u"static-token"_s);
        QVERIFY(first->clientCertificateData.empty() && first->clientKeyData.empty());
        credentials.rejected(*first);
        const Result<KubeAuth> second = credentials.current();
        QVERIFY2(second, why(second));
        QCOMPARE(q(second->bearerToken), u"static-token"_s);
        QCOMPARE(second->version, first->version);
    }
};

TOPODECK_TEST_GUILESS_MAIN(ExecCredentialTest)
#include "test_exec_credential.moc"
