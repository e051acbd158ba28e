#include "net/kube_client.h"

namespace topodeck {

namespace {

HttpClientOptions clientOptions(const KubeConnection& connection) {
    HttpClientOptions options;
    options.tls = connection.tls;
    options.proxy = connection.proxy;
    // Like client-go, never send a password over plain HTTP.
    if (connection.secure()) {
        options.basicUser = connection.username;
        options.basicPassword = connection.password;
    }
    return options;
}

std::string_view reasonPhrase(long status) {
    switch (status) {
    case 400: return "Bad Request";
    case 401: return "Unauthorized";
    case 403: return "Forbidden";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 409: return "Conflict";
    case 410: return "Gone";
    case 422: return "Unprocessable Entity";
    case 429: return "Too Many Requests";
    case 500: return "Internal Server Error";
    case 502: return "Bad Gateway";
    case 503: return "Service Unavailable";
    case 504: return "Gateway Timeout";
    default: return "";
    }
}

} // namespace

std::string kubeUserAgent() {
    return "topodeck/" TOPODECK_NET_VERSION;
}

std::string describeKubeStatus(long status, std::string_view body) {
    std::string text = std::to_string(status);
    if (const std::string_view phrase = reasonPhrase(status); !phrase.empty()) text += ' ' + std::string(phrase);
    if (const std::optional<KubeStatus> parsed = readKubeStatus(body); parsed && !parsed->message.empty())
        return text + ": " + parsed->message;
    return text;
}

KubeClient::KubeClient(std::shared_ptr<KubeCredentials> credentials, ReadLimits limits)
    : m_credentials(std::move(credentials)), m_limits(limits), m_http(clientOptions(m_credentials->connection())) {}

Result<HttpRequest> KubeClient::request(std::string_view pathAndQuery, std::chrono::milliseconds timeout,
                                        KubeAuth& auth) {
    const KubeConnection& connection = m_credentials->connection();
    HttpRequest request;
    request.url = connection.server + std::string(pathAndQuery);
    request.timeout = timeout;
    request.maxBody = m_limits.kubeResponse;
    request.limitVariable = kMaxKubeResponseVariable;
    request.lowSpeedLimit = m_limits.lowSpeedLimit;
    request.lowSpeedTime = m_limits.lowSpeedTime;
    request.headers = {{"Accept", "application/json"}, {"User-Agent", kubeUserAgent()}};
    if (!connection.secure()) return request;
    Result<KubeAuth> current = m_credentials->current();
    if (!current) return Error{"getting credentials for context \"" + connection.contextName + "\": " +
                               current.error().message};
    auth = std::move(*current);
    if (!auth.bearerToken.empty()) request.headers.emplace_back("Authorization", "Bearer " + auth.bearerToken);
    if (auth.clientCertificateData != m_execCertificate) {
        TlsOptions tls = connection.tls;
        if (!auth.clientCertificateData.empty()) {
            tls.clientCertFile.clear();
            tls.clientKeyFile.clear();
            tls.clientCertData = auth.clientCertificateData;
            tls.clientKeyData = auth.clientKeyData;
        }
        m_http.setTlsOptions(std::move(tls));
        m_execCertificate = auth.clientCertificateData;
    }
    if (!connection.impersonate.empty()) request.headers.emplace_back("Impersonate-User", connection.impersonate);
    for (const std::string& group : connection.impersonateGroups) request.headers.emplace_back("Impersonate-Group", group);
    return request;
}

Result<HttpResponse> KubeClient::get(std::string_view pathAndQuery, std::chrono::milliseconds timeout) {
    return send("GET", pathAndQuery, {}, {}, timeout);
}

Result<HttpResponse> KubeClient::send(std::string_view method, std::string_view pathAndQuery,
                                      std::string_view contentType, std::string body,
                                      std::chrono::milliseconds timeout) {
    for (int attempt = 0;; ++attempt) {
        KubeAuth auth;
        Result<HttpRequest> built = request(pathAndQuery, timeout, auth);
        if (!built) return built.error();
        built->method = std::string(method);
        if (!contentType.empty()) built->headers.emplace_back("Content-Type", std::string(contentType));
        built->body = body;
        Result<HttpResponse> response = m_http.send(*built);
        if (!response || response->status != 401 || attempt > 0) return response;
        m_credentials->rejected(auth);
    }
}

Result<long> KubeClient::watch(std::string_view pathAndQuery, std::chrono::milliseconds timeout,
                               const std::function<bool(std::string& line)>& onLine,
                               const std::function<void(long status)>& onHeaders) {
    for (int attempt = 0;; ++attempt) {
        KubeAuth auth;
        Result<HttpRequest> built = request(pathAndQuery, timeout, auth);
        if (!built) return built.error();
        built->maxBody = m_limits.kubeEvent; // one line of the stream is one event
        built->limitVariable = kMaxKubeEventVariable;
        Result<long> status = m_http.streamLines(*built, [&](std::string& line) { return onLine(line); }, [&](long httpStatus) {
            // A 401 is answered again with fresh credentials; only the final answer counts.
            if (onHeaders && (httpStatus != 401 || attempt > 0)) onHeaders(httpStatus);
        });
        if (!status || *status != 401 || attempt > 0) return status;
        m_credentials->rejected(auth);
    }
}

} // namespace topodeck
