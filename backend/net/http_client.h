#pragma once

#include "core/live/live_target.h"
#include "core/result.h"
#include "core/text/url_text.h"

#include <atomic>
#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace topodeck {

using HttpHeaders = std::vector<std::pair<std::string, std::string>>;

// Every member has an initializer so callers can use designated initializers
// (`HttpRequest{.url = ...}`) without -Wmissing-field-initializers.
struct HttpRequest {
    std::string method = "GET";
    std::string url{};
    HttpHeaders headers{};
    std::string body{};
    std::chrono::milliseconds connectTimeout{10000};
    // Whole transfer; 0 means no limit (a watch bounded by the server's timeoutSeconds).
    std::chrono::milliseconds timeout{30000};
    // The most send() keeps of a body, and streamLines() of one line; beyond it the transfer stops
    // with an error that names the limit and limitVariable (the setting that raises it). A
    // Content-Length above it is refused at the headers. stream() leaves sizes to its caller.
    std::size_t maxBody = ReadLimits{}.kubeResponse;
    std::string limitVariable{};
    // Once the answer has begun (send(): from its first header byte; streamLines(): while a line
    // is incomplete), fewer than lowSpeedLimit bytes a second over lowSpeedTime fail it: a server
    // that stalls or trickles. lowSpeedLimit 0: no such check.
    std::size_t lowSpeedLimit = ReadLimits{}.lowSpeedLimit;
    std::chrono::milliseconds lowSpeedTime = ReadLimits{}.lowSpeedTime;
};

struct HttpClientOptions {
    TlsOptions tls{};
    // Empty: libcurl's usual https_proxy/no_proxy environment variables apply, as with kubectl.
    std::string proxy{};
    std::string bearerToken{};
    std::string basicUser{};
    std::string basicPassword{};
    // Connect to this unix socket instead of the URL's host and port (slurmrestd's
    // rest_auth/local); the URL still gives the path and the Host header.
    std::string unixSocket{};
};

struct HttpResponse {
    long status = 0;
    HttpHeaders headers{};
    std::string body{};
    int httpVersion = 0; // 11 for HTTP/1.1, 2 for HTTP/2, as negotiated

    // First header with this name (case-insensitive), or empty.
    std::string_view header(std::string_view name) const;
};

// One libcurl handle reused across requests so connections (and TLS sessions) are kept alive.
// Not thread-safe: use one client per thread; only cancel() may be called from another thread.
// Non-2xx responses are values, not errors; errors are transport failures (connect, TLS, timeout,
// cancel) with messages that never contain credentials.
class HttpClient {
public:
    explicit HttpClient(HttpClientOptions options = {});
    ~HttpClient();
    HttpClient(const HttpClient&) = delete;
    HttpClient& operator=(const HttpClient&) = delete;

    Result<HttpResponse> send(const HttpRequest& request);

    // For later requests, e.g. a client certificate an exec credential plugin handed out. libcurl
    // opens a new connection for a new certificate rather than reuse one made with the old.
    void setTlsOptions(TlsOptions tls) { m_options.tls = std::move(tls); }

    // Streams a 2xx response body to onData as it arrives; returning false stops the transfer
    // cleanly (the result is then the status). The body of any other status is not streamed but
    // kept in errorBody() (first 64 KiB), e.g. for a Kubernetes Status object. Returns the status.
    // onHeaders, when set, hears the final status as soon as the headers are in: a watch that the
    // server accepted is established before its first event arrives.
    Result<long> stream(const HttpRequest& request, std::function<bool(std::string_view chunk)> onData,
                        std::function<void(long status)> onHeaders = {});
    // stream() in lines: each complete line without its '\n' (empty ones skipped) to onLine, which
    // may move from it; false stops cleanly. A line longer than request.maxBody fails the transfer
    // (refusedByLimit()), as does a line that stalls or trickles (see lowSpeedLimit).
    Result<long> streamLines(const HttpRequest& request, std::function<bool(std::string& line)> onLine,
                             std::function<void(long status)> onHeaders = {});
    const std::string& errorBody() const { return m_errorBody; }

    // Whether the last transfer failed because its answer was larger than a limit (a body, a line
    // or the headers): the server answered, but not something to keep.
    bool refusedByLimit() const { return m_refusedByLimit; }

    // Aborts the running transfer promptly; this and every later transfer fail with a "cancelled"
    // error until resetCancel(), so a cancel that races with the start of a request is not lost.
    void cancel();
    void resetCancel();

    struct Transfer; // one transfer's state, shared with libcurl's callbacks; not for users

private:
    struct Handles; // libcurl handles, kept out of the header so users need no curl headers
    Status perform(const HttpRequest& request, Transfer& transfer);

    HttpClientOptions m_options;
    std::unique_ptr<Handles> m_handles;
    std::atomic<bool> m_cancelled{false};
    std::string m_errorBody{};
    bool m_refusedByLimit = false;
};

} // namespace topodeck
