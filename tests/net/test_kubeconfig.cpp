#include "core/text/base64.h"
#include "net/kubeconfig.h"

#include "net/exec_credential.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include "net_test_support.h"
#include "support/test_program.h"

#include <QTest>

#include <filesystem>
#include <fstream>
#include <optional>

using namespace topodeck;
using namespace Qt::StringLiterals;
namespace fs = std::filesystem;

namespace {


bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

QString q(const std::string& text) {
    return QString::fromStdString(text);
}

QStringList toList(const std::vector<std::string>& items) {
    QStringList out;
    for (const std::string& item : items) out << q(item);
    return out;
}

template <class T>
const char* why(const Result<T>& result) {
    static thread_local std::string text;
    text = result ? std::string("no error") : result.error().message;
    return text.c_str();
}

// Whether `json` is strict JSON (RFC 8259), as a plugin's JSON decoder reads it. QJsonDocument is
// more lenient (it takes ".5", for one), so the check goes through the library's own strict parser.
bool strictJson(const std::string& json) {
    const std::string wrapped =
        "{\"apiVersion\":\"v\",\"kind\":\"ExecCredential\",\"status\":{\"token\":\"t\"},\"probe\":" + json + "}";
    return parseExecCredential(wrapped, "v").ok();
}

// Indents every line of `body` by `spaces`.
std::string indented(const std::string& body, int spaces) {
    std::string out;
    const std::string pad(static_cast<std::size_t>(spaces), ' ');
    std::size_t start = 0;
    while (start < body.size()) {
        std::size_t end = body.find('\n', start);
        if (end == std::string::npos) end = body.size();
        out += pad + body.substr(start, end - start) + '\n';
        start = end + 1;
    }
    return out;
}

constexpr const char* kDefaultCluster = "server: https://k8s.example:6443";
constexpr const char* kDefaultUser = "token: abc";
constexpr const char* kDefaultContext = "cluster: prod\nuser: alice";

// A kubeconfig with cluster "prod", user "alice" and context "ctx" (the current one by default).
std::string kubeconfigYaml(const std::string& cluster = kDefaultCluster, const std::string& user = kDefaultUser,
                           const std::string& context = kDefaultContext,
                           const std::string& top = "current-context: ctx\n") {
    return "apiVersion: v1\nkind: Config\n" + top + "clusters:\n- name: prod\n  cluster:\n" + indented(cluster, 4) +
           "users:\n- name: alice\n  user:\n" + indented(user, 4) + "contexts:\n- name: ctx\n  context:\n" +
           indented(context, 4);
}

const std::string kCaPem = "-----BEGIN CERTIFICATE-----\nMIIBcluster-ca\n-----END CERTIFICATE-----\n";
const std::string kCertPem = "-----BEGIN CERTIFICATE-----\nMIIBclient\n-----END CERTIFICATE-----\n";
const std::string kKeyPem = "-----BEGIN EC PRIVATE KEY-----\nMHcclient-key\n-----END EC PRIVATE KEY-----\n";

} // namespace

class KubeconfigTest : public QObject {
    Q_OBJECT

    // Files that the resolve tests' kubeconfig (m_files/config) names relatively.
    QTemporaryDir m_files;
    std::string m_config;

    Result<Kubeconfig> parse(const std::string& yaml) const { return parseKubeconfig(yaml, m_config); }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(m_files.isValid());
        m_config = pathIn(m_files, "config");
        writeFile(m_files, "ca.crt", kCaPem);
        writeFile(m_files, "client.crt", kCertPem);
        writeFile(m_files, "client.key", kKeyPem);
        writeFile(m_files, "token", "file-token\n");
    }

    // ---- KubeconfigLocation -------------------------------------------------------------------

    void locationFiles_data() {
        QTest::addColumn<QString>("explicitPath");
        QTest::addColumn<QString>("environment");
        QTest::addColumn<QString>("home");
        QTest::addColumn<QStringList>("expected");
        QTest::newRow("explicit only, env and home ignored")
            << "/x/explicit" << "/a:/b" << "/home/u" << QStringList{u"/x/explicit"_s};
        QTest::newRow("explicit relative kept as given") << "conf/k" << "" << "/home/u" << QStringList{u"conf/k"_s};
        QTest::newRow("env split on colon") << "" << "/a:/b:/c" << "/home/u" << QStringList{u"/a"_s, u"/b"_s, u"/c"_s};
        QTest::newRow("env single file") << "" << "/only" << "/home/u" << QStringList{u"/only"_s};
        QTest::newRow("env empty entries skipped") << "" << ":/a::/b:" << "/home/u" << QStringList{u"/a"_s, u"/b"_s};
        QTest::newRow("env duplicates removed, first kept")
            << "" << "/a:/b:/a:/c:/b" << "/home/u" << QStringList{u"/a"_s, u"/b"_s, u"/c"_s};
        QTest::newRow("env of only separators: no home fallback") << "" << "::" << "/home/u" << QStringList{};
        QTest::newRow("home default") << "" << "" << "/home/u" << QStringList{u"/home/u/.kube/config"_s};
        QTest::newRow("home with trailing slash") << "" << "" << "/home/u/" << QStringList{u"/home/u/.kube/config"_s};
        QTest::newRow("nothing at all") << "" << "" << "" << QStringList{};
    }
    void locationFiles() {
        QFETCH(QString, explicitPath);
        QFETCH(QString, environment);
        QFETCH(QString, home);
        QFETCH(QStringList, expected);
        KubeconfigLocation location;
        location.explicitPath = explicitPath.toStdString();
        location.environment = environment.toStdString();
        location.home = home.toStdString();
        QCOMPARE(toList(location.files()), expected);
    }

    void locationFromEnvironment() {
        EnvGuard kubeconfig("KUBECONFIG"), home("HOME");
        qputenv("KUBECONFIG", "/one:/two");
        qputenv("HOME", "/home/tester");
        KubeconfigLocation location = KubeconfigLocation::fromEnvironment();
        QCOMPARE(q(location.environment), u"/one:/two"_s);
        QCOMPARE(q(location.home), u"/home/tester"_s);
        QVERIFY(location.explicitPath.empty());
        QCOMPARE(toList(location.files()), (QStringList{u"/one"_s, u"/two"_s}));

        location = KubeconfigLocation::fromEnvironment("/explicit");
        QCOMPARE(toList(location.files()), QStringList{u"/explicit"_s});

        qunsetenv("KUBECONFIG");
        location = KubeconfigLocation::fromEnvironment();
        QVERIFY(location.environment.empty());
        QCOMPARE(toList(location.files()), QStringList{u"/home/tester/.kube/config"_s});
    }

    // ---- loadKubeconfig: files, merging, paths ------------------------------------------------

    void explicitPathMustExist() {
        QTemporaryDir dir;
        const std::string missing = pathIn(dir, "nope/config");
        KubeconfigLocation location;
        location.explicitPath = missing;
        location.environment = writeFile(dir, "present", kubeconfigYaml()); // not consulted
        const Result<Kubeconfig> config = loadKubeconfig(location);
        QVERIFY2(!config, "a missing --kubeconfig file must be an error");
        QVERIFY2(contains(config.error().message, missing), why(config));
    }

    void explicitPathIgnoresTheEnvironment() {
        QTemporaryDir dir;
        KubeconfigLocation location;
        location.explicitPath = writeFile(dir, "explicit", kubeconfigYaml());
        location.environment = writeFile(dir, "env",
                                          "contexts:\n- name: from-env\n  context: {cluster: prod, user: alice}\n"
                                          "current-context: from-env\n");
        const Result<Kubeconfig> config = loadKubeconfig(location);
        QVERIFY2(config, why(config));
        QCOMPARE(toList(config->contextNames()), QStringList{u"ctx"_s});
        QCOMPARE(q(config->currentContext), u"ctx"_s);
        QCOMPARE(toList(config->files), QStringList{q(location.explicitPath)});
    }

    void missingEnvironmentFilesAreSkippedWithAWarning() {
        QTemporaryDir dir;
        const std::string missing = pathIn(dir, "missing-config");
        const std::string present = writeFile(dir, "config", kubeconfigYaml());
        KubeconfigLocation location;
        location.environment = missing + ":" + present;
        const Result<Kubeconfig> config = loadKubeconfig(location);
        QVERIFY2(config, why(config));
        QCOMPARE(toList(config->files), QStringList{q(present)});
        QCOMPARE(toList(config->contextNames()), QStringList{u"ctx"_s});
        QCOMPARE(config->warnings.size(), std::size_t(1));
        QVERIFY2(contains(config->warnings.front(), missing), config->warnings.front().c_str());
    }

    void noFileAtAllIsAnEmptyConfig() {
        QTemporaryDir dir;
        KubeconfigLocation location;
        location.home = dir.path().toStdString(); // no .kube/config there
        const Result<Kubeconfig> config = loadKubeconfig(location);
        QVERIFY2(config, why(config));
        QVERIFY(config->files.empty());
        QVERIFY(config->contexts.empty());
        QVERIFY(config->clusters.empty());
        QVERIFY(config->users.empty());
        QVERIFY(config->currentContext.empty());
        const Result<KubeConnection> connection = resolveKubeContext(*config, "");
        QVERIFY(!connection);
        QVERIFY2(contains(connection.error().message, "no kubeconfig"), why(connection));
    }

    void emptyFileIsAnEmptyConfig_data() {
        QTest::addColumn<QString>("content");
        QTest::newRow("zero bytes") << "";
        QTest::newRow("blank lines") << "\n\n  \n";
        QTest::newRow("comments only") << "# nothing here\n# at all\n";
        QTest::newRow("document marker") << "---\n";
    }
    void emptyFileIsAnEmptyConfig() {
        QFETCH(QString, content);
        QTemporaryDir dir;
        const std::string empty = writeFile(dir, "empty", content.toStdString());
        const std::string full = writeFile(dir, "full", kubeconfigYaml());
        KubeconfigLocation location;
        location.explicitPath = empty;
        Result<Kubeconfig> config = loadKubeconfig(location);
        QVERIFY2(config, why(config));
        QVERIFY(config->contexts.empty());
        QVERIFY(config->clusters.empty());
        QVERIFY(config->users.empty());
        QVERIFY(config->currentContext.empty());
        QCOMPARE(toList(config->files), QStringList{q(empty)});
        // ...and it does not stop the next file from counting.
        location.explicitPath.clear();
        location.environment = empty + ":" + full;
        config = loadKubeconfig(location);
        QVERIFY2(config, why(config));
        QCOMPARE(toList(config->contextNames()), QStringList{u"ctx"_s});
        QCOMPARE(q(config->currentContext), u"ctx"_s);
    }

    void firstFileWinsAWholeEntry() {
        QTemporaryDir dir;
        const std::string first = writeFile(dir, "first",
                                            "clusters:\n"
                                            "- name: shared\n"
                                            "  cluster:\n"
                                            "    server: https://first.example\n"
                                            "users:\n"
                                            "- name: alice\n"
                                            "  user:\n"
                                            "    token: first-token\n"
                                            "contexts:\n"
                                            "- name: main\n"
                                            "  context:\n"
                                            "    cluster: shared\n"
                                            "    user: alice\n");
        const std::string second = writeFile(dir, "second",
                                             "clusters:\n"
                                             "- name: shared\n"
                                             "  cluster:\n"
                                             "    server: https://second.example\n"
                                             "    tls-server-name: second.internal\n"
                                             "    proxy-url: http://proxy.second:3128\n"
                                             "- name: only-second\n"
                                             "  cluster:\n"
                                             "    server: https://only.second\n"
                                             "users:\n"
                                             "- name: alice\n"
                                             "  user:\n"
                                             "    token: second-token\n"
                                             "    as: impostor\n"
                                             "- name: bob\n"
                                             "  user:\n"
                                             "    username: bob\n"
                                             "contexts:\n"
                                             "- name: main\n"
                                             "  context:\n"
                                             "    cluster: only-second\n"
                                             "    user: bob\n"
                                             "    namespace: second-ns\n"
                                             "- name: extra\n"
                                             "  context:\n"
                                             "    cluster: only-second\n"
                                             "    user: bob\n");
        KubeconfigLocation location;
        location.environment = first + ":" + second;
        const Result<Kubeconfig> config = loadKubeconfig(location);
        QVERIFY2(config, why(config));
        QCOMPARE(toList(config->files), (QStringList{q(first), q(second)}));

        QCOMPARE(config->clusters.size(), std::size_t(2));
        const KubeconfigCluster& shared = config->clusters.at("shared");
        QCOMPARE(q(shared.server), u"https://first.example"_s);
        QVERIFY2(shared.tlsServerName.empty(), "a later file's field must not be merged into the first's entry");
        QVERIFY2(shared.proxyUrl.empty(), "a later file's field must not be merged into the first's entry");
        QCOMPARE(q(shared.origin), q(first));
        QCOMPARE(q(config->clusters.at("only-second").server), u"https://only.second"_s);
        QCOMPARE(q(config->clusters.at("only-second").origin), q(second));

        const KubeconfigUser& alice = config->users.at("alice");
        QCOMPARE(q(alice.token), u"first-token"_s);
        QVERIFY2(alice.impersonate.empty(), "a later file's field must not be merged into the first's entry");
        QCOMPARE(q(alice.origin), q(first));
        QCOMPARE(q(config->users.at("bob").username), u"bob"_s);

        QCOMPARE(toList(config->contextNames()), (QStringList{u"extra"_s, u"main"_s}));
        const KubeconfigContext& main = config->contexts.at("main");
        QCOMPARE(q(main.cluster), u"shared"_s);
        QCOMPARE(q(main.user), u"alice"_s);
        QVERIFY2(main.nameSpace.empty(), "a later file's field must not be merged into the first's entry");
        QCOMPARE(q(main.origin), q(first));

        // Resolving uses the winning entries.
        const Result<KubeConnection> connection = resolveKubeContext(*config, "main");
        QVERIFY2(connection, why(connection));
        QCOMPARE(q(connection->server), u"https://first.example"_s);
        QCOMPARE(q(connection->token), u"first-token"_s);
    }

    void currentContextComesFromTheFirstFileThatSetsIt_data() {
        QTest::addColumn<QStringList>("values"); // current-context of each file, in order; "" = unset
        QTest::addColumn<QString>("expected");
        QTest::newRow("first sets it") << QStringList{u"a"_s, u"b"_s, u"c"_s} << "a";
        QTest::newRow("first unset, second sets it") << QStringList{u""_s, u"b"_s, u"c"_s} << "b";
        QTest::newRow("only the last sets it") << QStringList{u""_s, u""_s, u"c"_s} << "c";
        QTest::newRow("none sets it") << QStringList{u""_s, u""_s, u""_s} << "";
    }
    void currentContextComesFromTheFirstFileThatSetsIt() {
        QFETCH(QStringList, values);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        std::string environment;
        for (int i = 0; i < values.size(); ++i) {
            std::string yaml = "contexts:\n- name: ctx" + std::to_string(i) + "\n  context: {cluster: c, user: u}\n";
            if (!values[i].isEmpty()) yaml += "current-context: " + values[i].toStdString() + "\n";
            environment += (i ? ":" : "") + writeFile(dir, "config" + std::to_string(i), yaml);
        }
        KubeconfigLocation location;
        location.environment = environment;
        const Result<Kubeconfig> config = loadKubeconfig(location);
        QVERIFY2(config, why(config));
        QCOMPARE(q(config->currentContext), expected);
        QCOMPARE(config->contexts.size(), std::size_t(values.size()));
    }

    void relativePathsResolveAgainstTheDefiningFile() {
        QTemporaryDir dir;
        const std::string one = writeFile(dir, "one/config",
                                          "clusters:\n"
                                          "- name: c1\n"
                                          "  cluster:\n"
                                          "    server: https://one.example\n"
                                          "    certificate-authority: ca.crt\n"
                                          "users:\n"
                                          "- name: u1\n"
                                          "  user:\n"
                                          "    client-certificate: certs/client.crt\n"
                                          "    client-key: ../keys/client.key\n"
                                          "    tokenFile: ./token\n"
                                          "    exec:\n"
                                          "      command: bin/plugin\n"
                                          "      apiVersion: client.authentication.k8s.io/v1\n"
                                          "- name: bare\n"
                                          "  user:\n"
                                          "    exec:\n"
                                          "      command: kubelogin\n"
                                          "      apiVersion: client.authentication.k8s.io/v1\n"
                                          "- name: dotslash\n"
                                          "  user:\n"
                                          "    exec:\n"
                                          "      command: ./plugin.sh\n"
                                          "      apiVersion: client.authentication.k8s.io/v1\n"
                                          "- name: absolute\n"
                                          "  user:\n"
                                          "    client-certificate: /etc/abs/client.crt\n"
                                          "    client-key: /etc/abs/client.key\n"
                                          "    tokenFile: /etc/abs/token\n"
                                          "    exec:\n"
                                          "      command: /usr/local/bin/plugin\n"
                                          "      apiVersion: client.authentication.k8s.io/v1\n");
        const std::string two = writeFile(dir, "two/deeper/config",
                                          "clusters:\n"
                                          "- name: c2\n"
                                          "  cluster:\n"
                                          "    server: https://two.example\n"
                                          "    certificate-authority: ../ca2.crt\n"
                                          "- name: c1\n" // loses to one/config's c1
                                          "  cluster:\n"
                                          "    server: https://ignored.example\n"
                                          "    certificate-authority: ignored.crt\n"
                                          "users:\n"
                                          "- name: u2\n"
                                          "  user:\n"
                                          "    tokenFile: secrets/token\n"
                                          "    exec:\n"
                                          "      command: ../tools/plugin\n"
                                          "      apiVersion: client.authentication.k8s.io/v1\n");
        KubeconfigLocation location;
        location.environment = one + ":" + two;
        const Result<Kubeconfig> config = loadKubeconfig(location);
        QVERIFY2(config, why(config));

        QCOMPARE(q(config->clusters.at("c1").certificateAuthority), q(pathIn(dir, "one/ca.crt")));
        QCOMPARE(q(config->clusters.at("c2").certificateAuthority), q(pathIn(dir, "two/ca2.crt")));
        const KubeconfigUser& u1 = config->users.at("u1");
        QCOMPARE(q(u1.clientCertificate), q(pathIn(dir, "one/certs/client.crt")));
        QCOMPARE(q(u1.clientKey), q(pathIn(dir, "keys/client.key")));
        QCOMPARE(q(u1.tokenFile), q(pathIn(dir, "one/token")));
        QVERIFY(u1.exec);
        QCOMPARE(q(u1.exec->command), q(pathIn(dir, "one/bin/plugin")));
        QCOMPARE(q(config->users.at("bare").exec->command), u"kubelogin"_s);
        QCOMPARE(q(config->users.at("dotslash").exec->command), q(pathIn(dir, "one/plugin.sh")));
        const KubeconfigUser& absolute = config->users.at("absolute");
        QCOMPARE(q(absolute.clientCertificate), u"/etc/abs/client.crt"_s);
        QCOMPARE(q(absolute.clientKey), u"/etc/abs/client.key"_s);
        QCOMPARE(q(absolute.tokenFile), u"/etc/abs/token"_s);
        QCOMPARE(q(absolute.exec->command), u"/usr/local/bin/plugin"_s);
        const KubeconfigUser& u2 = config->users.at("u2");
        QCOMPARE(q(u2.tokenFile), q(pathIn(dir, "two/deeper/secrets/token")));
        QCOMPARE(q(u2.exec->command), q(pathIn(dir, "two/tools/plugin")));
    }

    void relativeKubeconfigPathResolvesAgainstTheWorkingDirectory() {
        QTemporaryDir dir;
        writeFile(dir, "sub/config",
                  "clusters:\n- name: c\n  cluster:\n    server: https://x\n    certificate-authority: ca.crt\n");
        const QString previous = QDir::currentPath();
        QVERIFY(QDir::setCurrent(dir.path()));
        KubeconfigLocation location;
        location.explicitPath = "sub/config";
        const Result<Kubeconfig> config = loadKubeconfig(location);
        QVERIFY(QDir::setCurrent(previous));
        QVERIFY2(config, why(config));
        const std::string ca = config->clusters.at("c").certificateAuthority;
        QVERIFY2(fs::path(ca).is_absolute(), ca.c_str());
        QCOMPARE(q(fs::weakly_canonical(ca).string()), q(fs::weakly_canonical(pathIn(dir, "sub/ca.crt")).string()));
    }

    void dataFieldsAreBase64Decoded() {
        const std::string yaml = kubeconfigYaml("server: https://k8s.example\ncertificate-authority-data: " +
                                                    encodeBase64(kCaPem),
                                                "client-certificate-data: " + encodeBase64(kCertPem) +
                                                    "\nclient-key-data: " + encodeBase64(kKeyPem));
        const Result<Kubeconfig> config = parse(yaml);
        QVERIFY2(config, why(config));
        QCOMPARE(q(config->clusters.at("prod").certificateAuthorityData), q(kCaPem));
        QCOMPARE(q(config->users.at("alice").clientCertificateData), q(kCertPem));
        QCOMPARE(q(config->users.at("alice").clientKeyData), q(kKeyPem));
    }

    void allFieldsAreRead() {
        const std::string yaml = "apiVersion: v1\n"
                                 "kind: Config\n"
                                 "current-context: ctx\n"
                                 "clusters:\n"
                                 "- name: prod\n"
                                 "  cluster:\n"
                                 "    server: https://k8s.example:6443\n"
                                 "    insecure-skip-tls-verify: true\n"
                                 "    tls-server-name: api.internal\n"
                                 "    proxy-url: socks5://proxy:1080\n"
                                 "users:\n"
                                 "- name: alice\n"
                                 "  user:\n"
                                 "    username: alice\n"
                                 "    password: s3cret\n"
                                 "    as: admin\n"
                                 "    as-groups: [ops, sre]\n"
                                 "    exec:\n"
                                 "      command: kubelogin\n"
                                 "      args: [get-token, --server-id, \"42\"]\n"
                                 "      env:\n"
                                 "      - name: A\n"
                                 "        value: one\n"
                                 "      - name: B\n"
                                 "        value: \"\"\n"
                                 "      apiVersion: client.authentication.k8s.io/v1beta1\n"
                                 "      interactiveMode: Never\n"
                                 "      provideClusterInfo: true\n"
                                 "      installHint: install kubelogin\n"
                                 "- name: legacy\n"
                                 "  user:\n"
                                 "    auth-provider:\n"
                                 "      name: oidc\n"
                                 "      config: {idp-issuer-url: https://idp}\n"
                                 "contexts:\n"
                                 "- name: ctx\n"
                                 "  context:\n"
                                 "    cluster: prod\n"
                                 "    user: alice\n"
                                 "    namespace: team-a\n";
        const Result<Kubeconfig> config = parse(yaml);
        QVERIFY2(config, why(config));
        const KubeconfigCluster& cluster = config->clusters.at("prod");
        QCOMPARE(q(cluster.server), u"https://k8s.example:6443"_s);
        QVERIFY(cluster.insecureSkipTlsVerify);
        QCOMPARE(q(cluster.tlsServerName), u"api.internal"_s);
        QCOMPARE(q(cluster.proxyUrl), u"socks5://proxy:1080"_s);
        QCOMPARE(q(cluster.origin), q(m_config));
        const KubeconfigUser& user = config->users.at("alice");
        QCOMPARE(q(user.username), u"alice"_s);
        QCOMPARE(q(user.password), u"s3cret"_s);
        QCOMPARE(q(user.impersonate), u"admin"_s);
        QCOMPARE(toList(user.impersonateGroups), (QStringList{u"ops"_s, u"sre"_s}));
        QVERIFY(user.exec);
        QCOMPARE(q(user.exec->command), u"kubelogin"_s);
        QCOMPARE(toList(user.exec->args), (QStringList{u"get-token"_s, u"--server-id"_s, u"42"_s}));
        QCOMPARE(user.exec->env.size(), std::size_t(2));
        QCOMPARE(q(user.exec->env[0].first), u"A"_s);
        QCOMPARE(q(user.exec->env[0].second), u"one"_s);
        QCOMPARE(q(user.exec->env[1].first), u"B"_s);
        QCOMPARE(q(user.exec->env[1].second), u""_s);
        QCOMPARE(q(user.exec->apiVersion), u"client.authentication.k8s.io/v1beta1"_s);
        QCOMPARE(q(user.exec->interactiveMode), u"Never"_s);
        QVERIFY(user.exec->provideClusterInfo);
        QCOMPARE(q(user.exec->installHint), u"install kubelogin"_s);
        QCOMPARE(q(config->users.at("legacy").authProvider), u"oidc"_s);
        QVERIFY(!config->users.at("legacy").exec);
        const KubeconfigContext& context = config->contexts.at("ctx");
        QCOMPARE(q(context.cluster), u"prod"_s);
        QCOMPARE(q(context.user), u"alice"_s);
        QCOMPARE(q(context.nameSpace), u"team-a"_s);
        QCOMPARE(q(config->currentContext), u"ctx"_s);
    }

    // ---- parse errors -------------------------------------------------------------------------

    void malformedYamlNamesFileLineAndColumn_data() {
        QTest::addColumn<QString>("yaml");
        QTest::addColumn<int>("line");
        QTest::newRow("bad indentation") << "apiVersion: v1\nkind: Config\n  clusters: []\n" << 3;
        QTest::newRow("unclosed flow map") << "apiVersion: v1\nusers:\n- name: a\n  user: {token: x\n" << 4;
        QTest::newRow("two values on a key line") << "clusters:\n- name: a\n  cluster: x: y: z\n" << 3;
        QTest::newRow("unclosed flow list") << "kind: Config\nclusters: [1, 2\nusers: []\n" << 3;
        QTest::newRow("tab indentation") << "kind: Config\n\tclusters: []\n" << 2;
        QTest::newRow("undefined alias") << "kind: Config\ncurrent-context: *nothing\n" << 2;
        // Not here: an unterminated double-quoted scalar, which yaml-cpp 0.7 closes at the end of the
        // file (kubectl refuses it); the context it names is then unknown, which is an error too.
        QTest::newRow("a name given twice in one file")
            << "kind: Config\nusers:\n- name: a\n  user: {token: x}\n- name: a\n  user: {token: y}\n" << 5;
    }
    void malformedYamlNamesFileLineAndColumn() {
        QFETCH(QString, yaml);
        QFETCH(int, line);
        QTemporaryDir dir;
        KubeconfigLocation location;
        location.explicitPath = writeFile(dir, "bad-config", yaml.toStdString());
        const Result<Kubeconfig> config = loadKubeconfig(location);
        QVERIFY2(!config, "malformed YAML must be an error");
        const QString message = q(config.error().message);
        const QRegularExpression where(u"^"_s + QRegularExpression::escape(q(location.explicitPath)) + u":(\\d+):(\\d+): "_s);
        const QRegularExpressionMatch match = where.match(message);
        QVERIFY2(match.hasMatch(), qPrintable(message));
        QVERIFY2(match.captured(1).toInt() >= line - 1 && match.captured(1).toInt() <= line + 1, qPrintable(message));
        QVERIFY2(match.captured(2).toInt() >= 1, qPrintable(message));
    }

    // kubectl: "error loading config file ...: read ...: is a directory".
    void directoryIsNotAKubeconfig() {
        QTemporaryDir dir;
        KubeconfigLocation location;
        location.explicitPath = dir.path().toStdString();
        const Result<Kubeconfig> config = loadKubeconfig(location);
        QVERIFY(!config);
        QVERIFY2(contains(config.error().message, "is a directory"), config.error().message.c_str());
    }

    void wrongTypesNameFileLineAndField_data() {
        QTest::addColumn<QString>("yaml");
        QTest::addColumn<int>("line");
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("problem");
        QTest::newRow("token is a list") << "users:\n- name: alice\n  user:\n    token: [a, b]\n"
                                         << 4 << "users[\"alice\"].user.token" << "expected a string";
        QTest::newRow("server is a map") << "clusters:\n- name: prod\n  cluster:\n    server: {host: x}\n"
                                         << 4 << "clusters[\"prod\"].cluster.server" << "expected a string";
        QTest::newRow("insecure is not a bool")
            << "clusters:\n- name: prod\n  cluster:\n    server: https://x\n    insecure-skip-tls-verify: maybe\n" << 5
            << "clusters[\"prod\"].cluster.insecure-skip-tls-verify" << "true or false";
        QTest::newRow("as-groups is a string") << "users:\n- name: bob\n  user:\n    as-groups: ops\n"
                                               << 4 << "users[\"bob\"].user.as-groups" << "list of strings";
        QTest::newRow("as-groups holds a map") << "users:\n- name: bob\n  user:\n    as-groups: [ops, {a: b}]\n"
                                               << 4 << "users[\"bob\"].user.as-groups" << "list of strings";
        QTest::newRow("exec args nested list")
            << "users:\n- name: bob\n  user:\n    exec:\n      command: x\n      args: [[a]]\n" << 6
            << "users[\"bob\"].user.exec.args" << "list of strings";
        QTest::newRow("exec env is a map")
            << "users:\n- name: bob\n  user:\n    exec:\n      command: x\n      env: {A: b}\n" << 6
            << "users[\"bob\"].user.exec.env" << "expected a list";
        QTest::newRow("exec env value is a list")
            << "users:\n- name: bob\n  user:\n    exec:\n      command: x\n      env:\n      - name: A\n"
               "        value: [1]\n"
            << 8 << "users[\"bob\"].user.exec.env[0].value" << "expected a string";
        QTest::newRow("exec is a string") << "users:\n- name: bob\n  user:\n    exec: kubelogin\n"
                                          << 4 << "users[\"bob\"].user.exec" << "expected a map";
        QTest::newRow("provideClusterInfo not a bool")
            << "users:\n- name: bob\n  user:\n    exec:\n      command: x\n      provideClusterInfo: sometimes\n" << 6
            << "users[\"bob\"].user.exec.provideClusterInfo" << "true or false";
        QTest::newRow("auth-provider is a string") << "users:\n- name: bob\n  user:\n    auth-provider: gcp\n"
                                                   << 4 << "users[\"bob\"].user.auth-provider" << "expected a map";
        QTest::newRow("user body is a string") << "users:\n- name: bob\n  user: nobody\n"
                                               << 3 << "users[\"bob\"].user" << "expected a map";
        QTest::newRow("namespace is a list") << "contexts:\n- name: ctx\n  context:\n    namespace: [a]\n"
                                             << 4 << "contexts[\"ctx\"].context.namespace" << "expected a string";
        QTest::newRow("clusters is a map") << "apiVersion: v1\nclusters:\n  prod: {server: x}\n"
                                           << 3 << "clusters" << "expected a list";
        QTest::newRow("entry without a name") << "users:\n- user:\n    token: x\n" << 2 << "users[0].name" << "missing";
        QTest::newRow("entry that is not a map") << "contexts:\n- ctx\n" << 2 << "contexts[0]" << "expected a map";
        QTest::newRow("name is a list") << "clusters:\n- name: [a]\n  cluster: {}\n"
                                        << 2 << "clusters[0].name" << "expected a string";
        QTest::newRow("current-context is a list") << "kind: Config\ncurrent-context: [a, b]\n"
                                                   << 2 << "current-context" << "expected a string";
        QTest::newRow("kind is not Config") << "apiVersion: v1\nkind: Pod\n" << 2 << "kind" << "Config";
        QTest::newRow("document is a list") << "- a\n- b\n" << 1 << "kubeconfig" << "expected a map";
        QTest::newRow("bad base64 in data")
            << "clusters:\n- name: prod\n  cluster:\n    server: https://x\n    certificate-authority-data: no!base64\n"
            << 5 << "clusters[\"prod\"].cluster.certificate-authority-data" << "illegal base64 data at input byte 2";
    }
    void wrongTypesNameFileLineAndField() {
        QFETCH(QString, yaml);
        QFETCH(int, line);
        QFETCH(QString, field);
        QFETCH(QString, problem);
        QTemporaryDir dir;
        KubeconfigLocation location;
        location.explicitPath = writeFile(dir, "typed-config", yaml.toStdString());
        const Result<Kubeconfig> config = loadKubeconfig(location);
        QVERIFY2(!config, "a wrongly typed field must be an error");
        const QString message = q(config.error().message);
        const QString where = q(location.explicitPath) + u':' + QString::number(line) + u':';
        QVERIFY2(message.startsWith(where), qPrintable(u"expected "_s + where + u" in: "_s + message));
        QVERIFY2(message.contains(field), qPrintable(u"expected "_s + field + u" in: "_s + message));
        QVERIFY2(message.contains(problem), qPrintable(u"expected "_s + problem + u" in: "_s + message));
    }

    // ---- resolveKubeContext: errors -----------------------------------------------------------

    void resolveErrors_data() {
        QTest::addColumn<QString>("yaml");
        QTest::addColumn<QString>("context"); // to resolve; empty: current-context
        QTest::addColumn<QStringList>("expected");
        const std::string ctx = "context \"ctx\"";
        const std::string cluster = "cluster \"prod\"";
        const std::string user = "user \"alice\"";
        auto row = [](const char* name, const std::string& yaml, const char* context,
                      std::initializer_list<std::string> expected) {
            QStringList parts;
            for (const std::string& part : expected) parts << q(part);
            QTest::newRow(name) << q(yaml) << QString::fromUtf8(context) << parts;
        };
        const std::string twoContexts =
            kubeconfigYaml() + "- name: other\n  context:\n    cluster: prod\n    user: alice\n";
        row("unknown context lists known ones", twoContexts, "nope",
            {"context \"nope\"", "not found", "ctx, other"});
        row("unknown current-context", kubeconfigYaml(kDefaultCluster, kDefaultUser, kDefaultContext,
                                                      "current-context: gone\n"),
            "", {"context \"gone\"", "not found", "ctx"});
        row("no current-context", kubeconfigYaml(kDefaultCluster, kDefaultUser, kDefaultContext, ""), "",
            {"current-context", "ctx"});
        row("context without cluster", kubeconfigYaml(kDefaultCluster, kDefaultUser, "user: alice"), "",
            {ctx, "cluster", "not set"});
        row("context without user", kubeconfigYaml(kDefaultCluster, kDefaultUser, "cluster: prod"), "",
            {ctx, "user", "not set"});
        row("cluster undefined", kubeconfigYaml(kDefaultCluster, kDefaultUser, "cluster: ghost\nuser: alice"), "",
            {ctx, "cluster \"ghost\"", "not defined"});
        row("user undefined", kubeconfigYaml(kDefaultCluster, kDefaultUser, "cluster: prod\nuser: ghost"), "",
            {ctx, "user \"ghost\"", "not defined"});
        row("cluster without server", kubeconfigYaml("tls-server-name: x"), "", {ctx, cluster, "server is not set"});
        row("server with another scheme", kubeconfigYaml("server: ftp://k8s.example"), "",
            {ctx, cluster, "ftp://k8s.example", "not an http:// or https:// URL"});
        row("server without scheme", kubeconfigYaml("server: k8s.example:6443"), "",
            {ctx, cluster, "not an http:// or https:// URL"});
        row("server without host", kubeconfigYaml("server: https://"), "",
            {ctx, cluster, "not an http:// or https:// URL"});
        row("CA file and data", kubeconfigYaml("server: https://x\ncertificate-authority: ca.crt\n"
                                               "certificate-authority-data: " + encodeBase64(kCaPem)),
            "", {ctx, cluster, "certificate-authority and certificate-authority-data"});
        row("insecure with CA data", kubeconfigYaml("server: https://x\ninsecure-skip-tls-verify: true\n"
                                                    "certificate-authority-data: " + encodeBase64(kCaPem)),
            "", {ctx, cluster, "insecure-skip-tls-verify"});
        row("insecure with CA file",
            kubeconfigYaml("server: https://x\ninsecure-skip-tls-verify: true\ncertificate-authority: ca.crt"), "",
            {ctx, cluster, "insecure-skip-tls-verify"});
        row("unreadable CA file", kubeconfigYaml("server: https://x\ncertificate-authority: missing-ca.crt"), "",
            {ctx, cluster, "certificate-authority", "missing-ca.crt"});
        row("proxy-url with another scheme", kubeconfigYaml("server: https://x\nproxy-url: ftp://proxy:21"), "",
            {ctx, cluster, "proxy-url", "ftp://proxy:21"});
        row("proxy-url without scheme", kubeconfigYaml("server: https://x\nproxy-url: proxy:3128"), "",
            {ctx, cluster, "proxy-url"});
        row("token and username", kubeconfigYaml(kDefaultCluster, "token: abc\nusername: alice"), "",
            {ctx, user, "more than one way to log in"});
        row("token and password", kubeconfigYaml(kDefaultCluster, "token: abc\npassword: pw"), "",
            {ctx, user, "more than one way to log in"});
        row("client-certificate without key", kubeconfigYaml(kDefaultCluster, "client-certificate: client.crt"), "",
            {ctx, user, "client-key"});
        row("client-certificate-data without key",
            kubeconfigYaml(kDefaultCluster, "client-certificate-data: " + encodeBase64(kCertPem)), "",
            {ctx, user, "client-key"});
        row("client-certificate file and data",
            kubeconfigYaml(kDefaultCluster, "client-certificate: client.crt\nclient-certificate-data: " +
                                                encodeBase64(kCertPem) + "\nclient-key: client.key"),
            "", {ctx, user, "client-certificate and client-certificate-data"});
        row("client-key file and data",
            kubeconfigYaml(kDefaultCluster, "client-certificate: client.crt\nclient-key: client.key\n"
                                            "client-key-data: " + encodeBase64(kKeyPem)),
            "", {ctx, user, "client-key and client-key-data"});
        row("unreadable client certificate",
            kubeconfigYaml(kDefaultCluster, "client-certificate: missing-client.crt\nclient-key: client.key"), "",
            {ctx, user, "missing-client.crt"});
        row("unreadable client key",
            kubeconfigYaml(kDefaultCluster, "client-certificate: client.crt\nclient-key: missing-client.key"), "",
            {ctx, user, "missing-client.key"});
        row("auth-provider", kubeconfigYaml(kDefaultCluster, "auth-provider:\n  name: gcp\n  config: {}"), "",
            {ctx, user, "auth-provider \"gcp\"", "exec"});
        row("exec without command",
            kubeconfigYaml(kDefaultCluster, "exec:\n  apiVersion: client.authentication.k8s.io/v1\n"
                                            "  interactiveMode: Never"),
            "", {ctx, user, "exec", "command"});
        row("exec without apiVersion", kubeconfigYaml(kDefaultCluster, "exec:\n  command: kubelogin\n"
                                                                       "  interactiveMode: Never"),
            "", {ctx, user, "exec", "apiVersion"});
        row("exec v1alpha1", kubeconfigYaml(kDefaultCluster, "exec:\n  command: kubelogin\n"
                                                             "  apiVersion: client.authentication.k8s.io/v1alpha1\n"
                                                             "  interactiveMode: Never"),
            "", {ctx, user, "client.authentication.k8s.io/v1alpha1"});
        row("exec unknown group", kubeconfigYaml(kDefaultCluster, "exec:\n  command: kubelogin\n"
                                                                  "  apiVersion: example.com/v1\n"
                                                                  "  interactiveMode: Never"),
            "", {ctx, user, "example.com/v1"});
        row("exec v1 without interactiveMode",
            kubeconfigYaml(kDefaultCluster, "exec:\n  command: kubelogin\n"
                                            "  apiVersion: client.authentication.k8s.io/v1"),
            "", {ctx, user, "interactiveMode"});
        row("exec invalid interactiveMode",
            kubeconfigYaml(kDefaultCluster, "exec:\n  command: kubelogin\n"
                                            "  apiVersion: client.authentication.k8s.io/v1\n"
                                            "  interactiveMode: Sometimes"),
            "", {ctx, user, "interactiveMode", "Sometimes"});
        row("exec interactiveMode is case-sensitive",
            kubeconfigYaml(kDefaultCluster, "exec:\n  command: kubelogin\n"
                                            "  apiVersion: client.authentication.k8s.io/v1beta1\n"
                                            "  interactiveMode: never"),
            "", {ctx, user, "interactiveMode", "never"});
        row("exec env entry without name",
            kubeconfigYaml(kDefaultCluster, "exec:\n  command: kubelogin\n"
                                            "  apiVersion: client.authentication.k8s.io/v1\n"
                                            "  interactiveMode: Never\n  env:\n  - value: x"),
            "", {ctx, user, "env"});
        row("unreadable tokenFile", kubeconfigYaml(kDefaultCluster, "tokenFile: missing-token"), "",
            {ctx, user, "tokenFile", "missing-token"});
    }
    void resolveErrors() {
        QFETCH(QString, yaml);
        QFETCH(QString, context);
        QFETCH(QStringList, expected);
        const Result<Kubeconfig> config = parse(yaml.toStdString());
        QVERIFY2(config, why(config));
        const Result<KubeConnection> connection = resolveKubeContext(*config, context.toStdString());
        QVERIFY2(!connection, "expected an error");
        const QString message = q(connection.error().message);
        for (const QString& part : expected)
            QVERIFY2(message.contains(part), qPrintable(u"expected \""_s + part + u"\" in: "_s + message));
    }

    // ---- resolveKubeContext: successes --------------------------------------------------------

    void tokenContextResolvesEverything() {
        const std::string yaml = kubeconfigYaml("server: https://k8s.example:6443/\ncertificate-authority: ca.crt\n"
                                                "tls-server-name: api.internal\nproxy-url: socks5://proxy:1080",
                                                "token: abc\nas: admin\nas-groups: [ops, sre]",
                                                "cluster: prod\nuser: alice\nnamespace: team-a");
        const Result<Kubeconfig> config = parse(yaml);
        QVERIFY2(config, why(config));
        const Result<KubeConnection> c = resolveKubeContext(*config, "");
        QVERIFY2(c, why(c));
        QCOMPARE(q(c->contextName), u"ctx"_s);
        QCOMPARE(q(c->clusterName), u"prod"_s);
        QCOMPARE(q(c->userName), u"alice"_s);
        QCOMPARE(q(c->server), u"https://k8s.example:6443"_s);
        QVERIFY(c->secure());
        QCOMPARE(q(c->tls.caFile), q(pathIn(m_files, "ca.crt")));
        QVERIFY(c->tls.caData.empty());
        QCOMPARE(q(c->tls.serverName), u"api.internal"_s);
        QVERIFY(!c->tls.insecureSkipVerify);
        QVERIFY(c->tls.clientCertFile.empty() && c->tls.clientCertData.empty());
        QVERIFY(c->tls.clientKeyFile.empty() && c->tls.clientKeyData.empty());
        QCOMPARE(q(c->proxy), u"socks5://proxy:1080"_s);
        QCOMPARE(q(c->token), u"abc"_s);
        QVERIFY(c->tokenFile.empty());
        QVERIFY(c->username.empty() && c->password.empty());
        QCOMPARE(q(c->impersonate), u"admin"_s);
        QCOMPARE(toList(c->impersonateGroups), (QStringList{u"ops"_s, u"sre"_s}));
        QVERIFY(!c->exec);
        QVERIFY(c->execClusterInfo.empty());
        QCOMPARE(q(c->nameSpace), u"team-a"_s);
    }

    void namedContextIsUsedInsteadOfCurrent() {
        const std::string proper = "current-context: ctx\n"
                                   "clusters:\n"
                                   "- name: prod\n  cluster:\n    server: https://prod.example\n"
                                   "- name: stage\n  cluster:\n    server: https://stage.example\n"
                                   "users:\n- name: alice\n  user:\n    token: abc\n"
                                   "contexts:\n"
                                   "- name: ctx\n  context: {cluster: prod, user: alice}\n"
                                   "- name: staging\n  context: {cluster: stage, user: alice, namespace: stage-ns}\n";
        const Result<Kubeconfig> config = parse(proper);
        QVERIFY2(config, why(config));
        Result<KubeConnection> c = resolveKubeContext(*config, "staging");
        QVERIFY2(c, why(c));
        QCOMPARE(q(c->contextName), u"staging"_s);
        QCOMPARE(q(c->server), u"https://stage.example"_s);
        QCOMPARE(q(c->nameSpace), u"stage-ns"_s);
        c = resolveKubeContext(*config, "");
        QVERIFY2(c, why(c));
        QCOMPARE(q(c->contextName), u"ctx"_s);
        QCOMPARE(q(c->server), u"https://prod.example"_s);
        QVERIFY(c->nameSpace.empty());
    }

    void serverIsNormalised_data() {
        QTest::addColumn<QString>("server");
        QTest::addColumn<QString>("expected");
        QTest::addColumn<bool>("secure");
        QTest::newRow("https with port") << "https://h:6443" << "https://h:6443" << true;
        QTest::newRow("trailing slash") << "https://h:6443/" << "https://h:6443" << true;
        QTest::newRow("path with slashes") << "https://h/base///" << "https://h/base" << true;
        QTest::newRow("http") << "http://h:8080/" << "http://h:8080" << false;
        QTest::newRow("short host") << "http://h/" << "http://h" << false;
        QTest::newRow("ipv6") << "https://[fd00::1]:6443/" << "https://[fd00::1]:6443" << true;
    }
    void serverIsNormalised() {
        QFETCH(QString, server);
        QFETCH(QString, expected);
        QFETCH(bool, secure);
        const Result<Kubeconfig> config = parse(kubeconfigYaml("server: " + server.toStdString()));
        QVERIFY2(config, why(config));
        const Result<KubeConnection> c = resolveKubeContext(*config, "ctx");
        QVERIFY2(c, why(c));
        QCOMPARE(q(c->server), expected);
        QCOMPARE(c->secure(), secure);
    }

    void proxySchemesAccepted_data() {
        QTest::addColumn<QString>("proxy");
        QTest::newRow("http") << "http://proxy:3128";
        QTest::newRow("https") << "https://proxy:3129";
        QTest::newRow("socks5") << "socks5://proxy:1080";
    }
    void proxySchemesAccepted() {
        QFETCH(QString, proxy);
        const Result<Kubeconfig> config = parse(kubeconfigYaml("server: https://x\nproxy-url: " + proxy.toStdString()));
        QVERIFY2(config, why(config));
        const Result<KubeConnection> c = resolveKubeContext(*config, "");
        QVERIFY2(c, why(c));
        QCOMPARE(q(c->proxy), proxy);
    }

    void caDataAndInsecureAreCarried() {
        Result<Kubeconfig> config = parse(kubeconfigYaml("server: https://x\ncertificate-authority-data: " +
                                                         encodeBase64(kCaPem)));
        QVERIFY2(config, why(config));
        Result<KubeConnection> c = resolveKubeContext(*config, "");
        QVERIFY2(c, why(c));
        QCOMPARE(q(c->tls.caData), q(kCaPem));
        QVERIFY(c->tls.caFile.empty());
        QVERIFY(!c->tls.insecureSkipVerify);

        config = parse(kubeconfigYaml("server: https://x\ninsecure-skip-tls-verify: true"));
        QVERIFY2(config, why(config));
        c = resolveKubeContext(*config, "");
        QVERIFY2(c, why(c));
        QVERIFY(c->tls.insecureSkipVerify);
        QVERIFY(c->tls.caFile.empty() && c->tls.caData.empty());
    }

    void tokenFileIsReadAndKept_data() {
        QTest::addColumn<QString>("content");
        QTest::addColumn<QString>("expected");
        QTest::newRow("trailing newline") << "tok-from-file\n" << "tok-from-file";
        QTest::newRow("crlf") << "tok-crlf\r\n" << "tok-crlf";
        QTest::newRow("no newline") << "bare" << "bare";
    }
    void tokenFileIsReadAndKept() {
        QFETCH(QString, content);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        const std::string token = writeFile(dir, "secrets/token", content.toStdString());
        const std::string yaml = kubeconfigYaml(kDefaultCluster, "tokenFile: secrets/token");
        const Result<Kubeconfig> config = parseKubeconfig(yaml, pathIn(dir, "config"));
        QVERIFY2(config, why(config));
        const Result<KubeConnection> c = resolveKubeContext(*config, "");
        QVERIFY2(c, why(c));
        QCOMPARE(q(c->token), expected);
        QCOMPARE(q(c->tokenFile), q(token));
    }

    void clientCertificateFiles() {
        const Result<Kubeconfig> config =
            parse(kubeconfigYaml(kDefaultCluster, "client-certificate: client.crt\nclient-key: client.key"));
        QVERIFY2(config, why(config));
        const Result<KubeConnection> c = resolveKubeContext(*config, "");
        QVERIFY2(c, why(c));
        QCOMPARE(q(c->tls.clientCertFile), q(pathIn(m_files, "client.crt")));
        QCOMPARE(q(c->tls.clientKeyFile), q(pathIn(m_files, "client.key")));
        QVERIFY(c->tls.clientCertData.empty() && c->tls.clientKeyData.empty());
        QVERIFY(c->token.empty());
        QVERIFY(!c->exec);
    }

    void clientCertificateData() {
        const Result<Kubeconfig> config = parse(kubeconfigYaml(
            kDefaultCluster, "client-certificate-data: " + encodeBase64(kCertPem) + "\nclient-key-data: " +
                                 encodeBase64(kKeyPem)));
        QVERIFY2(config, why(config));
        const Result<KubeConnection> c = resolveKubeContext(*config, "");
        QVERIFY2(c, why(c));
        QCOMPARE(q(c->tls.clientCertData), q(kCertPem));
        QCOMPARE(q(c->tls.clientKeyData), q(kKeyPem));
        QVERIFY(c->tls.clientCertFile.empty() && c->tls.clientKeyFile.empty());
    }

    void clientCertificateFileWithKeyData() {
        const Result<Kubeconfig> config = parse(
            kubeconfigYaml(kDefaultCluster, "client-certificate: client.crt\nclient-key-data: " + encodeBase64(kKeyPem)));
        QVERIFY2(config, why(config));
        const Result<KubeConnection> c = resolveKubeContext(*config, "");
        QVERIFY2(c, why(c));
        QCOMPARE(q(c->tls.clientCertFile), q(pathIn(m_files, "client.crt")));
        QCOMPARE(q(c->tls.clientKeyData), q(kKeyPem));
    }

    void basicAuth() {
        const Result<Kubeconfig> config = parse(kubeconfigYaml(kDefaultCluster, "username: alice\npassword: s3cret"));
        QVERIFY2(config, why(config));
        const Result<KubeConnection> c = resolveKubeContext(*config, "");
        QVERIFY2(c, why(c));
        QCOMPARE(q(c->username), u"alice"_s);
        QCOMPARE(q(c->password), u"s3cret"_s);
        QVERIFY(c->token.empty());
    }

    void execV1() {
        const Result<Kubeconfig> config = parse(kubeconfigYaml(
            kDefaultCluster, "exec:\n  command: kubelogin\n  args: [get-token, --login, devicecode]\n"
                             "  env:\n  - name: AAD_LOGIN\n    value: \"1\"\n"
                             "  apiVersion: client.authentication.k8s.io/v1\n  interactiveMode: Always\n"
                             "  installHint: brew install kubelogin"));
        QVERIFY2(config, why(config));
        const Result<KubeConnection> c = resolveKubeContext(*config, "");
        QVERIFY2(c, why(c));
        QVERIFY(c->exec);
        QCOMPARE(q(c->exec->command), u"kubelogin"_s);
        QCOMPARE(toList(c->exec->args), (QStringList{u"get-token"_s, u"--login"_s, u"devicecode"_s}));
        QCOMPARE(c->exec->env.size(), std::size_t(1));
        QCOMPARE(q(c->exec->env[0].first), u"AAD_LOGIN"_s);
        QCOMPARE(q(c->exec->env[0].second), u"1"_s);
        QCOMPARE(q(c->exec->apiVersion), u"client.authentication.k8s.io/v1"_s);
        QCOMPARE(q(c->exec->interactiveMode), u"Always"_s);
        QCOMPARE(q(c->exec->installHint), u"brew install kubelogin"_s);
        QVERIFY(!c->exec->provideClusterInfo);
        QVERIFY2(c->execClusterInfo.empty(), c->execClusterInfo.c_str());
        QVERIFY(c->token.empty());
    }

    void execInteractiveModes_data() {
        QTest::addColumn<QString>("apiVersion");
        QTest::addColumn<QString>("mode"); // "" = not set
        QTest::addColumn<QString>("expected");
        const QString v1 = u"client.authentication.k8s.io/v1"_s;
        const QString v1beta1 = u"client.authentication.k8s.io/v1beta1"_s;
        QTest::newRow("v1beta1 default") << v1beta1 << "" << "IfAvailable";
        QTest::newRow("v1beta1 Never") << v1beta1 << "Never" << "Never";
        QTest::newRow("v1beta1 Always") << v1beta1 << "Always" << "Always";
        QTest::newRow("v1 Never") << v1 << "Never" << "Never";
        QTest::newRow("v1 IfAvailable") << v1 << "IfAvailable" << "IfAvailable";
        QTest::newRow("v1 Always") << v1 << "Always" << "Always";
    }
    void execInteractiveModes() {
        QFETCH(QString, apiVersion);
        QFETCH(QString, mode);
        QFETCH(QString, expected);
        std::string user = "exec:\n  command: plugin\n  apiVersion: " + apiVersion.toStdString();
        if (!mode.isEmpty()) user += "\n  interactiveMode: " + mode.toStdString();
        const Result<Kubeconfig> config = parse(kubeconfigYaml(kDefaultCluster, user));
        QVERIFY2(config, why(config));
        const Result<KubeConnection> c = resolveKubeContext(*config, "");
        QVERIFY2(c, why(c));
        QVERIFY(c->exec);
        QCOMPARE(q(c->exec->interactiveMode), expected);
        QCOMPARE(q(c->exec->apiVersion), apiVersion);
    }

    void execClusterInfoWithCaFile() {
        const std::string yaml = kubeconfigYaml(
            "server: https://k8s.example:6443/\ncertificate-authority: ca.crt\ntls-server-name: api.internal\n"
            "proxy-url: http://proxy:3128\n"
            "extensions:\n"
            "- name: other.example/ext\n"
            "  extension: {ignored: true}\n"
            "- name: client.authentication.k8s.io/exec\n"
            "  extension:\n"
            "    audience: sts.example\n"
            "    retries: 3\n"
            "    ratio: 0.25\n"
            "    verbose: false\n"
            "    quoted: \"123\"\n"
            "    nothing: null\n"
            "    scopes: [a, b]\n"
            "    nested: {deep: {x: 1}}",
            "exec:\n  command: plugin\n  apiVersion: client.authentication.k8s.io/v1\n  interactiveMode: Never\n"
            "  provideClusterInfo: true");
        const Result<Kubeconfig> config = parse(yaml);
        QVERIFY2(config, why(config));
        const Result<KubeConnection> c = resolveKubeContext(*config, "");
        QVERIFY2(c, why(c));
        QJsonParseError error{};
        const QJsonDocument info = QJsonDocument::fromJson(QByteArray::fromStdString(c->execClusterInfo), &error);
        QVERIFY2(error.error == QJsonParseError::NoError, c->execClusterInfo.c_str());
        QVERIFY2(strictJson(c->execClusterInfo), c->execClusterInfo.c_str());
        const QJsonObject cluster = info.object();
        QCOMPARE(cluster.value(u"server"_s).toString(), u"https://k8s.example:6443"_s);
        QCOMPARE(cluster.value(u"tls-server-name"_s).toString(), u"api.internal"_s);
        QCOMPARE(cluster.value(u"proxy-url"_s).toString(), u"http://proxy:3128"_s);
        QVERIFY2(!cluster.value(u"insecure-skip-tls-verify"_s).toBool(), c->execClusterInfo.c_str());
        QCOMPARE(cluster.value(u"certificate-authority-data"_s).toString(), q(encodeBase64(kCaPem)));
        const QJsonObject expected{
            {u"audience"_s, u"sts.example"_s}, {u"retries"_s, 3},     {u"ratio"_s, 0.25},
            {u"verbose"_s, false},          {u"quoted"_s, u"123"_s},  {u"nothing"_s, QJsonValue::Null},
            {u"scopes"_s, QJsonArray{u"a"_s, u"b"_s}},
            {u"nested"_s, QJsonObject{{u"deep"_s, QJsonObject{{u"x"_s, 1}}}}},
        };
        QCOMPARE(cluster.value(u"config"_s).toObject(), expected);
    }

    void execClusterInfoWithCaDataOrInsecure() {
        const std::string user = "exec:\n  command: plugin\n  apiVersion: client.authentication.k8s.io/v1beta1\n"
                                 "  provideClusterInfo: true";
        Result<Kubeconfig> config =
            parse(kubeconfigYaml("server: https://x\ncertificate-authority-data: " + encodeBase64(kCaPem), user));
        QVERIFY2(config, why(config));
        Result<KubeConnection> c = resolveKubeContext(*config, "");
        QVERIFY2(c, why(c));
        QJsonObject cluster = QJsonDocument::fromJson(QByteArray::fromStdString(c->execClusterInfo)).object();
        QCOMPARE(cluster.value(u"server"_s).toString(), u"https://x"_s);
        QCOMPARE(cluster.value(u"certificate-authority-data"_s).toString(), q(encodeBase64(kCaPem)));
        QVERIFY(!cluster.contains(u"config"_s));
        QVERIFY(!cluster.contains(u"proxy-url"_s));
        QVERIFY(!cluster.value(u"insecure-skip-tls-verify"_s).toBool());

        config = parse(kubeconfigYaml("server: https://y\ninsecure-skip-tls-verify: true", user));
        QVERIFY2(config, why(config));
        c = resolveKubeContext(*config, "");
        QVERIFY2(c, why(c));
        cluster = QJsonDocument::fromJson(QByteArray::fromStdString(c->execClusterInfo)).object();
        QCOMPARE(cluster.value(u"server"_s).toString(), u"https://y"_s);
        QCOMPARE(cluster.value(u"insecure-skip-tls-verify"_s).toBool(), true);
        QVERIFY(!cluster.contains(u"certificate-authority-data"_s));
    }

    // The exec extension reaches the plugin as JSON; each YAML scalar must become valid JSON of the
    // type YAML gives it.
    void execExtensionScalarsBecomeJson_data() {
        QTest::addColumn<QString>("scalar");
        QTest::addColumn<QString>("expectedJson"); // the value as JSON text
        QTest::newRow("int") << "42" << "42";
        QTest::newRow("negative float") << "-3.5" << "-3.5";
        QTest::newRow("exponent") << "1e3" << "1000";
        QTest::newRow("true") << "true" << "true";
        QTest::newRow("False") << "False" << "false";
        QTest::newRow("null") << "null" << "null";
        QTest::newRow("tilde") << "~" << "null";
        QTest::newRow("empty") << "" << "null";
        QTest::newRow("word") << "hello" << "\"hello\"";
        QTest::newRow("single-quoted number") << "'123'" << "\"123\"";
        QTest::newRow("double-quoted bool") << "\"true\"" << "\"true\"";
        QTest::newRow("string with quote") << "'say \"hi\"'" << "\"say \\\"hi\\\"\"";
        QTest::newRow("word inf is a string") << "inf" << "\"inf\"";
        QTest::newRow("word nan is a string") << "nan" << "\"nan\"";
        QTest::newRow("hex int") << "0x1F" << "31";
        QTest::newRow("leading-dot float") << ".5" << "0.5";
        QTest::newRow("plus-signed int") << "+7" << "7";
    }
    void execExtensionScalarsBecomeJson() {
        QFETCH(QString, scalar);
        QFETCH(QString, expectedJson);
        const std::string yaml = kubeconfigYaml(
            "server: https://x\nextensions:\n- name: client.authentication.k8s.io/exec\n  extension:\n    v: " +
                scalar.toStdString(),
            "exec:\n  command: plugin\n  apiVersion: client.authentication.k8s.io/v1beta1\n"
            "  provideClusterInfo: true");
        const Result<Kubeconfig> config = parse(yaml);
        QVERIFY2(config, why(config));
        const Result<KubeConnection> c = resolveKubeContext(*config, "");
        QVERIFY2(c, why(c));
        QJsonParseError error{};
        const QJsonDocument info = QJsonDocument::fromJson(QByteArray::fromStdString(c->execClusterInfo), &error);
        QVERIFY2(error.error == QJsonParseError::NoError,
                 qPrintable(u"not JSON ("_s + error.errorString() + u"): "_s + q(c->execClusterInfo)));
        QVERIFY2(strictJson(c->execClusterInfo), qPrintable(u"not strict JSON: "_s + q(c->execClusterInfo)));
        const QJsonDocument expected = QJsonDocument::fromJson('[' + expectedJson.toUtf8() + ']');
        QVERIFY(expected.isArray());
        QCOMPARE(info.object().value(u"config"_s).toObject().value(u"v"_s), expected.array().at(0));
    }

    // ---- in-cluster ---------------------------------------------------------------------------

    void inCluster_data() {
        QTest::addColumn<QString>("host");
        QTest::addColumn<QString>("port");
        QTest::addColumn<QString>("server");
        QTest::newRow("ipv4") << "10.96.0.1" << "443" << "https://10.96.0.1:443";
        QTest::newRow("name") << "kubernetes.default.svc" << "6443" << "https://kubernetes.default.svc:6443";
        QTest::newRow("ipv6") << "fd00:10:96::1" << "443" << "https://[fd00:10:96::1]:443";
    }
    void inCluster() {
        QFETCH(QString, host);
        QFETCH(QString, port);
        QFETCH(QString, server);
        EnvGuard h("KUBERNETES_SERVICE_HOST"), p("KUBERNETES_SERVICE_PORT");
        qputenv("KUBERNETES_SERVICE_HOST", host.toUtf8());
        qputenv("KUBERNETES_SERVICE_PORT", port.toUtf8());
        QTemporaryDir dir;
        const std::string token = writeFile(dir, "token", "sa-token\n");
        const std::string ca = writeFile(dir, "ca.crt", kCaPem);
        writeFile(dir, "namespace", "team-a\n");
        const Result<KubeConnection> c = inClusterConnection(dir.path().toStdString());
        QVERIFY2(c, why(c));
        QCOMPARE(q(c->contextName), u"in-cluster"_s);
        QCOMPARE(q(c->server), server);
        QVERIFY(c->secure());
        QCOMPARE(q(c->token), u"sa-token"_s);
        QCOMPARE(q(c->tokenFile), q(token));
        QCOMPARE(q(c->tls.caFile), q(ca));
        QVERIFY(!c->tls.insecureSkipVerify);
        QCOMPARE(q(c->nameSpace), u"team-a"_s);
        QVERIFY(!c->exec);
    }

    void inClusterWithoutNamespaceFile() {
        EnvGuard h("KUBERNETES_SERVICE_HOST"), p("KUBERNETES_SERVICE_PORT");
        qputenv("KUBERNETES_SERVICE_HOST", "10.0.0.1");
        qputenv("KUBERNETES_SERVICE_PORT", "443");
        QTemporaryDir dir;
        writeFile(dir, "token", "sa-token");
        writeFile(dir, "ca.crt", kCaPem);
        const Result<KubeConnection> c = inClusterConnection(dir.path().toStdString());
        QVERIFY2(c, why(c));
        QCOMPARE(q(c->token), u"sa-token"_s);
        QVERIFY2(c->nameSpace.empty() || c->nameSpace == "default", c->nameSpace.c_str());
    }

    void inClusterErrors_data() {
        QTest::addColumn<QString>("host"); // "-" = unset
        QTest::addColumn<QString>("port");
        QTest::addColumn<bool>("token");
        QTest::addColumn<bool>("ca");
        QTest::addColumn<QString>("expected");
        QTest::newRow("no host") << "-" << "443" << true << true << "KUBERNETES_SERVICE_HOST";
        QTest::newRow("no port") << "10.0.0.1" << "-" << true << true << "KUBERNETES_SERVICE_PORT";
        QTest::newRow("empty host") << "" << "443" << true << true << "KUBERNETES_SERVICE_HOST";
        QTest::newRow("neither") << "-" << "-" << true << true << "not running in a cluster";
        QTest::newRow("no token") << "10.0.0.1" << "443" << false << true << "token";
        QTest::newRow("no ca.crt") << "10.0.0.1" << "443" << true << false << "ca.crt";
    }
    void inClusterErrors() {
        QFETCH(QString, host);
        QFETCH(QString, port);
        QFETCH(bool, token);
        QFETCH(bool, ca);
        QFETCH(QString, expected);
        EnvGuard h("KUBERNETES_SERVICE_HOST"), p("KUBERNETES_SERVICE_PORT");
        if (host == u"-"_s)
            qunsetenv("KUBERNETES_SERVICE_HOST");
        else
            qputenv("KUBERNETES_SERVICE_HOST", host.toUtf8());
        if (port == u"-"_s)
            qunsetenv("KUBERNETES_SERVICE_PORT");
        else
            qputenv("KUBERNETES_SERVICE_PORT", port.toUtf8());
        QTemporaryDir dir;
        if (token) writeFile(dir, "token", "sa-token\n");
        if (ca) writeFile(dir, "ca.crt", kCaPem);
        writeFile(dir, "namespace", "ns\n");
        const Result<KubeConnection> c = inClusterConnection(dir.path().toStdString());
        QVERIFY2(!c, "expected an error");
        QVERIFY2(q(c.error().message).contains(expected), why(c));
    }

    // ---- base64 -------------------------------------------------------------------------------

    void base64_data() {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QByteArray>("encoded");
        // RFC 4648 section 10.
        QTest::newRow("empty") << QByteArray() << QByteArray();
        QTest::newRow("f") << QByteArray("f") << QByteArray("Zg==");
        QTest::newRow("fo") << QByteArray("fo") << QByteArray("Zm8=");
        QTest::newRow("foo") << QByteArray("foo") << QByteArray("Zm9v");
        QTest::newRow("foob") << QByteArray("foob") << QByteArray("Zm9vYg==");
        QTest::newRow("fooba") << QByteArray("fooba") << QByteArray("Zm9vYmE=");
        QTest::newRow("foobar") << QByteArray("foobar") << QByteArray("Zm9vYmFy");
        QTest::newRow("high bytes") << QByteArray("\xff\xfe\xfd\x00\x01", 5) << QByteArray("//79AAE=");
        QByteArray all;
        for (int i = 0; i < 256; ++i) all.append(char(i));
        QTest::newRow("every byte") << all << all.toBase64();
    }
    void base64() {
        QFETCH(QByteArray, bytes);
        QFETCH(QByteArray, encoded);
        const std::string text = encodeBase64(bytes.toStdString());
        QCOMPARE(QByteArray::fromStdString(text), encoded);
        const Result<std::string> decoded = decodeBase64(text);
        QVERIFY2(decoded, why(decoded));
        QCOMPARE(QByteArray::fromStdString(*decoded), bytes);
    }

    void base64DecodesWrappedLines() {
        const Result<std::string> decoded = decodeBase64("Zm9v\nYmFy\r\nYg==\n");
        QVERIFY2(decoded, why(decoded));
        QCOMPARE(q(*decoded), u"foobarb"_s);
    }

    void base64Errors_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("offset"); // -1: any offset
        QTest::newRow("bad character") << "Zm9v!mFy" << 4;
        QTest::newRow("url alphabet") << "Zm9vYmF-" << 7;
        QTest::newRow("space inside") << "Zm 9v" << 2;
        QTest::newRow("data after padding") << "Zg==Zg==" << 4;
        QTest::newRow("single padding where two are needed") << "Zg=" << 3;
        QTest::newRow("missing padding") << "Zm9vYg" << -1;
        QTest::newRow("one symbol") << "Z" << -1;
        QTest::newRow("only padding") << "====" << -1;
    }
    void base64Errors() {
        QFETCH(QString, text);
        QFETCH(int, offset);
        const Result<std::string> decoded = decodeBase64(text.toStdString());
        QVERIFY2(!decoded, "expected an error");
        const QString message = q(decoded.error().message);
        if (offset >= 0)
            QCOMPARE(message, u"illegal base64 data at input byte "_s + QString::number(offset));
        else
            QVERIFY2(message.startsWith(u"illegal base64 data at input byte "_s), qPrintable(message));
    }
};

TOPODECK_TEST_GUILESS_MAIN(KubeconfigTest)
#include "test_kubeconfig.moc"
