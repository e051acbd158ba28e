#include "kube_test_cluster.h"

#include "core/text/json_text.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>

#include <spdlog/cfg/env.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <fstream>
#include <mutex>
#include <thread>

using namespace topodeck;

namespace {

// openAPIV3Schema per CRD (plural.group), from the real CRDs' validation markers.
constexpr const char* kTopologyLevels =
    "{\"type\":\"array\",\"minItems\":1,\"maxItems\":16,\"x-kubernetes-list-type\":\"atomic\",\"items\":{\"type\":\"object\","
    "\"required\":[\"nodeLabel\"],\"properties\":{\"nodeLabel\":{\"type\":\"string\",\"minLength\":1,\"maxLength\":316,"
    "\"pattern\":\"^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])$\"}}}}";
constexpr const char* kStringMap = "{\"type\":\"object\",\"additionalProperties\":{\"type\":\"string\"}}";

std::string objectSchema(const std::string& spec, const std::string& status = {}) {
    return "{\"type\":\"object\",\"properties\":{\"apiVersion\":{\"type\":\"string\"},\"kind\":{\"type\":\"string\"},"
           "\"metadata\":{\"type\":\"object\"},\"spec\":" + spec + (status.empty() ? "" : ",\"status\":" + status) + "}}";
}

std::string crdSchema(const std::string& name) {
    if (name == "topologies.kueue.x-k8s.io")
        return objectSchema("{\"type\":\"object\",\"required\":[\"levels\"],\"properties\":{\"levels\":" + std::string(kTopologyLevels) + "}}");
    if (name == "topologies.kai.scheduler")
        return objectSchema("{\"type\":\"object\",\"required\":[\"levels\"],\"properties\":{\"levels\":" + std::string(kTopologyLevels) + "}}");
    if (name == "resourceflavors.kueue.x-k8s.io") {
        const std::string effect = "{\"type\":\"string\",\"enum\":[\"NoSchedule\",\"PreferNoSchedule\",\"NoExecute\"]}";
        return objectSchema(
            "{\"type\":\"object\",\"properties\":{\"nodeLabels\":{\"type\":\"object\",\"maxProperties\":8,"
            "\"additionalProperties\":{\"type\":\"string\"}},"
            "\"nodeTaints\":{\"type\":\"array\",\"maxItems\":8,\"items\":{\"type\":\"object\",\"required\":[\"key\",\"effect\"],"
            "\"properties\":{\"key\":{\"type\":\"string\"},\"value\":{\"type\":\"string\"},\"effect\":" + effect +
            ",\"timeAdded\":{\"type\":\"string\",\"format\":\"date-time\"}}}},"
            "\"tolerations\":{\"type\":\"array\",\"maxItems\":8,\"items\":{\"type\":\"object\",\"properties\":{"
            "\"key\":{\"type\":\"string\"},\"operator\":{\"type\":\"string\",\"enum\":[\"Equal\",\"Exists\"]},"
            "\"value\":{\"type\":\"string\"},\"effect\":" + effect + ",\"tolerationSeconds\":{\"type\":\"integer\",\"format\":\"int64\"}}}},"
            "\"topologyName\":{\"type\":\"string\",\"maxLength\":253,"
            "\"pattern\":\"^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$\"}}}");
    }
    if (name == "hypernodes.topology.volcano.sh") {
        const std::string labelMatch =
            "{\"type\":\"object\",\"properties\":{\"matchLabels\":" + std::string(kStringMap) +
            ",\"matchExpressions\":{\"type\":\"array\",\"items\":{\"type\":\"object\",\"required\":[\"key\",\"operator\"],"
            "\"properties\":{\"key\":{\"type\":\"string\"},\"operator\":{\"type\":\"string\"},"
            "\"values\":{\"type\":\"array\",\"items\":{\"type\":\"string\"}}}}}}}";
        const std::string selector =
            "{\"type\":\"object\",\"properties\":{\"exactMatch\":{\"type\":\"object\",\"properties\":{\"name\":{\"type\":\"string\"}}},"
            "\"regexMatch\":{\"type\":\"object\",\"properties\":{\"pattern\":{\"type\":\"string\"}}},\"labelMatch\":" + labelMatch + "}}";
        return objectSchema(
            "{\"type\":\"object\",\"required\":[\"tier\"],\"properties\":{\"tier\":{\"type\":\"integer\",\"minimum\":0},"
            "\"tierName\":{\"type\":\"string\"},\"members\":{\"type\":\"array\",\"items\":{\"type\":\"object\",\"required\":[\"type\"],"
            "\"properties\":{\"type\":{\"type\":\"string\",\"enum\":[\"Node\",\"HyperNode\"]},\"selector\":" + selector + "}}}}}",
            "{\"type\":\"object\",\"properties\":{\"nodeCount\":{\"type\":\"integer\",\"minimum\":0},"
            "\"conditions\":{\"type\":\"array\",\"items\":{\"type\":\"object\",\"x-kubernetes-preserve-unknown-fields\":true}}}}");
    }
    return "{\"type\":\"object\",\"x-kubernetes-preserve-unknown-fields\":true}";
}

QString run(const QString& program, const QStringList& args, int timeoutMs, int& exitCode) {
    QProcess process;
    process.setProcessChannelMode(QProcess::MergedChannels);
    process.start(program, args);
    if (!process.waitForStarted(10000)) {
        exitCode = -1;
        return QStringLiteral("cannot start ") + program;
    }
    if (!process.waitForFinished(timeoutMs)) {
        process.kill();
        process.waitForFinished();
        exitCode = -1;
        return QStringLiteral("timed out: ") + program + QLatin1Char(' ') + args.join(QLatin1Char(' '));
    }
    exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    return QString::fromUtf8(process.readAll()).trimmed();
}

} // namespace

bool kubeTestsRequired() {
    return qEnvironmentVariable("TOPODECK_REQUIRE_KUBE") == QStringLiteral("1");
}

std::unique_ptr<KubeTestCluster> KubeTestCluster::start(QString& why) {
    // The sources report every reconnect at info; tests provoke hundreds. SPDLOG_LEVEL=info shows them.
    spdlog::set_default_logger(spdlog::stderr_color_mt("test"));
    spdlog::set_level(spdlog::level::warn);
    spdlog::cfg::load_env_levels();
    for (const char* tool : {"etcd", "openssl", "curl", "etcdctl"}) {
        if (QStandardPaths::findExecutable(QString::fromLatin1(tool)).isEmpty()) {
            why = QStringLiteral("%1 is not installed (installer/install-deps.sh --tests installs it)").arg(QLatin1String(tool));
            return nullptr;
        }
    }
    std::unique_ptr<KubeTestCluster> cluster(new KubeTestCluster);
    cluster->m_fixture = QStringLiteral(TOPODECK_KUBE_FIXTURE);
    const QString port = qEnvironmentVariableIsSet("TOPODECK_KUBE_PORT") ? qEnvironmentVariable("TOPODECK_KUBE_PORT")
                                                                         : QStringLiteral("16443");
    int exitCode = 0;
    // Building the server (the first time on a machine) takes minutes; starting it, seconds.
    const QString output =
        run(cluster->m_fixture,
            {QStringLiteral("-P"), port, QStringLiteral("-o"), QString::number(QCoreApplication::applicationPid()),
             QStringLiteral("up")},
            15 * 60 * 1000, exitCode);
    if (exitCode != 0) {
        why = QStringLiteral("kube-fixture.sh up failed:\n") + output;
        return nullptr;
    }
    // From here on the destructor takes the server down, whatever goes wrong.
    cluster->m_directory = output.split(QLatin1Char('\n')).last().trimmed();
    QFile env(cluster->m_directory + QStringLiteral("/env"));
    if (!env.open(QIODevice::ReadOnly)) {
        why = QStringLiteral("no env file in ") + cluster->m_directory;
        return nullptr;
    }
    for (const QByteArray& line : env.readAll().split('\n')) {
        const QByteArray text = line.trimmed();
        // export TOPODECK_KUBE_SERVER=... -> SERVER; export TOPODECK_KUBECONFIG=... -> KUBECONFIG
        if (!text.startsWith("export TOPODECK_KUBE")) continue;
        const qsizetype eq = text.indexOf('=');
        QByteArray key = text.mid(16, eq - 16);
        if (key.startsWith("KUBE_")) key.remove(0, 5);
        cluster->m_env[key.toStdString()] = text.mid(eq + 1).toStdString();
    }
    HttpClientOptions options;
    options.tls.caFile = cluster->value("CA");
    options.bearerToken = cluster->value("ADMIN_TOKEN");
    cluster->m_http = std::make_unique<HttpClient>(options);
    return cluster;
}

KubeTestCluster::~KubeTestCluster() {
    if (m_directory.isEmpty()) return; // `up` failed: nothing was started (and QDir("") is the working directory)
    int exitCode = 0;
    run(m_fixture, {QStringLiteral("-d"), m_directory, QStringLiteral("down")}, 60000, exitCode);
    if (m_directory.startsWith(QStringLiteral("/tmp/topodeck-kube."))) QDir(m_directory).removeRecursively();
}

std::string KubeTestCluster::value(const std::string& name) const {
    const auto it = m_env.find(name);
    return it == m_env.end() ? std::string() : it->second;
}

int KubeTestCluster::port() const {
    const std::string server = value("SERVER");
    return std::stoi(server.substr(server.rfind(':') + 1));
}

Result<HttpResponse> KubeTestCluster::call(const std::string& method, const std::string& path, const std::string& body,
                                           const std::string& contentType) {
    HttpRequest request;
    request.method = method;
    request.url = value("SERVER") + path;
    request.body = body;
    if (!body.empty()) request.headers.emplace_back("Content-Type", contentType);
    return m_http->send(request);
}

Status KubeTestCluster::expect(const std::string& method, const std::string& path, const std::string& body,
                               const std::string& contentType) {
    Result<HttpResponse> response = call(method, path, body, contentType);
    if (!response) return Error{method + ' ' + path + ": " + response.error().message};
    if (response->status < 200 || response->status > 299)
        return Error{method + ' ' + path + ": " + std::to_string(response->status) + ' ' + response->body.substr(0, 400)};
    return {};
}

Status KubeTestCluster::installCrd(const std::string& group, const std::string& plural, const std::string& kind,
                                   const std::vector<std::string>& versions) {
    std::string body =
        R"({"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":")" + plural +
        '.' + group + R"("},"spec":{"group":")" + group + R"(","scope":"Cluster","names":{"plural":")" +
        plural + R"(","singular":")" + plural.substr(0, plural.size() - 1) + R"(","kind":")" + kind +
        R"(","listKind":")" + kind + R"(List"},"versions":[)";
    for (std::size_t i = 0; i < versions.size(); ++i) {
        if (i > 0) body += ',';
        body += R"({"name":")" + versions[i] + R"(","served":true,"storage":)" + (i == 0 ? "true" : "false") +
                R"(,"schema":{"openAPIV3Schema":)" +
                crdSchema(plural + '.' + group) + "}}";
    }
    body += "]}}";
    if (Status s = expect("POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", body); !s) return s;
    for (int attempt = 0; attempt < 100; ++attempt) {
        Result<HttpResponse> list = call("GET", "/apis/" + group + '/' + versions.front() + '/' + plural);
        if (list && list->status == 200) return {};
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return Error{"CRD " + plural + '.' + group + " is not served after 10 s"};
}

Status KubeTestCluster::installCrdFile(const std::string& path, const std::vector<std::string>& versions) {
    QFile file(QString::fromStdString(path));
    if (!file.open(QIODevice::ReadOnly)) return Error{"cannot read " + path};
    const std::string text = file.readAll().toStdString();
    // The server reads the YAML (a dry run creates nothing) and answers the CRD as JSON.
    const std::string collection = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
    Result<HttpResponse> read = call("POST", collection + "?dryRun=All", text, "application/yaml");
    if (!read) return Error{path + ": " + read.error().message};
    if (read->status != 201) return Error{path + ": " + std::to_string(read->status) + ' ' + read->body.substr(0, 600)};
    const QJsonObject answer = QJsonDocument::fromJson(QByteArray::fromStdString(read->body)).object();
    QJsonObject spec = answer[QLatin1String("spec")].toObject();
    QJsonArray served = spec[QLatin1String("versions")].toArray();
    if (!versions.empty()) {
        QJsonArray kept;
        for (const std::string& name : versions) {
            bool found = false;
            for (const QJsonValue version : served) {
                if (version[QLatin1String("name")].toString().toStdString() != name) continue;
                QJsonObject copy = version.toObject();
                copy[QLatin1String("storage")] = kept.isEmpty();
                kept.append(copy);
                found = true;
            }
            if (!found) return Error{path + ": no version " + name};
        }
        served = kept;
        spec[QLatin1String("versions")] = served;
    }
    // Only what a client sends: the name and annotations, no uid, timestamps or status.
    const QJsonObject readMetadata = answer[QLatin1String("metadata")].toObject();
    QJsonObject metadata{{QStringLiteral("name"), readMetadata[QLatin1String("name")]}};
    if (readMetadata.contains(QLatin1String("annotations")))
        metadata[QLatin1String("annotations")] = readMetadata[QLatin1String("annotations")];
    const QJsonObject sent{{QStringLiteral("apiVersion"), answer[QLatin1String("apiVersion")]},
                           {QStringLiteral("kind"), answer[QLatin1String("kind")]},
                           {QStringLiteral("metadata"), metadata},
                           {QStringLiteral("spec"), spec}};
    if (Status s = expect("POST", collection, QJsonDocument(sent).toJson(QJsonDocument::Compact).toStdString()); !s) return s;
    const std::string group = spec[QLatin1String("group")].toString().toStdString();
    const std::string plural = spec[QLatin1String("names")].toObject()[QLatin1String("plural")].toString().toStdString();
    const std::string version = served.first()[QLatin1String("name")].toString().toStdString();
    for (int attempt = 0; attempt < 100; ++attempt) {
        Result<HttpResponse> list = call("GET", "/apis/" + group + '/' + version + '/' + plural);
        if (list && list->status == 200) return {};
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return Error{"CRD " + plural + '.' + group + " is not served after 10 s"};
}

Status KubeTestCluster::removeCrd(const std::string& group, const std::string& plural) {
    const std::string path = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/" + plural + '.' + group;
    if (Status s = expect("DELETE", path); !s) return s;
    // The server deletes the objects first, then the CRD.
    for (int attempt = 0; attempt < 300; ++attempt) {
        Result<HttpResponse> crd = call("GET", path);
        if (crd && crd->status == 404) return {};
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return Error{"CRD " + plural + '.' + group + " is still there 30 s after its deletion"};
}

Status KubeTestCluster::compact() {
    const QString endpoint = QString::fromStdString(value("ETCD"));
    int exitCode = 0;
    QProcess status;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("ETCDCTL_API"), QStringLiteral("3"));
    status.setProcessEnvironment(env);
    status.start(QStringLiteral("etcdctl"), {QStringLiteral("--endpoints"), endpoint, QStringLiteral("endpoint"),
                                             QStringLiteral("status"), QStringLiteral("-w"), QStringLiteral("fields")});
    status.waitForFinished(30000);
    const QString fields = QString::fromUtf8(status.readAllStandardOutput());
    // "Revision" : 1234
    const qsizetype at = fields.indexOf(QStringLiteral("\"Revision\""));
    if (at < 0) return Error{"etcdctl endpoint status: no revision in: " + fields.toStdString()};
    const QString revision = fields.mid(at).section(QLatin1Char(':'), 1, 1).section(QLatin1Char('\n'), 0, 0).trimmed();
    QProcess compact;
    compact.setProcessEnvironment(env);
    compact.setProcessChannelMode(QProcess::MergedChannels);
    compact.start(QStringLiteral("etcdctl"), {QStringLiteral("--endpoints"), endpoint, QStringLiteral("compact"), revision});
    compact.waitForFinished(30000);
    exitCode = compact.exitCode();
    if (exitCode != 0) return Error{"etcdctl compact " + revision.toStdString() + ": " + compact.readAll().toStdString()};
    return {};
}

Status KubeTestCluster::sendMany(const std::string& method,
                                 const std::vector<std::pair<std::string, std::string>>& pathsAndBodies, int threads) {
    std::mutex mutex;
    std::size_t next = 0;
    std::string failure;
    std::vector<std::thread> workers;
    for (int t = 0; t < threads; ++t) {
        workers.emplace_back([&] {
            HttpClientOptions options;
            options.tls.caFile = value("CA");
            options.bearerToken = value("ADMIN_TOKEN");
            HttpClient http(options);
            while (true) {
                std::size_t index;
                {
                    std::lock_guard lock(mutex);
                    if (next >= pathsAndBodies.size() || !failure.empty()) return;
                    index = next++;
                }
                HttpRequest request;
                request.method = method;
                request.url = value("SERVER") + pathsAndBodies[index].first;
                request.body = pathsAndBodies[index].second;
                if (!request.body.empty()) request.headers.emplace_back("Content-Type", "application/json");
                Result<HttpResponse> response = http.send(request);
                const bool done = response && ((response->status >= 200 && response->status <= 299) ||
                                               (method == "POST" && response->status == 409) ||
                                               (method == "DELETE" && response->status == 404));
                if (!done) {
                    std::lock_guard lock(mutex);
                    failure = method + ' ' + pathsAndBodies[index].first + ": " +
                              (response ? std::to_string(response->status) + ' ' + response->body.substr(0, 300)
                                        : response.error().message);
                    return;
                }
            }
        });
    }
    for (std::thread& worker : workers) worker.join();
    if (!failure.empty()) return Error{failure};
    return {};
}

std::string KubeTestCluster::writeKubeconfig(const std::string& directory, const std::string& name,
                                             const std::string& user, const std::string& server) const {
    const std::string path = directory + "/kubeconfig-" + name;
    std::string token = user == "viewer" ? value("VIEWER_TOKEN") : user == "nobody" ? value("NOBODY_TOKEN") : value("ADMIN_TOKEN");
    std::ofstream out(path);
    out << "apiVersion: v1\nkind: Config\ncurrent-context: " << name << "\nclusters:\n- name: c\n  cluster:\n"
        << "    server: " << (server.empty() ? value("SERVER") : server) << "\n    certificate-authority: " << value("CA")
        << "\ncontexts:\n- name: " << name << "\n  context: {cluster: c, user: u}\nusers:\n- name: u\n  user:\n"
        << "    token: " << token << "\n";
    return path;
}

std::string nodeJson(const std::string& name, const std::map<std::string, std::string>& labels, int gpus, bool ready,
                     bool unschedulable) {
    std::string out = R"({"apiVersion":"v1","kind":"Node","metadata":{"name":)";
    appendJsonString(out, name);
    out += R"(,"labels":{)";
    bool first = true;
    for (const auto& [key, value] : labels) {
        if (!first) out += ',';
        first = false;
        appendJsonString(out, key);
        out += ':';
        appendJsonString(out, value);
    }
    out += "}},\"spec\":{";
    if (unschedulable) out += R"("unschedulable":true)";
    out += R"(},"status":{"capacity":{"cpu":"128","memory":"2Ti","pods":"110","nvidia.com/gpu":")" +
           std::to_string(gpus) + R"("},"allocatable":{"cpu":"128","memory":"2Ti","pods":"110","nvidia.com/gpu":")" +
           std::to_string(gpus) + R"("},"conditions":[{"type":"Ready","status":")" + (ready ? "True" : "False") +
           R"("}]}})";
    return out;
}

std::string podJson(const std::string& nameSpace, const std::string& name, const std::string& nodeName, int gpus,
                    const std::string& jobName) {
    std::string out = R"({"apiVersion":"v1","kind":"Pod","metadata":{"namespace":)";
    appendJsonString(out, nameSpace);
    out += R"(,"name":)";
    appendJsonString(out, name);
    if (!jobName.empty()) {
        out += R"(,"labels":{"batch.kubernetes.io/job-name":)";
        appendJsonString(out, jobName);
        out += '}';
    }
    out += R"(},"spec":{"nodeName":)";
    appendJsonString(out, nodeName);
    out += R"(,"containers":[{"name":"train","image":"example.com/train:1","resources":{"requests":{"cpu":"8",)"
           R"("nvidia.com/gpu":")" +
           std::to_string(gpus) + R"("},"limits":{"nvidia.com/gpu":")" + std::to_string(gpus) + R"("}}}]}})";
    return out;
}
