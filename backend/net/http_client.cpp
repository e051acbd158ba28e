#include "net/http_client.h"

#include "core/text/text_format.h"
#include "net/child_process.h"
#include "net/line_splitter.h"

#include <curl/curl.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <optional>
#include <csignal>
#include <cstring>

namespace topodeck {

namespace {

constexpr std::size_t kMaxErrorBody = 64 * 1024;

// scheme://host:port of a redacted URL, with the scheme's default port made explicit.
std::string origin(std::string_view url) {
    const std::string redacted = redactUrl(url);
    const auto schemeEnd = redacted.find("://");
    if (schemeEnd == std::string::npos) return redacted;
    const std::string_view scheme = std::string_view(redacted).substr(0, schemeEnd);
    const auto hostStart = schemeEnd + 3;
    const auto hostEnd = std::min(redacted.find_first_of("/?#", hostStart), redacted.size());
    std::string result = redacted.substr(0, hostEnd);
    const auto colon = result.rfind(':');
    const bool hasPort = colon > hostStart && result.find(']', colon) == std::string::npos;
    if (!hasPort) result += equalsIgnoreCase(scheme, "https") ? ":443" : ":80";
    return result;
}

// Offset and length of `user:password@` in a URL (length 0 when absent); a URL without a scheme is
// read as if it had one.
void replaceAll(std::string& text, std::string_view secret) {
    if (secret.empty()) return;
    for (auto at = text.find(secret); at != std::string::npos; at = text.find(secret, at))
        text.replace(at, secret.size(), "<redacted>");
}

bool isTlsError(CURLcode code) {
    switch (code) {
    case CURLE_SSL_CONNECT_ERROR:
    case CURLE_PEER_FAILED_VERIFICATION:
    case CURLE_SSL_CERTPROBLEM:
    case CURLE_SSL_CIPHER:
    case CURLE_SSL_CACERT_BADFILE:
    case CURLE_SSL_ISSUER_ERROR:
    case CURLE_SSL_CRL_BADFILE:
    case CURLE_SSL_PINNEDPUBKEYNOTMATCH:
    case CURLE_SSL_INVALIDCERTSTATUS:
    case CURLE_SSL_ENGINE_INITFAILED:
    case CURLE_SSL_ENGINE_NOTFOUND:
    case CURLE_SSL_ENGINE_SETFAILED:
    case CURLE_SSL_SHUTDOWN_FAILED:
        return true;
    default:
        return false;
    }
}

using SlistPtr = std::unique_ptr<curl_slist, decltype(&curl_slist_free_all)>;

curl_blob pemBlob(const std::string& pem) {
    return curl_blob{const_cast<char*>(pem.data()), pem.size(), CURL_BLOB_COPY};
}

void applyTls(CURL* easy, const TlsOptions& tls) {
    if (tls.insecureSkipVerify) {
        curl_easy_setopt(easy, CURLOPT_SSL_VERIFYPEER, 0L);
        curl_easy_setopt(easy, CURLOPT_SSL_VERIFYHOST, 0L);
    }
    if (!tls.caData.empty()) {
        curl_blob blob = pemBlob(tls.caData);
        curl_easy_setopt(easy, CURLOPT_CAINFO_BLOB, &blob);
    } else if (!tls.caFile.empty()) {
        curl_easy_setopt(easy, CURLOPT_CAINFO, tls.caFile.c_str());
    }
    if (!tls.clientCertData.empty()) {
        curl_blob blob = pemBlob(tls.clientCertData);
        curl_easy_setopt(easy, CURLOPT_SSLCERT_BLOB, &blob);
    } else if (!tls.clientCertFile.empty()) {
        curl_easy_setopt(easy, CURLOPT_SSLCERT, tls.clientCertFile.c_str());
    }
    if (!tls.clientKeyData.empty()) {
        curl_blob blob = pemBlob(tls.clientKeyData);
        curl_easy_setopt(easy, CURLOPT_SSLKEY_BLOB, &blob);
    } else if (!tls.clientKeyFile.empty()) {
        curl_easy_setopt(easy, CURLOPT_SSLKEY, tls.clientKeyFile.c_str());
    }
}

// Requests the URL under the server name (SNI, certificate check, Host) while connecting to the
// URL's own host, as kubectl's `tls-server-name` does.
bool dialUnderServerName(std::string& url, const std::string& serverName, SlistPtr& connectTo) {
    std::unique_ptr<CURLU, decltype(&curl_url_cleanup)> parsed(curl_url(), curl_url_cleanup);
    char *host = nullptr, *port = nullptr, *rewritten = nullptr;
    const bool ok = curl_url_set(parsed.get(), CURLUPART_URL, url.c_str(), 0) == CURLUE_OK &&
                    curl_url_get(parsed.get(), CURLUPART_HOST, &host, 0) == CURLUE_OK &&
                    curl_url_get(parsed.get(), CURLUPART_PORT, &port, CURLU_DEFAULT_PORT) == CURLUE_OK &&
                    curl_url_set(parsed.get(), CURLUPART_HOST, serverName.c_str(), 0) == CURLUE_OK &&
                    curl_url_get(parsed.get(), CURLUPART_URL, &rewritten, 0) == CURLUE_OK;
    if (ok) {
        url = rewritten;
        const std::string mapping = serverName + ':' + port + ':' + host + ':' + port;
        connectTo.reset(curl_slist_append(nullptr, mapping.c_str()));
    }
    curl_free(host);
    curl_free(port);
    curl_free(rewritten);
    return ok && connectTo;
}

} // namespace

std::string_view HttpResponse::header(std::string_view name) const {
    for (const auto& [key, value] : headers)
        if (equalsIgnoreCase(key, name)) return value;
    return {};
}

struct HttpClient::Handles {
    CURLM* multi = nullptr;
    CURL* easy = nullptr;
};

// State shared with libcurl's callbacks during one transfer.
struct HttpClient::Transfer {
    CURL* easy = nullptr;
    const HttpRequest* request = nullptr;
    std::string where; // "GET <redacted url>"
    HttpResponse response;
    bool buffered = false;                        // send(): the body is kept, up to request->maxBody
    std::function<bool(std::string_view)> onData; // stream()
    std::function<bool(std::string&)> onLine;     // streamLines()
    LineSplitter lines;                           // streamLines(): the line so far
    std::function<void(long)> onHeaders;
    std::string* errorBody = nullptr;
    bool stoppedByCaller = false;
    bool callbackFailed = false;
    bool begun = false;       // a header line has arrived
    std::size_t received = 0; // body bytes so far, decoded
    std::string refusal;      // set: why the transfer was abandoned (a limit or a deadline)
    bool refusedBySize = false;

    void refuse(std::string why) {
        refusal = std::move(why);
        refusedBySize = true;
    }
    std::string hint() const {
        return request->limitVariable.empty() ? std::string() : raiseLimitHint(request->limitVariable, request->maxBody);
    }
    // Whether an answer is under way that must keep coming (the low-speed check).
    bool midAnswer() const { return buffered ? begun : onLine && lines.pendingSize() > 0; }

    // Splits a chunk of a 2xx body into lines for onLine; false stops the transfer.
    bool takeLines(std::string_view chunk) {
        switch (lines.feed(chunk, request->maxBody, onLine)) {
        case LineSplitter::Outcome::More:
            return true;
        case LineSplitter::Outcome::Stopped:
            stoppedByCaller = true;
            return false;
        case LineSplitter::Outcome::TooLong:
            refuse("refused a line of the response to " + where + ": it is longer than the limit of " +
                   describeByteSize(request->maxBody) + hint());
            return false;
        }
        return false;
    }
};

namespace {

size_t onHeader(char* data, size_t size, size_t count, void* userdata) {
    auto& transfer = *static_cast<HttpClient::Transfer*>(userdata);
    HttpResponse& response = transfer.response;
    const std::string_view line(data, size * count);
    try {
        // libcurl bounds the head itself (300 KiB in all); the body is ours to bound.
        transfer.begun = true;
        if (line.starts_with("HTTP/")) {
            response.headers.clear(); // a new response after `100 Continue` or a proxy's CONNECT
        } else if (const auto colon = line.find(':'); colon != std::string_view::npos) {
            const std::string_view name = trimWhitespace(line.substr(0, colon));
            const std::string_view value = trimWhitespace(line.substr(colon + 1));
            if (transfer.buffered && transfer.request->method != "HEAD" && equalsIgnoreCase(name, "Content-Length")) {
                unsigned long long length = 0;
                const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), length);
                const bool tooLong = error == std::errc::result_out_of_range ||
                                     (error == std::errc() && length > transfer.request->maxBody);
                if (tooLong) {
                    transfer.refuse("refused the response to " + transfer.where + ": its Content-Length of " +
                                    std::string(value) + " bytes is above the limit of " +
                                    describeByteSize(transfer.request->maxBody) + transfer.hint());
                    return 0;
                }
            }
            response.headers.emplace_back(name, value);
        } else if (trimWhitespace(line).empty() && transfer.onHeaders) {
            long status = 0;
            curl_easy_getinfo(transfer.easy, CURLINFO_RESPONSE_CODE, &status);
            if (status >= 200) transfer.onHeaders(status);
        }
    } catch (...) {
        return 0;
    }
    return line.size();
}

size_t onBody(char* data, size_t size, size_t count, void* userdata) {
    auto& t = *static_cast<HttpClient::Transfer*>(userdata);
    const std::string_view chunk(data, size * count);
    try {
        t.received += chunk.size();
        if (t.buffered) {
            // Never more than the limit in memory: the chunk that would pass it is not kept.
            if (chunk.size() > t.request->maxBody - t.response.body.size()) {
                t.refuse("refused the response to " + t.where + ": its body is larger than the limit of " +
                         describeByteSize(t.request->maxBody) + t.hint());
                return 0;
            }
            t.response.body.append(chunk);
            return chunk.size();
        }
        long status = 0;
        curl_easy_getinfo(t.easy, CURLINFO_RESPONSE_CODE, &status);
        if (status < 200 || status > 299) {
            t.errorBody->append(chunk.substr(0, kMaxErrorBody - std::min(kMaxErrorBody, t.errorBody->size())));
            return chunk.size();
        }
        if (t.onLine) {
            if (t.takeLines(chunk)) return chunk.size();
        } else if (t.onData(chunk)) {
            return chunk.size();
        } else {
            t.stoppedByCaller = true;
        }
    } catch (...) {
        t.callbackFailed = true; // an exception must not unwind through libcurl's C frames
    }
    return 0; // anything but chunk.size() aborts the transfer
}

std::string failureMessage(CURL* easy, CURLcode code, const char* errorBuffer, const HttpRequest& request,
                           const std::string& where) {
    const std::string detail = errorBuffer[0] ? errorBuffer : curl_easy_strerror(code);
    switch (code) {
    case CURLE_OPERATION_TIMEDOUT: {
        curl_off_t pretransfer = 0; // 0 until the connection (and TLS handshake) is up
        curl_easy_getinfo(easy, CURLINFO_PRETRANSFER_TIME_T, &pretransfer);
        if (pretransfer != 0)
            return "timed out after " + std::to_string(request.timeout.count()) + " ms waiting for " + where;
        auto limit = request.connectTimeout;
        if (request.timeout.count() > 0) limit = std::min(limit, request.timeout);
        return "timed out after " + std::to_string(limit.count()) + " ms connecting to " + origin(request.url);
    }
    case CURLE_COULDNT_CONNECT: {
        long osError = 0;
        curl_easy_getinfo(easy, CURLINFO_OS_ERRNO, &osError);
        return "cannot connect to " + origin(request.url) + ": " +
               (osError != 0 ? std::string(std::strerror(static_cast<int>(osError))) : detail);
    }
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_COULDNT_RESOLVE_PROXY:
        return "cannot resolve the host of " + where + ": " + detail;
    default:
        // A TLS alert after the handshake (e.g. a required client certificate) surfaces on read.
        if (isTlsError(code) || (code == CURLE_RECV_ERROR && detail.find("SSL") != std::string::npos))
            return "TLS failure with " + origin(request.url) + ": " + detail;
        return where + " failed: " + detail;
    }
}

// The handle's transport: where to connect, through what, how long to wait, and TLS. The error
// buffer and the connect-to list must outlive the transfer; the caller owns them.
void setTransportOptions(CURL* easy, const std::string& url, char* errorBuffer, const HttpRequest& request,
                         const HttpClientOptions& options, curl_slist* connectTo) {
    curl_easy_setopt(easy, CURLOPT_URL, url.c_str());
    curl_easy_setopt(easy, CURLOPT_ERRORBUFFER, errorBuffer);
    curl_easy_setopt(easy, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(easy, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(request.connectTimeout.count()));
    curl_easy_setopt(easy, CURLOPT_TIMEOUT_MS, static_cast<long>(request.timeout.count()));
    curl_easy_setopt(easy, CURLOPT_HTTP_VERSION, static_cast<long>(CURL_HTTP_VERSION_2TLS));
    curl_easy_setopt(easy, CURLOPT_ACCEPT_ENCODING, ""); // every encoding libcurl can decode
    curl_easy_setopt(easy, CURLOPT_TCP_KEEPALIVE, 1L);   // watches sit idle for minutes
    if (connectTo) curl_easy_setopt(easy, CURLOPT_CONNECT_TO, connectTo);
    if (!options.proxy.empty()) curl_easy_setopt(easy, CURLOPT_PROXY, options.proxy.c_str());
    // A proxy's answer to CONNECT is not the server's: it must not start the low-speed check.
    curl_easy_setopt(easy, CURLOPT_SUPPRESS_CONNECT_HEADERS, 1L);
    if (!options.unixSocket.empty()) curl_easy_setopt(easy, CURLOPT_UNIX_SOCKET_PATH, options.unixSocket.c_str());
    applyTls(easy, options.tls);
}

void appendHeader(SlistPtr& headers, const std::string& line) {
    if (curl_slist* grown = curl_slist_append(headers.get(), line.c_str())) {
        headers.release(); // same list, now one longer
        headers.reset(grown);
    }
}

// Credentials, the request's headers, its method and body. Returns the header list, which must
// outlive the transfer.
SlistPtr setHeadersAndMethod(CURL* easy, const HttpRequest& request, const HttpClientOptions& options) {
    SlistPtr headers(nullptr, curl_slist_free_all);
    if (!options.bearerToken.empty()) appendHeader(headers, "Authorization: Bearer " + options.bearerToken);
    if (!options.basicUser.empty()) {
        curl_easy_setopt(easy, CURLOPT_HTTPAUTH, static_cast<long>(CURLAUTH_BASIC));
        curl_easy_setopt(easy, CURLOPT_USERNAME, options.basicUser.c_str());
        curl_easy_setopt(easy, CURLOPT_PASSWORD, options.basicPassword.c_str());
    }
    for (const auto& [name, value] : request.headers) appendHeader(headers, name + ": " + value);

    if (request.method == "GET") {
        curl_easy_setopt(easy, CURLOPT_HTTPGET, 1L);
    } else if (request.method == "HEAD") {
        curl_easy_setopt(easy, CURLOPT_NOBODY, 1L);
    } else {
        curl_easy_setopt(easy, CURLOPT_CUSTOMREQUEST, request.method.c_str());
        if (!request.body.empty() || request.method != "DELETE") {
            curl_easy_setopt(easy, CURLOPT_POSTFIELDS, request.body.data());
            curl_easy_setopt(easy, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(request.body.size()));
            appendHeader(headers, "Expect:"); // no 100-continue round trip before large bodies
        }
    }
    if (headers) curl_easy_setopt(easy, CURLOPT_HTTPHEADER, headers.get());
    return headers;
}

using Clock = std::chrono::steady_clock;

// The low-speed check: each window of lowSpeedTime while an answer is under way must bring
// lowSpeedLimit bytes a second. libcurl's own (CURLOPT_LOW_SPEED_*) cannot tell a watch's
// silence between events from a stall inside one, and counts in whole seconds.
class LowSpeedCheck {
public:
    explicit LowSpeedCheck(const HttpRequest& request)
        : m_request(request), m_enabled(request.lowSpeedLimit > 0 && request.lowSpeedTime.count() > 0) {}

    // How long to wait for activity between checks: often enough to end a window on time.
    int pollMs() const {
        return m_enabled ? static_cast<int>(std::clamp<long long>(m_request.lowSpeedTime.count() / 4, 10, 1000)) : 1000;
    }

    // False, with the transfer's refusal set, when a window just ended under the limit.
    bool passes(HttpClient::Transfer& transfer, const std::string& where) {
        if (!m_enabled) return true;
        const auto now = Clock::now();
        if (!transfer.midAnswer()) {
            m_windowStart.reset();
        } else if (!m_windowStart) {
            m_windowStart = now;
            m_windowFrom = transfer.received;
        } else if (now - *m_windowStart >= m_request.lowSpeedTime) {
            const std::size_t got = transfer.received - m_windowFrom;
            const double seconds = std::chrono::duration<double>(now - *m_windowStart).count();
            if (static_cast<double>(got) < static_cast<double>(m_request.lowSpeedLimit) * seconds) {
                const auto lasted = std::chrono::duration_cast<std::chrono::milliseconds>(now - *m_windowStart);
                transfer.refusal = got == 0
                                       ? "the server stalled in the middle of the response to " + where +
                                             ": nothing for " + describeDuration(lasted)
                                       : "the server is too slow in the middle of the response to " + where + ": " +
                                             std::to_string(got) + " bytes in " + describeDuration(lasted) +
                                             ", under the least of " + describeByteSize(m_request.lowSpeedLimit) + "/s";
                return false;
            }
            m_windowStart = now;
            m_windowFrom = transfer.received;
        }
        return true;
    }

private:
    const HttpRequest& m_request;
    const bool m_enabled;
    std::optional<Clock::time_point> m_windowStart;
    std::size_t m_windowFrom = 0;
};

// Drives the easy handle on the multi handle until the transfer ends, is cancelled or fails the
// low-speed check; the multi handle's own loop, so that cancel() can wake it at once.
CURLcode runTransfer(CURLM* multi, CURL* easy, const std::atomic<bool>& cancelled, const HttpRequest& request,
                     HttpClient::Transfer& transfer, const std::string& where) {
    LowSpeedCheck speed(request);
    const int pollMs = speed.pollMs();
    CURLcode code = CURLE_OK;
    bool done = false;
    curl_multi_add_handle(multi, easy);
    while (!done) {
        int running = 0;
        if (curl_multi_perform(multi, &running) != CURLM_OK) {
            code = CURLE_FAILED_INIT;
            break;
        }
        int queued = 0;
        while (CURLMsg* message = curl_multi_info_read(multi, &queued)) {
            if (message->msg == CURLMSG_DONE) {
                code = message->data.result;
                done = true;
            }
        }
        if (done) break;
        if (cancelled) {
            code = CURLE_ABORTED_BY_CALLBACK;
            break;
        }
        if (!speed.passes(transfer, where)) {
            code = CURLE_OPERATION_TIMEDOUT;
            break;
        }
        curl_multi_poll(multi, nullptr, 0, pollMs, nullptr);
    }
    curl_multi_remove_handle(multi, easy); // mid-transfer this closes the connection
    return code;
}

void readResponseInfo(CURL* easy, HttpResponse& response) {
    curl_easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &response.status);
    long version = 0;
    curl_easy_getinfo(easy, CURLINFO_HTTP_VERSION, &version);
    response.httpVersion = version == CURL_HTTP_VERSION_2_0 ? 2 : version == CURL_HTTP_VERSION_1_1 ? 11 : 10;
}

// libcurl's own text could echo a URL or header; make sure no secret survives.
void redactSecrets(std::string& message, const HttpRequest& request, const HttpClientOptions& options) {
    replaceAll(message, options.bearerToken);
    replaceAll(message, options.basicPassword);
    replaceAll(message, urlUserinfo(request.url));
    replaceAll(message, urlUserinfo(options.proxy));
    for (const auto& [name, value] : request.headers)
        if (equalsIgnoreCase(name, "Authorization") || equalsIgnoreCase(name, "X-SLURM-USER-TOKEN"))
            replaceAll(message, value);
}

} // namespace

HttpClient::HttpClient(HttpClientOptions options) : m_options(std::move(options)), m_handles(new Handles) {
    // Magic statics make the one-time global init thread-safe. A peer that closes a TLS
    // connection makes OpenSSL's write raise SIGPIPE, which would end the whole process (libcurl
    // does not guard against it with CURLOPT_NOSIGNAL): every client of this class wants it off.
    static const bool initialised = [] {
        std::signal(SIGPIPE, SIG_IGN);
        return curl_global_init(CURL_GLOBAL_DEFAULT) == CURLE_OK;
    }();
    if (!initialised) return;
    m_handles->multi = curl_multi_init();
    m_handles->easy = curl_easy_init();
}

HttpClient::~HttpClient() {
    if (m_handles->easy) curl_easy_cleanup(m_handles->easy);
    if (m_handles->multi) curl_multi_cleanup(m_handles->multi);
}

void HttpClient::cancel() {
    m_cancelled = true;
    // Wakes curl_multi_poll at once; libcurl's progress callback only runs about once a second
    // on an idle connection, too slow for stopping a hanging watch.
    if (m_handles->multi) curl_multi_wakeup(m_handles->multi);
}

void HttpClient::resetCancel() {
    m_cancelled = false;
}

Result<HttpResponse> HttpClient::send(const HttpRequest& request) {
    Transfer transfer;
    transfer.buffered = true;
    if (Status status = perform(request, transfer); !status) return status.error();
    return std::move(transfer.response);
}

Result<long> HttpClient::streamLines(const HttpRequest& request, std::function<bool(std::string& line)> onLine,
                                     std::function<void(long status)> onHeaders) {
    m_errorBody.clear();
    Transfer transfer;
    transfer.onLine = std::move(onLine);
    transfer.onHeaders = std::move(onHeaders);
    transfer.errorBody = &m_errorBody;
    if (Status status = perform(request, transfer); !status) return status.error();
    return transfer.response.status;
}

Result<long> HttpClient::stream(const HttpRequest& request, std::function<bool(std::string_view chunk)> onData,
                               std::function<void(long status)> onHeaders) {
    m_errorBody.clear();
    Transfer transfer;
    transfer.onData = std::move(onData);
    transfer.onHeaders = std::move(onHeaders);
    transfer.errorBody = &m_errorBody;
    if (Status status = perform(request, transfer); !status) return status.error();
    return transfer.response.status;
}

Status HttpClient::perform(const HttpRequest& request, Transfer& transfer) {
    const std::string where = request.method + ' ' + redactUrl(request.url);
    m_refusedByLimit = false;
    transfer.request = &request;
    transfer.where = where;
    if (!m_handles->easy || !m_handles->multi) return Error{"cannot initialise libcurl for " + where};
    if (m_cancelled) return Error{"cancelled: " + where};

    CURL* easy = m_handles->easy;
    transfer.easy = easy;
    char errorBuffer[CURL_ERROR_SIZE] = {};

    std::string url = request.url;
    SlistPtr headers(nullptr, curl_slist_free_all);
    SlistPtr connectTo(nullptr, curl_slist_free_all);
    // Leave no pointers into this frame (error buffer, header lists) in the reused handle; reset
    // keeps live connections and TLS sessions.
    struct ResetOnExit {
        CURL* easy;
        ~ResetOnExit() { curl_easy_reset(easy); }
    } resetOnExit{easy};

    const TlsOptions& tls = m_options.tls;
    if (!tls.serverName.empty() && !dialUnderServerName(url, tls.serverName, connectTo))
        return Error{"invalid URL or TLS server name for " + where};

    setTransportOptions(easy, url, errorBuffer, request, m_options, connectTo.get());
    headers = setHeadersAndMethod(easy, request, m_options);

    curl_easy_setopt(easy, CURLOPT_HEADERFUNCTION, onHeader);
    curl_easy_setopt(easy, CURLOPT_HEADERDATA, &transfer);
    curl_easy_setopt(easy, CURLOPT_WRITEDATA, &transfer);
    curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, onBody);

    const auto started = Clock::now();
    const CURLcode code = runTransfer(m_handles->multi, easy, m_cancelled, request, transfer, where);
    readResponseInfo(easy, transfer.response);
    const auto elapsedMs = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - started).count();

    if (code == CURLE_OK || (code == CURLE_WRITE_ERROR && transfer.stoppedByCaller)) {
        spdlog::debug("http {} -> {} in {} ms", where, transfer.response.status, elapsedMs);
        return {};
    }

    m_refusedByLimit = transfer.refusedBySize;
    std::string message = m_cancelled && code == CURLE_ABORTED_BY_CALLBACK ? "cancelled: " + where
                          : !transfer.refusal.empty()                      ? transfer.refusal
                          : transfer.callbackFailed ? "failed while receiving the response of " + where
                                                    : failureMessage(easy, code, errorBuffer, request, where);
    redactSecrets(message, request, m_options);
    spdlog::debug("http {}", message);
    return Error{std::move(message)};
}

} // namespace topodeck
