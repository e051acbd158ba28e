#include "net/kubeconfig.h"

#include "core/formats/yaml_document.h"
#include "core/text/base64.h"
#include "core/text/json_writer.h"
#include "core/text/text_file.h"
#include "core/text/text_format.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <regex>
#include <sstream>

namespace topodeck {

namespace {

namespace fs = std::filesystem;

constexpr std::string_view kExecExtension = "client.authentication.k8s.io/exec";
constexpr std::string_view kExecV1 = "client.authentication.k8s.io/v1";
constexpr std::string_view kExecV1beta1 = "client.authentication.k8s.io/v1beta1";

std::string at(const std::string& path, const YAML::Node& node) {
    const YAML::Mark mark = node.Mark();
    if (mark.is_null()) return path;
    return path + ':' + std::to_string(mark.line + 1) + ':' + std::to_string(mark.column + 1);
}

// Reads the fields of one kubeconfig file, each error naming file, line and field.
class FileReader {
public:
    explicit FileReader(const std::string& path) : m_path(path) {}

    Error error(const YAML::Node& node, const std::string& field, std::string_view problem) const {
        return Error{at(m_path, node) + ": " + field + ": " + std::string(problem)};
    }

    Status string(const YAML::Node& map, const char* key, const std::string& field, std::string& out) const {
        const YAML::Node value = map[key];
        if (!value || value.IsNull()) return {};
        if (!value.IsScalar()) return error(value, field + '.' + key, "expected a string");
        out = value.Scalar();
        return {};
    }

    Status boolean(const YAML::Node& map, const char* key, const std::string& field, bool& out) const {
        const YAML::Node value = map[key];
        if (!value || value.IsNull()) return {};
        if (!value.IsScalar() || !YAML::convert<bool>::decode(value, out))
            return error(value, field + '.' + key, "expected true or false");
        return {};
    }

    Status data(const YAML::Node& map, const char* key, const std::string& field, std::string& out) const {
        std::string text;
        if (Status s = string(map, key, field, text); !s || text.empty()) return s;
        Result<std::string> decoded = decodeBase64(text);
        if (!decoded) return error(map[key], field + '.' + key, decoded.error().message);
        out = std::move(*decoded);
        return {};
    }

    Status strings(const YAML::Node& map, const char* key, const std::string& field, std::vector<std::string>& out) const {
        const YAML::Node value = map[key];
        if (!value || value.IsNull()) return {};
        if (!value.IsSequence()) return error(value, field + '.' + key, "expected a list of strings");
        for (const YAML::Node& item : value) {
            if (!item.IsScalar()) return error(item, field + '.' + key, "expected a list of strings");
            out.push_back(item.Scalar());
        }
        return {};
    }

    // A file reference, made absolute against the kubeconfig's directory as kubectl does.
    Status path(const YAML::Node& map, const char* key, const std::string& field, std::string& out) const {
        if (Status s = string(map, key, field, out); !s) return s;
        out = resolve(out);
        return {};
    }

    std::string resolve(const std::string& file) const {
        if (file.empty() || fs::path(file).is_absolute()) return file;
        std::error_code ec;
        const fs::path base = fs::absolute(fs::path(m_path), ec).parent_path();
        return (base / file).lexically_normal().string();
    }

    const std::string& file() const { return m_path; }

private:
    const std::string& m_path;
};

// A plain YAML 1.2 (core schema) number as a JSON number, or nullopt when the text is not one:
// 7, -7, +7, 0x1F, 0o17, 1.5, .5, 1e3 (but not inf or nan, which JSON lacks, nor the words).
std::optional<std::string> yamlNumberAsJson(const std::string& text) {
    static const std::regex integer("[-+]?[0-9]+");
    static const std::regex hexOrOctal("0x[0-9a-fA-F]+|0o[0-7]+");
    static const std::regex decimal("[-+]?(\\.[0-9]+|[0-9]+(\\.[0-9]*)?)([eE][-+]?[0-9]+)?");
    if (std::regex_match(text, integer)) {
        std::size_t start = text[0] == '+' || text[0] == '-' ? 1 : 0;
        while (start + 1 < text.size() && text[start] == '0') ++start; // JSON has no leading zeros
        return (text[0] == '-' ? "-" : "") + text.substr(start);
    }
    if (std::regex_match(text, hexOrOctal)) {
        const unsigned long long value = std::stoull(text.substr(2), nullptr, text[1] == 'x' ? 16 : 8);
        return std::to_string(value);
    }
    if (std::regex_match(text, decimal)) {
        char buffer[64];
        std::snprintf(buffer, sizeof buffer, "%.17g", std::strtod(text.c_str(), nullptr));
        return std::string(buffer);
    }
    return std::nullopt;
}

// YAML back to JSON, for an extension handed to an exec plugin as it was written.
void writeJson(JsonWriter& json, const YAML::Node& node) {
    switch (node.Type()) {
    case YAML::NodeType::Map:
        json.beginObject();
        for (const auto& entry : node) writeJson(json.key(entry.first.Scalar()), entry.second); // JSON keys are strings
        json.endObject();
        return;
    case YAML::NodeType::Sequence:
        json.beginArray();
        for (std::size_t i = 0; i < node.size(); ++i) writeJson(json, node[i]);
        json.endArray();
        return;
    case YAML::NodeType::Scalar: {
        const std::string& text = node.Scalar();
        bool flag = false;
        // A quoted scalar is a string whatever it looks like.
        const bool plain = node.Tag() == "?";
        if (plain && (text == "null" || text == "~")) {
            json.null();
            return;
        }
        if (plain) {
            if (const std::optional<std::string> number = yamlNumberAsJson(text)) {
                json.raw(*number);
                return;
            }
        }
        if (plain && YAML::convert<bool>::decode(node, flag)) {
            json.value(flag);
            return;
        }
        json.value(text);
        return;
    }
    default:
        json.null();
    }
}

// The named entries of clusters/users/contexts: [{name: N, <key>: {...}}].
template <class F>
Status forEachNamed(const FileReader& reader, const YAML::Node& root, const char* list, const char* key, F&& read) {
    const YAML::Node entries = root[list];
    if (!entries || entries.IsNull()) return {};
    if (!entries.IsSequence()) return reader.error(entries, list, "expected a list");
    std::vector<std::string> seen;
    for (std::size_t i = 0; i < entries.size(); ++i) {
        const YAML::Node entry = entries[i];
        const std::string field = std::string(list) + '[' + std::to_string(i) + ']';
        if (!entry.IsMap()) return reader.error(entry, field, "expected a map with name and " + std::string(key));
        std::string name;
        if (Status s = reader.string(entry, "name", field, name); !s) return s;
        if (name.empty()) return reader.error(entry, field + ".name", "is missing");
        const std::string named = std::string(list) + '[' + inQuotes(name) + ']';
        const YAML::Node body = entry[key];
        if (body && !body.IsNull() && !body.IsMap()) return reader.error(body, named + '.' + key, "expected a map");
        // client-go refuses such a file rather than guess which one is meant.
        if (std::find(seen.begin(), seen.end(), name) != seen.end())
            return reader.error(entry, field + ".name", "duplicate name " + inQuotes(name) + " in " + list);
        seen.push_back(name);
        if (Status s = read(name, body ? body : YAML::Node(YAML::NodeType::Map), named + '.' + key); !s) return s;
    }
    return {};
}

Status readExec(const FileReader& r, const YAML::Node& node, const std::string& field, KubeExecConfig& exec) {
    if (Status s = r.string(node, "command", field, exec.command); !s) return s;
    // Only a command with a path is relative to the kubeconfig; a bare name is looked up in PATH.
    if (exec.command.find('/') != std::string::npos) exec.command = r.resolve(exec.command);
    if (Status s = r.strings(node, "args", field, exec.args); !s) return s;
    if (Status s = r.string(node, "apiVersion", field, exec.apiVersion); !s) return s;
    if (Status s = r.string(node, "interactiveMode", field, exec.interactiveMode); !s) return s;
    if (Status s = r.string(node, "installHint", field, exec.installHint); !s) return s;
    if (Status s = r.boolean(node, "provideClusterInfo", field, exec.provideClusterInfo); !s) return s;
    const YAML::Node env = node["env"];
    if (env && !env.IsNull()) {
        if (!env.IsSequence()) return r.error(env, field + ".env", "expected a list of {name, value}");
        for (std::size_t i = 0; i < env.size(); ++i) {
            const std::string entryField = field + ".env[" + std::to_string(i) + ']';
            if (!env[i].IsMap()) return r.error(env[i], entryField, "expected {name, value}");
            std::string name, value;
            if (Status s = r.string(env[i], "name", entryField, name); !s) return s;
            if (Status s = r.string(env[i], "value", entryField, value); !s) return s;
            exec.env.emplace_back(std::move(name), std::move(value));
        }
    }
    return {};
}

Status readUser(const FileReader& r, const YAML::Node& node, const std::string& field, KubeconfigUser& user) {
    if (Status s = r.string(node, "token", field, user.token); !s) return s;
    if (Status s = r.path(node, "tokenFile", field, user.tokenFile); !s) return s;
    if (Status s = r.path(node, "client-certificate", field, user.clientCertificate); !s) return s;
    if (Status s = r.data(node, "client-certificate-data", field, user.clientCertificateData); !s) return s;
    if (Status s = r.path(node, "client-key", field, user.clientKey); !s) return s;
    if (Status s = r.data(node, "client-key-data", field, user.clientKeyData); !s) return s;
    if (Status s = r.string(node, "username", field, user.username); !s) return s;
    if (Status s = r.string(node, "password", field, user.password); !s) return s;
    if (Status s = r.string(node, "as", field, user.impersonate); !s) return s;
    if (Status s = r.strings(node, "as-groups", field, user.impersonateGroups); !s) return s;
    if (const YAML::Node provider = node["auth-provider"]; provider && !provider.IsNull()) {
        if (!provider.IsMap()) return r.error(provider, field + ".auth-provider", "expected a map");
        if (Status s = r.string(provider, "name", field + ".auth-provider", user.authProvider); !s) return s;
        if (user.authProvider.empty()) user.authProvider = "(unnamed)";
    }
    if (const YAML::Node exec = node["exec"]; exec && !exec.IsNull()) {
        if (!exec.IsMap()) return r.error(exec, field + ".exec", "expected a map");
        user.exec.emplace();
        if (Status s = readExec(r, exec, field + ".exec", *user.exec); !s) return s;
    }
    return {};
}

Status readCluster(const FileReader& r, const YAML::Node& node, const std::string& field, KubeconfigCluster& cluster) {
    if (Status s = r.string(node, "server", field, cluster.server); !s) return s;
    if (Status s = r.path(node, "certificate-authority", field, cluster.certificateAuthority); !s) return s;
    if (Status s = r.data(node, "certificate-authority-data", field, cluster.certificateAuthorityData); !s) return s;
    if (Status s = r.boolean(node, "insecure-skip-tls-verify", field, cluster.insecureSkipTlsVerify); !s) return s;
    if (Status s = r.string(node, "tls-server-name", field, cluster.tlsServerName); !s) return s;
    if (Status s = r.string(node, "proxy-url", field, cluster.proxyUrl); !s) return s;
    const YAML::Node extensions = node["extensions"];
    if (extensions && extensions.IsSequence()) {
        for (const YAML::Node& extension : extensions) {
            if (extension.IsMap() && extension["name"] && extension["name"].IsScalar() &&
                extension["name"].Scalar() == kExecExtension && extension["extension"]) {
                JsonWriter json(cluster.execExtension);
                writeJson(json, extension["extension"]);
            }
        }
    }
    return {};
}

// scheme://host[:port][/path] with an http or https scheme.
bool validServer(std::string_view server) {
    const auto scheme = server.find("://");
    if (scheme == std::string_view::npos) return false;
    std::string name(server.substr(0, scheme));
    std::transform(name.begin(), name.end(), name.begin(), [](unsigned char ch) { return char(std::tolower(ch)); });
    if (name != "https" && name != "http") return false;
    const std::string_view rest = server.substr(scheme + 3);
    return !rest.empty() && rest.front() != '/';
}

// spec.cluster of an ExecCredential (client.authentication.k8s.io Cluster).
std::string execClusterInfo(const KubeconfigCluster& cluster, const KubeConnection& connection) {
    std::string out;
    JsonWriter json(out);
    json.beginObject().field("server", connection.server);
    if (!cluster.tlsServerName.empty()) json.field("tls-server-name", cluster.tlsServerName);
    if (cluster.insecureSkipTlsVerify) json.field("insecure-skip-tls-verify", true);
    std::string ca = cluster.certificateAuthorityData;
    if (ca.empty() && !cluster.certificateAuthority.empty()) {
        Result<std::string> file = readTextFile(cluster.certificateAuthority);
        if (file) ca = std::move(*file);
    }
    if (!ca.empty()) json.field("certificate-authority-data", encodeBase64(ca));
    if (!cluster.proxyUrl.empty()) json.field("proxy-url", cluster.proxyUrl);
    if (!cluster.execExtension.empty()) json.key("config").raw(cluster.execExtension);
    json.endObject();
    return out;
}

// The context to resolve: the one named, else current-context; it must exist.
Result<std::string> chosenContextName(const Kubeconfig& config, std::string_view contextName) {
    const auto known = [&] {
        std::string names;
        for (const auto& [name, context] : config.contexts) names += (names.empty() ? "" : ", ") + name;
        return names.empty() ? std::string("none") : names;
    };
    std::string name(contextName.empty() ? std::string_view(config.currentContext) : contextName);
    if (config.files.empty() && contextName.empty())
        return Error{"no kubeconfig found (set KUBECONFIG or pass --kubeconfig)"};
    if (name.empty())
        return Error{"no context chosen: the kubeconfig sets no current-context; pass --context (known: " + known() +
                     ')'};
    if (!config.contexts.contains(name))
        return Error{"context " + inQuotes(name) + " not found (known: " + known() + ')'};
    return name;
}

// The cluster's server, proxy and TLS settings, checked. inCluster names it in errors.
Status applyCluster(KubeConnection& c, const KubeconfigCluster& cluster, const std::string& inCluster) {
    if (cluster.server.empty()) return Error{inCluster + ": server is not set"};
    if (!validServer(cluster.server))
        return Error{inCluster + ": server " + inQuotes(cluster.server) + " is not an http:// or https:// URL"};
    c.server = cluster.server;
    while (c.server.size() > 8 && c.server.back() == '/') c.server.pop_back();
    // Schemes are case-insensitive (HTTPS://...); the rest of topodeck compares them lower-cased.
    std::transform(c.server.begin(), c.server.begin() + static_cast<std::ptrdiff_t>(c.server.find("://")),
                   c.server.begin(), [](unsigned char ch) { return char(std::tolower(ch)); });
    if (!cluster.certificateAuthority.empty() && !cluster.certificateAuthorityData.empty())
        return Error{inCluster + ": certificate-authority and certificate-authority-data are both set; keep one"};
    if ((!cluster.certificateAuthority.empty() || !cluster.certificateAuthorityData.empty()) &&
        cluster.insecureSkipTlsVerify)
        return Error{inCluster + ": insecure-skip-tls-verify cannot be used with a certificate authority"};
    if (!cluster.certificateAuthority.empty()) {
        std::ifstream probe(cluster.certificateAuthority);
        if (!probe)
            return Error{inCluster + ": certificate-authority " + cluster.certificateAuthority + ": " +
                         std::strerror(errno)};
    }
    if (!cluster.proxyUrl.empty()) {
        const std::string_view proxy = cluster.proxyUrl;
        if (!(proxy.starts_with("http://") || proxy.starts_with("https://") || proxy.starts_with("socks5://")))
            return Error{inCluster + ": proxy-url " + inQuotes(proxy) + " must be an http, https or socks5 URL"};
        c.proxy = cluster.proxyUrl;
    }
    c.tls.caFile = cluster.certificateAuthority;
    c.tls.caData = cluster.certificateAuthorityData;
    c.tls.insecureSkipVerify = cluster.insecureSkipTlsVerify;
    c.tls.serverName = cluster.tlsServerName;
    return {};
}

// A client certificate, when there is one, needs its key, each given once, and the files must be
// readable.
Status checkClientCertificate(const KubeconfigUser& user, const std::string& inUser) {
    if (user.clientCertificate.empty() && user.clientCertificateData.empty()) return {};
    if (!user.clientCertificate.empty() && !user.clientCertificateData.empty())
        return Error{inUser + ": client-certificate and client-certificate-data are both set; keep one"};
    if (!user.clientKey.empty() && !user.clientKeyData.empty())
        return Error{inUser + ": client-key and client-key-data are both set; keep one"};
    if (user.clientKey.empty() && user.clientKeyData.empty())
        return Error{inUser + ": client-certificate needs client-key or client-key-data"};
    for (const std::string* file : {&user.clientCertificate, &user.clientKey}) {
        if (file->empty()) continue;
        std::ifstream probe(*file);
        if (!probe) return Error{inUser + ": cannot read " + *file + ": " + std::strerror(errno)};
    }
    return {};
}

// The user's credentials (all but exec), checked: one way of logging in, no legacy provider.
// inUser names the user in errors.
Status applyUser(KubeConnection& c, const KubeconfigUser& user, const std::string& inUser) {
    if (!user.authProvider.empty())
        return Error{inUser + ": auth-provider " + inQuotes(user.authProvider) +
                     " is not supported (kubectl dropped the built-in providers in 1.26); use the provider's exec "
                     "credential plugin, such as gke-gcloud-auth-plugin or kubelogin"};
    const bool basic = !user.username.empty() || !user.password.empty();
    if (!user.token.empty() && basic)
        return Error{inUser + ": more than one way to log in (token and username/password); keep one"};
    if (Status s = checkClientCertificate(user, inUser); !s) return s;
    c.tls.clientCertFile = user.clientCertificate;
    c.tls.clientCertData = user.clientCertificateData;
    c.tls.clientKeyFile = user.clientKey;
    c.tls.clientKeyData = user.clientKeyData;
    c.token = user.token;
    // With both, client-go sends the token first and the file's content once it re-reads it.
    c.tokenFile = user.tokenFile;
    if (user.token.empty() && !user.tokenFile.empty()) {
        Result<std::string> token = readTokenFile(user.tokenFile);
        if (!token) return Error{inUser + ": tokenFile: " + token.error().message};
        c.token = std::move(*token);
    }
    c.username = user.username;
    c.password = user.password;
    c.impersonate = user.impersonate;
    c.impersonateGroups = user.impersonateGroups;
    return {};
}

// The user's exec plugin, checked as client-go checks it, with interactiveMode's default filled in.
Result<KubeExecConfig> checkedExec(KubeExecConfig exec, const std::string& inUser) {
    const std::string inExec = inUser + ": exec";
    if (exec.command.empty()) return Error{inExec + ": command is not set"};
    if (exec.apiVersion.empty()) return Error{inExec + ": apiVersion is not set"};
    if (exec.apiVersion != kExecV1 && exec.apiVersion != kExecV1beta1)
        return Error{inExec + ": apiVersion " + inQuotes(exec.apiVersion) + " is not supported (use " +
                     std::string(kExecV1) + " or " + std::string(kExecV1beta1) + ")"};
    for (const auto& [envName, value] : exec.env)
        if (envName.empty()) return Error{inExec + ": an env entry has no name"};
    if (exec.interactiveMode.empty()) {
        // v1 made the field required; earlier versions default it.
        if (exec.apiVersion == kExecV1) return Error{inExec + ": interactiveMode must be set for " + exec.apiVersion};
        exec.interactiveMode = "IfAvailable";
    }
    if (exec.interactiveMode != "Never" && exec.interactiveMode != "IfAvailable" && exec.interactiveMode != "Always")
        return Error{inExec + ": interactiveMode " + inQuotes(exec.interactiveMode) +
                     " is not one of Never, IfAvailable, Always"};
    return exec;
}

} // namespace

std::vector<std::string> Kubeconfig::contextNames() const {
    std::vector<std::string> names;
    for (const auto& [name, context] : contexts) names.push_back(name);
    return names;
}

KubeconfigLocation KubeconfigLocation::fromEnvironment(std::string explicitPath) {
    KubeconfigLocation location;
    location.explicitPath = std::move(explicitPath);
    if (const char* env = std::getenv("KUBECONFIG")) location.environment = env;
    if (const char* home = std::getenv("HOME")) location.home = home;
    return location;
}

std::vector<std::string> KubeconfigLocation::files() const {
    if (!explicitPath.empty()) return {explicitPath};
    std::vector<std::string> out;
    if (!environment.empty()) {
        std::size_t start = 0;
        while (start <= environment.size()) {
            const std::size_t end = std::min(environment.find(':', start), environment.size());
            std::string file = environment.substr(start, end - start);
            if (!file.empty() && std::find(out.begin(), out.end(), file) == out.end()) out.push_back(std::move(file));
            start = end + 1;
        }
        return out;
    }
    if (!home.empty()) out.push_back((fs::path(home) / ".kube" / "config").string());
    return out;
}

Result<Kubeconfig> parseKubeconfig(std::string_view yaml, const std::string& path) {
    Kubeconfig config;
    config.files.push_back(path);
    Result<YAML::Node> loaded = loadYamlDocument(yaml, path);
    if (!loaded) return loaded.error();
    const YAML::Node& root = *loaded;
    if (!root || root.IsNull()) return config; // an empty file is an empty config, as for kubectl
    const FileReader reader(path);
    if (!root.IsMap()) return reader.error(root, "kubeconfig", "expected a map (apiVersion: v1, kind: Config)");
    try {
        std::string kind;
        if (Status s = reader.string(root, "kind", "kubeconfig", kind); !s) return s.error();
        if (!kind.empty() && kind != "Config")
            return reader.error(root["kind"], "kind", "expected Config, got " + inQuotes(kind));
        if (Status s = reader.string(root, "current-context", "kubeconfig", config.currentContext); !s)
            return s.error();
        Status s = forEachNamed(reader, root, "clusters", "cluster",
                                [&](const std::string& name, const YAML::Node& node, const std::string& field) {
                                    KubeconfigCluster cluster;
                                    cluster.origin = path;
                                    Status read = readCluster(reader, node, field, cluster);
                                    config.clusters[name] = std::move(cluster);
                                    return read;
                                });
        if (!s) return s.error();
        s = forEachNamed(reader, root, "users", "user",
                         [&](const std::string& name, const YAML::Node& node, const std::string& field) {
                             KubeconfigUser user;
                             user.origin = path;
                             Status read = readUser(reader, node, field, user);
                             config.users[name] = std::move(user);
                             return read;
                         });
        if (!s) return s.error();
        s = forEachNamed(reader, root, "contexts", "context",
                         [&](const std::string& name, const YAML::Node& node, const std::string& field) {
                             KubeconfigContext context;
                             context.origin = path;
                             Status read = reader.string(node, "cluster", field, context.cluster);
                             if (read) read = reader.string(node, "user", field, context.user);
                             if (read) read = reader.string(node, "namespace", field, context.nameSpace);
                             config.contexts[name] = std::move(context);
                             return read;
                         });
        if (!s) return s.error();
    } catch (const YAML::Exception& e) {
        return Error{path + ": " + e.msg};
    }
    return config;
}

Result<Kubeconfig> loadKubeconfig(const KubeconfigLocation& location) {
    Kubeconfig merged;
    for (const std::string& file : location.files()) {
        std::error_code ec;
        if (!fs::exists(file, ec)) {
            if (!location.explicitPath.empty()) return Error{"--kubeconfig " + file + ": no such file"};
            merged.warnings.push_back("KUBECONFIG names " + file + ", which does not exist");
            continue;
        }
        if (fs::is_directory(file, ec)) return Error{"kubeconfig " + file + " is a directory, not a file"};
        Result<std::string> text = readTextFile(file);
        if (!text) return text.error();
        Result<Kubeconfig> one = parseKubeconfig(*text, file);
        if (!one) return one.error();
        // The first file to name an entry keeps it whole; later files cannot add to it.
        merged.clusters.merge(one->clusters);
        merged.users.merge(one->users);
        merged.contexts.merge(one->contexts);
        if (merged.currentContext.empty()) merged.currentContext = one->currentContext;
        merged.files.push_back(file);
        for (std::string& warning : one->warnings) merged.warnings.push_back(std::move(warning));
    }
    return merged;
}

bool KubeConnection::secure() const {
    return server.starts_with("https://");
}

Result<KubeConnection> resolveKubeContext(const Kubeconfig& config, std::string_view contextName) {
    Result<std::string> name = chosenContextName(config, contextName);
    if (!name) return name.error();

    const std::string where = "context " + inQuotes(*name);
    const KubeconfigContext& ctx = config.contexts.at(*name);
    if (ctx.cluster.empty()) return Error{where + " (" + ctx.origin + "): cluster is not set"};
    if (ctx.user.empty()) return Error{where + " (" + ctx.origin + "): user is not set"};
    const auto clusterIt = config.clusters.find(ctx.cluster);
    if (clusterIt == config.clusters.end())
        return Error{where + ": cluster " + inQuotes(ctx.cluster) + " is not defined in the kubeconfig"};
    const auto userIt = config.users.find(ctx.user);
    if (userIt == config.users.end())
        return Error{where + ": user " + inQuotes(ctx.user) + " is not defined in the kubeconfig"};
    const KubeconfigCluster& cluster = clusterIt->second;
    const KubeconfigUser& user = userIt->second;
    const std::string inCluster = where + ": cluster " + inQuotes(ctx.cluster) + " (" + cluster.origin + ")";
    const std::string inUser = where + ": user " + inQuotes(ctx.user) + " (" + user.origin + ")";

    KubeConnection c;
    c.contextName = *name;
    c.clusterName = ctx.cluster;
    c.userName = ctx.user;
    c.nameSpace = ctx.nameSpace;
    if (Status s = applyCluster(c, cluster, inCluster); !s) return s.error();
    if (Status s = applyUser(c, user, inUser); !s) return s.error();
    if (user.exec) {
        Result<KubeExecConfig> exec = checkedExec(*user.exec, inUser);
        if (!exec) return exec.error();
        // The cluster info describes the connection as resolved above.
        if (exec->provideClusterInfo) c.execClusterInfo = execClusterInfo(cluster, c);
        c.exec = std::move(*exec);
    }
    return c;
}

Result<KubeConnection> inClusterConnection(std::string_view serviceAccountDirectory) {
    const char* host = std::getenv("KUBERNETES_SERVICE_HOST");
    const char* port = std::getenv("KUBERNETES_SERVICE_PORT");
    if (!host || !*host || !port || !*port)
        return Error{"not running in a cluster: KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT are not set"};
    const fs::path dir(serviceAccountDirectory);
    KubeConnection c;
    c.contextName = "in-cluster";
    c.clusterName = "in-cluster";
    c.userName = "service account";
    const std::string hostText(host);
    // An IPv6 address needs brackets in a URL.
    c.server = "https://" + (hostText.find(':') != std::string::npos ? '[' + hostText + ']' : hostText) + ':' + port;
    c.tokenFile = (dir / "token").string();
    Result<std::string> token = readTokenFile(c.tokenFile);
    if (!token) return Error{"in-cluster service account: " + token.error().message};
    c.token = std::move(*token);
    c.tls.caFile = (dir / "ca.crt").string();
    if (std::ifstream probe(c.tls.caFile); !probe)
        return Error{"in-cluster service account: cannot read " + c.tls.caFile + ": " + std::strerror(errno)};
    if (Result<std::string> ns = readTokenFile((dir / "namespace").string())) c.nameSpace = std::move(*ns);
    return c;
}

} // namespace topodeck
